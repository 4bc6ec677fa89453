"""The docs' results tables, rendered from ``benchmarks/results/``.

    python -m benchmarks.tables            # rewrite every table in README.md and docs/**/*.md
    python -m benchmarks.tables --check    # list the stale ones, exit 1, write nothing
    python -m benchmarks.tables FILE ...   # only these files

A table in a page sits between two markers, which a rewrite keeps::

    <!-- table: mcts_strength -->
    (anything: the rendered table replaces it; empty is fine)
    <!-- /table -->

Each table is one function of the loaded JSON (``TABLES``), and each name's
JSON is loaded by ``SOURCES``: a figure with no JSON behind it has no table.
A page naming an unknown table is an error that lists the known names.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "benchmarks" / "results"
POLICIES = ROOT / "agents" / "policies"
MARKER = re.compile(r"(<!-- table: *(\S+?) *-->)(.*?)(<!-- /table -->)", re.S)
OPENING = "<!-- table:"

# ---------------------------------------------------------------- formats


def rate(x: float) -> str:
    """Steps a second as k or M: 215k, 3.82M."""
    if x >= 1e6:
        return f"{x / 1e6:.2f}M"
    return f"{x / 1e3:.0f}k" if x >= 1e3 else f"{x:.0f}"


def count(x: float) -> str:
    return f"{x:,.0f}"


def pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def interval(lo: float, hi: float) -> str:
    """A 95% interval of a rate: 80.7-87.8%."""
    return f"{100 * lo:.1f}-{pct(hi)}"


def times(x: float) -> str:
    """A speed-up: 0.9x, 4.0x, 61x."""
    return f"{x:.0f}x" if x >= 10 else f"{x:.1f}x"


def factor(x: float) -> str:
    """A ratio to one decimal at any size: 11.8x."""
    return f"{x:.1f}x"


def signed(x: float) -> str:
    """A rating: +914, -8, and 0 unsigned."""
    text = f"{x:+.0f}"
    return "0" if text in ("+0", "-0") else text


def seeds(values: Iterable[Any]) -> str:
    return ", ".join(str(v) for v in values)


def per_seed(rates: Iterable[float]) -> str:
    """Each seed's rate in its order, one % for all: 95.8 / 95.5 / 96.5%."""
    return " / ".join(f"{100 * r:.1f}" for r in rates) + "%"


def or_dash(value: Any, form: Callable[[Any], str]) -> str:
    return "-" if value is None else form(value)


def markdown(header: list[str], rows: Iterable[list[str]]) -> str:
    lines = ["| " + " | ".join(cells) + " |" for cells in [header, *rows]]
    return "\n".join([lines[0], "|" + "---|" * len(header), *lines[1:]])


# ---------------------------------------------------------------- step rates


def _sizes(games: list[dict]) -> list[str]:
    """The vector env's N, every one any row measured, smallest first."""
    return sorted({n for g in games for n in g["vector_steps_per_s"]}, key=int)


def _reference_rows(data: dict, columns: int) -> list[list[str]]:
    """The connect-four references measured in the same run, as AEC rows."""
    names = {
        "pettingzoo_connect_four_v3_env": "PettingZoo connect_four_v3 `env()`",
        "openspiel_connect_four": "OpenSpiel connect_four (pyspiel, C++)",
    }
    reference = data.get("reference", {})
    base = reference.get("pettingzoo_connect_four_v3_env")
    rows = []
    for key, name in names.items():
        if reference.get(key) is not None and base:
            cells = [name, "2", rate(reference[key]), factor(reference[key] / base)]
            rows.append(cells + ["-"] * (columns - len(cells)))
    return rows


def step_rate(data: dict) -> str:
    """benchmarks/step_rate.py's JSON: each game and player count's AEC and
    vector rates, and the connect-four references when the run measured
    them (first-run compile times are benchmarks/cold_start.py's)."""
    games, sizes = data["games"], _sizes(data["games"])
    versus = any("aec_vs_connect_four" in g for g in games)
    header = ["game", "players", "AEC steps/s", *(["x connect-four"] if versus else [])]
    header += [f"vector N={n}" for n in sizes]
    rows = []
    for g in games:
        vector = [or_dash(g["vector_steps_per_s"].get(n), rate) for n in sizes]
        ratio = [or_dash(g.get("aec_vs_connect_four"), factor)] if versus else []
        rows.append([g["game"], str(g["num_players"]), rate(g["aec_steps_per_s"]), *ratio, *vector])
    if versus:
        rows += _reference_rows(data, len(header))
    return markdown(header, rows)


def step_rate_ratios(data: dict) -> str:
    """The co-op's rates over the base game's, from the ``vs_<game>`` ratios
    that ``step_rate.py --relative-to`` adds (medians of per-repeat ratios)."""
    rows, header = [], []
    for g in data["games"]:
        for key, ratios in g.items():
            if key.startswith("vs_"):
                sizes = sorted((k for k in ratios if k != "aec"), key=int)
                header = ["game", "over", "players", "AEC", *(f"vector N={n}" for n in sizes)]
                cells = [f"{ratios[k]:.2f}" for k in ["aec", *sizes]]
                rows.append([g["game"], key[3:], str(g["num_players"]), *cells])
    return markdown(header, rows)


