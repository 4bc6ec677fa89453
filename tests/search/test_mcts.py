"""The ``mcts`` agent: it finds the move that wins, weighs dice by their
probabilities, agrees with the plain-Python search, and refuses bad budgets.

Positions come from the rules tests' diagrams (see each game's ``helpers``)."""

from __future__ import annotations

import numpy as np
import pytest
from azacru import helpers as azacru
from azimuth import helpers as azimuth
from azimuth.test_rules import LANDING_EXAMPLE_1
from azure import helpers as azure
from azure.test_rules import LAST_COIN

import azgames
from azgames.agents import make_agent
from azgames.agents.mcts import MCTSAgent
from azgames.agents.mcts.games import search_config
from azgames.agents.mcts.interface import estimate
from azgames.agents.mcts.network import forward, net_from_policy
from azgames.agents.mcts.reference import reference_search
from azgames.agents.policy import NumpyPolicy, shipped_policy_path


def outcomes(env) -> dict[int, float]:
    """Each legal action's reward for the mover, if playing it ends the game
    (None if the game goes on): the rules' own answer, by brute force."""
    mover = env.agent_selection
    result = {}
    for a in env.unwrapped.legal_actions():
        after = env.unwrapped.clone()
        after.step(a)
        over = any(after.terminations.values()) or any(after.truncations.values())
        result[a] = after.rewards[mover] if over else None
    return result


# ----------------------------------------------------------------- a move that wins

AZACRU_LAST_TURN = r"""
9 0   0   0   | .   .   .   | .   .   .
8 .   .   .   | .   .   .   | .   .   .
7 .   .   .   | .   1   .   | .   .   .
  -----------+-------------+------------
6 .   .   .   | .   1   .   | .   .   .
5 .   .   .   | .   1B^ .   | .   .   .
4 .   .   .   | .   .   .   | .   .   .
  -----------+-------------+------------
3 .   .   .   | .   .   .   | .   .   .
2 .   .   .   | .   .   .   | .   .   .
1 .   .   .   | .   .   .   | .   .   .
  a   b   c     d   e   f     g   h   i
"""


def test_azacru_the_last_move_of_the_final_round_takes_a_new_tile():
    """ "The winner of the game is the player with most tiles": player_1 has
    the last turn of the final round at 3 tiles each. Moving onto its own
    tiles (e6, e7) draws; onto a neutral field it wins. The search plays a
    winning move and values each terminal move at exactly its reward."""
    env = azacru.position(AZACRU_LAST_TURN, to_move="B", final_round_turns=1)
    truth = outcomes(env)
    wins = {a for a, r in truth.items() if r == 1.0}
    assert wins and any(r == 0.0 for r in truth.values())
    result = MCTSAgent(seed=0, game="azacru", simulations=300).search(env)
    assert result.best() in wins
    for a, v in zip(result.actions, result.values):
        assert v == truth[a]


def test_azure_the_hunter_banks_the_last_coin_and_the_hunters_win():
    """Rule 8: "After each gold token has been taken to a suit tile the game
    is over". hunter_0 carries the last coin one step above its tile: S banks
    it and wins for the hunters (7 against 5); every other move lets the game
    go on."""
    env = azure.position(LAST_COIN, num_players=3, banked={"M": "5", "B": "3"})
    truth = outcomes(env)
    assert [a for a, r in truth.items() if r == 1.0] == [env.unwrapped.str_to_action("S")]
    agent = MCTSAgent(seed=0, game="azure", simulations=500)
    assert agent.act(env) == env.unwrapped.str_to_action("S")


def test_azimuth_black_turns_its_wind_and_lands():
    """Landing, Example 1: Black's castaway waits on its landing spot; turning
    its wind on c1 clockwise lands it and wins. The search finds a landing."""
    env = azimuth.position(LANDING_EXAMPLE_1, to_move="K", beaches={"K": "d1-e1"}, hands={"K": (0, 0)})
    truth = outcomes(env)
    wins = {a for a, r in truth.items() if r == 1.0}
    assert 0 < len(wins) < len(truth)
    assert MCTSAgent(seed=0, game="azimuth", simulations=400).act(env) in wins
    assert MCTSAgent(seed=0, game="azimuth", simulations=400, prior_temperature=0).act(env) in wins


