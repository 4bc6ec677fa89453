"""Azure Attack baselines: the greedy agent against random play, by side.

    python benchmarks/azure_agents.py          # 500 games a row, the table only
    python benchmarks/azure_agents.py --save   # the same, replacing benchmarks/results/azure_agents.json
    python benchmarks/azure_agents.py --quick  # 20 games a row, 2 players, standard map
    python benchmarks/azure_agents.py --players 2 4 --maps standard ring --games 200

A row is one configuration (players, map) and one pairing, seats fixed by
role (``roles="fixed"``: the monster is always ``monster``, the hunters
``hunter_0..``):

- ``greedy hunters``: every hunter is :class:`azure_env.greedy.AzureGreedy`, the monster
  random (:class:`azgames.agents.RandomAgent`);
- ``greedy monster``: the monster greedy, every hunter random;
- ``greedy vs greedy``: both sides greedy (how the roles balance).

Games are scored by side, as the env rewards them: the side with more banked
gold wins (+1 to each of its agents), equal totals draw; a game cut at the
turn limit (``max_turns``, default 300) is scored the same way from the gold
banked by then and counted in ``truncated`` (as :func:`azgames.agents.match.outcome_of`
does). Wins/draws/losses are the greedy side's (the
monster's in ``greedy vs greedy``), with 95 % Wilson intervals; ``turns``
are the env's finished turns (extra turns included) per game; ``ms/move``
is the mean wall time of one greedy ``act()`` call (one step), ``p99`` its
99th percentile. Game ``g`` of a row is set up from seed ``seed + g`` (the
same set-ups in every row); each agent has its own generator seeded from
``--seed``.
"""

from __future__ import annotations

import argparse
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
from azure_env.greedy import AzureGreedy  # noqa: E402

COMMITTED = results_file.RESULTS / "azure_agents.json"
PAIRINGS = ("greedy hunters", "greedy monster", "greedy vs greedy")


class Timed:
    """Wraps an agent and records the wall time of each ``act`` call."""

    def __init__(self, agent, times: list):
        self.agent, self.times = agent, times

    def act(self, env) -> int:
        start = time.perf_counter()
        action = self.agent.act(env)
        self.times.append(time.perf_counter() - start)
        return action


def run_row(
    num_players: int, map_name: str, pairing: str, games: int, seed: int, max_turns: int, roles: str
) -> dict:
    env = azgames.make("azure", num_players=num_players, map=map_name, max_turns=max_turns, roles=roles)
    agents = env.possible_agents
    times: list[float] = []
    seeds = np.random.SeedSequence(seed).spawn(len(agents))
    greedy_side = "hunters" if pairing == "greedy hunters" else "monster"
    seats = {}
    for a, s in zip(agents, seeds):
        greedy = pairing == "greedy vs greedy" or (a == "monster") == (greedy_side == "monster")
        seats[a] = Timed(AzureGreedy(seed=s), times) if greedy else RandomAgent(seed=s)
    side_agent = "monster" if greedy_side == "monster" else "hunter_0"
    wins = draws = losses = truncated = 0
    turns, steps, own_gold, other_gold = [], [], [], []
    start = time.perf_counter()
    with Progress(games, f"{num_players}p {map_name} {pairing}") as bar:
        for g in range(games):
            env.reset(seed=seed + g)
            n = 0
            while True:
                agent = env.agent_selection
                if env.terminations[agent] or env.truncations[agent]:
                    break
                env.step(seats[agent].act(env))
                n += 1
            reward = env.rewards[side_agent]
            wins += reward > 0
            draws += reward == 0
            losses += reward < 0
            truncated += bool(env.truncations[env.agent_selection])
            info = env.infos[side_agent]
            turns.append(info["turns"])
            steps.append(n)
            monster, hunters = info["monster_total"], info["hunters_total"]
            own_gold.append(monster if greedy_side == "monster" else hunters)
            other_gold.append(hunters if greedy_side == "monster" else monster)
            bar.update()
    elapsed = time.perf_counter() - start
    t = np.array(times) * 1e3
    return {
        "players": num_players,
        "map": map_name,
        "pairing": pairing,
        "side": greedy_side,
        "games": games,
        "wins": int(wins),
        "draws": int(draws),
        "losses": int(losses),
        "win_rate": wins / games,
        "win_rate_95": list(wilson_interval(int(wins), games)),
        "draw_rate_95": list(wilson_interval(int(draws), games)),
        "loss_rate_95": list(wilson_interval(int(losses), games)),
        "truncated": int(truncated),
        "mean_turns": float(np.mean(turns)),
        "median_turns": float(np.median(turns)),
        "max_turns_seen": int(max(turns)),
        "mean_steps": float(np.mean(steps)),
        "mean_gold_side": float(np.mean(own_gold)),
        "mean_gold_other": float(np.mean(other_gold)),
        "greedy_moves": len(times),
        "ms_per_move": float(t.mean()) if len(t) else 0.0,
        "ms_per_move_p99": float(np.percentile(t, 99)) if len(t) else 0.0,
        "ms_per_move_max": float(t.max()) if len(t) else 0.0,
        "seconds": elapsed,
    }


