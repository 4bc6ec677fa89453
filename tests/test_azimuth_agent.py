"""The Azimuth greedy baseline (agents/azimuth_greedy.py).

Positions are set up with diagrams (``azimuth_env/diagram.py``): point rows 6
down to 1 with the wind-mark rows between them; a point is ``.`` or its stack
bottom first (R red, K black, Y blondie, B blue) with ``@`` where the
castaway of the top raft's colour stands; a mark is ``.``, ``#`` (the island)
or a wind: colour letter and arrow ``^ > v <``. With 2 players the island is
mark c4 and every beach is on the south edge (side S).
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

import azgames
from azacru_env.greedy import AzacruGreedy
from azgames.agents import RandomAgent, agent_names, make_agent
from azgames.agents.match import play_match
from azimuth_env.board import AT_HOME
from azimuth_env.greedy import LANDED, LANDS_OPPONENT, THREAT, WINS, AzimuthGreedy

ROOT = Path(__file__).resolve().parent.parent

CONFIGS = [
    pytest.param(2, {}, id="2p"),
    pytest.param(2, {"lighthouses": "random"}, id="2p-random-beaches"),
    pytest.param(3, {}, id="3p"),
    pytest.param(4, {}, id="4p"),
    pytest.param(4, {"island": True}, id="4p-island"),
]


def position(diagram: str, num_players: int = 2, to_move: str = "R", beaches=None, hands=None, **options):
    """An AEC env at the position of ``diagram`` (see the module docstring)."""
    env = azgames.make("azimuth", num_players=num_players, **options)
    env.reset(seed=0)
    rules = env.unwrapped.rules
    env.unwrapped.set_state(
        rules.state_from_diagram(textwrap.dedent(diagram), to_move=to_move, beaches=beaches, hands=hands)
    )
    return env


def over(env) -> bool:
    a = env.agent_selection
    return env.terminations[a] or env.truncations[a]


def notation(env, actions) -> list[str]:
    return sorted(env.unwrapped.action_to_str(int(a)) for a in actions)


# ---------------------------------------------------------------- hand-made positions

# Red's castaway on a1, a landing spot of its beach a1-b1; its wind on mark a1
# (points a1, b1, a2, b2) blows east. Turning it clockwise blows south and
# pushes the raft off a1 onto the beach. All winds are placed (phase 2).
LANDING = """
6    .    .    .    .    .    .
       .    .    .    .    .
5    .    .    .    .    .    .
       .    .    #    .    .
4    .    .    .    .    .    .
       .    .    .    .    .
3    .    .    .    .    .    .
       .    .    .    .    .
2    .    .    .    .    .    .
       R>   .    .    .    .
1    R@   .    .    .    .    K@
"""


def test_greedy_lands_its_castaway_when_it_can():
    env = position(LANDING, beaches={"R": "a1-b1", "K": "e1-f1"}, hands={"R": (0, 0), "K": (0, 0)})
    assert "turn a1 cw" in notation(env, env.unwrapped.legal_actions())
    e = AzimuthGreedy(seed=0).evaluate(env)
    wins = notation(env, e["legal"][(e["flags"] & WINS) != 0])
    assert wins == ["turn a1 cw"]
    for seed in range(5):
        assert env.unwrapped.action_to_str(AzimuthGreedy(seed=seed).act(env)) == "turn a1 cw"
    env.step(env.unwrapped.str_to_action("turn a1 cw"))
    assert env.unwrapped.state.castaway[0, 0] == AT_HOME
    assert env.rewards == {"player_0": 1.0, "player_1": -1.0}


# Red's castaway on b2, above b1, a landing spot of its beach a1-b1. Red's wind
# on mark a2 (points a2, b2, a3, b3) blows south, its wind on mark b1 (b1, c1,
# b2, c2) east. Two actions land it: one pushes the raft from b2 to b1 (the a2
# wind moved south or east, or the b1 wind turned south), the next pushes it
# from b1 onto the beach. Black can only pass.
TWO_TO_GO = """
6    .    .    .    .    .    .
       .    .    .    .    .
5    .    .    .    .    .    .
       .    .    #    .    .
4    .    .    .    .    .    .
       .    .    .    .    .
3    .    .    .    .    .    .
       Rv   .    .    .    .
2    .    R@   .    .    .    .
       .    R>   .    .    .
