"""How strong the shipped ``az`` agents are: win rates against greedy and ``mcts``.

    python benchmarks/az_strength.py              # every shipped network, the table only
    python benchmarks/az_strength.py --save       # merged into results/az_strength.json
    python benchmarks/az_strength.py --quick      # 6 games, seed 0, 4 simulations, against greedy
    python benchmarks/az_strength.py --games azacru --opponents greedy --simulations 64 0

For each shipped network (``agents/policies/az/<game>_<n>p.npz``), each
budget of ``--simulations`` (default 64, the ``az`` agent's, and 0: the
network alone) and each opponent (default ``greedy`` and ``mcts`` at 1,000
simulations), ``--num-games`` games for each seed (default 134: 402 over
seeds 0, 1, 2; ``--jobs 3`` plays the seeds in parallel processes) are
played batched
(:func:`azgames.training.evaluate.evaluate`): the ``az`` agent searches all
the games waiting on it at once, its seat alternating over the games, the
opponent on every other seat. The co-op's network plays the whole crew
against the Ocean Die. Wins, draws and losses are pooled over the seeds;
the interval is the 95% Wilson interval of the win rate; "decisive" is wins
over wins + losses, also counted for each seat ``az`` held (Azure Attack's
monster, say, apart from its hunters).

*Seconds a move* are each side's, timed one position at a time as the AEC
env asks (``agent.act``) over the first ``--timed`` positions of one game:
the work a player thinks per move, not the batched evaluation's.

Rows are merged into the JSON (``--save``: the committed
``benchmarks/results/az_strength.json``) as soon as each is measured,
replacing only the row of the same game, players, simulations and opponent.
"""

from __future__ import annotations

import argparse
import multiprocessing
import queue
import shlex
import sys
import time
from concurrent.futures import FIRST_EXCEPTION, Executor, ProcessPoolExecutor, wait
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # also when run by path (runpy)
import results_file  # noqa: E402
import tables  # noqa: E402

COMMITTED = results_file.RESULTS / "az_strength.json"
TEAM = "Ocean Die"


def seconds_a_move(agent, game: str, players: int, timed: int, seed: int = 0) -> float:
    """The median seconds of ``agent.act`` over the first ``timed`` positions
    of a game of random moves (after one untimed move: compiling)."""
    import numpy as np

    import azgames

    env = azgames.make(game, num_players=players)
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    agent.act(env)
    times = []
    for _ in range(timed):
        if not env.agents:
            break
        began = time.perf_counter()
        agent.act(env)
        times.append(time.perf_counter() - began)
        env.step(int(rng.choice(env.unwrapped.legal_actions())))
    return float(np.median(times))


def play_seed(game: str, players: int, simulations: int, opponent: str, games: int, seed: int, ended=None):
    """One seed's games: its wins, draws and losses (a pool's job), each
    batch of games that ends counted to ``ended(n)``."""
    from azgames.agents.az.agent import shipped_network_path
    from azgames.agents.policy import NumpyPolicy
    from azgames.training.evaluate import evaluate

    policy = NumpyPolicy.load(shipped_network_path(game, players))
    run = evaluate(
        policy,
        "random" if opponent == TEAM else opponent,
        games,
        seed=seed,
        simulations=simulations,
        progress=ended,
    )
    return run.wins, run.draws, run.losses, run.by_seat


def play_in_pool(pool: Executor, jobs: list[tuple], ended) -> list:
    """``play_seed`` of every job in ``pool``, in order, counting the games
    that end in every process to ``ended`` as they end: a seed's games take
    up to an hour."""
    with multiprocessing.Manager() as manager:
        counts = manager.Queue()
        futures = [pool.submit(play_seed, *job, ended=counts.put) for job in jobs]
        running = futures
        while running:
            _, running = wait(running, timeout=1.0, return_when=FIRST_EXCEPTION)
            if any(f.done() and f.exception() for f in futures):
                break  # result() below raises it
            try:
                while True:
                    ended(counts.get_nowait())
            except queue.Empty:
                pass
        return [f.result() for f in futures]


