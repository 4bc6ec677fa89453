"""Ratings recover known strengths from synthetic match tables."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from azgames.tournament import bradley_terry, openskill_ratings
from azgames.tournament.ratings import ELO, anchor_of, elo_against


def synthetic_2p(true_elo: dict[str, float], games_per_pair: int, seed: int) -> list[dict]:
    """Games drawn from the Bradley-Terry model with the given Elo ratings."""
    rng = np.random.default_rng(seed)
    games = []
    for a, b in itertools.permutations(true_elo, 2):
        p = 1 / (1 + np.exp((true_elo[b] - true_elo[a]) / ELO))
        for _ in range(games_per_pair):
            win = rng.random() < p
            games.append({"seats": [a, b], "rewards": [1.0, -1.0] if win else [-1.0, 1.0]})
    return games


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_bradley_terry_recovers_known_elo_within_its_intervals(seed):
    truth = {"random": 0.0, "greedy": 200.0, "mcts": 400.0, "ppo": 300.0}
    games = synthetic_2p(truth, 300, seed)
    ratings = {r.name: r for r in bradley_terry(list(truth), games, bootstrap=100, seed=seed)}
    assert ratings["random"].rating == 0.0
    for name, elo in truth.items():
        r = ratings[name]
        assert r.low - 10 <= elo <= r.high + 10, (name, elo, r)
        assert abs(r.rating - elo) < 60
    assert [r.name for r in bradley_terry(list(truth), games, bootstrap=0)] == [
        "mcts",
        "ppo",
        "greedy",
        "random",
    ]


def test_bradley_terry_counts_a_draw_as_half_a_win_each():
    """Equal agents that only draw rate equal; one that never loses stays finite."""
    games = [{"seats": ["a", "b"], "rewards": [0.0, 0.0]}] * 20
    ratings = {r.name: r.rating for r in bradley_terry(["a", "b"], games, anchor="a", bootstrap=0)}
    assert ratings == {"a": 0.0, "b": pytest.approx(0.0, abs=1e-6)}
    unbeaten = [{"seats": ["a", "b"], "rewards": [1.0, -1.0]}] * 20
    top = bradley_terry(["a", "b"], unbeaten, anchor="b", bootstrap=0)[0]
    assert top.name == "a" and 300 < top.rating < 2000


def test_openskill_orders_three_player_agents_by_their_strength():
    """Plackett-Luce games (each place drawn in proportion to strength) among
    four agents, three a game: the ratings come out in the true order."""
    strength = {"random": 1.0, "greedy": 3.0, "mcts": 9.0, "ppo": 5.0}
    rng = np.random.default_rng(0)
    games = []
    for seats in itertools.permutations(strength, 3):
        for _ in range(25):
            left, order = list(range(3)), []
            while left:
                w = np.array([strength[seats[s]] for s in left])
                order.append(left.pop(rng.choice(len(left), p=w / w.sum())))
            rewards = [0.0] * 3
            for place, s in enumerate(order):
                rewards[s] = 1.0 - place  # 1, 0, -1
            games.append({"seats": list(seats), "rewards": rewards})
    ratings = openskill_ratings(list(strength), games, [[0], [1], [2]])
    assert [r.name for r in ratings] == ["mcts", "ppo", "greedy", "random"]
    assert next(r for r in ratings if r.name == "random").rating == 0.0


def test_openskill_rates_a_crew_against_the_ocean():
    """A co-op crew is one side: the agent whose crews win more rates higher."""
    rng = np.random.default_rng(1)
    games = []
    for _ in range(200):
        seats = list(rng.permutation(["random", "greedy", "mcts"])[:2])
        p = 0.1 + 0.35 * ("greedy" in seats) + 0.5 * ("mcts" in seats)
        won = rng.random() < p
        games.append({"seats": seats, "rewards": [1.0, 1.0] if won else [-1.0, -1.0]})
    ratings = openskill_ratings(["random", "greedy", "mcts"], games, [[0, 1]])
    assert [r.name for r in ratings] == ["mcts", "greedy", "random"]


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_a_new_agent_is_placed_on_a_fixed_ladder(seed):
    """An agent of Elo 300 plays 400 games against random (0) and greedy
    (200): its fitted rating lands within its interval of 300."""
    rng = np.random.default_rng(seed)
    record = {}
    for name, r in {"random": 0.0, "greedy": 200.0}.items():
        wins = int((rng.random(400) < 1 / (1 + 10 ** ((r - 300) / 400))).sum())
        record[name] = (wins, 0, 400 - wins)
    placed = elo_against({"random": 0.0, "greedy": 200.0}, record)
    assert placed.low <= 300 <= placed.high and placed.high - placed.low < 200
    assert placed.games == 800


def test_an_agent_that_never_loses_gets_a_finite_rating_above_the_ladder():
    placed = elo_against({"random": 0.0, "greedy": 200.0}, {"random": (50, 0, 0), "greedy": (50, 0, 0)})
    assert 400 < placed.rating < 2000
    with pytest.raises(ValueError, match="not on the ladder"):
        elo_against({"random": 0.0}, {"mcts": (1, 0, 0)})


def test_an_unknown_anchor_is_refused_by_name():
    with pytest.raises(ValueError, match="anchor 'nobody'"):
        bradley_terry(["a", "b"], [], anchor="nobody")


def test_the_scale_is_anchored_at_random_only_when_random_played():
    """random listed but without a game (a record cut short) cannot pin the
    scale: the first listed agent that played is 0 instead."""
    games = [{"seats": ["a", "b"], "rewards": [1.0, -1.0]}, {"seats": ["b", "a"], "rewards": [0.0, 0.0]}]
    ratings = {r.name: r for r in bradley_terry(["random", "a", "b"], games, bootstrap=0)}
    assert ratings["a"].rating == 0.0 and ratings["b"].rating < 0
    assert anchor_of(["random", "a", "b"], games) == "a"
    with_random = [*games, {"seats": ["random", "b"], "rewards": [1.0, -1.0]}]
    assert anchor_of(["b", "a", "random"], with_random) == "random"
