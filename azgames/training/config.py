"""The settings of the suite's two trainers, each one typed dataclass:
:class:`PPOConfig` (:mod:`.ppo`) and :class:`AlphaZeroConfig`
(:mod:`.alphazero`). The ``train`` command's flags are built from their
fields (:mod:`.flags`): a field offered there is an :func:`~.flags.option`
with its help; the others are set in code. Nothing here needs torch, so
the command line is built without it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from azgames.agents.az.agent import MAX_SIMULATIONS
from azgames.agents.az.settings import SearchSettings
from azgames.core.checks import MAX_SEED

from .flags import option
from .league import DEFAULT_MIX, parse_mix

#: The most hidden layers, and the widest, a network may have.
MAX_LAYERS, MAX_WIDTH = 8, 4096
#: The largest count a count flag takes (steps, games, samples).
MAX_COUNT = 10**12


def parse_conv(text: str) -> dict[str, int]:
    """``CHANNELSxBLOCKS`` (``32x2``) as the network's ``conv`` (:mod:`azgames.agents.conv`)."""
    from azgames.agents.conv import MAX_BLOCKS, MAX_CHANNELS

    found = re.fullmatch(r"(\d{1,4})x(\d{1,4})", text.strip())
    if not found or not (1 <= int(found[1]) <= MAX_CHANNELS and int(found[2]) <= MAX_BLOCKS):
        raise ValueError(
            f"give CHANNELSxBLOCKS, 1 to {MAX_CHANNELS} channels and 0 to {MAX_BLOCKS} residual blocks, e.g. 32x2"
        )
    return {"channels": int(found[1]), "blocks": int(found[2])}


def parse_hidden(widths: list[int]) -> tuple[int, ...]:
    if not 1 <= len(widths) <= MAX_LAYERS or not all(1 <= w <= MAX_WIDTH for w in widths):
        raise ValueError(f"give 1 to {MAX_LAYERS} widths of 1 to {MAX_WIDTH:,}, e.g. 256 256")
    return tuple(widths)


def _steps(unit: str):
    return option(2_000_000, help=unit, range=(1, MAX_COUNT))


#: Fields both trainers share, with the same flags.
MINUTES = "stop after this many minutes instead (not reproducible)"
SEED = "seed of everything"
HIDDEN = "the widths of the network's hidden layers, e.g. 256 256 (a run from --init takes that policy's)"
LEARNING_RATE = "Adam's step size (lower to fine-tune from --init; PPO's falls linearly to 0 over --steps)"
EVAL_EVERY = (
    "between evaluations of --eval-games games against each opponent (0: none, only the final evaluation)"
)
EVAL_GAMES = "games per opponent in each evaluation"
FINAL_EVAL_GAMES = "games per opponent in the final evaluation, written into policy.json"
EVAL_AGAINST = "opponents of the evaluations"
INIT = "start from this policy's weights (e.g. a run's policy.npz: train longer)"
TORCH_THREADS = "threads of torch's pool: the learner's updates and the network's calls (one a run when runs share the cores)"
ADDRESS = (
    "the Ray cluster to join, e.g. auto or ray://HOST:10001 (none: RAY_ADDRESS if set, else a local Ray)"
)
LADDER = (
    "a 2-player tournament's record: each evaluation also places the policy on its ratings (Elo, rating.csv)"
)


@dataclass
class SuiteConfig:
    """What the suite's two trainers share (PPO's defaults where they differ)."""

    game: str
    num_players: int = 2
    seed: int = option(0, help=SEED, range=(0, MAX_SEED))
    steps: int = _steps("learner steps (its own actions), all games together, rounded up to whole updates")
    minutes: float | None = option(None, help=MINUTES, above=0)
    num_envs: int = option(256, help="games played at once", range=(1, MAX_COUNT))
    # 16,384 learner steps an update
    num_steps: int = option(64, help="steps of every game between updates", range=(1, MAX_COUNT))
    hidden: tuple[int, ...] = option((128, 128), help=HIDDEN, parse=parse_hidden, metavar="WIDTH")
    learning_rate: float = option(1e-3, help=LEARNING_RATE, above=0, range=(None, 1))
    eval_every: int = option(10, help="updates " + EVAL_EVERY, range=(0, MAX_COUNT))
    eval_games: int = option(200, help=EVAL_GAMES, range=(1, MAX_COUNT))
    final_eval_games: int = option(400, help=FINAL_EVAL_GAMES, range=(1, MAX_COUNT))
    eval_against: tuple[str, ...] = option(
        ("random", "greedy"), help=EVAL_AGAINST, choices=("random", "greedy")
    )
    torch_threads: int = option(2, help=TORCH_THREADS, range=(1, 1024))
    # The games (and AlphaZero's tree walks) stay on the CPU cores either way; not bit-exact on cuda.
    device: str = option(
        "cpu",
        help="where the network runs: the learner's updates, and its calls in the games (PPO's "
        "rollouts, AlphaZero's batched search)",
        choices=("cpu", "cuda"),
    )
    # A resume point of AlphaZero's replay buffer takes a while to write.
    checkpoint_minutes: float = option(
        5.0,
        help="minutes between the run's resume points (resume.npz in its folder: train --resume "
        "goes on from the last; 0: after every update or round)",
        range=(0, None),
        metavar="MINUTES",
    )
    out: str = "runs/ppo"
    options: dict = field(default_factory=dict)  # the game's variant options
    init: str | None = option(None, help=INIT, metavar="POLICY.npz")
    ladder: str | None = option(None, help=LADDER, metavar="TOURNAMENT.json")
    progress: bool = True


