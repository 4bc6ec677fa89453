"""A game's positions rebuilt from its record, and steps taken back (``rewind``)."""

import pytest

import azgames
from azgames.agents import make_agent
from azgames.core import state as state_ops
from azgames.terminal.history import positions


def played(game: str, steps: int, seed: int = 0):
    env = azgames.make(game, num_players=2)
    env.reset(seed=seed)
    agent = make_agent("random", seed=seed, game=game)
    for _ in range(steps):
        env.step(int(agent.act(env)))
    return env


@pytest.mark.parametrize("game", ["azure", "azimuth_coop"])  # dice: replays must draw the same
def test_positions_replay_the_record_and_leave_the_env_alone(game):
    env = played(game, 30)
    before = state_ops.clone(env.unwrapped.state)
    game_positions = positions(env)
    assert state_ops.equal(env.unwrapped.state, before)
    record = env.unwrapped.to_record()
    assert [p.ply for p in game_positions] == list(range(31))
    assert [p.last.move for p in game_positions[1:]] == record["moves"]
    assert state_ops.equal(game_positions[-1].state, env.unwrapped.state)
    # Each position is the one the game passed through: the record's start, then
    # the positions a shorter game of the same actions ends in.
    shorter = played(game, 12)
    assert state_ops.equal(game_positions[12].state, shorter.unwrapped.state)
    assert game_positions[0].last is None


@pytest.mark.parametrize("game", ["azure", "azimuth_coop"])
def test_rewind_returns_to_an_earlier_position_and_shortens_the_record(game):
    env = played(game, 30)
    env.unwrapped.rewind(12)
    shorter = played(game, 12)
    assert state_ops.equal(env.unwrapped.state, shorter.unwrapped.state)
    assert env.agent_selection == shorter.agent_selection
    assert env.unwrapped.legal_actions() == shorter.unwrapped.legal_actions()
    assert env.unwrapped.to_record()["moves"] == shorter.unwrapped.to_record()["moves"]
    with pytest.raises(ValueError, match="ply=13: this game has plies 0 to 12"):
        env.unwrapped.rewind(13)
    with pytest.raises(TypeError, match="ply"):
        env.unwrapped.rewind(1.5)
