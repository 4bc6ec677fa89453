"""The ``azgames`` command line (``python -m azgames ...``).

    python -m azgames list                      games, player counts, action spaces
    python -m azgames play                      demo: azacru, greedy vs random, rendered
    python -m azgames play azacru --players 2 --agents greedy random --seed 0 \\
        [--render ansi|none] [--every-step] [--legend] [--delay 0] [--games 1] [--record out.json]
    python -m azgames play azacru --agents human greedy     you against greedy, at the keyboard
    python -m azgames play azure --map my_map.json --roles random
    python -m azgames replay game.json [--all]  step through a saved game
    python -m azgames serve [--port 8000]       the browser app: watch, replay and play (web extra)
    python -m azgames train azacru --players 2 --minutes 10 [--steps N] [--seed 0] [--out DIR]
    python -m azgames bench [ARGS ...]          benchmarks/step_rate.py's main()

A bad argument ends the command with a one-line error and exit status 2.
"""

from __future__ import annotations

import argparse
import inspect
import math
import os
import runpy
import sys
from pathlib import Path

from . import checks
from .inputs import writable_file, writable_folder
from .registry import list_games, rules_type as registry_rules_type

REPO_ROOT = Path(__file__).resolve().parents[1]
BENCH_SCRIPT = REPO_ROOT / "benchmarks" / "step_rate.py"


def _action_sizes(rules_type) -> str:
    """``289 (2 players), 217 (3-4 players)``: sizes grouped by player count."""
    info = rules_type.info
    groups: list[tuple[int, int, int]] = []
    for n in range(info.min_players, info.max_players + 1):
        size = rules_type(n).num_actions
        if groups and groups[-1][2] == size:
            groups[-1] = (groups[-1][0], n, size)
        else:
            groups.append((n, n, size))
    return ", ".join(f"{s} ({a} players)" if a == b else f"{s} ({a}-{b} players)" for a, b, s in groups)


def cmd_list(args) -> int:
    from azgames.agents import agent_names

    for entry in list_games():
        rules_type = registry_rules_type(entry.name)
        info = rules_type.info
        players = (f"{info.min_players}" if info.min_players == info.max_players
                   else f"{info.min_players}-{info.max_players}")
        print(f"{entry.name}: {entry.summary}")
        print(f"    players: {players}; actions: Discrete {_action_sizes(rules_type)}")
        print(f"    agents: {', '.join(agent_names(entry.name))}")
    return 0


def _agent_list(parser, game: str, names: list[str] | None, players: int) -> list[str]:
    from azgames.agents import agent_names

    if names is None:  # the demo: greedy (where it exists) against random
        first = "greedy" if "greedy" in agent_names(game) else "random"
        return [first] + ["random"] * (players - 1)
    _check_agents(parser, game, names, players, humans=True)
    if len(names) == 1:
        return names * players
    if len(names) != players:
        parser.error(f"--agents: give one agent per player ({players}) or a single agent for all, "
                     f"got {len(names)}")
    return names


def _check_agents(parser, game: str, specs: list[str], players: int, humans: bool = False) -> None:
    """Build every agent spec once, so that every option is checked (by
    ``make_agent``, the one parser of every command) before the first move."""
    from azgames.agents import make_agent

    for spec in specs:
        if spec == HUMAN and humans:
            continue
        try:
            agent = make_agent(spec, game=game)
            if hasattr(agent, "policy_for"):  # a trained policy: of this player count too
                agent.policy_for(players)
        except (OSError, ValueError) as e:
            hint = f"for {game}; {HUMAN}," if humans else f"for {game};"
            parser.error(str(e).replace(f"for {game};", hint))


def _check(parser, check, *args):
    """``check(*args)`` (an :mod:`azgames.checks` or :mod:`azgames.inputs`
    check), its refusal as a one-line usage error."""
    try:
        return check(*args)
    except (TypeError, ValueError) as e:
        parser.error(str(e))