@dataclass
class PPOConfig(SuiteConfig):
    anneal_lr: bool = True
    gamma: float = 0.995  # rewards come at the end; games last tens of turns
    gae_lambda: float = 0.95
    update_epochs: int = 4
    num_minibatches: int = 4
    clip_coef: float = 0.2
    ent_coef: float = 0.01
    vf_coef: float = 0.5
    max_grad_norm: float = 0.5
    target_kl: float | None = None
    mix: dict[str, float] = option(
        help="the league's mix of opponents (see azgames.training.league)",
        default_factory=lambda: dict(DEFAULT_MIX),
        parse=parse_mix,
    )
    snapshot_every: int = 10  # updates between league snapshots
    max_snapshots: int = 8
    league_greedy: str = option(
        "greedy",
        help="the agent that plays the mix's greedy games, with options after a colon (e.g. "
        "greedy:lookahead=1, Azimuth's greedy at a tenth of the cost); evaluations play the default greedy",
        metavar="AGENT",
    )


@dataclass
class AlphaZeroConfig(SuiteConfig):
    steps: int = _steps("moves of self-play searched, all games together, rounded up to whole rounds")
    num_steps: int = option(16, help="moves of every game a round", range=(1, MAX_COUNT))
    eval_every: int = option(100, help="rounds " + EVAL_EVERY, range=(0, MAX_COUNT))
    out: str = "runs/alphazero"
    # Pgx's baselines search 32.
    simulations: int = option(
        32, help="simulations of the search a move in self-play", range=(1, MAX_SIMULATIONS)
    )
    considered: int = 16  # root actions Sequential Halving starts with
    conv: dict | None = option(
        None,
        help="a residual conv trunk over the observation's planes before the hidden layers, "
        "e.g. 32x2: 32 channels, 2 residual blocks (none: an MLP)",
        parse=parse_conv,
        metavar="CHANNELSxBLOCKS",
    )
    # Azacru's PPO policy, not equivariant, fell from 99% to 75% of its games
    # against greedy in 10 rounds of learning its own prior turned.
    symmetries: bool | None = option(
        None,
        help="learn from each sample turned by one of the game's symmetries at random "
        "(Azacru: the square's rotations and reflections) (none: on, but off from an --init "
        "network trained without them, such as PPO's: it lost its play learning them)",
    )
    # The network's file records them, and az searches it so.
    search: SearchSettings = field(default_factory=SearchSettings)
    batch_size: int = 256
    sample_reuse: float = 4.0  # minibatch draws for each new sample
    replay: int = option(100_000, help="moves the replay buffer keeps, the newest", range=(1, MAX_COUNT))
    value_warmup: int = option(
        0,
        help="first rounds whose policy target is the network's own prior, so that the value head "
        "learns before the search's values teach the policy (for an --init network whose policy "
        "is better than its value)",
        range=(0, MAX_COUNT),
        metavar="ROUNDS",
    )
    # A start, as AlphaGo's from human games, for a network that knows less
    # than a hand-written agent (Azure Attack's, whose 64 simulations could
    # not find greedy's routes); the search's self-play then improves on it.
    teacher_rounds: int = option(
        0,
        help="first rounds played by --teacher alone, unsearched: the policy learns its moves, "
        "the value its games' returns; the value warm-up, if any, follows",
        range=(0, MAX_COUNT),
        metavar="ROUNDS",
    )
    teacher: str = option(
        "greedy",
        help="the agent that plays the --teacher-rounds, with options after a colon",
        metavar="AGENT",
    )
    # Without them a game without dice collapses onto a few openings:
    # Connect Four's self-play reached 3 distinct positions at its 4th ply in
    # 256 games after 12 minutes, and its network learnt nothing of the others.
    random_opening: int = option(
        0,
        help="each self-play game opens with a number of uniformly random moves, drawn from 0 to "
        "this, that it does not learn from",
        range=(0, 1000),
        metavar="PLIES",
    )
    # Every self-play move samples Gumbel noise, so a game's result is a
    # noisy target for the positions early in it; the search's root value is
    # a steadier one, biased by the network it searched with.
    value_mix: float = option(
        0.0,
        help="the search's root value's share in each move's value target, the rest the game's "
        "result (0: the result alone; for games of one or two sides)",
        range=(0, 1),
        metavar="SHARE",
    )
    # Against its own latest self alone, self-play may wander in a cycle.
    league: float = option(
        0.0,
        help="the share of games where the learner's seat (searched) plays its past snapshots "
        "(the network alone) instead of its latest self; the snapshots' moves are not learnt",
        range=(0, 1),
        metavar="SHARE",
    )
    snapshot_every: int = 25  # rounds between snapshots
    max_snapshots: int = 8
    eval_simulations: int = option(
        0,
        help="the evaluations play the az agent searching this many simulations a move (0: the network alone)",
        range=(0, MAX_SIMULATIONS),
        metavar="N",
    )


@dataclass
class AlphaZeroRayConfig(AlphaZeroConfig):
    """AlphaZero with its self-play on Ray (:mod:`.alphazero_ray`): every
    field of the local trainer's, and where its actors run."""

    actors: int = option(
        2, help="self-play actors, one core each, each playing --num-envs games", range=(1, 4096)
    )
    address: str | None = option(None, help=ADDRESS)


__all__ = ["AlphaZeroConfig", "AlphaZeroRayConfig", "PPOConfig", "SuiteConfig", "parse_conv", "parse_hidden"]
