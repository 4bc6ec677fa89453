"""Who plays the other seats of a :class:`~azgames.training.learner_env.LearnerVecEnv`.

An opponent answers for many games at once: ``actions(env, games)`` returns
one legal action for each game index in ``games``, all of which wait on it.

- :class:`RandomOpponent`: uniform legal actions, drawn in numba;
- :class:`PolicyOpponent`: a :class:`~azgames.agents.policy.NumpyPolicy`
  (a snapshot of the learner, or a shipped policy), one forward pass for all
  its games;
- :class:`AgentOpponent`: any agent of the suite (e.g. ``greedy``): batched
  when the agent has ``act_batch(rules, state, mask, games)`` (Azacru's
  greedy), else one game at a time through an AEC env, in Python: correct
  for every agent, but the slow path.
"""

from __future__ import annotations

import numpy as np

from azgames.agents import make_agent, parse_agent
from azgames.agents.policy import NumpyPolicy
from azgames.core import state as state_ops


class RandomOpponent:
    """Uniformly random legal actions, from each game's own generator."""

    name = "random"

    def actions(self, env, games: np.ndarray) -> np.ndarray:
        return env.venv.random_actions()[games]


class PolicyOpponent:
    """A numpy policy playing a batch of games: sampled from its softmax
    (``sample=True``, as the learner plays while it trains) or its most
    likely action."""

    def __init__(self, policy: NumpyPolicy, seed=None, sample: bool = True, name: str = "policy"):
        self.policy = policy
        self.rng = np.random.default_rng(seed)
        self.sample = sample
        self.name = name

    def actions(self, env, games: np.ndarray) -> np.ndarray:
        return self.policy.act(
            env.venv.observation[games], env.venv.action_mask[games], self.rng if self.sample else None
        )


class AgentOpponent:
    """An agent of the suite (by spec, e.g. ``"greedy"`` or
    ``"greedy:lookahead=1"``), batched when it has ``act_batch``, else one
    game at a time through an AEC env holding a copy of that game's position."""

    def __init__(self, spec: str, game: str, seed=None, **env_options):
        import azgames

        self.name = spec
        name, kwargs = parse_agent(spec)
        self.agent = make_agent(name, seed=seed, game=game, **kwargs)
        self._env = azgames.make(game, **env_options)
        self._env.reset(seed=0)

    def actions(self, env, games: np.ndarray) -> np.ndarray:
        venv = env.venv
        if hasattr(self.agent, "act_batch"):
            return self.agent.act_batch(venv.rules, venv.state, venv.action_mask, games)
        out = np.empty(len(games), np.int64)
        for k, g in enumerate(games):
            # The vector env's own kernels made this position: no need to check it again.
            self._env.unwrapped.set_state(state_ops.select(venv.state, int(g)), check=False)
            out[k] = self.agent.act(self._env)
        return out


def make_opponent(spec, game: str, seed=None, **env_options):
    """An opponent from an agent name, a :class:`NumpyPolicy`, or an opponent object."""
    if spec == "random":
        return RandomOpponent()
    if isinstance(spec, NumpyPolicy):
        return PolicyOpponent(spec, seed=seed)
    if isinstance(spec, str):
        return AgentOpponent(spec, game, seed=seed, **env_options)
    if not callable(getattr(spec, "actions", None)):
        raise TypeError(
            f"opponent {spec!r} is neither an agent name, a NumpyPolicy, "
            f"nor an object with actions(env, games)"
        )
    return spec
