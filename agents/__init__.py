"""Agents and the match runner.

An agent is any object with ``act(env) -> int`` (:class:`azgames.core.agent.Agent`):
given the AEC env whose turn it is (it may read ``env.last()``,
``env.unwrapped.state``, ``env.unwrapped.rules`` or play ahead on
``env.unwrapped.clone()``), it returns a legal action of
``env.agent_selection``. Agents are built with a ``seed`` for their own
:class:`numpy.random.Generator`.

``make_agent("greedy", seed=0, game="azacru")`` builds an agent by name: the
agents of this package play every game that suits them (``random``, ``ppo``
where a trained policy ships, ``mcts`` where the game declares search
hooks), and each game adds the baselines it ships in its own package
(``Rules.baselines``: its ``greedy``). :mod:`azgames.agents.match` plays
games, matches and round robins.

The package installs as ``azgames.agents`` (the folder is ``agents/``): a
top-level ``agents`` would collide with other packages of that name. In a
source checkout ``import agents`` still finds the folder, with a warning.
"""

from __future__ import annotations

if __name__ == "agents":  # the old name, found only from a source checkout's root
    import warnings

    warnings.warn(
        "the agents are azgames.agents now: write 'from azgames.agents "
        "import ...' ('import agents' works only in a source checkout)",
        DeprecationWarning,
        stacklevel=2,
    )

import importlib
import inspect
import json
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from difflib import SequenceMatcher
from pathlib import Path
from typing import TYPE_CHECKING, Any

from azgames.core.inputs import refuse_paths
from azgames.core.limits import LOCAL, Limits
from azgames.core.registry import list_games, rules_type

from .random_agent import RandomAgent

if TYPE_CHECKING:
    from azgames.core.agent import Agent
    from azgames.core.game import Baseline

POLICIES = Path(__file__).resolve().parent / "policies"


@dataclass(frozen=True)
class AgentEntry:
    name: str
    factory: Callable[..., Any]  # factory(seed=..., game=..., **options) -> agent
    plays: Callable[[str], bool]  # plays(game): whether it plays that game
    summary: str
    #: "module:attribute" of what the factory builds: its keywords are the agent's
    #: options (with the factory's own), read only to name them in an error.
    builds: str
    #: Keywords of what it builds that a spec cannot give (an object: path= gives it).
    not_options: tuple[str, ...] = ()


def _ppo(seed: Any = None, game: str | None = None, path: Any = None, **kwargs: Any) -> Any:
    """The shipped trained policy of ``game`` (loaded for the env's player count on first
    use), or the policy file at ``path`` (a training run's ``policy.npz``)."""
    from .policy import NumpyPolicy, PolicyAgent

    if path is None:
        return PolicyAgent(seed=seed, game=game, **kwargs)
    refuse_paths("ppo:path", "play the shipped policy: ppo")
    policy = NumpyPolicy.load(path)
    if game is not None and policy.meta["game"] != game:
        raise ValueError(f"path={path}: a policy of {policy.meta['game']}, not of {game}")
    return PolicyAgent(policy, seed=seed, **kwargs)


def _az(
    seed: Any = None, game: str | None = None, path: Any = None, limits: Limits = LOCAL, **kwargs: Any
) -> Any:
    """The Gumbel search with the network shipped for ``game`` (loaded for the env's
    player count on first use), or with the network at ``path`` (a ``train --algo
    alphazero`` run's ``policy.npz``), its budget within ``limits``."""
    from .az.agent import AZAgent
    from .policy import NumpyPolicy

    if path is None:
        return AZAgent(seed=seed, game=game, limits=limits, **kwargs)
    refuse_paths("az:path", "play the shipped network: az")
    policy = NumpyPolicy.load(path)
    if game is not None and policy.meta["game"] != game:
        raise ValueError(f"path={path}: a network of {policy.meta['game']}, not of {game}")
    return AZAgent(policy, seed=seed, limits=limits, **kwargs)


def _alphabeta(seed: Any = None, game: str | None = None, **kwargs: Any) -> Any:
    """Alpha-beta search to a fixed depth over ``game``'s kernels (compiles the search on first use)."""
    from .alphabeta import AlphaBetaAgent

    return AlphaBetaAgent(seed=seed, game=game, **kwargs)


def _plays_alphabeta(game: str) -> bool:
    """A game of two players and no more, zero-sum, without chance, with search hooks:
    minimax's own ground (the search itself needs only the hooks)."""
    rules = rules_type(game)
    return (
        rules.search_hooks is not None
        and rules.info.chance == "deterministic"
        and rules.info.utility == "zero_sum"
        and rules.info.max_players == 2
    )


