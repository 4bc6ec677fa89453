"""The kernel contract: a game writes its rules, the core every entry point.

A game's rules are four numba functions over its state named tuple ``s``
(arrays with a leading batch axis, with at least ``player``, ``ply``,
``outcome`` and ``rng``) and a config ``cfg`` (a tuple of whatever else they
need), declared as a :class:`Kernels`:

- ``reset_game(s, cfg, i)``: game ``i`` to its start;
- ``play(s, cfg, i, action, rewards)``: play a legal action in game ``i``,
  write the step's rewards into row ``i`` of ``rewards``, return the packed
  status (:func:`azgames.core.game.pack_status`);
- ``write_observation(s, cfg, i, viewer, obs, j)``: ``viewer``'s planes of
  game ``i``, flattened, into row ``j`` of ``obs``;
- ``write_mask(s, cfg, i, mask, j)``: the actor's legal actions of game
  ``i`` into row ``j`` of ``mask`` (every entry written);
- ``illegal_code(s, cfg, i, action)``: 0 if the actor may play ``action``
  (in range), else the game's reason code.

This module writes, once for every game, what the envs and searches call:
the AEC env's step, observation and action check (game 0), and the vector
env's reset, step and observation, serial and parallel. numba picks a
game's functions at compile time from the type of ``s``
(``numba.extending.overload``, as the search's hooks), so each entry point
is compiled once per game and cached on disk; a game registers its
:class:`Kernels` with :func:`implement`. :class:`ContractRules` is the
:class:`~azgames.core.game.Rules` that binds them.
"""

from __future__ import annotations

import abc
import functools
from typing import Any, NamedTuple

import numpy as np

from .batch import SKIP, first_illegal, skip_game
from .by_state import Family
from .game import ONGOING, TERMINATED, TRUNCATED, Rules, pack_status
from .jit import njit, njit_inline, njit_parallel, njit_shared, prange, specialize
from .search_hooks import SearchHooks
from .threads import run_batched


class Kernels(NamedTuple):
    """A game's rules as numba functions (signatures: the module docstring)."""

    reset_game: Any
    play: Any
    write_observation: Any
    write_mask: Any
    illegal_code: Any


#: The games' kernels, picked by the type of ``s``.
KERNELS = Family()
#: Every index the core hands a game's kernels (game, row, player, action)
#: is an int64, the AEC env's game 0 too: numba compiles a kernel once per
#: tuple of argument types, and the int8 of ``s.player`` or the uint64 of a
#: ``prange`` index would each compile every kernel again.
I0 = np.int64(0)


def implement(state_type: type, kernels: Kernels, inline: bool = False) -> None:
    """Make the entry points play ``kernels`` on states of ``state_type``
    (``inline``: :attr:`ContractRules.inline`)."""
    KERNELS.implement(state_type, inline, **kernels._asdict())


reset_game = KERNELS.function("reset_game", "s, cfg, i", "Game ``i`` of ``s`` to its start.")
play = KERNELS.function(
    "play", "s, cfg, i, action, rewards", "Play a legal action in game ``i``; the packed status."
)
write_observation = KERNELS.function(
    "write_observation", "s, cfg, i, viewer, obs, j", "``viewer``'s planes of game ``i`` into row ``j``."
)
write_mask = KERNELS.function(
    "write_mask", "s, cfg, i, mask, j", "The actor's legal actions of game ``i`` into row ``j``."
)
illegal_code = KERNELS.function(
    "illegal_code", "s, cfg, i, action", "0 if the actor may play ``action``, else the reason code."
)


# ---------------------------------------------------------------- one game: the AEC env


@njit_inline
def write_view(s, cfg, i, viewer, obs, mask, j):
    """``viewer``'s observation of game ``i`` into row ``j``; the mask too if
    ``viewer`` is to act in an ongoing game, else zeros."""
    write_observation(s, cfg, i, viewer, obs, j)
    if viewer == s.player[i] and s.outcome[i] == ONGOING:
        write_mask(s, cfg, i, mask, j)
    else:
        mask[j, :] = 0


