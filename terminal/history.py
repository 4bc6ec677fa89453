"""A game's past, rebuilt from its record: every position it went through
(for ``azgames replay``) and taking steps back (``undo`` at the keyboard).

Both replay the actions an env keeps for its record (``_history``) from the
record's start (``_start_state``), the way :func:`azgames.records.to_record`
does: the state carries its random generator, so a replay draws the same dice.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from azgames import state as state_ops
from azgames.game import LastStep
from azgames.records import _replay_step


@dataclass(frozen=True)
class Position:
    """The game after ``ply`` steps: ``state`` (a batch of one) and the step
    that led there (None at the start)."""

    ply: int
    state: Any
    last: LastStep | None


def _entries(history) -> list[tuple[int, tuple[int, ...] | None]]:
    """``(action, draws)`` for each recorded step (draws: None unless forced)."""
    return [entry if isinstance(entry, tuple) else (entry, None) for entry in history]


def positions(env) -> list[Position]:
    """Every position of ``env``'s game so far, the start first; ``env`` is left as it was."""
    base = env.unwrapped
    replay = base.clone()
    replay.render_mode = None  # no clone per step for last_step(): the steps are named here
    replay._start_from(state_ops.clone(base._start_state))
    out = [Position(0, state_ops.clone(replay.state), None)]
    for ply, (action, draws) in enumerate(_entries(base._history), 1):
        before = out[-1].state
        last = LastStep(replay.agent_selection, action, replay.action_to_str(action), before)
        _replay_step(replay, action, draws)
        out.append(Position(ply, state_ops.clone(replay.state), last))
    return out


def take_back(env, ply: int) -> None:
    """Put ``env`` back in the position after its game's first ``ply`` steps;
    the later steps leave the record too."""
    base = env.unwrapped
    if not 0 <= ply <= len(base._history):
        raise ValueError(f"ply={ply}: the game has plies 0-{len(base._history)}")
    kept = _entries(base._history[:ply])
    base._start_from(state_ops.clone(base._start_state))
    for action, draws in kept:
        _replay_step(base, action, draws)
