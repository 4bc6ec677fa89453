"""Azure Attack's greedy kernel (agents/azure_greedy.py) against its naive
reference (tests/reference/azure_greedy_reference.py).

The reference keeps every option where the rule breaks a tie at random, so
the kernel's action, whatever its generator drew, must be one of the
reference's choosable actions in every position met: from random playouts
(mixed with greedy steps, so that pieces carry, bank and fight) over every
player count, map, role rule and suit tile rule, through both entry points
(``act_batch`` on a vector env, ``act`` on an AEC env).
"""

from __future__ import annotations

import numpy as np
import pytest

import azgames
from azgames.agents import RandomAgent
from azgames.core import state as state_ops
from azgames.core.jit import JIT_DISABLED
from azgames.training import LearnerVecEnv
from azure_env.board import SUIT_TILE_RULES
from azure_env.greedy import AzureGreedy
from tests.reference.azure_greedy_reference import choosable_actions

CONFIGS = [
    pytest.param(n, m, roles, tiles, id=f"{n}p-{m}-{roles}-{tiles}")
    for n in (2, 3, 4)
    for m in ("standard", "long", "ring")
    for roles in ("fixed", "random")
    for tiles in SUIT_TILE_RULES
]
#: Plain Python kernels run about 100 times slower: fewer positions then.
GAMES, STEPS = (2, 24) if JIT_DISABLED else (4, 120)
#: Steps between two positions checked.
EVERY = 3
#: How often a playout plays the greedy's own action rather than a random one.
GREEDY_SHARE = 0.6
#: Draws per tied position in the tie test.
DRAWS = 8


def vector_env(num_players, map_name, roles, tiles, seed=0, num_envs=GAMES):
    return azgames.make_vec(
        "azure",
        num_envs=num_envs,
        seed=seed,
        num_players=num_players,
        map=map_name,
        roles=roles,
        suit_tiles=tiles,
    )


def playout(venv, checks, seed=0, every=1):
    """Yields ``checks`` times, every ``every`` steps of ``venv``'s games,
    which are played by a mix of the greedy's own actions and random ones."""
    agent, rng = AzureGreedy(seed=seed), np.random.default_rng(seed)
    games = np.arange(venv.num_envs)
    for step in range(checks * every):
        if step % every == 0:
            yield
        greedy = agent.act_batch(venv.rules, venv.state, venv.action_mask, games)
        venv.step(np.where(rng.random(venv.num_envs) < GREEDY_SHARE, greedy, venv.random_actions()))


def over(env) -> bool:
    a = env.agent_selection
    return env.terminations[a] or env.truncations[a]


@pytest.mark.parametrize("num_players, map_name, roles, tiles", CONFIGS)
def test_act_batch_plays_an_action_the_reference_may_choose(num_players, map_name, roles, tiles):
    venv = vector_env(num_players, map_name, roles, tiles)
    agent = AzureGreedy(seed=1)
    games = np.arange(venv.num_envs)
    sizes = set()
    for _ in playout(venv, STEPS, every=EVERY):  # whole games: the last coins, and nulls
        mask = venv.action_mask
        choosable = [choosable_actions(venv.rules, venv.state, mask[g], g) for g in games]
        actions = agent.act_batch(venv.rules, venv.state, mask, games)
        assert actions.dtype == np.int64
        for g in games:
            assert actions[g] in choosable[g], f"game {g}: {actions[g]} not in {choosable[g]}"
        sizes.update(len(c) for c in choosable)
    assert 1 in sizes and max(sizes) > 1  # positions with a forced action, and with ties


