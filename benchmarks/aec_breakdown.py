"""Where an AEC step's time goes, for games compared side by side.

    python benchmarks/aec_breakdown.py                       # azimuth vs azimuth_coop, 2 players
    python benchmarks/aec_breakdown.py --save                # the same, replacing benchmarks/results/aec_breakdown.json
    python benchmarks/aec_breakdown.py --players 4 --json out.json
    python benchmarks/aec_breakdown.py --quick               # a few seconds, for smoke tests

Random legal games are recorded first (seeded, so every part replays the
same actions), then timed in four ways, each as microseconds per action:

- ``loop``: the RL loop of ``benchmarks/step_rate.py`` (``last()``, the mask's
  legal actions, a random draw, ``step``), resets included;
- ``env``: ``reset`` and ``step`` of the AEC env alone;
- ``kernel``: the game's own calls, ``rules.initial_state`` and
  ``rules.step`` (the numba entry point, its argument passing included);
- ``reset``: ``env.reset`` alone, spread over the game's actions.

``env - kernel`` is the env's Python bookkeeping; ``loop - env`` the RL
loop's own. Each figure is the best of ``--repeats`` rounds, the games
timed in turn within each round. The figures explain a ratio of
``step_rate.py``; they are not rates to quote.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))  # also when run by path (runpy)
import results_file  # noqa: E402

COMMITTED = results_file.RESULTS / "aec_breakdown.json"
PARTS = ("loop", "env", "kernel", "reset")


def recorded_games(env, count: int, seed: int) -> list[tuple[int, list[int]]]:
    """``count`` random legal games as ``(seed, actions)``."""
    rng = random.Random(seed)
    games = []
    for k in range(count):
        env.reset(seed=seed + k)
        actions = []
        while env.legal_actions():
            a = int(rng.choice(env.legal_actions()))
            actions.append(a)
            env.step(a)
        games.append((seed + k, actions))
    return games


def timers(env, games) -> dict:
    """One function per part, each replaying ``games``."""
    from azgames.core.rng import seed_words

    rules = env.unwrapped.rules
    obs = np.empty(rules.observation_shape(0), np.int8)
    mask = np.empty(rules.num_actions, np.int8)
    rewards = np.zeros(rules.num_players, np.float32)
    draw = random.Random(0)

    def loop():
        for seed, actions in games:
            env.reset(seed=seed)
            for a in actions:
                observation = env.last()[0]
                draw.randrange(len(observation["action_mask"].nonzero()[0]))
                env.step(a)

    def env_only():
        for seed, actions in games:
            env.reset(seed=seed)
            for a in actions:
                env.step(a)

    def kernel():
        for seed, actions in games:
            state = rules.initial_state(seed_words(seed, 1))
            for a in actions:
                rules.step(state, a, obs, mask, rewards)

    def reset():
        for seed, _ in games:
            env.reset(seed=seed)

    return {"loop": loop, "env": env_only, "kernel": kernel, "reset": reset}


def run(games: list[str], players: int, num_games: int, repeats: int) -> dict:
    import azgames
    from azgames.core.progress import Progress

    setups = {}
    for game in games:
        env = azgames.make(game, num_players=players)
        recorded = recorded_games(env, num_games, seed=0)
        actions = sum(len(a) for _, a in recorded)
        setups[game] = (timers(env, recorded), actions, actions / len(recorded))
    best = {(g, p): float("inf") for g in games for p in PARTS}
    with Progress(repeats, "aec breakdown", unit="round") as bar:
        for _ in range(repeats):
            for game, (parts, actions, _) in setups.items():
                for part, fn in parts.items():
                    start = time.perf_counter()
                    fn()
                    best[game, part] = min(best[game, part], (time.perf_counter() - start) / actions * 1e6)
            bar.update()
    rows = [
        {
            "game": g,
            "num_players": players,
            "actions_per_game": setups[g][2],
            **{f"{p}_us": best[g, p] for p in PARTS},
        }
        for g in games
    ]
    return {"settings": {"games_recorded": num_games, "repeats": repeats}, "rows": rows}


def table(results: dict) -> str:
    lines = [
        "| game | players | actions a game | loop us | env us | kernel us | reset us |",
        "|---|---|---|---|---|---|---|",
    ]
    for r in results["rows"]:
        lines.append(
            f"| {r['game']} | {r['num_players']} | {r['actions_per_game']:.0f} | "
            + " | ".join(f"{r[p + '_us']:.2f}" for p in PARTS)
            + " |"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", nargs="+", default=["azimuth", "azimuth_coop"])
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument(
        "--recorded",
        type=int,
        default=200,
        help="random games recorded per game (the co-op's last ~45 actions, the base game's ~390)",
    )
    parser.add_argument("--repeats", type=int, default=7, help="rounds; each figure is the best")
    parser.add_argument("--quick", action="store_true", help="tiny run, for smoke tests")
    results_file.add_arguments(parser, COMMITTED)
    args = parser.parse_args(argv)
    out = results_file.destination(parser, args, COMMITTED, quick=args.quick)
    if args.quick:
        args.recorded, args.repeats = 2, 1
    results = run(args.games, args.players, args.recorded, args.repeats)
    print(table(results))
    if out is not None:
        results_file.write_json(out, results)
    return results


if __name__ == "__main__":
    main()
