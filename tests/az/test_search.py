"""The batched Gumbel search (agents/az/search.py): every game of a batch
searched at once, the network called once a simulation for all their leaves."""

from __future__ import annotations

import numpy as np
import pytest
from azacru import helpers as azacru
from azimuth import helpers as azimuth
from azimuth.test_rules import LANDING_EXAMPLE_1
from search.test_mcts import AZACRU_LAST_TURN, gamble, outcomes

import azgames
from azgames.agents.az.search import GumbelSearch
from azgames.agents.az.settings import SearchSettings
from azgames.core.game import ONGOING


def uniform(obs, mask):
    """A network that knows nothing: even priors, every position a draw."""
    return np.zeros(mask.shape), np.zeros(mask.shape[0])


def searched(envs, simulations=16, **options):
    """Moves and improved policies of a search over ``envs``' positions, as one batch."""
    raw = [env.unwrapped for env in envs]
    state = type(raw[0].state)(*(np.concatenate(fields) for fields in zip(*(r.state for r in raw))))
    movers = np.array([r.possible_agents.index(r.agent_selection) for r in raw])
    obs_size = envs[0].last()[0]["observation"].size
    search = GumbelSearch(raw[0].rules, options.pop("evaluate", uniform), simulations=simulations, **options)
    return search.run(state, movers, obs_size)


def started(game: str, seed: int, plies: int, players: int = 2):
    env = azgames.make(game, num_players=players)
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    for _ in range(plies):
        env.step(int(rng.choice(env.unwrapped.legal_actions())))
    return env


def winning(env) -> set[int]:
    """The actor's legal actions that win at once (the rules' answer, by brute force)."""
    return {a for a, r in outcomes(env).items() if r == 1.0}


def test_azacru_the_last_move_takes_a_new_tile_and_wins():
    """As tests/search/test_mcts.py: player_1's last move of the final round
    wins onto a neutral field and draws onto its own tiles. With a network
    that knows nothing, the terminal rewards alone draw the search to a win."""
    env = azacru.position(AZACRU_LAST_TURN, to_move="B", final_round_turns=1)
    wins = winning(env)
    assert 0 < len(wins) < len(env.unwrapped.legal_actions())
    every = len(env.unwrapped.legal_actions())
    chosen, policy = searched([env], simulations=every, considered=every)
    assert int(chosen[0]) in wins
    assert policy[0, sorted(wins)].sum() > 0.5


@pytest.mark.slow  # the default run's Azacru scenario above is the same test; Azimuth's search compiles 30 s
def test_azimuth_black_finds_the_landing_that_wins():
    """Landing, Example 1 (as tests/search/test_mcts.py): turning the wind on
    c1 lands Black's castaway. With a network that knows nothing, the win's
    reward alone draws Sequential Halving to it."""
    env = azimuth.position(LANDING_EXAMPLE_1, to_move="K", beaches={"K": "d1-e1"}, hands={"K": (0, 0)})
    wins = winning(env)
    assert 0 < len(wins) < len(env.unwrapped.legal_actions())
    every = len(env.unwrapped.legal_actions())  # each action tried once: a win shows its +1
    chosen, policy = searched([env], simulations=every, considered=every)
    assert int(chosen[0]) in wins
    assert policy[0, sorted(wins)].sum() > 0.5  # the improved policy, the training target, learns it


@pytest.mark.parametrize("game", ["azacru", pytest.param("azimuth", marks=pytest.mark.slow)])
def test_a_batch_is_searched_as_each_of_its_games_alone(game, monkeypatch):
    """The batch's walks shared among threads, each game's alone on one."""
    from azgames.agents.az import search

    monkeypatch.setattr(search, "PARALLEL_FROM", 2)
    envs = [started(game, seed, plies) for seed, plies in ((0, 3), (1, 8), (2, 0))]
    together = searched(envs, gumbel_scale=0.0)
    alone = [searched([env], gumbel_scale=0.0) for env in envs]
    assert together[0].tolist() == [int(c[0]) for c, _ in alone]
    assert np.array_equal(together[1], np.concatenate([p for _, p in alone]))


