"""The ``compile`` command: fill numba's cache for chosen games, one process
per core, or clear the suite's cached kernels."""

from __future__ import annotations

import argparse
import multiprocessing
import sys
import time
from concurrent.futures import ProcessPoolExecutor, as_completed

from azgames.cli_args import game_names

from . import available_cores, clear_cache, warm_up


def register(sub: argparse._SubParsersAction) -> None:
    compile_ = sub.add_parser(
        "compile",
        help="compile the games' kernels ahead of time (numba's cache), or clear that cache",
        description="Play the first moves of each GAME (default: every game) with its AEC env, "
        "its vector env and each of its agents, in one process per core, so that numba "
        "compiles and caches every kernel they call: later processes start in about a "
        "second. For container builds, cluster nodes and CI. --clear deletes the suite's "
        "cached kernels first (a module moved or renamed leaves stale ones).",
    )
    compile_.add_argument("games", nargs="*", metavar="GAME", help=f"games: {', '.join(game_names())}")
    compile_.add_argument("--clear", action="store_true", help="delete the cached kernels first")
    compile_.add_argument(
        "--jobs", "-j", type=int, default=None, help="processes (default: one per available core)"
    )
    compile_.set_defaults(run=cmd_compile, subparser=compile_)


def cmd_compile(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    for game in args.games:
        if game not in game_names():
            parser.error(f"unknown game {game!r}; games: {', '.join(game_names())}")
    if args.jobs is not None and args.jobs < 1:
        parser.error(f"--jobs {args.jobs}: give at least 1 process")
    if args.clear:
        print(f"cleared {clear_cache()} cached kernel files", flush=True)
        if not args.games:
            return 0
    games = args.games or game_names()
    jobs = min(args.jobs or available_cores(), len(games))
    print(f"compiling {', '.join(games)} in {jobs} process(es); cached afterwards", flush=True)
    start = time.perf_counter()
    # spawn: a fresh interpreter per worker, as a user's first process would be
    with ProcessPoolExecutor(jobs, mp_context=multiprocessing.get_context("spawn")) as pool:
        running = {pool.submit(warm_up, game): game for game in games}
        failed = []
        for done in as_completed(running):
            game = running[done]
            try:
                stages = done.result()
            except Exception as e:  # one game's failure must not hide the others' results
                failed.append(game)
                print(f"  {game}: failed: {type(e).__name__}: {e}", file=sys.stderr, flush=True)
                continue
            parts = ", ".join(f"{stage} {s:.1f}" for stage, s in stages.items())
            print(f"  {game}: {sum(stages.values()):.1f} s ({parts})", flush=True)
    print(f"done in {time.perf_counter() - start:.0f} s", flush=True)
    return 1 if failed else 0
