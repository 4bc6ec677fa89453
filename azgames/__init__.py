"""azgames: reinforcement-learning environments for Azacru, Azimuth and Azure Attack.

``azgames.make("azacru", num_players=2)`` returns a game's PettingZoo AEC env;
``azgames.make_vec("azacru", num_envs=4096, seed=0)`` its batched vector env.
"""

from .core import compile_notice, threads  # noqa: F401  (threads: before torch's or numba's OpenMP starts)
from .core.records import from_record, load_record, save_record, to_record
from .core.registry import list_games, make, make_vec, register

__all__ = [
    "make",
    "make_vec",
    "register",
    "list_games",
    "to_record",
    "from_record",
    "save_record",
    "load_record",
]

compile_notice.install()