def _result_line(result: dict, labels: dict[str, str]) -> str:
    scores = ", ".join(f"{a} {s}" for a, s in result["scores"].items())
    turns = result["turns"]
    rewards = result["rewards"]
    if not any(rewards.values()) and (result["truncated"] or not result["winners"]):
        ended = "turn limit reached" if result["truncated"] else "draw"
        return f"Result: {ended} after {turns} turns, no winner (scores: {scores})"
    head = "Result: turn limit reached; " if result["truncated"] else "Result: "
    if len(rewards) > 1 and len(set(rewards.values())) == 1:  # one team (a co-op game)
        verdict = "the team wins" if next(iter(rewards.values())) > 0 else "the team loses"
        return f"{head}{verdict} after {turns} turns (scores: {scores})"
    winners = result["winners"]
    parts = [f"{w} ({labels[w]})" for w in winners]
    named = parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]
    if all(rewards[w] >= 1.0 for w in winners):  # a sole winner, or a whole side
        return f"{head}{named} {'wins' if len(winners) == 1 else 'win'} after {turns} turns (scores: {scores})"
    return f"{head}draw between {named} after {turns} turns (scores: {scores})"


#: The ``--agents`` name of a seat played at the keyboard (not a registered
#: agent: a tournament or a training run cannot wait for a person).
HUMAN = "human"

#: The longest wait after a turn (``play --delay``): an hour is a typo already.
MAX_DELAY = 3600.0

#: What a training run writes into its folder (``train --out``): a folder
#: holding any of them is another run's, kept unless ``--force``.
RUN_FILES = ("policy.npz", "policy.json", "train.csv", "eval.csv")
TOURNAMENT_FILES = ("tournament.json", "ratings.png")

#: Game options the command line sets, and the games that take them.
GAME_OPTIONS = {"map": {"azure"}, "roles": {"azure"}}


def _game_options(parser, args) -> dict:
    options = {}
    for name, games in GAME_OPTIONS.items():
        value = getattr(args, name)
        if value is None:
            continue
        if args.game not in games:
            parser.error(f"--{name} is an option of {', '.join(sorted(games))}, not of {args.game}")
        options[name] = value
    return options


def _checked_rules_type(parser, args):
    """The game's rules class, once ``--players`` is known to suit it."""
    rules_type = registry_rules_type(args.game)
    info = rules_type.info
    if not info.min_players <= args.players <= info.max_players:
        parser.error(f"--players {args.players}: {args.game} is for "
                     f"{info.min_players}-{info.max_players} players")
    return rules_type


def cmd_play(args, parser) -> int:
    import numpy as np

    import azgames
    from azgames.agents import make_agent
    from azgames.agents.match import play_match
    from azgames.terminal import Console, play_in_terminal

    _checked_rules_type(parser, args)
    if args.games < 1:
        parser.error(f"--games {args.games}: play at least one game")
    _check(parser, checks.seed, "--seed", args.seed)
    if not (math.isfinite(args.delay) and 0 <= args.delay <= MAX_DELAY):
        parser.error(f"--delay {args.delay}: give a number of seconds from 0 to {MAX_DELAY:g}")
    if args.record is not None:  # before playing: a long match must not end in a traceback
        _check(parser, writable_file, "--record", args.record, args.force)
    names = _agent_list(parser, args.game, args.agents, args.players)
    if HUMAN in names and args.games > 1:
        parser.error(f"--games {args.games}: a human seat ({HUMAN}) plays a single game; "
                     f"leave out --games")
    try:
        env = azgames.make(args.game, num_players=args.players, **_game_options(parser, args))
    except (TypeError, ValueError) as e:
        parser.error(str(e))

    if args.games > 1:
        result = play_match(args.game, names, num_games=args.games, num_players=args.players,
                            seed=args.seed, progress=not args.quiet, env=env)
        print(result)
    else:
        seeds = np.random.SeedSequence(args.seed).spawn(args.players)
        seats = {a: None if n == HUMAN else make_agent(n, seed=s, game=args.game)
                 for a, n, s in zip(env.possible_agents, names, seeds)}
        labels = dict(zip(env.possible_agents, names))
        print(f"{args.game}: " + ", ".join(f"{a} = {n}" for a, n in labels.items())
              + f" (seed {args.seed})", flush=True)
        result = play_in_terminal(env, seats, labels, seed=args.seed, boards=args.render == "ansi",
                                  every_step=args.every_step, legend=args.legend, delay=args.delay,
                                  console=Console() if HUMAN in names else None)
        if result is not None:  # None: a human stopped the game
            print(_result_line(result, labels))
    if args.record:
        env.unwrapped.save_record(args.record)
        print(f"record of the {'last ' if args.games > 1 else ''}game saved to {args.record}")
    return 0


