"""The shipped Azacru policies play as they did before version 2 turned the
observation channels first: their first layer's inputs were permuted to the
new layout, so each picks the same action on the same position.

The expected actions were computed from the files as trained (version 1),
fed the same positions in the old layout, ``(9, 9, C)``."""

import numpy as np
import pytest

import azgames
from azgames.agents.policy import NumpyPolicy, shipped_policy_path

#: The version 1 policies' greedy actions on :func:`positions` (``count=6, seed=0``).
BEFORE = {2: [72, 220, 240, 240, 244, 244], 3: [25, 197, 25, 125, 168, 96], 4: [192, 144, 96, 96, 96, 120]}


def positions(num_players: int, count: int = 6, seed: int = 0) -> list[tuple[np.ndarray, np.ndarray]]:
    """``count`` ongoing positions of random games, as the actor observes them."""
    rng = np.random.default_rng(seed)
    out = []
    env = azgames.make("azacru", num_players=num_players)
    env.reset(seed=seed)
    while len(out) < count:
        if not env.agents or env.terminations[env.agent_selection]:
            env.reset(seed=int(rng.integers(1000)))
        for _ in range(int(rng.integers(1, 12))):
            if env.terminations[env.agent_selection] or env.truncations[env.agent_selection]:
                break
            env.step(int(rng.choice(env.legal_actions())))
        if env.terminations[env.agent_selection] or env.truncations[env.agent_selection]:
            continue
        seen = env.observe(env.agent_selection)
        out.append((seen["observation"].copy(), seen["action_mask"].copy()))
    return out


@pytest.mark.parametrize("num_players", [2, 3, 4])
def test_the_shipped_policy_plays_as_before_the_layout_changed(num_players):
    policy = NumpyPolicy.load(shipped_policy_path("azacru", num_players))
    pos = positions(num_players)
    obs = np.stack([o for o, _ in pos])
    mask = np.stack([m for _, m in pos])
    assert obs.shape[1:] == tuple(policy.meta["obs_shape"]) == (obs.shape[1], 9, 9)
    assert policy.logits(obs, mask).argmax(1).tolist() == BEFORE[num_players]
