"""The ``mcts`` agent: UCT with random playouts, for every game of the suite."""

from __future__ import annotations

import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import numpy as np

from azgames.core import checks
from azgames.core.agent import agent_rng, suite_env
from azgames.core.limits import LOCAL, Limits

from .games import chance_queue, hooks_of
from .interface import observes
from .network import net_from_policy
from .tree import Tree, run, workspace

#: Simulations between two looks at the clock (a time budget's granularity).
CHUNK = 32
#: Simulations between two looks at :meth:`MCTSAgent.stop` without a time
#: budget: a stopped search ends within a few milliseconds.
STOP_CHUNK = 256


@dataclass(frozen=True)
class SearchResult:
    """What one search found at the root: every legal action, its visits and
    its mean return for the agent to move."""

    actions: np.ndarray
    visits: np.ndarray
    values: np.ndarray
    simulations: int
    seconds: float
    nodes: int

    def best(self) -> int:
        """The most visited action (ties: the higher value, then the lower action)."""
        order = np.lexsort((-self.values, -self.visits))
        return int(self.actions[order[0]])


class MCTSAgent:
    """Monte Carlo tree search (UCT) over the game's own numba kernels.

    ``simulations`` per move (default 1,000) and/or ``seconds`` per move (the
    search stops at whichever comes first); ``c`` is UCT's exploration
    constant for rewards in [-1, 1] (1: against Azacru's greedy, 2 (OpenSpiel's
    default) won fewer games; 0.5 as many, but starved a two-step plan of
    visits in a test); ``max_playout`` caps a playout's plies (-1: play to
    the end), after which the game's estimate of the position counts
    (Azimuth: the greedy's distance-to-home lead; the co-op: the team's
    progress home; Azure Attack: the gold lead; elsewhere a draw). Its
    default is the game's (its search hooks' ``max_playout``: 0 for Azimuth
    and the co-op, the estimate at once; 20 for Azure Attack; -1 elsewhere).
    ``prior_temperature`` > 0 guides the search by the game's estimate
    (AlphaZero's PUCT, the estimate after each action as its prior and
    first value; see :mod:`azgames.agents.mcts.tree`); 0 is plain UCT. Its
    default is the game's (its search hooks' ``prior_temperature``:
    0.1 for Azimuth, whose 40-190 actions a turn plain UCT cannot look past,
    0 elsewhere).
    ``policy`` makes it an AlphaZero-style player: a trained policy (a
    :class:`~azgames.agents.policy.NumpyPolicy`, or ``"ppo"`` for the one
    shipped for the env's game and player count) gives each new node's
    priors and its value, in place of playouts (2-player games).
    With a simulations budget alone the agent is deterministic for its ``seed``. Chance (Azure Attack's fights, the co-op
    die) gets chance nodes; see :mod:`azgames.agents.mcts.tree`.

    ``threads`` > 1 searches in parallel (root parallelisation): each thread
    grows its own tree with its share of the simulations (its own seed; the
    search releases the GIL), and the roots' visits and values are summed.
    Still deterministic for a seed and a thread count.
    """

    name = "mcts"

    def __init__(
        self,
        seed=None,
        game: str | None = None,
        simulations: int | None = 1000,
        seconds: float | None = None,
        c: float = 1.0,
        max_playout: int | None = None,
        prior_temperature: float | None = None,
        policy=None,
        threads: int = 1,
        limits: Limits = LOCAL,
    ):
        self.rng = agent_rng(seed)
        self.game = game
        if simulations is None and seconds is None:
            raise ValueError("give simulations, seconds or both: the search needs a budget")
        self.simulations = (
            None if simulations is None else checks.integer("simulations", simulations, 1, limits.simulations)
        )
        self.max_simulations = limits.simulations  # a time budget's cap
        self.seconds = (
            None if seconds is None else checks.number("seconds", seconds, 0, limits.seconds, open_low=True)
        )
        if limits.deadline:  # every search ends in time, whatever its budget
            self.seconds = limits.seconds if self.seconds is None else self.seconds
        self.c = checks.number("c", c, 0, limits.exploration)
        self.max_playout = None if max_playout is None else checks.integer("max_playout", max_playout, -1)
        self.prior_temperature = (
            None
            if prior_temperature is None
            else checks.number("prior_temperature", prior_temperature, 0, 1e6)
        )
        if not (policy is None or policy == "ppo" or hasattr(policy, "policy_head")):
            raise ValueError(f"policy must be 'ppo' or a NumpyPolicy, got {policy!r}")
        if getattr(policy, "convs", None):
            raise ValueError(
                "mcts's guide runs an MLP inside its search; this policy has a conv trunk "
                "(search it with az:path=...)"
            )
        self.policy = policy
        self._nets: dict = {}
        self.threads = checks.integer("threads", threads, 1, limits.threads)
        self._pool: ThreadPoolExecutor | None = None
        self._stopped = threading.Event()

    def stop(self) -> None:
        """End every search of this agent now and from now on (its client has
        gone): a search under way returns its best action so far."""
        self._stopped.set()

    def act(self, env) -> int:
        legal = suite_env(env, self.game).legal_actions()
        if len(legal) == 1:
            return int(legal[0])
        return self.search(env).best()

    def search(self, env) -> SearchResult:
        """Search the env's position; the env is not changed."""
        raw = suite_env(env, self.game)
        start = time.perf_counter()
        words = [int(self.rng.integers(2**63)) for _ in range(self.threads)]
        shares: list[int | None]
        if self.simulations is None:
            shares = [None] * self.threads
        else:
            shares = [
                self.simulations // self.threads + (k < self.simulations % self.threads)
                for k in range(self.threads)
            ]
        if self.threads == 1:
            found = [self._search_one(raw, shares[0], words[0], start)]
        else:
            if self._pool is None:
                self._pool = ThreadPoolExecutor(self.threads, thread_name_prefix="mcts")
            found = list(
                self._pool.map(
                    lambda k: self._search_one(raw, shares[k], words[k], start), range(self.threads)
                )
            )
        visits: dict[int, int] = {}
        returns: dict[int, float] = {}
        for actions, n, value in (tree.root_edges() for tree, _ in found):
            for a, k, v in zip(actions.tolist(), n.tolist(), value.tolist()):
                visits[a] = visits.get(a, 0) + k
                returns[a] = returns.get(a, 0.0) + k * v
        actions = np.array(sorted(visits), np.int64)
        n = np.array([visits[a] for a in actions.tolist()], np.int64)
        values = np.array([returns[a] / max(visits[a], 1) for a in actions.tolist()])
        return SearchResult(
            actions,
            n,
            values,
            sum(done for _, done in found),
            time.perf_counter() - start,
            sum(int(tree.arrays.used[0]) for tree, _ in found),
        )

    def _search_one(self, raw, simulations: int | None, seed_word: int, start: float):
        """One tree's search: ``(tree, simulations run)``."""
        work = type(raw.state)(*(np.concatenate([a, a, a]) for a in raw.state))  # root, work, scratch
        hooks = hooks_of(raw.rules)
        forced, faces = chance_queue(work)
        cfg = hooks.config(raw.rules)
        max_playout = hooks.max_playout if self.max_playout is None else self.max_playout
        temperature = (
            float(hooks.prior_temperature if self.prior_temperature is None else self.prior_temperature)
            or None
        )
        tree = Tree(
            raw.possible_agents.index(raw.agent_selection),
            nodes=2 * (simulations or 1000) + 8,
            edges=64 * raw.rules.num_actions,
        )
        net = self._net(raw)
        ws = workspace(raw.rules.num_actions, raw.rules.num_players, forced.shape[1], seed_word)
        target = simulations if self.seconds is None else (simulations or self.max_simulations)
        assert target is not None  # no time budget: the constructor required simulations
        done = 0
        # Chunks end in the same tree as one call would: the search's state
        # lives in the arrays and its generator in ``ws``.
        while done < target and not (done and self._stopped.is_set()):
            chunk = min(target - done, CHUNK if self.seconds is not None else STOP_CHUNK)
            ran = run(work, cfg, forced, faces, tree.arrays, ws, self.c, max_playout, temperature, net, chunk)
            done += ran
            if ran < chunk:
                tree.grow()
            elif self.seconds is not None and time.perf_counter() - start >= self.seconds:
                break
        return tree, done

    def _net(self, raw):
        """The policy's network for this env (None without a policy); one per
        thread, as the forward pass writes into its buffers."""
        if self.policy is None:
            return None
        from ..policy import NumpyPolicy, shipped_policy_path

        game, players = raw.rules.info.name, raw.rules.num_players
        key = (threading.get_ident(), game, players)
        if key not in self._nets:
            # Its network's value is the mover's; the others get its negative (net.others).
            if players != 2 or len(raw.rules.sides) != 2 or not observes(type(raw.state)):
                raise ValueError(
                    f"a policy guides the search of a 2-player game of two sides whose "
                    f"search hooks observe; this env is {game} with {players} players"
                )
            policy = (
                NumpyPolicy.load(shipped_policy_path(game, players)) if self.policy == "ppo" else self.policy
            )
            if (policy.meta["game"], policy.meta["num_players"]) != (game, players):
                raise ValueError(
                    f"the policy plays {policy.meta['game']} with "
                    f"{policy.meta['num_players']} players; this env is {game} "
                    f"with {players}"
                )
            self._nets[key] = net_from_policy(policy)
        return self._nets[key]

    def __repr__(self) -> str:
        budget = [f"simulations={self.simulations}"] if self.simulations else []
        if self.seconds:
            budget.append(f"seconds={self.seconds}")
        threads = f", threads={self.threads}" if self.threads > 1 else ""
        prior = "" if self.prior_temperature is None else f", prior_temperature={self.prior_temperature}"
        if self.policy is not None:
            prior += f", policy={self.policy if self.policy == 'ppo' else 'NumpyPolicy'}"
        return f"MCTSAgent({', '.join(budget)}, c={self.c}{prior}{threads})"