1    .    .    .    .    .    K@
"""


def test_greedy_finds_a_landing_two_actions_away():
    env = position(TWO_TO_GO, beaches={"R": "a1-b1", "K": "e1-f1"}, hands={"R": (0, 0), "K": (0, 0)})
    greedy = AzimuthGreedy(seed=0)
    e = greedy.evaluate(env)
    best = notation(env, greedy.best_actions(env))
    assert best and set(best) <= {"move a2 S", "move a2 E", "turn b1 cw"}
    assert (e["reach"][e["rank"] == 0] == 2 - LANDED).all()
    for seed in range(3):
        game = env.unwrapped.clone()
        game.step(AzimuthGreedy(seed=seed).act(game))
        assert game.unwrapped.action_to_str(game.unwrapped.legal_actions()[0]) == "pass"
        game.step(game.unwrapped.legal_actions()[0])
        game.step(AzimuthGreedy(seed=seed).act(game))
        assert game.unwrapped.state.castaway[0, 0] == AT_HOME


# Black's castaway on d1, a landing spot of its beach d1-e1; black's own wind
# on mark d1 (points d1, e1, d2, e2) blows east. Red's raft on e2 gives red
# control of that wind (two players: no coconuts), and red can do nothing else
# (its castaway is on the island, no red raft is in the shallows, all its winds
# are placed and it has none on the board). Turning the wind clockwise would
# blow south and land black's castaway.
OPPONENT_ON_ITS_SPOT = """
6    .    .    .    .    .    .
       .    .    .    .    .
5    .    .    .    .    .    .
       .    .    #    .    .
4    .    .    .    .    .    .
       .    .    .    .    .
3    .    .    .    .    .    .
       .    .    .    .    .
2    .    .    .    .    R    .
       .    .    .    K>   .
1    .    .    .    K@   .    .
"""

# As above, but black's castaway is on d2, and black has a second wind, on
# mark c1 (points c1, d1, c2, d2), blowing west. Turning d1 clockwise (south)
# would carry black's castaway onto its landing spot d1, and black would land
# by turning c1 to the south; turning d1 anticlockwise (north) carries it to d3.
OPPONENT_NEAR_ITS_SPOT = """
6    .    .    .    .    .    .
       .    .    .    .    .
5    .    .    .    .    .    .
       .    .    #    .    .
4    .    .    .    .    .    .
       .    .    .    .    .
3    .    .    .    .    .    .
       .    .    .    .    .
2    .    .    .    K@   R    .
       .    .    K<   K>   .
1    .    .    .    .    .    .
"""


def flags_by_move(env, agent) -> dict[str, int]:
    e = agent.evaluate(env)
    return {env.unwrapped.action_to_str(int(a)): int(f) for a, f in zip(e["legal"], e["flags"])}


def test_greedy_never_lands_an_opponent():
    env = position(
        OPPONENT_ON_ITS_SPOT, beaches={"R": "a1-b1", "K": "d1-e1"}, hands={"R": (0, 0), "K": (0, 0)}
    )
    assert notation(env, env.unwrapped.legal_actions()) == ["turn d1 ccw", "turn d1 cw"]
    assert flags_by_move(env, AzimuthGreedy(seed=0)) == {"turn d1 cw": LANDS_OPPONENT, "turn d1 ccw": 0}
    for seed in range(10):
        assert env.unwrapped.action_to_str(AzimuthGreedy(seed=seed).act(env)) == "turn d1 ccw"


def test_greedy_avoids_giving_the_next_player_a_landing():
    env = position(
        OPPONENT_NEAR_ITS_SPOT, beaches={"R": "a1-b1", "K": "d1-e1"}, hands={"R": (0, 0), "K": (0, 0)}
    )
    assert notation(env, env.unwrapped.legal_actions()) == ["turn d1 ccw", "turn d1 cw"]
    assert flags_by_move(env, AzimuthGreedy(seed=0)) == {"turn d1 cw": THREAT, "turn d1 ccw": 0}
    for seed in range(10):
        assert env.unwrapped.action_to_str(AzimuthGreedy(seed=seed).act(env)) == "turn d1 ccw"
    # Without the look at the replies nothing is flagged.
    assert set(flags_by_move(env, AzimuthGreedy(seed=0, threats=False)).values()) == {0}
    # Black indeed lands after the clockwise turn.
    env.step(env.unwrapped.str_to_action("turn d1 cw"))
    env.step(env.unwrapped.str_to_action("turn c1 ccw"))
    assert env.unwrapped.state.castaway[0, 1] == AT_HOME


# Phase 1: red's castaway on the island and a red raft on c4, one of the
# island's shallow points (c4, d4, c5, d5): boarding brings it nearest home.
RAFT_IN_THE_SHALLOWS = """
6    .    .    .    .    .    K@
       .    .    .    .    .