def aec_breakdown(data: dict) -> str:
    """benchmarks/aec_breakdown.py: microseconds an action, piece by piece."""
    header = ["game", "players", "actions a game", "RL loop (us)", "env `reset` + `step` (us)"]
    header += ["numba entry point (us)", "`reset` (us)"]
    rows = [
        [r["game"], str(r["num_players"]), f"{r['actions_per_game']:.0f}"]
        + [f"{r[k]:.2f}" for k in ("loop_us", "env_us", "kernel_us", "reset_us")]
        for r in data["rows"]
    ]
    return markdown(header, rows)


# ---------------------------------------------------------------- baselines


def azimuth_coop_agents(data: dict) -> str:
    """benchmarks/azimuth_coop_agents.py: the greedy team's saves with each
    seed's, beside the random team's, by players and rounds."""
    teams = {(r["players"], r["rounds"], r["team"]): r for r in data["rows"]}
    header = ["players", "rounds", "greedy team wins", "95% CI", "per seed", "seeds"]
    header += ["castaways home (mean)", "random team wins"]
    rows = []
    for players, rounds, team in sorted(teams, key=lambda k: (k[1], k[0])):
        if team != "greedy":
            continue
        greedy, random = teams[(players, rounds, "greedy")], teams.get((players, rounds, "random"))
        by_seed = greedy["per_seed"]
        rows.append(
            [str(players), str(rounds), pct(greedy["win_rate"]), interval(*greedy["win_rate_95"])]
            + [per_seed(s["win_rate"] for s in by_seed.values()), seeds(by_seed)]
            + [f"{greedy['mean_home']:.2f}", or_dash(random, lambda r: f"{r['wins']} of {r['games']}")]
        )
    return markdown(header, rows)


def azure_agents(data: dict) -> str:
    """benchmarks/azure_agents.py: each pairing's result for the side named,
    its length, its gold and greedy's time a move (one seed: ``meta``)."""
    header = ["players", "map", "pairing", "side", "games", "wins / draws / losses", "wins", "95% CI"]
    header += ["turns (mean)", "truncated", "gold, side : other", "ms a greedy move"]
    rows = [
        [str(r["players"]), r["map"], r["pairing"], r["side"], str(r["games"])]
        + [f"{r['wins']} / {r['draws']} / {r['losses']}", pct(r["win_rate"]), interval(*r["win_rate_95"])]
        + [f"{r['mean_turns']:.1f}", str(r["truncated"])]
        + [f"{r['mean_gold_side']:.1f} : {r['mean_gold_other']:.1f}", f"{r['ms_per_move']:.3f}"]
        for r in data["rows"]
    ]
    return markdown(header, rows)


# ---------------------------------------------------------------- training


def learning_throughput(data: dict) -> str:
    """benchmarks/learning_throughput.py: learner and env steps a second (each
    the median of its runs), and how much faster the first row is."""
    first = data["rows"][0]
    header = ["set-up", "learner steps/s", "env steps/s", f"{first['row']} is"]
    rows = [
        [r["row"], count(r["steps_per_s"]), or_dash(r.get("env_steps_per_s"), count)]
        + ["-" if r is first else f"{times(first['steps_per_s'] / r['steps_per_s'])} as fast"]
        for r in data["rows"]
    ]
    return markdown(header, rows)


_OPPONENTS = {"random": 0, "greedy": 1}


def _trained(row: dict, lineages: dict[str, list[dict]]) -> str:
    """Minutes and steps of every run behind the row's policy: the shipped
    record's lineage when it ends in the run the row scored, else that run."""
    runs = lineages.get(f"{row['game']}_{row['players']}p") or []
    if not runs or runs[-1] != row["trained"]:
        runs = [row["trained"]]
    minutes, steps = sum(r["seconds"] for r in runs) / 60, sum(r["steps"] for r in runs) / 1e6
    return f"{minutes:.0f} min, {steps:.1f}M"


def ppo_strength(data: dict) -> str:
    """Every ``ppo_strength_*.json`` row (2 players first, then by game,
    players and opponent), with the training behind each policy."""
    rows = sorted(
        data["rows"],
        key=lambda r: (r["players"] > 2, r["game"], r["players"], _OPPONENTS.get(r["opponent"], 2)),
    )
    header = ["game", "players", "trained", "opponent", "games", "wins", "95% CI", "draws"]
    header += ["decisive wins", "per seed", "seeds"]
    return markdown(
        header,
        (
            [r["game"], str(r["players"]), _trained(r, data["lineages"]), r["opponent"], str(r["games"])]
            + [pct(r["win_rate"]), interval(r["win_rate_lo"], r["win_rate_hi"]), str(r["draws"])]
            + [or_dash(r["decisive_win_rate"], pct), per_seed(r["per_seed"]), seeds(r["seeds"])]
            for r in rows
        ),
    )


def rllib_throughput(data: dict) -> str:
    """benchmarks/rllib_throughput.py: env steps a second collecting, training
    and (derived by the benchmark) in the learner alone."""
    rows = []
    for r in data["rows"]:
        if "collection_env_steps_per_s" in r:
            keys = ("collection_env_steps_per_s", "training_env_steps_per_s", "learner_env_steps_per_s")
            rows.append([r["row"], *(count(r[k]) for k in keys)])
        elif "learner_steps_per_s" in r:  # the suite's trainer: whole iterations, learner steps beside
            training = f"{count(r['env_steps_per_s'])} ({count(r['learner_steps_per_s'])} learner steps)"
            rows.append([r["row"], "-", training, "-"])
        else:  # the env alone: collection with nothing else
            rows.append([r["row"], count(r["env_steps_per_s"]), "-", "-"])
    return markdown(["row", "collection", "training", "learner alone"], rows)


