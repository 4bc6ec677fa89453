"""Masked PPO self-play for any game of the suite: ``python -m azgames train GAME``.

One file, top to bottom, in the manner of CleanRL's ``ppo.py``: the
hyper-parameters (:class:`Config`), then :func:`train` (the network,
:class:`~azgames.training.net.Net`, and the logs and curve,
:mod:`azgames.training.logs`, are shared with the RLlib trainer):
collect ``num_steps`` learner steps in each of ``num_envs`` games of a
:class:`~azgames.training.learner_env.LearnerVecEnv` (opponents from the
:class:`~azgames.training.league.League` move inside its step), compute GAE
advantages, and run ``update_epochs`` passes of clipped PPO over minibatches.
Illegal actions get a logit of -1e8, so the policy never samples one and its
entropy counts legal actions only.

Every ``eval_every`` updates the policy (most likely action) plays
``eval_games`` games against random and greedy (:mod:`.evaluate`, which
also places it on the ``--ladder``); the run
writes ``train.csv`` (per update), ``eval.csv``, ``curve.png`` (the learning
curve), ``checkpoints/*.npz`` and, at the end, ``policy.npz`` with
``policy.json``: the command, seed, steps, time and final evaluations. The
policy files are :class:`~azgames.agents.policy.NumpyPolicy` files: they
play without torch.

Reproducible from ``--seed`` on one machine with ``--steps`` (torch's CPU
kernels are deterministic for a fixed thread count), through kills: every
``--checkpoint-minutes`` the run writes ``resume.npz`` (:func:`save_point`)
and ``train --resume`` goes on from it bit for bit. ``--minutes`` stops on
the clock, so the number of updates varies.
"""

from __future__ import annotations

import math
import shlex
import time
from dataclasses import asdict
from pathlib import Path
from typing import Any

import numpy as np
import torch
from torch import nn

from . import resume
from .checkpoints import Evaluations, finish, learner_state, policy_meta, restore_learner, start_from
from .clock import TrainingClock
from .config import PPOConfig as Config
from .league import League
from .learner_env import LearnerVecEnv
from .logs import CsvLog, plot_curve
from .net import Net