@njit
def step_one(s, cfg, action, obs, mask, rewards):
    """AEC step of game 0: play, then the next actor's observation and mask."""
    code = play(s, cfg, I0, np.int64(action), rewards.reshape((1, rewards.size)))
    write_view(
        s, cfg, I0, np.int64(s.player[0]), obs.reshape((1, obs.size)), mask.reshape((1, mask.size)), I0
    )
    return code


@njit
def observe_one(s, cfg, viewer, obs, mask):
    """``viewer``'s observation and mask of game 0 (-1: the actor's); its status."""
    p = np.int64(s.player[0])
    write_view(
        s,
        cfg,
        I0,
        p if viewer < 0 else np.int64(viewer),
        obs.reshape((1, obs.size)),
        mask.reshape((1, mask.size)),
        I0,
    )
    return pack_status(s.outcome[0], False, p)


@njit
def check_action(s, cfg, action):
    """Why the actor of game 0 may not play ``action`` (0: it may)."""
    return illegal_code(s, cfg, I0, np.int64(action))


# ---------------------------------------------------------------- batches: the vector env


@njit
def reset_games(s, cfg):
    for i in range(s.player.shape[0]):
        reset_game(s, cfg, np.int64(i))


@njit_inline
def step_game(s, cfg, i, action, obs, mask, rewards, terminated, truncated, player_out):
    """One game of a vector step: play (or skip), restart a finished game,
    observe the next actor."""
    if action == SKIP:
        skip_game(i, rewards, terminated, truncated)
        return
    i = np.int64(i)
    result = play(s, cfg, i, np.int64(action), rewards) & 3
    terminated[i] = result == TERMINATED
    truncated[i] = result == TRUNCATED
    if result != ONGOING:
        reset_game(s, cfg, i)
    observe_game(s, cfg, i, obs, mask, player_out)


@njit_inline
def observe_game(s, cfg, i, obs, mask, player_out):
    i = np.int64(i)
    p = np.int64(s.player[i])
    player_out[i] = p
    write_observation(s, cfg, i, p, obs, i)
    write_mask(s, cfg, i, mask, i)


# The serial loops compile without reference counts (``njit_shared``): with
# them, every read of a state field in the inlined step counted a reference
# on its array, each game (Connect Four's serial step ran at 0.4x of the
# parallel one on one thread, whose loop takes the fields apart once).
@njit_shared
def vec_step_serial(s, cfg, actions, obs, mask, rewards, terminated, truncated, player_out):
    """Step every game; -1, or the first game whose action is illegal (then none moves)."""
    bad = first_illegal(actions, mask)
    if bad >= 0:
        return bad
    for i in range(actions.shape[0]):
        step_game(s, cfg, i, actions[i], obs, mask, rewards, terminated, truncated, player_out)
    return -1


@njit_parallel
def vec_step_parallel(s, cfg, actions, obs, mask, rewards, terminated, truncated, player_out):
    """:func:`vec_step_serial`, the games spread over numba's threads."""
    bad = first_illegal(actions, mask)
    if bad >= 0:
        return bad
    for i in prange(actions.shape[0]):
        step_game(s, cfg, i, actions[i], obs, mask, rewards, terminated, truncated, player_out)
    return -1


@njit_shared
def vec_observe_serial(s, cfg, obs, mask, player_out):
    for i in range(player_out.shape[0]):
        observe_game(s, cfg, i, obs, mask, player_out)


@njit_parallel
def vec_observe_parallel(s, cfg, obs, mask, player_out):
    for i in prange(player_out.shape[0]):
        observe_game(s, cfg, i, obs, mask, player_out)


# ---------------------------------------------------------------- the searches' hooks
# Inlined: a compiled call would count a reference on every array of the
# state and the config, in and out (Azure's MCTS ran 0.6x of its own hooks).


@njit_inline
def search_legal(s, cfg, i, mask):
    write_mask(s, cfg, np.int64(i), mask, I0)


@njit_inline
def search_play(s, cfg, i, action, rewards):
    return play(s, cfg, np.int64(i), np.int64(action), rewards)


@njit_inline
def search_observe(s, cfg, i, viewer, obs):
    write_observation(s, cfg, np.int64(i), np.int64(viewer), obs.reshape((1, obs.size)), I0)


