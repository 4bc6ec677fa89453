"""What every trainer of the suite (:mod:`.ppo`, :mod:`.alphazero`) does with
the policy it is making: the policy's meta (:func:`policy_meta`), starting
from another run's weights (:func:`start_from`), the evaluations along the
way (:class:`Evaluations`: a checkpoint, ``eval.csv``, the ``--ladder``'s
``rating.csv``) and the end (:func:`finish`: the final evaluation,
``policy.npz`` and ``policy.json``). Needs torch (the ``train`` extra)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import torch

from azgames.agents.policy import NumpyPolicy

from .evaluate import Evaluation, evaluate, load_ladder, place_on_ladder
from .logs import CsvLog
from .net import Net
from .resume import expect


def policy_meta(rules, options: dict, hidden: tuple[int, ...], **more: Any) -> dict:
    """A trained policy's meta: its game, player count, options (as the rules
    keep them: a map file's map itself, so the policy loads where the file is
    not), observation shape and network."""
    return {
        "game": rules.info.name,
        "num_players": rules.num_players,
        "options": {k: rules.options[k] for k in options},
        "obs_shape": list(rules.observation_shape(0)),
        "hidden": list(hidden),
        "activation": "tanh",
        **more,
    }


def start_from(net: Net, path: str, meta: dict) -> dict:
    """Load the policy at ``path`` into ``net`` (all but the value head where
    their value heads differ: PPO's one value for AlphaZero's one a player)
    and return ``meta`` with its lineage: the parent's own ``init`` too, so a
    chain of runs keeps every command that made the weights."""
    parent = NumpyPolicy.load(path)
    if (parent.meta["game"], parent.meta["num_players"]) != (meta["game"], meta["num_players"]):
        raise ValueError(
            f"--init {path} is a policy of {parent.meta['game']} with {parent.meta['num_players']} "
            f"players, not {meta['game']} with {meta['num_players']}"
        )
    net.load_numpy(parent, value_head=parent.value_head[0].shape[1] == net.value.out_features)
    lineage = {"path": str(path), "trained": parent.meta.get("trained")}
    if "init" in parent.meta:
        lineage["init"] = parent.meta["init"]
    return {**meta, "init": lineage}


class Evaluations:
    """A run's evaluations, each saving a checkpoint, playing the policy
    (its most likely action) against every opponent into ``eval.csv`` and,
    with a ``ladder``, placing it there (``rating.csv``). ``unit`` names a
    trainer's count (``update``, ``round``); ``say`` prints a line. With
    ``simulations`` the policy plays as the ``az`` agent, searching that
    many a move. ``resumed_at``: the count of a resumed run's resume point."""

    def __init__(
        self,
        out: Path,
        opponents: tuple[str, ...],
        games: int,
        seed: int,
        team: bool,
        ladder: str | None,
        unit: str,
        say: Callable[[str], Any],
        simulations: int = 0,
        resumed_at: int | None = None,
    ):
        self.out, self.opponents, self.games, self.seed = out, opponents, games, seed
        self.simulations = simulations
        self.team, self.ladder_path, self.unit, self.say = team, ladder, unit, say
        # A resumed run keeps its evaluations up to its resume point.
        keep = None if resumed_at is None else (unit, resumed_at)
        self.log = CsvLog(out / "eval.csv", keep)
        self.ladder = load_ladder(ladder) if ladder else None
        self.ratings = CsvLog(out / "rating.csv", keep) if ladder else None

    def __call__(self, policy: NumpyPolicy, count: int, steps: int, seconds: float) -> list[Evaluation]:
        folder = self.out / "checkpoints"  # made by the first: a run without evaluations has none
        folder.mkdir(exist_ok=True)
        policy.save(folder / f"{self.unit}_{count:05d}.npz")
        evaluations = []
        for opponent in self.opponents:
            e = evaluate(
                policy, opponent, self.games, self.seed + 10_000 + count, simulations=self.simulations
            )
            row = {self.unit: count, "steps": steps, "seconds": round(seconds, 2), **e.as_dict()}
            if self.simulations:
                row["simulations"] = self.simulations
            self.log.write({**row, "opponent": "team" if self.team else opponent})
            self.say(f"{self.unit} {count}, {steps:,} steps: {e}")
            evaluations.append(e)
        if self.ladder is not None and self.ratings is not None:  # set together, from --ladder
            placed = place_on_ladder(self.ladder, evaluations)
            self.ratings.write(
                {
                    self.unit: count,
                    "steps": steps,
                    "elo": round(placed.rating, 1),
                    "elo_lo": round(placed.low, 1),
                    "elo_hi": round(placed.high, 1),
                }
            )
            self.say(
                f"{self.unit} {count}: Elo {placed.rating:+.0f} ({placed.low:+.0f} to "
                f"{placed.high:+.0f}) on the ladder {self.ladder_path}"
            )
        return evaluations


