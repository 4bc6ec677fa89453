"""The Azure Attack greedy baseline (agents/azure_greedy.py).

Positions are set up with diagrams (``azure_env/diagram.py``): rows 12 (north)
down to 1, columns a-f; ``.`` a map square, ``-`` no tile, ``m``/``a``/``b``
the suit-tile squares of the monster, hunter_0, hunter_1; ``M``/``A``/``B``
the pieces, followed by the coins they carry; digits on a map square are
coins lying there. With 2 players hunter_0's tile is c1-d2, home d2; the
monster's is c11-d12, home c11.
"""

from __future__ import annotations

import textwrap

import numpy as np
import pytest

import azgames
from azgames.agents import RandomAgent, agent_names, make_agent
from azgames.agents.match import play_game, play_match
from azure_env.board import STOP
from azure_env.greedy import NO_WAY, AzureGreedy, distances_from, enterable_squares
from tests.reference.azure_greedy_reference import choosable_actions

CONFIGS = [pytest.param(n, m, id=f"{n}p-{m}") for m in ("standard", "long", "ring") for n in (2, 3, 4)]


def position(diagram: str, num_players: int = 2, to_move: str = "A", **kwargs):
    """An AEC env at the position of ``diagram``, ``to_move``'s turn."""
    env = azgames.make("azure", num_players=num_players)
    env.reset(seed=0)
    rules = env.unwrapped.rules
    env.unwrapped.set_state(rules.state_from_diagram(textwrap.dedent(diagram), to_move=to_move, **kwargs))
    return env


def over(env) -> bool:
    a = env.agent_selection
    return env.terminations[a] or env.truncations[a]


def moves(env, seeds=range(8)) -> set[str]:
    """The greedy agent's choices in ``env`` over several tie-breaking seeds."""
    return {env.unwrapped.action_to_str(AzureGreedy(seed=s).act(env)) for s in seeds}


def banked(env) -> list[int]:
    return env.unwrapped.rules.banked(env.unwrapped.state)


# ---------------------------------------------------------------- hand-made positions

# hunter_0 on d3 at the start of its turn, a 3 on e3 next to it; a 1 further off.
COIN_NEXT_DOOR = """
12  -  -  m  m  -  -
11  -  -  M  m  -  -
10  .  .  .  .  .  .
 9  .  .  .  .  .  .
 8  .  1  .  .  .  .
 7  .  .  .  .  .  .
 6  .  .  .  .  .  .
 5  .  .  .  .  .  .
 4  .  .  .  .  .  .
 3  .  .  .  A  3  .
 2  -  -  a  a  -  -
 1  -  -  a  a  -  -
"""


def test_hunter_takes_the_coin_next_to_it():
    env = position(COIN_NEXT_DOOR)
    assert moves(env) == {"E"}
    env.step(AzureGreedy(seed=0).act(env))
    state, S = env.unwrapped.state, env.unwrapped.rules.S
    assert (state.coin_loc[0] == S + 1).sum() == 1  # hunter_0 carries the 3
    assert env.agent_selection == "hunter_0"  # 1 square moved, allowance now 2
    # Carrying, it heads home: d3 was visited this turn and e2 is off the
    # map, so no step brings it nearer: it stops, and banks next turn (W, S).
    assert moves(env) == {"stop"}


# hunter_0 carrying a 4 on d3, its suit tile (d2) just south.
CARRYING_NEXT_TO_HOME = """
12  -  -  m  m  -  -
11  -  -  M  m  -  -
10  .  .  .  .  .  .
 9  .  .  .  .  .  .
 8  .  .  .  .  .  .
 7  .  .  .  .  .  .
 6  .  .  .  .  .  .
 5  .  .  .  .  .  .
 4  .  .  5  .  .  .
 3  .  .  . A4  .  .
 2  -  -  a  a  -  -
 1  -  -  a  a  -  -
"""


def test_hunter_carrying_gold_next_to_its_tile_banks():
    env = position(CARRYING_NEXT_TO_HOME)
    assert moves(env) == {"S"}
    env.step(AzureGreedy(seed=0).act(env))
    assert banked(env) == [0, 4]
    # Banking ended the turn: hunter_0's second turn (1 hunter: H H M) starts.
    assert env.agent_selection == "hunter_0" and env.unwrapped.state.turns[0] == 1
    # Empty-handed again, it goes for the 5 on c4.
    assert moves(env) <= {"N", "W"}


