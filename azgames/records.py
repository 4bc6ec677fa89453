"""Game records: a game saved as JSON (never pickle) and loaded back.

A record holds the game's configuration, its starting position (all state
arrays, the random generator word included), the actions played (an action
whose dice were forced with ``step_outcome`` is ``[action, draws]``), their
notation, and the final position. Loading rebuilds the env, replays the
actions through ``step`` and checks that it reaches the recorded final
position, so a record doubles as a regression test of the rules.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from . import state as state_ops

RECORD_FORMAT = "azgames-record/1"


def to_record(env) -> dict[str, Any]:
    """The record of ``env``'s current game (an AEC env of the suite, after reset)."""
    env = env.unwrapped
    if env.state is None:
        raise RuntimeError("no game to record: call reset() first")
    rules = env.rules
    replay = env.clone()
    replay._start_from(state_ops.clone(env._start_state))
    moves, actions = [], []
    for entry in env._history:
        a, draws = entry if isinstance(entry, tuple) else (entry, None)
        moves.append(replay.action_to_str(a))
        _replay_step(replay, a, draws)
        actions.append(a if draws is None else [a, list(draws)])
    return {
        "format": RECORD_FORMAT,
        "game": rules.info.name,
        "num_players": rules.num_players,
        "options": rules.options,
        "agents": list(rules.agents),
        "start": state_ops.to_jsonable(env._start_state),
        "actions": actions,
        "moves": moves,
        "final": state_ops.to_jsonable(env.state),
        "result": {a: env.infos[a] for a in env.agents} if any(env.terminations.values()) else None,
    }


def _replay_step(env, action: int, draws) -> None:
    """Step ``env``; an action whose chance draws were forced replays with the same draws."""
    if draws is None:
        env.step(action)
    else:
        env.step_outcome(action, tuple(draws))


def save_record(env, path: str | Path) -> Path:
    """Write ``env``'s game to ``path`` as JSON; returns the path."""
    path = Path(path)
    path.write_text(json.dumps(to_record(env), indent=1))
    return path


def from_record(record: dict[str, Any], **env_kwargs: Any):
    """Rebuild the env at the record's final position by replaying its actions."""
    from .registry import make

    if record.get("format") != RECORD_FORMAT:
        raise ValueError(f"not a game record of format {RECORD_FORMAT!r}: format={record.get('format')!r}")
    env = make(record["game"], num_players=record["num_players"], **record["options"], **env_kwargs)
    env.reset()
    rules = env.unwrapped.rules
    env.unwrapped.set_state(state_ops.from_jsonable(rules.state_type, record["start"]))
    for ply, entry in enumerate(record["actions"]):
        if env.terminations[env.agent_selection] or env.truncations[env.agent_selection]:
            raise ValueError(f"record has actions after the game ended (action {ply})")
        a, draws = entry if isinstance(entry, list) else (entry, None)
        _replay_step(env.unwrapped, int(a), draws)
    final = state_ops.from_jsonable(rules.state_type, record["final"])
    if not state_ops.equal(final, env.unwrapped.state):
        raise ValueError("replaying the record's actions does not reach its final position")
    return env


def load_record(path: str | Path, **env_kwargs: Any):
    """Load a record written by :func:`save_record` (replayed and checked)."""
    return from_record(json.loads(Path(path).read_text()), **env_kwargs)
