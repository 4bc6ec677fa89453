"""Who the learner plays while it trains: a league of baselines and its own snapshots.

Each new game draws its opponent from four groups, by weight (the default mix):

- ``latest`` 0.35: the learner's current weights (refreshed every update):
  plain self-play, always a fair match, the main source of new lessons;
- ``snapshots`` 0.25: a past snapshot, uniform over the last
  ``max_snapshots``: keeps the learner from forgetting how to beat what it
  beat before (self-play alone can cycle);
- ``greedy`` 0.2: the suite's greedy baseline, the target it is scored
  against, and a style of play no snapshot has;
- ``random`` 0.2: wide coverage of odd positions, and cheap.

Before the first snapshot, its weight goes to ``latest``. The co-op mode has
no opponents (the learner is the whole team) and ignores the league.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from azgames.agents.policy import NumpyPolicy

from .opponents import PolicyOpponent

DEFAULT_MIX = {"latest": 0.35, "snapshots": 0.25, "greedy": 0.2, "random": 0.2}


def parse_mix(text: str) -> dict[str, float]:
    """``"latest=0.35,snapshots=0.25,greedy=0.2,random=0.2"`` as a dict (checked)."""
    mix = {}
    for part in text.split(","):
        name, _, weight = part.partition("=")
        name = name.strip()
        if name not in DEFAULT_MIX:
            raise ValueError(f"league mix names {name!r}; choose among {', '.join(DEFAULT_MIX)}")
        try:
            mix[name] = float(weight)
        except ValueError:
            raise ValueError(f"league mix weight of {name!r} is {weight!r}, not a number") from None
        if not (math.isfinite(mix[name]) and mix[name] >= 0):
            raise ValueError(f"league mix weight of {name!r} is {weight!r}; it must be a finite number >= 0")
    if sum(mix.values()) <= 0:
        raise ValueError(f"league mix {text!r} has no positive weight")
    return mix


@dataclass
class League:
    mix: dict[str, float] = field(default_factory=lambda: dict(DEFAULT_MIX))
    max_snapshots: int = 8
    seed: int = 0
    greedy: str = "greedy"  # the agent spec of the greedy group, e.g. "greedy:lookahead=1"
    snapshots: list[NumpyPolicy] = field(default_factory=list)

    def add_snapshot(self, policy: NumpyPolicy) -> None:
        self.snapshots = (self.snapshots + [policy])[-self.max_snapshots :]

    def pool(self, latest: NumpyPolicy) -> tuple[list[str | PolicyOpponent], list[float]]:
        """``(opponents, weights)`` for :meth:`LearnerVecEnv.set_opponents`:
        the baselines first and the snapshots last, so that a game going on
        keeps its kind of opponent when the pool is refreshed."""
        opponents: list[str | PolicyOpponent] = []
        weights: list[float] = []
        share = dict(self.mix)
        if not self.snapshots:
            share["latest"] = share.get("latest", 0.0) + share.pop("snapshots", 0.0)
        for name in ("greedy", "random"):
            if share.get(name, 0) > 0:
                opponents.append(self.greedy if name == "greedy" else name)
                weights.append(share[name])
        if share.get("latest", 0) > 0:
            opponents.append(PolicyOpponent(latest, seed=self.seed, name="latest"))
            weights.append(share["latest"])
        if share.get("snapshots", 0) > 0:
            for k, snap in enumerate(self.snapshots):
                opponents.append(PolicyOpponent(snap, seed=self.seed + 1 + k, name=f"snapshot_{k}"))
                weights.append(share["snapshots"] / len(self.snapshots))
        return opponents, weights