def test_hunter_carrying_gold_walks_around_coins():
    """Carrying a 4 on d5 (2 squares a turn), its tile 3 squares south: every
    coin picked up costs 2 squares, so it goes round the 1 on d4."""
    env = position("""
        12  -  -  m  m  -  -
        11  -  -  M  m  -  -
        10  .  .  .  .  .  .
         9  .  .  .  .  .  .
         8  .  .  .  .  .  .
         7  .  .  .  .  .  .
         6  .  .  .  .  .  .
         5  .  .  . A4  .  .
         4  .  .  .  1  .  .
         3  .  .  .  .  .  .
         2  -  -  a  a  -  -
         1  -  -  a  a  -  -
        """)
    assert moves(env) == {"W"}  # c5 c4 c3 c2: c2 is on its suit tile


# The monster on d6, hunter_0 carrying a 5 on d5 (next to it, south).
MONSTER_NEXT_TO_CARRIER = """
12  -  -  m  m  -  -
11  -  -  m  m  -  -
10  .  .  .  .  .  .
 9  .  .  .  .  .  .
 8  .  .  .  .  .  .
 7  .  3  .  .  .  .
 6  .  .  .  M  .  .
 5  .  .  . A5  .  .
 4  .  .  .  .  .  .
 3  .  .  .  .  .  .
 2  -  -  a  a  -  -
 1  -  -  a  a  -  -
"""


def test_monster_attacks_the_hunter_carrying_gold_next_to_it():
    env = position(MONSTER_NEXT_TO_CARRIER, to_move="M")
    assert moves(env) == {"S"}
    env.unwrapped.step_outcome(AzureGreedy(seed=0).act(env), (4, 2))  # the monster wins
    state, S = env.unwrapped.state, env.unwrapped.rules.S
    assert env.unwrapped.rules.layout.name_of(int(state.pos[0, 0])) == "d5"
    assert (state.coin_loc[0] == S + 0).sum() == 1  # it took the 5
    assert env.agent_selection == "monster"  # an extra turn
    # Carrying, it now heads home (north) to bank.
    assert moves(env) == {"N"}


def test_monster_runs_down_a_carrier_within_reach():
    """Hunter_0 carries a 2 on e6, six squares from the monster on c10
    (6 squares a turn): the monster walks at it, not at the 3 on b7, and
    attacks with its sixth square."""
    env = position(
        """
        12  -  -  m  m  -  -
        11  -  -  m  m  -  -
        10  .  .  M  .  .  .
         9  .  .  .  .  .  .
         8  .  .  .  .  .  .
         7  .  3  .  .  .  .
         6  .  .  .  . A2  .
         5  .  .  .  .  .  .
         4  .  .  .  .  .  .
         3  .  .  .  .  .  .
         2  -  -  a  a  -  -
         1  -  -  a  a  -  -
        """,
        to_move="M",
    )
    assert AzureGreedy(seed=0).plan(env)["mode"] == "attack"
    assert moves(env) <= {"E", "S"}
    agent = AzureGreedy(seed=1)
    for _ in range(5):
        env.step(agent.act(env))
    layout = env.unwrapped.rules.layout
    there = layout.name_of(int(env.unwrapped.state.pos[0, 0]))
    assert there in {"d6", "e7"}
    assert moves(env) == {"E" if there == "d6" else "S"}


def test_hunter_leaves_a_null_coin_for_a_valued_one():
    """A 0 next to hunter_0 (e3), a 1 three squares north (d6): the 1."""
    env = position("""
        12  -  -  m  m  -  -
        11  -  -  M  m  -  -
        10  .  .  .  .  .  .
         9  .  .  .  .  .  .
         8  .  .  .  .  .  .
         7  .  .  .  .  .  .
         6  .  .  .  1  .  .
         5  .  .  .  .  .  .
         4  .  .  .  .  .  .
         3  .  .  .  A  0  .
         2  -  -  a  a  -  -
         1  -  -  a  a  -  -
        """)
    assert moves(env) == {"N"}


def test_hunter_takes_null_coins_when_nothing_else_lies():
    """Only nulls lie (e3, b8): the one nearest (there and home)."""
    env = position("""
        12  -  -  m  m  -  -
        11  -  -  M  m  -  -
        10  .  .  .  .  .  .
         9  .  .  .  .  .  .
         8  .  0  .  .  .  .
         7  .  .  .  .  .  .
         6  .  .  .  .  .  .
         5  .  .  .  .  .  .
         4  .  .  .  .  .  .
         3  .  .  .  A  0  .
         2  -  -  a  a  -  -
         1  -  -  a  a  -  -
        """)
    assert moves(env) == {"E"}


