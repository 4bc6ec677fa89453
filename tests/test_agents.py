"""The baseline agents (random, Azacru greedy) and the match runner.

Positions are set up with diagrams (``azacru_env/diagram.py``): row 9 at the
top, ``0``/``1`` the tile of player_0/player_1, ``.`` neutral, ``0A^`` a tile of
player_0 with player_0's piece (A) facing north.
"""

from __future__ import annotations

import math
import sys

import numba
import numpy as np
import pytest

import azgames
from azacru_env.greedy import AzacruGreedy
from azgames.agents import AGENTS, RandomAgent, agent_names, make_agent
from azgames.agents.match import (
    outcome_of,
    play_game,
    play_match,
    round_robin,
    wilson_interval,
)
from azgames.core import state as state_ops


def azacru(num_players: int = 2, **kwargs):
    env = azgames.make("azacru", num_players=num_players, **kwargs)
    env.reset(seed=0)
    return env


def from_diagram(diagram: str, to_move: str = "A", num_players: int = 2):
    env = azacru(num_players)
    env.unwrapped.set_state(env.unwrapped.rules.state_from_diagram(diagram, to_move=to_move))
    return env


def notation(env, actions) -> list[str]:
    return sorted(env.unwrapped.action_to_str(int(a)) for a in actions)


class FirstLegal:
    """A deterministic agent: always the lowest-numbered legal action."""

    name = "first"

    def __init__(self, seed=None):
        pass

    def act(self, env) -> int:
        return int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[0])


# player_0's only piece on a1 facing north; player_0 owns a1, b1, c1, a2 (four
# tiles in the south-west borderland: power 4) and a5.
CONNECTION = """
9 .   .   .   | .   .   .   | .   .   .Bv
8 .   .   .   | .   .   .   | .   .   .
7 .   .   .   | .   .   .   | .   .   .
  -----------+-------------+------------
6 .   .   .   | .   .   .   | .   .   .
5 0   .   .   | .   .   .   | .   .   .
4 .   .   .   | .   .   .   | .   .   .
  -----------+-------------+------------
3 .   .   .   | .   .   .   | .   .   .
2 0   .   .   | .   .   .   | .   .   .
1 0A^ 0   0   | .   .   .   | .   .   .
  a   b   c     d   e   f     g   h   i
"""

# The same, but a3 is player_1's tile: the connection change a1-a5 recolours it
# and so takes player_0's piece off the board (rule 3).
CONNECTION_OVER_ENEMY_TILE = CONNECTION.replace("3 .   .   .   |", "3 1   .   .   |")


# ---------------------------------------------------------------- greedy: hand-made positions


def test_greedy_plays_the_connection_change_that_gains_two_tiles():
    """Rule 3 (connection change): a1-a5 runs from own tile to own tile with no
    piece between, so a3 and a4 turn player_0's: 5 + 2 = 7 tiles. Every other
    move lands on one neutral field (6 tiles) or on own a2 (5 tiles)."""
    env = from_diagram(CONNECTION)
    greedy = AzacruGreedy(seed=0)
    values, mobility = greedy.evaluate(env)

    legal = env.unwrapped.legal_actions()
    by_move = {env.unwrapped.action_to_str(a): values[a] for a in legal}
    assert by_move["a1-a5:N"] == by_move["a1-a5:NW"] == by_move["a1-a5:NE"] == 7
    assert by_move["a1-a2:N"] == 5
    assert all(v == 6 for m, v in by_move.items() if not m.startswith(("a1-a5", "a1-a2")))
    assert np.isneginf(np.delete(values, legal)).all()

    # The three facings gain the same tiles; the mobility tie-break takes the
    # facing that leaves the piece the most legal actions.
    best = greedy.best_actions(env)
    tops = [env.unwrapped.str_to_action(m) for m in ("a1-a5:N", "a1-a5:NW", "a1-a5:NE")]
    assert list(best) == [max(tops, key=lambda a: mobility[a])]
    for seed in range(5):
        action = AzacruGreedy(seed=seed).act(env)
        assert env.unwrapped.action_to_str(action) == env.unwrapped.action_to_str(best[0])
    env.step(action)
    assert env.unwrapped.rules.scores(env.unwrapped.state)[0] == 7