@pytest.mark.parametrize(
    "game, players",
    [
        ("azacru", 2),
        ("azure", 2),
        ("azure", 4),  # the monster against three hunters: two sides
        pytest.param("azimuth", 2, marks=pytest.mark.slow),
        pytest.param("azimuth_coop", 3, marks=pytest.mark.slow),  # one side, and the ocean's die
    ],
)
def test_moves_are_legal_and_policies_are_distributions_over_the_legal_moves(game, players):
    envs = [started(game, seed, 2 * seed, players) for seed in range(4)]
    chosen, policy = searched(envs, simulations=8)
    for env, move, pi in zip(envs, chosen, policy):
        legal = env.unwrapped.legal_actions()
        assert int(move) in legal
        assert pi.sum() == pytest.approx(1.0) and set(np.flatnonzero(pi)) <= set(legal)


def test_the_network_is_called_once_a_simulation_for_every_leaf_at_once():
    calls = []

    def counting(obs, mask):
        calls.append(len(obs))
        return uniform(obs, mask)

    envs = [started("azacru", seed, 4) for seed in range(5)]
    searched(envs, simulations=6, evaluate=counting)
    assert calls[0] == 5 and len(calls) <= 7  # the roots, then at most one call a simulation
    assert max(calls[1:]) == 5


def root_edge(search, action: int) -> int:
    t = search.trees
    return int(np.flatnonzero(t.action[0, : t.num_edges[0, 0]] == action)[0])


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_chance_nodes_weigh_the_dice_by_their_probabilities(seed):
    """Azure's gamble (tests/search/test_mcts.py): the attack wins 15 rolls of
    36 and loses 21, worth -1/6 to the hunter; walking home is a sure draw.
    Below the attack is a chance node with an outcome for each roll met, and
    the attack's Q-value is the dice's expectation (within its sampling
    error), not its best case: the search walks home."""
    env = gamble()
    search = GumbelSearch(
        env.unwrapped.rules, uniform, simulations=400, considered=16, gumbel_scale=0.0, seed=seed
    )
    raw = env.unwrapped
    chosen, _ = search.run(
        raw.state,
        np.array([raw.possible_agents.index(raw.agent_selection)]),
        env.last()[0]["observation"].size,
    )
    attack = root_edge(search, raw.str_to_action("S"))
    t = search.trees
    chance = t.child[0, attack]
    assert t.mover[0, chance] == -1 and t.num_edges[0, chance] > 2
    n = t.n[0, attack]
    assert abs(t.w[0, attack] / n - (-1 / 6)) < 4 / np.sqrt(n)
    assert int(chosen[0]) == raw.str_to_action("E")


def test_games_of_more_than_two_sides_are_refused_by_name():
    env = started("azacru", 0, 0, players=3)
    with pytest.raises(ValueError, match="azacru with 3 players has 3 sides"):
        searched([env])


def test_a_value_for_each_player_goes_to_each_players_own_edges():
    """Three players, each on its own side: the walk went from the root
    (player 0 to move) through player 1's node to a leaf where player 2 is to
    move. The network's values at the leaf, counted in seats from its mover
    (player 2: 0.5, player 0: -0.25, player 1: 0.75), back up to each
    choosing player's edge as that player's own value."""
    from azgames.agents.az.search import by_reference, expand_and_backup, new_node, new_trees, side_signs

    t = new_trees(1, 4, 3, 3, 8, 0)
    ref = by_reference(t)  # the arrays of t, as the kernels take them
    root, middle, leaf = (new_node(ref, 0, mover, False) for mover in (0, 1, 2))
    t.first[0, :2], t.num_edges[0, :2], t.used[0, 1] = (0, 3), 3, 6  # edges 0-2 the root's, 3-5 the middle's
    t.path_node[0, :2] = root, middle
    t.path_edge[0, :2] = 0, 4  # the edges walked
    t.depth[0], t.leaf[0] = 2, leaf
    values = np.array([[0.5, -0.25, 0.75]])
    mask = np.ones((1, 3), np.int8)
    expand_and_backup(ref, np.array([True]), mask, np.zeros((1, 3)), values, side_signs([[0], [1], [2]], 3))
    assert t.w[0, 0] == -0.25 and t.w[0, 4] == 0.75  # player 0's edge, player 1's edge
    assert t.n[0, 0] == t.n[0, 4] == 1 and t.value[0, leaf] == 0.5  # the leaf's own value, its mover's
    assert t.first[0, leaf] == 6 and t.num_edges[0, leaf] == 3  # the leaf expanded after the others