def cmd_replay(args, parser) -> int:
    from azgames.terminal import replay

    from .records import load_record

    try:
        env = load_record(args.record)
    except (TypeError, ValueError) as e:
        parser.error(str(e) if args.record in str(e) else f"{args.record}: {e}")
    replay(env, every=args.all, legend=args.legend)
    return 0


#: Options of one training backend only, with their defaults.
SUITE_ONLY = {"num_envs": 256, "num_steps": 64, "learning_rate": 1e-3, "mix": None,
              "league_greedy": "greedy", "init": None, "ladder": None}
RLLIB_ONLY = {"address": None, "num_env_runners": 2, "num_envs_per_env_runner": 8,
              "builtin_opponents": ["random", "greedy"]}


#: The minibatches of one PPO update (azgames.training.ppo.Config.num_minibatches).
MINIBATCHES = 4


def _check_run_arguments(parser, args) -> None:
    """What both training backends check first: the seed, the time budget
    and the evaluation interval."""
    _check(parser, checks.seed, "--seed", args.seed)
    if args.minutes is not None and not (math.isfinite(args.minutes) and args.minutes > 0):
        parser.error(f"--minutes {args.minutes}: give a number of minutes > 0")
    if args.eval_every < 0:
        parser.error(f"--eval-every {args.eval_every}: give a number of updates >= 0 (0: at the end only)")


def _run_folder(parser, args) -> str:
    """The training run's output folder, made once every other argument is
    checked: refused if it holds another run's files and --force is not given."""
    prefix = "rllib_" if args.backend == "rllib" else ""
    out = args.out or f"runs/{prefix}{args.game}_{args.players}p_seed{args.seed}"
    _check(parser, writable_folder, "--out", out, RUN_FILES, args.force)
    return out