def test_greedy_without_mobility_breaks_ties_at_random_among_the_best_moves():
    env = from_diagram(CONNECTION)
    picks = {AzacruGreedy(seed=s, tiebreak="random").act(env) for s in range(40)}
    assert notation(env, picks) == ["a1-a5:N", "a1-a5:NE", "a1-a5:NW"]


def test_greedy_marks_down_a_connection_change_that_loses_its_piece():
    """Rule 3: a connection change over another player's tile takes the piece
    off the board. a1-a5 would give 7 tiles (a3 and a4 recoloured) but is
    scored 7 - removal_penalty; a1-a3 lands on player_1's tile (illegal)."""
    env = from_diagram(CONNECTION_OVER_ENEMY_TILE)
    a1_a5 = env.unwrapped.str_to_action("a1-a5:N")
    assert env.unwrapped.str_to_action("a1-a3:N") not in env.unwrapped.legal_actions()

    greedy = AzacruGreedy(seed=0)
    values, mobility = greedy.evaluate(env)
    assert values[a1_a5] == 7 - greedy.removal_penalty == 6
    assert mobility[a1_a5] == 0  # player_0 has no piece left
    assert values[env.unwrapped.str_to_action("a1-a3:N")] == -np.inf
    choice = greedy.act(env)
    assert not env.unwrapped.action_to_str(choice).startswith("a1-a5")

    # Without the penalty the connection change is the unique best tile count.
    reckless = AzacruGreedy(seed=0, removal_penalty=0.0)
    assert notation(env, reckless.best_actions(env)) == ["a1-a5:N", "a1-a5:NE", "a1-a5:NW"]
    env.step(reckless.act(env))
    state = env.unwrapped.state
    assert env.unwrapped.rules.scores(state) == [7, 0]
    assert (state.piece_field[0, 0] < 0).all()


def test_greedy_passes_when_the_pass_is_its_only_action():
    """Rule 7: a piece on a1 facing south-west can go nowhere, so player_0 must pass."""
    stuck = CONNECTION.replace("1 0A^", "1 0A,")
    env = from_diagram(stuck)
    pass_action = env.unwrapped.rules.pass_action
    assert env.unwrapped.legal_actions() == [pass_action]
    greedy = AzacruGreedy(seed=0)
    assert greedy.act(env) == pass_action
    values, mobility = greedy.evaluate(env)
    assert values[pass_action] == 5 and mobility[pass_action] == 0


def test_greedy_refuses_a_game_other_than_azacru():
    class OtherRules:
        class info:
            name = "other"

    class FakeEnv:
        unwrapped = None

    fake = FakeEnv()
    fake.unwrapped = type("U", (), {"rules": OtherRules(), "agent_selection": "player_0"})()
    with pytest.raises(TypeError, match="only Azacru"):
        AzacruGreedy(seed=0).evaluate(fake)


# ---------------------------------------------------------------- greedy: the kernel against a reference


