"""Gumbel AlphaZero for every game and player count:
``python -m azgames train GAME --algo alphazero``.

One file, top to bottom, as :mod:`.ppo`: self-play (:class:`SelfPlay`), the
replay buffer (:class:`Replay`), the learning step (:func:`learn`), the
learner that owns the network and the buffer (:class:`Learner`), the
self-play actors that feed it (:class:`LocalActors`: one, in this process;
Ray's in :mod:`.alphazero_ray`), then :func:`train` and its resume points
(:func:`save_point`, :func:`restore`; :mod:`.resume`). The hyper-parameters
are :class:`~.config.AlphaZeroConfig`.

- **Self-play.** ``num_envs`` games of a vector env move at once, every move
  chosen by one batched Gumbel search (:mod:`azgames.agents.az.search`,
  ``simulations`` a move, Gumbel noise on) with the network being trained.
  Each move keeps the root's observation, legal actions and the search's
  improved policy; when its game ends, each of its moves gets the return its
  mover earned from there on as the value target (with 3-4 sides, every
  player's, counted in seats from the mover: the network has a value for
  each) and goes to the replay buffer; with ``value_mix`` w (one or two
  sides) the target is ``(1 - w) * return + w * root value``, the search's
  value of the position. Games run on across rounds: a round is
  ``num_steps`` moves of every game.
- **Random openings.** With ``random_opening`` N each game opens with 0 to
  N uniformly random moves, not learnt from: self-play of a game without
  dice otherwise narrows onto a few openings.
- **A teacher.** With ``teacher_rounds`` the first rounds are played by an
  agent of the suite (``teacher``, greedy by default) instead of the
  search: the policy learns its moves, the value its games' returns.
- **Learning.** After each round, minibatches drawn uniformly from the
  buffer (``sample_reuse`` draws for each new sample) fit the network's
  policy to the improved policies (cross-entropy over the legal actions) and
  its value to the returns (squared error), each sample turned by one of the
  game's symmetries at random (:mod:`azgames.core.symmetry`; Azacru's square has
  eight) or left as it is.
- **Evaluation and files.** As :mod:`.ppo`: every ``eval_every`` rounds the
  network alone (its most likely action), or with ``eval_simulations`` the
  ``az`` agent's search, plays ``eval_games``
  games against random and greedy (:mod:`.evaluate`, and the ``--ladder``),
  and the run writes ``train.csv`` (a row a round), ``eval.csv``,
  ``curve.png``, ``checkpoints/*.npz`` and, at the end, ``policy.npz`` with
  ``policy.json``. The policy is the suite's :class:`~.net.Net`, so it plays
  without torch (:class:`~azgames.agents.policy.NumpyPolicy`), alone or as
  the ``az`` agent's network.

Reproducible from ``--seed`` with ``--steps`` on one machine (one torch
thread pool of fixed size, every generator seeded), through kills: every
``--checkpoint-minutes`` the run writes ``resume.npz`` and ``train --resume``
goes on from it bit for bit. ``--minutes`` stops on the clock.
"""

from __future__ import annotations

import math
import shlex
import time
from dataclasses import asdict
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np
import torch

import azgames
from azgames.agents.az.search import GumbelSearch
from azgames.agents.policy import NumpyPolicy
from azgames.core.symmetry import Symmetry, symmetries

from . import resume
from .checkpoints import Evaluations, finish, learner_state, policy_meta, restore_learner, start_from
from .clock import TrainingClock
from .config import AlphaZeroConfig as Config
from .config import AlphaZeroRayConfig
from .logs import CsvLog, plot_curve
from .net import Net
from .opponents import make_opponent
from .resume import generator_state, set_generator_state


