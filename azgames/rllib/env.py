"""Any registered game as a turn-based RLlib ``MultiAgentEnv``.

RLlib's multi-agent API takes a dict of actions and returns dicts of
observations, rewards, terminations and truncations. In a turn-based game

- only the agent to move gets an observation (``{"observations",
  "action_mask"}``: the game's planes flattened to float32, and the legal
  actions as 0/1 floats for :class:`~azgames.rllib.module.MaskedPPOTorchRLModule`);
- every reward goes to its agent at once, whoever moved: RLlib adds a reward
  that reaches an agent between its turns to that agent's last action, so a
  game ended by an opponent's move still pays the loser;
- when the game ends, every agent that has played gets its final observation
  and reward, and ``terminateds`` (or ``truncateds``, at the game's turn
  limit) holds ``"__all__": True``; its final info holds its ``return``
  (everything the game paid it), the built-in ``opponent`` (or
  ``"league"``) and the count of ``illegal_action`` s;
- Azure Attack's repeated turns are two observations in a row for one agent.

**Built-in opponents.** The suite's own agents (``random``, ``greedy``,
``mcts``, ``ppo``) need the game itself, not an observation, so they play
inside the env: with ``builtin_share=p``, a share ``p`` of the games seats one
team (drawn at random) as the learner and gives every other seat to one
opponent drawn from ``builtin_opponents``. The learner's agents in such a game
are named ``learner_<seat>`` (``learner_player_0``, ...), so the mapping from
agents to RLlib modules can send them to the trained module without knowing
the env's draw (:mod:`azgames.rllib.selfplay`). The other seats never show.

**Teams.** :func:`teams` gives each seat its side: one side per player, except
Azure Attack's hunters (one side against the monster) and the co-op mode (all
seats one side).

Illegal actions: ``illegal_action="penalize"`` (the default) ends the game
with -1 for the offender, as RLlib's env checker sends unmasked random
actions; ``info["illegal_action"]`` counts it and a masked module never pays
it. ``"raise"`` raises a ValueError naming the action instead.
"""

from __future__ import annotations

import itertools
from typing import Any

import gymnasium as gym
import numpy as np
from ray.rllib.env.multi_agent_env import MultiAgentEnv

import azgames
from azgames.core import checks

#: The configuration keys of :class:`TurnBasedEnv`, with their defaults
#: (``game`` has none: it must be given).
DEFAULTS: dict[str, Any] = {
    "game": None,
    "num_players": 2,
    "options": {},
    "builtin_opponents": {"random": 1.0},
    "builtin_share": 0.0,
    "illegal_action": "penalize",
    "seed": None,
}

LEARNER_PREFIX = "learner_"


def teams(game_env) -> list[int]:
    """The side of each seat of a suite AEC env, in seat order (the game's ``Rules.sides``)."""
    rules = game_env.unwrapped.rules
    side_of = {seat: k for k, side in enumerate(rules.sides) for seat in side}
    return [side_of[seat] for seat in range(rules.num_players)]


def env_config(config: dict | None) -> dict[str, Any]:
    """``config`` completed with :data:`DEFAULTS`; ValueError naming a bad key or value."""
    config = dict(config or {})
    unknown = sorted(set(config) - set(DEFAULTS))
    if unknown:
        raise ValueError(f"unknown TurnBasedEnv config key(s) {unknown}; valid keys: {sorted(DEFAULTS)}")
    out = {k: config.get(k, v) for k, v in DEFAULTS.items()}
    if out["game"] is None:
        raise ValueError("TurnBasedEnv config needs 'game': a registered game's name")
    share = out["builtin_share"]
    if not isinstance(share, (int, float)) or not 0.0 <= share <= 1.0:
        raise ValueError(f"builtin_share={share!r} must be a number in [0, 1]")
    weights = out["builtin_opponents"]
    if (
        not isinstance(weights, dict)
        or not weights
        or any(not isinstance(w, (int, float)) or w < 0 for w in weights.values())
        or sum(weights.values()) <= 0
    ):
        raise ValueError(f"builtin_opponents={weights!r} must map agent names to weights >= 0, not all 0")
    checks.one_of("illegal_action", out["illegal_action"], ["penalize", "raise"])
    return out