def rllib_learning(data: dict) -> str:
    """benchmarks/rllib_learning.py: each opponent's mean win rate over the
    seeds, the pooled interval, and every seed's own."""
    header = ["opponent", "mean win rate", "pooled 95% interval", *(f"seed {s}" for s in data["seeds"])]
    rows = [
        [opponent, pct(s["mean_win_rate"]), interval(s["pooled_lo"], s["pooled_hi"])]
        + [pct(x) for x in s["per_seed"]]
        for opponent, s in data["summary"].items()
    ]
    return markdown(header, rows)


# ---------------------------------------------------------------- search


def mcts_speed(data: dict) -> str:
    """benchmarks/mcts_speed.py: simulations a second, over OpenSpiel's."""
    (openspiel,) = [r for r in data["rows"] if r["game"] == "connect_four"]
    header = ["search", "simulations/s", "vs OpenSpiel", "first search (s)"]
    rows = [
        [r["name"], count(r["sims_per_s"]), times(r["sims_per_s"] / openspiel["sims_per_s"])]
        + [or_dash(r["first_search_s"], lambda s: f"{s:.1f}")]
        for r in data["rows"]
    ]
    return markdown(header, rows)


def _wins_per_seed(by_seed: list[dict]) -> str:
    """Each seed's wins of its games: 113 / 114 / 113 of 134."""
    played = [s["wins"] + s["draws"] + s["losses"] for s in by_seed]
    if len(set(played)) == 1:
        return " / ".join(str(s["wins"]) for s in by_seed) + f" of {played[0]}"
    return " / ".join(f"{s['wins']} of {n}" for s, n in zip(by_seed, played))


def mcts_strength(data: dict) -> str:
    """benchmarks/mcts_strength.py: each pairing's record, pooled over seeds."""
    header = ["game", "players", "policy", "opponent", "games", "wins", "95% CI", "draws", "losses"]
    header += ["decisive wins", "wins per seed", "seeds"]
    rows = [
        [r["game"], str(r["players"]), r.get("policy") or "-", r["opponent"], str(r["games"])]
        + [pct(r["win_rate"]), interval(r["win_rate_lo"], r["win_rate_hi"]), str(r["draws"])]
        + [str(r["losses"]), or_dash(r["decisive_win_rate"], pct), _wins_per_seed(r["per_seed"])]
        + [seeds(r["seeds"])]
        for r in data["rows"]
    ]
    return markdown(header, rows)


def side_by_side(data: dict) -> str:
    """benchmarks/side_by_side.py: two revisions' medians and the median of
    their per-pair ratios with its range."""
    header = ["measure", data["base"], data["head"], f"ratio (median of {data['pairs']} pairs)", "range"]
    rows = [
        [r["measure"], count(r["base"]), count(r["head"]), f"{r['ratio']:.3f}"]
        + [f"{r['low']:.2f}-{r['high']:.2f}"]
        for r in data["rows"]
    ]
    return markdown(header, rows)


# ---------------------------------------------------------------- the kernel contract

#: The yardstick targets: Connect Four's AEC env over PettingZoo's, its vector env over the bitboards.
CONNECT_FOUR_TARGETS = {"pettingzoo connect_four_v3": 10.0, "hand-written bitboards": 0.5}


def connect_four(data: dict) -> str:
    """benchmarks/connect_four.py: connect_four beside its peers, in one run."""
    header = ["env", "N", "beside", "connect_four steps/s", "beside it", "ratio", "target"]
    rows = []
    for r in data["rows"]:
        aim = CONNECT_FOUR_TARGETS.get(r["peer"])
        target = "-" if aim is None else f"{aim:g}x ({'met' if r['ratio'] >= aim else 'missed'})"
        rows.append(
            [
                r["env"],
                str(r["num_envs"]),
                r["peer"],
                rate(r["ours"]),
                rate(r["theirs"]),
                f"{r['ratio']:.3g}x",  # three digits: 0.495x is under a 0.5x target
                target,
            ]
        )
    return markdown(header, rows)


#: The suite's Connect Four targets (docs/training.md): (what, players' key, aim).
CONNECT_FOUR_SHARE_AIMS = {"64": 0.95, "0": 0.90}
CONNECT_FOUR_GAME_AIMS = {(0, 5): 0.90, (64, 7): 0.90}


def _c4_player(simulations: Any) -> str:
    return "network alone" if str(simulations) == "0" else f"`az`@{simulations}"


def connect_four_bench(data: dict) -> str:
    """benchmarks/connect_four_bench.py: optimal moves of the last networks, seeds pooled."""
    seeds = data["seeds"]
    rows = []
    for key, row in data["pooled"]["shares"].items():
        each = " / ".join(
            pct(s["curve"][-1]["shares"][key]["optimal"] / s["curve"][-1]["shares"][key]["positions"])
            for s in seeds
        )
        rows.append(
            [
                _c4_player(key),
                f"{pct(row['share'])} ({row['optimal']:,} of {row['positions']:,})",
                interval(row["low"], row["high"]),
                each,
            ]
        )
    return markdown(["player", "optimal moves", "95% CI", "per seed"], rows)


def connect_four_games(data: dict) -> str:
    """benchmarks/connect_four_bench.py: the last networks against alphabeta, seeds pooled."""
    rows = [
        [
            _c4_player(g["simulations"]),
            str(g["depth"]),
            f"{g['wins']} / {g['draws']} / {g['losses']}",
            "-" if g["decisive_share"] is None else pct(g["decisive_share"]),
            "-" if g["decisive_share"] is None else interval(g["low"], g["high"]),
        ]
        for g in data["pooled"]["games"]
    ]
    return markdown(["player", "`alphabeta` depth", "wins / draws / losses", "decisive wins", "95% CI"], rows)


