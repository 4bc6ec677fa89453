"""A vector env seen by one learner: every returned game waits on the learner.

:class:`LearnerVecEnv` wraps a game's vector env (``azgames.make_vec``). In
each game the learner holds one seat, drawn afresh at every new game (or
fixed, or ``"alternate"``: game ``i`` gets seat ``i % num_players``); the
other seats belong to an opponent drawn for that game from a weighted pool
(:mod:`azgames.training.opponents`). ``step(actions)`` plays the learner's
action in every game, then lets the opponents move, batched, only in the games
that wait on them (the vector env's ``step_some``), until every game waits on
the learner again. In the co-op mode (one shared reward) the learner plays
every seat: there is no opponent.

The reward of game ``i`` is always the learner's own seat's, summed over the
learner's action and the opponents' replies, so a game ended by an
opponent's move still pays the learner its final reward. A finished game
restarts at once (auto-reset): ``done[i]`` is reported with the old game's
reward, and the observation and mask returned already belong to the new game.
A reward the new game pays before the learner's first turn is carried to the
learner's next step in that game.

All arrays returned are the env's own buffers, overwritten by the next call.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

import azgames
from azgames.core import checks
from azgames.core.batch import SKIP

from . import resume
from .opponents import AgentOpponent, RandomOpponent, make_opponent


class LearnerVecEnv:
    """``num_envs`` games of ``game``, one learner seat each, opponents inside ``step``."""

    def __init__(
        self,
        game: str,
        num_envs: int,
        num_players: int = 2,
        seed: int | None = 0,
        opponents: Sequence[Any] = ("random",),
        weights: Sequence[float] | None = None,
        seat: int | str = "random",
        **options: Any,
    ):
        self.game = game
        self.options = options
        self.venv = azgames.make_vec(game, num_envs=num_envs, seed=seed, num_players=num_players, **options)
        self.num_envs = self.venv.num_envs
        self.num_players = self.venv.num_players
        self.num_actions = self.venv.num_actions
        self.team = self.venv.rules.info.utility == "identical"
        if seat not in ("random", "alternate"):
            seat = checks.integer("seat", seat, 0, self.num_players - 1)
        self.seat_rule = seat
        self.single_observation_space = self.venv.single_observation_space
        self.single_action_space = self.venv.single_action_space
        self._seed_seq = np.random.SeedSequence(checks.seed("seed", seed) if seed is not None else None)
        self.rng = np.random.default_rng(self._seed_seq.spawn(1)[0])
        n = self.num_envs
        self.seat = np.zeros(n, np.int64)
        self.opponent = np.zeros(n, np.int64)
        self._reward = np.zeros(n, np.float32)
        self._carry = np.zeros(n, np.float32)
        self._done = np.zeros(n, bool)
        self._terminated = np.zeros(n, bool)
        self._truncated = np.zeros(n, bool)
        self._rows = np.arange(n)
        #: Actions played in all games so far, the learner's and the opponents' (env steps).
        self.plies = 0
        self.set_opponents(opponents, weights)

    # ------------------------------------------------------------ opponents
    def set_opponents(self, opponents: Sequence[Any], weights: Sequence[float] | None = None) -> None:
        """The pool each new game draws its opponent from: agent names
        (``"random"``, ``"greedy"``, ...), :class:`NumpyPolicy` objects or
        opponent objects, with ``weights`` (default: equal). Games going on
        keep the opponent at their index in the pool (a game whose index
        is gone draws again)."""
        if len(opponents) == 0:
            raise ValueError("opponents is empty: give at least one (e.g. ['random'])")
        # A baseline named again keeps its instance (and its generator's stream).
        named = {
            o.name: o
            for o in getattr(self, "opponents", [])
            if isinstance(o, (RandomOpponent, AgentOpponent))
        }
        seeds = self._seed_seq.spawn(len(opponents))
        self.opponents = [
            named[o]
            if isinstance(o, str) and o in named
            else make_opponent(o, self.game, seed=s, num_players=self.num_players, **self.options)
            for o, s in zip(opponents, seeds)
        ]
        w = np.ones(len(opponents)) if weights is None else np.asarray(weights, float)
        if w.shape != (len(opponents),) or not np.all(w >= 0) or w.sum() <= 0:
            raise ValueError(
                f"weights={list(np.atleast_1d(w))} must be {len(opponents)} non-negative numbers, not all 0"
            )
        self.weights = w / w.sum()
        stale = self.opponent >= len(self.opponents)
        if stale.any():
            self.opponent[stale] = self._draw_opponents(int(stale.sum()))

    # ------------------------------------------------------------ resume points
    def state(self) -> tuple[dict, dict[str, np.ndarray]]:
        """What a resume point keeps (:mod:`.resume`): the games in play,
        each game's seat and opponent, the rewards carried to the learner's
        next step, the generators (the baselines' too: a greedy opponent keeps
        its stream from pool to pool); ``(run, arrays)``."""
        arrays = resume.venv_state(self.venv, self.venv.observation, self.venv.action_mask)
        arrays |= {"learner/seat": self.seat, "learner/opponent": self.opponent, "learner/carry": self._carry}
        baselines = {}
        for o in self.opponents:
            if isinstance(o, AgentOpponent):
                baselines[o.name], held = resume.generators_of(o.agent, f"learner/{o.name}")
                arrays |= held
        run = {
            "rng": resume.generator_state(self.rng),
            "spawned": self._seed_seq.n_children_spawned,
            "plies": self.plies,
            "baselines": baselines,
        }
        return run, arrays

    def restore(self, run: dict, arrays: dict[str, np.ndarray], where: str) -> None:
        """Go on from :meth:`state`'s resume point, once :meth:`set_opponents`
        has given the pool the run had when it was written."""
        resume.restore_venv(self.venv, self.venv.observation, self.venv.action_mask, arrays, where)
        own: dict[str, np.ndarray] = {
            "learner/seat": self.seat,
            "learner/opponent": self.opponent,
            "learner/carry": self._carry,
        }
        resume.expect({k: v for k, v in arrays.items() if k in own}, own, where)
        drawn = arrays["learner/opponent"]
        if (drawn < 0).any() or (drawn >= len(self.opponents)).any():
            raise ValueError(f"{where}: its games' opponents are not in the pool")
        for key, mine in own.items():
            mine[...] = arrays[key]
        baselines = {o.name: o for o in self.opponents if isinstance(o, AgentOpponent)}
        if set(run["baselines"]) != set(baselines):
            raise ValueError(f"{where}: its baseline opponents are not this run's")
        for name, o in baselines.items():
            resume.restore_generators(o.agent, run["baselines"][name], arrays, f"learner/{name}", where)
        resume.set_generator_state(self.rng, run["rng"], where)
        seeds = self._seed_seq
        spawned = resume.count(run, "spawned", where)
        self._seed_seq = np.random.SeedSequence(
            seeds.entropy, spawn_key=seeds.spawn_key, pool_size=seeds.pool_size, n_children_spawned=spawned
        )
        self.plies = resume.count(run, "plies", where)

    def _draw_opponents(self, k: int) -> np.ndarray:
        return self.rng.choice(len(self.opponents), size=k, p=self.weights)

    def _new_games(self, games: np.ndarray) -> None:
        """Seats and opponents for the games just (re)started."""
        if self.seat_rule == "random":
            self.seat[games] = self.rng.integers(self.num_players, size=len(games))
        elif self.seat_rule == "alternate":
            self.seat[games] = games % self.num_players
        else:
            self.seat[games] = self.seat_rule
        self.opponent[games] = self._draw_opponents(len(games))

    # ------------------------------------------------------------ reset and step
    def reset(self, seed: int | None = None) -> tuple[np.ndarray, np.ndarray]:
        """Start every game afresh; returns ``(obs, mask)``, the learner's in every game."""
        self.venv.reset(seed)
        self._new_games(self._rows)
        self._begin()
        self._play_opponents()
        return self.venv.observation, self.venv.action_mask

    def step(self, actions) -> tuple[np.ndarray, ...]:
        """The learner's action in every game: ``(obs, mask, reward, terminated, truncated)``,
        each of the learner's; ``reward`` is float32 ``(num_envs,)``."""
        self._begin()
        _, _, rewards, terminated, truncated, _ = self.venv.step(actions)
        self.plies += self.num_envs
        self._collect(rewards, terminated, truncated)
        self._play_opponents()
        return self.venv.observation, self.venv.action_mask, self._reward, self._terminated, self._truncated

    @property
    def action_mask(self) -> np.ndarray:
        return self.venv.action_mask

    def _begin(self) -> None:
        self._reward[:] = self._carry
        self._carry[:] = 0.0
        self._done[:] = False
        self._terminated[:] = False
        self._truncated[:] = False

    def _waiting(self) -> np.ndarray:
        """Games whose player to act is not the learner."""
        if self.team:
            return np.zeros(self.num_envs, bool)
        return self.venv.player != self.seat

    def _play_opponents(self) -> None:
        actions = np.empty(self.num_envs, np.int64)
        waiting = self._waiting()
        while waiting.any():
            actions[:] = SKIP
            for k, opponent in enumerate(self.opponents):
                games = np.flatnonzero(waiting & (self.opponent == k))
                if len(games):
                    actions[games] = opponent.actions(self, games)
            _, _, rewards, terminated, truncated, _ = self.venv.step_some(actions)
            self.plies += int(waiting.sum())
            self._collect(rewards, terminated, truncated)
            waiting = self._waiting()

    def _collect(self, rewards, terminated, truncated) -> None:
        mine = rewards[:, 0] if self.team else rewards[self._rows, self.seat]
        np.add(self._reward, mine, out=self._reward, where=~self._done)
        np.add(self._carry, mine, out=self._carry, where=self._done)
        ended = terminated | truncated
        if ended.any():
            first = ended & ~self._done  # a game ending again before the learner's turn counts once
            self._terminated |= terminated & first
            self._truncated |= truncated & first
            self._done |= first
            self._new_games(np.flatnonzero(ended))
