"""Masked self-play on RLlib: one ``main`` module against a league.

    python -m azgames train azacru --backend rllib --minutes 10 [--num-env-runners 2] [--address auto]

The league, as in RLlib's own self-play example (``self_play_with_open_spiel``):

- **league games**: one side (team, :func:`~azgames.rllib.env.teams`) is
  played by ``main``, the others by one module drawn from the frozen
  snapshots of ``main`` (``main_v1``, ``main_v2``, ...), or by ``main``
  itself until the first snapshot exists;
- **built-in games** (a share ``builtin_share`` of them): the suite's
  baselines (``random``, ``greedy``, and ``mcts`` or ``ppo`` if asked) play
  the other sides inside the env, and ``main`` plays its ``learner_*`` agents;
- :class:`LeagueCallback` logs ``main``'s win rate against each kind of
  opponent and, when the win rate against the current league reaches
  ``win_rate_threshold`` (against ``random`` while there is no snapshot
  yet, as in RLlib's example), freezes a copy of ``main`` as the next
  snapshot.

Team games: the co-op mode is one side, all played by ``main`` (no league);
Azure Attack's hunters are one side, so a snapshot plays all of them, or the
monster.

:func:`train` is the loop: RLlib's PPO iterations until a step or time
budget, a progress bar, ``train.csv`` (throughput, win rates, league size),
evaluations of ``main`` against ``random`` and ``greedy`` in the suite's own
batched evaluator (``eval.csv``, ``curve.png``), RLlib checkpoints, and the
final ``policy.npz``: a :class:`~azgames.agents.policy.NumpyPolicy` that
``python -m azgames play --agents ppo:path=...`` and the tournament load.
"""

from __future__ import annotations

import functools
import json
import os
import shlex
import time
import zlib
from collections.abc import Sequence
from dataclasses import asdict
from math import nan
from pathlib import Path

import numpy as np
import ray
from ray.rllib.algorithms.ppo import PPOConfig
from ray.rllib.callbacks.callbacks import RLlibCallback
from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
from ray.rllib.core.rl_module.rl_module import RLModuleSpec
from ray.rllib.utils.metrics import ENV_RUNNER_RESULTS, NUM_ENV_STEPS_SAMPLED_LIFETIME

from azgames.training.evaluate import evaluate
from azgames.training.logs import CsvLog, plot_curve

from .config import RllibConfig as Config
from .env import LEARNER_PREFIX, TurnBasedEnv, env_config
from .module import MaskedPPOTorchRLModule, numpy_policy, policy_meta

MAIN = "main"


