"""Ratings from game results, with their uncertainty.

**Two players: Bradley-Terry on the Elo scale.** Agent ``i`` beats ``j``
with probability ``1 / (1 + 10 ** ((r_j - r_i) / 400))``. The ratings are the
maximum-likelihood fit over all games at once (Hunter's MM iterations; a draw
counts half a win each), so the order games were played in does not matter,
unlike Elo's running updates. The 95% intervals come from a bootstrap over
games (``bootstrap`` refits on games drawn with replacement).

**3-4 players and teams: OpenSkill's Plackett-Luce model** (the ``openskill``
package): each game ranks its sides by reward; Azure Attack's hunters are
one side, and in the co-op the team plays against the ocean, a pseudo-agent.
Ratings are ``mu``, with ``mu +- 2 sigma`` as the interval; games are fed in
the order played.

Both scales are anchored: the ``anchor`` agent rates 0, by default
``random`` when it played, otherwise the first agent listed that played
(:func:`anchor_of`).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

ELO = 400 / np.log(10)  # Elo points per unit of natural-log strength
OCEAN = "ocean"


@dataclass(frozen=True)
class Rating:
    name: str
    rating: float
    low: float
    high: float
    games: int


def _pair_table(names: list[str], games: list[dict]) -> np.ndarray:
    """wins[i, j]: games ``i`` won against ``j`` (draws half each)."""
    index = {n: k for k, n in enumerate(names)}
    wins = np.zeros((len(names), len(names)))
    for g in games:
        (a, b), (ra, rb) = g["seats"], g["rewards"]
        i, j = index[a], index[b]
        if ra > rb:
            wins[i, j] += 1
        elif rb > ra:
            wins[j, i] += 1
        else:
            wins[i, j] += 0.5
            wins[j, i] += 0.5
    return wins


def _fit(wins: np.ndarray, iterations: int = 2000) -> np.ndarray:
    """Log-strengths maximising the Bradley-Terry likelihood (MM algorithm).

    A tiny prior (one drawn game against an average opponent each) keeps an
    agent that never lost (or never won) finite."""
    n = len(wins)
    w = wins + 0.5 / max(n - 1, 1) * (1 - np.eye(n))
    games = w + w.T
    total = w.sum(axis=1)
    p = np.ones(n)
    for _ in range(iterations):
        denom = (games / (p[:, None] + p[None, :])).sum(axis=1)
        new = total / denom
        new /= np.exp(np.log(new).mean())
        if np.allclose(new, p, rtol=1e-10, atol=0):
            p = new
            break
        p = new
    return np.log(p)


def bradley_terry(
    names: list[str], games: list[dict], anchor: str | None = None, bootstrap: int = 200, seed: int = 0
) -> list[Rating]:
    """Elo-scale ratings of 2-player ``games`` (each ``{"seats": [a, b],
    "rewards": [ra, rb]}``), best first."""
    anchor = anchor_of(names, games, anchor)
    k = names.index(anchor)
    fit = _fit(_pair_table(names, games))
    rating = ELO * (fit - fit[k])
    rng = np.random.default_rng(seed)
    samples = []
    for _ in range(bootstrap):
        pick = rng.integers(len(games), size=len(games))
        b = _fit(_pair_table(names, [games[i] for i in pick]))
        samples.append(ELO * (b - b[k]))
    low, high = np.percentile(samples, [2.5, 97.5], axis=0) if samples else (rating, rating)
    counts = _game_counts(names, games)
    out = [Rating(n, float(rating[i]), float(low[i]), float(high[i]), counts[n]) for i, n in enumerate(names)]
    return sorted(out, key=lambda r: -r.rating)


def openskill_ratings(
    names: list[str], games: list[dict], sides: list[list[int]], anchor: str | None = None
) -> list[Rating]:
    """Plackett-Luce ratings of multiplayer or team ``games``. ``sides``
    groups seats into teams (one list per side; a single side plays the
    ocean). Ratings are ``mu`` less the anchor's, in OpenSkill's units."""
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    players = {n: model.rating(name=n) for n in names}
    solo = len(sides) == 1
    if solo:
        players[OCEAN] = model.rating(name=OCEAN)
    for g in games:
        teams = [[players[g["seats"][s]] for s in side] for side in sides]
        scores = [g["rewards"][side[0]] for side in sides]
        if solo:
            teams.append([players[OCEAN]])
            scores.append(0.0)  # a win (+1) beats the ocean, a loss (-1) loses to it
        updated = model.rate(teams, scores=scores)
        for team in updated:
            for p in team:
                assert p.name is not None  # every rating was made with its agent's name
                players[p.name] = p
    anchor = anchor_of(names, games, anchor)
    base = players[anchor].mu
    counts = _game_counts(names, games)
    out = [
        Rating(
            n,
            players[n].mu - base,
            players[n].mu - base - 2 * players[n].sigma,
            players[n].mu - base + 2 * players[n].sigma,
            counts[n],
        )
        for n in names
    ]
    return sorted(out, key=lambda r: -r.rating)


def anchor_of(names: list[str], games: list[dict], anchor: str | None = None) -> str:
    """The agent rated 0: ``anchor`` if given, else ``random`` if it played,
    else the first agent listed that played (an agent without games would
    pin the scale to nothing measured)."""
    if anchor is None:
        played = _game_counts(names, games)
        return next((n for n in ("random", *names) if played.get(n)), names[0])
    if anchor not in names:
        raise ValueError(f"anchor {anchor!r} is not one of the agents: {', '.join(names)}")
    return anchor


def _game_counts(names: list[str], games: list[dict]) -> dict[str, int]:
    counts = dict.fromkeys(names, 0)
    for g in games:
        for n in set(g["seats"]):
            counts[n] += 1
    return counts


def ladder_ratings(path) -> dict[str, float]:
    """The ratings of a tournament's JSON record (``azgames tournament``),
    by agent: the fixed scale a new agent is placed on (:func:`elo_against`)."""
    from azgames.core.inputs import read_json

    data = read_json(path, "ladder")
    if not isinstance(data, dict) or data.get("method") != "bradley-terry":
        raise ValueError(
            f"{path}: a ladder needs a 2-player (Bradley-Terry) tournament, "
            f"this one was rated by {data.get('method') if isinstance(data, dict) else 'nothing'}"
        )
    return {r["name"]: r["rating"] for r in data["ratings"]}


def elo_against(
    ladder: dict[str, float], record: dict[str, tuple[int, int, int]], name: str = "new"
) -> Rating:
    """Place a new agent on a fixed ladder: the Elo rating that best explains
    its ``(wins, draws, losses)`` against each ladder agent (maximum
    likelihood under Bradley-Terry, the ladder's ratings held fixed; a draw
    counts half a win). The interval is +-1.96 standard errors from the
    likelihood's curvature; half a draw against each opponent keeps an agent
    that never lost finite."""
    unknown = set(record) - set(ladder)
    if unknown:
        raise ValueError(f"{sorted(unknown)} not on the ladder ({', '.join(ladder)})")
    k = np.log(10) / 400
    opp = np.array([ladder[o] for o in record])
    score = np.array([w + d / 2 + 0.25 for w, d, _ in record.values()])
    games = np.array([w + d + lost + 0.5 for w, d, lost in record.values()])

    def slope(r):
        return (score - games / (1 + np.exp(-k * (r - opp)))).sum()

    lo, hi = -4000.0, 4000.0
    for _ in range(100):  # the slope falls as r rises: bisection
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if slope(mid) > 0 else (lo, mid)
    r = (lo + hi) / 2
    p = 1 / (1 + np.exp(-k * (r - opp)))
    se = 1 / np.sqrt((games * p * (1 - p)).sum() * k * k)
    return Rating(
        name, float(r), float(r - 1.96 * se), float(r + 1.96 * se), int(games.sum() - 0.5 * len(opp))
    )