def _mcts(seed: Any = None, game: str | None = None, limits: Limits = LOCAL, **kwargs: Any) -> Any:
    """Monte Carlo tree search over ``game``'s kernels (compiles the search on first use),
    its budget within ``limits``."""
    from .mcts import MCTSAgent

    return MCTSAgent(seed=seed, game=game, limits=limits, **kwargs)


AGENTS: dict[str, AgentEntry] = {
    "random": AgentEntry(
        "random",
        lambda seed=None, game=None, **kw: RandomAgent(seed=seed, **kw),
        lambda game: True,
        "uniform over the legal actions",
        "azgames.agents.random_agent:RandomAgent",
    ),
    "ppo": AgentEntry(
        "ppo",
        _ppo,
        lambda game: any(POLICIES.glob(f"{game}_*p.npz")),
        "the trained policy shipped for the game and player count (numpy forward "
        "pass, no torch): python -m azgames train made it",
        "azgames.agents.policy:PolicyAgent",
        ("policy",),
    ),
    "mcts": AgentEntry(
        "mcts",
        _mcts,
        lambda game: rules_type(game).search_hooks is not None,
        "Monte Carlo tree search (UCT, random playouts, chance nodes for dice) "
        "over the game's numba kernels: 1,000 simulations a move by default",
        "azgames.agents.mcts:MCTSAgent",
    ),
    "az": AgentEntry(
        "az",
        _az,
        lambda game: any((POLICIES / "az").glob(f"{game}_[0-9]p.npz")),
        "Gumbel search guided by the network Gumbel AlphaZero trained for the game and "
        "player count (64 simulations a move; az:simulations=0 plays the network alone; "
        "no torch): python -m azgames train --algo alphazero made it",
        "azgames.agents.az.agent:AZAgent",
        ("policy",),
    ),
    "alphabeta": AgentEntry(
        "alphabeta",
        _alphabeta,
        _plays_alphabeta,
        "minimax with alpha-beta pruning to a fixed depth (alphabeta:depth=N, 1-12, default 4) "
        "over the game's numba kernels, the game's estimate at the leaves (0 without one); "
        "2-player zero-sum games without chance",
        "azgames.agents.alphabeta:AlphaBetaAgent",
    ),
}


def baselines(game: str) -> dict[str, Baseline]:
    """The baseline agents ``game`` ships in its own package, by name."""
    return dict(rules_type(game).baselines)


def agent_names(game: str | None = None) -> list[str]:
    """The agents that play ``game`` (every agent's name if None)."""
    if game is None:
        own = {name for g in list_games() for name in baselines(g.name)}
        return ["random", *sorted(own), *[n for n in AGENTS if n != "random"]]
    return ["random", *baselines(game), *[n for n, e in AGENTS.items() if n != "random" and e.plays(game)]]


#: The keywords a front end fills, not options of a spec.
FILLED = frozenset({"self", "seed", "game", "limits"})


def _load(reference: str) -> Any:
    """``"module:attribute"``, imported."""
    module, _, attribute = reference.partition(":")
    return getattr(importlib.import_module(module), attribute)


def _keywords(function: Callable[..., Any], not_options: tuple[str, ...] = ()) -> list[str]:
    named = (inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY)
    parameters = inspect.signature(function).parameters.values()
    return [p.name for p in parameters if p.kind in named and p.name not in FILLED.union(not_options)]


def agent_options(name: str, game: str | None = None) -> list[str]:
    """The options a spec may give agent ``name`` (``mcts:simulations=50``)."""
    if name in AGENTS:
        entry = AGENTS[name]
        built = _keywords(_load(entry.builds), entry.not_options)
        return built + [k for k in _keywords(entry.factory) if k not in built]
    if game is None:
        raise ValueError(f"agent {name!r} is a game's own: give the game (game=...)")
    return _keywords(_load(baselines(game)[name].factory))


def closest(name: str, valid: Sequence[str]) -> str | None:
    """The valid name that ``name`` most likely misspells or shortens, if one
    is close: difflib's ratio of at least 0.6 to the whole valid name or to
    as many of its first letters (``sims`` is ``simu...``'s, ``simulations``)."""

    def likeness(candidate: str) -> float:
        return max(SequenceMatcher(None, name, c).ratio() for c in (candidate, candidate[: len(name)]))

    best = max(valid, key=likeness, default=None)
    return best if best is not None and likeness(best) >= 0.6 else None