def measure(
    game: str,
    players: int,
    simulations: int,
    opponent: str,
    games: int,
    seeds: list[int],
    timed: int,
    pool: Executor | None = None,
):
    import azgames
    from azgames.agents import make_agent
    from azgames.agents.az.agent import AZAgent, shipped_network_path
    from azgames.agents.match import wilson_interval
    from azgames.agents.policy import NumpyPolicy
    from azgames.core.progress import Progress

    policy = NumpyPolicy.load(shipped_network_path(game, players))
    team = opponent == TEAM
    jobs = [(game, players, simulations, opponent, games, seed) for seed in seeds]
    with Progress(games * len(seeds), f"az {game} {players}p, {simulations} sims vs {opponent}") as bar:
        if pool:
            runs = play_in_pool(pool, jobs, bar.update)
        else:
            runs = [play_seed(*job, ended=bar.update) for job in jobs]
    wins, draws, losses = (sum(r[k] for r in runs) for k in range(3))
    seats = azgames.make(game, num_players=players).possible_agents
    totals = [map(sum, zip(*(r[3][s] for r in runs))) for s in range(players)]
    by_seat = [
        {"seat": name, "wins": w, "draws": d, "losses": lost} for name, (w, d, lost) in zip(seats, totals)
    ]
    total = wins + draws + losses
    lo, hi = wilson_interval(wins, total)
    az_move = seconds_a_move(AZAgent(policy, simulations=simulations), game, players, timed)
    opponent_move = (
        None if team else seconds_a_move(make_agent(opponent, seed=0, game=game), game, players, timed)
    )
    return {
        "game": game,
        "players": players,
        "simulations": simulations,
        "opponent": opponent,
        "games": total,
        "wins": wins,
        "draws": draws,
        "losses": losses,
        "win_rate": wins / total,
        "win_rate_lo": lo,
        "win_rate_hi": hi,
        "decisive_win_rate": wins / (wins + losses) if wins + losses else None,
        "per_seed": [{"wins": w, "draws": d, "losses": lost} for w, d, lost, _ in runs],
        # The crew of the co-op holds every seat: no seat of its own to tell apart.
        "by_seat": None if team else by_seat,
        "seeds": seeds,
        "az_seconds_a_move": az_move,
        "opponent_seconds_a_move": opponent_move,
        "trained": policy.meta.get("trained"),
    }


def shipped() -> list[tuple[str, int]]:
    from azgames.agents.az.agent import SHIPPED

    found = []
    for path in sorted(SHIPPED.glob("*_[0-9]p.npz")):
        game, players = path.stem.rsplit("_", 1)
        found.append((game, int(players[:-1])))
    return found


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", nargs="+", default=None, help="games (default: every shipped network's)")
    parser.add_argument(
        "--players", nargs="+", type=int, default=None, help="player counts (default: all shipped)"
    )
    parser.add_argument("--simulations", nargs="+", type=int, default=[64, 0], help="budgets (default: 64 0)")
    parser.add_argument(
        "--opponents",
        nargs="+",
        default=["greedy", "mcts:simulations=1000"],
        help="agent specs of the opponents",
    )
    parser.add_argument("--num-games", type=int, default=134, help="games a seed (default: 134)")
    parser.add_argument("--seeds", nargs="+", type=int, default=[0, 1, 2])
    parser.add_argument(
        "--timed", type=int, default=20, help="positions timed for seconds a move (default: 20)"
    )
    parser.add_argument("--jobs", type=int, default=1, help="seeds played in parallel processes (default: 1)")
    parser.add_argument(
        "--quick", action="store_true", help="smoke run: 6 games, seed 0, 4 simulations, greedy"
    )
    results_file.add_arguments(parser, COMMITTED)
    args = parser.parse_args(argv)
    out = results_file.destination(parser, args, COMMITTED, quick=args.quick)
    if args.quick:
        args.num_games, args.seeds, args.simulations, args.opponents, args.timed = 6, [0], [4], ["greedy"], 2
    wanted = [
        (g, n)
        for g, n in shipped()
        if (args.games is None or g in args.games) and (args.players is None or n in args.players)
    ]
    if not wanted:
        parser.error("no shipped az network matches --games and --players")
    rows: list[dict] = []  # this run's, printed and returned
    command = "python benchmarks/az_strength.py " + " ".join(shlex.quote(a) for a in (argv or sys.argv[1:]))
    if args.jobs < 1:
        parser.error(f"--jobs must be at least 1, not {args.jobs}")
    pool = ProcessPoolExecutor(args.jobs) if args.jobs > 1 else None
    for game, players in wanted:
        from azgames.core.registry import rules_type

        team = rules_type(game).info.utility == "identical"  # one crew: it plays the game itself
        opponents = [TEAM] if team else args.opponents
        for simulations in args.simulations:
            for opponent in opponents:
                row = measure(
                    game, players, simulations, opponent, args.num_games, args.seeds, args.timed, pool
                )
                row["command"] = command
                rows.append(row)
                print(tables.az_strength({"rows": [row]}), flush=True)
                if out is not None:  # after every row: a stopped run keeps what it measured
                    results_file.merge_row(out, row, ("game", "players", "simulations", "opponent"))
    if pool:
        pool.shutdown()
    return {"rows": rows}


if __name__ == "__main__":
    main()
