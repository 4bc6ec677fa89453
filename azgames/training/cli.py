"""The ``train`` command: self-play training by the suite's masked PPO
(:mod:`.ppo`), its Gumbel AlphaZero (``--algo alphazero``, :mod:`.alphazero`)
or, with ``--backend rllib``, by RLlib (:mod:`azgames.rllib.cli`)."""

from __future__ import annotations

import argparse
import shutil
from typing import Any

from azgames.cli_args import add_game_options, check, check_agents, checked_rules, game_names, game_options
from azgames.core.extras import require
from azgames.core.inputs import writable_folder
from azgames.rllib.config import RllibConfig

from . import resume
from .config import AlphaZeroConfig, AlphaZeroRayConfig, PPOConfig
from .flags import add_flags, build, checked, flags_of, owner_of

#: What a run writes into its folder that a new run would not write over:
#: ``--force`` removes them first, or a bench reading the checkpoints (or
#: ``--resume``) takes the old run's for the new one's.
LEFT_OVER = (resume.FILE, "checkpoints")
#: What a training run writes into its folder (``train --out``): a folder
#: holding any of them is another run's, kept unless ``--force``.
RUN_FILES = ("policy.npz", "policy.json", "train.csv", "eval.csv", *LEFT_OVER)


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
        "AlphaZero network also plays as az:path=policy.npz). Each trainer's flags are "
        "its config's fields (azgames.training.config).",
    )
    train.add_argument(
        "game", nargs="?", choices=game_names(), help="game to train on (none with --resume: the run's)"
    )
    train.add_argument("--players", "-p", type=int, default=None, help="number of players (default: 2)")
    train.add_argument(
        "--algo",
        choices=["ppo", "alphazero"],
        default=None,
        help="suite: the learning algorithm (default: ppo)",
    )
    train.add_argument(
        "--resume",
        metavar="RUN_DIR",
        default=None,
        help="go on with the run in this folder from its last resume point (resume.npz, written "
        "every --checkpoint-minutes), as it was configured; it ends as the run would have, bit for "
        "bit with --steps on the CPU",
    )
    train.add_argument(
        "--backend",
        choices=["suite", "ray", "rllib"],
        default=None,
        help="suite: the suite's own trainers over the numba vector env (the train extra); "
        "ray: the suite's AlphaZero with its self-play in --actors Ray actors, locally or on a "
        "cluster (the train and rllib extras; see azgames.training.alphazero_ray); "
        "rllib: RLlib's PPO with a league of snapshots, locally or on a Ray "
        "cluster (the rllib extra; see azgames.rllib) (default: suite)",
    )
    train.add_argument(
        "--out", metavar="DIR", default=None, help="output folder (default: runs/GAME_Np_seedS)"
    )
    add_flags(train, CONFIGS)
    train.add_argument(
        "--force",
        action="store_true",
        help="write into an --out folder that holds another run's files, replacing them",
    )
    train.add_argument("--quiet", "-q", action="store_true", help="no progress bar")
    add_game_options(train)
    train.set_defaults(run=cmd_train, subparser=train)


#: What trains with each config: the suite's two algorithms and RLlib's PPO.
CONFIGS: dict[str, type] = {
    "ppo": PPOConfig,
    "alphazero": AlphaZeroConfig,
    "ray": AlphaZeroRayConfig,
    "rllib": RllibConfig,
}
#: How the command line names each of them.
TRAINERS = {
    "ppo": "--algo ppo",
    "alphazero": "--algo alphazero",
    "ray": "--backend ray",
    "rllib": "--backend rllib",
}


