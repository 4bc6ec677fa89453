"""The PettingZoo AEC env shared by every game of the suite.

The wrapper is thin: a game's :class:`~azgames.core.game.Rules` does the work in one
numba call per step, and this class keeps PettingZoo's bookkeeping (agent
cycling, the rewards/terminations/truncations/infos dicts, dead steps) and
the contract checks (``step`` before ``reset``, action type and range, the
illegal-action policy) in one place. It enforces the contract itself rather
than through PettingZoo's wrapper chain, which costs ~55 us a step.

``observe`` returns arrays that belong to the caller: each step writes its
observation and mask into fresh buffers, so earlier observations never change.
"""

from __future__ import annotations

import copy
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple, SupportsIndex

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils.env import AECIterable

from . import checks
from . import state as state_ops
from .chance import ChanceOutcome
from .game import DREW, ONGOING, TERMINATED, TRUNCATED, LastStep, Rules, unpack_status
from .rng import next_word, seed_words

if TYPE_CHECKING:
    from .drawing import Drawing

#: A step as a game's record keeps it: an action, or ``(action, draws)`` for
#: one whose chance draws were forced.
HistoryEntry = int | tuple[int, tuple[int, ...]]

ILLEGAL_ACTION_POLICIES = ("raise", "penalize")
#: What ``infos`` hold: ``"full"``, the game's facts as it reports them (names,
#: text, lists that grow); ``"numeric"``, :func:`numeric_info`'s fixed keys
#: of fixed shape from reset on, for clients that batch infos into arrays
#: (TorchRL, Tianshou). Either way :attr:`GameAECEnv.game_infos` holds the full ones.
INFO_FORMATS = ("full", "numeric")


def numeric_info(full: dict[str, Any], agents: list[str], agent: str) -> dict[str, Any]:
    """``agent``'s ``full`` info as numbers of fixed shape, zeros until the
    game ends: ``score`` and ``scores`` (floats; ``scores`` and ``winners`` in
    ``agents``' order), ``won`` and ``winners`` (0/1), ``turns``, and
    ``illegal_action`` (1 when this agent's illegal action ended the game)."""
    scores = full.get("scores", {})
    winners = full.get("winners", ())
    illegal = full.get("illegal_action")
    return {
        "score": float(full.get("score", 0)),
        "scores": [float(scores.get(a, 0)) for a in agents],
        "won": int(agent in winners),
        "winners": [int(a in winners) for a in agents],
        "turns": int(full.get("turns", 0)),
        "illegal_action": int(illegal is not None and illegal["agent"] == agent),
    }


