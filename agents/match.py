"""Playing agents against each other: one game, a match, a round robin.

An agent is an object with ``act(env) -> int`` (see :mod:`agents`). Wherever
agents are passed, an entry may be an agent object, a registered agent name
(``"greedy"``, ``"random"``; built with a seed drawn from the match seed) or a
factory ``factory(seed=...) -> agent``.

How games are scored for the tallies (:func:`outcome_of`): a player *wins*
when its reward is +1, the reward of a sole winner (Azacru, Azimuth) or of
every agent of the winning side (Azure Attack's team rewards, also when the
turn limit lets banked gold decide); it *draws* when it is among several
``winners`` without the full reward (Azacru's shared first place), or when
the game gives nobody a reward (a draw, or a truncation at ``max_turns`` that
decides nothing); it *loses* otherwise.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from azgames.core import checks
from azgames.core.progress import Progress
from azgames.core.stats import wilson_interval

from . import make_agent

if TYPE_CHECKING:
    from pettingzoo import AECEnv


# ---------------------------------------------------------------- one game


def _seat_map(env: AECEnv, agents: Mapping[str, Any] | Sequence[Any]) -> dict[str, Any]:
    names = list(env.possible_agents)
    if isinstance(agents, Mapping):
        if set(agents) != set(names):
            raise ValueError(f"agents must be given for exactly {names}, got {sorted(agents)}")
        return dict(agents)
    agents = list(agents)
    if len(agents) != len(names):
        raise ValueError(
            f"{len(names)} players ({', '.join(names)}) need {len(names)} agents, got {len(agents)}"
        )
    return dict(zip(names, agents))


def play_game(
    env: AECEnv,
    agents: Mapping[str, Any] | Sequence[Any],
    seed: int | None = None,
    on_move: Callable[[Any, str, int, str], None] | None = None,
) -> dict[str, Any]:
    """Play one game to its end and return its result.

    ``agents``: a dict from agent name (``"player_0"``, ...) to agent, or a
    sequence in seat order. ``env.reset(seed=seed)`` starts the game.
    ``on_move(env, agent, action, notation)`` is called after every step.

    Returns ``{"scores": {agent: tiles}, "rewards": {agent: total reward},
    "winners": [...], "turns": int, "truncated": bool}``.
    """
    seats = _seat_map(env, agents)
    env.reset(seed=seed)
    base = env.unwrapped
    totals = {a: 0.0 for a in env.possible_agents}
    while True:
        agent = env.agent_selection
        if env.terminations[agent] or env.truncations[agent]:
            break
        action = int(seats[agent].act(env))
        notation = base.action_to_str(action) if on_move is not None else ""
        env.step(action)
        for a, r in env.rewards.items():
            totals[a] += r
        if on_move is not None:
            on_move(env, agent, action, notation)
    return game_result(env, totals)


def game_result(env: AECEnv, rewards: dict[str, float]) -> dict[str, Any]:
    """The result of ``env``'s finished game, as :func:`play_game` returns it;
    ``rewards``: each agent's total reward over the game."""
    info = env.infos[env.possible_agents[0]]
    return {
        "scores": dict(info["scores"]),
        "rewards": rewards,
        "winners": list(info["winners"]),
        "turns": int(info["turns"]),
        "truncated": bool(env.truncations[env.agent_selection]),
    }


def outcome_of(result: Mapping[str, Any], agent: str) -> str:
    """``"win"``, ``"draw"`` or ``"loss"`` for ``agent`` (see the module docstring)."""
    rewards = result["rewards"]
    if rewards[agent] >= 1.0:
        return "win"
    if agent in result["winners"] or not any(rewards.values()):
        return "draw"
    return "loss"


# ---------------------------------------------------------------- a match


