"""Game records: a game saved as JSON (never pickle) and loaded back.

A record holds the game's configuration, its starting position (all state
arrays, the random generator word included), the actions played (an action
whose dice were forced with ``step_outcome`` is ``[action, draws]``), their
notation, and the final position. Loading rebuilds the env, replays the
actions through ``step`` and checks that it reaches the recorded final
position, so a record doubles as a regression test of the rules.

A record names its game's version (``"version"``, the game's
``Rules.info.version``), and only a record of the game's current version
loads: another version's rules or observations differ, so its actions need
not replay. A record without a ``"version"`` field is read as version 1:
records were written before the field was, and every game was at version 1
then (see :data:`VERSION_WHEN_ABSENT`).
"""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from . import checks
from . import state as state_ops
from .inputs import read_json, writable_file
from .limits import LOCAL, Limits

if TYPE_CHECKING:  # imported when a game is made
    from pettingzoo import AECEnv

    from .aec import GameAECEnv

RECORD_FORMAT = "azgames-record/1"
#: The version of a record with no ``"version"`` field: such a record was
#: written before records carried the version, when every game was at 1.
VERSION_WHEN_ABSENT = 1


def to_record(env: AECEnv) -> dict[str, Any]:
    """The record of ``env``'s current game (an AEC env of the suite, after reset)."""
    env = env.unwrapped
    if env.state is None:
        raise RuntimeError("no game to record: call reset() first")
    rules = env.rules
    replay = env.clone()
    replay.rewind(0)
    moves, actions = [], []
    for entry in env.history:
        a, draws = entry if isinstance(entry, tuple) else (entry, None)
        moves.append(replay.action_to_str(a))
        replay.replay_step(entry)
        actions.append(a if draws is None else [a, list(draws)])
    return {
        "format": RECORD_FORMAT,
        "game": rules.info.name,
        "version": rules.info.version,
        "num_players": rules.num_players,
        "options": rules.options,
        "agents": list(rules.agents),
        "start": state_ops.to_jsonable(env._start_state),
        "actions": actions,
        "moves": moves,
        "final": state_ops.to_jsonable(env.state),
        "result": {a: env.game_infos[a] for a in env.agents} if any(env.terminations.values()) else None,
    }


def save_record(env: AECEnv, path: str | os.PathLike) -> Path:
    """Write ``env``'s game to ``path`` as JSON; returns the path."""
    path = writable_file("path", path, force=True)  # checked before the record is built
    path.write_text(json.dumps(to_record(env), indent=1))
    return path


_FIELDS = {
    "format": str,
    "game": str,
    "num_players": int,
    "options": dict,
    "start": dict,
    "actions": list,
    "final": dict,
}