def cmd_train(args, parser) -> int:
    rules_type = _checked_rules_type(parser, args)
    foreign, own = (SUITE_ONLY, RLLIB_ONLY) if args.backend == "rllib" else (RLLIB_ONLY, SUITE_ONLY)
    for name in foreign:
        if getattr(args, name) is not None:
            parser.error(f"--{name.replace('_', '-')} is an option of the "
                         f"{'suite' if args.backend == 'rllib' else 'rllib'} backend, not of --backend {args.backend}")
    for name, default in {**own, **foreign}.items():
        if getattr(args, name) is None:
            setattr(args, name, default)
    if args.backend == "rllib":
        return cmd_train_rllib(args, parser, rules_type)
    for name in ("steps", "num_envs", "num_steps", "eval_games", "final_eval_games"):
        if getattr(args, name) < 1:
            parser.error(f"--{name.replace('_', '-')} {getattr(args, name)}: give a number >= 1")
    _check_run_arguments(parser, args)
    if args.num_envs * args.num_steps < MINIBATCHES:
        parser.error(f"--num-envs {args.num_envs} x --num-steps {args.num_steps}: an update needs at "
                     f"least {MINIBATCHES} steps (one per minibatch)")
    if not 0 < args.learning_rate < 1:
        parser.error(f"--learning-rate {args.learning_rate}: give a step size between 0 and 1")
    # Torch's and numba's thread pools take turns on the same cores: spinning
    # threads would halve the speed (see the README's training section).
    os.environ.setdefault("OMP_WAIT_POLICY", "passive")
    try:
        from azgames.training.league import parse_mix
        from azgames.training.ppo import Config, train
    except ImportError as e:
        print(f"azgames train needs the train extra ({e.name} is missing): python -m pip install "
              f"torch==2.13.0 && python -m pip install -e \".[train]\"", file=sys.stderr)
        return 1
    try:
        mix = parse_mix(args.mix) if args.mix else None
        options = _game_options(parser, args)
        rules_type(args.players, **options)  # a bad option fails here, in one line
    except (TypeError, ValueError) as e:
        parser.error(str(e))
    try:
        from azgames.agents import make_agent, parse_agent

        name, kwargs = parse_agent(args.league_greedy)
        make_agent(name, game=args.game, **kwargs)
    except (TypeError, ValueError) as e:
        parser.error(f"--league-greedy {args.league_greedy}: {e}")
    if args.init is not None:
        from azgames.agents.policy import NumpyPolicy

        try:
            meta = NumpyPolicy.load(args.init).meta
        except (OSError, ValueError, KeyError) as e:
            parser.error(f"--init {args.init}: not a policy file ({e})")
        if (meta["game"], meta["num_players"]) != (args.game, args.players):
            parser.error(f"--init {args.init} is a policy of {meta['game']} with {meta['num_players']} "
                         f"players, not {args.game} with {args.players}")
    if args.ladder is not None:
        from azgames.tournament.ratings import ladder_ratings

        try:
            rungs = ladder_ratings(args.ladder)
        except (OSError, ValueError, KeyError) as e:
            parser.error(f"--ladder {args.ladder}: not a 2-player tournament record ({e})")
        if not set(args.eval_against) & set(rungs):
            parser.error(f"--ladder {args.ladder} rates {', '.join(rungs)}: none of the evaluation's "
                         f"opponents ({', '.join(args.eval_against)})")
    out = _run_folder(parser, args)
    cfg = Config(game=args.game, num_players=args.players, seed=args.seed, steps=args.steps,
                 minutes=args.minutes, num_envs=args.num_envs, num_steps=args.num_steps,
                 learning_rate=args.learning_rate,
                 eval_every=args.eval_every, eval_games=args.eval_games,
                 final_eval_games=args.final_eval_games, eval_against=tuple(args.eval_against),
                 league_greedy=args.league_greedy, out=out, options=options, init=args.init,
                 ladder=args.ladder,
                 progress=not args.quiet, **({"mix": mix} if mix else {}))
    record = train(cfg, argv=args.argv)
    final = record["final_evaluation"]
    print(f"trained {record['steps']:,} learner steps in {record['seconds']:.0f} s "
          f"({record['steps_per_s']:,} steps/s); over {args.final_eval_games} games: "
          + "; ".join(f"vs {o} {100 * e['win_rate']:.1f}% wins ({100 * e['win_rate_lo']:.1f}-"
                      f"{100 * e['win_rate_hi']:.1f})" for o, e in final.items()))
    print(f"policy, logs and curve in {out}/ (policy.npz plays as: PolicyAgent(NumpyPolicy.load(...)))")
    return 0