# ---------------------------------------------------------------- training
def train(cfg: Config, argv: list[str] | None = None, point: tuple[dict, dict] | None = None) -> dict:
    """Run a training; returns the final record (also written to ``policy.json``).
    ``argv``: the command line's arguments after ``python -m azgames``, for the record.
    ``point``: the run's resume point (:func:`.resume.load` of ``cfg.out``) to go on from."""
    out = Path(cfg.out)
    out.mkdir(parents=True, exist_ok=True)
    torch.set_num_threads(cfg.torch_threads)
    torch.manual_seed(cfg.seed)
    sampler = torch.Generator().manual_seed(cfg.seed)

    env = LearnerVecEnv(
        cfg.game,
        cfg.num_envs,
        num_players=cfg.num_players,
        seed=cfg.seed,
        opponents=["random"],
        **cfg.options,
    )
    obs_shape = env.single_observation_space.shape
    net = Net(int(np.prod(obs_shape)), env.num_actions, cfg.hidden)
    meta = policy_meta(env.venv.rules, cfg.options, cfg.hidden)
    if cfg.init and point is None:  # a resumed run has its weights, and its meta says whence
        meta = start_from(net, cfg.init, meta)
    device = torch.device(cfg.device)
    net.to(device)
    optimizer = torch.optim.Adam(net.parameters(), lr=cfg.learning_rate, eps=1e-5)
    league = League(dict(cfg.mix), cfg.max_snapshots, cfg.seed, cfg.league_greedy)
    command = (
        "python -m azgames " + " ".join(shlex.quote(a) for a in argv)
        if argv is not None
        else f"azgames.training.ppo.train({cfg!r})"
    )
    # A team (the co-op) plays no opponent: one evaluation, against the game itself.
    opponents = ("random",) if env.team else tuple(cfg.eval_against)

    T, N = cfg.num_steps, cfg.num_envs
    batch = T * N
    minibatch = batch // cfg.num_minibatches
    num_updates = math.ceil(cfg.steps / batch)  # at least the steps asked for
    # The rollout lives where the network runs; the games' arrays and the sampler's draws come from the CPU.
    obs_buf = torch.zeros((T, N, *obs_shape), dtype=torch.int8, device=device)
    mask_buf = torch.zeros((T, N, env.num_actions), dtype=torch.bool, device=device)
    act_buf = torch.zeros((T, N), dtype=torch.long, device=device)
    logp_buf = torch.zeros((T, N), device=device)
    rew_buf = torch.zeros((T, N), device=device)
    done_buf = torch.zeros((T, N), device=device)
    val_buf = torch.zeros((T, N), device=device)

    # The env's own buffers, which every step rewrites in place: views, copied into the rollout.
    obs_np, mask_np = env.reset()
    obs, mask = torch.from_numpy(obs_np), torch.from_numpy(mask_np)
    done = torch.zeros(N, device=device)
    steps = update = 0
    carried: dict[str, Any] = {"resumed_at": []}
    if point is not None:
        carried = restore(point, str(out), net, optimizer, sampler, env, league, done)
        steps, update, meta, command = (
            carried["steps"],
            carried["updates"],
            carried["meta"],
            carried["command"],
        )
        carried["resumed_at"] = [*carried["resumed_at"], update]
    train_log = CsvLog(out / "train.csv", ("update", update) if point else None)
    results = {"wins": 0.0, "games": 0}
    clock = TrainingClock(carried.get("clock"))
    deadline = clock.start + 60 * cfg.minutes if cfg.minutes else None
    bar = _progress(num_updates if deadline is None else None, cfg.progress, update)
    evaluations = Evaluations(
        out,
        opponents,
        cfg.eval_games,
        cfg.seed,
        env.team,
        cfg.ladder,
        unit="update",
        say=bar.write,
        resumed_at=update if point else None,
    )
    saved = time.perf_counter()  # when the last resume point was written
    while True:
        update += 1
        if cfg.anneal_lr and deadline is None:
            optimizer.param_groups[0]["lr"] = cfg.learning_rate * (1 - (update - 1) / num_updates)
        env.set_opponents(*league.pool(net.to_numpy(meta)))

        # ---- collect T steps in every game
        for t in range(T):
            obs_buf[t], mask_buf[t], done_buf[t] = obs, mask, done
            with torch.no_grad():
                logits, value = net(obs_buf[t], mask_buf[t])
            noise = torch.rand(logits.shape, generator=sampler).to(device)
            gumbel = -torch.log(-torch.log(noise.clamp_min(1e-20)))
            action = (logits + gumbel).argmax(dim=1)  # a sample from the masked softmax
            logp_buf[t] = torch.log_softmax(logits, dim=1).gather(1, action[:, None])[:, 0]
            act_buf[t], val_buf[t] = action, value
            _, _, reward, terminated, truncated = env.step(action.cpu().numpy())
            ended = terminated | truncated
            rew_buf[t] = torch.from_numpy(reward).to(device)
            done = torch.from_numpy(ended.astype(np.float32)).to(device)
            if ended.any():
                results["wins"] += float((reward[ended] >= 1 - 1e-6).sum())
                results["games"] += int(ended.sum())
        steps += batch

        # ---- advantages (GAE)
        with torch.no_grad():
            _, next_value = net(obs.to(device), mask.to(device))
        adv = torch.zeros((T, N), device=device)
        last = torch.zeros(N, device=device)
        for t in reversed(range(T)):
            nonterminal = 1.0 - (done if t == T - 1 else done_buf[t + 1])
            after = next_value if t == T - 1 else val_buf[t + 1]
            delta = rew_buf[t] + cfg.gamma * after * nonterminal - val_buf[t]
            last = delta + cfg.gamma * cfg.gae_lambda * nonterminal * last
            adv[t] = last
        ret = adv + val_buf

        # ---- PPO epochs over minibatches
        b_obs, b_mask = obs_buf.reshape(batch, *obs_shape), mask_buf.reshape(batch, -1)
        b_act, b_logp = act_buf.reshape(-1), logp_buf.reshape(-1)
        b_adv, b_ret = adv.reshape(-1), ret.reshape(-1)
        stats = []
        for _ in range(cfg.update_epochs):
            order = torch.randperm(batch, generator=sampler).to(device)
            for lo in range(0, batch, minibatch):
                mb = order[lo : lo + minibatch]
                logits, value = net(b_obs[mb], b_mask[mb])
                logp_all = torch.log_softmax(logits, dim=1)
                logp = logp_all.gather(1, b_act[mb][:, None])[:, 0]
                ratio = (logp - b_logp[mb]).exp()
                a = b_adv[mb]
                a = (a - a.mean()) / (a.std() + 1e-8)
                pg_loss = torch.max(-a * ratio, -a * ratio.clamp(1 - cfg.clip_coef, 1 + cfg.clip_coef)).mean()
                v_loss = 0.5 * ((value - b_ret[mb]) ** 2).mean()
                # softmax, not logp_all.exp(): exp of the -1e8 logits is 15x slower on CPU
                entropy = -(torch.softmax(logits, dim=1) * logp_all).sum(1).mean()
                loss = pg_loss + cfg.vf_coef * v_loss - cfg.ent_coef * entropy
                optimizer.zero_grad()
                loss.backward()
                nn.utils.clip_grad_norm_(net.parameters(), cfg.max_grad_norm)
                optimizer.step()
                with torch.no_grad():
                    approx_kl = ((ratio - 1) - (logp - b_logp[mb])).mean().item()
                stats.append((pg_loss.item(), v_loss.item(), entropy.item(), approx_kl))
            if cfg.target_kl is not None and approx_kl > cfg.target_kl:
                break

        # ---- log, snapshot, evaluate
        elapsed = clock.elapsed()
        pg, vl, ent, kl = np.mean(stats, axis=0)
        train_win = results["wins"] / max(1, results["games"])
        train_log.write(
            {
                "update": update,
                "steps": steps,
                "seconds": round(elapsed, 2),
                "steps_per_s": round(steps / elapsed),
                "plies": env.plies,
                "plies_per_s": round(env.plies / elapsed),
                "policy_loss": pg,
                "value_loss": vl,
                "entropy": ent,
                "approx_kl": kl,
                "train_games": results["games"],
                "train_win_rate": train_win,
            }
        )
        results = {"wins": 0.0, "games": 0}
        bar.update(1)
        bar.set_postfix(steps=steps, sps=round(steps / elapsed), win=f"{train_win:.2f}")
        if update % cfg.snapshot_every == 0:
            league.add_snapshot(net.to_numpy(meta))
        finished = update >= num_updates if deadline is None else time.perf_counter() >= deadline
        # eval_every 0: no evaluation along the way, only finish()'s final one.
        if cfg.eval_every and (finished or update % cfg.eval_every == 0):
            # A checkpoint says what made it so far, so that --init from it keeps the lineage.
            so_far = {"command": command, "steps": steps, "seconds": round(elapsed, 1), "seed": cfg.seed}
            with clock.set_aside():
                evaluations(net.to_numpy({**meta, "trained": so_far}), update, steps, elapsed)
                plot_curve(out)
        if finished:
            break
        if time.perf_counter() - saved >= 60 * cfg.checkpoint_minutes:
            counters = {"updates": update, "steps": steps, "clock": clock.state(), "meta": meta}
            counters |= {"command": command, "resumed_at": carried["resumed_at"]}
            with clock.set_aside():
                save_point(out, cfg, counters, net, optimizer, sampler, env, league, done)
            saved = time.perf_counter()
    bar.close()
    if not cfg.eval_every:
        plot_curve(out)  # train.csv's side alone
    elapsed = clock.elapsed()
    record = {
        "command": command,
        "config": {**asdict(cfg), "hidden": list(cfg.hidden)},
        "steps": steps,
        "updates": update,
        "seconds": round(elapsed, 1),
        "steps_per_s": round(steps / elapsed),
        **clock.record(steps),
        "plies": env.plies,
        "device": cfg.device,
        **({"resumed_at_updates": carried["resumed_at"]} if carried["resumed_at"] else {}),
    }
    record = finish(out, net, meta, record, opponents, cfg.final_eval_games, cfg.seed)
    (out / resume.FILE).unlink(missing_ok=True)  # finished: nothing to go on with
    return record