class TurnBasedEnv(MultiAgentEnv):
    """One game of the suite, turn by turn, for RLlib (see the module's docstring).

    ``config`` keys (all optional, :data:`DEFAULTS`): ``game``,
    ``num_players``, ``options`` (the game's own, e.g. ``{"map": "..."}``),
    ``builtin_opponents`` (agent name or spec, e.g. ``"mcts:simulations=50"``,
    -> weight), ``builtin_share``,
    ``illegal_action``, ``seed`` (of the first game and of the draws,
    offset by the env runner's index and by how many envs its process made
    before)."""

    _made = itertools.count()

    def __init__(self, config: dict | None = None):
        super().__init__()
        from azgames.agents import agent_names, parse_agent

        cfg = env_config(config)
        self.config = cfg
        self.game = azgames.make(
            cfg["game"],
            num_players=cfg["num_players"],
            illegal_action=cfg["illegal_action"],
            **cfg["options"],
        ).unwrapped
        valid = agent_names(cfg["game"])
        bad = [n for n in cfg["builtin_opponents"] if parse_agent(n)[0] not in valid]
        if bad:
            raise ValueError(
                f"builtin opponent {bad[0]!r} does not play {cfg['game']}; valid agents: {', '.join(valid)}"
            )
        self.seats = list(self.game.possible_agents)
        self.seat_team = teams(self.game)
        self.num_teams = max(self.seat_team) + 1
        uses_builtin = cfg["builtin_share"] > 0 and self.num_teams > 1
        self.possible_agents = self.seats + ([LEARNER_PREFIX + s for s in self.seats] if uses_builtin else [])
        self.agents: list[str] = []
        planes = self.game.observation_space(self.seats[0])["observation"]
        num_actions = self.game.action_space(self.seats[0]).n
        space = gym.spaces.Dict(
            {
                "observations": gym.spaces.Box(
                    float(planes.low.min()),
                    float(planes.high.max()),
                    (int(np.prod(planes.shape)),),
                    np.float32,
                ),
                "action_mask": gym.spaces.Box(0.0, 1.0, (num_actions,), np.float32),
            }
        )
        self.observation_spaces = dict.fromkeys(self.possible_agents, space)
        self.action_spaces: dict[str, gym.spaces.Space] = dict.fromkeys(
            self.possible_agents, gym.spaces.Discrete(num_actions)
        )
        seed = checks.seed("seed", cfg["seed"])
        if seed is not None:
            # Distinct games in every env of every runner: RLlib's EnvContext
            # names the runner; the envs of one runner are numbered as made.
            seed += 1000 * getattr(config, "worker_index", 0) + next(TurnBasedEnv._made)
        self._rng = np.random.default_rng(seed)
        self._next_seed = seed
        self._builtin: dict[str, Any] = {}  # seat -> agent, this game
        self._learner_team: int | None = None  # the learner's side in a built-in game
        self._opponent_names = list(cfg["builtin_opponents"])
        weights = np.array([cfg["builtin_opponents"][n] for n in self._opponent_names], float)
        self._opponent_p = weights / weights.sum()
        self._opponents: dict[str, Any] = {}  # name -> agent, made on first use
        self.opponent = None  # the built-in opponent's name in this game, or None

    # ------------------------------------------------------------ reset / step
    def reset(self, *, seed: int | None = None, options: dict | None = None):
        if seed is not None:
            self._rng = np.random.default_rng(checks.seed("seed", seed))
            self._next_seed = seed
        while True:  # a game won by built-in opponents before the learner moves is replayed
            self.game.reset(seed=self._next_seed)
            self._next_seed = None  # later games continue the env's own chain of seeds
            self._draw_sides()
            self._seen: set[str] = set()
            self._pending = dict.fromkeys(self.seats, 0.0)
            self._returns = dict.fromkeys(self.seats, 0.0)
            self._illegal = 0
            self._play_builtin()
            if not self._game_over():
                break
        self.agents = [self._id(s) for s in self.seats if s not in self._builtin]
        return {self._id(self._mover()): self._observation(self._mover())}, {}

    def step(self, action_dict: dict):
        seat = self._mover()
        agent = self._id(seat)
        if agent not in action_dict:
            raise ValueError(f"it is {agent}'s turn; the actions given are for {sorted(action_dict)}")
        action = int(action_dict[agent])
        mask = self.game.observe(seat)["action_mask"]
        if not (0 <= action < len(mask) and mask[action]):
            self._illegal += 1
        self.game.step(action)
        self._collect_rewards()
        self._play_builtin()
        if self._game_over():
            return self._final()
        mover = self._mover()
        obs = {self._id(mover): self._observation(mover)}
        rewards = self._take_rewards()
        return obs, rewards, {"__all__": False}, {"__all__": False}, {}

    # ------------------------------------------------------------ the sides
    def _draw_sides(self) -> None:
        """Built-in or league game, and who plays which seat (see the docstring)."""
        self._builtin = {}
        self.opponent = None
        self._learner_team = None
        if (
            LEARNER_PREFIX + self.seats[0] in self.possible_agents
            and self._rng.random() < self.config["builtin_share"]
        ):
            self._learner_team = int(self._rng.integers(self.num_teams))
            name = self._opponent_names[int(self._rng.choice(len(self._opponent_names), p=self._opponent_p))]
            self.opponent = name
            agent = self._opponent(name)
            self._builtin = {s: agent for s, t in zip(self.seats, self.seat_team) if t != self._learner_team}

    def _opponent(self, name: str):
        if name not in self._opponents:
            from azgames.agents import make_agent

            self._opponents[name] = make_agent(
                name, seed=int(self._rng.integers(2**31)), game=self.config["game"]
            )
        return self._opponents[name]

    def _id(self, seat: str) -> str:
        return LEARNER_PREFIX + seat if self._learner_team is not None else seat

    def _play_builtin(self) -> None:
        while not self._game_over() and self._mover() in self._builtin:
            self.game.step(self._builtin[self._mover()].act(self.game))
            self._collect_rewards()
        if not self._game_over():
            self._seen.add(self._mover())

    # ------------------------------------------------------------ the game
    def _mover(self) -> str:
        return self.game.agent_selection

    def _game_over(self) -> bool:
        return any(self.game.terminations.values()) or any(self.game.truncations.values())

    def _observation(self, seat: str) -> dict[str, np.ndarray]:
        seen = self.game.observe(seat)
        return {
            "observations": seen["observation"].reshape(-1).astype(np.float32),
            "action_mask": seen["action_mask"].astype(np.float32),
        }

    def _collect_rewards(self) -> None:
        for seat, r in self.game.rewards.items():
            self._pending[seat] += r
            self._returns[seat] += r

    def _take_rewards(self) -> dict[str, float]:
        """The rewards held for agents that have played (a reward before an
        agent's first turn cannot be credited to any of its actions)."""
        out = {self._id(s): float(self._pending[s]) for s in self._seen if s not in self._builtin}
        for s in self._seen:
            self._pending[s] = 0.0
        return out

    def _final(self):
        seats = [s for s in self.seats if s in self._seen and s not in self._builtin]
        obs = {self._id(s): self._observation(s) for s in seats}
        rewards = self._take_rewards()
        terminated = any(self.game.terminations.values())
        done = {self._id(s): True for s in seats}
        infos = {
            self._id(s): {
                "return": self._returns[s],
                "illegal_action": self._illegal,
                "opponent": self.opponent or "league",
            }
            for s in seats
        }
        return (
            obs,
            rewards,
            {**({k: terminated for k in done}), "__all__": terminated},
            {**({k: not terminated for k in done}), "__all__": not terminated},
            infos,
        )