def given_flags(parser: argparse.ArgumentParser, args: argparse.Namespace, trainer: str) -> dict[str, Any]:
    """The flags given on the command line, each checked against its field
    in ``trainer``'s config; one that ``trainer`` has not is refused, naming
    who has it."""
    own = flags_of(CONFIGS[trainer])
    given: dict[str, Any] = {}
    for dest in {d for cls in CONFIGS.values() for d in flags_of(cls)}:
        value = getattr(args, dest)
        if value is None:
            continue
        flag = "--" + dest.replace("_", "-")
        if dest not in own:
            owners = owner_of(dest, CONFIGS)
            if trainer == "rllib":
                parser.error(f"{flag} is an option of the suite backend, not of --backend rllib")
            if "rllib" in owners:
                backends = "rllib and ray backends" if "ray" in owners else "rllib backend"
                parser.error(f"{flag} is an option of the {backends}, not of {TRAINERS[trainer]}")
            parser.error(f"{flag} is an option of {TRAINERS[owners[0]]}, not of {TRAINERS[trainer]}")
        try:
            given[dest] = checked(own[dest], value)
        except ValueError as e:
            text = " ".join(map(str, value)) if isinstance(value, list) else str(value)
            parser.error(f"{flag} {text[:60]}: {e}")
    return given


#: The minibatches of one PPO update (PPOConfig.num_minibatches).
MINIBATCHES = 4


def run_folder(parser: argparse.ArgumentParser, args: argparse.Namespace, seed: int) -> str:
    """The training run's output folder, made once every other argument is
    checked: refused if it holds another run's files and --force is not given."""
    prefix = {"rllib": "rllib_", "ray": "az_ray_"}.get(
        args.backend, "az_" if args.algo == "alphazero" else ""
    )
    out = args.out or f"runs/{prefix}{args.game}_{args.players}p_seed{seed}"
    folder = check(parser, writable_folder, "--out", out, RUN_FILES, args.force)
    for name in LEFT_OVER:
        path = folder / name
        if path.is_dir():
            shutil.rmtree(path)
        elif path.exists():
            path.unlink()
    return out


