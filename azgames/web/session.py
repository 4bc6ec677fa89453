"""One page's game: the env, who sits where, the clicks so far, the replay.

A :class:`Session` is what one websocket talks to. It is plain synchronous
Python (the server runs its methods in a worker thread, one at a time), so
the tests drive it directly too. Its modes:

- ``play``: a game going on; each seat is ``"human"`` or an agent spec
  (``"mcts:simulations=50"``). With no human seat it is a match to watch.
  Agents move when the server asks (:meth:`agent_job`, then
  :meth:`apply_agent`): they think on a clone, outside the session, so a
  long search blocks neither this page's controls nor other pages.
- ``replay``: a loaded record, any ply shown; "play from here" turns the
  shown ply into a game of ``play`` mode. A :class:`Replay` keeps the
  record's actions and an env every :data:`CHECKPOINT_EVERY` plies, and
  replays the ply shown from the checkpoint before it: its memory grows
  with the plies, not with their square (each env carries its history).

What a page asks is bounded by the session's :class:`~azgames.core.limits.Limits`
(``WEB``): every agent is built within them (a search's deadline), and a
record is parsed and its plies counted before anything is replayed.

Every answer is a list of JSON-able messages for the page: ``state`` (the
whole view: the SVG, whose turn, the legal moves with their target
sequences, the last step, the result), ``notice`` (a click or a move
refused, in words) and ``record`` (a game to download).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from azgames.agents import make_agent
from azgames.core.inputs import parse_json
from azgames.core.limits import WEB, Limits
from azgames.core.records import from_record, to_record
from azgames.core.registry import make

from .clicks import Move, legal_moves, places, select

HUMAN = "human"
#: Moves per second of agents' play, bounds and default.
MIN_SPEED, MAX_SPEED, DEFAULT_SPEED = 0.1, 50.0, 2.0
#: A replay's plies between two kept envs, at least; a longer record keeps
#: at most MAX_CHECKPOINTS of them (each carries its history), further apart.
CHECKPOINT_EVERY, MAX_CHECKPOINTS = 256, 64


class BadRequest(ValueError):
    """A message the session refuses; its text is shown to the person."""


@dataclass
class AgentJob:
    """An agent's move to think about: ``agent.act(env)`` on a clone, applied
    only if the session is still at ``generation`` when it is done."""

    agent: Any
    env: Any
    generation: int

    def think(self) -> int:
        return int(self.agent.act(self.env))


@dataclass
class Replay:
    """A loaded record: its actions, the env at its end, and the env at every
    ``every``-th ply; any ply's env is replayed from the checkpoint before it."""

    actions: list  # the record's steps, as the env's history keeps them
    actors: list[str]  # who played each ply
    final: Any  # the raw env at the last ply (what "save" writes)
    checkpoints: list[Any]  # the raw env at plies 0, every, 2 * every, ...
    every: int

    @classmethod
    def of(cls, final) -> Replay:
        """The replay of ``final``'s game (a raw env, rendered)."""
        actions = final.history
        every = max(CHECKPOINT_EVERY, -(-len(actions) // MAX_CHECKPOINTS))
        env = final.clone()
        env.rewind(0)
        checkpoints, actors = [env.clone()], []
        for ply, entry in enumerate(actions, 1):
            actors.append(env.agent_selection)
            env.replay_step(entry)
            if ply % every == 0:
                checkpoints.append(env.clone())
        return cls(actions, actors, final, checkpoints, every)

    @property
    def plies(self) -> int:
        return len(self.actions)

    def env_at(self, ply: int, near: tuple[int, Any] | None = None):
        """A new raw env at ``ply``, replayed from the checkpoint before it, or
        from ``near`` (an env at an earlier ply, ``(ply, env)``) if closer."""
        start = ply // self.every * self.every
        base = self.checkpoints[ply // self.every]
        if near is not None and start <= near[0] <= ply:
            start, base = near
        env = base.clone()
        for entry in self.actions[start:ply]:
            env.replay_step(entry)
        return env


@dataclass
class Session:
    mode: str | None = None  # None until the first game: "play" or "replay"
    env: Any = None  # the game shown (in a replay, the env of the ply shown)
    seats: list[str] = field(default_factory=list)  # "human" or an agent spec, per agent
    agents: dict[str, Any] = field(default_factory=dict)  # agent name -> agent, non-human seats
    actors: list[str] = field(default_factory=list)  # who played each ply so far
    clicks: tuple[str, ...] = ()
    replay: Replay | None = None  # replay: the record
    ply: int = 0  # replay: the ply shown
    paused: bool = False
    speed: float = DEFAULT_SPEED
    #: Bumped by every change of the game, so an agent's move thought out on
    #: an older position is dropped.
    generation: int = 0
    #: Budgets of what a page may ask: agents' searches, a record's size.
    limits: Limits = WEB
    _moves: list[Move] | None = None  # the legal moves of the position, once listed

    @property
    def _record(self) -> Replay:
        """The replay of replay mode (set with the mode)."""
        assert self.replay is not None, "replay mode without a replay"
        return self.replay

    # ------------------------------------------------------------ messages
    def handle(self, message: Any) -> list[dict]:
        """Answer one message of the page (a parsed JSON object)."""
        if not isinstance(message, dict) or not isinstance(message.get("type"), str):
            raise BadRequest(f"a message must be a JSON object with a 'type', got {message!r:.200}")
        kind = message["type"]
        handler = getattr(self, f"_on_{kind}", None)
        if handler is None:
            raise BadRequest(f"unknown message type {kind!r}; known types: {', '.join(MESSAGE_TYPES)}")
        return handler(_Fields(kind, message))

    def _on_new(self, m: _Fields) -> list[dict]:
        game = m.get("game", str)
        num_players = m.get("num_players", int)
        options = m.get("options", dict, {})
        seats = m.get("seats", list)
        seed = m.get("seed", int, None)
        if len(seats) != num_players:
            raise BadRequest(f"seats: give one seat per player ({num_players}), got {len(seats)}")
        env = make(game, num_players=num_players, render_mode="ansi", **options)
        env.reset(seed=seed)
        self._play(env, seats, seed, actors=[])
        return [self.view()]

    def _on_click(self, m: _Fields) -> list[dict]:
        target = m.get("target", str)
        refusal = self._human_turn_refusal()
        if refusal:
            return [notice(refusal), self.view()]
        moves = self.moves()
        chosen = select(moves, self.clicks, target)
        if chosen is None:
            tried = (*self.clicks, target)
            self.clicks = ()
            return [notice(self._no_move_at(tried)), self.view()]
        if chosen.play is not None:
            return self._human_plays(chosen.play.action)
        self.clicks = chosen.clicks
        return [self.view()]

    def _on_choose(self, m: _Fields) -> list[dict]:
        action = m.get("action", int)
        refusal = self._human_turn_refusal()
        if refusal:
            return [notice(refusal), self.view()]
        raw = self.env.unwrapped
        if action not in raw.legal_actions():
            reason = None
            if 0 <= action < raw.rules.num_actions:
                reason = raw.rules.illegal_reason(raw.state, action)
            return [
                notice(
                    f"action {action} is not legal for {raw.agent_selection}"
                    + (f": {reason}" if reason else "")
                ),
                self.view(),
            ]
        return self._human_plays(action)

    def _on_clear(self, m: _Fields) -> list[dict]:
        self.clicks = ()
        return [self.view()]

    def _on_undo(self, m: _Fields) -> list[dict]:
        self._require("play")
        humans = [i for i, a in enumerate(self.actors) if self._is_human(a)]
        if not humans:
            return [notice("no move of a human seat to undo"), self.view()]
        ply = humans[-1]
        env = self.env.unwrapped.clone()
        env.rewind(ply)
        self._play(env, self.seats, None, actors=self.actors[:ply], agents=self.agents)
        return [self.view()]

    def _on_pause(self, m: _Fields) -> list[dict]:
        self.paused = m.get("paused", bool)
        return [self.view()]

    def _on_speed(self, m: _Fields) -> list[dict]:
        speed = m.get("moves_per_second", float)
        if not MIN_SPEED <= speed <= MAX_SPEED:
            raise BadRequest(f"moves_per_second={speed!r} must be from {MIN_SPEED} to {MAX_SPEED}")
        self.speed = speed
        return [self.view()]

    def _on_load(self, m: _Fields) -> list[dict]:
        text = m.get("text", str)
        try:  # the text is within the message's limit; its nesting and plies are checked here
            record = parse_json(text, "the file", self.limits.json_depth)
            final = from_record(
                record, self.limits, render_mode="ansi"
            )  # checks every field, action and state
        except (TypeError, ValueError) as e:
            raise BadRequest(f"bad record: {e}") from None
        replay = Replay.of(final.unwrapped)
        self._retire(self.agents)
        self.mode, self.replay, self.clicks = "replay", replay, ()
        self.actors = replay.actors
        self.agents, self.seats = {}, []
        self._show(replay.plies)
        return [self.view()]

    def _on_seek(self, m: _Fields) -> list[dict]:
        self._require("replay")
        ply = m.get("ply", int)
        if not 0 <= ply <= self._record.plies:
            raise BadRequest(f"ply={ply} is not in the record: choose 0 to {self._record.plies}")
        self._show(ply, step_on=True)
        return [self.view()]

    def _on_play_from_here(self, m: _Fields) -> list[dict]:
        self._require("replay")
        seats = m.get("seats", list, None)
        env = self.env.unwrapped.clone()
        if seats is None:
            seats = [HUMAN] * env.rules.num_players
        if len(seats) != env.rules.num_players:
            raise BadRequest(f"seats: give one seat per player ({env.rules.num_players}), got {len(seats)}")
        self._play(env, seats, None, actors=self.actors[: self.ply])
        return [self.view()]

    def _on_save(self, m: _Fields) -> list[dict]:
        if self.env is None:
            raise BadRequest("no game to save: start or load one first")
        source = self._record.final if self.mode == "replay" else self.env
        record = to_record(source)
        return [
            {
                "type": "record",
                "record": record,
                "filename": f"{record['game']}-{len(record['actions'])}-plies.json",
            }
        ]

    # ------------------------------------------------------------ agents
    def stop(self) -> None:
        """End the agents' searches now and from now on: the page has gone,
        or the server stops."""
        self._retire(self.agents)

    @staticmethod
    def _retire(agents: dict) -> None:
        """Stop the searches of ``agents`` that can be stopped (MCTS)."""
        for agent in agents.values():
            stop = getattr(agent, "stop", None)
            if callable(stop):
                stop()

    def agent_job(self) -> AgentJob | None:
        """The agent's move to make now, if an agent is to move in a game
        going on and play is not paused."""
        if self.mode != "play" or self.paused or self.over():
            return None
        agent = self.agents.get(self.env.unwrapped.agent_selection)
        if agent is None:
            return None
        return AgentJob(agent, self.env.unwrapped.clone(), self.generation)

    def apply_agent(self, job: AgentJob, action: int) -> bool:
        """Play an agent's move thought out by ``job``, unless the game has
        changed (or paused) since; True if played."""
        if job.generation != self.generation or self.paused:
            return False
        self._step(action)
        return True

    # ------------------------------------------------------------ view
    def moves(self) -> list[Move]:
        """The legal moves of the position shown (empty once it is over)."""
        if self._moves is None:
            self._moves = legal_moves(self.env)
        return self._moves

    def over(self) -> bool:
        raw = self.env.unwrapped
        a = raw.agent_selection
        return raw.terminations[a] or raw.truncations[a]

    def view(self) -> dict:
        """The page's whole view of the position shown."""
        if self.env is None:
            return {"type": "state", "mode": None}
        raw = self.env.unwrapped
        rules = raw.rules
        moves = self.moves()
        chosen = select(moves, self.clicks[:-1], self.clicks[-1]) if self.clicks else None
        last = raw.last_step()
        to_move = None if self.over() else raw.agent_selection
        view = {
            "type": "state",
            "mode": self.mode,
            "game": rules.info.name,
            "long_name": rules.info.long_name,
            "num_players": rules.num_players,
            "options": rules.options,
            "agents": list(rules.agents),
            "seats": self.seats,
            "ply": len(self.actors) if self.mode == "play" else self.ply,
            "plies": self._record.plies if self.mode == "replay" else None,
            "svg": raw.picture().svg(),
            "to_move": to_move,
            "human_to_move": self.mode == "play" and to_move is not None and self._is_human(to_move),
            "status": self._status(to_move),
            "legal": [{"action": m.action, "move": m.move, "targets": list(m.targets)} for m in moves],
            "clicks": list(self.clicks),
            "choices": [{"action": m.action, "move": m.move} for m in (chosen.choices if chosen else ())],
            "next_targets": list(chosen.next_targets) if chosen else [],
            "last": None if last is None else {"agent": last.agent, "move": last.move},
            "result": self._result(),
            "paused": self.paused,
            "speed": self.speed,
            "can_undo": self.mode == "play" and any(self._is_human(a) for a in self.actors),
        }
        return view

    def _status(self, to_move: str | None) -> str:
        if to_move is None:
            result = self._result()
            assert result is not None  # no one to move: the game is over
            return result["text"]
        if self.mode == "replay":
            return f"ply {self.ply} of {self._record.plies}: {to_move} to move"
        if self._is_human(to_move):
            return f"{to_move} (human) to move: click the board or a move"
        seat = self.seats[self.env.unwrapped.possible_agents.index(to_move)]
        return f"{to_move} ({seat}) to move" + (" (paused)" if self.paused else "")

    def _result(self) -> dict | None:
        if not self.over():
            return None
        raw = self.env.unwrapped
        info = raw.infos[raw.possible_agents[0]]
        winners, scores = list(info["winners"]), dict(info["scores"])
        truncated = bool(raw.truncations[raw.agent_selection])
        if len(raw.rules.sides) == 1:  # one team (a co-op game), against the game itself
            verdict = "the team wins" if winners else "the team loses"
        elif winners:
            verdict = f"{' and '.join(winners)} {'wins' if len(winners) == 1 else 'win'}"
        else:
            verdict = "no winner"
        head = "turn limit reached: " if truncated else "game over: "
        table = ", ".join(f"{a} {s}" for a, s in scores.items())
        return {
            "winners": winners,
            "scores": scores,
            "truncated": truncated,
            "text": f"{head}{verdict} (scores: {table})",
        }

    # ------------------------------------------------------------ internals
    def _play(
        self, env, seats: list, seed: int | None, actors: list[str], agents: dict | None = None
    ) -> None:
        """Make ``env`` the game in play with ``seats``; agents are built
        afresh from their specs unless ``agents`` (the same seats') is given."""
        game = env.unwrapped.rules.info.name
        names = env.unwrapped.possible_agents
        if agents is None:
            agents = {}
            for i, spec in enumerate(seats):
                if not isinstance(spec, str):
                    raise BadRequest(f"seat {i}: {spec!r} must be 'human' or an agent spec")
                if spec == HUMAN:
                    continue
                try:
                    agents[names[i]] = make_agent(
                        spec, seed=None if seed is None else seed + 1 + i, game=game, limits=self.limits
                    )
                except (TypeError, ValueError) as e:
                    self._retire(agents)
                    raise BadRequest(f"seat {i} ({names[i]}): {e}") from None
        if agents is not self.agents:  # the old game's agents: a search of theirs ends now
            kept = {id(a) for a in agents.values()}
            self._retire({k: a for k, a in self.agents.items() if id(a) not in kept})
        self.mode, self.env, self.seats, self.agents = "play", env, list(seats), agents
        self.actors, self.replay, self.ply = list(actors), None, 0
        self._changed()

    def _show(self, ply: int, step_on: bool = False) -> None:
        """Show ``ply`` of the replay: replayed from a checkpoint, or
        (``step_on``) on from the ply shown if that is closer (stepping
        through the record)."""
        self.env = self._record.env_at(ply, (self.ply, self.env) if step_on else None)
        self.ply = ply
        self._changed()

    def _changed(self) -> None:
        self.clicks = ()
        self._moves = None
        self.generation += 1

    def _step(self, action: int) -> None:
        self.actors.append(self.env.unwrapped.agent_selection)
        self.env.step(action)
        self._changed()

    def _human_plays(self, action: int) -> list[dict]:
        self._step(action)
        return [self.view()]

    def _is_human(self, agent: str) -> bool:
        return self.seats[self.env.unwrapped.possible_agents.index(agent)] == HUMAN

    def _require(self, mode: str) -> None:
        if self.mode != mode:
            shown = "no game" if self.mode is None else f"a game in {self.mode} mode"
            raise BadRequest(f"this needs a game in {mode} mode; the page has {shown}")

    def _human_turn_refusal(self) -> str | None:
        """Why a human cannot move now, or None."""
        if self.mode is None:
            return "no game yet: start one first"
        if self.mode == "replay":
            return "this is a replay: press 'play from here' to play on from this position"
        if self.over():
            return "the game is over: start a new game or undo"
        to_move = self.env.unwrapped.agent_selection
        if not self._is_human(to_move):
            seat = self.seats[self.env.unwrapped.possible_agents.index(to_move)]
            return f"it is {to_move}'s turn ({seat}), not a human's: wait for its move"
        return None

    def _no_move_at(self, clicks: tuple[str, ...]) -> str:
        """Why ``clicks`` select no legal move, with the rules' reason when
        they name one move."""
        raw = self.env.unwrapped
        who = raw.agent_selection
        words = f"no legal move of {who} {'starts at' if len(clicks) == 1 else 'goes'} {places(clicks)}"
        meant = [a for a in range(raw.rules.num_actions) if _targets(raw, a) == clicks]
        reasons = [
            f"{raw.rules.action_to_str(raw.state, a)}: {raw.rules.illegal_reason(raw.state, a)}"
            for a in meant[:3]
        ]
        return words + ("; " + "; ".join(reasons) if reasons else "")


MESSAGE_TYPES = sorted(name[4:] for name in vars(Session) if name.startswith("_on_"))


def notice(text: str) -> dict:
    return {"type": "notice", "text": text}


def _targets(raw, action: int) -> tuple[str, ...] | None:
    """The targets of ``action`` (legal or not), or None if it names no place
    in this position (a piece off the board, a step off the map)."""
    try:
        return tuple(raw.rules.action_targets(raw.state, action))
    except (ValueError, IndexError):
        return None


class _Fields:
    """A message's fields, each checked for its type when read."""

    _KINDS = {
        str: "a string",
        int: "an integer",
        float: "a number",
        bool: "true or false",
        list: "a list",
        dict: "an object",
    }

    def __init__(self, kind: str, message: dict):
        self.kind, self.message = kind, message

    def get(self, name: str, kind: type, default: Any = ...):
        value = self.message.get(name, default)
        if value is ...:
            raise BadRequest(f"message {self.kind!r} needs the field {name!r}")
        if value is None and default is None:
            return None
        ok = isinstance(value, kind) and not (kind is int and isinstance(value, bool))
        if kind is float and isinstance(value, int) and not isinstance(value, bool):
            value, ok = float(value), True
        if not ok:
            raise BadRequest(f"message {self.kind!r}: {name}={value!r:.100} must be {self._KINDS[kind]}")
        return value
