"""Every forward pass of the suite's MLP computes the same network: torch's
(:class:`azgames.training.net.Net`, trained by ``python -m azgames train``),
numpy's (:class:`azgames.agents.policy.NumpyPolicy`, the ``ppo`` agents),
numba's (:func:`azgames.agents.mcts.network.forward`, inside the search)
and RLlib's (:class:`azgames.rllib.module.MaskedPPOTorchRLModule`).

One small random network, its weights set once as a ``NumpyPolicy`` and
loaded into each, and one batch of sparse int8 observations (like the
games' planes) with random masks: every pair gives the same logits of the
legal actions and the same values, to float32 rounding. A pass that needs
torch or ray is skipped where it is not installed.
"""

from __future__ import annotations

import importlib.util
import itertools

import numpy as np
import pytest

from azgames.agents.mcts.network import forward, net_from_policy
from azgames.agents.policy import NumpyPolicy

OBS_SHAPE = (5, 6, 4)  # planes, as a game's observation: flattened by every pass
NUM_ACTIONS = 37
HIDDEN = (32, 16)
BATCH = 48
# float32 weights; numba sums in float64, numpy and torch in float32.
RTOL = ATOL = 1e-5


@pytest.fixture(scope="module")
def network() -> NumpyPolicy:
    rng = np.random.default_rng(0)
    sizes = [int(np.prod(OBS_SHAPE)), *HIDDEN]

    def dense(n_in, n_out):
        return (
            rng.normal(0, 0.3, (n_in, n_out)).astype(np.float32),
            rng.normal(0, 0.3, n_out).astype(np.float32),
        )

    trunk = [dense(a, b) for a, b in zip(sizes, sizes[1:])]
    meta = {
        "game": "azacru",
        "num_players": 2,
        "obs_shape": list(OBS_SHAPE),
        "hidden": list(HIDDEN),
        "activation": "tanh",
    }
    return NumpyPolicy(trunk, dense(sizes[-1], NUM_ACTIONS), dense(sizes[-1], 1), meta)


@pytest.fixture(scope="module")
def batch() -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(1)
    obs = (rng.integers(-3, 4, (BATCH, *OBS_SHAPE)) * (rng.random((BATCH, *OBS_SHAPE)) < 0.3)).astype(np.int8)
    mask = rng.random((BATCH, NUM_ACTIONS)) < 0.4
    mask[:, 0] = True  # at least one legal action, as the games' masks
    return obs, mask


# ---------------------------------------------------------------- the passes
# Each returns (logits, values): logits (BATCH, NUM_ACTIONS), read at the
# legal actions only (the masked ones are checked apart), values (BATCH,).


def numpy_pass(policy, obs, mask):
    out = policy.logits(obs, mask)
    assert np.isneginf(out[~mask]).all() and np.isfinite(out[mask]).all()
    return out, policy.value(obs)


def numba_pass(policy, obs, mask):
    """One position at a time, as the search asks; it masks nothing itself
    (the search reads the legal actions' logits)."""
    net = net_from_policy(policy)
    logits = np.empty((len(obs), policy.num_actions))
    values = np.empty(len(obs))
    for k, o in enumerate(obs.reshape(len(obs), -1)):
        net.obs[:] = o
        values[k] = forward(net)
        logits[k] = net.logits
    return logits, values


def torch_pass(policy, obs, mask):
    torch = pytest.importorskip("torch")
    from azgames.training.net import Net

    net = Net(int(np.prod(OBS_SHAPE)), NUM_ACTIONS, HIDDEN)
    net.load_numpy(policy)
    with torch.no_grad():
        logits, values = net(torch.from_numpy(obs), torch.from_numpy(mask))
    logits = logits.numpy()
    assert (logits[~mask] <= -1e7).all()
    return logits, values.numpy()