def test_a_leafs_value_mixes_the_network_and_the_playout_by_their_weight():
    """The walk above, with ``playout_weight`` 0.5 and the leaf's playout ending with
    player 0 winning (+1, -1, 0 for players 0, 1, 2): each choosing player's
    edge gets half the network's value for it and half the playout's."""
    from azgames.agents.az.search import by_reference, expand_and_backup, new_node, new_trees, side_signs

    t = new_trees(1, 4, 3, 3, 8, 0)
    ref = by_reference(t)  # the arrays of t, as the kernels take them
    root, middle, leaf = (new_node(ref, 0, mover, False) for mover in (0, 1, 2))
    t.first[0, :2], t.num_edges[0, :2], t.used[0, 1] = (0, 3), 3, 6
    t.path_node[0, :2] = root, middle
    t.path_edge[0, :2] = 0, 4
    t.depth[0], t.leaf[0] = 2, leaf
    t.playout_weight[0] = 0.5
    t.played_out[0] = 1.0, -1.0, 0.0
    values = np.array([[0.5, -0.25, 0.75]])  # seats from the leaf's mover, player 2
    mask = np.ones((1, 3), np.int8)
    expand_and_backup(ref, np.array([True]), mask, np.zeros((1, 3)), values, side_signs([[0], [1], [2]], 3))
    assert t.w[0, 0] == 0.5 * -0.25 + 0.5 * 1.0  # player 0's edge
    assert t.w[0, 4] == 0.5 * 0.75 + 0.5 * -1.0  # player 1's edge
    assert t.value[0, leaf] == 0.5 * 0.5 + 0.5 * 0.0  # the leaf's mover's, mixed


def test_with_playout_weight_1_and_no_playout_plies_a_leaf_is_worth_the_games_estimate():
    """Azure Attack, a network that calls every position won for its mover,
    ``playout_weight`` 1 and ``max_playout`` 0: each leaf the search made below the root
    is worth what the game's estimate (the gold lead) says, not the network."""
    from azgames.agents.mcts.games import hooks_of

    env = started("azure", 3, 30)
    raw = env.unwrapped
    hooks = hooks_of(raw.rules)

    def confident(obs, mask):
        return np.zeros(mask.shape), np.ones(mask.shape[0])

    search = GumbelSearch(
        raw.rules,
        confident,
        simulations=12,
        gumbel_scale=0.0,
        settings=SearchSettings(playout_weight=1.0, max_playout=0),
    )
    movers = np.array([raw.possible_agents.index(raw.agent_selection)])
    search.run(raw.state, movers, env.last()[0]["observation"].size)
    t = search.trees
    checked = 0
    for e in range(t.num_edges[0, 0]):
        child = t.child[0, e]
        if child < 0 or t.mover[0, child] < 0 or t.over[0, child]:
            continue  # unvisited, a die's roll or the end
        after = raw.clone()
        after.step(int(t.action[0, e]))
        if after.agent_selection != raw.possible_agents[t.mover[0, child]]:
            continue  # the env's die rolled otherwise than the search's
        estimates = np.zeros(raw.rules.num_players)
        hooks.estimate(after.state, hooks.config(raw.rules), 0, estimates)
        assert t.value[0, child] == pytest.approx(estimates[t.mover[0, child]])
        checked += 1
    assert checked >= 3
    assert t.value[0, 0] != 1.0  # the root's value is the estimate's too


