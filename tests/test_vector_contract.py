"""The vector env's contract, the same for every game: a batch with one
illegal (or malformed) action is refused whole, naming the game and why, and
no game moves."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import azgames
from azgames.core import contract
from azgames.core import state as state_ops
from tests.players import most
from tests.players import table as players_table


@pytest.mark.parametrize("game", [e.name for e in azgames.list_games()])
def test_vector_env_refuses_an_illegal_batch_without_stepping_any_game(game):
    venv = azgames.make_vec(game, num_envs=6, seed=4, num_players=most(game, 3))
    for _ in range(5):
        venv.step(venv.random_actions())
    while venv.action_mask.all():  # a game whose every move is legal early (Connect Four)
        venv.step(venv.random_actions())
    actions = venv.random_actions()
    before = state_ops.clone(venv.state)  # the generator words as the draw left them
    bad = next(i for i in range(6) if not venv.action_mask[i].all())
    actions[bad] = int(np.flatnonzero(~venv.action_mask[bad])[0])
    with pytest.raises(ValueError, match=rf"illegal action .* in env {bad}"):
        venv.step(actions)
    actions[bad] = venv.rules.num_actions
    with pytest.raises(ValueError, match="out of range"):
        venv.step(actions)
    with pytest.raises(ValueError):
        venv.step(actions[:5])  # wrong shape
    with pytest.raises(ValueError):
        venv.step(actions.astype(float))  # not integers
    assert state_ops.equal(before, venv.state), "a refused batch changed some game"


@pytest.mark.parametrize("game,players", players_table([2, 4]))
def test_vector_env_declares_spaces_its_outputs_belong_to(game, players):
    venv = azgames.make_vec(game, num_envs=5, seed=1, num_players=players)
    one = azgames.make(game, num_players=players)
    assert venv.single_observation_space == one.observation_space(one.possible_agents[0])["observation"]
    assert venv.single_action_space == one.action_space(one.possible_agents[0])
    assert venv.observation_space.shape == (5, *venv.single_observation_space.shape)
    assert list(venv.action_space.nvec) == [venv.num_actions] * 5
    obs, _ = venv.reset()
    assert venv.observation_space.contains(obs)
    for _ in range(30):
        actions = venv.random_actions()
        assert venv.action_space.contains(actions)
        obs = venv.step(actions)[0]
        assert venv.observation_space.contains(obs)


@pytest.mark.parametrize("game", [e.name for e in azgames.list_games()])
def test_masks_are_bool_in_the_vector_env_and_int8_0_or_1_in_the_aec_env_as_the_api_page_says(game):
    """docs/api.md: ``~mask`` is a mask in the vector env; the AEC env keeps
    PettingZoo's int8 (where ``~`` gives -1 and -2)."""
    venv = azgames.make_vec(game, num_envs=2, seed=0)
    _, mask = venv.reset()
    assert mask.dtype == np.bool_ and venv.action_mask.dtype == np.bool_
    env = azgames.make(game)
    env.reset(seed=0)
    aec_mask = env.observe(env.agent_selection)["action_mask"]
    assert aec_mask.dtype == np.int8 and set(np.unique(aec_mask)) <= {0, 1}
    assert np.array_equal(aec_mask.astype(bool), mask[0])  # the same legal moves either way
    page = (Path(__file__).resolve().parents[1] / "docs" / "api.md").read_text()
    assert "## Action masks: bool in the vector env, int8 in the AEC env" in page


@pytest.mark.parametrize("game", [e.name for e in azgames.list_games()])
def test_the_serial_and_the_parallel_step_play_a_batch_alike(game):
    """Batches under 2,048 games step through a serial loop compiled without
    reference counts, larger ones through a parallel loop (the core's
    ``run_batched`` picks): the same actions give the same games and outputs."""
    venv = azgames.make_vec(game, num_envs=8, seed=2, num_players=most(game, 3))
    venv.reset()
    rules = venv.rules
    sides = {}
    for kernel in (contract.vec_step_serial, contract.vec_step_parallel):
        state = state_ops.clone(venv.state)
        # The mask is the step's input (the legal actions it checks) and output.
        outputs = [np.zeros_like(venv._obs), venv._mask.copy(), np.zeros_like(venv._rewards)]
        outputs += [np.zeros_like(x) for x in (venv._terminated, venv._truncated, venv._player)]
        generator = np.random.default_rng(0)
        trace = []
        for _ in range(60):
            actions = np.array([generator.choice(np.flatnonzero(row)) for row in outputs[1]], np.int64)
            flat = outputs[0].reshape(len(actions), -1)
            assert kernel(state, rules.cfg, actions, flat, *outputs[1:]) == -1
            trace.append([x.copy() for x in outputs])
        sides[kernel] = state, trace
    (serial_state, serial_trace), (parallel_state, parallel_trace) = sides.values()
    assert state_ops.equal(serial_state, parallel_state)
    for one, other in zip(serial_trace, parallel_trace):
        assert all(np.array_equal(a, b) for a, b in zip(one, other))