# ---------------------------------------------------------------- who plays whom
def agent_to_module(
    agent_id: str, episode, seat_team: dict[str, int], snapshots: tuple[str, ...] = (), **kwargs
) -> str:
    """The module of ``agent_id`` in ``episode``: ``main`` for the learner's
    side, a snapshot (one per game, the same for all its seats) for the others.
    Both draws hash the episode's id, so every agent of a game agrees."""
    if agent_id.startswith(LEARNER_PREFIX):
        return MAIN
    key = zlib.crc32(str(episode.id_).encode())
    num_teams = max(seat_team.values()) + 1
    if seat_team[agent_id] == key % num_teams or not snapshots:
        return MAIN
    return snapshots[(key // num_teams) % len(snapshots)]


def mapping_fn(seat_team: dict[str, int], snapshots: Sequence[str] = ()):
    return functools.partial(agent_to_module, seat_team=seat_team, snapshots=tuple(snapshots))


# ---------------------------------------------------------------- the league callback
class LeagueCallback(RLlibCallback):
    """Logs ``main``'s results per kind of opponent; freezes a snapshot when
    ``main`` beats its current gate: ``random`` (or the baselines pooled,
    without random) until the first snapshot, the league's snapshots after.

    ``win_rate_vs_<kind>`` is a mean over the last 200 games of that kind;
    a snapshot also needs ``min_games`` games of the gate's kind since the
    last one, so that it is judged on games against the current league."""

    def __init__(self, seat_team: dict[str, int], win_rate_threshold: float = 0.8, min_games: int = 50):
        super().__init__()
        self.seat_team = seat_team
        self.threshold = win_rate_threshold
        self.min_games = min_games
        self.snapshots: list[str] = []
        self.games_since_snapshot = 0

    # RLlib's new API stack always passes metrics_logger, which the base declares optional.
    def on_episode_end(self, *, episode, metrics_logger, **kwargs) -> None:
        # The game's outcome comes from the env's final infos: the episode
        # object handed here may be the last chunk of a longer game, whose
        # rewards need not hold every agent's.
        infos = episode.get_infos(-1)
        finals = {a: infos[a] for a in infos if "return" in infos[a]}
        if not finals:
            return
        info = next(iter(finals.values()))
        metrics_logger.log_value("illegal_actions", int(info["illegal_action"]), reduce="sum")
        mains = [a for a in finals if episode.module_for(a) == MAIN]
        if not mains:
            return
        if mains[0].startswith(LEARNER_PREFIX):
            kind = info["opponent"]
        elif len(mains) < len(finals):
            kind = "league"
        else:  # main on every side (self-play, or the co-op team): no one to beat
            metrics_logger.log_value("games_vs_self", 1, reduce="sum")
            return
        win = float(finals[mains[0]]["return"] >= 1 - 1e-6)
        metrics_logger.log_value(f"win_rate_vs_{kind}", win, reduce="mean", window=200)
        metrics_logger.log_value(f"games_vs_{kind}", 1, reduce="sum")

    def gate(self, runners: dict) -> tuple[float | None, int]:
        """``main``'s win rate against its current gate, and this iteration's games of it."""
        if self.snapshots:
            kinds = ["league"]
        elif "win_rate_vs_random" in runners:
            kinds = ["random"]
        else:
            kinds = [
                k[len("win_rate_vs_") :]
                for k in runners
                if k.startswith("win_rate_vs_") and k != "win_rate_vs_league"
            ]
        # An iteration without games of a kind reports NaN or nothing for it.
        games = [int(np.nan_to_num(runners.get(f"games_vs_{k}", 0))) for k in kinds]
        rates = [float(np.nan_to_num(runners.get(f"win_rate_vs_{k}", 0))) for k in kinds]
        if not sum(games):
            return None, 0
        return sum(r * g for r, g in zip(rates, games)) / sum(games), sum(games)

    def on_train_result(self, *, algorithm, result, **kwargs) -> None:
        rate, games = self.gate(result.get(ENV_RUNNER_RESULTS, {}))
        self.games_since_snapshot += games
        if rate is not None and self.games_since_snapshot >= self.min_games and rate >= self.threshold:
            self.add_snapshot(algorithm)
            self.games_since_snapshot = 0
        result["league_size"] = len(self.snapshots)
        result["league_win_rate"] = nan if rate is None else round(rate, 4)

    def add_snapshot(self, algorithm) -> str:
        """Freeze ``main``'s weights now as the next snapshot, on the learner
        and on every env runner."""
        module_id = f"main_v{len(self.snapshots) + 1}"
        weights = algorithm.learner_group.get_weights([MAIN])[MAIN]
        self.snapshots.append(module_id)
        algorithm.add_module(
            module_id=module_id,
            module_spec=RLModuleSpec.from_module(algorithm.get_module(MAIN)),
            new_agent_to_module_mapping_fn=mapping_fn(self.seat_team, self.snapshots),
        )
        algorithm.set_state({"learner_group": {"learner": {"rl_module": {module_id: weights}}}})
        # add_module gave the runners a freshly initialised module, and PPO
        # syncs only the modules it trains: push the frozen weights once.
        algorithm.env_runner_group.sync_weights(
            from_worker_or_learner_group=algorithm.learner_group, policies=[module_id], inference_only=True
        )
        return module_id


def build_config(cfg: Config) -> PPOConfig:
    """RLlib's PPO configured for ``cfg``: the env, the masked module, the league."""
    env_cfg = env_config(
        {
            "game": cfg.game,
            "num_players": cfg.num_players,
            "options": cfg.options,
            "builtin_opponents": cfg.builtin_opponents,
            "builtin_share": cfg.builtin_share,
            "seed": cfg.seed,
        }
    )
    probe = TurnBasedEnv(env_cfg)
    seat_team = dict(zip(probe.seats, probe.seat_team))
    return (
        PPOConfig()
        .environment(TurnBasedEnv, env_config=env_cfg)
        .env_runners(
            num_env_runners=cfg.num_env_runners,
            num_envs_per_env_runner=cfg.num_envs_per_env_runner,
            rollout_fragment_length="auto",
        )
        .multi_agent(policies={MAIN}, policy_mapping_fn=mapping_fn(seat_team), policies_to_train=[MAIN])
        .rl_module(
            rl_module_spec=MultiRLModuleSpec(
                rl_module_specs={
                    MAIN: RLModuleSpec(
                        module_class=MaskedPPOTorchRLModule, model_config={"hidden": cfg.hidden}
                    )
                }
            )
        )
        .training(
            lr=cfg.lr,
            gamma=cfg.gamma,
            lambda_=cfg.lambda_,
            entropy_coeff=cfg.entropy_coeff,
            clip_param=cfg.clip_param,
            grad_clip=cfg.grad_clip,
            train_batch_size_per_learner=cfg.train_batch_size,
            minibatch_size=cfg.minibatch_size,
            num_epochs=cfg.num_epochs,
        )
        .callbacks(
            functools.partial(  # RLlib calls it with no arguments, as a class
                LeagueCallback,
                seat_team=seat_team,
                win_rate_threshold=cfg.win_rate_threshold,
                min_games=cfg.snapshot_min_games,
            )
        )
        .debugging(seed=cfg.seed, log_level="ERROR")
    )


def main_policy(algo, cfg: Config, module_id: str = MAIN):
    """The learner's ``main`` (or another module) now, as a torch-free :class:`NumpyPolicy`."""
    env_cfg = algo.config.env_config
    env = TurnBasedEnv(env_cfg)
    shape = env.game.observation_space(env.seats[0])["observation"].shape
    return numpy_policy(
        algo.learner_group.get_weights([module_id])[module_id], policy_meta(env_cfg, shape, cfg.hidden)
    )


# ---------------------------------------------------------------- the loop
def train(cfg: Config, argv: list[str] | None = None) -> dict:
    """Run ``cfg`` on RLlib; returns the final record (also in ``policy.json``)."""
    from tqdm.auto import tqdm

    out = Path(cfg.out)
    out.mkdir(parents=True, exist_ok=True)
    if not ray.is_initialized():
        ray.init(address=cfg.address, include_dashboard=False, log_to_driver=False, ignore_reinit_error=True)
    algo = build_config(cfg).build_algo()
    train_log, eval_log = CsvLog(out / "train.csv"), CsvLog(out / "eval.csv")
    start = time.perf_counter()
    deadline = None if cfg.minutes is None else start + 60 * cfg.minutes
    bar = tqdm(
        total=None if deadline else cfg.steps, unit="step", disable=not cfg.progress, dynamic_ncols=True
    )
    steps = iteration = 0
    kinds = ["league", *cfg.builtin_opponents]

    def evaluation(elapsed: float) -> None:
        policy = main_policy(algo, cfg)
        for opponent in cfg.eval_against:
            e = evaluate(policy, opponent, cfg.eval_games, seed=cfg.seed + 10_000 + iteration)
            eval_log.write(
                {
                    "iteration": iteration,
                    "steps": steps,
                    "seconds": round(elapsed, 2),
                    **e.as_dict(),
                    "opponent": opponent,
                }
            )
            bar.write(f"iteration {iteration}, {steps:,} steps: {e}")

    if cfg.eval_every:
        evaluation(0.0)  # the untrained policy: where the curve starts
    while True:
        result = algo.train()
        iteration += 1
        runners = result.get(ENV_RUNNER_RESULTS, {})
        new_steps = int(result.get(NUM_ENV_STEPS_SAMPLED_LIFETIME, steps)) - steps
        steps += new_steps
        elapsed = time.perf_counter() - start
        row = {
            "iteration": iteration,
            "steps": steps,
            "seconds": round(elapsed, 2),
            "steps_per_s": round(steps / elapsed),
            "league_size": result.get("league_size", 0),
            "illegal_actions": int(np.nan_to_num(runners.get("illegal_actions", 0))),
            "train_win_rate": result.get("league_win_rate", nan),
        }
        row.update({f"win_rate_vs_{k}": round(float(runners.get(f"win_rate_vs_{k}", nan)), 4) for k in kinds})
        train_log.write(row)
        bar.update(new_steps)
        bar.set_postfix(sps=row["steps_per_s"], league=row["league_size"], win=row["train_win_rate"])
        finished = steps >= cfg.steps if deadline is None else time.perf_counter() >= deadline
        # eval_every 0: no evaluation along the way, only the final one below.
        if cfg.eval_every and (finished or iteration % cfg.eval_every == 0):
            evaluation(elapsed)
            plot_curve(out)
        if finished:
            break
    bar.close()
    if not cfg.eval_every:
        plot_curve(out)  # train.csv's side alone
    elapsed = time.perf_counter() - start
    algo.save(str((out / "checkpoint").resolve()))
    policy = main_policy(algo, cfg)
    final = {
        o: evaluate(policy, o, cfg.final_eval_games, seed=cfg.seed + 99_999).as_dict()
        for o in cfg.eval_against
    }
    command = (
        "python -m azgames " + " ".join(shlex.quote(a) for a in argv)
        if argv is not None
        else f"azgames.rllib.selfplay.train({cfg!r})"
    )
    assert algo.config is not None  # a built algorithm holds its config
    record = {
        "command": command,
        "backend": "rllib",
        "ray": ray.__version__,
        "config": {**asdict(cfg), "hidden": list(cfg.hidden)},
        "steps": steps,
        "iterations": iteration,
        "seconds": round(elapsed, 1),
        "steps_per_s": round(steps / elapsed),
        "league_size": len(algo.config.policies) - 1,
        "checkpoint": str(out / "checkpoint"),
        "final_evaluation": final,
        "cpus": os.cpu_count(),
    }
    meta = {
        **policy.meta,
        "trained": {k: record[k] for k in ("command", "steps", "seconds")}
        | {"seed": cfg.seed, "backend": "rllib"},
    }
    type(policy)(policy.trunk, policy.policy_head, policy.value_head, meta).save(out / "policy.npz")
    (out / "policy.json").write_text(json.dumps(record, indent=2, default=str) + "\n")
    algo.stop()
    return record
