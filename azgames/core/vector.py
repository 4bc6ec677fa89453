"""The batched vector env shared by every game of the suite.

All work happens in the game's numba kernels, parallel over games; this class
only owns the output buffers and checks the actions' shape. Finished games
restart at once: ``step`` reports the finished game's rewards and flags, and
the returned observation, mask and ``player`` already belong to the new game.

The arrays returned by ``reset`` and ``step`` are the env's own buffers,
overwritten by the next call (that is what makes millions of steps a second
possible): copy them to keep them.

It declares its spaces as Gymnasium's vector API does: one game's
(``single_observation_space``: the observation planes; ``single_action_space``)
and the batch's (``observation_space``, ``action_space``: ``MultiDiscrete``).
"""

from __future__ import annotations

from typing import Any, NamedTuple, NoReturn

import numpy as np
from gymnasium import spaces
from gymnasium.vector.utils import batch_space
from numpy.typing import ArrayLike

from . import checks
from . import state as state_ops
from .game import Rules
from .rng import seed_words


class GameVectorEnv:
    """``num_envs`` games of one configuration, stepped together."""

    rules_type: type[Rules]
    #: Each game's class sets ``"name"``, its versioned name, as the AEC env's (:mod:`.envs`).
    metadata: dict[str, Any] = {}

    def __init__(self, num_envs: int, seed: int | None = None, num_players: int = 2, **options: Any):
        self.num_envs = checks.integer("num_envs", num_envs, 1)
        self.rules = self.rules_type(num_players, **options)
        self.num_players = self.rules.num_players
        self.num_actions = self.rules.num_actions
        self.agents = self.rules.agents
        n = self.num_envs
        self._obs = np.zeros((n, *self.rules.observation_shape(0)), np.int8)
        self._mask = np.zeros((n, self.num_actions), np.int8)
        self._rewards = np.zeros((n, self.num_players), np.float32)
        self._terminated = np.zeros(n, bool)
        self._truncated = np.zeros(n, bool)
        self._player = np.zeros(n, np.int64)
        self._actions = np.zeros(n, np.int64)
        # Spaces as Gymnasium's vector API declares them: one game's, then the batch's.
        observation = self.rules.observation_space(0)["observation"]
        assert isinstance(observation, spaces.Box)  # Rules.observation_space's planes
        self.single_observation_space: spaces.Box = observation
        self.single_action_space: spaces.Discrete = spaces.Discrete(self.num_actions)
        self.observation_space = batch_space(self.single_observation_space, n)
        self.action_space = batch_space(self.single_action_space, n)
        #: Every game's state (the game's state named tuple); None before reset().
        self.state: NamedTuple | None = None
        self._seed = checks.seed("seed", seed)

    def reset(self, seed: int | None = None) -> tuple[np.ndarray, np.ndarray]:
        """Start every game afresh; returns ``(obs, mask)``. Game ``i``'s
        generator is seeded from ``seed`` (or the constructor's seed)."""
        if seed is not None:
            self._seed = checks.seed("seed", seed)
        self.state = self.rules.initial_state(seed_words(self._seed, self.num_envs))
        self._refresh()
        return self._obs, self._mask.view(bool)

    def _refresh(self) -> None:
        self.rules.vec_observe(self.state, self._obs, self._mask, self._player)

    def step(self, actions: ArrayLike) -> tuple[np.ndarray, ...]:
        """Play one action per game: ``(obs, mask, rewards, terminated, truncated, player)``.

        ``rewards`` is ``(N, num_players)`` float32 for the step just played;
        ``player`` is who acts next in each game."""
        actions = self._copy_actions(actions)
        if self._actions.min() < 0:  # SKIP is step_some's; here a negative action is illegal
            self._refuse(actions, int(np.argmax(self._actions < 0)))
        return self._step(actions)

    def step_some(self, actions: ArrayLike) -> tuple[np.ndarray, ...]:
        """Like :meth:`step`, but a game whose action is ``SKIP`` (-1) is not
        stepped: its rewards are 0, its flags False, and its observation, mask
        and ``player`` stay. The learner adapter moves only the games waiting
        on an opponent this way (:mod:`azgames.training`)."""
        return self._step(self._copy_actions(actions))

    def _copy_actions(self, actions: ArrayLike) -> np.ndarray:
        if self.state is None:
            raise RuntimeError("step() called before reset(); call venv.reset() first")
        actions = np.asarray(actions)
        if actions.shape != (self.num_envs,) or actions.dtype.kind not in "iu":
            raise ValueError(
                f"actions must be an integer array of shape ({self.num_envs},), "
                f"got {actions.dtype} {actions.shape}"
            )
        if actions.dtype.kind == "u" and actions.max() > np.iinfo(np.int64).max:
            self._refuse(actions, int(np.argmax(actions > np.iinfo(np.int64).max)))
        self._actions[:] = actions
        return actions

    def _step(self, actions: np.ndarray) -> tuple[np.ndarray, ...]:
        bad = self.rules.vec_step(
            self.state,
            self._actions,
            self._obs,
            self._mask,
            self._rewards,
            self._terminated,
            self._truncated,
            self._player,
        )
        if bad >= 0:
            self._refuse(actions, bad)
        return (
            self._obs,
            self._mask.view(bool),
            self._rewards,
            self._terminated,
            self._truncated,
            self._player,
        )

    def _refuse(self, actions: np.ndarray, bad: int) -> NoReturn:
        a = int(actions[bad])  # as given: a huge unsigned action wrapped in the copy
        one = state_ops.select(self._current("step()"), bad)
        if 0 <= a < self.num_actions:
            why = f"{self.rules.action_to_str(one, a)}: {self.rules.illegal_reason(one, a)}"
        else:
            why = f"out of range [0, {self.num_actions})"
        raise ValueError(f"illegal action {a} in env {bad} ({why}); no game was stepped")

    def random_actions(self) -> np.ndarray:
        """A uniformly random legal action per game, drawn in numba from each game's generator."""
        if self.state is None:
            raise RuntimeError("random_actions() called before reset()")
        out = np.empty(self.num_envs, np.int64)
        self.rules.vec_random_actions(self.state, self._mask, out)  # its threads the rules' own choice
        return out

    @property
    def observation(self) -> np.ndarray:
        """Every game's observation, from its actor's view (the buffer ``step`` returns)."""
        return self._obs

    @property
    def action_mask(self) -> np.ndarray:
        return self._mask.view(bool)

    @property
    def player(self) -> np.ndarray:
        """Who acts next in each game (an agent index), as ``step`` returns it."""
        return self._player

    def game(self, i: int) -> NamedTuple:
        """Game ``i`` as a one-game state (a copy), e.g. for rendering or the AEC env."""
        slot = self._slot(i, "game()")
        return state_ops.select(self._current("game()"), slot)

    def set_game(self, i: int, one_game: NamedTuple) -> None:
        """Put a one-game state into slot ``i`` and refresh the observations."""
        i = self._slot(i, "set_game()")
        self.rules.check_state(one_game, batch=1)
        state_ops.assign(self._current("set_game()"), i, one_game, 0)
        self._refresh()

    def _current(self, what: str) -> NamedTuple:
        """Every game's state; RuntimeError naming ``what`` before the first reset."""
        if self.state is None:
            raise RuntimeError(f"{what} called before reset(); call venv.reset() first")
        return self.state

    def _slot(self, i: Any, what: str) -> int:
        self._current(what)
        return checks.integer("i", i, 0, self.num_envs - 1)