def cmd_train_rllib(args, parser, rules_type) -> int:
    for name in ("steps", "eval_games", "final_eval_games", "num_envs_per_env_runner"):
        if getattr(args, name) < 1:
            parser.error(f"--{name.replace('_', '-')} {getattr(args, name)}: give a number >= 1")
    if args.num_env_runners < 0:
        parser.error(f"--num-env-runners {args.num_env_runners}: give a number >= 0")
    _check_run_arguments(parser, args)
    try:
        options = _game_options(parser, args)
        rules_type(args.players, **options)
    except (TypeError, ValueError) as e:
        parser.error(str(e))
    _check_agents(parser, args.game, args.builtin_opponents, args.players)
    try:
        from azgames.rllib.selfplay import Config, train
    except ImportError as e:
        print(f"--backend rllib needs the rllib extra ({e.name} is missing): python -m pip install "
              f"torch==2.13.0 && python -m pip install -e \".[rllib]\"", file=sys.stderr)
        return 1
    out = _run_folder(parser, args)
    cfg = Config(game=args.game, num_players=args.players, options=options, seed=args.seed,
                 steps=args.steps, minutes=args.minutes, out=out, address=args.address,
                 num_env_runners=args.num_env_runners, num_envs_per_env_runner=args.num_envs_per_env_runner,
                 builtin_opponents=dict.fromkeys(args.builtin_opponents, 1.0),
                 eval_every=args.eval_every, eval_games=args.eval_games,
                 final_eval_games=args.final_eval_games, eval_against=tuple(args.eval_against),
                 progress=not args.quiet)
    record = train(cfg, argv=args.argv)
    print(f"trained {record['steps']:,} env steps in {record['seconds']:.0f} s "
          f"({record['steps_per_s']:,} steps/s); "
          + "; ".join(f"vs {o} {100 * e['win_rate']:.1f}% wins ({100 * e['win_rate_lo']:.1f}-"
                      f"{100 * e['win_rate_hi']:.1f})" for o, e in record["final_evaluation"].items()))
    print(f"policy, logs, curve and RLlib checkpoint in {out}/ (policy.npz plays as: "
          f"python -m azgames play {args.game} --agents ppo:path={out}/policy.npz random)")
    return 0


def cmd_tournament(args, parser) -> int:
    _checked_rules_type(parser, args)
    from azgames.tournament.run import run_tournament

    _check_agents(parser, args.game, args.agents, args.players)
    if len(set(args.agents)) != len(args.agents):
        parser.error(f"--agents: each agent once, got {' '.join(args.agents)}")
    if len(args.agents) < args.players:
        parser.error(f"--agents: a {args.players}-player tournament needs at least {args.players} "
                     f"agents, got {len(args.agents)}")
    if args.games < 1:
        parser.error(f"--games {args.games}: give a number >= 1")
    _check(parser, checks.seed, "--seed", args.seed)
    if args.players > 2 or args.game == "azimuth_coop":
        try:
            import openskill  # noqa: F401
        except ImportError:
            print("ratings of 3-4 players and teams need openskill: python -m pip install -e "
                  "\".[tournament]\"", file=sys.stderr)
            return 1
    options = _game_options(parser, args)
    _check(parser, lambda: registry_rules_type(args.game)(args.players, **options))
    # Before the first game: a bad folder must not throw the games away.
    out = _check(parser, writable_folder, "--out",
                 args.out or f"runs/tournament_{args.game}_{args.players}p", TOURNAMENT_FILES, args.force)
    result = run_tournament(args.game, args.agents, num_players=args.players, games=args.games,
                            seed=args.seed, progress=not args.quiet, env_kwargs=options)
    result.save(out / "tournament.json")
    print(result.table())
    try:
        result.plot(out / "ratings.png")
        print(f"\nevery game in {out / 'tournament.json'}; plot in {out / 'ratings.png'}")
    except ImportError:
        print(f"\nevery game in {out / 'tournament.json'} (no plot: matplotlib is not installed)")
    return 0


def cmd_bench(bench_args: list[str]) -> int:
    if not BENCH_SCRIPT.exists():
        print(f"azgames bench: the benchmark script {BENCH_SCRIPT} is missing "
              f"(it lives in the source checkout, not in an installed package)", file=sys.stderr)
        return 1
    namespace = runpy.run_path(str(BENCH_SCRIPT), run_name="step_rate")
    main = namespace.get("main")
    if main is None:
        print(f"azgames bench: {BENCH_SCRIPT} defines no main()", file=sys.stderr)
        return 1
    saved = sys.argv
    sys.argv = [str(BENCH_SCRIPT), *bench_args]
    try:
        params = inspect.signature(main).parameters
        rc = main(list(bench_args)) if params else main()
    finally:
        sys.argv = saved
    return rc if isinstance(rc, int) else 0