def reference_values(env, penalty: float):
    """Values and mobility computed the slow way: play each move on an env clone."""
    base = env.unwrapped
    mover = int(base.state.player[0])
    values, mobility = {}, {}
    for a in base.legal_actions():
        clone = base.clone()
        clone.step(a)
        tiles = clone.rules.scores(clone.state)[mover]
        removed = a != base.rules.pass_action and clone.state.piece_field[0, mover, a // 72] < 0
        values[a] = tiles - (penalty if removed else 0.0)
        # The mover's legal actions in the new position, as if it moved again.
        after = state_ops.clone(clone.state)
        after.player[0], after.outcome[0] = mover, 0
        probe = azgames.make("azacru", num_players=base.rules.num_players)
        probe.unwrapped.set_state(after)
        moves = probe.unwrapped.legal_actions()
        mobility[a] = 0 if moves == [base.rules.pass_action] else len(moves)
    return values, mobility


@pytest.mark.parametrize("num_players", [2, 3, 4])
def test_greedy_kernel_agrees_with_playing_each_move_on_a_clone(num_players):
    env = azacru(num_players)
    rng_agent = RandomAgent(seed=num_players)
    greedy = AzacruGreedy(seed=0, removal_penalty=2.5)
    checked = 0
    while not (env.terminations[env.agent_selection] or env.truncations[env.agent_selection]):
        if env.unwrapped.state.ply[0] % 4 == 0:
            values, mobility = greedy.evaluate(env)
            ref_values, ref_mobility = reference_values(env, 2.5)
            legal = env.unwrapped.legal_actions()
            assert {a: values[a] for a in legal} == ref_values
            assert {a: mobility[a] for a in legal} == ref_mobility
            assert np.isneginf(np.delete(values, legal)).all()
            checked += 1
        env.step(rng_agent.act(env))
    assert checked >= 5


@pytest.mark.parametrize("num_players", [2, 4])
def test_greedy_act_batch_plays_one_of_the_best_actions_of_each_game(num_players):
    """The training league's batched greedy: in every game of a vector env
    in random play, one of the actions the one-game agent ranks best."""
    venv = azgames.make_vec("azacru", num_envs=16, num_players=num_players)
    venv.reset(seed=num_players)
    env = azacru(num_players)
    greedy = AzacruGreedy(seed=0)
    for ply in range(40):
        games = np.arange(venv.num_envs)[::-1]  # any order of game indices
        chosen = greedy.act_batch(venv.rules, venv.state, venv.action_mask, games)
        for k, g in enumerate(games):
            env.unwrapped.set_state(venv.game(int(g)), check=False)
            legal = env.unwrapped.legal_actions()
            best = set(greedy.best_actions(env).tolist()) if len(legal) > 1 else set(legal)
            assert int(chosen[k]) in best, (ply, int(g))
        venv.step(venv.random_actions())
    with pytest.raises(TypeError, match="only Azacru"):
        greedy.act_batch(azgames.make_vec("azure", num_envs=1).rules, venv.state, venv.action_mask, games)


@pytest.mark.parametrize(
    "game, module", [("azacru", "azacru_env"), ("azimuth", "azimuth_env"), ("azure", "azure_env")]
)
def test_batched_greedy_compiles_one_kernel_whatever_order_the_games_come_in(game, module):
    """Games in any order (a reversed view, a slice) are copied into one
    contiguous layout: a view compiled a second kernel (22 s for Azimuth's
    greedy), the one the search's heuristic playouts already compiled."""
    import importlib

    kernel = importlib.import_module(f"{module}.greedy").greedy_batch
    venv = azgames.make_vec(game, num_envs=6, seed=0)
    venv.reset(seed=0)
    greedy = make_agent("greedy", seed=0, game=game)
    greedy.act_batch(venv.rules, venv.state, venv.action_mask, np.arange(6)[::-2])
    games_at = [i for i, t in enumerate(kernel.signatures[0]) if getattr(t, "dtype", None) == numba.int64]
    assert games_at and {sig[games_at[0]].layout for sig in kernel.signatures} == {"C"}


# ---------------------------------------------------------------- greedy vs random


def test_greedy_beats_random_in_at_least_80_percent_of_200_games():
    result = play_match("azacru", ["greedy", "random"], num_games=200, seed=0, progress=False)
    rate = result.win_rate("greedy")
    lo, hi = result.win_interval("greedy")
    print(
        f"\ngreedy vs random: {result.wins['greedy']}/200 wins = {100 * rate:.1f}% "
        f"(95% CI {100 * lo:.1f}-{100 * hi:.1f}%), {result.draws['greedy']} draws\n{result}"
    )
    assert result.seat_games == {"greedy": [100, 100], "random": [100, 100]}
    assert rate >= 0.8


# ---------------------------------------------------------------- random agent


def test_random_agent_plays_only_legal_actions_through_whole_games():
    for num_players in (2, 3, 4):
        env = azacru(num_players)  # illegal_action="raise": an illegal action would raise
        agents = [RandomAgent(seed=10 + s) for s in range(num_players)]
        while not (env.terminations[env.agent_selection] or env.truncations[env.agent_selection]):
            player = env.unwrapped.possible_agents.index(env.agent_selection)
            action = agents[player].act(env)
            assert isinstance(action, int)
            assert action in env.unwrapped.legal_actions()
            env.step(action)
        assert env.terminations[env.agent_selection]


def test_random_agent_is_reproducible_with_a_seed():
    def actions(seed):
        env = azacru()
        agent = RandomAgent(seed=seed)
        played = []
        while not (env.terminations[env.agent_selection] or env.truncations[env.agent_selection]):
            played.append(agent.act(env))
            env.step(played[-1])
        return played

    assert actions(7) == actions(7)
    assert actions(7) != actions(8)


def test_random_agent_is_uniform_over_the_legal_actions():
    env = azacru()
    legal = env.unwrapped.legal_actions()
    agent = RandomAgent(seed=0)
    draws = [agent.act(env) for _ in range(200 * len(legal))]
    counts = np.bincount(draws, minlength=env.unwrapped.rules.num_actions)
    assert set(np.flatnonzero(counts)) == set(legal)
    assert counts[legal].min() > 140 and counts[legal].max() < 260  # expected 200 each


def test_agent_registry_builds_agents_and_names_the_valid_ones():
    assert set(agent_names("azacru")) == {"greedy", "random", "ppo", "mcts", "az"}
    assert all("az" in agent_names(g) for g in ("azimuth", "azimuth_coop", "azure"))  # a network ships
    with pytest.raises(ValueError, match="unknown game 'some_other_game'"):
        agent_names("some_other_game")
    assert isinstance(make_agent("random", seed=1), RandomAgent)
    assert isinstance(make_agent("greedy", seed=1, game="azacru"), AzacruGreedy)
    with pytest.raises(ValueError, match="valid agents: random, greedy, ppo, mcts, az"):
        make_agent("minimax", game="azacru")
    with pytest.raises(ValueError, match="unknown agent 'minimax'; valid agents"):
        make_agent("minimax")
    # greedy is each game's own (Rules.baselines); az plays where a network ships
    assert set(AGENTS) == {"random", "ppo", "mcts", "az", "alphabeta"}


# ---------------------------------------------------------------- one game


def test_play_game_reports_scores_rewards_winner_and_turns():
    env = azacru()
    result = play_game(env, {"player_0": AzacruGreedy(seed=1), "player_1": RandomAgent(seed=2)}, seed=0)
    info = env.infos["player_0"]
    assert result["scores"] == info["scores"]
    assert result["turns"] == info["turns"] == int(env.unwrapped.state.ply[0])
    assert result["winners"] == info["winners"]
    assert not result["truncated"]
    scores = result["scores"]
    best = max(scores.values())
    assert result["winners"] == [a for a, s in scores.items() if s == best]
    # Rule 8, two players: +1 / -1, or 0 each for a tie.
    if len(result["winners"]) == 1:
        winner = result["winners"][0]
        loser = next(a for a in scores if a != winner)
        assert result["rewards"] == {winner: 1.0, loser: -1.0}
    else:
        assert result["rewards"] == {"player_0": 0.0, "player_1": 0.0}


def test_play_game_calls_on_move_with_the_notation_of_each_move():
    env = azacru()
    seen = []
    result = play_game(
        env,
        [RandomAgent(seed=3), RandomAgent(seed=4)],
        seed=0,
        on_move=lambda e, agent, action, text: seen.append((agent, action, text)),
    )
    assert len(seen) == result["turns"]
    record = env.unwrapped.to_record()
    assert [a for _, a, _ in seen] == record["actions"]
    assert [t for _, _, t in seen] == record["moves"]
    assert seen[0][0] == "player_0" and seen[1][0] == "player_1"


def test_play_game_counts_a_truncated_game_as_a_draw():
    env = azacru(max_turns=6)
    result = play_game(env, [RandomAgent(seed=0), RandomAgent(seed=1)], seed=0)
    assert result["truncated"] and result["turns"] == 6
    assert result["rewards"] == {"player_0": 0.0, "player_1": 0.0}
    assert outcome_of(result, "player_0") == outcome_of(result, "player_1") == "draw"


def test_play_game_needs_one_agent_per_player():
    with pytest.raises(ValueError, match="need 2 agents"):
        play_game(azacru(), [RandomAgent(0)])
    with pytest.raises(ValueError, match="exactly"):
        play_game(azacru(), {"player_0": RandomAgent(0), "player_7": RandomAgent(1)})


# ---------------------------------------------------------------- matches


def test_random_vs_random_tallies_add_up():
    result = play_match("azacru", ["random", "random"], num_games=20, seed=5, progress=False)
    assert result.names == ["random#1", "random#2"]
    a, b = result.names
    for n in (a, b):
        assert result.wins[n] + result.draws[n] + result.losses[n] == 20
        assert result.seat_games[n] == [10, 10]
    assert result.wins[a] == result.losses[b] and result.wins[b] == result.losses[a]
    assert result.draws[a] == result.draws[b]
    assert result.wins[a] + result.wins[b] + result.draws[a] == 20
    assert math.isclose(result.mean_score(a) * 20, sum(g["scores"][g_player(g, a)] for g in result.games))


def g_player(game: dict, label: str) -> str:
    return f"player_{game['seats'].index(label)}"


def test_seat_rotation_with_a_deterministic_pair():
    """Two first-legal-action agents play the same game every time, so the
    winning seat decides: each agent wins exactly the games it sits there."""
    single = play_game(azacru(), [FirstLegal(), FirstLegal()], seed=0)
    assert len(single["winners"]) == 1  # this opening game is decisive
    winning_seat = int(single["winners"][0][-1])

    agents = {"east": FirstLegal(), "west": FirstLegal()}
    rotated = play_match("azacru", agents, num_games=10, seed=1, progress=False)
    assert [g["seats"] for g in rotated.games[:3]] == [["east", "west"], ["west", "east"], ["east", "west"]]
    assert rotated.wins == {"east": 5, "west": 5} and rotated.losses == {"east": 5, "west": 5}
    for g in rotated.games:
        assert g["scores"] == single["scores"]

    fixed = play_match("azacru", agents, num_games=10, seed=1, swap_seats=False, progress=False)
    first = ["east", "west"][winning_seat]
    assert fixed.wins[first] == 10 and fixed.seat_games["east"] == [10, 0]


def test_seats_rotate_over_three_players():
    result = play_match(
        "azacru", ["greedy", "random", "random"], num_games=6, num_players=3, seed=0, progress=False
    )
    assert result.seat_games == {"greedy": [2, 2, 2], "random#1": [2, 2, 2], "random#2": [2, 2, 2]}
    assert [g["seats"][0] for g in result.games[:3]] == ["greedy", "random#1", "random#2"]
    for n in result.names:
        assert result.wins[n] + result.draws[n] + result.losses[n] == 6


def test_a_seeded_match_gives_the_same_result_twice():
    def run(seed):
        r = play_match("azacru", ["greedy", "random"], num_games=6, seed=seed, progress=False)
        return r.as_dict(), [g["scores"] for g in r.games]

    assert run(11) == run(11)
    assert run(11)[1] != run(12)[1]


def test_match_result_prints_a_table():
    result = play_match(
        "azacru", {"g": "greedy", "r": RandomAgent(seed=0)}, num_games=4, seed=0, progress=False
    )
    text = str(result)
    lines = text.splitlines()
    assert lines[0].startswith("azacru, 2 players, 4 games")
    assert "win rate" in lines[1] and "95% CI" in lines[1]
    assert lines[2].split()[:4] == [
        "g",
        str(result.wins["g"]),
        str(result.draws["g"]),
        str(result.losses["g"]),
    ]
    assert lines[3].split()[0] == "r"


def test_progress_without_tqdm_is_a_counter_on_stderr_every_10_percent(capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "tqdm", None)  # import tqdm now raises ImportError
    play_match("azacru", ["random", "random"], num_games=20, seed=0, progress=True)
    out, err = capsys.readouterr()
    assert out == ""
    counts = [line.split(" (")[0] for line in err.splitlines()]  # each line ends with the rate
    assert counts == [f"azacru: random#1 vs random#2: {n}/20 games" for n in range(2, 21, 2)]
    play_match("azacru", ["random", "random"], num_games=20, seed=0, progress=False)
    assert capsys.readouterr() == ("", "")


def test_wilson_interval_bounds_solve_the_score_equation():
    z = 1.959964
    for k, n in [(8, 10), (160, 200), (1, 50)]:
        p = k / n
        lo, hi = wilson_interval(k, n)
        assert lo < p < hi
        for q in (lo, hi):  # (p - q)^2 = z^2 q (1 - q) / n at both ends
            assert math.isclose((p - q) ** 2, z * z * q * (1 - q) / n, rel_tol=1e-9)
    assert wilson_interval(0, 20)[0] == 0.0 and wilson_interval(20, 20)[1] == 1.0
    assert wilson_interval(0, 0) == (0.0, 1.0)


def test_round_robin_plays_every_pair_and_totals_them():
    factories = {"greedy": lambda seed: AzacruGreedy(seed=seed), "random": RandomAgent, "first": FirstLegal}
    rr = round_robin("azacru", factories, num_games=4, seed=0, progress=False)
    assert set(rr.matches) == {("greedy", "random"), ("greedy", "first"), ("random", "first")}
    totals = rr.totals()
    for name in factories:
        t = totals[name]
        assert t["games"] == 8 and t["wins"] + t["draws"] + t["losses"] == 8
    for a, b in rr.matches:
        m = rr.matches[(a, b)]
        assert rr.win_rate(a, b) + rr.win_rate(b, a) + m.draws[a] / 4 == 1
    assert rr.win_rate("greedy", "greedy") is None
    text = str(rr)
    assert "win rate of row against column" in text
    assert all(name in text for name in factories)


def test_match_refuses_the_wrong_number_of_agents():
    with pytest.raises(ValueError, match="needs 2 agents"):
        play_match("azacru", ["greedy"], num_games=2, progress=False)
    with pytest.raises(ValueError, match="unknown agent 'nobody'"):
        play_match("azacru", ["nobody", "random"], num_games=2, progress=False)


def test_outcome_of_team_rewards_counts_the_whole_side_as_winners():
    """Azure Attack: every hunter of the winning side gets +1 (a win each),
    also when the turn limit lets banked gold decide; equal totals draw."""
    agents = ["monster", "hunter_0", "hunter_1"]
    side_won = {
        "winners": ["hunter_0", "hunter_1"],
        "truncated": True,
        "rewards": {"monster": -1.0, "hunter_0": 1.0, "hunter_1": 1.0},
    }
    assert [outcome_of(side_won, a) for a in agents] == ["loss", "win", "win"]
    level = {"winners": [], "truncated": False, "rewards": dict.fromkeys(agents, 0.0)}
    assert {outcome_of(level, a) for a in agents} == {"draw"}


def test_outcome_of_a_shared_first_place_is_a_draw_and_the_rest_lose():
    """Azacru, 3 players: two share the most tiles (reward 1/2 each)."""
    shared = {
        "winners": ["player_0", "player_1"],
        "truncated": False,
        "rewards": {"player_0": 0.5, "player_1": 0.5, "player_2": -1.0},
    }
    assert [outcome_of(shared, f"player_{k}") for k in range(3)] == ["draw", "draw", "loss"]


def test_the_agents_install_as_azgames_agents_not_as_a_top_level_package(tmp_path):
    """Outside a source checkout only ``azgames.agents`` exists: a top-level
    ``agents`` would collide with other packages of that name. Inside one,
    the old name still works, with a DeprecationWarning naming the new one."""
    import subprocess
    from pathlib import Path

    probe = (
        "import importlib.util, azgames.agents as a; "
        "print(a.make_agent('random', seed=0), importlib.util.find_spec('agents'))"
    )
    out = subprocess.run(
        [sys.executable, "-c", probe], cwd=tmp_path, capture_output=True, text=True, check=True
    ).stdout
    assert out.strip() == "RandomAgent() None"
    root = Path(__file__).resolve().parents[1]
    old = subprocess.run(
        [sys.executable, "-W", "error::DeprecationWarning", "-c", "import agents"],
        cwd=root,
        capture_output=True,
        text=True,
    )
    assert old.returncode != 0 and "azgames.agents" in old.stderr