def from_record(record: dict[str, Any], limits: Limits = LOCAL, **env_kwargs: Any) -> GameAECEnv:
    """Rebuild the env at the record's final position by replaying its actions.

    Everything in the record is checked before use: its fields and their
    types, the states' values (the game's ``check_state``), every action
    (an int, or ``[action, draws]``), its notation against ``moves``, and
    the final position. A record of more than ``limits.record_plies``
    actions is refused before any is replayed."""
    from .registry import make

    if not isinstance(record, dict):
        raise TypeError(f"record must be a dict (a parsed JSON record), not {type(record).__name__}")
    if record.get("format") != RECORD_FORMAT:
        raise ValueError(f"not a game record of format {RECORD_FORMAT!r}: format={record.get('format')!r}")
    for key, kind in _FIELDS.items():
        if key not in record:
            raise ValueError(f"record has no {key!r} field")
        if not isinstance(record[key], kind) or (kind is int and isinstance(record[key], bool)):
            raise ValueError(f"record field {key!r} must be a {kind.__name__}, got {record[key]!r}")
    _check_version(record)
    if len(record["actions"]) > limits.record_plies:
        raise ValueError(
            f"record has {len(record['actions']):,} actions; at most {limits.record_plies:,} are replayed"
        )
    env = make(record["game"], num_players=record["num_players"], **record["options"], **env_kwargs)
    env.reset()
    rules = env.unwrapped.rules
    if "agents" in record and record["agents"] != list(rules.agents):
        raise ValueError(
            f"record field 'agents' is {record['agents']!r}; this game's agents are {list(rules.agents)}"
        )
    moves = record.get("moves")
    if moves is not None and (not isinstance(moves, list) or len(moves) != len(record["actions"])):
        raise ValueError(
            f"record field 'moves' must list one move per action "
            f"({len(record['actions'])}), got {moves!r:.200}"
        )
    with _naming("start"):  # set_state checks every value
        env.unwrapped.set_state(state_ops.from_jsonable(rules.state_type, record["start"]))
    for ply, entry in enumerate(record["actions"]):
        if env.terminations[env.agent_selection] or env.truncations[env.agent_selection]:
            raise ValueError(f"record has actions after the game ended (action {ply})")
        a, draws = _action(entry, ply)
        if not (0 <= a < rules.num_actions and env.unwrapped._mask[a]):
            raise ValueError(f"record action {ply}: {a} is not legal in the recorded game")
        if moves is not None and moves[ply] != env.unwrapped.action_to_str(a):
            raise ValueError(
                f"record action {ply} is {a} ({env.unwrapped.action_to_str(a)!r}) "
                f"but its move says {moves[ply]!r}"
            )
        env.unwrapped.replay_step(a if draws is None else (a, draws))
    with _naming("final"):  # parsed only: a final state the replay does not reach is refused
        final = state_ops.from_jsonable(rules.state_type, record["final"])
    if not state_ops.equal(final, env.unwrapped.state):
        raise ValueError("replaying the record's actions does not reach its final position")
    return env


def _check_version(record: dict[str, Any]) -> None:
    """Refuse a record of another version than its game's current one (an
    unknown game is refused too, by name)."""
    from .registry import current_version, resolve, versioned_name

    game = resolve(record["game"])
    now = current_version(game)
    if "version" in record:
        version = record["version"]
        if not isinstance(version, int) or isinstance(version, bool):
            raise ValueError(f"record field 'version' must be an int, got {version!r:.100}")
        told = ""
    else:
        version = VERSION_WHEN_ABSENT
        told = f" (it has no 'version' field: a record without one is of version {VERSION_WHEN_ABSENT})"
    if version != now:
        raise ValueError(
            f"record is of {game} version {version} ({versioned_name(game, version)}){told}, but {game} "
            f"is now version {now} ({versioned_name(game, now)}): a record of another version is of other rules or "
            f"observations, and is not replayed"
        )


@contextlib.contextmanager
def _naming(key: str) -> Iterator[None]:
    """Say which of the record's states a refusal is about."""
    try:
        yield
    except (TypeError, ValueError) as e:
        raise ValueError(f"record field {key!r}: {e}") from None


def _action(entry: Any, ply: int) -> tuple[int, tuple[int, ...] | None]:
    """A record's action entry: an int, or ``[action, [draws...]]``."""
    draws = None
    if isinstance(entry, list):
        if len(entry) != 2 or not isinstance(entry[1], list):
            raise ValueError(f"record action {ply}: {entry!r} must be an int or [action, [draws]]")
        entry, draws = entry
        draws = tuple(checks.integer(f"record action {ply} draw", d, 0) for d in draws)
    try:
        return checks.integer(f"record action {ply}", entry), draws
    except TypeError as e:
        raise ValueError(str(e)) from None


def load_record(path: str | os.PathLike, limits: Limits = LOCAL, **env_kwargs: Any) -> GameAECEnv:
    """Load a record written by :func:`save_record` (read within ``limits``,
    replayed and checked)."""
    if not isinstance(path, (str, os.PathLike)):
        raise TypeError(f"path={path!r} must be a str or a path")
    record = read_json(path, "record", limits.file_bytes, limits.json_depth)
    return from_record(record, limits, **env_kwargs)
