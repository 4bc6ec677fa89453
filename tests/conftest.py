"""Settings every test process needs before numba or torch start threads."""

import os

# torch's and numba's OpenMP teams spin while idle by default; in one process
# they take each other's cores, and a training smoke test ran 5x slower
# (44 s instead of 8). `import azgames` sets the same (azgames/core/threads.py);
# here it is set before any test module imports torch, which may come first.
os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")

# numba's compile notice (azgames.core.compile_notice) writes to stderr from a
# thread whenever a cold cache compiles: tests that read stderr exactly would
# see it in a cold run only. tests/test_compile_notice.py tests it directly.
os.environ["AZGAMES_COMPILE_NOTICE"] = "0"