def unknown_name(
    kind: str, name: str, owner: str, valid: Sequence[str], also: str = "", extra: Sequence[str] = ()
) -> str:
    """``unknown agent 'gredy' for azacru; did you mean 'greedy'? valid agents:
    random, greedy, ...``: ``also`` ends it, naming the ``extra`` names a
    front end takes besides the valid ones (they may be the suggestion)."""
    guess = closest(name, [*valid, *extra])
    hint = f" did you mean {guess!r}?" if guess else ""
    listed = f"valid {kind}s: {', '.join(valid)}" if valid else f"it takes no {kind}s"
    return f"unknown {kind} {name!r}{owner};{hint} {listed}{also}"


class UnknownAgent(ValueError):
    """No agent of the game has the name; a front end that also takes other
    names (a keyboard seat) rewords it from ``name``, ``game`` and ``valid``."""

    def __init__(self, name: str, game: str | None, valid: list[str]):
        self.name, self.game, self.valid = name, game, valid
        super().__init__(unknown_name("agent", name, f" for {game}" if game else "", valid))


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


def _check_spec_options(spec: str, name: str, game: str | None, options: dict[str, Any]) -> None:
    """A spec may not set what the front end fills (``seed``, ``limits``: a
    budget past the limits would slip through), and a flag is true or false,
    not any text."""
    for key in FILLED.intersection(options):
        owner = f" for {name}" if name in AGENTS else f" for {game}'s {name}"
        raise ValueError(unknown_name("option", key, owner, agent_options(name, game)))
    if name in AGENTS:
        builder = _load(AGENTS[name].builds)
    else:
        assert game is not None  # a game's own agent is refused above without its game
        builder = _load(baselines(game)[name].factory)
    parameters = inspect.signature(builder).parameters
    for key, value in options.items():
        if key in parameters and parameters[key].annotation in (bool, "bool") and not isinstance(value, bool):
            raise ValueError(f"agent {spec!r}: {key}={value!r} is not true or false")


def make_agent(
    name: str, seed: Any = None, game: str | None = None, limits: Limits = LOCAL, **kwargs: Any
) -> Agent:
    """Build a registered agent from its name, or a spec with options
    (``"ppo:path=runs/x/policy.npz"``, :func:`parse_agent`), every option
    checked (a search's budget within ``limits``); ValueError naming the
    spec and what is wrong otherwise (an unknown agent or option lists the
    valid ones: :class:`UnknownAgent`).
    Every front end builds its agents here, before its first game."""
    spec = name
    name, options = parse_agent(name)
    kwargs = {**options, **kwargs}
    valid = agent_names(game)
    # A trained network's file plays any game, shipped networks or not.
    if name not in valid and not (name in ("ppo", "az") and "path" in kwargs):
        raise UnknownAgent(name, game, valid)
    if game is None and name not in AGENTS:
        raise ValueError(f"agent {name!r} is a game's own: give the game (game=...)")
    _check_spec_options(spec, name, game, options)
    if name in ("mcts", "az"):
        kwargs["limits"] = limits
    try:
        if name in AGENTS:
            return AGENTS[name].factory(seed=seed, game=game, **kwargs)
        assert game is not None  # a game's own agent is refused above without its game
        return _load(baselines(game)[name].factory)(seed=seed, **kwargs)
    except TypeError as e:
        option = re.search(r"unexpected keyword argument '(\w+)'", str(e))
        if option:
            owner = f" for {name}" if name in AGENTS else f" for {game}'s {name}"
            raise ValueError(unknown_name("option", option[1], owner, agent_options(name, game))) from None
        raise ValueError(f"agent {spec!r}: {e}") from None
    except ValueError as e:
        raise ValueError(f"agent {spec!r}: {e}") from None


def __getattr__(name: str) -> Any:  # the agents without compiling anything at import time
    if name == "MCTSAgent":
        from .mcts import MCTSAgent

        return MCTSAgent
    if name in ("NumpyPolicy", "PolicyAgent"):
        from . import policy

        return getattr(policy, name)
    raise AttributeError(f"module 'azgames.agents' has no attribute {name!r}")


__all__ = [
    "RandomAgent",
    "NumpyPolicy",
    "PolicyAgent",
    "MCTSAgent",
    "AGENTS",
    "agent_names",
    "agent_options",
    "UnknownAgent",
    "unknown_name",
    "baselines",
    "make_agent",
    "parse_agent",
]