def test_the_estimates_guide_puts_a_landing_first_where_plain_uct_is_still_trying_actions():
    """Guided selection scores every action at expansion, so a landing
    (worth its +1, more than any estimate) takes most of a small budget;
    plain UCT must try each of the other actions once before it repeats any."""
    env = azimuth.position(LANDING_EXAMPLE_1, to_move="K", beaches={"K": "d1-e1"}, hands={"K": (0, 0)})
    wins = {a for a, r in outcomes(env).items() if r == 1.0}
    budget = len(env.unwrapped.legal_actions()) - 1
    guided = MCTSAgent(seed=0, game="azimuth", simulations=budget, prior_temperature=0.1).search(env)
    plain = MCTSAgent(seed=0, game="azimuth", simulations=budget, prior_temperature=0).search(env)
    on_wins = [
        sum(int(r.visits[k]) for k in range(len(r.actions)) if int(r.actions[k]) in wins)
        for r in (guided, plain)
    ]
    assert on_wins[0] > budget / 2 and guided.best() in wins
    assert on_wins[1] <= len(wins)


# ----------------------------------------------------------------- chance

GAMBLE = """
    12  -  -  m  m  -  -
    11  -  -  m  m  -  -
    10  .  .  .  .  .  .
     9  .  .  .  .  .  .
     8  .  .  .  .  .  .
     7  .  .  .  .  .  .
     6  .  .  .  .  .  .
     5  .  .  .  .  .  .
     4  .  .  .  .  .  .
     3  .  . A3  .  .  .
     2  -  - M2  a  -  -
     1  -  -  a  a  -  -
        a  b  c  d  e  f
"""


def gamble():
    """The last turn (``max_turns=1``: banked gold decides when it ends).
    hunter_0 (banked 1, carrying 3) can walk E then S to its home d2 and bank
    the 3: 4 against the monster's 4, a sure draw. Or it can attack the
    monster on its tile (c2, open under ``suit_tiles="literal"``): winning
    (a higher roll, 15 of 36) banks the monster's 2 and its own 3 and ends
    the game won; losing (21 of 36) sends it home without its gold: lost.
    The attack's best case is a win; its expectation is -1/6."""
    return azure.position(GAMBLE, banked={"M": "4", "A": "1"}, max_turns=1, suit_tiles="literal")


def test_the_attack_wins_in_its_best_case_and_loses_in_its_worst():
    """The rules' outcomes of the attack, dice forced (rule 5: a hunter needs
    a higher roll than the monster)."""
    for faces, reward in (((5, 0), 1.0), ((0, 5), -1.0), ((3, 3), -1.0)):
        env = gamble()
        azure.fight(env, "S", *faces)
        assert env.rewards["hunter_0"] == reward


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_chance_nodes_weigh_the_dice_by_their_probabilities(seed):
    """The search values the attack at its expectation, -1/6 (within its
    sampling error), not at its best case, and walks to the sure draw."""
    env = gamble()
    result = MCTSAgent(seed=seed, game="azure", simulations=3000).search(env)
    value = dict(zip(result.actions.tolist(), result.values))
    visits = dict(zip(result.actions.tolist(), result.visits))
    attack = env.unwrapped.str_to_action("S")
    assert result.best() == env.unwrapped.str_to_action("E")
    assert abs(value[attack] - (-1 / 6)) < 4 / np.sqrt(visits[attack])


# ----------------------------------------------------------------- estimates where playouts stop


def test_azure_estimate_is_the_hunters_gold_lead():
    """Banked gold counts whole, carried gold half: in the gamble the hunter
    has 1 banked and carries 3, the monster 4 and 2, a lead of -2.5 for the
    hunters, worth tanh(-2.5 / 5) to them and its negative to the monster."""
    env = gamble()
    values = np.zeros(2)
    estimate(env.unwrapped.state, search_config(env.unwrapped.rules), 0, values)
    np.testing.assert_allclose(values, [np.tanh(0.5), -np.tanh(0.5)])


def test_azacru_estimate_is_the_ends_reward_softened_by_the_tile_leads():
    """In the last-turn position player_0 holds 3 tiles (a9-c9), player_1 3
    (e5-e7) and player_2 none: each comparison of the end's reward ("the
    winner ... has most tiles") becomes tanh(lead / 5), averaged over the
    two opponents."""
    from azacru_env.search import TILE_SCALE

    env = azacru.position(AZACRU_LAST_TURN, to_move="B", num_players=3, final_round_turns=1)
    values = np.zeros(3)
    estimate(env.unwrapped.state, search_config(env.unwrapped.rules), 0, values)
    ahead = np.tanh(3 / TILE_SCALE)
    np.testing.assert_allclose(values, [ahead / 2, ahead / 2, -ahead])


def test_azimuth_estimate_favours_the_castaway_nearer_home():
    """Black's castaway waits on its landing spot, red's is far out: black's
    estimate is positive, red's the same negative (2 players)."""
    env = azimuth.position(LANDING_EXAMPLE_1, to_move="K", beaches={"K": "d1-e1"}, hands={"K": (0, 0)})
    values = np.zeros(2)
    estimate(env.unwrapped.state, search_config(env.unwrapped.rules), 0, values)
    black = env.unwrapped.possible_agents.index(env.agent_selection)
    assert values[black] > 0.5 and values[1 - black] == -values[black]