@pytest.mark.parametrize("weight", [-0.1, 1.5])
def test_a_playout_weight_outside_0_to_1_is_refused_by_value(weight):
    with pytest.raises(ValueError, match=f"playout_weight={weight}"):
        SearchSettings(playout_weight=weight)


def test_heuristic_playouts_are_refused_by_name_in_a_game_without_a_heuristic_agent():
    env = started("azimuth_coop", 0, 0)
    with pytest.raises(ValueError, match="azimuth_coop has no heuristic agent"):
        GumbelSearch(env.unwrapped.rules, uniform, settings=SearchSettings(heuristic_playouts=True))


def test_the_estimate_prior_adds_each_actions_reward_and_estimate_over_the_temperature():
    """Azure Attack, a network that knows nothing and ``prior_temperature``
    0.5: each root edge's prior logit is what the rules give for its action
    (the step's reward plus the game's estimate after it, for the mover, as
    the env steps it), over 0.5; without the prior every logit is the
    network's 0."""
    from azgames.agents.mcts.games import hooks_of

    env = started("azure", 3, 30)
    raw = env.unwrapped
    hooks = hooks_of(raw.rules)
    mover = raw.possible_agents.index(raw.agent_selection)
    movers = np.array([mover])
    size = env.last()[0]["observation"].size
    plain = GumbelSearch(raw.rules, uniform, simulations=4, gumbel_scale=0.0)
    plain.run(raw.state, movers, size)
    assert not plain.trees.logit[0, : plain.trees.num_edges[0, 0]].any()
    search = GumbelSearch(
        raw.rules, uniform, simulations=4, gumbel_scale=0.0, settings=SearchSettings(prior_temperature=0.5)
    )
    search.run(raw.state, movers, size)
    t = search.trees
    scores = set()
    for e in range(t.num_edges[0, 0]):
        after = raw.clone()
        after.step(int(t.action[0, e]))
        v = after.rewards[raw.agent_selection]
        if not (after.terminations[raw.agent_selection] or after.truncations[raw.agent_selection]):
            estimates = np.zeros(raw.rules.num_players)
            hooks.estimate(after.state, hooks.config(raw.rules), 0, estimates)
            v += estimates[mover]
        assert t.logit[0, e] == pytest.approx(v / 0.5)
        scores.add(round(float(t.logit[0, e]), 9))
    assert len(scores) > 1  # the actions differ: the prior says something


@pytest.mark.parametrize("temperature", [-0.1, float("nan")])
def test_a_negative_prior_temperature_is_refused_by_value(temperature):
    with pytest.raises(ValueError, match=f"prior_temperature={temperature}"):
        SearchSettings(prior_temperature=temperature)


@pytest.mark.parametrize("spread", [0.0, 2.5, float("nan")])
def test_a_min_spread_outside_the_papers_to_none_is_refused_by_value(spread):
    with pytest.raises(ValueError, match=f"min_spread={spread}"):
        SearchSettings(min_spread=spread)


