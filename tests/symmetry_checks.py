"""What a symmetry test reads of a one-game position: the mover's
observation and legal mask, each as one flattened row, the shape a
:class:`azgames.core.symmetry.Symmetry` transforms."""

from __future__ import annotations

import numpy as np


def seen(rules, state) -> tuple[np.ndarray, np.ndarray]:
    obs = np.zeros(rules.observation_shape(0), np.int8)
    mask = np.zeros(rules.num_actions, np.int8)
    rules.observe(state, -1, obs, mask)
    return obs.reshape(1, -1), mask.reshape(1, -1)