def rllib_pass(policy, obs, mask):
    """The module's inference pass and value function, on the observation
    its env gives (``TurnBasedEnv``: planes flattened to float32, the mask as
    float32)."""
    if importlib.util.find_spec("ray") is None:
        pytest.skip("ray is not installed (the rllib extra)")
    pytest.importorskip("ray.rllib")
    torch = pytest.importorskip("torch")
    import gymnasium as gym

    from azgames.rllib.module import MaskedPPOTorchRLModule

    inputs = int(np.prod(OBS_SHAPE))
    space = gym.spaces.Dict(
        {
            "observations": gym.spaces.Box(-3.0, 3.0, (inputs,), np.float32),
            "action_mask": gym.spaces.Box(0.0, 1.0, (NUM_ACTIONS,), np.float32),
        }
    )
    module = MaskedPPOTorchRLModule(
        observation_space=space,
        action_space=gym.spaces.Discrete(NUM_ACTIONS),
        model_config={"hidden": HIDDEN},
    )
    module.net.load_numpy(policy)
    seen = {
        "obs": {
            "observations": torch.from_numpy(obs.reshape(len(obs), -1).astype(np.float32)),
            "action_mask": torch.from_numpy(mask.astype(np.float32)),
        }
    }
    with torch.no_grad():
        logits = module.forward_inference(seen)["action_dist_inputs"].numpy()
        values = module.compute_values(seen).numpy()
    assert (logits[~mask] <= -1e7).all()
    return logits, values


PASSES = {"numpy": numpy_pass, "numba": numba_pass, "torch": torch_pass, "rllib": rllib_pass}


@pytest.mark.parametrize("first, second", list(itertools.combinations(PASSES, 2)), ids=lambda name: name)
def test_both_forward_passes_give_the_same_logits_and_values(first, second, network, batch):
    obs, mask = batch
    logits_a, values_a = PASSES[first](network, obs, mask)
    logits_b, values_b = PASSES[second](network, obs, mask)
    assert logits_a.shape == logits_b.shape == (BATCH, NUM_ACTIONS)
    assert values_a.shape == values_b.shape == (BATCH,)
    np.testing.assert_allclose(
        logits_a[mask],
        logits_b[mask],
        rtol=RTOL,
        atol=ATOL,
        err_msg=f"{first} and {second} logits of the legal actions",
    )
    np.testing.assert_allclose(
        values_a, values_b, rtol=RTOL, atol=ATOL, err_msg=f"{first} and {second} values"
    )
    # The spread is real: the network is far from its zero-initialised heads.
    assert np.ptp(values_a) > 0.1 and np.ptp(logits_a[mask]) > 1.0


def test_a_conv_trunk_is_the_same_network_in_torch_and_numpy(batch):
    """AlphaZero's ``--conv``: torch's ConvTrunk and numpy's im2col pass
    (azgames.agents.conv) give the same logits and values, through a file."""
    torch = pytest.importorskip("torch")
    from azgames.training.net import Net

    obs, mask = batch
    conv = {"channels": 6, "blocks": 2}
    torch.manual_seed(0)
    net = Net(OBS_SHAPE, NUM_ACTIONS, HIDDEN, values=2, conv=conv)
    with torch.no_grad():
        for p in net.parameters():
            p.normal_(0, 0.3)
        logits, values = net(torch.from_numpy(obs), torch.from_numpy(mask))
    meta = {"game": "azacru", "num_players": 2, "obs_shape": list(OBS_SHAPE), "hidden": list(HIDDEN)}
    policy = net.to_numpy({**meta, "conv": conv})
    np_logits, np_values = policy.evaluate(obs.reshape(BATCH, -1), mask)  # the search's flat rows
    np.testing.assert_allclose(np_logits[mask], logits.numpy()[mask], rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(np_values, values.numpy(), rtol=1e-4, atol=1e-4)
    assert np.ptp(np_values) > 0.1
    # and back: a torch net of the same shape takes the numpy weights
    again = Net(OBS_SHAPE, NUM_ACTIONS, HIDDEN, values=2, conv=conv)
    again.load_numpy(policy)
    with torch.no_grad():
        again_values = again(torch.from_numpy(obs), torch.from_numpy(mask))[1]
        np.testing.assert_allclose(again_values.numpy(), values.numpy(), rtol=1e-6)
    with pytest.raises(ValueError, match="conv layers"):
        Net(OBS_SHAPE, NUM_ACTIONS, HIDDEN, values=2, conv={"channels": 4, "blocks": 2}).load_numpy(policy)
