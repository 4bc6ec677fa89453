"""The ``train`` command: self-play training by the suite's masked PPO
(:mod:`.ppo`), its Gumbel AlphaZero (``--algo alphazero``, :mod:`.alphazero`)
or, with ``--backend rllib``, by RLlib (:mod:`azgames.rllib.cli`)."""

from __future__ import annotations

import argparse
import math
import re
from typing import Any

from azgames.cli_args import add_game_options, check, checked_rules, game_names, game_options
from azgames.core import checks
from azgames.core.extras import require
from azgames.core.inputs import writable_folder

#: What a training run writes into its folder (``train --out``): a folder
#: holding any of them is another run's, kept unless ``--force``.
RUN_FILES = ("policy.npz", "policy.json", "train.csv", "eval.csv")


def register(sub: argparse._SubParsersAction) -> None:
    train = sub.add_parser(
        "train",
        help="train a policy by self-play (masked PPO or Gumbel AlphaZero; needs the train extra)",
        description="Train a policy by self-play: masked PPO for one seat against a league of "
        "its own snapshots and the baselines (azgames.training.ppo), or Gumbel AlphaZero, "
        "every move searched with the network being trained (--algo alphazero, "
        "azgames.training.alphazero). Either shows a progress "
        "bar and writes evaluations against random and greedy, train.csv, eval.csv, "
        "curve.png, checkpoints and the final policy.npz (it plays without torch; an "
        "AlphaZero network also plays as az:path=policy.npz).",
    )
    train.add_argument("game", choices=game_names(), help="game to train on")
    train.add_argument("--players", "-p", type=int, default=2, help="number of players (default: 2)")
    train.add_argument(
        "--algo",
        choices=["ppo", "alphazero"],
        default="ppo",
        help="suite: the learning algorithm (default: ppo)",
    )
    train.add_argument(
        "--steps",
        type=int,
        default=None,
        help="learner steps, all games together, rounded up to whole updates of --num-envs x "
        "--num-steps (default: 2,000,000); alphazero: moves of self-play searched, rounded up "
        "to whole rounds (default: 2,000,000)",
    )
    train.add_argument(
        "--minutes", type=float, default=None, help="stop after this many minutes instead (not reproducible)"
    )
    train.add_argument("--seed", type=int, default=0, help="seed of everything (default: 0)")
    train.add_argument(
        "--out", metavar="DIR", default=None, help="output folder (default: runs/GAME_Np_seedS)"
    )
    train.add_argument(
        "--learning-rate",
        type=float,
        default=None,
        help="suite: Adam's step size, annealed linearly to 0 over --steps (held with "
        "--minutes) (default: 0.001; lower to fine-tune from --init)",
    )
    train.add_argument(
        "--num-envs", type=int, default=None, help="suite: games played at once (default: 256)"
    )
    train.add_argument(
        "--num-steps",
        type=int,
        default=None,
        help="suite: steps per game between updates (default: 64; alphazero: 16)",
    )
    train.add_argument(
        "--simulations",
        type=int,
        default=None,
        help="alphazero: simulations of the search a move in self-play (default: 32)",
    )
    train.add_argument(
        "--replay",
        type=int,
        default=None,
        help="alphazero: moves the replay buffer keeps, the newest (default: 100,000)",
    )
    train.add_argument(
        "--hidden",
        type=int,
        nargs="+",
        default=None,
        metavar="WIDTH",
        help="suite: the widths of the network's hidden layers, e.g. 256 256 (default: "
        "128 128; a run from --init takes that policy's)",
    )
    train.add_argument(
        "--conv",
        default=None,
        metavar="CHANNELSxBLOCKS",
        help="alphazero: a residual conv trunk over the observation's planes before the "
        "hidden layers, e.g. 32x2: 32 channels, 2 residual blocks (default: none, an MLP)",
    )
    train.add_argument(
        "--symmetries",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="alphazero: learn from each sample turned by one of the game's symmetries at "
        "random (Azacru: the square's rotations and reflections) (default: on, but off "
        "from an --init network trained without them, such as PPO's: it lost its play "
        "learning them)",
    )
    train.add_argument(
        "--rescale",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="alphazero: rescale each node's Q-values to [0, 1] as the paper does; "
        "--no-rescale keeps their own scale, so that Q-values a hair apart do not "
        "outweigh the prior (the network's file records it) (default: on)",
    )
    train.add_argument(
        "--min-spread",
        type=float,
        default=None,
        metavar="S",
        help="alphazero: stretch each node's Q-values over at least S, from 1e-8 (the "
        "paper's rescaling, --rescale) to 2 (their own scale, --no-rescale): Q-values "
        "apart by noise (dice, few playouts) then stay a share of sigma apart; stands "
        "for --rescale (the network's file records it) (default: none)",
    )
    train.add_argument(
        "--playout-weight",
        type=float,
        default=None,
        metavar="W",
        help="alphazero: weigh a random playout into each leaf's value, (1 - W) x the "
        "network's + W x the playout's (AlphaGo's lambda; the network's file records "
        "it and az searches so) (default: 0, the network's alone)",
    )
    train.add_argument(
        "--max-playout",
        type=int,
        default=None,
        metavar="N",
        help="alphazero: the plies a leaf's playout runs before the game's estimate, "
        "-1 to the end (the network's file records it) (default: the game's, as mcts plays)",
    )
    train.add_argument(
        "--heuristic-playouts",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="alphazero: playouts follow the game's heuristic agent (Azure Attack's greedy) "
        "for every player instead of random moves (the network's file records it) (default: off)",
    )
    train.add_argument(
        "--prior-temperature",
        type=float,
        default=None,
        metavar="T",
        help="alphazero: add the game's estimate after each action, over T, to the "
        "network's prior logits (mcts's guided prior; the network's file records it "
        "and az searches so) (default: 0, the network's prior alone)",
    )
    train.add_argument(
        "--eval-simulations",
        type=int,
        default=None,
        metavar="N",
        help="alphazero: the evaluations play the az agent, searching N simulations a move "
        "(default: 0, the network alone)",
    )
    train.add_argument(
        "--league",
        type=float,
        default=None,
        metavar="SHARE",
        help="alphazero: the share of games where the learner's seat (searched) plays its "
        "past snapshots (the network alone) instead of its latest self (default: 0)",
    )
    train.add_argument(
        "--value-warmup",
        type=int,
        default=None,
        metavar="ROUNDS",
        help="alphazero: first rounds whose policy target is the network's own prior, so "
        "that the value head learns before the search's values teach the policy (for "
        "an --init network whose policy is better than its value; default: 0)",
    )
    train.add_argument(
        "--teacher-rounds",
        type=int,
        default=None,
        metavar="ROUNDS",
        help="alphazero: first rounds played by --teacher alone, unsearched: the policy learns "
        "its moves, the value its games' returns (a start for a network that knows less than "
        "a hand-written agent; default: 0)",
    )
    train.add_argument(
        "--teacher",
        metavar="AGENT",
        default=None,
        help="alphazero: the agent that plays the --teacher-rounds, with options after a colon "
        "(default: greedy)",
    )
    train.add_argument(
        "--eval-every",
        type=int,
        default=None,
        help="updates between evaluations of --eval-games games against each opponent (default: 10; "
        "alphazero: 100 rounds; 0: none, only the final evaluation of --final-eval-games)",
    )
    train.add_argument(
        "--eval-games", type=int, default=200, help="games per opponent in each evaluation (default: 200)"
    )
    train.add_argument(
        "--final-eval-games",
        type=int,
        default=400,
        help="games per opponent in the final evaluation (default: 400)",
    )
    train.add_argument(
        "--eval-against",
        nargs="+",
        choices=["random", "greedy"],
        default=["random", "greedy"],
        help="opponents of the evaluations (default: random greedy)",
    )
    train.add_argument(
        "--mix",
        default=None,
        help="league mix, e.g. latest=0.35,snapshots=0.25,greedy=0.2,random=0.2 "
        "(the default; see azgames.training.league)",
    )
    train.add_argument(
        "--league-greedy",
        metavar="AGENT",
        default=None,
        help="suite: the agent that plays the mix's greedy games, with options after a "
        "colon (default: greedy; e.g. greedy:lookahead=1, Azimuth's greedy at a "
        "tenth of the cost). Evaluations always play the default greedy",
    )
    train.add_argument(
        "--init",
        metavar="POLICY.npz",
        default=None,
        help="start from this policy's weights (e.g. a run's policy.npz: train longer)",
    )
    train.add_argument(
        "--ladder",
        metavar="TOURNAMENT.json",
        default=None,
        help="a 2-player tournament's record: each evaluation also places the policy "
        "on its ratings (Elo, rating.csv)",
    )
    train.add_argument(
        "--backend",
        choices=["suite", "rllib"],
        default="suite",
        help="suite: the suite's own PPO over the numba vector env (the train extra); "
        "rllib: RLlib's PPO with a league of snapshots, locally or on a Ray "
        "cluster (the rllib extra; see azgames.rllib) (default: suite)",
    )
    train.add_argument(
        "--address",
        default=None,
        help="rllib: the Ray cluster to join, e.g. auto or ray://HOST:10001 "
        "(default: RAY_ADDRESS if set, else a local Ray)",
    )
    train.add_argument(
        "--num-env-runners",
        type=int,
        default=None,
        help="rllib: sampling processes (default: 2, as RLlib; 0 samples in the driver)",
    )
    train.add_argument(
        "--num-envs-per-env-runner",
        type=int,
        default=None,
        help="rllib: games each sampling process steps in turn (default: 8)",
    )
    train.add_argument(
        "--builtin-opponents",
        nargs="+",
        metavar="AGENT",
        default=None,
        help="rllib: the baselines that play half the games, equally often, e.g. "
        "random greedy ppo mcts:simulations=50 (default: random greedy)",
    )
    train.add_argument(
        "--force",
        action="store_true",
        help="write into an --out folder that holds another run's files, replacing them",
    )
    train.add_argument("--quiet", "-q", action="store_true", help="no progress bar")
    add_game_options(train)
    train.set_defaults(run=cmd_train, subparser=train)