def connect_four_targets(data: dict) -> str:
    """The Connect Four targets against the pooled bench."""
    rows = []
    for key, aim in CONNECT_FOUR_SHARE_AIMS.items():
        row = data["pooled"]["shares"][key]
        rows.append(
            [
                f"{_c4_player(key)}: optimal moves",
                f"{pct(row['share'])} ({interval(row['low'], row['high'])})",
                f"at least {pct(aim)}",
                "yes" if row["share"] >= aim else "no",
            ]
        )
    for (simulations, depth), aim in CONNECT_FOUR_GAME_AIMS.items():
        g = next(g for g in data["pooled"]["games"] if (g["simulations"], g["depth"]) == (simulations, depth))
        share = g["decisive_share"] or 0.0
        rows.append(
            [
                f"{_c4_player(simulations)} against `alphabeta:depth={depth}`, decisive games",
                f"{pct(share)} ({interval(g['low'], g['high'])})",
                f"at least {pct(aim)}",
                "yes" if share >= aim else "no",
            ]
        )
    return markdown(["target", "measured", "aim", "met"], rows)


def selfplay_scaling(data: dict) -> str:
    """benchmarks/selfplay_scaling.py: the local trainer against self-play in Ray actors."""
    local = {
        (r["game"], r["device"], r["machine"]): r["moves_per_s"] for r in data["rows"] if not r["actors"]
    }
    rows = []
    for r in data["rows"]:
        base = local.get((r["game"], r["device"], r["machine"]))
        rows.append(
            [
                r["game"],
                r["backend"],
                r["device"],
                r["machine"],
                f"{r['moves_per_s']:,}",
                f"{r['moves_per_s'] / base:.2f}x" if base else "",
                f"{r['updates_per_s']:g}",
                pct(r["learner_share"]),
                f"{r['lag']:g}",
            ]
        )
    header = [
        "game",
        "backend",
        "device",
        "machine",
        "self-play moves/s",
        "over the local trainer",
        "learner updates/s",
        "learner's share",
        "lag (versions)",
    ]
    return markdown(header, rows)


#: Actor counts the projection shows.
PROJECTED_ACTORS = (1, 2, 8, 32, 128, 512)


def selfplay_projection(data: dict) -> str:
    """What N self-play actors would give, from selfplay_scaling.json: N
    times one actor's measured rate, up to what the learner measured there
    can learn from (its updates a second x the batch / the draws a sample)."""
    from azgames.training.config import AlphaZeroConfig

    defaults = AlphaZeroConfig("")
    rows = []
    for r in data["rows"]:
        if r["actors"] != 1:
            continue
        learner = r["updates_per_s"] * defaults.batch_size / defaults.sample_reuse
        for n in PROJECTED_ACTORS:
            moves = min(n * r["moves_per_s"], learner)
            limit = "the learner" if n * r["moves_per_s"] > learner else "the actors"
            rows.append([r["game"], r["device"], f"{n:,}", f"{round(moves):,}", f"{round(learner):,}", limit])
    header = ["game", "learner on", "actors", "moves/s", "the learner's most", "limited by"]
    return markdown(header, rows)


def contention(data: dict) -> str:
    """benchmarks/contention.py: the defaults over one thread, beside busy processes."""
    header = [
        "loop",
        "game",
        "busy processes",
        "N",
        "default steps/s",
        "one thread steps/s",
        "default / one thread",
    ]
    rows = [
        [r["loop"], r["game"], str(r["busy"]), str(r["num_envs"]), rate(r["default"]), rate(r["one_thread"])]
        + [f"{r['ratio']:.2f}x"]
        for r in data["rows"]
    ]
    return markdown(header, rows)


# ---------------------------------------------------------------- cold start

#: Issue 28's targets, compile seconds (cold minus warm) of each stage.
COLD_START_TARGETS = {"aec": 5.0, "vector": 10.0, "greedy": 10.0, "mcts": 10.0}
COLD_START_STAGES = {
    "aec": "AEC env, first step",
    "vector": "vector env (64 games), first step",
    "greedy": "greedy's first move",
    "mcts": "`mcts` (50 simulations), first move",
}


def cold_start(data: dict) -> str:
    """benchmarks/cold_start.py: each stage's compile seconds (cold minus
    warm, medians over the runs), marked where it misses its target, and
    what a warm process takes."""
    stages = [s for s in COLD_START_STAGES if any(r["stage"] == s for r in data["rows"])]
    header = ["game", *(f"{COLD_START_STAGES[s]} (target {COLD_START_TARGETS[s]:.0f} s)" for s in stages)]
    header.append("warm, any stage")
    rows = []
    for game in dict.fromkeys(r["game"] for r in data["rows"]):
        cells = {r["stage"]: r for r in data["rows"] if r["game"] == game}
        shown = []
        for s in stages:
            if s not in cells:
                shown.append("-")
                continue
            compile_s = cells[s]["compile_s"]
            shown.append(f"{compile_s:.1f} s" + ("" if compile_s <= COLD_START_TARGETS[s] else " (missed)"))
        warm = [r["warm_s"] for r in cells.values()]
        rows.append([game, *shown, f"{min(warm):.1f}-{max(warm):.1f} s"])
    return markdown(header, rows)


