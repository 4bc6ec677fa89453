"""Azimuth co-op (the Ocean Die): how often the greedy team and the random team
save all four castaways.

    python benchmarks/azimuth_coop_agents.py          # 3 seeds x 500 games a row
    python benchmarks/azimuth_coop_agents.py --save   # the same, replacing benchmarks/results/azimuth_coop_agents.json
    python benchmarks/azimuth_coop_agents.py --quick  # smoke run: 4 games per seed and row
    python benchmarks/azimuth_coop_agents.py --players 4 --rounds 10 --games 200

It prints a markdown table; ``--save`` writes the results to
benchmarks/results/azimuth_coop_agents.json, ``--json PATH`` elsewhere.

A row is one player count (2, 3, 4), one round limit (``rounds``, the team
loses when that many rounds have passed: 10, the book's, and 20) and one
team: every seat :class:`azimuth_env.coop.greedy.AzimuthCoopGreedy` (``greedy``, one policy
for every colour) or every seat :class:`azgames.agents.RandomAgent` (``random``).
Every other option is the env's default (lighthouses chosen by the colours,
red first, waves ordered by the team).

Seeds: the games of a row are split evenly over ``--seeds`` (default 0, 1, 2;
``--games`` games each, default 500, so 1500 games a row). For seed ``s``,
``SeedSequence(s)`` gives game ``g`` its env seed (``generate_state``, as
:func:`azgames.agents.match.play_match` does) and its agents' seeds (child ``g`` of
``spawn``, spawned again per seat): agents are built afresh for every game.
So both teams play the same set-ups, and the rows of one team and player
count that differ only in ``rounds`` play the same games: neither agent looks
at the rounds left, so the games agree move for move until the shorter
limit, and the games won under the shorter one are exactly those won by then
under the longer one. The script checks that (``consistent`` in the JSON).

Per row: wins (all four castaways home within the limit) with the 95 % Wilson
interval, the same per seed, the mean number of castaways home at the end
(with a normal 95 % interval) and their histogram, the shortest win seen (its
round, its actions: every step, lighthouses and wave orders included, as
``infos["turns"]``, and its colour turns), and for the greedy team the wall
time of one ``act()`` call (mean, 99th percentile, max).

The player count does not change either policy: the same policy plays every
colour, and with 2-3 players one agent object (one tie-breaking generator)
plays two colours. Rows of one team differ between player counts only in how
ties are broken, so they should agree within their intervals.
"""

from __future__ import annotations

import argparse
import math
import platform
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))  # results_file, also when run by path (runpy)

import results_file  # noqa: E402

import azgames  # noqa: E402
from azgames.agents import RandomAgent  # noqa: E402
from azgames.agents.match import wilson_interval  # noqa: E402
from azgames.core.progress import Progress  # noqa: E402
from azimuth_env.coop.greedy import AzimuthCoopGreedy  # noqa: E402

COMMITTED = results_file.RESULTS / "azimuth_coop_agents.json"
TEAMS = {"greedy": AzimuthCoopGreedy, "random": RandomAgent}


def play_one(env, seats: list, seed: int, times: list | None) -> dict:
    """One game from ``env.reset(seed=seed)``; ``times`` collects the wall
    time of each ``act`` call when given."""
    env.reset(seed=seed)
    base = env.unwrapped
    possible = env.possible_agents
    colour_turns = 0
    while True:
        agent = env.agent_selection
        if env.terminations[agent] or env.truncations[agent]:
            break
        actor = seats[possible.index(agent)]
        if times is None:
            action = actor.act(env)
        else:
            start = time.perf_counter()
            action = actor.act(env)
            times.append(time.perf_counter() - start)
        state = base.state
        colour_turns += bool(state.round[0] >= 1 and state.wave[0] < 0)
        env.step(action)
    info = env.infos[possible[0]]
    return {
        "won": len(info["winners"]) > 0,
        "home": int(info["score"]),
        "rounds": int(info["rounds"]),
        "actions": int(info["turns"]),
        "colour_turns": colour_turns,
    }


def run_row(
    num_players: int, rounds: int, team: str, seeds: list[int], games: int, bar: Progress
) -> tuple[dict, dict]:
    """One row (see the module docstring); returns it and its games per seed."""
    env = azgames.make("azimuth_coop", num_players=num_players, rounds=rounds)
    times: list[float] = []
    timed = times if team == "greedy" else None
    per_seed, played = {}, {}
    start = time.perf_counter()
    for s in seeds:
        root = np.random.SeedSequence(s)
        game_seeds = root.generate_state(games, dtype=np.uint32)
        agent_roots = root.spawn(games)
        results = []
        for g in range(games):
            seats = [TEAMS[team](seed=a) for a in agent_roots[g].spawn(num_players)]
            results.append(play_one(env, seats, int(game_seeds[g]), timed))
            bar.update(desc=f"{num_players}p r{rounds} {team} seed {s}")
        played[s] = results
        wins = sum(r["won"] for r in results)
        per_seed[str(s)] = {
            "games": games,
            "wins": wins,
            "win_rate": wins / games,
            "win_rate_95": list(wilson_interval(wins, games)),
            "mean_home": float(np.mean([r["home"] for r in results])),
        }
    every = [r for s in seeds for r in played[s]]
    n = len(every)
    wins = sum(r["won"] for r in every)
    home = np.array([r["home"] for r in every], float)
    half = 1.959964 * home.std(ddof=1) / math.sqrt(n) if n > 1 else float("nan")
    won = [
        (r["rounds"], r["actions"], r["colour_turns"], s, g)
        for s in seeds
        for g, r in enumerate(played[s])
        if r["won"]
    ]
    shortest = None
    if won:
        r_, a_, c_, s_, g_ = min(won)
        shortest = {
            "rounds": r_,
            "actions": a_,
            "colour_turns": c_,
            "seed": s_,
            "game": g_,
            "fewest_actions": min(w[1] for w in won),
        }
    t = np.array(times) * 1e3
    row = {
        "players": num_players,
        "rounds": rounds,
        "team": team,
        "games": n,
        "seeds": list(seeds),
        "wins": wins,
        "win_rate": wins / n,
        "win_rate_95": list(wilson_interval(wins, n)),
        "per_seed": per_seed,
        "mean_home": float(home.mean()),
        "mean_home_95": [max(0.0, float(home.mean() - half)), min(4.0, float(home.mean() + half))],
        "home_histogram": np.bincount(home.astype(int), minlength=5).tolist(),
        "mean_win_rounds": float(np.mean([w[0] for w in won])) if won else None,
        "shortest_win": shortest,
        "decisions": len(t),
        "ms_per_decision": float(t.mean()) if len(t) else None,
        "ms_per_decision_p99": float(np.percentile(t, 99)) if len(t) else None,
        "ms_per_decision_max": float(t.max()) if len(t) else None,
        "seconds": time.perf_counter() - start,
    }
    return row, played


