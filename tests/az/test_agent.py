"""The ``az`` agent (agents/az/agent.py): a trained network's search, or the network alone, without torch."""

from __future__ import annotations

import numpy as np
import pytest
from azimuth import helpers as azimuth
from azimuth.test_rules import LANDING_EXAMPLE_1
from search.test_mcts import outcomes

import azgames
from azgames.agents.az.agent import AZAgent
from azgames.agents.policy import NumpyPolicy


def random_policy(env, seed=0, hidden=32, values=1) -> NumpyPolicy:
    """A network of small random weights for ``env``'s game: it knows nothing
    (``values``: its value head's outputs, the mover's or one a player)."""
    raw = env.unwrapped
    shape = raw.observe(raw.agent_selection)["observation"].shape
    rng = np.random.default_rng(seed)
    size = int(np.prod(shape))

    def layer(n_in, n_out):
        return rng.normal(0, 0.1, (n_in, n_out)).astype(np.float32), np.zeros(n_out, np.float32)

    meta = {"game": raw.rules.info.name, "num_players": raw.rules.num_players, "obs_shape": list(shape)}
    return NumpyPolicy(
        [layer(size, hidden)], layer(hidden, raw.rules.num_actions), layer(hidden, values), meta
    )


def test_without_simulations_the_agent_plays_the_networks_most_likely_legal_action():
    env = azgames.make("azacru", num_players=2)
    env.reset(seed=3)
    policy = random_policy(env)
    obs = env.unwrapped.observe(env.agent_selection)
    logits = policy.logits(obs["observation"][None], obs["action_mask"][None])[0]
    assert AZAgent(policy, simulations=0).act(env) == int(np.argmax(logits))


@pytest.mark.slow  # Azimuth's search compiles 30 s; tests/az/test_search.py has a fast win scenario
def test_its_search_finds_the_landing_a_network_that_knows_nothing_misses():
    env = azimuth.position(LANDING_EXAMPLE_1, to_move="K", beaches={"K": "d1-e1"}, hands={"K": (0, 0)})
    wins = {a for a, r in outcomes(env).items() if r == 1.0}
    policy = random_policy(env)
    every = len(env.unwrapped.legal_actions())
    assert AZAgent(policy, simulations=0).act(env) not in wins  # this network's choice, seed 0
    assert AZAgent(policy, simulations=every, considered=every).act(env) in wins


def test_a_game_played_by_two_az_agents_ends_with_legal_moves_only():
    env = azgames.make("azacru", num_players=2)
    env.reset(seed=1)
    agent = AZAgent(random_policy(env), simulations=4)
    for name in env.agent_iter(max_iter=400):
        obs, _, terminated, truncated, _ = env.last()
        action = None if terminated or truncated else agent.act(env)
        assert action is None or obs["action_mask"][action]
        env.step(action)
    assert not env.agents


@pytest.mark.parametrize(
    "bad", [{"simulations": -1}, {"considered": 0}, {"simulations": 4097}, {"considered": 10**9}]
)
def test_bad_budgets_are_refused_by_name(bad):
    env = azgames.make("azacru", num_players=2)
    env.reset(seed=0)
    with pytest.raises(ValueError, match=next(iter(bad))):
        AZAgent(random_policy(env), **bad)


def test_a_batch_of_games_gets_the_moves_each_game_gets_alone():
    """act_batch, as a vector env's opponent or an evaluation plays the agent,
    searches the games it is given at once: the same moves as act() on each."""
    venv = azgames.make_vec("azacru", num_envs=6, seed=2)
    venv.reset()
    rng = np.random.default_rng(0)
    for _ in range(5):
        venv.step(np.array([rng.choice(np.flatnonzero(m)) for m in venv.action_mask]))
    env = azgames.make("azacru")
    env.reset(seed=0)
    agent = AZAgent(random_policy(env), simulations=8)
    games = np.array([0, 2, 3, 5])
    together = agent.act_batch(venv.rules, venv.state, venv.action_mask, games)
    for g, move in zip(games, together):
        env.unwrapped.set_state(venv.game(int(g)))
        assert venv.action_mask[g, move] and agent.act(env) == move


def test_with_three_players_a_network_valuing_each_player_searches_and_one_valuing_the_mover_is_refused():
    env = azgames.make("azacru", num_players=3)
    env.reset(seed=4)
    agent = AZAgent(random_policy(env, values=3), simulations=6)
    for _ in range(9):
        action = agent.act(env)
        assert env.last()[0]["action_mask"][action]
        env.step(action)
    with pytest.raises(ValueError, match="needs a value for each player"):
        AZAgent(random_policy(env), simulations=6).act(env)


@pytest.mark.parametrize(
    ("game", "players", "options", "repeats"),
    [
        ("azimuth", 2, {}, True),  # no coconuts: a wind turns back and forth without end
        ("azimuth", 2, {"coconuts": True}, False),  # each turns the other's winds 4 times
        ("azimuth", 3, {}, False),  # coconuts by the book
        ("azacru", 2, {}, False),  # a claim stays
    ],
)
def test_a_return_to_a_position_is_a_draw_where_the_games_positions_come_back(
    game, players, options, repeats
):
    """The search scores repeats as draws where the game's hooks say that its
    positions can come back, unless the agent is told otherwise."""
    env = azgames.make(game, num_players=players, **options)
    env.reset(seed=0)
    raw = env.unwrapped
    for told in (None, not repeats):
        agent = AZAgent(random_policy(env, values=players), simulations=2, repetition_draws=told)
        search = agent._search_for(raw.rules, agent.policy_for(players))
        assert search.repetition_draws == (repeats if told is None else told)
    with pytest.raises(ValueError, match="repetition_draws='yes'"):
        AZAgent(random_policy(env), repetition_draws="yes")