def cold_together(data: dict) -> str:
    """benchmarks/cold_together.py: processes started together on an empty
    cache, with the compile lock and without (medians over the runs)."""
    cells = {(r["processes"], r["mode"]): r for r in data["rows"]}
    modes = list(dict.fromkeys(r["mode"] for r in data["rows"]))
    header = ["game", "processes", *(f"{m}: wall, CPU" for m in modes)]
    rows = [
        [
            game,
            str(n),
            *(
                f"{cells[n, m]['wall_s']:.1f} s, {cells[n, m]['cpu_s']:.1f} s"
                for m in modes
                if (n, m) in cells
            ),
        ]
        for game, n in dict.fromkeys((r["game"], r["processes"]) for r in data["rows"])
    ]
    return markdown(header, rows)


def cold_start_commands(data: dict) -> str:
    """benchmarks/cold_start.py: each command's seconds with an empty cache (target 2 s)."""
    return markdown(
        ["command, empty cache (target 2 s)", "seconds"],
        [[f"`python -m azgames {name}`", f"{s:.1f}"] for name, s in data["commands"].items()],
    )


def _short(function: str) -> str:
    """``azimuth_env.kernels.play`` as ``kernels.play``; numba's own as ``numba: ...``."""
    if function.startswith("numba."):
        return "numba internals"
    return function.split(".", 1)[1] if "." in function else function


def compile_profile(data: dict) -> str:
    """benchmarks/compile_profile.py: each game's stages, their compile
    seconds (the self times summed) and the functions that took the most."""
    header = ["game", "stage", "compile s", "compiles", "the largest (self s)"]
    rows = []
    for game, records in data["games"].items():
        for stage in dict.fromkeys(r["stage"] for r in records):
            mine = [r for r in records if r["stage"] == stage]
            merged: dict[str, float] = {}
            for r in mine:
                merged[_short(r["function"])] = merged.get(_short(r["function"]), 0.0) + r["self_s"]
            largest = sorted(merged.items(), key=lambda kv: -kv[1])[:3]
            named = ", ".join(f"`{f}` {t:.1f}" for f, t in largest)
            rows.append([game, stage, f"{sum(r['self_s'] for r in mine):.1f}", str(len(mine)), named])
    return markdown(header, rows)


def az_search(data: dict) -> str:
    """benchmarks/az_search.py: the batched Gumbel search's positions a
    second and the network's share of its time."""
    header = ["game", "games at once", "simulations", "positions/s", "network share of the time"]
    rows = [
        [
            r["game"],
            str(r["games"]),
            str(r["simulations"]),
            count(r["positions_per_s"]),
            f"{100 * r['network_share']:.0f}%",
        ]
        for r in data["rows"]
    ]
    return markdown(header, rows)


def az_networks(data: dict) -> str:
    """benchmarks/az_networks.py: the MLP and the conv trunks on held-out
    self-play positions, mean +- sd over seeds."""
    header = ["network", "parameters", "policy cross-entropy", "value squared error"]
    header += ["seconds to train", "ms / 256 (numpy)", "seeds"]
    rows = [
        [r["network"], f"{r['parameters']:,}"]
        + [f"{r[k]:.3f} +- {r[k + '_sd']:.3f}" for k in ("policy_loss", "value_loss")]
        + [f"{r['train_seconds']:.0f}", f"{r['forward_ms_256']:.1f}", seeds(r["seeds"])]
        for r in data["rows"]
    ]
    return markdown(header, rows)


def _minutes_in_all(record: dict) -> float:
    """Minutes of every run behind a shipped network's weights."""
    return sum(r["seconds"] for r in record.get("lineage") or []) / 60


def az_records(data: dict) -> str:
    """The shipped az networks' records (agents/policies/az/*.json): their
    self-play, and every run behind their weights (the PPO runs an --init
    started from included), with the time each took on its machine."""
    header = ["game", "players", "self-play moves", "self-play minutes", "all runs", "minutes in all"]
    header += ["machine", "last command"]
    rows = []
    for name, record in sorted(data.items()):
        game, players = name.rsplit("_", 1)
        runs = record.get("lineage") or []
        az = [r for r in runs if "--algo alphazero" in r["command"]]
        rows.append(
            [game, players.rstrip("p"), f"{sum(r['steps'] for r in az):,}"]
            + [f"{sum(r['seconds'] for r in az) / 60:.0f}", str(len(runs))]
            + [f"{_minutes_in_all(record):.0f}", record["machine"], f"`{record['command']}`"]
        )
    return markdown(header, rows)


def _by_seat(seats: list[dict]) -> str:
    """``monster 31% / hunter_0 74%``: decisive wins in each seat held."""
    return " / ".join(
        f"{s['seat']} " + (pct(s["wins"] / (s["wins"] + s["losses"])) if s["wins"] + s["losses"] else "-")
        for s in seats
    )


def az_strength(data: dict) -> str:
    """benchmarks/az_strength.py: the shipped az agents' records, pooled over
    seeds, with each side's seconds a move."""
    header = ["game", "players", "simulations", "opponent", "games", "wins", "95% CI", "draws", "losses"]
    header += [
        "decisive wins",
        "decisive wins by seat",
        "wins per seed",
        "ms a move (az / opponent)",
        "seeds",
    ]
    order = sorted(data["rows"], key=lambda r: (r["game"], r["players"], -r["simulations"], r["opponent"]))
    rows = [
        [r["game"], str(r["players"]), str(r["simulations"]), r["opponent"], str(r["games"])]
        + [pct(r["win_rate"]), interval(r["win_rate_lo"], r["win_rate_hi"]), str(r["draws"])]
        + [str(r["losses"]), or_dash(r["decisive_win_rate"], pct), or_dash(r.get("by_seat"), _by_seat)]
        + [_wins_per_seed(r["per_seed"])]
        + [
            f"{1e3 * r['az_seconds_a_move']:.2f} / "
            + or_dash(r["opponent_seconds_a_move"], lambda s: f"{1e3 * s:.2f}")
        ]
        + [seeds(r["seeds"])]
        for r in order
    ]
    return markdown(header, rows)


