"""The RLlib MultiAgentEnv: who gets which observation, reward and ending, when.

Each scripted game is played twice, on the RLlib env and on the suite's AEC
env with the same seed and the same actions; the AEC env is the reference
for whose turn it is and what each agent is paid."""

import numpy as np
import pytest

pytest.importorskip("ray.rllib")

import azgames  # noqa: E402
from azgames.core.registry import list_games  # noqa: E402
from azgames.rllib.env import LEARNER_PREFIX, TurnBasedEnv, env_config, teams  # noqa: E402
from tests.players import table as players_table  # noqa: E402

GAMES = players_table([2, 3])


def first_legal(mask) -> int:
    return int(np.flatnonzero(mask)[0])


def last_legal(mask) -> int:
    return int(np.flatnonzero(mask)[-1])


def play_both(game, players, pick, seed=3, max_steps=5000):
    """One game on the RLlib env and on the AEC env, the same actions
    (``pick(mask)``); yields (rllib step's dicts, the AEC env before the step)."""
    env = TurnBasedEnv({"game": game, "num_players": players})
    ref = azgames.make(game, num_players=players).unwrapped
    obs, _ = env.reset(seed=seed)
    ref.reset(seed=seed)
    result = (obs, {}, {"__all__": False}, {"__all__": False}, {})
    for _ in range(max_steps):
        yield result, ref
        if result[2]["__all__"] or result[3]["__all__"]:
            return
        ((agent, seen),) = result[0].items()
        action = pick(seen["action_mask"])
        ref.step(action)
        result = env.step({agent: action})
    raise AssertionError("the game did not end")


@pytest.mark.parametrize("game,players", GAMES)
@pytest.mark.parametrize("pick", [first_legal, last_legal])
def test_a_game_reaches_each_agent_as_in_the_aec_env(game, players, pick):
    paid = {}
    aec_paid = {}
    for (obs, rewards, terminated, truncated, infos), ref in play_both(game, players, pick):
        for agent, r in rewards.items():
            paid[agent] = paid.get(agent, 0.0) + r
        for agent, r in ref.rewards.items():
            aec_paid[agent] = aec_paid.get(agent, 0.0) + r
        if not (terminated["__all__"] or truncated["__all__"]):
            # only the agent to move is observed: the AEC env's observation and mask
            assert list(obs) == [ref.agent_selection]
            seen = ref.observe(ref.agent_selection)
            assert np.array_equal(obs[ref.agent_selection]["observations"], seen["observation"].reshape(-1))
            assert np.array_equal(obs[ref.agent_selection]["action_mask"], seen["action_mask"])
            assert not any(terminated.get(a) or truncated.get(a) for a in ref.possible_agents)
    # the end: every agent observed and done, and paid in all what the AEC env paid it
    assert sorted(obs) == sorted(ref.possible_agents)
    assert terminated["__all__"] == any(ref.terminations.values())
    assert truncated["__all__"] == any(ref.truncations.values())
    assert all(terminated[a] or truncated[a] for a in ref.possible_agents)
    assert paid == pytest.approx(aec_paid)
    assert {a: info["return"] for a, info in infos.items()} == pytest.approx(aec_paid)
    assert any(aec_paid.values()) or truncated["__all__"] or game == "azimuth"


def test_the_loser_is_paid_when_the_winner_moves_last():
    """Azacru, 2 players: in a game ended by the winner's move, the loser,
    who did not move, still gets its -1, its final observation and its end."""
    for seed in range(20):
        last_mover = None
        for (obs, rewards, terminated, *_), ref in play_both("azacru", 2, last_legal, seed=seed):
            if not terminated["__all__"]:
                (last_mover,) = obs
        loser = next(a for a, r in rewards.items() if r < 0)
        if loser != last_mover:
            assert rewards[last_mover] == 1.0 and rewards[loser] == -1.0
            assert loser in obs and terminated[loser]
            return
    raise AssertionError("no game of seeds 0-19 ended by the winner's move")


def test_azure_repeated_turns_are_observations_in_a_row():
    """Azure Attack: an agent that moves again (its tile ends next to a
    fight, or a double move) is observed twice in a row, as the AEC env
    hands it the turn twice."""
    movers = []
    aec_movers = []
    for (obs, *_), ref in play_both("azure", 2, last_legal, seed=5):
        if len(obs) == 1:
            movers.append(next(iter(obs)))
            aec_movers.append(ref.agent_selection)
    assert movers == aec_movers
    repeats = sum(a == b for a, b in zip(movers, movers[1:]))
    assert repeats > 0, "this game has no repeated turn: pick another seed"


