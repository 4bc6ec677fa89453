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
from typing import TYPE_CHECKING, Any

import numpy as np

from azgames.agents import make_agent, parse_agent
from azgames.agents.match import play_game
from azgames.core import checks
from azgames.core.inputs import read_json
from azgames.core.progress import Progress

from .ratings import Rating, anchor_of, bradley_terry, openskill_ratings
from .schedule import games_per_seating, seatings

if TYPE_CHECKING:  # matplotlib is imported when the ratings are drawn
    from matplotlib.figure import Figure

BLUE, LIGHT_BLUE = "#0072B2", "#56B4E9"
#: What the table says of an interval that would read as one value (``+446 to +446``), and why.
UNKNOWN = "unknown"
UNKNOWN_WHY = (
    "too few games to bootstrap an interval (every resample of them fits the same rating); play more --games"
)

#: The marker and legend of an agent whose interval reads as one value, by what the table says of it.
POINT_MARKERS = {
    "anchor": ("D", "anchor: 0 by definition"),
    UNKNOWN: ("s", f"interval {UNKNOWN}: too few games"),
}


def _reads_as_a_point(r: Rating) -> bool:
    """Whether ``r``'s interval would print as one value: the anchor's in
    Bradley-Terry (0 by definition), or a bootstrap's over games so few and
    one-sided that every resample fits the same rating."""
    return f"{r.low:+.0f}" == f"{r.high:+.0f}"


def sides_of(game: str, num_players: int) -> list[list[int]]:
    """Seats grouped by side, as the game declares them (``Rules.sides``)."""
    from azgames.core.registry import rules_type

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
        """Ratings from the recorded games, anchored at :attr:`anchor` unless told otherwise."""
        if self.method == "bradley-terry":
            return bradley_terry(self.agents, self.games, anchor)
        return openskill_ratings(self.agents, self.games, self.sides, anchor)

    @property
    def anchor(self) -> str:
        """The agent the ratings put at 0: ``random`` if it played, else the first listed."""
        return anchor_of(self.agents, self.games)

    @property
    def anchor_note(self) -> str:
        """What 0 means, for the table and the plot: ``random = 0`` only when random played."""
        if self.anchor == "random":
            return "random = 0"
        return f"{self.anchor} = 0 (random did not play)"

    @property
    def scale(self) -> str:
        return "Elo (Bradley-Terry)" if self.method == "bradley-terry" else "OpenSkill mu"

    def table(self) -> str:
        rows = [
            f"{self.game}, {self.num_players} players: {len(self.games)} games, "
            f"ratings in {self.scale}, {self.anchor_note}",
            "",
            f"| rank | agent | rating | {self.interval_name} | games | draws | win rate |",
            "|---|---|---|---|---|---|---|",
        ]
        rates, draws, ratings = self.win_rates(), self.draws(), self.ratings()
        for k, r in enumerate(ratings, 1):
            rows.append(
                f"| {k} | {r.name} | {r.rating:+.0f} | {self._interval_text(r)} | "
                f"{r.games} | {draws[r.name]} | {100 * rates[r.name]:.1f}% |"
            )
        if any(self._interval_text(r) == UNKNOWN for r in ratings):
            rows += ["", f"{UNKNOWN}: {UNKNOWN_WHY}"]
        return "\n".join(rows)

    def _interval_text(self, r: Rating) -> str:
        """``+12 to +80``; ``anchor`` for the agent whose 0 is a definition, and
        :data:`UNKNOWN` for any other interval that would read as one value."""
        if not _reads_as_a_point(r):
            return f"{r.low:+.0f} to {r.high:+.0f}"
        return "anchor" if r.name == self.anchor else UNKNOWN

    def win_rates(self) -> dict[str, float]:
        """Share of each agent's games that it won (reward +1)."""
        won = dict.fromkeys(self.agents, 0)
        played = dict.fromkeys(self.agents, 0)
        for g in self.games:
            for name, reward in zip(g["seats"], g["rewards"]):
                played[name] += 1
                won[name] += reward >= 1.0
        return {n: won[n] / played[n] if played[n] else 0.0 for n in self.agents}

    def draws(self) -> dict[str, int]:
        """Games each agent drew: its side shared the best reward with another
        side (a co-op crew with the ocean, which scores 0, as the ratings have it)."""
        sides = self.sides
        ocean = [0.0] if len(sides) == 1 else []
        drawn = dict.fromkeys(self.agents, 0)
        for g in self.games:
            rewards = [g["rewards"][side[0]] for side in sides] + ocean
            best = max(rewards)
            if rewards.count(best) < 2:
                continue
            for side, reward in zip(sides, rewards):
                for seat in side if reward == best else ():
                    drawn[g["seats"][seat]] += 1
        return drawn

    def to_json(self) -> dict:
        draws = self.draws()
        return {
            "game": self.game,
            "num_players": self.num_players,
            "agents": self.agents,
            "seed": self.seed,
            "options": self.options,
            "method": self.method,
            "sides": self.sides,
            "anchor": self.anchor,
            "seconds": round(self.seconds, 1),
            "policies": self.policies,
            "machine": platform.platform(),
            "date": time.strftime("%Y-%m-%d"),
            "ratings": [r.__dict__ | {"draws": draws[r.name]} for r in self.ratings()],
            "games": self.games,
        }

    def save(self, path) -> None:
        Path(path).write_text(json.dumps(self.to_json(), indent=1) + "\n")

    def figure(self) -> Figure:
        """The ratings with their intervals, best at the top, as a matplotlib
        figure. An interval that reads as one value gets no bar (it would
        vanish) but a hollow marker that the legend explains: anchor or unknown."""
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        ratings = self.ratings()[::-1]
        fig, ax = plt.subplots(figsize=(7, 0.5 * len(ratings) + 1.5))
        y = np.arange(len(ratings))
        values = np.array([r.rating for r in ratings])
        err = np.array([[r.rating - r.low for r in ratings], [r.high - r.rating for r in ratings]])
        kinds = [self._interval_text(r) for r in ratings]
        for kind, (marker, label) in POINT_MARKERS.items():
            at = [k for k, text in enumerate(kinds) if text == kind]
            if at:
                ax.plot(values[at], y[at], marker, ls="none", color=BLUE, mfc="none", ms=8, label=label)
        bar = np.array([text not in POINT_MARKERS for text in kinds])
        ax.errorbar(values[bar], y[bar], xerr=err[:, bar], fmt="o", color=BLUE, ecolor=LIGHT_BLUE, capsize=4)
        if not bar.all():
            ax.legend(fontsize=8)
        ax.set_yticks(y, [r.name for r in ratings])
        ax.axvline(0, color="grey", lw=0.8, ls="--")
        ax.set_xlabel(f"rating, {self.scale}; {self.anchor_note}; bars: {self.interval_name}")
        ax.set_title(f"{self.game}, {self.num_players} players, {len(self.games)} games")
        fig.tight_layout()
        return fig

    def plot(self, path) -> None:
        """:meth:`figure` as a PNG (needs matplotlib)."""
        import matplotlib.pyplot as plt

        fig = self.figure()
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