@pytest.mark.parametrize("num_players, map_name, roles, tiles", CONFIGS)
def test_act_plays_an_action_the_reference_may_choose(num_players, map_name, roles, tiles):
    """An AEC env, one game: every actor's position met while greedy agents
    of several seeds, and a random agent, take turns moving."""
    env = azgames.make("azure", num_players=num_players, map=map_name, roles=roles, suit_tiles=tiles)
    env.reset(seed=3)
    agents = [AzureGreedy(seed=s) for s in range(3)]
    noise = RandomAgent(seed=4)
    raw = env.unwrapped
    for step in range(GAMES * STEPS // 2):
        if over(env):
            env.reset(seed=step)
        mask = env.observe(env.agent_selection)["action_mask"]
        choosable = choosable_actions(raw.rules, raw.state, mask)
        picks = [agent.act(env) for agent in agents]
        assert set(picks) <= choosable and all(type(a) is int for a in picks)
        env.step(picks[0] if step % 3 else noise.act(env))


def tied_positions(num_players, map_name, tiles, count):
    """Up to ``count`` (state, mask, choosable) of single games of random
    playouts where the reference may choose more than one action."""
    venv = vector_env(num_players, map_name, "random", tiles, seed=5, num_envs=8)
    found = []
    for _ in playout(venv, STEPS, seed=5):
        for g in range(venv.num_envs):
            choosable = choosable_actions(venv.rules, venv.state, venv.action_mask[g], g)
            if len(choosable) > 1 and len(found) < count:
                found.append((state_ops.select(venv.state, g), venv.action_mask[g : g + 1].copy(), choosable))
    return venv.rules, found


@pytest.mark.parametrize("num_players, map_name, tiles", [(2, "standard", "closed"), (4, "ring", "literal")])
def test_ties_are_broken_at_random_by_each_games_generator_and_by_the_agents(num_players, map_name, tiles):
    """In tied positions, repeated act_batch calls (each advancing the game's
    generator) and act by agents of different seeds pick different actions,
    each a choosable one."""
    rules, found = tied_positions(num_players, map_name, tiles, 12 if JIT_DISABLED else 40)
    assert len(found) >= (6 if JIT_DISABLED else 30)
    varied_batch = varied_act = 0
    env = azgames.make("azure", num_players=num_players, map=map_name, suit_tiles=tiles)
    env.reset(seed=0)
    agent, game = AzureGreedy(seed=0), np.zeros(1, np.int64)
    agents = [AzureGreedy(seed=s) for s in range(DRAWS)]
    for state, mask, choosable in found:
        picks = {int(agent.act_batch(rules, state, mask, game)[0]) for _ in range(DRAWS)}
        env.unwrapped.set_state(state, check=False)
        acted = {a.act(env) for a in agents}
        assert picks <= choosable and acted <= choosable
        varied_batch += len(picks) > 1
        varied_act += len(acted) > 1
    # An even two-way tie repeats one action in 8 draws with chance 1/128.
    assert varied_batch >= len(found) // 2 and varied_act >= len(found) // 2


def test_act_batch_equals_act_game_by_game_with_the_same_generator_word():
    """act is act_batch on a batch of one: given game g's generator word,
    the AEC agent plays what act_batch plays for g and draws as often."""
    venv = vector_env(3, "standard", "random", "closed", seed=6, num_envs=16)
    env = azgames.make("azure", num_players=3, roles="random")
    env.reset(seed=0)
    agent = AzureGreedy(seed=0)
    for _ in playout(venv, 20 if JIT_DISABLED else 150, seed=6):
        before = venv.state.rng.copy()
        games = [state_ops.select(venv.state, g) for g in range(venv.num_envs)]
        actions = agent.act_batch(venv.rules, venv.state, venv.action_mask, np.arange(venv.num_envs))
        for g, game in enumerate(games):
            env.unwrapped.set_state(game, check=False)
            single = AzureGreedy()
            single.rng_word[0] = before[g]
            assert single.act(env) == actions[g]
            assert single.rng_word[0] == venv.state.rng[g]


def test_act_batch_answers_games_in_the_order_given_and_draws_only_on_theirs():
    venv = vector_env(4, "ring", "random", "literal", seed=7, num_envs=12)
    agent = AzureGreedy(seed=0)
    for _ in playout(venv, 30 if JIT_DISABLED else 100, seed=7):
        pass
    everyone = state_ops.clone(venv.state)
    all_actions = agent.act_batch(venv.rules, everyone, venv.action_mask, np.arange(12))
    games = np.array([9, 2, 11, 0, 5])  # unsorted, a subset
    some = state_ops.clone(venv.state)
    actions = agent.act_batch(venv.rules, some, venv.action_mask, games)
    np.testing.assert_array_equal(actions, all_actions[games])
    np.testing.assert_array_equal(some.rng[games], everyone.rng[games])
    others = np.setdiff1d(np.arange(12), games)
    np.testing.assert_array_equal(some.rng[others], venv.state.rng[others])
    assert state_ops.equal(state_ops.select(some, others), state_ops.select(venv.state, others))
    assert agent.act_batch(venv.rules, some, venv.action_mask, np.array([], np.int64)).shape == (0,)


def test_act_batch_refuses_another_games_rules():
    venv = azgames.make_vec("azacru", num_envs=2, seed=0)
    with pytest.raises(TypeError, match="AzureGreedy plays only Azure Attack, not azacru"):
        AzureGreedy(seed=0).act_batch(venv.rules, venv.state, venv.action_mask, np.arange(2))


def test_the_training_league_plays_greedy_through_act_batch(monkeypatch):
    def one_at_a_time(self, env):
        raise AssertionError("the league's greedy opponent went through act(), one game at a time")

    monkeypatch.setattr(AzureGreedy, "act", one_at_a_time)
    env = LearnerVecEnv("azure", 8, num_players=3, seed=0, opponents=["greedy"])
    env.reset()
    for _ in range(20):
        env.step(env.venv.random_actions())
