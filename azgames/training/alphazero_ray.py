"""Gumbel AlphaZero with its self-play on Ray:
``python -m azgames train GAME --algo alphazero --backend ray --actors N [--address ADDRESS]``.

The shape of muzero-general's (``self_play.py``, ``replay_buffer.py``,
``shared_storage.py``) and LightZero's asynchronous entry:

- **Self-play actors** (:class:`SelfPlayActor`): Ray actors of one core
  each, each holding its own ``--num-envs`` games (a vector env and the
  batched numba search over it: :class:`.alphazero.SelfPlay`, the local
  trainer's) and a copy of the network on the CPU.
- **One learner**, in the driver (on ``--device cuda`` where there is one),
  which alone owns the replay buffer (:class:`.alphazero.Learner`, the
  local trainer's): an actor's round comes back as its samples, the learner
  learns from them, and the actor is asked for its next round.
- **Weights by version**: put in Ray's object store once a version, loaded
  by an actor when its next round names a newer one.

The loop, its evaluations, files and resume points are the local
trainer's (:func:`.alphazero.train`, given :class:`RayActors`).

**Lag.** A round is played with the weights that were newest when it was
asked for; while it plays, each of the other N - 1 actors' rounds may come
back and be learnt from, so its samples are at most N - 1 versions behind
the learner's (``train.csv``'s ``lag``; the local trainer's is 0).

**Resume points.** Every ``--checkpoint-minutes`` the learner lets every
actor finish its round, then writes its own and every actor's state; a run
killed resumes from there (``train --resume``), losing at most that
interval. Not bit for bit: the order the rounds come back in is the
machine's.
"""

from __future__ import annotations

import os
import socket
from dataclasses import replace
from typing import Any

import numpy as np
import ray
import torch

from .alphazero import Job, Learner, SelfPlay, play_job
from .config import AlphaZeroRayConfig as Config
from .net import Net


@ray.remote(num_cpus=1)
class SelfPlayActor:
    """Its own games, searched with its own copy of the network."""

    def __init__(self, cfg: Config, index: int, shape: tuple):
        # One core: torch's network calls on one thread. numba's are left as
        # the core sets them (azgames.core.threads; idle threads sleep): capping
        # them through a Ray runtime env made an actor start in 51 s, not 14
        # (docs/experiments.md, 2026-11-29).
        torch.set_num_threads(1)
        # Each actor's games and search draw from a stream of their own.
        seed = int(np.random.SeedSequence([cfg.seed, 1 + index]).generate_state(1)[0])
        self.cfg = cfg
        self.net = Net(*shape)
        self.version = -1
        self.play = SelfPlay(replace(cfg, seed=seed, device="cpu"), self.net, shape[3])

    def round(self, job: Job, weights: dict[str, np.ndarray]) -> tuple[Any, dict]:
        if job.version != self.version:
            self.net.load_state_dict({k: torch.from_numpy(v) for k, v in weights.items()})
            self.version = job.version
        samples = play_job(self.play, self.cfg, job)
        return samples, {**self.play.info(), "version": self.version}

    def state(self) -> tuple[dict, dict[str, np.ndarray]]:
        return self.play.state()

    def restore(self, run: dict, arrays: dict[str, np.ndarray], where: str) -> dict:
        self.play.restore(run, arrays, where)
        return self.play.info()


class RayActors:
    """``--actors`` self-play actors on Ray, for :func:`.alphazero.train`."""

    def __init__(self, cfg: Config, learner: Learner):
        connect(cfg)
        self.size = cfg.actors
        self.learner = learner
        self.actors = [SelfPlayActor.remote(cfg, k, learner.shape) for k in range(self.size)]  # type: ignore[attr-defined]
        self.version = -1
        self.weights: Any = None  # the newest version's, in the object store
        self.running: dict[Any, int] = {}  # each round's result, by its actor

    def start(self, k: int, job: Job) -> None:
        if job.version != self.version:
            self.weights, self.version = ray.put(self.learner.weights()), job.version
        self.running[self.actors[k].round.remote(job, self.weights)] = k

    def wait(self) -> tuple[int, Any, dict]:
        [ref], _ = ray.wait(list(self.running), num_returns=1)
        k = self.running.pop(ref)
        samples, info = ray.get(ref)
        return k, samples, info

    def states(self) -> list[tuple[dict, dict[str, np.ndarray]]]:
        return ray.get([actor.state.remote() for actor in self.actors])

    def restore(self, states: list[tuple[dict, dict[str, np.ndarray]]], where: str) -> list[dict]:
        try:
            return ray.get(
                [a.restore.remote(run, arrays, where) for a, (run, arrays) in zip(self.actors, states)]
            )
        except ray.exceptions.RayTaskError as e:  # an actor's own one line, not Ray's traceback
            if isinstance(e.cause, ValueError):
                raise ValueError(str(e.cause)) from None
            raise

    def close(self) -> None:
        for actor in self.actors:
            ray.kill(actor)


def connect(cfg: Config) -> None:
    """Join the Ray cluster at ``cfg.address`` (checked first: one line if
    nothing answers there), or start a local Ray with a CPU for every actor
    (more actors than cores share them rather than wait forever)."""
    address = cfg.address or os.environ.get("RAY_ADDRESS")
    if address and address != "auto":
        reachable(address)
    if ray.is_initialized():  # the caller's own Ray
        return
    options: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False}
    if not address:
        options["num_cpus"] = max(os.cpu_count() or 1, cfg.actors)
    try:
        ray.init(address=address, **options)
    except ConnectionError as e:
        said = str(e).splitlines()[0][:200]
        # Ray from 2.59 starts clusters with token authentication.
        raise ValueError(
            f"--address {address}: {said} (a cluster with token authentication needs its token in RAY_AUTH_TOKEN)"
        ) from None
    cpus = ray.cluster_resources().get("CPU", 0)
    if cpus < cfg.actors:
        ray.shutdown()
        raise ValueError(
            f"--actors {cfg.actors}: the Ray cluster at {address} has {cpus:g} CPUs, one an actor"
        )


def reachable(address: str, timeout: float = 5.0) -> None:
    """Something listens at ``address`` (``HOST:PORT`` or ``ray://HOST:PORT``); a ValueError of one line otherwise."""
    where = address.removeprefix("ray://")
    host, _, port = where.rpartition(":")
    if not host or not port.isdigit():
        raise ValueError(f"--address {address}: give auto, HOST:PORT or ray://HOST:PORT")
    try:
        socket.create_connection((host, int(port)), timeout=timeout).close()
    except OSError as e:
        raise ValueError(f"--address {address}: nothing answers there ({e.strerror or e})") from None


def train(cfg: Config, argv: list[str] | None = None, point: tuple[dict, dict] | None = None) -> dict:
    """Run ``cfg`` with its self-play on Ray; the final record, as :func:`.alphazero.train`'s."""
    from .alphazero import train as train_with

    return train_with(cfg, argv, point, actors=RayActors)


__all__ = ["RayActors", "SelfPlayActor", "connect", "train"]