@dataclass
class MatchResult:
    """Per-agent tallies of a match (agents keyed by their label)."""

    game: str
    num_players: int
    names: list[str]
    num_games: int = 0
    wins: dict[str, int] = field(default_factory=dict)
    draws: dict[str, int] = field(default_factory=dict)
    losses: dict[str, int] = field(default_factory=dict)
    score_sum: dict[str, float] = field(default_factory=dict)
    #: seat_games[name][s]: games the agent played in seat s.
    seat_games: dict[str, list[int]] = field(default_factory=dict)
    truncated: int = 0
    turns_sum: int = 0
    #: One entry per game: its result (:func:`play_game`) and ``seats`` (label per seat).
    games: list[dict[str, Any]] = field(default_factory=list)

    def __post_init__(self) -> None:
        for n in self.names:
            self.wins.setdefault(n, 0)
            self.draws.setdefault(n, 0)
            self.losses.setdefault(n, 0)
            self.score_sum.setdefault(n, 0.0)
            self.seat_games.setdefault(n, [0] * self.num_players)

    def add(self, result: dict[str, Any], seats: list[str], players: list[str]) -> None:
        """Tally one game; ``seats[s]`` is the label of the agent in seat ``s``."""
        self.num_games += 1
        self.turns_sum += result["turns"]
        self.truncated += bool(result["truncated"])
        for s, (label, player) in enumerate(zip(seats, players)):
            tally = {"win": self.wins, "draw": self.draws, "loss": self.losses}[outcome_of(result, player)]
            tally[label] += 1
            self.score_sum[label] += result["scores"][player]
            self.seat_games[label][s] += 1
        self.games.append({**result, "seats": list(seats)})

    def win_rate(self, name: str) -> float:
        return self.wins[name] / self.num_games if self.num_games else 0.0

    def win_interval(self, name: str) -> tuple[float, float]:
        """95 % Wilson interval of the win rate."""
        return wilson_interval(self.wins[name], self.num_games)

    def mean_score(self, name: str) -> float:
        return self.score_sum[name] / self.num_games if self.num_games else 0.0

    @property
    def mean_turns(self) -> float:
        return self.turns_sum / self.num_games if self.num_games else 0.0

    def as_dict(self) -> dict[str, Any]:
        """The per-agent summary as plain data."""
        return {
            n: {
                "wins": self.wins[n],
                "draws": self.draws[n],
                "losses": self.losses[n],
                "win_rate": self.win_rate(n),
                "win_rate_95": self.win_interval(n),
                "mean_score": self.mean_score(n),
                "seat_games": list(self.seat_games[n]),
            }
            for n in self.names
        }

    def __str__(self) -> str:
        head = (
            f"{self.game}, {self.num_players} players, {self.num_games} games, "
            f"mean {self.mean_turns:.1f} turns, {self.truncated} truncated"
        )
        width = max(6, *(len(n) for n in self.names))
        lines = [
            head,
            f"{'agent':<{width}}  {'wins':>5} {'draws':>5} {'losses':>6}  {'win rate':>8}  "
            f"{'95% CI':<15}  {'mean score':>10}",
        ]
        for n in self.names:
            lo, hi = self.win_interval(n)
            ci = f"[{100 * lo:.1f}, {100 * hi:.1f}]"
            lines.append(
                f"{n:<{width}}  {self.wins[n]:>5} {self.draws[n]:>5} {self.losses[n]:>6}  "
                f"{100 * self.win_rate(n):>7.1f}%  {ci:<15}  {self.mean_score(n):>10.1f}"
            )
        return "\n".join(lines)


def _label(entry: Any) -> str:
    if isinstance(entry, str):
        return entry
    name = getattr(entry, "name", None)
    if isinstance(name, str) and not isinstance(entry, type):
        return name
    return getattr(entry, "__name__", type(entry).__name__)


def _labelled(agents: Mapping[Any, Any] | Sequence[Any]) -> list[tuple[str, Any]]:
    """(label, entry) pairs with unique labels (``random#1``, ``random#2`` for repeats)."""
    if isinstance(agents, Mapping):
        return [(str(k), v) for k, v in agents.items()]
    entries = list(agents)
    labels = [_label(e) for e in entries]
    counts = {lab: labels.count(lab) for lab in labels}
    seen: dict[str, int] = {}
    out = []
    for lab, e in zip(labels, entries):
        if counts[lab] > 1:
            seen[lab] = seen.get(lab, 0) + 1
            lab = f"{lab}#{seen[lab]}"
        out.append((lab, e))
    return out


def _build(entry: Any, seed: np.random.SeedSequence, game: str) -> Any:
    if hasattr(entry, "act") and not isinstance(entry, type):
        return entry
    if isinstance(entry, str):
        return make_agent(entry, seed=seed, game=game)
    if callable(entry):
        return entry(seed=seed)
    raise TypeError(f"{entry!r} is not an agent (no act()), an agent name or a factory")