def test_empty_handed_hunter_attacks_a_monster_holding_the_last_gold():
    env = position("""
        12  -  -  m  m  -  -
        11  -  -  m  m  -  -
        10  .  .  .  .  .  .
         9  .  .  .  .  .  .
         8  .  .  .  .  .  .
         7  .  .  .  .  .  .
         6  .  .  . M5  .  .
         5  .  .  .  A  .  .
         4  .  .  .  .  .  .
         3  .  .  .  .  .  .
         2  -  -  a  a  -  -
         1  -  -  a  a  -  -
        """)
    assert AzureGreedy(seed=0).plan(env)["mode"] == "attack"
    assert moves(env) == {"N"}


def test_hunters_never_step_onto_each_other():
    """Hunter_0 on d3, the 4 it wants on d5 beyond hunter_1 on d4: it goes
    round (c or e file), never onto hunter_1."""
    env = position(
        """
        12  -  -  m  m  -  -
        11  -  -  M  m  -  -
        10  .  .  .  .  .  .
         9  .  .  .  .  .  .
         8  .  .  .  .  .  .
         7  .  .  .  .  .  .
         6  .  .  .  .  .  .
         5  .  .  .  4  .  .
         4  .  .  .  B  .  .
         3  .  .  .  A  .  .
         2  b  b  a  a  -  -
         1  b  b  a  a  -  -
        """,
        num_players=3,
    )
    assert moves(env) == {"E", "W"}


def test_stops_when_there_is_nothing_to_do():
    """No coin lies and the monster carries none; hunter_1 carries the last
    one: hunter_0 has no target and stops."""
    env = position(
        """
        12  -  -  m  m  -  -
        11  -  -  M  m  -  -
        10  .  .  .  .  .  .
         9  .  .  .  .  .  .
         8  .  .  .  .  .  .
         7  .  .  .  .  .  .
         6  .  .  .  .  .  .
         5  .  .  .  .  .  .
         4  . B3  .  .  .  .
         3  .  .  .  A  .  .
         2  b  b  a  a  -  -
         1  b  b  a  a  -  -
        """,
        num_players=3,
        banked={"A": "5"},
    )
    assert env.agent_selection == "hunter_0"
    assert AzureGreedy(seed=0).plan(env)["mode"] == "stop"
    assert moves(env) == {"stop"}


def test_monster_carrying_gold_banks_on_its_own_tile_where_a_hunters_tile_is_open_to_it():
    """With ``suit_tiles="literal"`` the monster may enter c2, on hunter_0's
    tile next to it; banking happens only on its own tile, so it heads north
    (the first version of the rule took c2 for a place to bank, and stayed
    there for good)."""
    env = azgames.make("azure", suit_tiles="literal")
    env.reset(seed=0)
    rules = env.unwrapped.rules
    env.unwrapped.set_state(
        rules.state_from_diagram(
            textwrap.dedent("""
        12  -  -  m  m  -  -
        11  -  -  m  m  -  -
        10  .  .  .  .  .  .
         9  .  .  .  .  .  .
         8  .  .  .  .  .  .
         7  .  .  .  .  .  .
         6  .  .  .  .  .  .
         5  .  .  .  .  .  .
         4  .  .  .  .  .  .
         3  .  . M5  .  .  .
         2  -  -  a  A  -  -
         1  -  -  a  a  -  -
        """),
            to_move="M",
        )
    )
    home_tile = sorted(rules.layout.parse(s) for s in ("c11", "d11", "c12", "d12"))
    assert AzureGreedy(seed=0).plan(env)["targets"] == home_tile
    assert moves(env) == {"N"}


# ---------------------------------------------------------------- whole games


@pytest.mark.parametrize("num_players, map_name", CONFIGS)
def test_greedy_plays_only_legal_actions(num_players, map_name):
    """Every position met in games where each step is the greedy agent's or
    a random one's: the greedy agent's action is legal for the actor,
    whichever side it is, and is the same for the same seed."""
    env = azgames.make("azure", num_players=num_players, map=map_name, roles="random")
    rng = np.random.default_rng(num_players)
    greedy, twin = AzureGreedy(seed=7), AzureGreedy(seed=7)
    noise = RandomAgent(seed=100 + num_players)
    checked = 0
    for game in range(4):
        env.reset(seed=game)
        share = rng.uniform(0.3, 0.9)  # how often the greedy agent's action is played
        steps = 0
        while not over(env) and steps < 250:
            mask = env.observe(env.agent_selection)["action_mask"]
            action = greedy.act(env)
            assert isinstance(action, int) and 0 <= action <= STOP and mask[action]
            assert twin.act(env) == action
            checked += 1
            env.step(action if rng.random() < share else noise.act(env))
            steps += 1
    assert checked >= 200