def consistency(games: dict) -> list[dict]:
    """For each team and player count, and each pair of round limits
    ``r1 < r2``: are the games won under ``r1`` exactly those won within
    ``r1`` rounds under ``r2``? (see the module docstring)"""
    out = []
    keys = sorted(games)
    for p, r1, team in keys:
        for p2, r2, team2 in keys:
            if p2 != p or team2 != team or r2 <= r1:
                continue
            a, b = games[(p, r1, team)], games[(p2, r2, team2)]
            same = all([x["won"] for x in a[s]] == [y["won"] and y["rounds"] <= r1 for y in b[s]] for s in a)
            out.append({"players": p, "team": team, "rounds": [r1, r2], "consistent": bool(same)})
    return out


def pct(lo_hi) -> str:
    return f"{100 * lo_hi[0]:.1f}-{100 * lo_hi[1]:.1f}"


def table(rows: list[dict]) -> str:
    lines = [
        "| players | rounds | team | games | wins | win rate | 95% CI | per seed "
        "| mean home (95% CI) | shortest win: round / actions | ms/decision (p99) |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        seeds = " / ".join(f"{100 * v['win_rate']:.1f}%" for v in r["per_seed"].values())
        sw = r["shortest_win"]
        short = "-" if sw is None else f"{sw['rounds']} / {sw['actions']}"
        ms = (
            "-"
            if r["ms_per_decision"] is None
            else (f"{r['ms_per_decision']:.2f} ({r['ms_per_decision_p99']:.1f})")
        )
        lo, hi = r["mean_home_95"]
        lines.append(
            f"| {r['players']} | {r['rounds']} | {r['team']} | {r['games']} | {r['wins']} "
            f"| {100 * r['win_rate']:.1f}% | {pct(r['win_rate_95'])}% | {seeds} "
            f"| {r['mean_home']:.2f} ({lo:.2f}-{hi:.2f}) | {short} | {ms} |"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--players", type=int, nargs="+", default=[2, 3, 4])
    parser.add_argument("--rounds", type=int, nargs="+", default=[10, 20])
    parser.add_argument("--teams", nargs="+", choices=list(TEAMS), default=list(TEAMS))
    parser.add_argument("--seeds", type=int, nargs="+", default=[0, 1, 2])
    parser.add_argument("--games", type=int, default=500, help="games per seed and row")
    parser.add_argument("--quick", action="store_true", help="smoke run: 4 games per seed and row")
    results_file.add_arguments(parser, COMMITTED)
    parser.add_argument("--no-progress", action="store_true")
    args = parser.parse_args(argv)
    out = results_file.destination(parser, args, COMMITTED, quick=args.quick)
    if args.quick:
        args.games = 4
    total = len(args.players) * len(args.rounds) * len(args.teams) * len(args.seeds) * args.games
    bar = Progress(total, "azimuth_coop teams", not args.no_progress)
    rows, games = [], {}
    start = time.perf_counter()
    try:
        for p in args.players:
            for r in args.rounds:
                for team in args.teams:
                    row, played = run_row(p, r, team, args.seeds, args.games, bar)
                    rows.append(row)
                    games[(p, r, team)] = played
    finally:
        bar.close()
    checks = consistency(games)
    meta = {
        "games_per_seed": args.games,
        "seeds": args.seeds,
        "players": args.players,
        "rounds": args.rounds,
        "teams": args.teams,
        "env": "azimuth_coop defaults (lighthouses='choose', first_player='red', wave_order='choose')",
        "seconds": time.perf_counter() - start,
        "python": platform.python_version(),
        "machine": platform.machine(),
        "processor": platform.processor(),
    }
    results = {"meta": meta, "rows": rows, "consistency": checks}
    print(table(rows))
    bad = [c for c in checks if not c["consistent"]]
    print(
        f"\nround limits agree on the games they share: "
        f"{'yes' if not bad else 'NO: ' + repr(bad)} ({len(checks)} checks)"
    )
    if out is not None:
        results_file.write_json(out, results)
    return results


if __name__ == "__main__":
    main()
    raise SystemExit(0)
