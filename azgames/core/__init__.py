"""The core: what every game shares and no game writes.

The kernel contract (:mod:`.contract`) turns a game's few numba rules into
every entry point (AEC step and observe, the vector env's batched step,
observe, reset and random actions, the searches' hooks), deciding threads
(:mod:`.threads`) and the kernel cache (:mod:`.kernel_cache`) once. Beside
it: the envs (:mod:`.aec`, :mod:`.vector`), the game registry, records,
options and the checks every input passes. The core imports no game, agent
or app (import-linter, ``pyproject.toml``).
"""