@pytest.mark.parametrize(
    "game, greedy_spec",
    [
        ("azure", "greedy"),
        ("azacru", "greedy"),
        # Azimuth's heuristic playout and greedy's batched kernel compile for
        # 39 s in a cold run, used by this test alone: the two above stay in the default run.
        pytest.param("azimuth", "greedy:lookahead=1", marks=pytest.mark.slow),
    ],
)
def test_heuristic_playouts_play_on_as_greedy_would_for_every_player(game, greedy_spec):
    """40 plies played out from the same position twice: with the game's
    heuristic moves, every player's move is greedy's (Azimuth's planning one
    action ahead; its ties, and Azure Attack's dice, from the game's own
    generator), so the playout ends
    exactly where greedy's batched kernel, stepping the same game, does; and
    its return is the rewards on the way plus the estimate there. A random
    playout ends elsewhere."""
    from azgames.agents import make_agent
    from azgames.agents.mcts.games import hooks_of
    from azgames.agents.mcts.tree import playout

    env = started(game, 3, 30)
    raw = env.unwrapped
    rules, hooks = raw.rules, hooks_of(raw.rules)
    cfg = hooks.config(rules)
    P, A, plies = rules.num_players, rules.num_actions, 40
    games = type(raw.state)(*(np.concatenate([a] * 3) for a in raw.state))
    rewards = np.zeros((3, P), np.float32)
    played_out, values = np.zeros(P), np.zeros(P)
    mrng = np.array([7], np.uint64)
    playout(games, cfg, 0, np.zeros((1, A), np.int8), rewards, played_out, mrng, 0, plies, values, True)
    playout(games, cfg, 2, np.zeros((1, A), np.int8), rewards, np.zeros(P), mrng, 0, plies, values, False)

    greedy, mask, gained = make_agent(greedy_spec, game=game, seed=0), np.zeros((3, A), np.int8), np.zeros(P)
    for _ in range(plies):
        hooks.legal(games, cfg, 1, mask[1:2])
        action = greedy.act_batch(rules, games, mask, np.array([1]))[0]
        status = hooks.play(games, cfg, 1, action, rewards)
        gained += rewards[1]
        if status & 3 != ONGOING:
            break
    else:
        hooks.estimate(games, cfg, 1, values)
        gained += values
    for name, field in zip(games._fields, games):
        assert np.array_equal(field[0], field[1]), name
    assert played_out == pytest.approx(gained)
    assert any(not np.array_equal(field[2], field[1]) for field in games)


def undone_in_two(raw):
    """A move of the actor and the other player's reply that bring the
    position back as it was (a wind turned and turned back), by brute force."""
    actor = raw.agent_selection
    before = raw.observe(actor)["observation"]
    for a in raw.legal_actions():
        after = raw.clone()
        after.step(int(a))
        for b in after.legal_actions():
            back = after.clone()
            back.step(int(b))
            if back.agent_selection == actor and np.array_equal(back.observe(actor)["observation"], before):
                return int(a), int(b)
    raise AssertionError("no move here can be undone by the reply")


@pytest.mark.parametrize("repetition_draws", [True, False])
def test_azimuth_a_wind_turned_and_turned_back_is_a_draw_to_the_search(repetition_draws):
    """Winds turn both ways, so Azimuth's positions come back: its drawn games
    against greedy were cycles of one wind turned back and forth. A network
    sure that every position is won for its mover steers the walk along a
    turn and its undoing. With ``repetition_draws`` the position come back
    ends the walk as a draw (0 to the replying player); without, it is a new
    leaf the network calls lost for the replying player (-1)."""
    env = started("azimuth", 5, 30)
    raw = env.unwrapped
    turn, turn_back = undone_in_two(raw)
    root = env.last()[0]["observation"].ravel()

    def steering(obs, mask):
        at_root = (obs == root).all(axis=1)
        logits = np.zeros(mask.shape)
        logits[at_root, turn] = logits[~at_root, turn_back] = 10.0
        return logits, np.ones(mask.shape[0])

    search = GumbelSearch(
        raw.rules, steering, simulations=2, considered=1, gumbel_scale=0.0, repetition_draws=repetition_draws
    )
    search.run(
        raw.state,
        np.array([raw.possible_agents.index(raw.agent_selection)]),
        env.last()[0]["observation"].size,
    )
    t = search.trees
    replying = t.child[0, root_edge(search, turn)]
    f, c = t.first[0, replying], t.num_edges[0, replying]
    back = f + int(np.flatnonzero(t.action[0, f : f + c] == turn_back)[0])
    came_back = t.child[0, back]
    assert t.n[0, back] == 1.0 and t.key[0, came_back] == t.key[0, 0]
    assert t.over[0, came_back] == repetition_draws
    assert t.w[0, back] == (0.0 if repetition_draws else -1.0)


def test_the_struct_the_kernels_take_holds_every_array_of_the_trees():
    """``by_reference`` copies the arrays' handles one by one: one left out
    would be a null array in every kernel."""
    import inspect
    import re

    from azgames.agents.az.search import Trees, _by_reference

    source = inspect.getsource(getattr(_by_reference, "py_func", _by_reference))
    assert re.findall(r"r\.(\w+) = t\.\1\b", source) == list(Trees._fields)
