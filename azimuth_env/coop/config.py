"""The co-op mode's kernel config: the base game's :class:`~azimuth_env.board.Config`
and the co-op's own fields, in one flat tuple.

Flat, not the base config nested inside: numba's parallel loops (the core's
vector entry points) cannot take a tuple holding a tuple that holds an array.
The co-op's tables (ocean portions, the agent of each colour) are appended
to the base config's ``tables``, so the kernels still read one array;
:func:`base_of` gives the base game's kernels the base config back, so that
they compile once for both games."""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from azgames.core.jit import njit_inline

from ..board import ActionLayout, Config, Layout, concatenated

# Who orders the moves of a wave (CoopConfig.wave_mode).
WAVES_CHOOSE, WAVES_FRONT_FIRST, WAVES_BACK_FIRST = 0, 1, 2


class CoopFields(NamedTuple):
    """The co-op's fields of :data:`CoopConfig`, after the base config's."""

    rounds: int  # the team loses after this many rounds
    wave_mode: int  # WAVES_CHOOSE, WAVES_FRONT_FIRST or WAVES_BACK_FIRST
    first_player: int  # the colour that starts, -1: drawn at set-up
    num_agents: int
    a_turtle: int  # where the turtle swims start (ActionLayout.turtle)
    a_wave: int  # and the wave choices
    # offsets into tables, after the base config's
    o_portion_points: int  # (4, 36) 1 where a point is in colour q's ocean portion
    o_portion_marks: int  # (4, 25)
    o_controller: int  # (4,) the agent playing each colour


#: Every field of :class:`~azimuth_env.board.Config`, then :class:`CoopFields`'.
CoopConfig: Any = NamedTuple(  # the fields of two tuples, each written once
    "CoopConfig",
    [*Config.__annotations__.items(), *CoopFields.__annotations__.items()],  # type: ignore[misc]
)
BASE_FIELDS = len(Config._fields)


def coop_config(
    layout: Layout,
    actions: ActionLayout,
    lighthouse_mode: int,
    fixed_beaches: np.ndarray,
    fields: dict,
    controller: np.ndarray,
):
    """The co-op's config: the base game's (no turn limit) with ``fields``
    (rounds, wave_mode, first_player) and the co-op's tables."""
    base = Config.from_parts(layout, actions, lighthouse_mode, fixed_beaches, 0)
    extra, offsets = concatenated(
        [layout.portion_points, layout.portion_marks, controller], start=len(base.tables)
    )
    own = CoopFields(
        num_agents=int(np.max(controller)) + 1,
        a_turtle=actions.turtle,
        a_wave=actions.wave,
        o_portion_points=offsets[0],
        o_portion_marks=offsets[1],
        o_controller=offsets[2],
        **fields,
    )
    tables = np.concatenate([base.tables, extra])
    return CoopConfig(*base._replace(tables=tables), *own)  # type: ignore[call-arg]  # its fields: both tuples


@njit_inline
def base_of(cfg):
    """The base game's config within a co-op config."""
    return Config(*cfg[:BASE_FIELDS])