def test_coop_estimate_is_the_teams_progress_home():
    """Before the lighthouses no castaway has a beach (the greedy's h is 30
    for each); each castaway home then counts 1 for the whole team, every
    agent's estimate the same, 0.9 with all four home."""
    from azimuth_env.board import AT_HOME
    from azimuth_env.coop.search import COST_SCALE, ESTIMATE_CAP

    env = azgames.make("azimuth_coop", num_players=2)
    env.reset(seed=0)
    state, cfg = env.unwrapped.state, search_config(env.unwrapped.rules)
    far = np.exp(-30 / COST_SCALE)
    for home in range(5):
        state.castaway[0, :home] = AT_HOME
        values = np.zeros(2)
        estimate(state, cfg, 0, values)
        progress = (home + (4 - home) * far) / 4
        np.testing.assert_allclose(values, ESTIMATE_CAP * (2 * progress - 1))
    assert values[0] == ESTIMATE_CAP


# ----------------------------------------------------------------- the reference search


@pytest.mark.parametrize(
    "game,max_playout,temperature",
    [
        ("azacru", -1, 0),
        ("azure", -1, 0),
        ("azure", 6, 0),
        ("azure", -1, 0.2),
        ("azimuth", 8, 0),
        ("azimuth", 0, 0.1),
        # The co-op's: 290 s of the default run's 20 minutes (its env steps
        # slowly in Python); its search still plays whole games by default.
        pytest.param("azimuth_coop", -1, 0, marks=pytest.mark.slow),
    ],
)
def test_the_numba_search_builds_the_plain_python_searchs_tree(game, max_playout, temperature):
    """Same seed, same simulations: the same visits and values at the root,
    for a deterministic game, one with fights, a wide one with playouts cut
    and estimated, and the co-op; and guided by the estimate (a prior
    temperature), where each expansion plays every action once."""
    env = azgames.make(game, num_players=2)
    env.reset(seed=3)
    rng = np.random.default_rng(1)
    for _ in range(6):
        env.step(int(rng.choice(env.unwrapped.legal_actions())))
    if game == "azure" and max_playout < 0:  # a fight in reach: the monster next to hunter_0
        env = gamble()
    simulations = 40 if game == "azimuth_coop" else 120  # the co-op's env steps slowly in Python
    result = MCTSAgent(
        seed=5, game=game, simulations=simulations, max_playout=max_playout, prior_temperature=temperature
    ).search(env)
    word = int(np.random.default_rng(5).integers(2**63))
    actions, visits, values = reference_search(
        env, simulations, word, max_playout=max_playout, temperature=temperature
    )
    assert np.array_equal(actions, result.actions)
    assert np.array_equal(visits, result.visits)
    np.testing.assert_allclose(values, result.values, rtol=0, atol=1e-12)


@pytest.mark.parametrize("game", ["azacru", "azure"])
def test_the_policy_guided_search_builds_the_plain_python_searchs_tree(game):
    """AlphaZero-style, with the shipped policy: the same tree as the plain
    search, whose policy reads the env's own observations (so the search's
    ``observe`` shows the policy what the env shows it)."""
    env = azgames.make(game, num_players=2)
    env.reset(seed=4)
    rng = np.random.default_rng(2)
    for _ in range(5):
        env.step(int(rng.choice(env.unwrapped.legal_actions())))
    if game == "azure":
        env = gamble()
    agent = MCTSAgent(seed=5, game=game, simulations=150, policy="ppo")
    result = agent.search(env)
    word = int(np.random.default_rng(5).integers(2**63))
    net = net_from_policy(NumpyPolicy.load(shipped_policy_path(game, 2)))
    actions, visits, values = reference_search(env, 150, word, net=net)
    assert np.array_equal(actions, result.actions)
    assert np.array_equal(visits, result.visits)
    np.testing.assert_allclose(values, result.values, rtol=0, atol=1e-12)


def test_the_search_forward_pass_is_the_numpy_policys():
    """The network inside the search gives the shipped policy's logits and
    value, on sparse random int8 observations like the games' planes."""
    policy = NumpyPolicy.load(shipped_policy_path("azimuth", 2))
    net = net_from_policy(policy)
    rng = np.random.default_rng(0)
    for _ in range(5):
        obs = (rng.integers(-3, 4, net.obs.size) * (rng.random(net.obs.size) < 0.1)).astype(np.int8)
        net.obs[:] = obs
        value = forward(net)
        mask = np.ones((1, policy.num_actions), bool)
        np.testing.assert_allclose(net.logits, policy.logits(obs[None], mask)[0], rtol=1e-5, atol=1e-5)
        assert value == pytest.approx(policy.value(obs[None])[0], abs=1e-5)


# ----------------------------------------------------------------- the agent