# ---------------------------------------------------------------- network
def evaluator(net: Net):
    """The search's ``evaluate(obs, mask)`` over ``net``, one batched
    forward pass; values clipped to [-1, 1]."""

    device = next(net.parameters()).device

    def evaluate(obs: np.ndarray, mask: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        with torch.no_grad():
            logits, values = net(
                torch.as_tensor(obs, device=device), torch.as_tensor(mask, dtype=torch.bool, device=device)
            )
        return logits.double().cpu().numpy(), np.clip(values.double().cpu().numpy(), -1.0, 1.0)

    return evaluate


# ---------------------------------------------------------------- self-play
class Samples(NamedTuple):
    """Moves of finished games, one row each: what the network learns."""

    obs: np.ndarray  # (M, F) int8: the root's observation, from its mover's side
    mask: np.ndarray  # (M, A) bool: its legal actions
    policy: np.ndarray  # (M, A) float32: the search's improved policy
    value: np.ndarray  # (M, V) float32: the returns from this move on, the mover's first (mixed: value_mix)


class SelfPlay:
    """``num_envs`` games played on by the search, round after round; a
    move waits in :attr:`pending` until its game ends. ``values``: the value
    targets a move keeps, the mover's (1) or every player's (counted in
    seats from the mover), as ``net``'s value head gives them."""

    def __init__(self, cfg: Config, net: Net, values: int = 1):
        self.venv = azgames.make_vec(
            cfg.game, num_envs=cfg.num_envs, seed=cfg.seed, num_players=cfg.num_players, **cfg.options
        )
        self.values = values
        if cfg.value_mix > 0 and values != 1:
            raise ValueError(
                f"value_mix={cfg.value_mix}: the root value is the mover's alone, and {cfg.game} "
                f"with {cfg.num_players} players learns a value for each player"
            )
        self.value_mix = cfg.value_mix
        self.league = cfg.league
        #: Past networks that league games play against (the trainer adds them).
        self.snapshots: list[NumpyPolicy] = []
        self.rng = np.random.default_rng(cfg.seed)
        # Each game's learner seat: -1 for a game of self-play, searched at every move.
        self.learner = np.full(cfg.num_envs, -1, np.int64)
        self.opponent = np.zeros(cfg.num_envs, np.int64)  # its snapshot, in a league game
        self.search = GumbelSearch(
            self.venv.rules,
            evaluator(net),
            cfg.simulations,
            cfg.considered,
            seed=cfg.seed,
            values=values,
            settings=cfg.search,
        )
        self.obs, self.mask = self.venv.reset()
        n, players = self.venv.num_envs, self.venv.num_players
        self.random_opening = cfg.random_opening
        self.opening = np.zeros(n, np.int64)  # each game's random moves still to play
        self._open(np.arange(n))
        self.size = self.obs[0].size
        self.returns = np.zeros((n, players))  # each game's returns so far
        self.episode = np.arange(n)  # each game's number, counted over all games started
        self.started = n
        self.finals = np.full((2 * n, players), np.nan)  # by game number: its final returns
        # Moves of games going on, one row each, kept until their games end.
        self.pending = {k: v.reshape(-1, *v.shape[2:]) for k, v in self._rows(0).items()}
        self.moves = 0
        self.games = 0

    def _rows(self, num_steps: int) -> dict[str, np.ndarray]:
        """Room for ``num_steps`` moves of every game: what a move keeps until its game ends."""
        n, players = self.venv.num_envs, self.venv.num_players
        return {
            "obs": np.zeros((num_steps, n, self.size), np.int8),
            "mask": np.zeros((num_steps, n, self.venv.num_actions), bool),
            "policy": np.zeros((num_steps, n, self.venv.num_actions), np.float32),
            "mover": np.zeros((num_steps, n), np.int64),
            "before": np.zeros((num_steps, n, players)),  # the returns so far, at the move
            "episode": np.zeros((num_steps, n), np.int64),
            "searched": np.ones((num_steps, n), bool),  # not a snapshot's or an opening's move
            "root": np.full((num_steps, n), np.nan),  # the search's root value, for the mover
        }

    def round(self, num_steps: int, prior_targets: bool = False, teacher=None) -> Samples:
        """``num_steps`` moves of every game; the moves of the games that ended.
        ``prior_targets``: their policy target is the network's own prior at
        the root instead of the search's improved policy (the value warm-up).
        ``teacher``: an opponent (:mod:`.opponents`) that moves instead of
        the search, its move the policy target."""
        n, size = self.venv.num_envs, self.size
        kept = self._rows(num_steps)
        for m in range(num_steps):
            mover = self.venv.player.astype(np.int64)
            kept["obs"][m] = self.obs.reshape(n, size)
            kept["mask"][m] = self.mask
            kept["mover"][m] = mover
            kept["before"][m] = self.returns
            kept["episode"][m] = self.episode
            if teacher is not None:
                chosen = np.asarray(teacher.actions(self, np.arange(n)), np.int64)
                kept["policy"][m, np.arange(n), chosen] = 1.0
                kept["searched"][m] = self._opening_moves(chosen)
            else:
                chosen, kept["policy"][m] = self.search.run(self.venv.state, mover, size)
                if self.value_mix > 0:
                    kept["root"][m] = self.search.root_values()
                kept["searched"][m] = self._league_moves(chosen, mover) & self._opening_moves(chosen)
                if prior_targets:
                    logits, _ = self.search.evaluate(kept["obs"][m], self.mask)
                    kept["policy"][m] = softmax_rows(logits)
            self.obs, self.mask, rewards, terminated, truncated, _ = self.venv.step(chosen)
            self.returns += rewards
            done = np.flatnonzero(terminated | truncated)
            if len(done):
                self._deal(done)
                self._open(done)
                self._grow(self.started + len(done))
                self.finals[self.episode[done]] = self.returns[done]
                self.returns[done] = 0.0
                self.episode[done] = self.started + np.arange(len(done))
                self.started += len(done)
                self.games += len(done)
        self.moves += num_steps * n
        rows = {k: np.concatenate([self.pending[k], v.reshape(-1, *v.shape[2:])]) for k, v in kept.items()}
        ended = ~np.isnan(self.finals[rows["episode"], 0])
        self.pending = {k: v[~ended] for k, v in rows.items()}
        ended &= rows["searched"]
        players = self.venv.num_players
        # Seats counted from the mover: column k is the player k seats after it.
        seats = (rows["mover"][ended, None] + np.arange(self.values)) % players
        earned = self.finals[rows["episode"][ended]] - rows["before"][ended]
        value = np.take_along_axis(earned, seats, axis=1)
        root = rows["root"][ended]
        searched = ~np.isnan(root)  # a teacher's moves keep their result alone
        value[searched, 0] += self.value_mix * (root[searched] - value[searched, 0])
        return Samples(
            rows["obs"][ended], rows["mask"][ended], rows["policy"][ended], value.astype(np.float32)
        )

    def _league_moves(self, chosen: np.ndarray, mover: np.ndarray) -> np.ndarray:
        """Replace the search's move by the snapshot's where a league game's
        snapshot is to move; which moves the search made."""
        theirs = (self.learner >= 0) & (mover != self.learner)
        for k in np.unique(self.opponent[theirs]):
            games = np.flatnonzero(theirs & (self.opponent == k))
            obs = self.venv.observation[games].reshape(len(games), -1)
            chosen[games] = self.snapshots[k].act(obs, self.venv.action_mask[games].astype(bool), self.rng)
        return ~theirs

    def _open(self, games: np.ndarray) -> None:
        """The new games in slots ``games`` draw their random opening's length."""
        self.opening[games] = self.rng.integers(0, self.random_opening + 1, len(games))

    def _opening_moves(self, chosen: np.ndarray) -> np.ndarray:
        """Replace the search's move by a uniformly random legal one where a
        game is still in its random opening; which moves the search made."""
        opening = np.flatnonzero(self.opening > 0)
        if len(opening):
            legal = self.mask[opening].astype(bool)
            pick = (self.rng.random(len(opening)) * legal.sum(1)).astype(np.int64)
            chosen[opening] = np.argmax(np.cumsum(legal, axis=1) > pick[:, None], axis=1)
            self.opening[opening] -= 1
        searched = np.ones(len(chosen), bool)
        searched[opening] = False
        return searched

    def _deal(self, games: np.ndarray) -> None:
        """The new games in slots ``games``: a league game (a learner seat and
        a snapshot) with probability :attr:`league`, once there are snapshots."""
        self.learner[games] = -1
        if not self.snapshots or self.league <= 0:
            return
        league = games[self.rng.random(len(games)) < self.league]
        self.learner[league] = self.rng.integers(0, self.venv.num_players, len(league))
        self.opponent[league] = self.rng.integers(0, len(self.snapshots), len(league))

    def _grow(self, games: int) -> None:
        if games > len(self.finals):
            grown = np.full((2 * games, self.finals.shape[1]), np.nan)
            grown[: len(self.finals)] = self.finals
            self.finals = grown

    # Every array self-play changes as it goes, by its name in a resume point.
    _KEPT = ("learner", "opponent", "opening", "returns", "episode", "finals")

    def state(self) -> tuple[dict, dict[str, np.ndarray]]:
        """What a resume point keeps of self-play: its counters and
        generators (JSON) and its arrays: the games in play (the vector
        env's state, which holds each game's own generator) and the moves
        waiting on their games' ends. (The league's snapshots are the
        learner's: it hands them to self-play.)"""
        arrays = resume.venv_state(self.venv, self.obs, self.mask)
        arrays |= {f"play/{k}": getattr(self, k) for k in self._KEPT}
        arrays |= {f"pending/{k}": v for k, v in self.pending.items()}
        run = {
            "rng": generator_state(self.rng),
            "search_rng": generator_state(self.search.rng),
            "search_seconds": dict(self.search.seconds),
            "started": self.started,
            "moves": self.moves,
            "games": self.games,
        }
        return run, arrays

    def restore(self, run: dict, arrays: dict[str, np.ndarray], where: str) -> None:
        """Go on from a resume point :meth:`state` wrote, each array checked
        against this self-play's own first."""
        # The two that grow take the file's rows; :func:`resume.expect` checks the rest of them.
        grown = {"play/finals": self.finals} | {f"pending/{k}": v for k, v in self.pending.items()}
        for key, mine in grown.items():
            got = arrays.get(key)
            if got is None or got.dtype != mine.dtype or got.shape[1:] != mine.shape[1:]:
                raise ValueError(
                    f"{where}: the array {key!r} is missing or not {mine.dtype} (rows, {mine.shape[1:]})"
                )
        # Copies: arrays from Ray's object store are read-only.
        self.finals = arrays["play/finals"].copy()
        self.pending = {k: arrays[f"pending/{k}"].copy() for k in self.pending}
        _, built = self.state()
        resume.expect(
            {k: v for k, v in arrays.items() if k.split("/")[0] in ("venv", "play", "pending")}, built, where
        )
        resume.restore_venv(self.venv, self.obs, self.mask, arrays, where)
        for k in self._KEPT:
            getattr(self, k)[...] = arrays[f"play/{k}"]
        set_generator_state(self.rng, run["rng"], where)
        set_generator_state(self.search.rng, run["search_rng"], where)
        self.search.seconds.update({k: float(run["search_seconds"][k]) for k in self.search.seconds})
        self.started, self.moves, self.games = (
            resume.count(run, k, where) for k in ("started", "moves", "games")
        )
        if max(self.episode.max(), self.pending["episode"].max(initial=0)) >= min(
            len(self.finals), self.started
        ):
            raise ValueError(f"{where}: its games' numbers run past the games it has started")

    def info(self) -> dict[str, Any]:
        """Its counts so far, for the learner's log."""
        seconds = self.search.seconds
        return {
            "moves": self.moves,
            "games": self.games,
            "network_share": seconds["network"] / max(seconds["run"], 1e-9),
        }


def softmax_rows(logits: np.ndarray) -> np.ndarray:
    """Each row's softmax (rows of masked logits: -1e8 or -inf where illegal)."""
    z = np.exp(logits - logits.max(axis=1, keepdims=True))
    return z / z.sum(axis=1, keepdims=True)


# ---------------------------------------------------------------- replay
class Replay:
    """The newest ``capacity`` samples, in a ring."""

    def __init__(self, capacity: int, obs_size: int, num_actions: int, values: int = 1):
        self.obs = np.zeros((capacity, obs_size), np.int8)
        self.mask = np.zeros((capacity, num_actions), bool)
        self.policy = np.zeros((capacity, num_actions), np.float32)
        self.value = np.zeros((capacity, values), np.float32)
        self.size = 0
        self.next = 0

    def add(self, samples: Samples) -> None:
        capacity = len(self.value)
        count = len(samples.value)
        kept = min(count, capacity)  # more than it holds: the last ones
        rows = (self.next + count - kept + np.arange(kept)) % capacity
        for name, got in zip(Samples._fields, samples):
            getattr(self, name)[rows] = got[count - kept :]
        self.next = int((self.next + count) % capacity)
        self.size = min(capacity, self.size + count)

    def draw(self, rows: np.ndarray) -> Samples:
        return Samples(self.obs[rows], self.mask[rows], self.policy[rows], self.value[rows])

    def state(self) -> tuple[dict, dict[str, np.ndarray]]:
        """What a resume point keeps: the samples held, not the empty room."""
        arrays = {f"replay/{name}": getattr(self, name)[: self.size] for name in Samples._fields}
        return {"size": self.size, "next": self.next}, arrays

    def restore(self, run: dict, arrays: dict[str, np.ndarray], where: str) -> None:
        capacity = len(self.value)
        self.size = resume.count(run, "size", where, capacity)
        self.next = resume.count(run, "next", where, capacity - 1)
        _, built = self.state()
        resume.expect({k: v for k, v in arrays.items() if k.startswith("replay/")}, built, where)
        for name in Samples._fields:
            getattr(self, name)[: self.size] = arrays[f"replay/{name}"]


# ---------------------------------------------------------------- learning
def augment(batch: Samples, turns: list[Symmetry], draws: np.random.Generator) -> Samples:
    """Each sample of ``batch`` (a drawn copy) turned in place by one of
    the game's symmetries ``turns`` or left as it is, uniformly: its
    observation, legal actions and policy move together; its value stays."""
    pick = draws.integers(0, len(turns) + 1, len(batch.value))
    for k, symmetry in enumerate(turns, start=1):
        rows = np.flatnonzero(pick == k)
        batch.obs[rows] = symmetry.observations(batch.obs[rows])
        batch.mask[rows] = symmetry.actions(batch.mask[rows])
        batch.policy[rows] = symmetry.actions(batch.policy[rows])
    return batch


def learn(net: Net, optimizer: torch.optim.Optimizer, batch: Samples) -> tuple[float, float]:
    """One gradient step on ``batch``; its policy cross-entropy and value squared error."""
    device = next(net.parameters()).device
    obs, mask, policy, target = (torch.as_tensor(a, device=device) for a in batch)
    logits, value = net(obs, mask)
    log_pi = torch.log_softmax(logits, dim=-1)  # illegal actions masked by the network
    policy_loss = -(policy * log_pi).sum(-1).mean()
    value_loss = ((value.reshape(target.shape) - target) ** 2).mean()
    optimizer.zero_grad()
    (policy_loss + value_loss).backward()
    optimizer.step()
    return policy_loss.item(), value_loss.item()


# ---------------------------------------------------------------- the learner
class Learner:
    """The network being trained, its optimizer and the replay buffer, which
    it alone owns: each round's samples go in, minibatches come out.
    ``fresh``: a new run (a resumed one takes its weights from its resume
    point, not from ``--init``)."""

    def __init__(self, cfg: Config, fresh: bool = True):
        self.cfg = cfg
        torch.set_num_threads(cfg.torch_threads)
        torch.manual_seed(cfg.seed)
        self.draws = np.random.default_rng(cfg.seed)
        # A run from another's weights takes its network's shape.
        parent: dict[str, Any] = (
            NumpyPolicy.load(cfg.init).meta
            if cfg.init and fresh
            else {"hidden": cfg.hidden, "conv": cfg.conv}
        )
        self.hidden, conv = tuple(parent["hidden"]), parent.get("conv")
        self.rules = rules = azgames.make(
            cfg.game, num_players=cfg.num_players, **cfg.options
        ).unwrapped.rules
        self.obs_shape = rules.observation_shape(0)
        # One value, the mover's, serves one or two sides; 3-4 sides need each player's.
        self.values = rules.num_players if len(rules.sides) > 2 else 1
        #: The network's shape: ``Net(*shape)`` makes another like it (a self-play actor's).
        self.shape = (self.obs_shape, rules.num_actions, self.hidden, self.values, conv)
        self.net = Net(*self.shape)
        turned = cfg.symmetries
        if turned is None:
            turned = not cfg.init or parent.get("symmetries") is True
        self.turns = symmetries(rules) if turned else []
        self.meta = policy_meta(
            rules,
            cfg.options,
            self.hidden,
            algorithm="alphazero",
            search=cfg.search.to_dict(),
            symmetries=bool(self.turns),
            **({"conv": conv} if conv else {}),
        )
        if cfg.init and fresh:
            self.meta = start_from(self.net, cfg.init, self.meta)
        self.net.to(cfg.device)
        self.optimizer = torch.optim.Adam(self.net.parameters(), lr=cfg.learning_rate)
        self.replay = Replay(cfg.replay, int(np.prod(self.obs_shape)), rules.num_actions, self.values)
        self.version = 0  # rounds learnt from: the weights' version
        self.updates = 0
        self.seconds = 0.0  # in updates

    def learn(self, samples: Samples) -> dict[str, Any]:
        """Take a round's samples into the buffer, then ``sample_reuse``
        minibatch draws for each: the round's row of ``train.csv``."""
        cfg, replay = self.cfg, self.replay
        replay.add(samples)
        losses = []
        updates = int(np.ceil(len(samples.value) * cfg.sample_reuse / cfg.batch_size)) if replay.size else 0
        began = time.perf_counter()
        for _ in range(updates):
            batch = replay.draw(self.draws.integers(0, replay.size, cfg.batch_size))
            turned = augment(batch, self.turns, self.draws) if self.turns else batch
            losses.append(learn(self.net, self.optimizer, turned))
        self.seconds += time.perf_counter() - began
        self.updates += updates
        self.version += 1
        policy_loss, value_loss = np.mean(losses, axis=0) if losses else (float("nan"), float("nan"))
        return {
            "samples": len(samples.value),
            "buffer": replay.size,
            "updates": updates,
            "policy_loss": policy_loss,
            "value_loss": value_loss,
        }

    def weights(self) -> dict[str, np.ndarray]:
        """The network's weights as arrays: what self-play elsewhere loads."""
        return {k: v.detach().cpu().numpy() for k, v in self.net.state_dict().items()}

    def state(self) -> tuple[dict, dict[str, np.ndarray]]:
        """What a resume point keeps of the learner: weights, optimizer, buffer, generators."""
        held, arrays = self.replay.state()
        learner, learner_arrays = learner_state(self.net, self.optimizer)
        run = {
            **learner,
            "replay": held,
            "draws": generator_state(self.draws),
            "weights_version": self.version,
            "updates": self.updates,
            "learner_seconds": self.seconds,
        }
        return run, arrays | learner_arrays

    def restore(self, run: dict, arrays: dict[str, np.ndarray], where: str) -> None:
        self.replay.restore(run["replay"], arrays, where)
        restore_learner(run, arrays, self.net, self.optimizer, where)
        set_generator_state(self.draws, run["draws"], where)
        self.version, self.updates = (resume.count(run, k, where) for k in ("weights_version", "updates"))
        self.seconds = float(run["learner_seconds"])


# ---------------------------------------------------------------- self-play's actors
class Job(NamedTuple):
    """A round of self-play asked of an actor."""

    round: int  # counted over the run, from 1
    version: int  # of the learner's weights it is to play with
    snapshots: list[NumpyPolicy]  # the league's, newest last
    prior_targets: bool  # the value warm-up's round
    taught: bool  # the teacher's round


def play_job(play: SelfPlay, cfg: Config, job: Job) -> Samples:
    """``job`` played by ``play``."""
    play.snapshots = job.snapshots
    return play.round(cfg.num_steps, job.prior_targets, teacher(cfg, job.round) if job.taught else None)


class LocalActors:
    """One self-play actor in this process, searching with the learner's
    own network: the local trainer. A round asked of it is played at once,
    so each plays with the newest weights (no lag) and the run is
    reproducible."""

    size = 1

    def __init__(self, cfg: Config, learner: Learner):
        self.cfg = cfg
        self.play = SelfPlay(cfg, learner.net, learner.values)
        self.done: list[tuple[int, Samples, dict]] = []

    def start(self, k: int, job: Job) -> None:
        samples = play_job(self.play, self.cfg, job)
        self.done.append((k, samples, {**self.play.info(), "version": job.version}))

    def wait(self) -> tuple[int, Samples, dict]:
        return self.done.pop(0)

    def states(self) -> list[tuple[dict, dict[str, np.ndarray]]]:
        return [self.play.state()]

    def restore(self, states: list[tuple[dict, dict[str, np.ndarray]]], where: str) -> list[dict]:
        (run, arrays), *_ = states
        self.play.restore(run, arrays, where)
        return [self.play.info()]

    def close(self) -> None:
        pass


# ---------------------------------------------------------------- training
def train(
    cfg: Config,
    argv: list[str] | None = None,
    point: tuple[dict, dict] | None = None,
    actors: Any = None,
) -> dict:
    """Run a training; returns the final record (also written to ``policy.json``).
    ``argv``: the command line's arguments after ``python -m azgames``, for the record.
    ``point``: the run's resume point (:func:`.resume.load` of ``cfg.out``) to go on from.
    ``actors``: a maker of the self-play actors, ``actors(cfg, learner)``
    (:class:`LocalActors` by default; Ray's in :mod:`.alphazero_ray`)."""
    out = Path(cfg.out)
    out.mkdir(parents=True, exist_ok=True)
    learner = Learner(cfg, fresh=point is None)
    pool = (actors or LocalActors)(cfg, learner)
    meta, net = learner.meta, learner.net
    team = learner.rules.info.utility == "identical"
    command = (
        "python -m azgames " + " ".join(shlex.quote(a) for a in argv)
        if argv is not None
        else f"azgames.training.alphazero.train({cfg!r})"
    )
    opponents = ("random",) if team else tuple(cfg.eval_against)
    rounds = 0
    snapshots: list[NumpyPolicy] = []
    carried: dict[str, Any] = {"resumed_at": []}
    infos: list[dict[str, Any]] = [{"moves": 0, "games": 0, "network_share": 0.0} for _ in range(pool.size)]
    if point is not None:
        carried, snapshots, infos = restore(point, str(out), learner, pool)
        rounds, meta, command = carried["rounds"], carried["meta"], carried["command"]
        carried["resumed_at"] = [*carried["resumed_at"], rounds]

    train_log = CsvLog(out / "train.csv", ("round", rounds) if point else None)
    num_rounds = math.ceil(cfg.steps / (cfg.num_envs * cfg.num_steps))  # at least the steps asked for
    clock = TrainingClock(carried.get("clock"))
    deadline = clock.start + 60 * cfg.minutes if cfg.minutes else None
    bar = _progress(num_rounds if deadline is None else None, cfg.progress, rounds)
    saved = time.perf_counter()  # when the last resume point was written
    evaluations = Evaluations(
        out,
        opponents,
        cfg.eval_games,
        cfg.seed,
        team,
        cfg.ladder,
        unit="round",
        say=bar.write,
        simulations=cfg.eval_simulations,
        resumed_at=rounds if point else None,
    )
    asked = rounds  # rounds asked of the actors

    def ask(k: int) -> None:
        nonlocal asked
        asked += 1
        warm = asked - cfg.teacher_rounds <= cfg.value_warmup  # the warm-up follows the teacher
        pool.start(k, Job(asked, learner.version, snapshots, warm, asked <= cfg.teacher_rounds))

    def counters() -> dict[str, Any]:
        return {
            "rounds": rounds,
            "clock": clock.state(),
            "meta": meta,
            "command": command,
            "resumed_at": carried["resumed_at"],
        }

    for k in range(pool.size):
        ask(k)
    idle: list[int] = []  # actors left waiting while the others finish, for a resume point
    try:
        while True:
            k, samples, infos[k] = pool.wait()
            rounds += 1
            row = learner.learn(samples)
            moves, games = (sum(i[c] for i in infos) for c in ("moves", "games"))
            elapsed = clock.elapsed()
            train_log.write(
                {
                    "round": rounds,
                    "steps": moves,
                    "seconds": round(elapsed, 2),
                    "steps_per_s": round(moves / elapsed),
                    "games": games,
                    **row,
                    "network_share": round(infos[k]["network_share"], 3),
                    "learner_share": round(learner.seconds / max(elapsed, 1e-9), 3),
                    # How many versions behind the learner's the round's weights were.
                    "lag": learner.version - 1 - infos[k]["version"],
                }
            )
            bar.update(1)
            bar.set_postfix(moves=moves, games=games, loss=f"{row['policy_loss'] + row['value_loss']:.3f}")
            finished = rounds >= num_rounds if deadline is None else time.perf_counter() >= deadline
            if cfg.league and rounds % cfg.snapshot_every == 0:
                snapshots = [*snapshots, net.to_numpy(meta)][-cfg.max_snapshots :]
            # eval_every 0: no evaluation along the way, only finish()'s final one.
            if cfg.eval_every and (finished or rounds % cfg.eval_every == 0):
                so_far = {"command": command, "steps": moves, "seconds": round(elapsed, 1), "seed": cfg.seed}
                with clock.set_aside():
                    evaluations(net.to_numpy({**meta, "trained": so_far}), rounds, moves, elapsed)
                    plot_curve(out, LOSSES, steps="moves of self-play")
            if finished:
                break
            idle.append(k)
            if time.perf_counter() - saved < 60 * cfg.checkpoint_minutes:
                ask(idle.pop())  # no resume point due: back to work
            elif len(idle) == pool.size:  # a resume point is due, and every actor waits for it
                with clock.set_aside():
                    save_point(out, cfg, counters(), learner, pool, snapshots)
                saved = time.perf_counter()
                while idle:
                    ask(idle.pop(0))
    finally:
        pool.close()
    bar.close()
    if not cfg.eval_every:
        plot_curve(out, LOSSES, steps="moves of self-play")  # train.csv's side alone
    elapsed = clock.elapsed()
    moves = sum(i["moves"] for i in infos)
    record = {
        "command": command,
        "config": {**asdict(cfg), "hidden": list(learner.hidden)},
        "steps": moves,
        "rounds": rounds,
        "games": sum(i["games"] for i in infos),
        "seconds": round(elapsed, 1),
        "steps_per_s": round(moves / elapsed),
        "updates": learner.updates,
        "learner_seconds": round(learner.seconds, 1),
        "device": cfg.device,
        **clock.record(moves),
        **({"resumed_at_rounds": carried["resumed_at"]} if carried["resumed_at"] else {}),
    }
    record = finish(out, net, meta, record, opponents, cfg.final_eval_games, cfg.seed, cfg.eval_simulations)
    (out / resume.FILE).unlink(missing_ok=True)  # finished: nothing to go on with
    return record


def teacher(cfg: Config, round: int):
    """The opponent that plays the teacher's ``round``, its generator drawn
    from the seed and the round, so that a resumed run plays the same moves."""
    seed = int(np.random.SeedSequence([cfg.seed, round]).generate_state(1)[0])
    return make_opponent(cfg.teacher, cfg.game, seed=seed, num_players=cfg.num_players, **cfg.options)


# ---------------------------------------------------------------- resume points
def save_point(out: Path, cfg: Config, counters: dict, learner: Learner, pool, snapshots: list) -> None:
    """Write the run's resume point (:mod:`.resume`), every actor waiting:
    everything the next rounds depend on, so that a resumed local run goes
    on bit for bit."""
    run, arrays = learner.state()
    played = []
    for k, (actor_run, actor_arrays) in enumerate(pool.states()):
        played.append(actor_run)
        arrays |= {f"actor/{k}/{name}": a for name, a in actor_arrays.items()}
    metas, snapshot_arrays = resume.snapshot_state(snapshots)
    arrays |= snapshot_arrays
    run |= {
        "algo": "alphazero",
        "backend": "ray" if isinstance(cfg, AlphaZeroRayConfig) else "suite",
        # The options as the rules keep them (a map file's map itself), as the meta has them.
        "config": {**asdict(cfg), "options": counters["meta"]["options"]},
        **counters,
        "actors": played,
        "snapshots": metas,
    }
    resume.save(out, run, arrays)


#: The parts of a resume point, by the first part of its arrays' names.
PARTS = ("actor", "snapshot", "replay", "net", "adam", "torch")


def restore(point: tuple[dict, dict], where: str, learner: Learner, pool) -> tuple[dict, list, list[dict]]:
    """Put a resume point :func:`save_point` wrote into the learner and the
    actors; its counters, the league's snapshots and the actors' counts.
    A ValueError of one line if any part does not fit."""
    run, arrays = point
    where = f"--resume {where!r}"
    resume.check_parts(arrays, PARTS, where)
    counters = resume.carried(run, where)
    try:
        learner.restore(run, arrays, where)
        if not isinstance(run["actors"], list) or len(run["actors"]) != pool.size:
            raise ValueError(f"{where}: its self-play actors are not {pool.size}")
        states = [
            (actor, {n.split("/", 2)[2]: a for n, a in arrays.items() if n.startswith(f"actor/{k}/")})
            for k, actor in enumerate(run["actors"])
        ]
        infos = pool.restore(states, where)
        snapshots = resume.restore_snapshots(run["snapshots"], arrays, where)
        counters["rounds"] = resume.count(run, "rounds", where)
    except (KeyError, TypeError, AttributeError) as e:
        raise ValueError(f"{where}: its run.json lacks or mistypes {e}") from None
    return counters, snapshots, infos


#: The right panel of AlphaZero's ``curve.png``: its losses (self-play has no win rate to show).
LOSSES = {"policy_loss": "policy cross-entropy", "value_loss": "value squared error"}


def _progress(total: int | None, enabled: bool, done: int = 0):
    from tqdm.auto import tqdm

    return tqdm(total=total, initial=done, unit="round", disable=not enabled, dynamic_ncols=True)