def finish(
    out: Path,
    net: Net,
    meta: dict,
    record: dict,
    opponents: tuple[str, ...],
    games: int,
    seed: int,
    simulations: int = 0,
) -> dict:
    """The run's end: the final evaluation over ``games`` games (searching
    ``simulations`` a move, if any) into ``record``, then ``policy.npz`` (its
    meta saying what made it) and ``policy.json`` (the record). Returns the record."""
    policy = net.to_numpy(meta)
    final = {
        o: evaluate(policy, o, games, seed + 99_999, simulations=simulations).as_dict() for o in opponents
    }
    record = {**record, "final_evaluation": final, "torch": torch.__version__}
    trained = {k: record[k] for k in ("command", "steps", "seconds")} | {"seed": seed}
    net.to_numpy({**meta, "trained": trained}).save(out / "policy.npz")
    (out / "policy.json").write_text(json.dumps(record, indent=2) + "\n")
    return record


def learner_state(net: Net, optimizer: torch.optim.Optimizer, sampler: torch.Generator | None = None):
    """What a resume point keeps of the learner (:mod:`.resume`): the
    network's weights, Adam's moments, torch's generator and the trainer's
    own (``sampler``); ``(run, arrays)``."""
    moments = optimizer.state_dict()["state"]
    arrays = {f"net/{k}": v.detach().cpu().numpy() for k, v in net.state_dict().items()}
    arrays |= {f"adam/{i}/{k}": v.detach().cpu().numpy() for i, s in moments.items() for k, v in s.items()}
    arrays["torch/rng"] = torch.get_rng_state().numpy()
    if sampler is not None:
        arrays["torch/sampler"] = sampler.get_state().numpy()
    return {"adam": sorted(moments)}, arrays


def restore_learner(
    run: dict,
    arrays: dict,
    net: Net,
    optimizer: torch.optim.Optimizer,
    where: str,
    sampler: torch.Generator | None = None,
) -> None:
    """Put :func:`learner_state`'s parts back, each array checked first."""
    params = list(net.parameters())
    adam = run.get("adam")
    if not isinstance(adam, list) or not all(isinstance(i, int) and 0 <= i < len(params) for i in adam):
        raise ValueError(f"{where}: its optimizer's parameters are not this network's")
    built = {f"net/{k}": v.detach().cpu().numpy() for k, v in net.state_dict().items()}
    for i in adam:
        built[f"adam/{i}/step"] = np.zeros((), np.float32)
        built |= {f"adam/{i}/{k}": np.zeros(params[i].shape, np.float32) for k in ("exp_avg", "exp_avg_sq")}
    built["torch/rng"] = torch.get_rng_state().numpy()
    if sampler is not None:
        built["torch/sampler"] = sampler.get_state().numpy()
    expect({k: v for k, v in arrays.items() if k.split("/")[0] in ("net", "adam", "torch")}, built, where)
    net.load_state_dict({k: torch.from_numpy(arrays[f"net/{k}"]) for k in net.state_dict()})
    moments = {
        i: {k: torch.from_numpy(arrays[f"adam/{i}/{k}"]) for k in ("step", "exp_avg", "exp_avg_sq")}
        for i in adam
    }
    optimizer.load_state_dict({"state": moments, "param_groups": optimizer.state_dict()["param_groups"]})
    torch.set_rng_state(torch.from_numpy(arrays["torch/rng"]))
    if sampler is not None:
        sampler.set_state(torch.from_numpy(arrays["torch/sampler"]))


__all__ = ["Evaluations", "finish", "learner_state", "policy_meta", "restore_learner", "start_from"]
