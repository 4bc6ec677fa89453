"""Baseline agents and the match runner.

An agent is any object with ``act(env) -> int``: given the AEC env whose turn
it is (it may read ``env.last()``, ``env.unwrapped.state``,
``env.unwrapped.rules`` or play ahead on ``env.unwrapped.clone()``), it returns
a legal action of ``env.agent_selection``. Agents are built with a ``seed``
for their own :class:`numpy.random.Generator`.

``make_agent("greedy", seed=0, game="azacru")`` builds a registered agent by
name (``"greedy"`` is a different agent per game: :class:`AzacruGreedy`,
:class:`AzimuthGreedy`, :class:`AzimuthCoopGreedy` (one policy for the whole
co-op team), :class:`AzureGreedy`); :mod:`azgames.agents.match` plays
games, matches and round robins.

The package installs as ``azgames.agents`` (the folder is ``agents/``): a
top-level ``agents`` would collide with other packages of that name. In a
source checkout ``import agents`` still finds the folder, with a warning.
"""

from __future__ import annotations

if __name__ == "agents":  # the old name, found only from a source checkout's root
    import warnings

    warnings.warn("the baseline agents are azgames.agents now: write 'from azgames.agents "
                  "import ...' ('import agents' works only in a source checkout)",
                  DeprecationWarning, stacklevel=2)

import json
import re
from dataclasses import dataclass
from typing import Any, Callable

from azgames.inputs import refuse_paths
from azgames.limits import LOCAL, Limits

from .random_agent import RandomAgent


@dataclass(frozen=True)
class AgentEntry:
    name: str
    factory: Callable[..., Any]  # factory(seed=...) -> agent (by_game: factory(seed=..., game=...))
    games: frozenset[str] | None  # None: every game
    summary: str
    by_game: bool = False  # the factory builds the agent of the game it is given


def _greedy(seed=None, game=None, **kwargs):
    """The greedy baseline of ``game`` (Azacru's when no game is given)."""
    if game == "azimuth":
        from .azimuth_greedy import AzimuthGreedy  # imports the Azimuth kernels

        return AzimuthGreedy(seed=seed, **kwargs)
    if game == "azimuth_coop":
        from .azimuth_coop_greedy import AzimuthCoopGreedy  # imports the co-op kernels

        return AzimuthCoopGreedy(seed=seed, **kwargs)
    if game == "azure":
        from .azure_greedy import AzureGreedy  # imports the Azure kernels

        return AzureGreedy(seed=seed, **kwargs)
    from .azacru_greedy import AzacruGreedy  # imports the Azacru kernels

    return AzacruGreedy(seed=seed, **kwargs)


def _ppo(seed=None, game=None, path=None, **kwargs):
    """The shipped trained policy of ``game`` (loaded for the env's player count on first
    use), or the policy file at ``path`` (a training run's ``policy.npz``)."""
    from .policy import NumpyPolicy, PolicyAgent

    if path is None:
        return PolicyAgent(seed=seed, game=game or "azacru", **kwargs)
    refuse_paths("ppo:path", "play the shipped policy: ppo")
    policy = NumpyPolicy.load(path)
    if game is not None and policy.meta["game"] != game:
        raise ValueError(f"path={path}: a policy of {policy.meta['game']}, not of {game}")
    return PolicyAgent(policy, seed=seed, **kwargs)


def _mcts(seed=None, game=None, limits=LOCAL, **kwargs):
    """Monte Carlo tree search over ``game``'s kernels (compiles the search on first use),
    its budget within ``limits``."""
    from .mcts import MCTSAgent

    return MCTSAgent(seed=seed, game=game, limits=limits, **kwargs)