@pytest.mark.parametrize("game,players", [(g, n) for g, n in GAMES if g != "azimuth_coop"])
def test_builtin_games_show_only_the_learners_side(game, players):
    env = TurnBasedEnv(
        {
            "game": game,
            "num_players": players,
            "builtin_share": 1.0,
            "builtin_opponents": {"random": 1.0},
            "seed": 0,
        }
    )
    side = dict(zip(env.seats, env.seat_team))
    for _ in range(3):
        obs, _ = env.reset()
        shown = set()
        while True:
            ((agent, seen),) = obs.items()
            assert agent.startswith(LEARNER_PREFIX)
            shown.add(agent)
            obs, rewards, terminated, truncated, infos = env.step({agent: first_legal(seen["action_mask"])})
            if terminated["__all__"] or truncated["__all__"]:
                break
            assert len(obs) == 1
        # one side, all its seats that played, paid, and the opponent named in the infos
        assert len({side[a[len(LEARNER_PREFIX) :]] for a in obs}) == 1
        assert set(obs) == shown and set(rewards) == shown
        assert all(info["opponent"] == "random" for info in infos.values())


def test_the_coop_team_has_no_builtin_opponent():
    env = TurnBasedEnv({"game": "azimuth_coop", "num_players": 3, "builtin_share": 1.0})
    assert env.possible_agents == env.seats
    obs, _ = env.reset(seed=0)
    assert list(obs) == [env.game.agent_selection]


def test_teams():
    assert teams(azgames.make("azacru", num_players=3)) == [0, 1, 2]
    assert teams(azgames.make("azure", num_players=4)) == [0, 1, 1, 1]
    assert teams(azgames.make("azimuth_coop", num_players=3)) == [0, 0, 0]


@pytest.mark.parametrize("game,players", GAMES)
@pytest.mark.parametrize("share", [0.0, 0.5])
def test_rllibs_env_checker_passes(game, players, share):
    from ray.rllib.utils.pre_checks.env import check_multiagent_environments

    check_multiagent_environments(
        TurnBasedEnv({"game": game, "num_players": players, "builtin_share": share})
    )


def test_an_unmasked_illegal_action_ends_the_game_and_is_counted():
    env = TurnBasedEnv({"game": "azacru"})
    obs, _ = env.reset(seed=0)
    ((agent, seen),) = obs.items()
    illegal = int(np.flatnonzero(seen["action_mask"] == 0)[0])
    obs, rewards, terminated, _, infos = env.step({agent: illegal})
    assert terminated["__all__"] and rewards[agent] == -1.0
    assert infos[agent]["illegal_action"] == 1
    raising = TurnBasedEnv({"game": "azacru", "illegal_action": "raise"})
    obs, _ = raising.reset(seed=0)
    with pytest.raises(ValueError, match=f"illegal action {illegal}"):
        raising.step({agent: illegal})


def test_the_turn_is_named_when_the_wrong_agent_acts():
    env = TurnBasedEnv({"game": "azacru"})
    obs, _ = env.reset(seed=0)
    (agent,) = obs
    other = next(a for a in env.possible_agents if a != agent)
    with pytest.raises(ValueError, match=f"it is {agent}'s turn"):
        env.step({other: 0})


@pytest.mark.parametrize(
    "config,match",
    [
        ({"gmae": "azacru"}, "unknown TurnBasedEnv config key"),
        ({}, "config needs 'game'"),
        ({"builtin_share": 1.5}, "builtin_share=1.5"),
        ({"builtin_share": "half"}, "builtin_share='half'"),
        ({"builtin_opponents": {}}, "builtin_opponents={}"),
        ({"builtin_opponents": {"random": -1}}, "builtin_opponents="),
        ({"illegal_action": "ignore"}, "illegal_action"),
    ],
)
def test_bad_config_values_are_named(config, match):
    with pytest.raises(ValueError, match=match):
        env_config({"game": "azacru", **config} if config and "gmae" not in config else config)


@pytest.mark.parametrize("game", [e.name for e in list_games()])
def test_bad_values_for_every_game(game):
    with pytest.raises(ValueError, match="alphazero"):
        TurnBasedEnv({"game": game, "builtin_opponents": {"alphazero": 1.0}, "builtin_share": 0.5})
    with pytest.raises(ValueError, match="9"):
        TurnBasedEnv({"game": game, "num_players": 9})


def test_the_shipped_policy_and_agent_specs_can_be_builtin_opponents():
    env = TurnBasedEnv(
        {
            "game": "azacru",
            "builtin_share": 1.0,
            "seed": 0,
            "builtin_opponents": {"ppo": 1.0, "mcts:simulations=5": 0.0},
        }
    )
    obs, _ = env.reset()
    assert env.opponent == "ppo"
    while True:
        ((agent, seen),) = obs.items()
        obs, _, terminated, truncated, infos = env.step({agent: first_legal(seen["action_mask"])})
        if terminated["__all__"] or truncated["__all__"]:
            break
    assert all(info["opponent"] == "ppo" for info in infos.values())