5    .    .    .    .    .    .
       .    .    #    .    .
4    .    .    R    .    .    .
       .    .    .    .    .
3    .    .    .    .    .    .
       .    .    .    .    .
2    .    .    .    .    .    .
       .    .    .    .    .
1    .    .    .    .    .    .
"""


def test_greedy_boards_a_raft_in_the_shallows():
    env = position(RAFT_IN_THE_SHALLOWS, beaches={"R": "b1-c1", "K": "e1-f1"})
    assert env.unwrapped.state.hand[0, 0, 0] > 0  # winds still in hand
    assert notation(env, AzimuthGreedy(seed=0).best_actions(env)) == ["board c4"]


def test_greedy_places_its_lighthouse_below_the_island():
    """The island's shallows are c4, d4, c5, d5: beaches b1-c1, c1-d1 and d1-e1
    have a landing spot three legs below them; a1-b1 and e1-f1 do not."""
    env = azgames.make("azimuth", num_players=2)
    picks = set()
    for seed in range(12):
        env.reset(seed=seed)
        picks.add(env.unwrapped.action_to_str(AzimuthGreedy(seed=seed).act(env)))
    assert picks <= {"beach b1-c1", "beach c1-d1", "beach d1-e1"}


def test_greedy_refuses_a_game_other_than_azimuth():
    env = azgames.make("azacru")
    env.reset(seed=0)
    with pytest.raises(TypeError, match="only Azimuth"):
        AzimuthGreedy(seed=0).evaluate(env)
    with pytest.raises(ValueError, match="lookahead"):
        AzimuthGreedy(lookahead=4)


# ---------------------------------------------------------------- whole games


@pytest.mark.parametrize("num_players, options", CONFIGS)
def test_greedy_plays_only_legal_actions(num_players, options):
    """Random positions of every configuration: the greedy agent takes a turn
    now and then in random play (any seat, any phase, lighthouses included),
    and always returns one of the actor's legal actions."""
    env = azgames.make("azimuth", num_players=num_players, **options)
    rng = np.random.default_rng(num_players)
    greedy = AzimuthGreedy(seed=num_players)
    noise = RandomAgent(seed=100 + num_players)
    checked = 0
    for game in range(8):
        env.reset(seed=game)
        share = rng.uniform(0.2, 0.8)  # how often the greedy agent acts this game
        while not over(env) and env.unwrapped.state.ply[0] < 120:
            legal = env.unwrapped.legal_actions()
            if rng.random() < share:
                action = greedy.act(env)
                assert isinstance(action, int) and action in legal
                checked += 1
            else:
                action = noise.act(env)
            env.step(action)
    assert checked >= 100


def test_greedy_vs_greedy_finishes():
    result = play_match("azimuth", ["greedy", "greedy"], num_games=6, seed=3, progress=False)
    assert result.num_games == 6
    assert sum(result.wins.values()) + result.draws["greedy#1"] == 6


def test_greedy_beats_random_in_a_clear_majority_of_40_games():
    result = play_match("azimuth", ["greedy", "random"], num_games=40, seed=0, progress=False)
    assert result.seat_games == {"greedy": [20, 20], "random": [20, 20]}
    print(f"\n{result}")
    assert result.wins["greedy"] >= 34
    assert result.mean_turns < 60


@pytest.mark.parametrize("num_players, options", [CONFIGS[2], CONFIGS[3]])
def test_greedy_beats_two_or_three_randoms(num_players, options):
    agents = ["greedy"] + ["random"] * (num_players - 1)
    result = play_match(
        "azimuth",
        agents,
        num_games=4 * num_players,
        num_players=num_players,
        seed=1,
        progress=False,
        env_kwargs=options,
    )
    assert result.wins["greedy"] >= 3 * num_players


@pytest.mark.slow
def test_greedy_beats_random_in_at_least_80_percent_of_200_games():
    result = play_match("azimuth", ["greedy", "random"], num_games=200, seed=0, progress=False)
    lo, hi = result.win_interval("greedy")
    print(
        f"\ngreedy vs random: {result.wins['greedy']}/200 wins (95% CI {100 * lo:.1f}-"
        f"{100 * hi:.1f}%), {result.draws['greedy']} draws, mean {result.mean_turns:.1f} turns"
        f"\n{result}"
    )
    assert result.seat_games == {"greedy": [100, 100], "random": [100, 100]}
    assert result.win_rate("greedy") >= 0.8


# ---------------------------------------------------------------- registry, plain Python