AGENTS: dict[str, AgentEntry] = {
    "random": AgentEntry("random", RandomAgent, None, "uniform over the legal actions"),
    "greedy": AgentEntry("greedy", _greedy,
                         frozenset({"azacru", "azimuth", "azimuth_coop", "azure"}),
                         "one-ply: Azacru, the move leaving it the most own tiles; Azimuth, the "
                         "action bringing its castaway nearest home (short plans of its own); "
                         "Azimuth co-op, one policy for the team: the action bringing the team "
                         "nearest home (most castaways home, then their summed distance "
                         "estimate); Azure, a step along the shortest path to the best gold, "
                         "home to bank it, or onto a hunter carrying gold (monster)",
                         by_game=True),
    "ppo": AgentEntry("ppo", _ppo,
                      frozenset({"azacru", "azimuth", "azimuth_coop", "azure"}),
                      "the trained policy shipped for the game and player count (numpy forward "
                      "pass, no torch): python -m azgames train made it",
                      by_game=True),
    "mcts": AgentEntry("mcts", _mcts, frozenset({"azacru", "azimuth", "azimuth_coop", "azure"}),
                       "Monte Carlo tree search (UCT, random playouts, chance nodes for dice) "
                       "over the game's numba kernels: 1,000 simulations a move by default",
                       by_game=True),
}


def agent_names(game: str | None = None) -> list[str]:
    """Registered agents (those that can play ``game`` if given)."""
    return [n for n, e in AGENTS.items() if game is None or e.games is None or game in e.games]


def parse_agent(spec: str) -> tuple[str, dict[str, Any]]:
    """``"mcts:simulations=200,c=1.4"`` -> ``("mcts", {"simulations": 200, "c": 1.4})``."""
    name, _, args = spec.partition(":")
    kwargs: dict[str, Any] = {}
    for item in filter(None, args.split(",")):
        key, eq, value = item.partition("=")
        if not eq or not key:
            raise ValueError(f"agent {spec!r}: options are key=value, separated by commas")
        try:
            kwargs[key] = json.loads(value)
        except json.JSONDecodeError:
            kwargs[key] = value
    return name, kwargs


def make_agent(name: str, seed=None, game: str | None = None, limits: Limits = LOCAL, **kwargs):
    """Build a registered agent from its name, or a spec with options
    (``"ppo:path=runs/x/policy.npz"``, :func:`parse_agent`), every option
    checked (a search's budget within ``limits``); ValueError naming the
    spec and what is wrong otherwise (an unknown agent lists the valid ones).
    Every front end builds its agents here, before its first game."""
    spec = name
    name, options = parse_agent(name)
    kwargs = {**options, **kwargs}
    valid = agent_names(game)
    where = f" for {game}" if game else ""
    if name not in valid:
        raise ValueError(f"unknown agent {name!r}{where}; valid agents: {', '.join(valid)}")
    entry = AGENTS[name]
    if name == "mcts":
        kwargs["limits"] = limits
    try:
        if entry.by_game:
            return entry.factory(seed=seed, game=game, **kwargs)
        return entry.factory(seed=seed, **kwargs)
    except TypeError as e:
        unknown = re.search(r"unexpected keyword argument '(\w+)'", str(e))
        if unknown:
            raise ValueError(f"agent {spec!r}: {name}{where} has no option {unknown[1]!r}") from None
        raise ValueError(f"agent {spec!r}: {e}") from None
    except ValueError as e:
        raise ValueError(f"agent {spec!r}: {e}") from None


def __getattr__(name):  # the greedy agents without compiling anything at import time
    if name == "AzacruGreedy":
        from .azacru_greedy import AzacruGreedy

        return AzacruGreedy
    if name == "AzimuthGreedy":
        from .azimuth_greedy import AzimuthGreedy

        return AzimuthGreedy
    if name == "AzimuthCoopGreedy":
        from .azimuth_coop_greedy import AzimuthCoopGreedy

        return AzimuthCoopGreedy
    if name == "AzureGreedy":
        from .azure_greedy import AzureGreedy

        return AzureGreedy
    if name == "MCTSAgent":
        from .mcts import MCTSAgent

        return MCTSAgent
    if name in ("NumpyPolicy", "PolicyAgent"):
        from . import policy

        return getattr(policy, name)
    raise AttributeError(f"module 'agents' has no attribute {name!r}")


__all__ = ["RandomAgent", "AzacruGreedy", "AzimuthGreedy", "AzimuthCoopGreedy", "AzureGreedy",
           "NumpyPolicy", "PolicyAgent", "MCTSAgent", "AGENTS", "agent_names", "make_agent",
           "parse_agent"]