def play_match(
    game: str,
    agents: Sequence[Any] | Mapping[str, Any] = ("greedy", "random"),
    num_games: int = 200,
    num_players: int = 2,
    seed: int = 0,
    swap_seats: bool = True,
    progress: bool = True,
    env: AECEnv | None = None,
    env_kwargs: Mapping[str, Any] | None = None,
) -> MatchResult:
    """Play ``num_games`` games between ``len(agents) == num_players`` agents.

    With ``swap_seats`` the seating rotates every game: in game ``g`` seat
    ``s`` is taken by agent ``(s + g) % num_players``, so each agent plays each
    seat equally often when ``num_games`` is a multiple of ``num_players``.
    Game ``g`` starts with ``env.reset(seed=...)`` from a seed derived from
    ``seed``; agents built here from names or factories get their own seeds
    from it too (agent objects keep their generators), so a match of
    seeded agents is reproducible.

    ``env``: play on this AEC env instead of a new ``azgames.make(game, ...)``
    (it holds the last game afterwards, e.g. to save its record).
    """
    import azgames

    if env is None:
        env = azgames.make(game, num_players=num_players, **dict(env_kwargs or {}))
    game = env.unwrapped.rules.info.name
    num_players = env.unwrapped.rules.num_players
    labelled = _labelled(agents)
    if len(labelled) != num_players:
        raise ValueError(f"a {num_players}-player match needs {num_players} agents, got {len(labelled)}")
    num_games = checks.integer("num_games", num_games, 1)
    root = np.random.SeedSequence(checks.seed("seed", seed))
    agent_seeds = root.spawn(num_players)
    game_seeds = root.generate_state(num_games, dtype=np.uint32)
    names = [lab for lab, _ in labelled]
    built = [_build(e, s, game) for (_, e), s in zip(labelled, agent_seeds)]
    players = list(env.possible_agents)
    result = MatchResult(game=game, num_players=num_players, names=names)
    bar = Progress(num_games, f"{game}: {' vs '.join(names)}", progress)
    try:
        for g in range(num_games):
            shift = g % num_players if swap_seats else 0
            order = [(s + shift) % num_players for s in range(num_players)]
            outcome = play_game(env, [built[i] for i in order], seed=int(game_seeds[g]))
            result.add(outcome, [names[i] for i in order], players)
            bar.update()
    finally:
        bar.close()
    return result


# ---------------------------------------------------------------- round robin


@dataclass
class RoundRobinResult:
    """All matches of a round robin, keyed by the tuple of agent names."""

    game: str
    num_players: int
    names: list[str]
    matches: dict[tuple[str, ...], MatchResult]

    def totals(self) -> dict[str, dict[str, int]]:
        out = {n: {"games": 0, "wins": 0, "draws": 0, "losses": 0} for n in self.names}
        for m in self.matches.values():
            for n in m.names:
                out[n]["games"] += m.num_games
                out[n]["wins"] += m.wins[n]
                out[n]["draws"] += m.draws[n]
                out[n]["losses"] += m.losses[n]
        return out

    def win_rate(self, row: str, col: str) -> float | None:
        """Two players: ``row``'s win rate against ``col`` (None on the diagonal)."""
        for key, m in self.matches.items():
            if set(key) == {row, col} and row != col:
                return m.win_rate(row)
        return None

    def __str__(self) -> str:
        width = max(6, *(len(n) for n in self.names))
        lines = [f"{self.game} round robin, {self.num_players} players, {len(self.matches)} matches"]
        if self.num_players == 2:
            lines.append("win rate of row against column:")
            lines.append(" " * width + "  " + "  ".join(f"{n:>{max(7, len(n))}}" for n in self.names))
            for r in self.names:
                cells = []
                for c in self.names:
                    w = self.win_rate(r, c)
                    cells.append(f"{'-' if w is None else f'{100 * w:.1f}%':>{max(7, len(c))}}")
                lines.append(f"{r:<{width}}  " + "  ".join(cells))
        lines.append(f"{'agent':<{width}}  {'games':>6} {'wins':>6} {'draws':>6} {'losses':>6}  win rate")
        for n, t in self.totals().items():
            rate = t["wins"] / t["games"] if t["games"] else 0.0
            lines.append(
                f"{n:<{width}}  {t['games']:>6} {t['wins']:>6} {t['draws']:>6} "
                f"{t['losses']:>6}  {100 * rate:7.1f}%"
            )
        return "\n".join(lines)


def round_robin(
    game: str,
    agents: Mapping[str, Any] | None = None,
    num_games: int = 200,
    num_players: int = 2,
    seed: int = 0,
    swap_seats: bool = True,
    progress: bool = True,
    env_kwargs: Mapping[str, Any] | None = None,
) -> RoundRobinResult:
    """A match of ``num_games`` between every set of ``num_players`` distinct
    agents of ``agents`` (name -> agent name or ``factory(seed=...)``; each
    match builds fresh agents)."""
    if not agents or len(agents) < num_players:
        raise ValueError(f"a {num_players}-player round robin needs at least {num_players} agents")
    names = list(agents)
    matches = {}
    for k, combo in enumerate(itertools.combinations(names, num_players)):
        matches[combo] = play_match(
            game,
            {n: agents[n] for n in combo},
            num_games=num_games,
            num_players=num_players,
            seed=seed + k,
            swap_seats=swap_seats,
            progress=progress,
            env_kwargs=env_kwargs,
        )
    return RoundRobinResult(game=game, num_players=num_players, names=names, matches=matches)