def search_hooks(rules_type: type[ContractRules], **declared: Any) -> SearchHooks:
    """The search hooks of a contract game (:mod:`azgames.core.search_hooks`): its
    own kernels (inlined into the search where the game inlines them); ``declared`` adds the rest
    (``estimate``, ``heuristic``, the search's defaults)."""
    return SearchHooks(
        rules_type.state_type,
        search_legal,
        search_play,
        config=lambda rules: rules.cfg,
        observe=search_observe,
        inline=rules_type.inline,
        **declared,
    )


# ---------------------------------------------------------------- the Rules that bind them


class ContractRules(Rules):
    """A :class:`~azgames.core.game.Rules` whose envs run a game's :class:`Kernels`.

    A game sets ``kernels`` and ``ILLEGAL`` (reason code -> text) and
    writes :meth:`config`; the steps, observations, action checks and
    vector steps are the core's."""

    kernels: Kernels
    #: Copy the core's one-line call into each kernel into the entry points,
    #: so the kernel itself is called with the state's arrays and no
    #: reference counted on each (Azimuth's vector step 357k -> 539k steps/s).
    #: The kernel stays a call unless the game marks it inlined; pays where the
    #: kernels count no references (``njit_shared``: they may not allocate).
    #: Measure: Azacru's fully inlined kernels made the vector loop read the
    #: tuple's fields counting references, 0.64x.
    inline: bool = False
    #: Why an action is illegal, by the code ``illegal_code`` returns (0: legal).
    ILLEGAL: dict[int, str] = {}

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "kernels" in cls.__dict__:
            implement(cls.state_type, cls.kernels, cls.inline)

    def config(self) -> tuple:
        """What the kernels take as ``cfg`` in this configuration (default: nothing)."""
        return ()

    @functools.cached_property
    def cfg(self) -> tuple:
        """:meth:`config`, built once (then a plain attribute: the AEC step reads it every call)."""
        return self.config()

    @abc.abstractmethod
    def blank_state(self, batch: int) -> Any:
        """``batch`` games' arrays, of the right shapes and dtypes (any values)."""

    def initial_state(self, rng_words: np.ndarray) -> Any:
        """``blank_state`` set by the game's ``reset_game``, each game with its generator word."""
        s = self.blank_state(len(rng_words))
        s.rng[:] = rng_words
        reset_games(s, self.cfg)
        return s

    def bind_kernels(self) -> None:
        """The AEC entry points compiled for exactly this game's types
        (numba's per-call type dispatch is a tenth of a small game's step)."""
        s = self.initial_state(np.zeros(1, np.uint64))
        obs = np.zeros(int(np.prod(self.observation_shape(0))), np.int8)
        mask = np.zeros(self.num_actions, np.int8)
        rewards = np.zeros(self.num_players, np.float32)
        self._entry_step = specialize(step_one, s, self.cfg, 0, obs, mask, rewards)
        self._entry_observe = specialize(observe_one, s, self.cfg, 0, obs, mask)

    def step(self, state, action, obs, mask, rewards) -> int:
        return int(self._entry_step(state, self.cfg, action, obs.reshape(-1), mask, rewards))

    def observe(self, state, viewer, obs, mask) -> int:
        return int(self._entry_observe(state, self.cfg, viewer, obs.reshape(-1), mask))

    def illegal_reason(self, state, action) -> str | None:
        if state.outcome[0] != ONGOING:
            return "the game is over"
        if not 0 <= action < self.num_actions:
            return f"action {action} is out of range [0, {self.num_actions})"
        code = int(check_action(state, self.cfg, action))
        return None if code == 0 else self.ILLEGAL.get(code, f"illegal (code {code})")

    def vec_observe(self, state, obs, mask, player) -> None:
        flat = obs.reshape(obs.shape[0], -1)
        run_batched(
            len(player), vec_observe_serial, vec_observe_parallel, state, self.cfg, flat, mask, player
        )

    def vec_step(self, state, actions, obs, mask, rewards, terminated, truncated, player) -> int:
        flat = obs.reshape(obs.shape[0], -1)
        bad = run_batched(
            len(actions), vec_step_serial, vec_step_parallel,
            state, self.cfg, actions, flat, mask, rewards, terminated, truncated, player
        )  # fmt: skip
        return int(bad)