def pct(lo_hi) -> str:
    return f"[{100 * lo_hi[0]:.1f}, {100 * lo_hi[1]:.1f}]"


def table(rows: list[dict]) -> str:
    head = (
        f"{'players':>7} {'map':<8} {'pairing':<16} {'W':>4} {'D':>3} {'L':>4} "
        f"{'win %':>6} {'win 95% CI':<14} {'loss 95% CI':<13} {'turns':>6} {'trunc':>5} "
        f"{'gold':>11} {'ms/move':>7} {'p99':>6}"
    )
    lines = [head, "-" * len(head)]
    for r in rows:
        gold = f"{r['mean_gold_side']:.1f}:{r['mean_gold_other']:.1f}"
        lines.append(
            f"{r['players']:>7} {r['map']:<8} {r['pairing']:<16} {r['wins']:>4} {r['draws']:>3} "
            f"{r['losses']:>4} {100 * r['win_rate']:>5.1f}% {pct(r['win_rate_95']):<14} "
            f"{pct(r['loss_rate_95']):<13} {r['mean_turns']:>6.1f} {r['truncated']:>5} {gold:>11} "
            f"{r['ms_per_move']:>7.3f} {r['ms_per_move_p99']:>6.3f}"
        )
    lines.append(
        "W/D/L: the greedy side's (the monster's in greedy vs greedy); gold: mean banked "
        "gold, that side : the other."
    )
    return "\n".join(lines)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=500)
    parser.add_argument("--players", type=int, nargs="+", default=[2, 3, 4])
    parser.add_argument("--maps", nargs="+", default=["standard", "long", "ring"])
    parser.add_argument("--pairings", nargs="+", default=list(PAIRINGS), choices=PAIRINGS)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--max-turns", type=int, default=300)
    parser.add_argument("--roles", default="fixed", choices=["fixed", "random"])
    parser.add_argument("--quick", action="store_true", help="20 games, 2 players, standard map")
    results_file.add_arguments(parser, COMMITTED)
    args = parser.parse_args(argv)
    out = results_file.destination(parser, args, COMMITTED, quick=args.quick)
    if args.quick:
        args.games, args.players, args.maps = 20, [2], ["standard"]
    rows = []
    for map_name in args.maps:
        for num_players in args.players:
            for pairing in args.pairings:
                rows.append(
                    run_row(num_players, map_name, pairing, args.games, args.seed, args.max_turns, args.roles)
                )
    print(table(rows))
    if out is not None:
        meta = {
            "games_per_row": args.games,
            "seed": args.seed,
            "max_turns": args.max_turns,
            "roles": args.roles,
            "python": platform.python_version(),
            "machine": platform.machine(),
            "processor": platform.processor(),
        }
        results_file.write_json(out, {"meta": meta, "rows": rows})
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
