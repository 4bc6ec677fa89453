"""The ``az`` agent: a Gumbel search guided by a network that Gumbel
AlphaZero trained (``python -m azgames train GAME --algo alphazero``), or
the network alone, playing without torch.

The network is a :class:`~azgames.agents.policy.NumpyPolicy` (what the
trainer writes): the one shipped for the game and the env's player count
(``agents/policies/az/<game>_<n>p.npz``) unless one is given. The search is
:class:`.search.GumbelSearch` over the one game the agent is asked about,
with no Gumbel noise (it plays for strength). ``simulations=0`` plays the
network's most likely legal action.
"""

from __future__ import annotations

import importlib
from pathlib import Path

import numpy as np

from azgames.core import checks
from azgames.core import state as state_ops
from azgames.core.agent import agent_rng, suite_env
from azgames.core.limits import LOCAL, Limits
from azgames.core.registry import rules_type

from .. import POLICIES
from ..mcts.games import hooks_of
from ..policy import NumpyPolicy, PolicyPerPlayerCount
from .search import GumbelSearch
from .settings import SearchSettings

#: Where the shipped ``az`` networks are, one per game and player count.
SHIPPED = POLICIES / "az"
#: The most simulations a move: the search's tree is allocated whole before
#: it starts (simulations x actions edges of 48 bytes; 4,096 in Azimuth is about 90 MB).
MAX_SIMULATIONS = 4096
#: The most root actions Sequential Halving may start with (more than any
#: game has legal); its schedule is a table of this many rows.
MAX_CONSIDERED = 1024


def has_heuristic(game: str) -> bool:
    """Whether ``game``'s search hooks give a heuristic agent's moves for playouts."""
    hooks = rules_type(game).search_hooks
    return hooks is not None and importlib.import_module(hooks).HOOKS.heuristic is not None


def shipped_network_path(game: str, num_players: int) -> Path:
    """Where the package keeps the ``az`` network of ``game`` with ``num_players``."""
    path = SHIPPED / f"{game}_{num_players}p.npz"
    if not path.is_file():
        raise ValueError(
            f"no az network ships for {game} with {num_players} players ({path.name}); train "
            f"one: python -m azgames train {game} --players {num_players} --algo alphazero"
        )
    return path


class AZAgent:
    name = "az"

    def __init__(
        self,
        policy: NumpyPolicy | None = None,
        simulations: int = 64,
        considered: int = 16,
        seed: int | None = None,
        game: str | None = None,
        limits: Limits = LOCAL,
        playout_weight: float | None = None,
        max_playout: int | None = None,
        prior_temperature: float | None = None,
        heuristic_playouts: bool | None = None,
        repetition_draws: bool | None = None,
        min_spread: float | None = None,
    ):
        if policy is None and game is None:
            raise ValueError("AZAgent needs a network or the game whose shipped network to play")
        if policy is not None and not isinstance(policy, NumpyPolicy):
            raise TypeError(f"policy must be a NumpyPolicy, got {type(policy).__name__}")
        self.game = policy.meta["game"] if policy is not None else game
        #: The network for a player count: the one given, or the shipped one.
        self.policy_for = PolicyPerPlayerCount(policy, self.game, shipped_network_path)
        most = min(limits.simulations, MAX_SIMULATIONS)
        self.simulations = checks.integer("simulations", simulations, 0, most)
        self.considered = checks.integer("considered", considered, 1, MAX_CONSIDERED)
        #: The search settings given here, over the network's (None: as it was trained).
        self.overrides = {
            "min_spread": min_spread,
            "playout_weight": playout_weight,
            "max_playout": max_playout,
            "prior_temperature": prior_temperature,
            "heuristic_playouts": heuristic_playouts,
        }
        SearchSettings().replace(**self.overrides)  # each checked, naming the bad one
        if heuristic_playouts and not has_heuristic(str(self.game)):
            raise ValueError(f"heuristic_playouts: {self.game} has no heuristic agent for playouts")
        if repetition_draws is not None and not isinstance(repetition_draws, bool):
            raise ValueError(f"repetition_draws={repetition_draws!r}: give true or false")
        #: Whether a return to a position on a walk's path is a draw (None:
        #: where the game's positions can come back, ``SearchHooks.repeats``).
        self.repetition_draws = repetition_draws
        #: The search's seed (its dice; none of its choices are random when it plays).
        self.seed = int(agent_rng(seed).integers(2**63))
        self._search: GumbelSearch | None = None  # the last env's, while its rules stay

    def act(self, env) -> int:
        raw = suite_env(env, self.game)
        policy = self.policy_for(raw.rules.num_players)
        obs = raw.observe(raw.agent_selection)
        if self.simulations == 0:
            return int(policy.act(obs["observation"][None], obs["action_mask"][None])[0])
        movers = np.array([raw.possible_agents.index(raw.agent_selection)])
        chosen, _ = self._search_for(raw.rules, policy).run(raw.state, movers, obs["observation"].size)
        return int(chosen[0])

    def act_batch(self, rules, state, mask, games: np.ndarray) -> np.ndarray:
        """A move for each of ``games`` (indices into the batch ``state``, each
        waiting on this agent), all searched at once: how a vector env's
        opponent or an evaluation plays the agent (:mod:`azgames.training.opponents`)."""
        policy = self.policy_for(rules.num_players)
        batch = state_ops.select(state, np.asarray(games))
        n = len(games)
        obs = np.zeros((n, *rules.observation_shape(0)), np.int8)
        legal = np.zeros((n, rules.num_actions), np.int8)
        movers = np.zeros(n, np.int64)
        rules.vec_observe(batch, obs, legal, movers)  # the agent to act in each, as the envs say
        if self.simulations == 0:
            return policy.act(obs, legal.astype(bool))
        chosen, _ = self._search_for(rules, policy).run(batch, movers, obs[0].size)
        return chosen

    def _search_for(self, rules, policy: NumpyPolicy) -> GumbelSearch:
        if self._search is None or self._search.rules is not rules:

            def evaluate(o: np.ndarray, m: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
                logits, values = policy.evaluate(o, m)
                return logits, np.clip(values, -1.0, 1.0)

            values = policy.value_head[0].shape[1]
            # Searched as it was trained (or as its settings file says), but for the options given here.
            trained = SearchSettings.from_dict(policy.meta.get("search", {}), "the network's search")
            self._search = GumbelSearch(
                rules,
                evaluate,
                self.simulations,
                self.considered,
                gumbel_scale=0.0,
                seed=self.seed,
                values=values,
                settings=trained.replace(**self.overrides),
                repetition_draws=self._repetition_draws(rules),
            )
        return self._search

    def _repetition_draws(self, rules) -> bool:
        if self.repetition_draws is not None:
            return self.repetition_draws
        repeats = hooks_of(rules).repeats
        return repeats is not None and repeats(rules)

    def __repr__(self) -> str:
        return f"AZAgent({self.game}, simulations={self.simulations}, considered={self.considered})"
