"""What a game declares to the shared envs: its metadata and its rules object.

A game plugs into the suite by subclassing :class:`Rules` once per game. A
``Rules`` instance is one validated configuration (player count, variant
options) and is immutable: envs share it, and it pickles by value. The env
wrappers (:mod:`azgames.core.aec`, :mod:`azgames.core.vector`) call only the methods
below, so everything game-specific stays in the game's package.

Kernels report the outcome of a step as one packed integer (see
:func:`pack_status`) so that the AEC step needs a single numba call.
"""

from __future__ import annotations

import abc
from dataclasses import dataclass, field
from typing import Any, ClassVar, NamedTuple

import numpy as np
from gymnasium import spaces

from .batch import random_legal_actions, random_legal_actions_serial
from .chance import ChanceOutcome
from .jit import njit
from .options import Option
from .threads import run_batched

ONGOING, TERMINATED, TRUNCATED = 0, 1, 2
_REWARDED = 4
#: Set in a step's status by a game with explicit chance when the step drew
#: (a die rolled): the AEC env then reports the draw in ``infos``, and skips
#: asking the rules on the many steps that draw nothing.
DREW = 8


@dataclass(frozen=True)
class LastStep:
    """The step that led to a position, for its picture and the browser."""

    agent: str  # who played it
    action: int
    move: str  # its notation, in the position before
    #: The position before it (a batch of one), for what a picture can only
    #: tell by comparing (gold picked up, banked); None where not kept.
    before: Any = field(default=None, compare=False, repr=False)


@njit
def pack_status(outcome, rewarded, next_player):
    """Outcome (ONGOING/TERMINATED/TRUNCATED), whether any reward is non-zero,
    who acts next (a step that drew adds :data:`DREW`)."""
    return next_player * 16 + (_REWARDED if rewarded else 0) + outcome


def unpack_status(code: int) -> tuple[int, bool, int]:
    """Inverse of :func:`pack_status`: ``(outcome, rewarded, next_player)``."""
    return code & 3, bool(code & _REWARDED), code >> 4


@dataclass(frozen=True)
class Baseline:
    """A baseline agent a game ships in its own package (its greedy):
    ``factory`` is ``"module:attribute"``, imported when the agent is built
    (importing it may compile), called as ``factory(seed=..., **options)``."""

    factory: str
    summary: str


@dataclass(frozen=True)
class GameInfo:
    """A game's metadata, declared up front as OpenSpiel does."""

    name: str
    long_name: str
    min_players: int
    max_players: int
    chance: str  # "deterministic" or "explicit_stochastic"
    information: str  # "perfect" or "imperfect"
    utility: str  # "zero_sum", "constant_sum", "general_sum" or "identical" (cooperative: one shared reward)
    reward_model: str  # "terminal" or "rewards"
    #: Bumped whenever the game's rules or observations change, as PettingZoo
    #: names ``connect_four_v3``: a record or a result of another version is
    #: of another game.
    version: int = 1


