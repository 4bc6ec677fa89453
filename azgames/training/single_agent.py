"""One learner against fixed opponents, as a single-agent gymnasium env.

Stable-Baselines3 and sb3-contrib train one policy on a ``gymnasium.Env``;
this wrapper turns any game of the suite into one. The other seats (agents
with ``act(env) -> int``, see ``agents/``; opponents, or teammates in Azure
Attack) move inside ``step`` until it is the learner's turn again or the game
ends, and the reward returned is the *learner's* reward accumulated over that
whole span, including the final reward when another seat's move ends the
game. A turn of several actions (Azure Attack) is several learner steps. ``action_masks()`` serves
sb3-contrib's ``MaskablePPO``.

An illegal action of the learner ends the episode with reward -1 by default
(``illegal_action="penalize"``): a learner sampling from the whole action
space, or gymnasium's and SB3's ``check_env``, must be able to step.
``illegal_action="raise"`` raises ValueError instead, for code that must
never play one.

    from sb3_contrib import MaskablePPO
    env = SingleAgentEnv("azacru", opponent="random", num_players=2)
    MaskablePPO("MlpPolicy", env).learn(100_000)
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import gymnasium
import numpy as np

from azgames.core import checks


class SingleAgentEnv(gymnasium.Env):
    """A gymnasium env in which one seat of a suite game is the learner.

    ``opponent`` is an agent name known to ``azgames.agents.make_agent`` (e.g.
    ``"random"``, ``"greedy"``), or a callable ``seed -> agent``; every other
    seat gets its own instance. ``seat`` is the learner's player number, or
    ``"random"`` to draw it at each reset from the env's generator.
    ``illegal_action`` is the game env's policy for the learner's illegal
    actions: ``"penalize"`` (the default: the episode ends, reward -1, and
    ``info["illegal_action"]`` says why) or ``"raise"``. Other keyword
    arguments make the game (``num_players``, options, ``infos``).
    """

    metadata: dict[str, Any] = {"render_modes": ["ansi", "rgb_array", "human"], "render_fps": 2}

    def __init__(
        self,
        game: str,
        opponent: str | Callable[[Any], Any] = "random",
        seat: int | str = 0,
        render_mode: str | None = None,
        illegal_action: str = "penalize",
        **env_kwargs: Any,
    ):
        import azgames

        self.env = azgames.make(game, render_mode=render_mode, illegal_action=illegal_action, **env_kwargs)
        self.render_mode = render_mode
        agents = self.env.possible_agents
        if seat != "random":
            seat = checks.integer("seat", seat, 0, len(agents) - 1)
        self.seat: int | str = seat
        self._opponent_factory = self._factory(game, opponent)
        self.observation_space = self.env.observation_space(agents[0])["observation"]
        self.action_space = self.env.action_space(agents[0])
        self.learner = agents[0]
        self.opponents: dict[str, Any] = {}

    @staticmethod
    def _factory(game: str, opponent: str | Callable[[Any], Any]) -> Callable[[Any], Any]:
        if callable(opponent):
            return opponent
        from azgames.agents import make_agent

        make_agent(opponent, seed=0, game=game)  # fails early, naming the valid agents
        return lambda seed: make_agent(opponent, seed=seed, game=game)

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        super().reset(seed=seed)
        self.env.reset(seed=None if seed is None else int(self.np_random.integers(2**63)))
        agents = self.env.possible_agents
        seat = self.seat if isinstance(self.seat, int) else int(self.np_random.integers(len(agents)))
        self.learner = agents[seat]
        self.opponents = {
            a: self._opponent_factory(int(self.np_random.integers(2**63)))
            for a in agents
            if a != self.learner
        }
        reward, done = self._play_opponents()
        obs, info = self._observation(), self._info()
        if done:  # the game ended before the learner's first turn; nothing to learn from
            info["ended_before_first_turn"] = reward
        return obs, info

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        learner = self.learner
        if self.env.agent_selection != learner:
            raise RuntimeError("step() called after the episode ended; call reset()")
        if isinstance(action, np.ndarray) and action.size == 1:
            action = action.reshape(())  # SB3's predict gives (1,) or () arrays
        self.env.step(action)
        reward = float(self.env.rewards.get(learner, 0.0))
        more, done = (0.0, True) if self._over() else self._play_opponents()
        reward += more
        terminated = done and any(self.env.terminations.values())
        truncated = done and not terminated
        return self._observation(), reward, terminated, truncated, self._info()

    def _over(self) -> bool:
        a = self.env.agent_selection
        return self.env.terminations[a] or self.env.truncations[a]

    def _play_opponents(self) -> tuple[float, bool]:
        """Let opponents move until the learner's turn; the learner's reward meanwhile."""
        reward = 0.0
        while not self._over() and self.env.agent_selection != self.learner:
            mover = self.opponents[self.env.agent_selection]
            self.env.step(mover.act(self.env))
            reward += float(self.env.rewards.get(self.learner, 0.0))
        return reward, self._over()

    def _observation(self) -> np.ndarray:
        return self.env.observe(self.learner)["observation"].copy()

    def _info(self) -> dict[str, Any]:
        info = copy.deepcopy(self.env.infos.get(self.learner, {}))  # nothing shared between calls
        info["learner"] = self.learner
        return info

    def action_masks(self) -> np.ndarray:
        """Legal actions of the learner (all False once the episode is over)."""
        return self.env.observe(self.learner)["action_mask"].astype(bool)

    def render(self) -> Any:  # gymnasium types its frame by a type variable
        """The game's render: text (``"ansi"``), an RGB image (``"rgb_array"``) or None
        (``"human"``: printed to stdout)."""
        return self.env.render()

    def close(self) -> None:
        self.env.close()