# ---------------------------------------------------------------- targets

#: Issue 29's aims for the shipped ``az`` agents: with 2 players, decisive
#: games against greedy and ``mcts`` at 1,000 simulations (thinking less a
#: move than it), the network alone, and Azimuth's draws; the co-op crews'
#: saves; each network's training time.
BEATS_GREEDY, BEATS_MCTS, MOST_DRAWN, SAVED, TRAINING_MINUTES = 0.90, 0.55, 0.15, 0.40, 180
MCTS = "mcts:simulations=1000"


def _decisive(row: dict) -> str:
    """``98.0% (389 of 397, 96.1-99.0%)``: wins over wins and losses, with
    their 95% Wilson interval."""
    from azgames.agents.match import wilson_interval

    decided = row["wins"] + row["losses"]
    lo, hi = wilson_interval(row["wins"], decided)
    return f"{pct(row['wins'] / decided)} ({row['wins']} of {decided}, {interval(lo, hi)})"


def _rated(r: dict) -> str:
    """``az +29.5 (+24.4 to +34.7)``: a ladder rating's agent, OpenSkill mu and interval."""
    return f"{r['name']} {r['rating']:+.1f} ({r['low']:+.1f} to {r['high']:+.1f})"


def _target(what: str, game: str, players: int, measured: str | None, aim: str, met: bool) -> list[str]:
    """A row of the targets table; ``measured`` None: no row measures it."""
    verdict = "not measured" if measured is None else ("yes" if met else "no")
    return [what, _title(game), str(players), measured or "-", aim, verdict]


def _two_player_targets(strength: dict, game: str) -> list[list[str]]:
    greedy, mcts = strength.get((game, 2, 64, "greedy")), strength.get((game, 2, 64, MCTS))
    alone = strength.get((game, 2, 0, "greedy"))
    rows = [
        _target(
            what,
            game,
            2,
            row and _decisive(row),
            f"at least {pct(aim)}",
            row and row["decisive_win_rate"] >= aim,
        )
        for what, row, aim in (
            ("`az` against greedy, decisive games", greedy, BEATS_GREEDY),
            (f"`az` against `{MCTS}`, decisive games", mcts, BEATS_MCTS),
        )
    ]
    rows.append(
        _target(
            "the network alone against greedy, decisive games",
            game,
            2,
            alone and _decisive(alone),
            "over half",
            alone and alone["wins"] > alone["losses"],
        )
    )
    if mcts:
        ms = [1e3 * mcts[k] for k in ("az_seconds_a_move", "opponent_seconds_a_move")]
        rows.append(
            _target(
                "ms a move, `az` / `mcts`", game, 2, "{:.1f} / {:.1f}".format(*ms), "`az` less", ms[0] < ms[1]
            )
        )
    if game == "azimuth":
        drawn = (
            greedy and f"{pct(greedy['draws'] / greedy['games'])} ({greedy['draws']} of {greedy['games']})"
        )
        met = greedy and greedy["draws"] / greedy["games"] <= MOST_DRAWN
        rows.append(_target("games drawn against greedy", game, 2, drawn, f"at most {pct(MOST_DRAWN)}", met))
    return rows


def az_targets(data: dict) -> str:
    """Where the shipped ``az`` agents stand against each of issue 29's
    targets: the rows of ``az_strength.json`` (64 simulations, or 0: the
    network alone), the 3-4 player ladders (``az`` and the best other agent,
    with their intervals) and the networks' records."""
    strength = {
        (r["game"], r["players"], r["simulations"], r["opponent"]): r for r in data["az_strength"]["rows"]
    }
    rows = [row for game in ("azacru", "azimuth", "azure") for row in _two_player_targets(strength, game)]
    for ladder in data["ladders"].values():
        if ladder["num_players"] >= 3 and ladder["game"] != "azimuth_coop":
            others = [r for r in ladder["ratings"] if r["name"] != "az"]
            best = max(others, key=lambda r: r["rating"])
            az = next((r for r in ladder["ratings"] if r["name"] == "az"), None)
            measured = az and f"{_rated(az)}; {_rated(best)}"
            first = az and az["rating"] > best["rating"]
            rows.append(
                _target(
                    "first on the OpenSkill ladder",
                    ladder["game"],
                    ladder["num_players"],
                    measured,
                    "`az` first",
                    first,
                )
            )
    for players in (2, 3, 4):
        crew = strength.get(("azimuth_coop", players, 64, "Ocean Die"))
        measured = crew and f"{pct(crew['win_rate'])} ({interval(crew['win_rate_lo'], crew['win_rate_hi'])})"
        met = crew and crew["win_rate"] >= SAVED
        rows.append(
            _target(
                "games saved by an `az` crew",
                "azimuth_coop",
                players,
                measured,
                f"at least {pct(SAVED)}",
                met,
            )
        )
    minutes = {name: _minutes_in_all(record) for name, record in data["records"].items()}
    longest = max(minutes, key=minutes.get)
    game, players = longest.rsplit("_", 1)
    what = "minutes of training, the longest of any shipped network"
    met = minutes[longest] <= TRAINING_MINUTES
    rows.append(
        _target(what, game, int(players[:-1]), f"{minutes[longest]:.0f}", f"at most {TRAINING_MINUTES}", met)
    )
    return markdown(["target", "game", "players", "measured", "aim", "met"], rows)