def cmd_train(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    if args.resume is not None:
        return resume_run(args, parser)
    if args.game is None:
        parser.error("give the game to train on, or --resume RUN_DIR to go on with a run")
    args.players = 2 if args.players is None else args.players
    args.algo = args.algo or "ppo"
    args.backend = args.backend or "suite"
    if args.backend == "rllib":
        require("rllib", "train --backend rllib")
        if args.algo != "ppo":
            parser.error(f"--algo {args.algo} is the suite's: --backend rllib trains by PPO")
    else:
        require("train", "train")
    if args.backend == "ray":
        require("rllib", "train --backend ray")  # Ray comes with the rllib extra
        if args.algo != "alphazero":
            parser.error(
                f"--backend ray runs the suite's AlphaZero: give --algo alphazero, not --algo {args.algo}"
            )
    options = game_options(parser, args)
    rules = checked_rules(parser, args, options)
    trainer = args.backend if args.backend in ("ray", "rllib") else args.algo
    given = given_flags(parser, args, trainer)
    fixed = {"game": args.game, "num_players": args.players, "options": options, "progress": not args.quiet}
    cfg = build(CONFIGS[trainer], given, fixed)
    if trainer == "rllib":
        check_agents(parser, args.game, list(cfg.builtin_opponents), args.players)
    elif trainer == "ppo":
        if cfg.num_envs * cfg.num_steps < MINIBATCHES:
            parser.error(
                f"--num-envs {cfg.num_envs} x --num-steps {cfg.num_steps}: an update needs at "
                f"least {MINIBATCHES} steps (one per minibatch)"
            )
        check_agent_spec(parser, "--league-greedy", cfg.league_greedy, args.game)
    else:
        check_search_game(parser, cfg, args.game)
        if cfg.teacher_rounds or args.teacher is not None:  # the default, greedy, is not every game's
            check_agent_spec(parser, "--teacher", cfg.teacher, args.game)
        if cfg.conv and cfg.init is not None:
            parser.error(f"--conv {args.conv} with --init: a run from a policy takes that policy's network")
    if trainer != "rllib":
        if cfg.device == "cuda":
            import torch

            if not torch.cuda.is_available():
                parser.error(f"--device cuda: torch {torch.__version__} sees no CUDA device here")
        check_init(parser, args, cfg)
        check_ladder(parser, cfg)
        if rules.info.utility != "identical":  # a team plays random alone
            for opponent in cfg.eval_against:
                check_agent_spec(parser, "--eval-against", opponent, args.game)
    if trainer == "rllib":
        from azgames.rllib.cli import train_rllib

        cfg.out = run_folder(parser, args, cfg.seed)
        return train_rllib(cfg, args)
    train = trainer_module(trainer, parser, cfg).train
    cfg.out = run_folder(parser, args, cfg.seed)
    return report(trainer, cfg, train(cfg, argv=args.argv))


def trainer_module(trainer: str, parser: argparse.ArgumentParser, cfg: Any):
    """The module that trains with ``trainer``'s config; Ray's joins its
    cluster first, so that an address nothing answers at is one line, before any work."""
    from azgames.training import alphazero, ppo

    if trainer != "ray":
        return alphazero if trainer == "alphazero" else ppo
    from azgames.training import alphazero_ray

    try:
        alphazero_ray.connect(cfg)
    except ValueError as e:
        parser.error(str(e))
    return alphazero_ray


def report(trainer: str, cfg: Any, record: dict) -> int:
    """The finished run's lines: what it trained, its final evaluation, where its files are."""
    final = record["final_evaluation"]
    print(
        f"{trained(trainer, cfg, record)}; over {cfg.final_eval_games} games: "
        + "; ".join(
            f"vs {o} {100 * e['win_rate']:.1f}% wins ({100 * e['win_rate_lo']:.1f}-"
            f"{100 * e['win_rate_hi']:.1f})"
            for o, e in final.items()
        )
    )
    plays_as = "ppo:path=" if trainer == "ppo" else "az:path="
    print(f"policy, logs and curve in {cfg.out}/ (plays as the agent {plays_as}{cfg.out}/policy.npz)")
    return 0


def resume_run(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    """``train --resume RUN_DIR``: the run goes on as it was configured; a
    flag that would change it is refused, as is a folder without a resume
    point (or with a truncated one), before any work starts."""
    require("train", "train --resume")
    from azgames.training import resume

    from .flags import config_from_record

    try:
        run, arrays = resume.load(args.resume)
    except ValueError as e:
        parser.error(str(e))
    where = f"--resume {args.resume!r}"
    algo = run.get("algo")
    if algo not in ("ppo", "alphazero"):
        parser.error(f"{where}: its resume point names no trainer of the suite")
    backend = "ray" if run.get("backend") == "ray" else "suite"
    trainer = "ray" if backend == "ray" else algo
    try:
        cfg = config_from_record(CONFIGS[trainer], run.get("config"), where)
    except ValueError as e:
        parser.error(str(e))
    if cfg.game not in game_names():
        parser.error(f"{where}: a run of a game not registered here")
    for given, theirs, said in (
        (args.game, cfg.game, f"a run of {cfg.game}, not {args.game}"),
        (args.players, cfg.num_players, f"a run of {cfg.num_players} players, not {args.players}"),
        (args.algo, algo, f"a run of --algo {algo}, not --algo {args.algo}"),
        (args.backend, backend, f"a run of --backend {backend}, not --backend {args.backend}"),
    ):
        if given is not None and given != theirs:
            parser.error(f"{where} is {said}")
    every = sorted({d for cls in CONFIGS.values() for d in flags_of(cls)})
    changed = [f"--{d.replace('_', '-')}" for d in every if getattr(args, d) is not None]
    changed += ["--out"] * (args.out is not None) + ["--force"] * args.force
    changed += [
        f"--{k[7:].replace('_', '-')}"
        for k, v in vars(args).items()
        if k.startswith("option_") and v is not None
    ]
    if changed:
        parser.error(f"{where} goes on as the run was configured: {', '.join(changed)} cannot change it")
    args.game, args.players = cfg.game, cfg.num_players
    checked_rules(parser, args, cfg.options)
    cfg.out, cfg.progress = args.resume, not args.quiet
    try:
        unit = "round" if algo == "alphazero" else "update"
        print(f"going on with {args.resume} from {unit} {resume.count(run, unit + 's', where):,}")
        record = trainer_module(trainer, parser, cfg).train(cfg, argv=None, point=(run, arrays))
    except ValueError as e:
        if not str(e).startswith(where):
            raise
        parser.error(str(e))
    return report(trainer, cfg, record)


def check_agent_spec(parser: argparse.ArgumentParser, flag: str, spec: str, game: str) -> None:
    """An agent named on the command line (``greedy:lookahead=1``) exists for ``game``."""
    from azgames.agents import make_agent, parse_agent

    try:
        name, kwargs = parse_agent(spec)
        make_agent(name, game=game, **kwargs)
    except (TypeError, ValueError) as e:
        parser.error(f"{flag} {spec}: {e}")


def check_search_game(parser: argparse.ArgumentParser, cfg: Any, game: str) -> None:
    """The search settings that need something of the game have it."""
    from azgames.agents.az.agent import has_heuristic

    if cfg.search.heuristic_playouts and not has_heuristic(game):
        parser.error(f"--heuristic-playouts: {game} has no heuristic agent for playouts")


def check_init(parser: argparse.ArgumentParser, args: argparse.Namespace, cfg: Any) -> None:
    """``--init``: a policy of this game and player count, of a network the algorithm trains."""
    if cfg.init is None:
        return
    if args.hidden is not None:
        parser.error("--hidden with --init: a run from a policy takes that policy's network")
    from azgames.agents.policy import NumpyPolicy

    try:
        meta = NumpyPolicy.load(cfg.init).meta
    except (OSError, ValueError, KeyError) as e:
        parser.error(f"--init {cfg.init}: not a policy file ({e})")
    if (meta["game"], meta["num_players"]) != (args.game, args.players):
        parser.error(
            f"--init {cfg.init} is a policy of {meta['game']} with {meta['num_players']} "
            f"players, not {args.game} with {args.players}"
        )
    if "conv" in meta and args.algo == "ppo":
        parser.error(f"--init {cfg.init} has a conv trunk (AlphaZero's); PPO trains an MLP")


def check_ladder(parser: argparse.ArgumentParser, cfg: Any) -> None:
    """``--ladder``: a 2-player tournament record that rates one of the evaluations' opponents."""
    if cfg.ladder is None:
        return
    from azgames.tournament.ratings import ladder_ratings

    if cfg.eval_every == 0:
        parser.error(
            f"--ladder {cfg.ladder} with --eval-every 0: the ladder places the evaluations "
            "along the way, and there would be none"
        )
    try:
        rungs = ladder_ratings(cfg.ladder)
    except (OSError, ValueError, KeyError) as e:
        parser.error(f"--ladder {cfg.ladder}: not a 2-player tournament record ({e})")
    if not set(cfg.eval_against) & set(rungs):
        parser.error(
            f"--ladder {cfg.ladder} rates {', '.join(rungs)}: none of the evaluation's "
            f"opponents ({', '.join(cfg.eval_against)})"
        )


def trained(trainer: str, cfg: Any, record: dict) -> str:
    """What the run trained, how long it took and how fast it trains: steps
    over the training's own seconds, numba's compiling and the evaluations
    along the way left out (a cold cache compiles for tens of seconds)."""
    if trainer != "ppo":
        unit, whole, per_game = "moves of self-play", "rounds", "moves"
    else:
        unit, whole, per_game = "learner steps", "updates", "steps"
    line = f"trained {record['steps']:,} {unit}"
    if cfg.minutes is None and record["steps"] != cfg.steps:
        line += (
            f" (--steps {cfg.steps:,} rounded up to whole {whole} of {cfg.num_envs} games x "
            f"{cfg.num_steps} {per_game})"
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