def _copied(value: Any) -> Any:
    """A copy of JSON-like ``value`` sharing no list or dict with it (infos
    nest them: a turn order, suit tiles); 3x faster than ``copy.deepcopy``."""
    if isinstance(value, dict):
        return {k: _copied(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_copied(v) for v in value]
    return value


class GameAECEnv(AECEnv):
    """AEC env over one game of a :class:`Rules` class (set ``rules_type``).

    ``illegal_action``: ``"raise"`` (ValueError) or ``"penalize"`` (the game
    ends, -1 to the offender). ``infos``: ``"full"``, the game's own infos
    (names, text, chance events), or ``"numeric"``, :func:`numeric_info`'s
    fixed keys and shapes for clients that batch infos (TorchRL, Tianshou);
    :attr:`game_infos` holds the full ones either way. ``render_mode``:
    ``"ansi"``, ``"rgb_array"`` or ``"human"`` (the text printed to stdout).
    """

    rules_type: type[Rules]
    #: Each game's class adds ``"name"``, its versioned name as PettingZoo has
    #: it (``"azimuth_v1"``, from its rules' name and version: :mod:`.envs`).
    metadata: dict[str, Any] = {
        # "human" prints the text picture to stdout: a text game's display.
        "render_modes": ["ansi", "rgb_array", "human"],
        "is_parallelizable": False,
        "render_fps": 2,
    }

    def __init__(
        self,
        num_players: int = 2,
        render_mode: str | None = None,
        illegal_action: str = "raise",
        infos: str = "full",
        **options: Any,
    ):
        super().__init__()
        checks.one_of("render_mode", render_mode, [None, *self.metadata["render_modes"]])
        checks.one_of("illegal_action", illegal_action, ILLEGAL_ACTION_POLICIES)
        checks.one_of("infos", infos, INFO_FORMATS)
        #: ``infos`` as asked (:data:`INFO_FORMATS`).
        self.info_format = infos
        self._numeric_infos = infos == "numeric"
        self.rules = self.rules_type(num_players, **options)
        self.render_mode = render_mode
        self.illegal_action = illegal_action
        self.possible_agents = list(self.rules.agents)
        self._observation_spaces = {
            a: self.rules.observation_space(i) for i, a in enumerate(self.possible_agents)
        }
        self._action_spaces: dict[str, spaces.Space] = {
            a: spaces.Discrete(self.rules.num_actions) for a in self.possible_agents
        }
        self._player_of = {a: i for i, a in enumerate(self.possible_agents)}
        self._num_actions = self.rules.num_actions
        obs_shape = self._observation_spaces[self.possible_agents[0]]["observation"].shape
        assert obs_shape is not None  # a Box's shape is always set
        self._obs_shape: tuple[int, ...] = obs_shape
        self._live = False
        self._rewards_buf = np.zeros(self.rules.num_players, dtype=np.float32)
        self._seed_word: int | None = None  # None: the first unseeded reset takes fresh entropy
        #: The game going on (a batch of one of the game's state named tuple); None before reset().
        self.state: NamedTuple | None = None

    # ------------------------------------------------------------ spaces
    def observation_space(self, agent: str) -> spaces.Dict:
        return self._observation_spaces[self._known(agent)]

    def action_space(self, agent: str) -> spaces.Space:
        return self._action_spaces[self._known(agent)]

    def _known(self, agent: Any) -> str:
        """``agent`` if it names one of this game's agents."""
        if not isinstance(agent, str) or agent not in self._player_of:
            raise ValueError(
                f"agent={agent!r} is not an agent of this game; its agents are {self.possible_agents}"
            )
        return agent

    def _require_game(self, what: str) -> NamedTuple:
        """The game going on; RuntimeError naming ``what`` before the first reset."""
        if self.state is None:
            raise RuntimeError(f"{what} called before reset(); call env.reset() first")
        return self.state

    # ------------------------------------------------------------ reset / step
    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        """Start a new game. ``seed`` seeds the game's generator (chance events);
        with no seed, the env's generator continues (fresh entropy the first time)."""
        seed = checks.seed("seed", seed)
        # PettingZoo's api_test passes options it makes up: a dict is accepted
        # and unused (the game's options are set when making the env).
        if options is not None and not isinstance(options, dict):
            raise TypeError(f"options={options!r} must be a dict or None")
        # Each reset draws the next word of a hash chain started by the last
        # seed: a plain int, so clone() and pickle copy it for free.
        if seed is not None or self._seed_word is None:
            self._seed_word = int(seed_words(seed, 1)[0])
        else:
            self._seed_word = next_word(self._seed_word)
        # The start of the record is set up again from the word when a record
        # asks for it: copying it here cost a sixth of a short game's reset.
        self._start_from(self.rules.initial_state(np.array([self._seed_word], np.uint64)), fresh=True)

    def _start_from(self, state: NamedTuple, fresh: bool = False) -> None:
        """Make ``state`` (a batch of one) the current game and the start of
        its record (``fresh``: it is the new game of ``self._seed_word``)."""
        self.state = state
        self._start = None if fresh else state_ops.clone(state)
        self._history: list[HistoryEntry] = []
        #: (ply, agent, state before) of the last step, kept by a rendered game.
        self._before: tuple[int, str, NamedTuple] | None = None
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._rewards_stale = False
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self._start_infos = self.rules.start_infos(state)
        self._chance_shown = False
        self._set_infos({a: dict(self._start_infos[i]) for i, a in enumerate(self.agents)})
        self._new_buffers()
        self._live = True
        actor = self._observe_current()
        self.agent_selection = self.possible_agents[actor]

    def _set_infos(self, full: dict[str, dict[str, Any]]) -> None:
        """Make ``full`` the game's infos; ``infos`` shows them as asked."""
        #: Every agent's full info (the game's facts, chance events, results),
        #: whatever ``infos`` shows: the same dicts when ``infos="full"``.
        self.game_infos = full
        if self._numeric_infos:
            self.infos = {a: numeric_info(info, self.possible_agents, a) for a, info in full.items()}
        else:
            self.infos = full

    def _new_buffers(self) -> None:
        self._obs = np.empty(self._obs_shape, dtype=np.int8)
        self._mask = np.empty(self._num_actions, dtype=np.int8)

    def _observe_current(self) -> int:
        """Refresh the actor's buffers from the state; mark a finished game. Returns the actor."""
        outcome, _, actor = unpack_status(self.rules.observe(self.state, -1, self._obs, self._mask))
        if outcome != ONGOING:
            self._finish(outcome, self.rules.final_info(self.state), rewards=None)
        return actor

    def step(self, action: SupportsIndex) -> None:
        if not self._live:
            if self.state is None:
                raise RuntimeError("step() called before reset(); call env.reset() first")
            if not self.agents:
                raise RuntimeError(
                    "step() called after the game ended and every agent was removed "
                    "(env.agents is empty); call env.reset() to play again"
                )
            self._was_dead_step(action)
            return
        agent = self.agent_selection
        # Fast path for the common case (a legal Python int); anything else is
        # converted, or refused with its reason, by _checked_action.
        if type(action) is int and 0 <= action < self._num_actions and self._mask[action]:
            a = action
        else:
            a = self._checked_action(action, agent)
            if a < 0:  # penalized illegal action: the game is over
                return
        self._cumulative_rewards[agent] = 0.0
        self._obs = obs = np.empty(self._obs_shape, np.int8)
        self._mask = mask = np.empty(self._num_actions, np.int8)
        if self.render_mode is not None:  # a rendered game names its last step cheaply
            self._before = (len(self._history) + 1, agent, state_ops.clone(self._require_game("step()")))
        code = self.rules.step(self.state, a, obs, mask, self._rewards_buf)
        self._history.append(a)
        # Decoded inline (unpack_status, a call more, is the same): the AEC hot path.
        if code & 3 == ONGOING:
            if code & 4:
                self._take_rewards()
            elif self._rewards_stale:  # rewards hold the last step's only
                self.rewards = dict.fromkeys(self.agents, 0.0)
                self._rewards_stale = False
            self.agent_selection = self.possible_agents[code >> 4]
        else:
            self._finish(code & 3, self.rules.final_info(self.state), rewards=self._rewards_buf)
        # Most steps draw nothing, and the infos hold no old draw: nothing to do.
        if code & DREW or self._chance_shown:
            self._report_chance()

    def _report_chance(self) -> None:
        """Put the last step's chance events in every agent's info (new dicts:
        infos handed out earlier do not change)."""
        events = self.rules.chance_info(self.state)
        self._chance_shown = events is not None
        infos = self.game_infos
        if events:
            infos = {a: {**info, "chance": events} for a, info in infos.items()}
        else:
            infos = {a: {k: v for k, v in info.items() if k != "chance"} for a, info in infos.items()}
        if self._numeric_infos:  # chance events have no numbers to show: infos stay
            self.game_infos = infos
        else:
            self.infos = self.game_infos = infos

    def _take_rewards(self) -> None:
        self.rewards = {a: float(self._rewards_buf[i]) for i, a in enumerate(self.possible_agents)}
        self._rewards_stale = True
        self._accumulate_rewards()

    def _checked_action(self, action: Any, agent: str) -> int:
        """The action as an int if legal; raise or penalize otherwise (-1)."""
        try:
            a = checks.integer(f"action for {agent}", action)
        except TypeError as e:  # step's contract since the first release: a ValueError
            raise ValueError(str(e)) from None
        if 0 <= a < self.rules.num_actions and self._mask[a]:
            return a
        if not 0 <= a < self.rules.num_actions:
            reason = f"out of range [0, {self.rules.num_actions})"
        else:
            reason = self.rules.illegal_reason(self.state, a) or "not legal here"
        if self.illegal_action == "raise":
            shown: int | str = a
            if 0 <= a < self.rules.num_actions:
                shown = f"{a} ({self.rules.action_to_str(self.state, a)})"
            raise ValueError(f"illegal action {shown} for {agent}: {reason}")
        self._penalize(agent, a, reason)
        return -1

    def _penalize(self, agent: str, action: int, reason: str) -> None:
        rewards = np.zeros(self.rules.num_players, dtype=np.float32)
        rewards[self._player_of[agent]] = -1.0
        infos = [{"illegal_action": {"agent": agent, "action": action, "reason": reason}}] * len(
            self.possible_agents
        )
        self._finish(TERMINATED, infos, rewards)

    def _finish(self, outcome: int, infos: list[dict[str, Any]], rewards: np.ndarray | None) -> None:
        self._live = False
        self.terminations = {a: outcome == TERMINATED for a in self.agents}
        self.truncations = {a: outcome == TRUNCATED for a in self.agents}
        self._set_infos(
            {
                a: {**self._start_infos[i], **infos[i]}
                for i, a in enumerate(self.possible_agents)
                if a in self.agents
            }
        )
        if rewards is not None:
            self._rewards_buf[:] = rewards
            self._take_rewards()
        # Fresh buffers: arrays handed out before the end must not change.
        self._obs = self._obs.copy()
        self._mask = np.zeros_like(self._mask)

    @property
    def _start_state(self) -> NamedTuple:
        """The position this game's record starts from."""
        if self._start is None:
            return self.rules.initial_state(np.array([self._seed_word], np.uint64))
        return self._start

    # ------------------------------------------------------------ explicit chance
    def chance_outcomes(self, action: SupportsIndex, merge: bool = True) -> list[ChanceOutcome]:
        """The chance outcomes that the actor's legal ``action`` would draw now,
        with their probabilities (empty when it draws nothing): a search agent
        branches on them with :meth:`step_outcome` on clones. ``merge=False``
        lists every die draw instead of every distinct effect."""
        return self.rules.chance_outcomes(self.state, self._legal_action(action), merge)

    def step_outcome(self, action: SupportsIndex, outcome: ChanceOutcome | tuple[int, ...]) -> None:
        """Play ``action`` with its chance events forced to ``outcome`` (one of
        :meth:`chance_outcomes`, or its ``draws``). The record keeps the draws."""
        a = self._legal_action(action)
        if isinstance(outcome, ChanceOutcome):
            draws = outcome.draws
        elif isinstance(outcome, (tuple, list)):
            draws = tuple(checks.integer("outcome draw", d) for d in outcome)
        else:
            raise TypeError(f"outcome={outcome!r} must be a ChanceOutcome or a tuple of draws")
        possible = {o.draws for o in self.rules.chance_outcomes(self.state, a, merge=False)}
        if draws not in possible:
            raise ValueError(
                f"draws {draws} are not an outcome of {self.action_to_str(a)}"
                + ("" if possible else " (it draws nothing)")
            )
        self.rules.force_draws(self.state, draws)
        self.step(a)
        self._history[-1] = (a, draws)

    def _legal_action(self, action: SupportsIndex) -> int:
        self._require_game("chance_outcomes()")
        if not self._live:
            raise RuntimeError("the game is over: there is nothing to draw")
        a = checks.integer("action", action)
        if not (0 <= a < self._num_actions and self._mask[a]):
            raise ValueError(f"action {a} is not legal for {self.agent_selection} here")
        return a

    # ------------------------------------------------------------ observation
    def observe(self, agent: str) -> dict[str, np.ndarray]:
        self._require_game("observe()")
        if agent == self.agent_selection:
            return {"observation": self._obs, "action_mask": self._mask}
        obs = np.empty_like(self._obs)
        mask = np.empty_like(self._mask)
        self.rules.observe(self.state, self._player_of[self._known(agent)], obs, mask)
        return {"observation": obs, "action_mask": mask}

    # ------------------------------------------------------------ notation
    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        self._require_game("last()")
        return super().last(observe)

    def agent_iter(self, max_iter: int = 2**63) -> AECIterable:
        self._require_game("agent_iter()")
        return super().agent_iter(max_iter)

    def action_to_str(self, action: SupportsIndex) -> str:
        """The action in the game's notation, in the current position."""
        self._require_game("action_to_str()")
        a = checks.integer("action", action, 0, self._num_actions - 1)
        return self.rules.action_to_str(self.state, a)

    def str_to_action(self, text: str) -> int:
        """Parse the game's notation in the current position."""
        self._require_game("str_to_action()")
        if not isinstance(text, str):
            raise TypeError(f"text={text!r} must be a str in the game's notation")
        return self.rules.str_to_action(self.state, text)

    def legal_actions(self) -> list[int]:
        """The current actor's legal actions (empty once the game is over)."""
        self._require_game("legal_actions()")
        return np.flatnonzero(self._mask).tolist()

    # ------------------------------------------------------------ state
    def clone(self) -> GameAECEnv:
        """An independent copy of the env mid-game (array copies; the rules are shared)."""
        state = self._require_game("clone()")
        other = copy.copy(self)
        other.state = state_ops.clone(state)
        other._obs, other._mask = self._obs.copy(), self._mask.copy()
        other._rewards_buf = self._rewards_buf.copy()
        other._history = list(self._history)
        for name in ("agents", "rewards", "_cumulative_rewards", "terminations", "truncations"):
            setattr(other, name, copy.copy(getattr(self, name)))
        other.game_infos = _copied(self.game_infos)
        other.infos = _copied(self.infos) if self._numeric_infos else other.game_infos
        return other

    @property
    def history(self) -> list[HistoryEntry]:
        """This game's steps so far, as its record keeps them: an action, or
        ``(action, draws)`` for one whose chance draws were forced."""
        return list(self._history)

    def replay_step(self, entry: SupportsIndex | tuple[Any, Any] | list[Any]) -> None:
        """Play one entry of :attr:`history` (or of a record's ``actions``,
        where a forced step is ``[action, draws]``) with the same draws."""
        if isinstance(entry, (tuple, list)):
            self.step_outcome(entry[0], tuple(entry[1]))
        else:
            self.step(entry)

    def rewind(self, ply: SupportsIndex) -> None:
        """Go back to this game's position after its first ``ply`` steps (0:
        its start); the later steps leave its record. The start's state
        carries the random generator, so replaying draws the same dice."""
        self._require_game("rewind()")
        n = len(self._history)
        ply = checks.integer("ply", ply)
        if not 0 <= ply <= n:
            raise ValueError(f"ply={ply}: this game has plies 0 to {n}")
        kept = self._history[:ply]
        self._start_from(state_ops.clone(self._start_state))
        for entry in kept:
            self.replay_step(entry)

    def to_record(self) -> dict[str, Any]:
        """This game as a JSON-able record (see :mod:`azgames.core.records`)."""
        from .records import to_record

        return to_record(self)

    def save_record(self, path: str | os.PathLike) -> Path:
        """Save this game as JSON; ``azgames.load_record(path)`` restores it.
        Returns the path written."""
        from .records import save_record

        return save_record(self, path)

    def set_state(self, state: NamedTuple, check: bool = True) -> None:
        """Continue from an arbitrary position (a batch of one), e.g. a test diagram.
        A record made afterwards starts from this position. ``check=False``
        skips the checks of its values, for a position the suite's own
        kernels made (a vector env's game); anything else must be checked."""
        if check:
            self.rules.check_state(state, batch=1)
        self._start_from(state_ops.clone(state))

    # ------------------------------------------------------------ rendering
    def last_step(self) -> LastStep | None:
        """The step that led to the current position (None at the start)."""
        self._require_game("last_step()")
        if not self._history:
            return None
        if self._before is not None and self._before[0] == len(self._history):
            _, agent, before = self._before
        else:
            replay = self.clone()
            replay.render_mode = None
            replay.rewind(len(self._history) - 1)
            agent, before = replay.agent_selection, replay._require_game("last_step()")
        entry = self._history[-1]
        a = entry[0] if isinstance(entry, tuple) else entry
        return LastStep(agent, a, self.rules.action_to_str(before, a), before)

    def picture(self) -> Drawing:
        """The current position drawn, naming the last step: displays as SVG
        in a notebook; ``.svg()``, ``.rgb()`` and ``.save(path)`` give it as
        text, an image or a file (see :mod:`azgames.core.drawing`)."""
        self._require_game("picture()")
        return self.rules.picture(self.state, self.last_step())

    def render(self) -> str | np.ndarray | None:
        if self.render_mode is None:
            import gymnasium

            gymnasium.logger.warn(
                "render() called without a render_mode; pass render_mode='ansi', 'rgb_array' or 'human'"
            )
            return None
        self._require_game("render()")
        if self.render_mode == "ansi":
            return self.rules.render_ansi(self.state)
        if self.render_mode == "human":  # a text game's display is the terminal
            print(self.rules.render_ansi(self.state), flush=True)
            return None
        return self.picture().rgb()

    def close(self) -> None:
        pass

    def __str__(self) -> str:
        return f"{self.rules.info.name}(num_players={self.rules.num_players})"