#: Options of one training backend only, with their defaults (the suite's
#: number of games and steps depend on the algorithm: SUITE_DEFAULTS).
SUITE_ONLY: dict[str, Any] = {
    "num_envs": None,
    "num_steps": None,
    "learning_rate": 1e-3,
    "hidden": None,
    "init": None,
    "ladder": None,
}
RLLIB_ONLY: dict[str, Any] = {
    "address": None,
    "num_env_runners": 2,
    "num_envs_per_env_runner": 8,
    "builtin_opponents": ["random", "greedy"],
}
#: Options of one of the suite's algorithms only, with their defaults.
ALGO_ONLY: dict[str, dict[str, Any]] = {
    "ppo": {"mix": None, "league_greedy": "greedy"},
    "alphazero": {
        "simulations": 32,
        "replay": 100_000,
        "value_warmup": 0,
        "teacher_rounds": 0,
        "teacher": "greedy",
        "eval_simulations": 0,
        "league": 0.0,
        "conv": None,
        "symmetries": None,
        "rescale": True,
        "min_spread": None,
        "playout_weight": 0.0,
        "max_playout": None,
        "heuristic_playouts": False,
        "prior_temperature": 0.0,
    },
}
#: The defaults that differ between the ways to train (RLlib's are PPO's).
SUITE_DEFAULTS: dict[str, dict[str, Any]] = {
    "ppo": {"steps": 2_000_000, "num_envs": 256, "num_steps": 64, "eval_every": 10},
    "alphazero": {"steps": 2_000_000, "num_envs": 256, "num_steps": 16, "eval_every": 100},
}


