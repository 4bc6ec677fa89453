"""A game's past, rebuilt from its record: every position it went through
(for ``azgames replay``). Taking steps back (``undo``) is the env's own
``rewind``; both replay the env's :attr:`~azgames.core.aec.GameAECEnv.history`
from its start, whose state carries the random generator, so a replay
draws the same dice.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from azgames.core import state as state_ops
from azgames.core.game import LastStep


@dataclass(frozen=True)
class Position:
    """The game after ``ply`` steps: ``state`` (a batch of one) and the step
    that led there (None at the start)."""

    ply: int
    state: Any
    last: LastStep | None


def positions(env) -> list[Position]:
    """Every position of ``env``'s game so far, the start first; ``env`` is left as it was."""
    base = env.unwrapped
    replay = base.clone()
    replay.render_mode = None  # no clone per step for last_step(): the steps are named here
    replay.rewind(0)
    out = [Position(0, state_ops.clone(replay.state), None)]
    for ply, entry in enumerate(base.history, 1):
        action = entry[0] if isinstance(entry, tuple) else entry
        last = LastStep(replay.agent_selection, action, replay.action_to_str(action), out[-1].state)
        replay.replay_step(entry)
        out.append(Position(ply, state_ops.clone(replay.state), last))
    return out