class Rules(abc.ABC):
    """One game's rules in one configuration, as the shared envs see them."""

    #: The game's metadata, declared on its class; a configuration may refine
    #: it on the instance (a 2-player game that is zero-sum with two only).
    info: GameInfo
    #: The game's state named tuple (:mod:`azgames.core.state`).
    state_type: ClassVar[type[Any]]
    #: Every option the game accepts besides ``num_players``: what the front
    #: ends offer (:mod:`azgames.core.options`).
    OPTIONS: ClassVar[tuple[Option, ...]] = ()
    #: The baseline agents the game ships, by registered name (``greedy``).
    baselines: ClassVar[dict[str, Baseline]] = {}
    #: The module of the game's search hooks (``legal``, ``play``, ...; see
    #: :mod:`azgames.core.search_hooks`), or None: no search plays the game.
    search_hooks: ClassVar[str | None] = None
    #: The module whose ``symmetries(rules)`` lists the transformations of a
    #: position that the rules cannot tell apart (:mod:`azgames.core.symmetry`),
    #: or None: none declared.
    symmetries: ClassVar[str | None] = None

    def __init__(self, num_players: int, **options: Any):
        info = self.info
        if (
            isinstance(num_players, (bool, np.bool_))
            or not isinstance(num_players, (int, np.integer))
            or not (info.min_players <= num_players <= info.max_players)
        ):
            raise ValueError(
                f"{info.name}: num_players={num_players!r} is not supported; "
                f"choose {info.min_players} to {info.max_players}"
            )
        self.num_players = int(num_players)
        unknown = set(options) - set(self.option_defaults())
        if unknown:
            raise ValueError(
                f"{info.name}: unknown option(s) {sorted(unknown)}; "
                f"known options are {sorted(self.option_defaults())}"
            )
        #: The full, JSON-able option set, defaults filled in.
        self.options: dict[str, Any] = {**self.option_defaults(), **options}

    # Compiled entry points (azgames.core.jit.specialize) are bound on first use,
    # not at construction: listing games and building an env with default
    # options then compile nothing. They are not picklable either: a
    # pickled Rules drops them and binds them again when next used.
    def __getattr__(self, name: str) -> Any:
        if name.startswith("_entry_"):
            self.bind_kernels()
            if name in self.__dict__:
                return self.__dict__[name]
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}", name=name, obj=self)

    def __getstate__(self) -> dict[str, Any]:
        return {k: v for k, v in self.__dict__.items() if not k.startswith("_entry_")}

    def bind_kernels(self) -> None:  # noqa: B027 (a hook: most games bind nothing)
        """Specialise hot kernels for this configuration (see ``__getstate__``)."""

    # ------------------------------------------------------------ declaration
    @classmethod
    def option_defaults(cls) -> dict[str, Any]:
        """Every option the game accepts besides ``num_players``, with its default."""
        return {o.name: o.default for o in cls.OPTIONS}

    @property
    def sides(self) -> list[list[int]]:
        """Seats grouped by side, a side sharing its reward (a team, or one
        seat): each seat is its own side unless the game says otherwise."""
        return [[p] for p in range(self.num_players)]

    @property
    @abc.abstractmethod
    def agents(self) -> tuple[str, ...]:
        """Agent names, indexed by player number."""

    @property
    @abc.abstractmethod
    def num_actions(self) -> int:
        """Size of the fixed ``Discrete`` action space."""

    @abc.abstractmethod
    def observation_shape(self, player: int) -> tuple[int, ...]:
        """Shape of ``player``'s observation planes (int8)."""

    def observation_bounds(self, player: int) -> tuple[int, int]:
        """Lowest and highest value in ``player``'s observation planes."""
        return 0, 1

    def observation_space(self, player: int) -> spaces.Dict:
        low, high = self.observation_bounds(player)
        return spaces.Dict(
            {
                "observation": spaces.Box(
                    low=low, high=high, shape=self.observation_shape(player), dtype=np.int8
                ),
                "action_mask": spaces.Box(0, 1, shape=(self.num_actions,), dtype=np.int8),
            }
        )

    # ------------------------------------------------------------ one game (batch of one)
    @abc.abstractmethod
    def initial_state(self, rng_words: np.ndarray) -> NamedTuple:
        """A batch of ``len(rng_words)`` fresh games, each seeded with its word."""

    def check_state(self, state, batch: int | None = None) -> None:
        """Raise ValueError unless ``state`` has this configuration's fields,
        dtypes and per-game shapes (and ``batch`` games, if given), and
        values that :meth:`check_values` accepts."""
        if type(state) is not self.state_type:
            raise ValueError(f"expected a {self.state_type.__name__}, got {type(state).__name__}")
        template = self.initial_state(np.zeros(1, np.uint64))
        for name, want, have in zip(state._fields, template, state):
            if (
                have.dtype != want.dtype
                or have.ndim != want.ndim
                or have.shape[1:] != want.shape[1:]
                or not have.flags.c_contiguous
            ):
                raise ValueError(
                    f"state field {name!r} is {have.dtype} {have.shape}; this game needs "
                    f"C-contiguous {want.dtype} (batch, {', '.join(map(str, want.shape[1:]))})"
                )
            if batch is not None and have.shape[0] != batch:
                raise ValueError(f"state field {name!r} holds {have.shape[0]} games, expected {batch}")
        self.check_values(state)

    def check_values(self, state) -> None:  # noqa: B027 (a hook: the default accepts all)
        """Raise ValueError unless every game of ``state`` (of the right fields,
        dtypes and shapes) holds values this configuration's kernels accept:
        index ranges, counts that add up, fields that agree with each other,
        the player to move. :meth:`check_state` calls it, so no state from
        outside (``set_state``, ``VectorEnv.set_game``, a record) reaches a
        kernel unchecked. A game overrides it beside its state's definition
        (e.g. ``azimuth_env/state_check.py``); the message names the field,
        the game, the index and the value (:mod:`azgames.core.state_check`). The
        default accepts everything: a game with no kernels may need nothing."""

    @abc.abstractmethod
    def step(self, state, action: int, obs: np.ndarray, mask: np.ndarray, rewards: np.ndarray) -> int:
        """Play a legal ``action`` in game 0; write the next actor's observation
        and mask and every player's reward for this step. Returns a packed status."""

    @abc.abstractmethod
    def observe(self, state, viewer: int, obs: np.ndarray, mask: np.ndarray) -> int:
        """Write ``viewer``'s observation and mask (zeros unless it is to act) of
        game 0. Returns the packed status of the position."""

    @abc.abstractmethod
    def illegal_reason(self, state, action: int) -> str | None:
        """Why ``action`` is illegal in game 0, or None if it is legal."""

    @abc.abstractmethod
    def final_info(self, state) -> list[dict[str, Any]]:
        """Per-player info dicts at the end of game 0. Every game provides at
        least ``score`` (this player's), ``scores`` (agent -> score), ``winners``
        (agent names; several on a shared win) and ``turns``: the match runner
        and the command line read them."""

    @abc.abstractmethod
    def action_to_str(self, state, action: int) -> str:
        """The documented notation of ``action`` in game 0's position."""

    @abc.abstractmethod
    def str_to_action(self, state, text: str) -> int:
        """Parse the notation in game 0's position; ValueError if it names no action."""

    @abc.abstractmethod
    def render_ansi(self, state) -> str: ...

    @abc.abstractmethod
    def picture(self, state, last: LastStep | None = None):
        """Game 0 drawn as an :class:`azgames.core.drawing.Drawing`: the board with
        coordinates, a legend, whose turn, the scores, and what ``last`` (the
        step that led here) did. Every place a move can name is a drawing
        ``target`` with the name :meth:`action_targets` uses."""

    @abc.abstractmethod
    def action_targets(self, state, action: int) -> tuple[str, ...]:
        """The places, in click order, that select ``action`` on the picture
        of game 0 (e.g. a piece's square, then where it goes); ``()`` for a
        move with no place, which the browser offers as a button."""

    @abc.abstractmethod
    def legend(self) -> str:
        """What each symbol of the text render means (printed by ``--legend``)."""

    def render_rgb(self, state) -> np.ndarray:
        """The picture of game 0 as an (H, W, 3) uint8 image."""
        return self.picture(state).rgb()

    def chance_info(self, state) -> dict[str, Any] | None:
        """Chance events drawn during the last step of game 0, for ``infos``
        (called after a step whose status carries :data:`DREW`, and on the
        step after it, to clear them)."""
        return None

    def chance_outcomes(self, state, action: int, merge: bool = True) -> list[ChanceOutcome]:
        """What playing the legal ``action`` in game 0 may draw, with the
        probabilities (:mod:`azgames.core.chance`); empty if it draws nothing."""
        return []

    def force_draws(self, state, draws: tuple[int, ...]) -> None:
        """Make game 0's next step draw ``draws`` (one outcome's ``draws``)."""
        raise ValueError(f"{self.info.name} has no chance events to force")

    def start_info(self, state) -> dict[str, Any]:
        """What every agent's ``infos`` holds at the start of game 0 (e.g. the
        turn order a set-up roll decided), and keeps until the end."""
        return {}

    def start_infos(self, state) -> list[dict[str, Any]]:
        """Per player, what its ``infos`` hold from the start of game 0 to the
        end: :meth:`start_info` for all, unless a game says more per player
        (e.g. the colours an agent plays)."""
        return [self.start_info(state)] * self.num_players

    # ------------------------------------------------------------ batches
    @abc.abstractmethod
    def vec_observe(self, state, obs, mask, player) -> None:
        """Observation, mask and actor of every game, from its actor's view."""

    @abc.abstractmethod
    def vec_step(self, state, actions, obs, mask, rewards, terminated, truncated, player) -> int:
        """Step every game, auto-resetting finished ones; returns the index of
        the first game whose action was illegal (nothing is stepped then), or -1."""

    def vec_random_actions(self, state, mask, out) -> None:
        """A uniformly random legal action per game, drawn from its own generator."""
        run_batched(len(out), random_legal_actions_serial, random_legal_actions, state.rng, mask, out)