def test_greedy_beats_random_in_most_of_20_games():
    """Seats alternate: greedy is the monster in half the games, the hunter
    in the other half."""
    result = play_match("azure", ["greedy", "random"], num_games=20, seed=0, progress=False)
    assert result.seat_games == {"greedy": [10, 10], "random": [10, 10]}
    print(f"\n{result}")
    assert result.wins["greedy"] >= 18
    assert result.truncated == 0


@pytest.mark.parametrize("greedy_side", ["hunters", "monster"])
def test_greedy_side_beats_random_with_four_players(greedy_side):
    env = azgames.make("azure", num_players=4)
    wins = 0
    for g in range(6):
        seats = {
            a: (
                AzureGreedy(seed=g) if (a == "monster") == (greedy_side == "monster") else RandomAgent(seed=g)
            )
            for a in env.possible_agents
        }
        result = play_game(env, seats, seed=g)
        side = "monster" if greedy_side == "monster" else "hunter_0"
        wins += result["rewards"][side] > 0
    assert wins >= 5


def test_greedy_vs_greedy_finishes():
    result = play_match("azure", ["greedy", "greedy"], num_games=6, seed=3, progress=False)
    assert result.num_games == 6 and result.truncated == 0


@pytest.mark.slow
def test_greedy_beats_random_in_at_least_95_percent_of_500_games():
    result = play_match("azure", ["greedy", "random"], num_games=500, seed=0, progress=False)
    lo, hi = result.win_interval("greedy")
    print(
        f"\ngreedy vs random: {result.wins['greedy']}/500 wins (95% CI {100 * lo:.1f}-"
        f"{100 * hi:.1f}%), {result.draws['greedy']} draws, mean {result.mean_turns:.1f} turns"
        f"\n{result}"
    )
    assert result.seat_games == {"greedy": [250, 250], "random": [250, 250]}
    assert lo >= 0.95


# ---------------------------------------------------------------- registry


def test_registry_builds_the_azure_greedy_agent():
    assert isinstance(make_agent("greedy", seed=0, game="azure"), AzureGreedy)
    assert set(agent_names("azure")) == {"greedy", "random", "ppo", "mcts", "az"}


def test_greedy_refuses_a_game_other_than_azure():
    env = azgames.make("azacru")
    env.reset(seed=0)
    with pytest.raises(ValueError, match="env plays azacru; this agent plays azure"):
        AzureGreedy(seed=0).act(env)


def monster_distances(**options) -> np.ndarray:
    """The greedy kernel's steps between every two squares for the monster
    (4 players; ``inf``: no way)."""
    env = azgames.make("azure", num_players=4, **options)
    env.reset(seed=0)
    rules, st = env.unwrapped.rules, env.unwrapped.state
    S = rules.S
    enter = np.empty(S, np.bool_)
    enterable_squares(rules.tables, S, st.slot_owner, 0, 0, enter)
    dist = np.empty((S, S), np.int64)
    for a in range(S):
        distances_from(rules.tables, enter, a, dist[a], np.empty(S, np.int64))
    return np.where(dist == NO_WAY, np.inf, dist)


def test_greedy_paths_follow_the_suit_tile_rule():
    """Rule 7 read literally lets the monster cross the hunters' tiles: the
    greedy's map of distances must know it, or it plans detours the rules do
    not impose (and never plans a raid through a hunter's tile)."""
    closed, literal = monster_distances(), monster_distances(suit_tiles="literal")
    reached = np.isfinite(closed)
    assert (literal[reached] <= closed[reached]).all()
    assert np.isfinite(literal).sum() > reached.sum()  # the hunters' tiles, open to it now


def test_greedy_plays_two_users_maps_of_one_name_each_on_its_own_geometry():
    """One agent, two users' maps both named "custom", in turn: each
    decision is one the reference may choose on that map (the kernel keeps
    nothing of a map between decisions)."""
    wide = {"name": "custom", "tiles": ["M # # 1"], "homes": {"M": "a2", "1": "h1"}}
    tall = {"name": "custom", "tiles": ["M", "#", "#", "#", "1"], "homes": {"M": "a10", "1": "a1"}}
    agent = AzureGreedy(seed=0)
    for spec in (wide, tall, wide):
        env = azgames.make("azure", map=spec)
        env.reset(seed=0)
        raw = env.unwrapped
        for _ in range(10):
            mask = raw.observe(env.agent_selection)["action_mask"]
            action = agent.act(env)
            assert action in choosable_actions(raw.rules, raw.state, mask)
            env.step(action)
