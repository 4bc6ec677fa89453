"""Baseline agents and the match runner.

An agent is any object with ``act(env) -> int``: given the AEC env whose turn
it is (it may read ``env.last()``, ``env.unwrapped.state``,
``env.unwrapped.rules`` or play ahead on ``env.unwrapped.clone()``), it returns
a legal action of ``env.agent_selection``. Agents are built with a ``seed``
for their own :class:`numpy.random.Generator`.

``make_agent("greedy", seed=0, game="azacru")`` builds a registered agent by
name; :mod:`agents.match` plays games, matches and round robins.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from .random_agent import RandomAgent


@dataclass(frozen=True)
class AgentEntry:
    name: str
    factory: Callable[..., Any]  # factory(seed=...) -> agent
    games: frozenset[str] | None  # None: every game
    summary: str


def _greedy(seed=None, **kwargs):
    from .azacru_greedy import AzacruGreedy  # imports the Azacru kernels

    return AzacruGreedy(seed=seed, **kwargs)


AGENTS: dict[str, AgentEntry] = {
    "random": AgentEntry("random", RandomAgent, None, "uniform over the legal actions"),
    "greedy": AgentEntry("greedy", _greedy, frozenset({"azacru"}),
                         "one-ply: the move leaving it the most own tiles"),
}


def agent_names(game: str | None = None) -> list[str]:
    """Registered agents (those that can play ``game`` if given)."""
    return [n for n, e in AGENTS.items() if game is None or e.games is None or game in e.games]


def make_agent(name: str, seed=None, game: str | None = None, **kwargs):
    """Build a registered agent; ValueError listing the valid names otherwise."""
    valid = agent_names(game)
    if name not in valid:
        where = f" for {game}" if game else ""
        raise ValueError(f"unknown agent {name!r}{where}; valid agents: {', '.join(valid)}")
    return AGENTS[name].factory(seed=seed, **kwargs)


def __getattr__(name):  # AzacruGreedy without compiling anything at import time
    if name == "AzacruGreedy":
        from .azacru_greedy import AzacruGreedy

        return AzacruGreedy
    raise AttributeError(f"module 'agents' has no attribute {name!r}")


__all__ = ["RandomAgent", "AzacruGreedy", "AGENTS", "agent_names", "make_agent"]
