"""Win rates of a policy against fixed opponents, played batched.

:func:`evaluate` plays ``num_games`` games at once in a
:class:`~azgames.training.learner_env.LearnerVecEnv`, the learner's seat
alternating over the games (game ``i`` takes seat ``i % num_players``), and
counts each game's first ending only, so short games are not over-counted.
The policy plays its most likely legal action, or, with ``simulations``, the
move of the ``az`` agent's Gumbel search guided by it (one search for all the
games). No torch needed.

A *win* is the learner's seat taking the game's top reward, +1 (its side
wins, or it alone has the most tiles); a *draw* a reward of 0 with two
players (or two sides); anything else a *loss*.

:func:`place_on_ladder` turns evaluations into an Elo rating on a fixed
ladder (``train --ladder``: a 2-player tournament's record, read by
:func:`load_ladder`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np

from azgames.agents.az.agent import AZAgent
from azgames.agents.match import wilson_interval
from azgames.agents.policy import NumpyPolicy
from azgames.tournament.ratings import Rating, elo_against, ladder_ratings

from .learner_env import LearnerVecEnv


@dataclass(frozen=True)
class Evaluation:
    opponent: str
    games: int
    wins: int
    draws: int
    losses: int
    mean_reward: float
    #: ``(wins, draws, losses)`` of the games the learner played in each seat.
    by_seat: tuple[tuple[int, int, int], ...] = ()

    @property
    def win_rate(self) -> float:
        return self.wins / self.games

    @property
    def interval(self) -> tuple[float, float]:
        """95% Wilson interval of the win rate."""
        return wilson_interval(self.wins, self.games)

    @property
    def decisive_win_rate(self) -> float:
        """Wins over the games not drawn (nan if every game was drawn)."""
        decisive = self.wins + self.losses
        return self.wins / decisive if decisive else float("nan")

    def as_dict(self) -> dict[str, Any]:
        lo, hi = self.interval
        flat = {k: v for k, v in asdict(self).items() if k != "by_seat"}  # eval.csv: a number a column
        return {
            **flat,
            "win_rate": self.win_rate,
            "win_rate_lo": lo,
            "win_rate_hi": hi,
            "decisive_win_rate": self.decisive_win_rate,
        }

    def __str__(self) -> str:
        lo, hi = self.interval
        return (
            f"vs {self.opponent}: {100 * self.win_rate:.1f}% wins ({100 * lo:.1f}-{100 * hi:.1f}), "
            f"{self.draws} draws, {self.losses} losses of {self.games}"
        )


def evaluate(
    policy: NumpyPolicy,
    opponent: Any = "random",
    num_games: int = 400,
    seed: int = 0,
    max_steps: int = 100_000,
    simulations: int = 0,
    progress: Callable[[int], None] | None = None,
) -> Evaluation:
    """``policy`` (for its game, player count and options) against
    ``opponent`` (an agent spec or a :class:`NumpyPolicy`) in every other
    seat; with ``simulations``, searching that many a move. ``progress(n)``
    hears of every ``n`` games that end together (a progress bar's update)."""
    meta = policy.meta
    env = LearnerVecEnv(
        meta["game"],
        num_games,
        num_players=meta["num_players"],
        seed=seed,
        opponents=[opponent],
        seat="alternate",
        **meta.get("options", {}),
    )
    obs, mask = env.reset()
    result = np.zeros(num_games, np.float32)
    finished = np.zeros(num_games, bool)
    every = np.arange(num_games)
    searcher = AZAgent(policy, simulations=simulations, seed=seed) if simulations else None
    for _ in range(max_steps):
        if searcher is None:
            actions = policy.act(obs, mask)
        else:
            actions = searcher.act_batch(env.venv.rules, env.venv.state, mask, every)
        obs, mask, reward, terminated, truncated = env.step(actions)
        first = (terminated | truncated) & ~finished
        result[first] = reward[first]
        finished |= first
        if progress is not None and first.any():
            progress(int(first.sum()))
        if finished.all():
            break
    else:
        raise RuntimeError(f"{int((~finished).sum())} games still going after {max_steps} steps")
    two_sided = len(env.venv.rules.sides) <= 2  # a draw is no one's win (with more sides, a loss)
    won = result >= 1 - 1e-6
    drawn = (result == 0) & two_sided
    by_seat = tuple(
        (int(won[seated].sum()), int(drawn[seated].sum()), int((~won & ~drawn)[seated].sum()))
        for seated in (env.seat == s for s in range(env.num_players))
    )
    wins, draws = int(won.sum()), int(drawn.sum())
    name = opponent if isinstance(opponent, str) else getattr(opponent, "name", "policy")
    return Evaluation(
        str(name), num_games, wins, draws, num_games - wins - draws, float(result.mean()), by_seat
    )


def load_ladder(path) -> dict[str, float]:
    """The ratings of a 2-player tournament's JSON record (``azgames
    tournament``), by agent: the fixed scale :func:`place_on_ladder` uses."""
    return ladder_ratings(path)


def place_on_ladder(ladder: dict[str, float], evaluations: Iterable[Evaluation]) -> Rating:
    """The policy's Elo rating (and interval) on ``ladder`` that best explains
    its wins, draws and losses in ``evaluations`` against the ladder's agents
    (those against opponents off the ladder are left out)."""
    record = {e.opponent: (e.wins, e.draws, e.losses) for e in evaluations if e.opponent in ladder}
    return elo_against(ladder, record)