# ---------------------------------------------------------------- ladders


def _title(game: str) -> str:
    """The game's name as its registry entry writes it: Azure Attack."""
    from azgames.core.registry import list_games

    (entry,) = [e for e in list_games() if e.name == game]
    return entry.summary.split(":")[0]


def ladder(data: dict) -> str:
    """A tournament.json: its ratings, best first, each with its interval
    (``anchor`` for the agent fixed at 0, ``unknown`` where too few games
    gave it a width), games and win rate (the share of
    its games it won outright, as ``azgames tournament`` prints it)."""
    from azgames.tournament.run import TournamentResult

    played = TournamentResult(data["game"], data["num_players"], data["agents"], data["seed"], data["games"])
    won = played.win_rates()
    elo = data["method"] == "bradley-terry"
    title = _title(data["game"]) + ("" if data["num_players"] == 2 else f", {data['num_players']} players")
    header = [title, "Elo" if elo else "OpenSkill mu", "95% interval" if elo else "mu +- 2 sigma"]
    anchor = data.get("anchor", "random")  # ladders written before the field anchored at random

    def interval(r: dict) -> str:
        if r["low"] == r["high"]:  # no width: the agent fixed at 0, or too few games
            return "anchor" if r["name"] == anchor else "unknown"
        return f"{signed(r['low'])} to {signed(r['high'])}"

    rows = [
        [r["name"], signed(r["rating"]), interval(r)] + [str(r["games"]), pct(won[r["name"]])]
        for r in sorted(data["ratings"], key=lambda r: -r["rating"])
    ]
    return markdown([*header, "games", "win rate"], rows)


# ---------------------------------------------------------------- summary


def _strongest(rows: list[dict], game: str, **match: Any) -> dict | None:
    """The 2-player row of ``game`` against greedy, or else against another
    opponent (the co-op's Ocean Die), never random."""
    found = [
        r
        for r in rows
        if r["game"] == game
        and r["players"] == 2
        and r["opponent"] != "random"
        and all(r.get(k) == v for k, v in match.items())
    ]
    found.sort(key=lambda r: r["opponent"] != "greedy")
    return found[0] if found else None


def _strength(row: dict | None) -> list[str]:
    if row is None:
        return ["-", "-"]
    return [
        or_dash(row["decisive_win_rate"], pct),
        f"{pct(row['win_rate'])} ({interval(row['win_rate_lo'], row['win_rate_hi'])})",
    ]


def _summary_seeds(**rows: dict | None) -> str:
    named = {k: seeds(r["seeds"]) for k, r in rows.items() if r is not None}
    if len(set(named.values())) <= 1:
        return next(iter(named.values()), "-")
    return "; ".join(f"{k} {v}" for k, v in named.items())


def summary(data: dict) -> str:
    """One row a game and mode, 2 players: the AEC rate, the vector rate at
    the largest N measured, and the shipped ``ppo``, plain ``mcts`` and the
    shipped ``az`` at its 64 simulations against greedy (the co-op: the
    Ocean Die), with the seeds they pooled.
    Each game's rates come from the first step-rate file that has it, named
    in the row: rates of different runs (days, machines) do not compare."""
    games: dict[str, tuple[str, dict]] = {}
    for stem in ("step_rate", "step_rate_azimuth_coop"):
        for g in data[stem]["games"]:
            if g["num_players"] == 2:
                games.setdefault(g["game"], (f"{stem}.json", g))
    header = ["game", "players", "AEC steps/s", "vector steps/s (largest N)", "rates from", "opponent"]
    header += ["ppo: decisive wins", "ppo: wins (95% CI)", "mcts: decisive wins", "mcts: wins (95% CI)"]
    header += ["az: decisive wins", "az: wins (95% CI)"]
    rows = []
    for game, (source, g) in games.items():
        largest = max(g["vector_steps_per_s"], key=int)
        ppo = _strongest(data["ppo_strength"]["rows"], game)
        mcts = _strongest(data["mcts_strength"]["rows"], game, policy=None)
        opponent = (ppo or mcts or {}).get("opponent", "-")
        az = _strongest(data["az_strength"]["rows"], game, simulations=64)
        # only a figure against the same opponent shares the row
        mcts, az = (r if r is not None and r["opponent"] == opponent else None for r in (mcts, az))
        rows.append(
            [game, "2", rate(g["aec_steps_per_s"]), f"{rate(g['vector_steps_per_s'][largest])} (N={largest})"]
            + [f"`{source}`", opponent, *_strength(ppo), *_strength(mcts), *_strength(az)]
            + [_summary_seeds(ppo=ppo, mcts=mcts, az=az)]
        )
    return markdown([*header, "seeds"], rows)


# ---------------------------------------------------------------- sources


def _read(path: Path) -> Any:
    return json.loads(path.read_text())


def _file(name: str) -> Callable[[], Any]:
    return lambda: _read(RESULTS / name)


def _ppo_strength() -> dict:
    """Every ``ppo_strength_*.json`` row, and each shipped policy's lineage
    (its record's runs) for the trained column."""
    rows = [row for path in sorted(RESULTS.glob("ppo_strength_*.json")) for row in _read(path)["rows"]]
    lineages = {path.stem: _read(path).get("lineage") or [] for path in sorted(POLICIES.glob("*.json"))}
    return {"rows": rows, "lineages": lineages}


