"""Gumbel AlphaZero for every game and player count:
``python -m azgames train GAME --algo alphazero``.

One file, top to bottom, as :mod:`.ppo`: the hyper-parameters
(:class:`Config`), self-play (:class:`SelfPlay`), the replay buffer
(:class:`Replay`), the learning step (:func:`learn`), then :func:`train`.

- **Self-play.** ``num_envs`` games of a vector env move at once, every move
  chosen by one batched Gumbel search (:mod:`azgames.agents.az.search`,
  ``simulations`` a move, Gumbel noise on) with the network being trained.
  Each move keeps the root's observation, legal actions and the search's
  improved policy; when its game ends, each of its moves gets the return its
  mover earned from there on as the value target (with 3-4 sides, every
  player's, counted in seats from the mover: the network has a value for
  each) and goes to the replay buffer. Games run on across rounds: a round is ``num_steps`` moves of
  every game.
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
thread pool of fixed size, every generator seeded); ``--minutes`` stops on
the clock.
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
    value: np.ndarray  # (M, V) float32: the returns from this move on, the mover's first


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
        return Samples(
            rows["obs"][ended],
            rows["mask"][ended],
            rows["policy"][ended],
            np.take_along_axis(earned, seats, axis=1).astype(np.float32),
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
        env's state, which holds each game's own generator), the moves
        waiting on their games' ends and the league's snapshots."""
        arrays = resume.venv_state(self.venv, self.obs, self.mask)
        arrays |= {f"play/{k}": getattr(self, k) for k in self._KEPT}
        arrays |= {f"pending/{k}": v for k, v in self.pending.items()}
        for k, snapshot in enumerate(self.snapshots):
            arrays |= {f"snapshot/{k}/{name}": w for name, w in resume.policy_arrays(snapshot).items()}
        run = {
            "rng": generator_state(self.rng),
            "search_rng": generator_state(self.search.rng),
            "search_seconds": dict(self.search.seconds),
            "started": self.started,
            "moves": self.moves,
            "games": self.games,
            "snapshots": [s.meta for s in self.snapshots],
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
        self.finals = arrays["play/finals"]
        self.pending = {k: arrays[f"pending/{k}"] for k in self.pending}
        _, built = self.state()
        resume.expect(
            {k: v for k, v in arrays.items() if k.split("/")[0] in ("venv", "play", "pending")}, built, where
        )
        resume.restore_venv(self.venv, self.obs, self.mask, arrays, where)
        for k in self._KEPT:
            getattr(self, k)[...] = arrays[f"play/{k}"]
        self.snapshots = [
            resume.policy_from_arrays(
                {name.split("/", 2)[2]: w for name, w in arrays.items() if name.startswith(f"snapshot/{k}/")},
                meta,
                f"{where}: snapshot {k}",
            )
            for k, meta in enumerate(run["snapshots"])
        ]
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


# ---------------------------------------------------------------- training
def train(cfg: Config, argv: list[str] | None = None, point: tuple[dict, dict] | None = None) -> dict:
    """Run a training; returns the final record (also written to ``policy.json``).
    ``argv``: the command line's arguments after ``python -m azgames``, for the record.
    ``point``: the run's resume point (:func:`.resume.load` of ``cfg.out``) to go on from."""
    out = Path(cfg.out)
    out.mkdir(parents=True, exist_ok=True)
    torch.set_num_threads(cfg.torch_threads)
    torch.manual_seed(cfg.seed)
    draws = np.random.default_rng(cfg.seed)

    # A run from another's weights takes its network's shape.
    parent: dict[str, Any] = (
        NumpyPolicy.load(cfg.init).meta if cfg.init else {"hidden": cfg.hidden, "conv": cfg.conv}
    )
    hidden, conv = tuple(parent["hidden"]), parent.get("conv")
    rules = azgames.make(cfg.game, num_players=cfg.num_players, **cfg.options).unwrapped.rules
    obs_shape = rules.observation_shape(0)
    # One value, the mover's, serves one or two sides; 3-4 sides need each player's.
    values = rules.num_players if len(rules.sides) > 2 else 1
    net = Net(obs_shape, rules.num_actions, hidden, values, conv)
    turned = cfg.symmetries
    if turned is None:
        turned = not cfg.init or parent.get("symmetries") is True
    turns = symmetries(rules) if turned else []
    meta = policy_meta(
        rules,
        cfg.options,
        hidden,
        algorithm="alphazero",
        search=cfg.search.to_dict(),
        symmetries=bool(turns),
        **({"conv": conv} if conv else {}),
    )
    if cfg.init and point is None:  # a resumed run has its weights, and its meta says whence
        meta = start_from(net, cfg.init, meta)
    net.to(cfg.device)
    team = rules.info.utility == "identical"
    optimizer = torch.optim.Adam(net.parameters(), lr=cfg.learning_rate)
    play = SelfPlay(cfg, net, values)
    replay = Replay(cfg.replay, int(np.prod(obs_shape)), rules.num_actions, values)
    command = (
        "python -m azgames " + " ".join(shlex.quote(a) for a in argv)
        if argv is not None
        else f"azgames.training.alphazero.train({cfg!r})"
    )
    opponents = ("random",) if team else tuple(cfg.eval_against)
    rounds = total_updates = 0
    learner_seconds = 0.0  # in the learner's updates: the rest of a round is self-play
    carried: dict[str, Any] = {"resumed_at": []}
    if point is not None:
        carried = restore(point, str(out), net, optimizer, play, replay, draws)
        rounds, total_updates, learner_seconds = (
            carried["rounds"],
            carried["updates"],
            carried["learner_seconds"],
        )
        meta, command = carried["meta"], carried["command"]
        carried["resumed_at"] = [*carried["resumed_at"], rounds]

    train_log = CsvLog(out / "train.csv", ("round", rounds) if point else None)
    per_round = cfg.num_envs * cfg.num_steps
    num_rounds = math.ceil(cfg.steps / per_round)  # at least the steps asked for
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
    while True:
        rounds += 1
        samples = play.round(
            cfg.num_steps,
            prior_targets=rounds - cfg.teacher_rounds <= cfg.value_warmup,  # the warm-up follows the teacher
            teacher=teacher(cfg, rounds) if rounds <= cfg.teacher_rounds else None,
        )
        replay.add(samples)
        losses = []
        updates = int(np.ceil(len(samples.value) * cfg.sample_reuse / cfg.batch_size)) if replay.size else 0
        learning = time.perf_counter()
        for _ in range(updates):
            batch = replay.draw(draws.integers(0, replay.size, cfg.batch_size))
            losses.append(learn(net, optimizer, augment(batch, turns, draws) if turns else batch))
        learner_seconds += time.perf_counter() - learning
        total_updates += updates
        policy_loss, value_loss = np.mean(losses, axis=0) if losses else (float("nan"), float("nan"))

        elapsed = clock.elapsed()
        train_log.write(
            {
                "round": rounds,
                "steps": play.moves,
                "seconds": round(elapsed, 2),
                "steps_per_s": round(play.moves / elapsed),
                "games": play.games,
                "samples": len(samples.value),
                "buffer": replay.size,
                "updates": updates,
                "policy_loss": policy_loss,
                "value_loss": value_loss,
                "network_share": round(
                    play.search.seconds["network"] / max(play.search.seconds["run"], 1e-9), 3
                ),
                "learner_share": round(learner_seconds / max(elapsed, 1e-9), 3),
            }
        )
        bar.update(1)
        bar.set_postfix(moves=play.moves, games=play.games, loss=f"{policy_loss + value_loss:.3f}")
        finished = rounds >= num_rounds if deadline is None else time.perf_counter() >= deadline
        if cfg.league and rounds % cfg.snapshot_every == 0:
            play.snapshots = [*play.snapshots, net.to_numpy(meta)][-cfg.max_snapshots :]
        # eval_every 0: no evaluation along the way, only finish()'s final one.
        if cfg.eval_every and (finished or rounds % cfg.eval_every == 0):
            so_far = {"command": command, "steps": play.moves, "seconds": round(elapsed, 1), "seed": cfg.seed}
            with clock.set_aside():
                evaluations(net.to_numpy({**meta, "trained": so_far}), rounds, play.moves, elapsed)
                plot_curve(out, LOSSES, steps="moves of self-play")
        if finished:
            break
        if time.perf_counter() - saved >= 60 * cfg.checkpoint_minutes:
            counters: dict[str, Any] = {
                "rounds": rounds,
                "updates": total_updates,
                "learner_seconds": learner_seconds,
                "clock": clock.state(),
                "meta": meta,
                "command": command,
                "resumed_at": carried["resumed_at"],
            }
            with clock.set_aside():
                save_point(out, cfg, counters, net, optimizer, play, replay, draws)
            saved = time.perf_counter()
    bar.close()
    if not cfg.eval_every:
        plot_curve(out, LOSSES, steps="moves of self-play")  # train.csv's side alone
    elapsed = clock.elapsed()
    record = {
        "command": command,
        "config": {**asdict(cfg), "hidden": list(hidden)},
        "steps": play.moves,
        "rounds": rounds,
        "games": play.games,
        "seconds": round(elapsed, 1),
        "steps_per_s": round(play.moves / elapsed),
        "updates": total_updates,
        "learner_seconds": round(learner_seconds, 1),
        "device": cfg.device,
        **clock.record(play.moves),
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


def save_point(
    out: Path, cfg: Config, counters: dict, net, optimizer, play: SelfPlay, replay: Replay, draws
) -> None:
    """Write the run's resume point (:mod:`.resume`): everything the next
    round depends on, so that a resumed run goes on bit for bit."""
    played, arrays = play.state()
    held, replay_arrays = replay.state()
    learner, learner_arrays = learner_state(net, optimizer)
    run = {
        "algo": "alphazero",
        # The options as the rules keep them (a map file's map itself), as the meta has them.
        "config": {**asdict(cfg), "options": counters["meta"]["options"]},
        **counters,
        **learner,
        "selfplay": played,
        "replay": held,
        "draws": generator_state(draws),
    }
    resume.save(out, run, arrays | replay_arrays | learner_arrays)


#: The parts of a resume point, by the first part of its arrays' names.
PARTS = ("venv", "play", "pending", "snapshot", "replay", "net", "adam", "torch")


def restore(
    point: tuple[dict, dict], where: str, net, optimizer, play: SelfPlay, replay: Replay, draws
) -> dict:
    """Put a resume point :func:`save_point` wrote into the run's parts;
    returns its counters. A ValueError of one line if any part does not fit."""
    run, arrays = point
    where = f"--resume {where!r}"
    strange = sorted({k for k in arrays if k.split("/")[0] not in PARTS})
    if strange:
        raise ValueError(f"{where}: the resume point holds arrays no run writes: {strange[:3]}")
    counters = resume.carried(run, where)
    try:
        play.restore(run["selfplay"], arrays, where)
        replay.restore(run["replay"], arrays, where)
        restore_learner(run, arrays, net, optimizer, where)
        set_generator_state(draws, run["draws"], where)
        counters |= {k: resume.count(run, k, where) for k in ("rounds", "updates")}
        counters["learner_seconds"] = float(run["learner_seconds"])
    except (KeyError, TypeError, AttributeError) as e:
        raise ValueError(f"{where}: its run.json lacks or mistypes {e}") from None
    return counters


#: The right panel of AlphaZero's ``curve.png``: its losses (self-play has no win rate to show).
LOSSES = {"policy_loss": "policy cross-entropy", "value_loss": "value squared error"}


def _progress(total: int | None, enabled: bool, done: int = 0):
    from tqdm.auto import tqdm

    return tqdm(total=total, initial=done, unit="round", disable=not enabled, dynamic_ncols=True)