class _Parser(argparse.ArgumentParser):
    """argparse, with every usage error on one line (exit status 2)."""

    def error(self, message: str):
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


def _variant_options(parser) -> None:
    """The game variant options (GAME_OPTIONS) of ``train`` and ``tournament``."""
    parser.add_argument("--map", metavar="NAME|PATH", default=None, help="azure: the map")
    parser.add_argument("--roles", choices=["fixed", "random"], default=None,
                        help="azure: seats keep their roles (fixed) or draw them (random)")
    parser.set_defaults(subparser=parser)


def build_parser() -> argparse.ArgumentParser:
    games = [e.name for e in list_games()]
    parser = _Parser(
        prog="azgames",
        description="Azgames RL environments: list the games, watch or run matches of the "
                    "baseline agents, benchmark the step rate.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    sub.add_parser("list", help="the registered games with player counts and action-space sizes",
                   description="List the registered games: one-line summary, player counts, "
                               "action-space sizes and the agents that can play them.")

    play = sub.add_parser(
        "play", help="play agents against each other (default: the greedy vs random demo)",
        description="Play agents against each other. With no arguments: the demo, Azacru with "
                    "2 players, greedy vs random, seed 0, a board after every turn. With "
                    "--games N > 1 a match is played silently and its table printed.",
    )
    play.add_argument("game", nargs="?", default="azacru", choices=games,
                      help="game to play (default: azacru)")
    play.add_argument("--players", "-p", type=int, default=2, help="number of players (default: 2)")
    play.add_argument("--agents", "-a", nargs="+", metavar="AGENT", default=None,
                      help="agent per seat in seat order (or one for all seats), e.g. greedy random; "
                           f"{HUMAN}: you play that seat at the keyboard (a single game); "
                           "default: greedy then random for the other seats")
    play.add_argument("--seed", type=int, default=0, help="seed of the game(s) and the agents (default: 0)")
    play.add_argument("--render", choices=["ansi", "none"], default="ansi",
                      help="ansi: print the board after every turn (single game only); "
                           "none: print only the moves (default: ansi)")
    play.add_argument("--every-step", action="store_true",
                      help="a line and a board after every step, not every turn (an Azure Attack "
                           "turn is several steps)")
    play.add_argument("--legend", action="store_true", help="print what the board's symbols mean first")
    play.add_argument("--delay", type=float, default=0.0,
                      help="seconds to wait after each agent's turn of a single game (default: 0)")
    play.add_argument("--games", "-n", type=int, default=1,
                      help="number of games (default: 1); more than 1 plays a match (seats rotated "
                           "every game) and prints its table instead of rendering")
    play.add_argument("--record", metavar="PATH", default=None,
                      help="save the JSON game record of the (last) game here; "
                           "load it with azgames.load_record(PATH)")
    play.add_argument("--force", action="store_true", help="replace the --record file if it exists")
    play.add_argument("--quiet", "-q", action="store_true", help="no progress line during a match")
    play.add_argument("--map", metavar="NAME|PATH", default=None,
                      help="azure: a built-in map's name or a JSON file holding a map of your own "
                           "(docs/rules/azure.md)")
    play.add_argument("--roles", choices=["fixed", "random"], default=None,
                      help="azure: seats keep their roles (fixed) or draw them (random)")

    replay = sub.add_parser(
        "replay", help="step through a saved game (a record from play --record or save_record)",
        description="Show a game record's positions one at a time, each with the step that led "
                    "there: Enter for the next, b to go back, a number to jump to that ply, q to "
                    "quit. The record is replayed and checked first.",
    )
    replay.add_argument("record", metavar="RECORD.json", help="the game record")
    replay.add_argument("--all", action="store_true",
                        help="print every position at once, without waiting for keys (for a pipe)")
    replay.add_argument("--legend", action="store_true", help="print what the board's symbols mean first")
    replay.set_defaults(subparser=replay)

    from azgames.web.cli import add_arguments as add_serve_arguments

    serve = sub.add_parser("serve", help="the browser app: watch, replay and play games (the web extra)",
                           description="Start a local web server and open its page, where a person "
                                       "watches live matches, replays records and plays any game.")
    add_serve_arguments(serve)

    train = sub.add_parser(
        "train", help="train a policy by self-play (masked PPO; needs the train extra)",
        description="Train a policy for one seat by masked PPO against a league of its own "
                    "snapshots and the baselines (azgames.training.ppo), with a progress bar, "
                    "evaluations against random and greedy, train.csv, eval.csv, curve.png, "
                    "checkpoints and the final policy.npz (it plays without torch).",
    )
    train.add_argument("game", choices=games, help="game to train on")
    train.add_argument("--players", "-p", type=int, default=2, help="number of players (default: 2)")
    train.add_argument("--steps", type=int, default=2_000_000,
                       help="learner steps, all games together (default: 2,000,000)")
    train.add_argument("--minutes", type=float, default=None,
                       help="stop after this many minutes instead (not reproducible)")
    train.add_argument("--seed", type=int, default=0, help="seed of everything (default: 0)")
    train.add_argument("--out", metavar="DIR", default=None,
                       help="output folder (default: runs/GAME_Np_seedS)")
    train.add_argument("--learning-rate", type=float, default=None,
                       help="suite: Adam's step size, annealed linearly to 0 over --steps (held with "
                            "--minutes) (default: 0.001; lower to fine-tune from --init)")
    train.add_argument("--num-envs", type=int, default=None, help="suite: games played at once (default: 256)")
    train.add_argument("--num-steps", type=int, default=None,
                       help="suite: steps per game between updates (default: 64)")
    train.add_argument("--eval-every", type=int, default=10,
                       help="updates between evaluations (default: 10; 0: at the end only)")
    train.add_argument("--eval-games", type=int, default=200,
                       help="games per opponent in each evaluation (default: 200)")
    train.add_argument("--final-eval-games", type=int, default=400,
                       help="games per opponent in the final evaluation (default: 400)")
    train.add_argument("--eval-against", nargs="+", choices=["random", "greedy"], default=["random", "greedy"],
                       help="opponents of the evaluations (default: random greedy)")
    train.add_argument("--mix", default=None,
                       help="league mix, e.g. latest=0.35,snapshots=0.25,greedy=0.2,random=0.2 "
                            "(the default; see azgames.training.league)")
    train.add_argument("--league-greedy", metavar="AGENT", default=None,
                       help="suite: the agent that plays the mix's greedy games, with options after a "
                            "colon (default: greedy; e.g. greedy:lookahead=1, Azimuth's greedy at a "
                            "tenth of the cost). Evaluations always play the default greedy")
    train.add_argument("--init", metavar="POLICY.npz", default=None,
                       help="start from this policy's weights (e.g. a run's policy.npz: train longer)")
    train.add_argument("--ladder", metavar="TOURNAMENT.json", default=None,
                       help="a 2-player tournament's record: each evaluation also places the policy "
                            "on its ratings (Elo, rating.csv)")
    train.add_argument("--backend", choices=["suite", "rllib"], default="suite",
                       help="suite: the suite's own PPO over the numba vector env (the train extra); "
                            "rllib: RLlib's PPO with a league of snapshots, locally or on a Ray "
                            "cluster (the rllib extra; see azgames.rllib) (default: suite)")
    train.add_argument("--address", default=None,
                       help="rllib: the Ray cluster to join, e.g. auto or ray://HOST:10001 "
                            "(default: RAY_ADDRESS if set, else a local Ray)")
    train.add_argument("--num-env-runners", type=int, default=None,
                       help="rllib: sampling processes (default: 2, as RLlib; 0 samples in the driver)")
    train.add_argument("--num-envs-per-env-runner", type=int, default=None,
                       help="rllib: games each sampling process steps in turn (default: 8)")
    train.add_argument("--builtin-opponents", nargs="+", metavar="AGENT", default=None,
                       help="rllib: the baselines that play half the games, equally often, e.g. "
                            "random greedy ppo mcts:simulations=50 (default: random greedy)")
    train.add_argument("--force", action="store_true",
                       help="write into an --out folder that holds another run's files, replacing them")
    train.add_argument("--quiet", "-q", action="store_true", help="no progress bar")
    _variant_options(train)

    tour = sub.add_parser(
        "tournament", help="rank agents: a round robin in every seating, ratings, table, plot, JSON",
        description="Play every set of --players distinct agents in all its seatings, --games "
                    "games per set, and rate the agents: Bradley-Terry on the Elo scale for 2 "
                    "players, OpenSkill for 3-4 players and teams; random = 0. Writes "
                    "tournament.json (every game) and ratings.png.",
    )
    tour.add_argument("game", choices=games, help="game to play")
    tour.add_argument("--players", "-p", type=int, default=2, help="number of players (default: 2)")
    tour.add_argument("--agents", "-a", nargs="+", metavar="AGENT", required=True,
                      help="agents, with options after a colon: random greedy mcts:simulations=200")
    tour.add_argument("--games", "-n", type=int, default=100,
                      help="games per set of agents, spread over its seatings (default: 100)")
    tour.add_argument("--seed", type=int, default=0, help="seed of the games and agents (default: 0)")
    tour.add_argument("--out", metavar="DIR", default=None,
                      help="output folder (default: runs/tournament_GAME_Np)")
    tour.add_argument("--force", action="store_true",
                      help="write into an --out folder that holds another tournament, replacing it")
    tour.add_argument("--quiet", "-q", action="store_true", help="no progress bar")
    _variant_options(tour)

    bench = sub.add_parser("bench", help="run benchmarks/step_rate.py (source checkout only)",
                           description="Run main() of benchmarks/step_rate.py; further "
                                       "arguments are passed on to it. It prints its table and "
                                       "writes a file only when asked: --json PATH, or --save to "
                                       "replace the committed benchmarks/results/step_rate.json.")
    play.set_defaults(subparser=play)
    bench.add_argument("bench_args", nargs="*", metavar="ARG",
                       help="arguments for the benchmark, e.g. --quick (its options: bench -- --help)")
    return parser


def main(argv: list[str] | None = None) -> int:
    """Entry point of ``python -m azgames`` and the ``azgames`` script; returns the exit code."""
    try:
        return _main(argv)
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # e.g. piped into head: stop quietly
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 1


def _main(argv: list[str] | None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    if argv[:1] == ["bench"] and argv[1:] not in (["-h"], ["--help"]):
        # Everything after "bench" belongs to the benchmark, options included.
        rest = argv[1:]
        return cmd_bench(rest[1:] if rest[:1] == ["--"] else rest)
    parser = build_parser()
    args = parser.parse_args(argv)
    args.argv = argv
    if args.command == "list":
        return cmd_list(args)
    if args.command == "play":
        return cmd_play(args, args.subparser)
    if args.command == "replay":
        return cmd_replay(args, args.subparser)
    if args.command == "train":
        return cmd_train(args, args.subparser)
    if args.command == "tournament":
        return cmd_tournament(args, args.subparser)
    if args.command == "bench":
        return cmd_bench(args.bench_args)
    if args.command == "serve":
        from azgames.web.cli import run

        return run(args)
    parser.print_help()
    return 0


if __name__ == "__main__":
    sys.exit(main())