def _az_records() -> dict:
    return {p.stem: _read(p) for p in sorted((POLICIES / "az").glob("*.json"))}


def _summary() -> dict:
    return {
        "step_rate": _read(RESULTS / "step_rate.json"),
        "step_rate_azimuth_coop": _read(RESULTS / "step_rate_azimuth_coop.json"),
        "ppo_strength": _ppo_strength(),
        "mcts_strength": _read(RESULTS / "mcts_strength.json"),
        "az_strength": _read(RESULTS / "az_strength.json"),
    }


_LADDERS = sorted(path.parent.name for path in (RESULTS / "ladders").glob("*/tournament.json"))

TABLES: dict[str, Callable[[Any], str]] = {
    "summary": summary,
    "step_rate": step_rate,
    "step_rate_azimuth_coop": step_rate,
    "step_rate_azimuth_coop_ratios": step_rate_ratios,
    "aec_breakdown": aec_breakdown,
    "azimuth_coop_agents": azimuth_coop_agents,
    "azure_agents": azure_agents,
    "learning_throughput": learning_throughput,
    "ppo_strength": ppo_strength,
    "rllib_throughput": rllib_throughput,
    "rllib_learning": rllib_learning,
    "mcts_speed": mcts_speed,
    "mcts_strength": mcts_strength,
    "side_by_side_layers": side_by_side,
    "side_by_side_compile": side_by_side,
    "side_by_side_contract": side_by_side,
    "connect_four": connect_four,
    "connect_four_bench": connect_four_bench,
    "connect_four_games": connect_four_games,
    "connect_four_targets": connect_four_targets,
    "contention": contention,
    "selfplay_scaling": selfplay_scaling,
    "selfplay_projection": selfplay_projection,
    "cold_start": cold_start,
    "cold_start_commands": cold_start_commands,
    "cold_together": cold_together,
    "compile_profile": compile_profile,
    "az_search": az_search,
    "az_networks": az_networks,
    "az_strength": az_strength,
    "az_records": az_records,
    "az_targets": az_targets,
    **{f"ladder:{name}": ladder for name in _LADDERS},
}

SOURCES: dict[str, Callable[[], Any]] = {
    "summary": _summary,
    "connect_four_games": _file("connect_four_bench.json"),
    "connect_four_targets": _file("connect_four_bench.json"),
    "step_rate_azimuth_coop_ratios": _file("step_rate_azimuth_coop.json"),
    "ppo_strength": _ppo_strength,
    "side_by_side_layers": _file("side_by_side_layers.json"),
    "cold_start_commands": _file("cold_start.json"),
    "selfplay_projection": _file("selfplay_scaling.json"),
    "az_records": _az_records,
    "az_targets": lambda: {
        "az_strength": _read(RESULTS / "az_strength.json"),
        "ladders": {name: _read(RESULTS / "ladders" / name / "tournament.json") for name in _LADDERS},
        "records": _az_records(),
    },
    **{f"ladder:{name}": _file(f"ladders/{name}/tournament.json") for name in _LADDERS},
}
SOURCES.update({name: _file(f"{name}.json") for name in TABLES if name not in SOURCES})


def render(name: str) -> str:
    """The table ``name`` from its committed JSON; ValueError naming the
    known tables if there is none by that name."""
    if name not in TABLES:
        raise ValueError(f"no table named {name!r}; the known tables: {', '.join(TABLES)}")
    return TABLES[name](SOURCES[name]())


# ---------------------------------------------------------------- pages


def refresh(text: str, where: str) -> tuple[str, list[str]]:
    """``text`` with every marked table rendered afresh, and the names of
    those whose body differed (surrounding blank lines aside)."""
    stale: list[str] = []

    def fill(match: re.Match) -> str:
        opening, name, body, closing = match.groups()
        if OPENING in body:
            raise ValueError(f"{where}: the table {name!r} has no <!-- /table --> before the next table")
        try:
            table = render(name)
        except ValueError as e:
            raise ValueError(f"{where}: {e}") from None
        if body.strip() != table:
            stale.append(name)
        # Blank lines around the table keep a Markdown renderer from reading a marker as a row.
        return f"{opening}\n\n{table}\n\n{closing}"

    refreshed = MARKER.sub(fill, text)
    if text.count(OPENING) != len(MARKER.findall(text)):  # the last table left open
        raise ValueError(f"{where}: a table has no <!-- /table --> after it")
    return refreshed, stale


def pages() -> list[Path]:
    return [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]


def _shown(path: Path) -> str:
    """``path`` from the repository root when inside it, as the docs name files."""
    return str(path.resolve().relative_to(ROOT)) if path.resolve().is_relative_to(ROOT) else str(path)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("files", nargs="*", type=Path, help="the pages (default: README.md, docs/**/*.md)")
    parser.add_argument(
        "--check", action="store_true", help="list the stale tables and exit 1; write nothing"
    )
    args = parser.parse_args(argv)
    stale = []
    for path in args.files or pages():
        text = path.read_text()
        try:
            fresh, names = refresh(text, _shown(path))
        except ValueError as e:
            parser.error(str(e))
        stale += [f"{_shown(path)}: {name}" for name in names]
        if fresh != text and not args.check:
            path.write_text(fresh)
    for line in stale:
        print(f"{'stale' if args.check else 'rewrote'} {line}")
    return 1 if args.check and stale else 0


if __name__ == "__main__":
    sys.exit(main())