def conv_spec(parser: argparse.ArgumentParser, text: str) -> dict[str, int]:
    """``--conv CHANNELSxBLOCKS`` as the network's ``conv`` (azgames.agents.conv)."""
    from azgames.agents.conv import MAX_BLOCKS, MAX_CHANNELS

    found = re.fullmatch(r"(\d{1,4})x(\d{1,4})", text.strip())
    if not found or not (1 <= int(found[1]) <= MAX_CHANNELS and int(found[2]) <= MAX_BLOCKS):
        parser.error(
            f"--conv {text[:40]!r}: give CHANNELSxBLOCKS, 1 to {MAX_CHANNELS} channels and "
            f"0 to {MAX_BLOCKS} residual blocks, e.g. 32x2"
        )
    return {"channels": int(found[1]), "blocks": int(found[2])}


#: The most hidden layers, and the widest, that ``--hidden`` takes.
MAX_LAYERS, MAX_WIDTH = 8, 4096
#: The minibatches of one PPO update (azgames.training.ppo.Config.num_minibatches).
MINIBATCHES = 4


def check_run_arguments(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """What both training backends check first: the seed, the time budget
    and the evaluation interval."""
    check(parser, checks.seed, "--seed", args.seed)
    if args.minutes is not None and not (math.isfinite(args.minutes) and args.minutes > 0):
        parser.error(f"--minutes {args.minutes}: give a number of minutes > 0")
    if args.eval_every < 0:
        parser.error(
            f"--eval-every {args.eval_every}: give a number of updates >= 0 (0: only the final evaluation)"
        )


def run_folder(parser: argparse.ArgumentParser, args: argparse.Namespace) -> str:
    """The training run's output folder, made once every other argument is
    checked: refused if it holds another run's files and --force is not given."""
    prefix = "rllib_" if args.backend == "rllib" else "az_" if args.algo == "alphazero" else ""
    out = args.out or f"runs/{prefix}{args.game}_{args.players}p_seed{args.seed}"
    check(parser, writable_folder, "--out", out, RUN_FILES, args.force)
    return out


def cmd_train(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    if args.backend == "rllib":
        require("rllib", "train --backend rllib")
    else:
        require("train", "train")
    options = game_options(parser, args)
    checked_rules(parser, args, options)
    if args.backend == "rllib":
        if args.algo != "ppo":
            parser.error(f"--algo {args.algo} is the suite's: --backend rllib trains by PPO")
        foreign, own = {**SUITE_ONLY, **ALGO_ONLY["ppo"], **ALGO_ONLY["alphazero"]}, RLLIB_ONLY
    else:
        other = "ppo" if args.algo == "alphazero" else "alphazero"
        foreign, own = {**RLLIB_ONLY, **ALGO_ONLY[other]}, {**SUITE_ONLY, **ALGO_ONLY[args.algo]}
    for name in foreign:
        if getattr(args, name) is None:
            continue
        if args.backend == "rllib" or name in RLLIB_ONLY:
            parser.error(
                f"--{name.replace('_', '-')} is an option of the "
                f"{'suite' if args.backend == 'rllib' else 'rllib'} backend, not of --backend {args.backend}"
            )
        algo = "ppo" if name in ALGO_ONLY["ppo"] else "alphazero"
        parser.error(f"--{name.replace('_', '-')} is an option of --algo {algo}, not of --algo {args.algo}")
    for name, default in {**own, **SUITE_DEFAULTS[args.algo]}.items():
        if getattr(args, name) is None:
            setattr(args, name, default)
    if args.backend == "rllib":
        from azgames.rllib.cli import train_rllib

        return train_rllib(args, parser, options)
    counts = ("steps", "num_envs", "num_steps", "eval_games", "final_eval_games")
    for name in counts + (("simulations", "replay") if args.algo == "alphazero" else ()):
        if getattr(args, name) < 1:
            parser.error(f"--{name.replace('_', '-')} {getattr(args, name)}: give a number >= 1")
    check_run_arguments(parser, args)
    if args.algo == "ppo" and args.num_envs * args.num_steps < MINIBATCHES:
        parser.error(
            f"--num-envs {args.num_envs} x --num-steps {args.num_steps}: an update needs at "
            f"least {MINIBATCHES} steps (one per minibatch)"
        )
    if not 0 < args.learning_rate < 1:
        parser.error(f"--learning-rate {args.learning_rate}: give a step size between 0 and 1")
    from azgames.training import alphazero, ppo

    algo_options: dict[str, Any] = {}
    if args.algo == "ppo":
        from azgames.training.league import parse_mix

        try:
            mix = parse_mix(args.mix) if args.mix else None
        except (TypeError, ValueError) as e:
            parser.error(str(e))
        try:
            from azgames.agents import make_agent, parse_agent

            name, kwargs = parse_agent(args.league_greedy)
            make_agent(name, game=args.game, **kwargs)
        except (TypeError, ValueError) as e:
            parser.error(f"--league-greedy {args.league_greedy}: {e}")
        algo_options = {"league_greedy": args.league_greedy, **({"mix": mix} if mix else {})}
    else:
        from azgames.agents.az.agent import MAX_SIMULATIONS, has_heuristic
        from azgames.agents.az.gumbel import EPSILON, NO_RESCALE
        from azgames.agents.policy import MAX_PLAYOUT, MAX_TEMPERATURE

        if args.value_warmup < 0:
            parser.error(f"--value-warmup {args.value_warmup}: give a number of rounds >= 0")
        if args.teacher_rounds < 0:
            parser.error(f"--teacher-rounds {args.teacher_rounds}: give a number of rounds >= 0")
        try:
            from azgames.agents import make_agent, parse_agent

            name, kwargs = parse_agent(args.teacher)
            make_agent(name, game=args.game, **kwargs)
        except (TypeError, ValueError) as e:
            parser.error(f"--teacher {args.teacher}: {e}")
        if not 0 <= args.league <= 1:
            parser.error(f"--league {args.league}: give a share of the games from 0 to 1")
        if not 0 <= args.playout_weight <= 1:  # NaN fails too
            parser.error(f"--playout-weight {args.playout_weight}: give a weight from 0 to 1")
        if args.min_spread is not None and not EPSILON <= args.min_spread <= NO_RESCALE:
            parser.error(
                f"--min-spread {args.min_spread}: give {EPSILON:g} (the paper's rescaling) to "
                f"{NO_RESCALE:g} (none)"
            )
        if args.max_playout is not None and not -1 <= args.max_playout <= MAX_PLAYOUT:
            parser.error(f"--max-playout {args.max_playout}: give -1 (to the end) to {MAX_PLAYOUT:,} plies")
        if args.heuristic_playouts and not has_heuristic(args.game):
            parser.error(f"--heuristic-playouts: {args.game} has no heuristic agent for playouts")
        if not 0 <= args.prior_temperature <= MAX_TEMPERATURE:  # NaN fails too
            parser.error(
                f"--prior-temperature {args.prior_temperature}: give 0 (none) to {MAX_TEMPERATURE:g}"
            )
        if not 0 <= args.eval_simulations <= MAX_SIMULATIONS:
            parser.error(f"--eval-simulations {args.eval_simulations}: give 0 to {MAX_SIMULATIONS:,}")
        conv = conv_spec(parser, args.conv) if args.conv is not None else None
        if conv and args.init is not None:
            parser.error(f"--conv {args.conv} with --init: a run from a policy takes that policy's network")
        algo_options = {
            "simulations": args.simulations,
            "replay": args.replay,
            "value_warmup": args.value_warmup,
            "teacher_rounds": args.teacher_rounds,
            "teacher": args.teacher,
            "eval_simulations": args.eval_simulations,
            "league": args.league,
            "conv": conv,
            "symmetries": args.symmetries,
            "rescale": args.rescale,
            "min_spread": args.min_spread,
            "playout_weight": args.playout_weight,
            "max_playout": args.max_playout,
            "heuristic_playouts": args.heuristic_playouts,
            "prior_temperature": args.prior_temperature,
        }
    if args.hidden is not None:
        if not 1 <= len(args.hidden) <= MAX_LAYERS or not all(1 <= w <= MAX_WIDTH for w in args.hidden):
            parser.error(
                f"--hidden {' '.join(map(str, args.hidden))[:60]}: give 1 to {MAX_LAYERS} widths "
                f"of 1 to {MAX_WIDTH:,}, e.g. 256 256"
            )
        if args.init is not None:
            parser.error("--hidden with --init: a run from a policy takes that policy's network")
    if args.init is not None:
        from azgames.agents.policy import NumpyPolicy

        try:
            meta = NumpyPolicy.load(args.init).meta
        except (OSError, ValueError, KeyError) as e:
            parser.error(f"--init {args.init}: not a policy file ({e})")
        if (meta["game"], meta["num_players"]) != (args.game, args.players):
            parser.error(
                f"--init {args.init} is a policy of {meta['game']} with {meta['num_players']} "
                f"players, not {args.game} with {args.players}"
            )
        if "conv" in meta and args.algo == "ppo":
            parser.error(f"--init {args.init} has a conv trunk (AlphaZero's); PPO trains an MLP")
    if args.ladder is not None:
        from azgames.tournament.ratings import ladder_ratings

        if args.eval_every == 0:
            parser.error(
                f"--ladder {args.ladder} with --eval-every 0: the ladder places the evaluations "
                "along the way, and there would be none"
            )
        try:
            rungs = ladder_ratings(args.ladder)
        except (OSError, ValueError, KeyError) as e:
            parser.error(f"--ladder {args.ladder}: not a 2-player tournament record ({e})")
        if not set(args.eval_against) & set(rungs):
            parser.error(
                f"--ladder {args.ladder} rates {', '.join(rungs)}: none of the evaluation's "
                f"opponents ({', '.join(args.eval_against)})"
            )
    out = run_folder(parser, args)
    trainer = alphazero if args.algo == "alphazero" else ppo
    cfg = trainer.Config(
        game=args.game,
        num_players=args.players,
        seed=args.seed,
        steps=args.steps,
        minutes=args.minutes,
        num_envs=args.num_envs,
        num_steps=args.num_steps,
        learning_rate=args.learning_rate,
        eval_every=args.eval_every,
        eval_games=args.eval_games,
        final_eval_games=args.final_eval_games,
        eval_against=tuple(args.eval_against),
        out=out,
        options=options,
        init=args.init,
        ladder=args.ladder,
        progress=not args.quiet,
        **({"hidden": tuple(args.hidden)} if args.hidden else {}),
        **algo_options,
    )
    record = trainer.train(cfg, argv=args.argv)
    final = record["final_evaluation"]
    print(
        f"{trained(args, record)}; over {args.final_eval_games} games: "
        + "; ".join(
            f"vs {o} {100 * e['win_rate']:.1f}% wins ({100 * e['win_rate_lo']:.1f}-"
            f"{100 * e['win_rate_hi']:.1f})"
            for o, e in final.items()
        )
    )
    plays_as = "az:path=" if args.algo == "alphazero" else "ppo:path="
    print(f"policy, logs and curve in {out}/ (plays as the agent {plays_as}{out}/policy.npz)")
    return 0


def trained(args: argparse.Namespace, record: dict) -> str:
    """What the run trained, how long it took and how fast it trains: steps
    over the training's own seconds, numba's compiling and the evaluations
    along the way left out (a cold cache compiles for tens of seconds)."""
    if args.algo == "alphazero":
        unit, whole, per_game = "moves of self-play", "rounds", "moves"
    else:
        unit, whole, per_game = "learner steps", "updates", "steps"
    line = f"trained {record['steps']:,} {unit}"
    if args.minutes is None and record["steps"] != args.steps:
        line += (
            f" (--steps {args.steps:,} rounded up to whole {whole} of {args.num_envs} games x "
            f"{args.num_steps} {per_game})"
        )
    left_out = [
        f"{seconds:.0f} s of {what}"
        for seconds, what in (
            (record["compile_seconds"], "numba compiling"),
            (record["evaluation_seconds"], "evaluations"),
        )
        if round(seconds) >= 1
    ]
    rate = f"{record['training_steps_per_s']:,} steps/s"
    if left_out:
        rate += f", not counting {' and '.join(left_out)}"
    return f"{line} in {record['seconds']:.0f} s ({rate})"
