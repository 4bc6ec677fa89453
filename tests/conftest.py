"""Settings every test process needs before numba or torch start threads."""

import atexit
import os
import shutil
import tempfile

# torch's and numba's OpenMP teams spin while idle by default; in one process
# they take each other's cores, and a training smoke test ran 5x slower
# (44 s instead of 8). `import azgames` sets the same (azgames/core/threads.py);
# here it is set before any test module imports torch, which may come first.
os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")

# numba's compile notice (azgames.core.compile_notice) writes to stderr from a
# thread whenever a cold cache compiles: tests that read stderr exactly would
# see it in a cold run only. tests/test_compile_notice.py tests it directly.
os.environ["AZGAMES_COMPILE_NOTICE"] = "0"

# stable-baselines3 makes an empty log folder in the system's temporary
# folder at every `learn()` (SB3-<date>) unless SB3_LOGDIR names one: the SB3
# tests and benchmark smoke runs would leave dozens behind each run. One folder
# a test process, removed when it exits.
if "SB3_LOGDIR" not in os.environ:
    os.environ["SB3_LOGDIR"] = tempfile.mkdtemp(prefix="azgames-tests-sb3-")
    atexit.register(shutil.rmtree, os.environ["SB3_LOGDIR"], ignore_errors=True)
