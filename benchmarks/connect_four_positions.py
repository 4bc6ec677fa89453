"""Connect Four test positions: varied play, every move solved.

    python benchmarks/connect_four_positions.py [--count 1000] [--seed 0] [--out PATH]

Each position comes from a game of its own, played to a number of stones
drawn evenly from 8 to 24: each move is a uniformly random legal move with
probability 0.35, else the move of an ``alphabeta`` search of depth 1-4
(drawn per game): realistic positions, not random play's lost ones. A
position is kept if its game is on, it is new, and its legal moves do not
all have the same outcome (win, draw or loss); the solver
(``connect_four_env.solver``) gives each move's value. Progress goes to
stderr every 25 positions; the file (``connect_four_env/data/test_positions.json``
by default) is written at the end, with the seed, the spread of stone counts
and the time taken. ``connect_four_env.positions`` reads and scores it.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import azgames  # noqa: E402
from azgames.agents.alphabeta import AlphaBetaAgent  # noqa: E402
from connect_four_env import positions, solver  # noqa: E402

STONES = range(8, 25)
RANDOM_SHARE = 0.35


def one_position(rng: np.random.Generator, stones: int) -> list[int] | None:
    """The moves of a game played to ``stones`` stones (None if it ended first)."""
    searcher = AlphaBetaAgent(seed=int(rng.integers(2**31)), depth=int(rng.integers(1, 5)))
    env = azgames.make("connect_four")
    env.reset(seed=int(rng.integers(2**31)))
    moves: list[int] = []
    while len(moves) < stones:
        if all(env.terminations.values()):
            return None
        legal = env.unwrapped.legal_actions()
        a = int(rng.choice(legal)) if rng.random() < RANDOM_SHARE else searcher.act(env)
        env.step(a)
        moves.append(a)
    return None if all(env.terminations.values()) else moves


def generate(count: int, seed: int, progress: bool = True, out: Path | None = None) -> dict:
    rng = np.random.default_rng(seed)
    start = time.perf_counter()
    kept: list[dict] = []
    seen: set[str] = set()
    tried = 0
    while len(kept) < count:
        stones = STONES[len(kept) % len(STONES)]
        moves = None
        while moves is None:
            moves = one_position(rng, stones)
        tried += 1
        key = solver.board_from_moves(moves).tobytes()
        values = solver.move_values(solver.board_from_moves(moves))
        legal = values[values != solver.ILLEGAL]
        if key.hex() in seen or len({solver.outcome(int(v)) for v in legal}) < 2:
            continue
        seen.add(key.hex())
        kept.append(positions.as_record(moves, values.tolist()))
        if out is not None and len(kept) % 100 == 0:  # a long run stopped early keeps what it made
            write(out, summary(kept, seed, tried, time.perf_counter() - start))
        if progress and len(kept) % 25 == 0:
            print(
                f"{len(kept)}/{count} positions ({tried} tried), {time.perf_counter() - start:.0f} s",
                file=sys.stderr,
                flush=True,
            )
    return summary(kept, seed, tried, time.perf_counter() - start)


def summary(kept: list[dict], seed: int, tried: int, seconds: float) -> dict:
    spread = Counter(len(p["moves"]) for p in kept)
    return {
        "about": "Connect Four positions of 8-24 stones from varied play (benchmarks/connect_four_positions.py); "
        "moves: columns as digits 1-7, 1 the leftmost (Pons' notation); values: each column's score for the "
        "player to move (connect_four_env.solver: positive a win, 22 - k for a win with one's k-th stone; "
        "0 a draw; negative a loss; null a full column)",
        "seed": seed,
        "tried": tried,
        "seconds": round(seconds, 1),
        "stones": {str(k): spread[k] for k in sorted(spread)},
        "positions": kept,
    }


def write(path: Path, data: dict) -> None:
    """One position a line."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, separators=(",", ":")).replace('},{"moves"', '},\n{"moves"') + "\n")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=1000, help="positions to keep (default 1000)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, default=positions.PATH, help="the file to write")
    parser.add_argument("--quiet", action="store_true", help="no progress lines")
    args = parser.parse_args(argv)
    data = generate(args.count, args.seed, progress=not args.quiet, out=args.out)
    write(args.out, data)
    print(f"{len(data['positions'])} positions in {data['seconds']} s ({data['tried']} tried): {args.out}")
    print("stones:", data["stones"])


if __name__ == "__main__":
    main()