def test_a_seed_and_a_simulation_budget_make_the_search_repeatable():
    env = azgames.make("azacru", num_players=2)
    env.reset(seed=0)
    first = MCTSAgent(seed=7, game="azacru", simulations=200).search(env)
    again = MCTSAgent(seed=7, game="azacru", simulations=200).search(env)
    other = MCTSAgent(seed=8, game="azacru", simulations=200).search(env)
    assert np.array_equal(first.visits, again.visits) and first.best() == again.best()
    assert not np.array_equal(first.visits, other.visits)
    assert first.simulations == 200 and first.visits.sum() == 200


def test_threads_split_the_simulations_and_stay_repeatable():
    """Two threads, two trees: the root visits add up to the budget, the
    same seed gives the same merged result, and it still finds the win."""
    env = azacru.position(AZACRU_LAST_TURN, to_move="B", final_round_turns=1)
    wins = {a for a, r in outcomes(env).items() if r == 1.0}
    first = MCTSAgent(seed=3, game="azacru", simulations=301, threads=2).search(env)
    again = MCTSAgent(seed=3, game="azacru", simulations=301, threads=2).search(env)
    assert first.simulations == first.visits.sum() == 301
    assert np.array_equal(first.visits, again.visits) and np.array_equal(first.values, again.values)
    assert sorted(first.actions) == sorted(env.unwrapped.legal_actions())
    assert first.best() in wins


def test_the_tree_grows_past_its_first_arrays():
    """Many simulations on a wide game outgrow the arrays the search starts
    with; it grows them and keeps every simulation."""
    env = azgames.make("azimuth", num_players=2)
    env.reset(seed=0)
    agent = MCTSAgent(seed=0, game="azimuth", simulations=600)
    result = agent.search(env)
    assert result.visits.sum() == 600 and result.nodes == 601


def test_a_time_budget_stops_the_search():
    env = azgames.make("azacru", num_players=2)
    env.reset(seed=0)
    result = MCTSAgent(seed=0, game="azacru", simulations=None, seconds=0.05).search(env)
    assert result.simulations >= 1 and result.visits.sum() == result.simulations


@pytest.mark.parametrize(
    "game,players",
    [
        ("azacru", 3),
        ("azacru", 4),
        ("azure", 4),
        ("azimuth", 3),
        # compiling the co-op's search alone takes 4 minutes of CI
        pytest.param("azimuth_coop", 3, marks=pytest.mark.slow),
    ],
)
def test_mcts_plays_whole_games_of_every_game_and_player_count(game, players):
    """Registered as ``mcts``; with a small budget it plays a legal action at
    every turn of a game against random players (cut at 60 plies)."""
    env = azgames.make(game, num_players=players)
    env.reset(seed=1)
    agents = [make_agent("mcts", seed=0, game=game, simulations=20)] + [
        make_agent("random", seed=p) for p in range(1, players)
    ]
    for _ in range(60):
        if any(env.terminations.values()) or any(env.truncations.values()):
            break
        who = env.unwrapped.possible_agents.index(env.agent_selection)
        action = agents[who].act(env)
        assert action in env.unwrapped.legal_actions()
        env.step(action)


@pytest.mark.parametrize(
    "kwargs,message",
    [
        ({"simulations": 0}, "simulations"),
        ({"simulations": None}, "budget"),
        ({"seconds": -1.0}, "seconds"),
        ({"seconds": "1"}, "seconds"),
        ({"c": -0.5}, "c=-0.5"),
        ({"c": float("nan")}, "c=nan"),
        ({"seconds": float("inf")}, "seconds=inf"),
        ({"max_playout": -2}, "max_playout"),
        ({"threads": 0}, "threads"),
        ({"prior_temperature": -0.1}, "prior_temperature"),
        ({"prior_temperature": "hot"}, "prior_temperature"),
        ({"policy": "alphazero"}, "policy must be"),
    ],
)
def test_bad_budgets_are_refused_by_name(kwargs, message):
    # a string where a number goes is the wrong kind (TypeError, azgames.core.checks)
    with pytest.raises((TypeError, ValueError), match=message):
        MCTSAgent(**kwargs)


@pytest.mark.parametrize("game,players", [("azacru", 3), ("azimuth_coop", 2)])
def test_a_policy_guides_only_two_sided_games_with_observations(game, players):
    env = azgames.make(game, num_players=players)
    env.reset(seed=0)
    with pytest.raises(ValueError, match=f"this env is {game} with {players} players"):
        MCTSAgent(game=game, simulations=10, policy="ppo").search(env)


def test_the_agent_refuses_an_env_of_another_game():
    env = azgames.make("azure", num_players=2)
    env.reset(seed=0)
    with pytest.raises(ValueError, match="this agent plays azacru"):
        MCTSAgent(game="azacru").act(env)