def save_point(out: Path, cfg: Config, counters: dict, net, optimizer, sampler, env, league, done) -> None:
    """Write the run's resume point (:mod:`.resume`) after an update: what
    the next one depends on, so that a resumed run goes on bit for bit."""
    learner, arrays = learner_state(net, optimizer, sampler)
    played, env_arrays = env.state()
    metas, snapshot_arrays = resume.snapshot_state(league.snapshots)
    run = {
        "algo": "ppo",
        # The options as the rules keep them (a map file's map itself), as the meta has them.
        "config": {**asdict(cfg), "options": counters["meta"]["options"]},
        **counters,
        **learner,
        "env": played,
        "snapshots": metas,
    }
    resume.save(out, run, arrays | snapshot_arrays | env_arrays | {"learner/done": done.cpu().numpy()})


#: The parts of a resume point, by the first part of its arrays' names.
PARTS = ("venv", "learner", "snapshot", "net", "adam", "torch")


def restore(point: tuple[dict, dict], where: str, net, optimizer, sampler, env, league, done) -> dict:
    """Put a resume point :func:`save_point` wrote into the run's parts;
    returns its counters. A ValueError of one line if any part does not fit."""
    run, arrays = point
    where = f"--resume {where!r}"
    resume.check_parts(arrays, PARTS, where)
    counters = resume.carried(run, where)
    try:
        restore_learner(run, arrays, net, optimizer, where, sampler)
        league.snapshots = resume.restore_snapshots(run["snapshots"], arrays, where)
        # The pool the last update played in, whose baselines go on with their generators.
        env.set_opponents(*league.pool(net.to_numpy(counters["meta"])))
        env.restore(run["env"], arrays, where)
        resume.expect(
            {"learner/done": arrays.get("learner/done", np.zeros(0))},
            {"learner/done": done.cpu().numpy()},
            where,
        )
        done.copy_(torch.from_numpy(arrays["learner/done"]).to(done.device))
        counters |= {k: resume.count(run, k, where) for k in ("updates", "steps")}
    except (KeyError, TypeError, AttributeError) as e:
        raise ValueError(f"{where}: its run.json lacks or mistypes {e}") from None
    return counters


def _progress(total: int | None, enabled: bool, done: int = 0):
    from tqdm.auto import tqdm

    return tqdm(total=total, initial=done, unit="update", disable=not enabled, dynamic_ncols=True)
