"""The ``alphabeta`` agent (azgames/agents/alphabeta) on Connect Four: the
same values as plain minimax, wins in one taken, losses in one avoided,
deeper stronger, and its options checked by name."""

from __future__ import annotations

import numpy as np
import pytest

import azgames
from azgames.agents import make_agent
from azgames.agents.alphabeta import AlphaBetaAgent
from azgames.agents.alphabeta.search import WIN
from connect_four_env import solver
from connect_four_env.search import estimate


def env_after(moves: list[int]):
    env = azgames.make("connect_four")
    env.reset(seed=0)
    for a in moves:
        env.step(a)
    return env


def careful_games(count: int, seed: int, stones=(6, 10, 14, 18, 22, 26)) -> list[list[int]]:
    """Openings of a player that wins when it can, else plays at random a
    move that does not lose at once."""
    rng = np.random.default_rng(seed)
    found: list[list[int]] = []
    while len(found) < count:
        moves: list[int] = []
        while len(moves) < stones[len(found) % len(stones)]:
            pos, mask, _ = solver.bits(solver.board_from_moves(moves))
            safe = 0 if solver.can_win_next(pos, mask) else solver.non_losing_moves(pos, mask)
            columns = [c for c in range(7) if safe & solver.column_bit(c)]
            if not columns:
                break
            moves.append(int(rng.choice(columns)))
        else:
            found.append(moves)
    return found


def plain_minimax(env, root: str, depth: int, ply: int = 0, r: float = 0.0) -> float:
    """The search's value by brute force over the AEC env: no pruning, no ordering."""
    raw = env.unwrapped
    values = []
    for a in raw.legal_actions():
        e = raw.clone()
        e.step(int(a))
        rr = r + e.rewards[root]
        if all(e.terminations.values()):
            values.append(rr * (WIN - ply - 1))
        elif ply + 1 == depth:
            v = np.zeros(2)
            estimate(e.state, None, 0, v)
            values.append(rr + v[e.possible_agents.index(root)])
        else:
            values.append(plain_minimax(e, root, depth, ply + 1, rr))
    return max(values) if raw.agent_selection == root else min(values)


@pytest.mark.parametrize("depth", [1, 2, 3])
def test_the_value_is_plain_minimaxs(depth):
    for moves in careful_games(6, seed=depth, stones=(4, 9, 15)):
        env = env_after(moves)
        values = AlphaBetaAgent(depth=depth).values(env)
        assert values.max() == pytest.approx(plain_minimax(env, env.agent_selection, depth)), moves


def winning_columns(moves: list[int]) -> list[int]:
    """The columns that make four for the player to move (ValueError if the game is over)."""
    pos, mask, _ = solver.bits(solver.board_from_moves(moves))
    wins = solver.winning_cells(pos, mask) & solver.possible(mask)
    return [c for c in range(7) if wins & solver.column_bit(c)]


@pytest.mark.parametrize("depth", [1, 2, 3, 4, 6])
def test_a_win_in_one_is_taken(depth):
    rng = np.random.default_rng(depth)
    tried = 0
    for moves in careful_games(80, seed=10 + depth):
        # One more random move; keep the positions where the next mover can win at once.
        board = solver.board_from_moves(moves)
        moves = [*moves, int(rng.choice([c for c in range(7) if board[5, c] == -1]))]
        try:
            wins = winning_columns(moves)
        except ValueError:  # that move won
            continue
        if wins:
            tried += 1
            assert AlphaBetaAgent(seed=0, depth=depth).act(env_after(moves)) in wins, moves
    assert tried >= 8


@pytest.mark.parametrize("depth", [2, 3, 4])
def test_a_loss_in_one_is_avoided_where_it_can_be(depth):
    rng = np.random.default_rng(depth)
    tried = 0
    for moves in careful_games(60, seed=20 + depth):
        board = solver.board_from_moves(moves)
        moves = [*moves, int(rng.choice([c for c in range(7) if board[5, c] == -1]))]
        try:
            pos, mask, _ = solver.bits(solver.board_from_moves(moves))
        except ValueError:
            continue
        safe = solver.non_losing_moves(pos, mask)
        if solver.can_win_next(pos, mask) or not safe:
            continue
        tried += 1
        column = AlphaBetaAgent(seed=0, depth=depth).act(env_after(moves))
        assert safe & solver.column_bit(column), moves
    assert tried >= 20


def duel(deep: int, shallow: int, games: int, seed: int, opening: int = 4) -> dict[str, int]:
    """Games between two depths from ``opening`` random plies, seats swapped every game."""
    rng = np.random.default_rng(seed)
    agents = {
        "deep": AlphaBetaAgent(seed=seed, depth=deep),
        "shallow": AlphaBetaAgent(seed=seed + 1, depth=shallow),
    }
    tally = {"deep": 0, "shallow": 0, "draw": 0}
    for g in range(games):
        seats = ["deep", "shallow"] if g % 2 == 0 else ["shallow", "deep"]
        env = azgames.make("connect_four")
        env.reset(seed=g)
        ply = 0
        while not all(env.terminations.values()):
            legal = env.unwrapped.legal_actions()
            env.step(int(rng.choice(legal)) if ply < opening else agents[seats[ply % 2]].act(env))
            ply += 1
        r = [env.rewards[a] for a in env.possible_agents]
        tally["draw" if r[0] == r[1] else seats[int(r[1] > r[0])]] += 1
    return tally


def test_deeper_beats_shallower():
    tally = duel(5, 2, games=24, seed=0)
    assert tally["deep"] >= 2 * tally["shallow"] + 4, tally
    assert duel(5, 2, games=4, seed=0) == duel(5, 2, games=4, seed=0)  # deterministic for its seeds


def test_ties_are_broken_by_the_seed():
    env = env_after([])
    picks = {AlphaBetaAgent(seed=s, depth=1).act(env) for s in range(20)}
    assert picks == {3}  # the centre is best by the estimate, whatever the seed
    env = env_after([3, 3, 3, 3, 3, 3])  # symmetric: mirrored columns tie
    picks = {AlphaBetaAgent(seed=s, depth=2).act(env) for s in range(20)}
    assert len(picks) >= 2 and all(
        AlphaBetaAgent(seed=s, depth=2).act(env) == AlphaBetaAgent(seed=s, depth=2).act(env) for s in range(3)
    )


@pytest.mark.parametrize(
    "spec, words",
    [
        ("alphabeta:depth=0", "depth=0 is out of range: it must be from 1 to 12"),
        ("alphabeta:depth=13", "depth=13 is out of range: it must be from 1 to 12"),
        ("alphabeta:depth=deep", "depth='deep' must be an integer"),
        ("alphabeta:dpth=3", "unknown option 'dpth' for alphabeta; did you mean 'depth'"),
    ],
)
def test_bad_options_are_refused_by_name(spec, words):
    with pytest.raises(ValueError, match=words):
        make_agent(spec, game="connect_four")


def test_a_spec_builds_the_agent():
    agent = make_agent("alphabeta:depth=7", seed=0, game="connect_four")
    assert isinstance(agent, AlphaBetaAgent) and agent.depth == 7