def test_registry_builds_the_greedy_agent_of_each_game():
    assert isinstance(make_agent("greedy", seed=0, game="azimuth"), AzimuthGreedy)
    assert isinstance(make_agent("greedy", seed=0, game="azacru"), AzacruGreedy)
    with pytest.raises(ValueError, match="'greedy' is a game's own: give the game"):
        make_agent("greedy", seed=0)  # each game ships its own greedy (Rules.baselines)
    assert set(agent_names("azimuth")) == {"greedy", "random", "ppo", "mcts", "az"}
    assert set(agent_names("azacru")) == {"greedy", "random", "ppo", "mcts", "az"}  # az: networks ship
    with pytest.raises(ValueError, match="unknown agent 'minimax' for azimuth; valid agents: random, greedy"):
        make_agent("minimax", game="azimuth")
    with pytest.raises(ValueError, match="unknown game 'some_other_game'"):
        make_agent("greedy", game="some_other_game")


NOJIT_SCRIPT = """
import json, sys
import azgames
from azgames.agents import RandomAgent
from azimuth_env.greedy import AzimuthGreedy
out = []
for num_players, options in ((2, {}), (4, {"island": True})):
    env = azgames.make("azimuth", num_players=num_players, **options)
    env.reset(seed=5)
    seats = [AzimuthGreedy(seed=1)] + [RandomAgent(seed=2 + s) for s in range(num_players - 1)]
    while not (env.terminations[env.agent_selection] or env.truncations[env.agent_selection]):
        if env.unwrapped.state.ply[0] >= 60:
            break
        action = seats[env.possible_agents.index(env.agent_selection)].act(env)
        out.append(action)
        env.step(action)
print(json.dumps(out))
"""


def test_the_kernel_gives_the_same_actions_as_plain_python():
    """``NUMBA_DISABLE_JIT=1`` runs the kernel as plain Python (numpy int8
    arithmetic wraps where numba's promotes): the first plies of two games
    come out the same both ways."""
    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    plain = subprocess.run(
        [sys.executable, "-c", NOJIT_SCRIPT], cwd=ROOT, env=env, capture_output=True, text=True, timeout=600
    )
    assert plain.returncode == 0, plain.stderr[-3000:]
    jitted = subprocess.run(
        [sys.executable, "-c", NOJIT_SCRIPT], cwd=ROOT, capture_output=True, text=True, timeout=600
    )
    assert jitted.returncode == 0, jitted.stderr[-3000:]
    assert plain.stdout == jitted.stdout


# ---------------------------------------------------------------- many games at once


@pytest.mark.parametrize("num_players, options", [CONFIGS[0], CONFIGS[4]])
def test_act_batch_chooses_among_the_best_actions_of_each_game(num_players, options):
    """A vector env in random play, every third ply: the batched greedy (the
    training league's opponent) plays, in every game, one of the actions the
    one-game agent ranks first; in a position with tied actions, copies of
    it with their own generators break the tie differently."""
    venv = azgames.make_vec("azimuth", num_envs=12, num_players=num_players, **options)
    venv.reset(seed=num_players)
    env = azgames.make("azimuth", num_players=num_players, **options)
    env.reset(seed=0)
    greedy = AzimuthGreedy(seed=0)
    tied = None
    for ply in range(30):
        if ply % 3 == 0:
            games = np.arange(venv.num_envs)[::-1]  # any order of game indices
            chosen = greedy.act_batch(venv.rules, venv.state, venv.action_mask, games)
            for k, g in enumerate(games):
                env.unwrapped.set_state(venv.game(int(g)), check=False)
                legal = env.unwrapped.legal_actions()
                if len(legal) > 1:  # evaluate's ranking, computed apart from the kernel's choice
                    e = greedy.evaluate(env)
                    best = set(e["legal"][e["rank"] == 0].tolist())
                else:
                    best = set(legal)
                assert int(chosen[k]) in best, (ply, int(g))
                if len(best) > 1:
                    tied = venv.game(int(g))
        venv.step(venv.random_actions())
    assert tied is not None
    for g in range(venv.num_envs):
        venv.set_game(g, tied)
    venv.state.rng[:] = np.arange(venv.num_envs, dtype=np.uint64) * 7919
    picks = greedy.act_batch(venv.rules, venv.state, venv.action_mask, np.arange(venv.num_envs))
    assert len(set(picks.tolist())) > 1


def test_act_batch_refuses_another_games_rules():
    venv = azgames.make_vec("azacru", num_envs=2)
    venv.reset(seed=0)
    with pytest.raises(TypeError, match="only Azimuth, not azacru"):
        AzimuthGreedy(seed=0).act_batch(venv.rules, venv.state, venv.action_mask, np.arange(2))
