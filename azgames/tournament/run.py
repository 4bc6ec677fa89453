"""Playing a tournament, recording every game, and rating the agents.

Each set of ``num_players`` distinct agents plays ``games`` games spread
evenly over all its seatings (:mod:`.schedule`). Every game's seats, rewards,
length and seed go into the JSON record, so that :func:`load_result` (or
anyone) can recompute the ratings.
"""

from __future__ import annotations

import json
import platform
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from azgames import checks
from azgames.agents import make_agent, parse_agent
from azgames.agents.match import play_game
from azgames.inputs import read_json
from azgames.progress import Progress

from .ratings import Rating, bradley_terry, openskill_ratings
from .schedule import games_per_seating, seatings


def sides_of(game: str, num_players: int) -> list[list[int]]:
    """Seats grouped by side, as the game declares them (``Rules.sides``)."""
    from azgames.registry import rules_type

    return rules_type(game)(num_players).sides


@dataclass
class TournamentResult:
    game: str
    num_players: int
    agents: list[str]  # the specs, also the labels
    seed: int
    games: list[dict] = field(default_factory=list)
    options: dict = field(default_factory=dict)
    seconds: float = 0.0
    # spec -> the ``trained`` record of the policy a trained agent played, so
    # that a committed ladder can be checked against the policy shipped now.
    policies: dict = field(default_factory=dict)

    @property
    def method(self) -> str:
        return "bradley-terry" if len(self.sides) == self.num_players == 2 else "openskill"

    @property
    def sides(self) -> list[list[int]]:
        return sides_of(self.game, self.num_players)

    @property
    def interval_name(self) -> str:
        return "95% interval" if self.method == "bradley-terry" else "mu +- 2 sigma"

    def ratings(self, anchor: str | None = None) -> list[Rating]:
        """Ratings from the recorded games (anchored at ``random`` if present)."""
        if self.method == "bradley-terry":
            return bradley_terry(self.agents, self.games, anchor)
        return openskill_ratings(self.agents, self.games, self.sides, anchor)

    def table(self) -> str:
        scale = "Elo (Bradley-Terry)" if self.method == "bradley-terry" else "OpenSkill mu"
        rows = [
            f"{self.game}, {self.num_players} players: {len(self.games)} games, "
            f"ratings in {scale}, random = 0",
            "",
            f"| rank | agent | rating | {self.interval_name} | games | win rate |",
            "|---|---|---|---|---|---|",
        ]
        rates = self.win_rates()
        for k, r in enumerate(self.ratings(), 1):
            rows.append(
                f"| {k} | {r.name} | {r.rating:+.0f} | {r.low:+.0f} to {r.high:+.0f} | "
                f"{r.games} | {100 * rates[r.name]:.1f}% |"
            )
        return "\n".join(rows)

    def win_rates(self) -> dict[str, float]:
        """Share of each agent's games that it won (reward +1)."""
        won = dict.fromkeys(self.agents, 0)
        played = dict.fromkeys(self.agents, 0)
        for g in self.games:
            for name, reward in zip(g["seats"], g["rewards"]):
                played[name] += 1
                won[name] += reward >= 1.0
        return {n: won[n] / played[n] if played[n] else 0.0 for n in self.agents}

    def to_json(self) -> dict:
        ratings = self.ratings()
        return {
            "game": self.game,
            "num_players": self.num_players,
            "agents": self.agents,
            "seed": self.seed,
            "options": self.options,
            "method": self.method,
            "sides": self.sides,
            "seconds": round(self.seconds, 1),
            "policies": self.policies,
            "machine": platform.platform(),
            "date": time.strftime("%Y-%m-%d"),
            "ratings": [r.__dict__ for r in ratings],
            "games": self.games,
        }

    def save(self, path) -> None:
        Path(path).write_text(json.dumps(self.to_json(), indent=1) + "\n")

    def plot(self, path) -> None:
        """Ratings with their 95% intervals, best at the top (PNG; needs matplotlib)."""
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        ratings = self.ratings()[::-1]
        fig, ax = plt.subplots(figsize=(7, 0.5 * len(ratings) + 1.5))
        y = np.arange(len(ratings))
        values = np.array([r.rating for r in ratings])
        err = np.array([[r.rating - r.low for r in ratings], [r.high - r.rating for r in ratings]])
        ax.errorbar(values, y, xerr=err, fmt="o", color="#0072B2", ecolor="#56B4E9", capsize=4)
        ax.set_yticks(y, [r.name for r in ratings])
        ax.axvline(0, color="grey", lw=0.8, ls="--")
        scale = "Elo (Bradley-Terry)" if self.method == "bradley-terry" else "OpenSkill mu"
        ax.set_xlabel(f"rating, {scale}; random = 0; bars: {self.interval_name}")
        ax.set_title(f"{self.game}, {self.num_players} players, {len(self.games)} games")
        fig.tight_layout()
        fig.savefig(path, dpi=120)
        plt.close(fig)


def load_result(path) -> TournamentResult:
    """A tournament from its JSON record (ratings are recomputed from the games)."""
    data = read_json(path, "tournament record")
    return TournamentResult(
        game=data["game"],
        num_players=data["num_players"],
        agents=data["agents"],
        seed=data["seed"],
        games=data["games"],
        options=data.get("options", {}),
        seconds=data.get("seconds", 0.0),
        policies=data.get("policies", {}),
    )


def run_tournament(
    game: str,
    agents: list[str],
    num_players: int = 2,
    games: int = 100,
    seed: int = 0,
    progress: bool = True,
    env_kwargs: Mapping[str, Any] | None = None,
) -> TournamentResult:
    """Play every seating of every set of ``num_players`` agents; ``games``
    per set of agents. ``agents`` are registered names with options
    (``"mcts:simulations=200"``); each is built once, seeded from ``seed``."""
    import azgames

    games = checks.integer("games", games, 1)
    env = azgames.make(game, num_players=num_players, **dict(env_kwargs or {}))
    order = seatings(list(agents), num_players)
    root = np.random.SeedSequence(checks.seed("seed", seed))
    agent_seeds = root.spawn(len(agents))
    built = {}
    for spec, s in zip(agents, agent_seeds):
        name, kwargs = parse_agent(spec)
        built[spec] = make_agent(name, seed=s, game=game, **kwargs)
    per = games_per_seating(games, num_players)
    game_seeds = root.generate_state(len(order) * per, dtype=np.uint32)
    result = TournamentResult(
        game,
        num_players,
        list(agents),
        seed,
        options=dict(env_kwargs or {}),
        policies={
            spec: agent.policy_for(num_players).meta.get("trained")
            for spec, agent in built.items()
            if hasattr(agent, "policy_for")
        },
    )
    bar = Progress(len(game_seeds), f"{game} tournament", progress)
    start = time.perf_counter()
    try:
        for k, game_seed in enumerate(game_seeds):
            seats = order[k % len(order)]
            played = play_game(env, [built[s] for s in seats], seed=int(game_seed))
            result.games.append(
                {
                    "seats": list(seats),
                    "rewards": [played["rewards"][p] for p in env.possible_agents],
                    "turns": played["turns"],
                    "truncated": played["truncated"],
                    "seed": int(game_seed),
                }
            )
            bar.update()
    finally:
        bar.close()
    result.seconds = time.perf_counter() - start
    return result
