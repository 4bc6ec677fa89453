"""The learner env as a Stable-Baselines3 VecEnv: shapes, masks reaching
MaskablePPO, auto-reset, seeding, and a MaskablePPO run that never picks an
illegal action (the vector env would refuse it)."""

import numpy as np
import pytest

pytest.importorskip("sb3_contrib")
from sb3_contrib import MaskablePPO  # noqa: E402
from sb3_contrib.common.maskable.utils import get_action_masks, is_masking_supported  # noqa: E402
from stable_baselines3.common.vec_env import VecEnv, VecMonitor  # noqa: E402

from azgames.training.sb3 import SB3VecEnv  # noqa: E402


@pytest.mark.parametrize("game", ["azacru", "azimuth", "azure", "azimuth_coop"])
def test_the_adapter_keeps_the_vecenv_contract(game):
    venv = SB3VecEnv(game, num_envs=8, seed=0)
    assert isinstance(venv, VecEnv) and is_masking_supported(venv)
    obs = venv.reset()
    assert obs.shape == (8, *venv.observation_space.shape) and obs.dtype == np.int8
    # sb3-contrib stacks what env_method returns: one item, the whole batch, so no loop over games
    masks = get_action_masks(venv)
    assert masks.shape == (1, 8, venv.action_space.n) and masks.dtype == bool
    np.testing.assert_array_equal(masks[0], venv.action_masks())
    assert venv.action_masks().any(axis=1).all()
    rng = np.random.default_rng(0)
    ended = 0
    for _ in range(300):
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in venv.action_masks()])
        obs, rewards, dones, infos = venv.step(actions)
        assert obs.shape[0] == rewards.shape[0] == dones.shape[0] == len(infos) == 8
        assert rewards.dtype == np.float32 and dones.dtype == bool
        assert np.all(rewards[~dones] == 0)  # these games reward only at the end
        ended += int(dones.sum())
    assert ended > 0
    assert venv.env_method("action_masks", indices=[1, 2])[0].shape == (2, venv.action_space.n)
    with pytest.raises(AttributeError, match="render"):
        venv.env_method("render")


def test_seeding_repeats_the_games():
    def run(seed):
        venv = SB3VecEnv("azacru", num_envs=4)
        venv.seed(seed)
        seen = [venv.reset()]
        for _ in range(20):
            masks = venv.action_masks()
            seen.append(venv.step(masks.argmax(axis=1))[0])
        return np.stack(seen)

    np.testing.assert_array_equal(run(3), run(3))
    assert not np.array_equal(run(3), run(4))


def test_maskable_ppo_learns_through_the_adapter_without_an_illegal_action():
    venv = VecMonitor(SB3VecEnv("azacru", num_envs=32, seed=0))
    model = MaskablePPO("MlpPolicy", venv, n_steps=32, batch_size=256, n_epochs=2, seed=0, verbose=0)
    model.learn(2 * 32 * 32)  # an illegal action would raise in the vector env
    returns = [e["r"] for e in model.ep_info_buffer]  # VecMonitor's finished episodes
    assert len(returns) > 10 and set(returns) <= {-1.0, 0.0, 1.0}
    assert model.num_timesteps >= 2048


def test_torch_runs_on_the_threads_asked_for_and_none_leaves_it_alone():
    import torch

    from azgames.training.sb3 import SB3VecEnv

    before = torch.get_num_threads()
    try:
        SB3VecEnv("azacru", num_envs=2, torch_threads=1)
        assert torch.get_num_threads() == 1
        torch.set_num_threads(2)
        SB3VecEnv("azacru", num_envs=2, torch_threads=None)
        assert torch.get_num_threads() == 2
        with pytest.raises(ValueError, match="torch_threads=0"):
            SB3VecEnv("azacru", num_envs=2, torch_threads=0)
    finally:
        torch.set_num_threads(before)
