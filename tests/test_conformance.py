"""Conformance of every AEC env of the suite to the PettingZoo contract and
to the suite's own promises (seeding, copies, errors, rendering, records).

To add a game, append its constructors to ``ENVS``: each entry is a
:class:`Case` with a constructor taking ``render_mode`` and the text the ansi
render must contain for a position.
"""

from __future__ import annotations

import copy
import json
import pickle
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial

import numpy as np
import pytest
from gymnasium.utils.env_checker import data_equivalence
from pettingzoo.test import api_test, seed_test
from pettingzoo.test.seed_test import seed_action_spaces, seed_observation_spaces

import azacru_env
import azgames
import azimuth_env
import azure_env
from azacru_env.diagram import to_diagram
from azgames.core import state as state_ops
from azimuth_env.board import load_layout
from azimuth_env.diagram import to_diagram as azimuth_diagram
from azure_env.board import load_layout as azure_layout
from azure_env.board import resolve_map as azure_map
from azure_env.diagram import to_diagram as azure_diagram


@dataclass(frozen=True)
class Case:
    id: str
    make: Callable  # make(render_mode=None, **kwargs) -> AEC env
    board_text: Callable  # board_text(one_game_state) -> text the ansi render contains


#: A map of the user's own (docs/rules/azure.md, "A map of your own"), as its diagram.
AZURE_USER_MAP = """
10  - - - - m m - - - -
 9  - - - - M m - - - -
 8  - - . . . . . . - -
 7  - - . o o . o . - -
 6  1 1 . o - - o . H 2
 5  1 H . . - - . . 2 2
 4  - - . o o . o . - -
 3  - - . . . . . . - -
 2  - - - - 3 H - - - -
 1  - - - - 3 3 - - - -
    a b c d e f g h i j
"""

ENVS = [
    Case("azacru-2p", partial(azacru_env.env, num_players=2), to_diagram),
    Case("azacru-3p", partial(azacru_env.env, num_players=3), to_diagram),
    Case("azacru-4p", partial(azacru_env.env, num_players=4), to_diagram),
    Case("azacru-2p-classic", partial(azacru_env.env, num_players=2, opening="classic"), to_diagram),
    *(
        Case(
            f"azimuth-{n}p{'-island' if island else ''}",
            partial(azimuth_env.env, num_players=n, island=island),
            partial(azimuth_diagram, island=load_layout(n, island).island),
        )
        for n, island in ((2, False), (3, False), (4, False), (4, True))
    ),
    Case(
        "azimuth-2p-random-lighthouses",
        partial(azimuth_env.env, num_players=2, lighthouses="random"),
        partial(azimuth_diagram, island=load_layout(2).island),
    ),
    *(
        Case(
            f"azimuth-coop-{n}p{suffix}",
            partial(azimuth_env.coop_env, num_players=n, **options),
            partial(azimuth_diagram, island=load_layout(4, key="coop").island),
        )
        for n, suffix, options in (
            (2, "", {}),
            (3, "", {}),
            (4, "", {}),
            (
                4,
                "-random-fixed-order",
                {"lighthouses": "random", "first_player": "random", "wave_order": "front_first", "rounds": 6},
            ),
        )
    ),
    *(
        Case(
            f"azure-{n}p-{m}{'-random-roles' if roles == 'random' else ''}",
            partial(azure_env.env, num_players=n, map=m, roles=roles),
            partial(azure_diagram, layout=azure_layout(m)),
        )
        for n, m, roles in (
            (2, "standard", "fixed"),
            (3, "standard", "fixed"),
            (4, "standard", "fixed"),
            (4, "long", "fixed"),
            (4, "ring", "fixed"),
            (3, "standard", "random"),
        )
    ),
    Case(
        "azure-4p-standard-literal-suit-tiles",
        partial(azure_env.env, num_players=4, suit_tiles="literal"),
        partial(azure_diagram, layout=azure_layout("standard")),
    ),
    Case(
        "azure-3p-user-map-random-roles",
        partial(azure_env.env, num_players=3, map=AZURE_USER_MAP, roles="random"),
        partial(azure_diagram, layout=azure_map(AZURE_USER_MAP)[0]),
    ),
]

cases = pytest.mark.parametrize("case", ENVS, ids=[c.id for c in ENVS])


# ---------------------------------------------------------------------- helpers


def over(env) -> bool:
    a = env.agent_selection
    return env.terminations[a] or env.truncations[a]


def random_action(env, rng) -> int:
    return int(rng.choice(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])))


def play_random(env, rng, turns=None) -> list[int]:
    """Random legal actions until the game ends (or ``turns`` were played)."""
    played = []
    while not over(env) and (turns is None or len(played) < turns):
        a = random_action(env, rng)
        env.step(a)
        played.append(a)
    return played


def play_until_the_board_changes(env, case):
    """Random actions until the board differs (an action may change only the
    turn: Azure Attack's stop with one hunter, who plays twice in a row)."""
    rng = np.random.default_rng(0)
    start = case.board_text(env.unwrapped.state)
    for _ in range(50):
        env.step(random_action(env, rng))
        if case.board_text(env.unwrapped.state) != start:
            return
    raise AssertionError("50 random actions left the board unchanged")


def snapshot(env):
    """Everything observable about an env's game, as plain copies."""
    u = env.unwrapped
    return {
        "state": state_ops.clone(u.state),
        "agent": env.agent_selection,
        "obs": {a: copy.deepcopy(env.observe(a)) for a in env.agents},
        "rewards": dict(env.rewards),
        "cumulative": dict(env._cumulative_rewards),
        "terminations": dict(env.terminations),
        "truncations": dict(env.truncations),
        "infos": copy.deepcopy(env.infos),
        "record": u.to_record(),
    }


def assert_same_snapshot(a, b):
    assert state_ops.equal(a["state"], b["state"])
    for key in ("agent", "obs", "rewards", "cumulative", "terminations", "truncations", "infos", "record"):
        assert data_equivalence(a[key], b[key]), key


def assert_continue_identically(env1, env2, rng_seed=3):
    """Both envs are at the same point; the same actions keep them identical to the end."""
    rng = np.random.default_rng(rng_seed)
    steps = 0
    while True:
        assert env1.agent_selection == env2.agent_selection
        last1, last2 = env1.last(), env2.last()
        for x, y, what in zip(last1, last2, ("observation", "reward", "termination", "truncation", "info")):
            assert data_equivalence(x, y), f"{what} differs after {steps} steps"
        assert state_ops.equal(env1.unwrapped.state, env2.unwrapped.state)
        if over(env1):
            break
        a = random_action(env1, rng)
        env1.step(a)
        env2.step(a)
        steps += 1
    assert data_equivalence(env1.rewards, env2.rewards)
    assert data_equivalence(env1.infos, env2.infos)
    return steps


# ---------------------------------------------------------------------- PettingZoo tests


@cases
# Dict observations (observation + action_mask) are the PettingZoo convention
# for masked actions; api_test still warns that they are not arrays.
@pytest.mark.filterwarnings("ignore:Observation is not a NumPy array")
@pytest.mark.filterwarnings("ignore:Observation space for each agent probably should be")
# Azure Attack's agents are named by role ("monster"), as its issue asks.
@pytest.mark.filterwarnings("ignore:We recommend agents to be named")
def test_pettingzoo_api_test(case):
    api_test(case.make(), num_cycles=1000)


@cases
def test_pettingzoo_seed_test(case):
    seed_test(case.make, num_cycles=500)


@cases
def test_pickle_env(case):
    """PettingZoo's own pickle test (test/pickle_test.py), played to the end."""
    env1 = case.make()
    env2 = pickle.loads(pickle.dumps(env1))
    env1.reset(seed=42)
    env2.reset(seed=42)
    seed_action_spaces(env1)
    seed_action_spaces(env2)
    seed_observation_spaces(env1)
    seed_observation_spaces(env2)
    steps = 0
    for agent1, agent2 in zip(env1.agent_iter(), env2.agent_iter()):
        assert data_equivalence(agent1, agent2), f"Incorrect agent: {agent1} {agent2}"
        obs1, rew1, term1, trunc1, info1 = env1.last()
        obs2, rew2, term2, trunc2, info2 = env2.last()
        assert data_equivalence(obs1, obs2), "Incorrect observations"
        assert data_equivalence(rew1, rew2), "Incorrect rewards"
        assert data_equivalence(term1, term2), "Incorrect terminations"
        assert data_equivalence(trunc1, trunc2), "Incorrect truncations"
        assert data_equivalence(info1, info2), "Incorrect infos"
        if term1 or trunc1:
            action1 = action2 = None
        else:
            mask = obs1["action_mask"]
            action1 = env1.action_space(agent1).sample(mask=mask)
            action2 = env2.action_space(agent2).sample(mask=mask)
            assert data_equivalence(action1, action2), f"Incorrect actions: {action1} {action2}"
            steps += 1
        env1.step(action1)
        env2.step(action2)
    assert steps > 10 and env1.agents == env2.agents == []


def copy_env(env, how: str):
    """A copy of ``env`` mid-game, made by pickling, deep copy or ``clone()``."""
    if how == "pickle":
        return pickle.loads(pickle.dumps(env))
    if how == "deepcopy":
        return copy.deepcopy(env)
    return env.unwrapped.clone()


@cases
@pytest.mark.parametrize("how", ["pickle", "deepcopy", "clone"])
def test_copy_mid_game_continues_identically(case, how):
    env = case.make()
    env.reset(seed=11)
    play_random(env, np.random.default_rng(5), turns=17)
    other = copy_env(env, how)
    assert_same_snapshot(snapshot(env), snapshot(other))
    assert assert_continue_identically(env, other) > 0


@cases
@pytest.mark.parametrize("how", ["pickle", "deepcopy", "clone"])
def test_copy_mid_game_is_independent(case, how):
    """Playing the copy to the end leaves the original exactly as it was."""
    env = case.make()
    env.reset(seed=12)
    play_random(env, np.random.default_rng(6), turns=9)
    before = snapshot(env)
    other = copy_env(env, how)
    assert len(play_random(other, np.random.default_rng(7))) > 0
    other.reset(seed=99)
    assert_same_snapshot(before, snapshot(env))
    # ... and the original still plays on.
    assert len(play_random(env, np.random.default_rng(8))) > 0


# ---------------------------------------------------------------------- seeding


@cases
def test_same_seed_same_game(case):
    env1, env2 = case.make(), case.make()
    env1.reset(seed=2024)
    env2.reset(seed=2024)
    assert state_ops.equal(env1.unwrapped.state, env2.unwrapped.state)
    assert assert_continue_identically(env1, env2) > 10


@cases
def test_reset_seed_sets_the_generator_word(case):
    env = case.make()
    words = []
    for seed in range(20):
        env.reset(seed=seed)
        words.append(int(env.unwrapped.state.rng[0]))
    assert len(set(words)) == 20, "different seeds must give different generator words"
    # The word depends on the seed alone: another env, after another game, agrees.
    other = case.make()
    other.reset(seed=123)
    play_random(other, np.random.default_rng(0), turns=5)
    other.reset(seed=7)
    assert int(other.unwrapped.state.rng[0]) == words[7]


@cases
def test_reset_without_seed_continues_the_generator(case):
    env1, env2 = case.make(), case.make()
    env1.reset(seed=5)
    env2.reset(seed=5)
    first = int(env1.unwrapped.state.rng[0])
    env1.reset()
    env2.reset()
    # a new game gets a new word, the same in both envs
    assert int(env1.unwrapped.state.rng[0]) != first
    assert int(env1.unwrapped.state.rng[0]) == int(env2.unwrapped.state.rng[0])
    # unseeded envs draw fresh entropy
    fresh = {int(_reset(case.make(), None).unwrapped.state.rng[0]) for _ in range(4)}
    assert len(fresh) == 4


def _reset(env, seed):
    env.reset(seed=seed)
    return env


# ---------------------------------------------------------------------- error contract


@cases
def test_step_before_reset_raises(case):
    with pytest.raises(RuntimeError, match="reset"):
        case.make().step(0)


@cases
@pytest.mark.parametrize("bad", [1.5, "a", None, [0]])
def test_non_integer_action_raises_naming_it(case, bad):
    env = case.make()
    env.reset(seed=0)
    before = snapshot(env)
    with pytest.raises(ValueError) as err:
        env.step(bad)
    assert repr(bad) in str(err.value)
    assert_same_snapshot(before, snapshot(env))


@cases
def test_numpy_integer_action_is_accepted(case):
    env = case.make()
    env.reset(seed=0)
    before = state_ops.clone(env.unwrapped.state)
    a = env.unwrapped.legal_actions()[0]
    env.step(np.int64(a))
    assert env.unwrapped.to_record()["actions"] == [a]
    assert not state_ops.equal(before, env.unwrapped.state)  # the action was played


@cases
def test_out_of_range_action_raises(case):
    env = case.make()
    env.reset(seed=0)
    n = env.action_space(env.agent_selection).n
    before = snapshot(env)
    for a in (-1, n, n + 100):
        with pytest.raises(ValueError, match="out of range") as err:
            env.step(a)
        assert str(a) in str(err.value)
    assert_same_snapshot(before, snapshot(env))


@cases
def test_illegal_action_raises_with_notation_and_reason(case):
    """At the start and mid-game, every unmasked action is refused with a
    message naming it in notation and saying why, and nothing changes."""
    env = case.make()
    env.reset(seed=1)
    rng = np.random.default_rng(1)
    u = env.unwrapped
    for _ in range(2):
        before = snapshot(env)
        mask = env.observe(env.agent_selection)["action_mask"]
        illegal = np.flatnonzero(mask == 0)
        assert len(illegal) > 0
        for a in illegal:
            a = int(a)
            notation = u.action_to_str(a)
            reason = u.rules.illegal_reason(u.state, a)
            assert reason, f"no reason for unmasked action {a} ({notation})"
            with pytest.raises(ValueError) as err:
                env.step(a)
            assert notation in str(err.value) and reason in str(err.value)
        assert_same_snapshot(before, snapshot(env))
        play_random(env, rng, turns=15)


def test_illegal_action_messages_azacru():
    """The two most common refusals, word for word."""
    env = azacru_env.env(num_players=2)
    env.reset(seed=0)
    u = env.unwrapped
    with pytest.raises(ValueError, match=r"pass.*passing is only allowed when no piece can move"):
        env.step(u.str_to_action("pass"))
    # player_0's piece on e1 faces north; power of movement 1 on a neutral board
    with pytest.raises(ValueError, match=r"e1-e3:N.*beyond the piece's power of movement"):
        env.step(u.str_to_action("e1-e3"))


@cases
def test_invalid_constructor_arguments_raise(case):
    with pytest.raises(ValueError, match="render_mode"):
        case.make(render_mode="svg")
    with pytest.raises(ValueError, match="infos"):
        case.make(infos="arrays")
    with pytest.raises(ValueError, match="illegal_action"):
        case.make(illegal_action="ignore")


@cases
def test_penalize_policy_ends_the_game(case):
    env = case.make(illegal_action="penalize")
    env.reset(seed=0)
    play_random(env, np.random.default_rng(2), turns=3)
    offender = env.agent_selection
    illegal = int(np.flatnonzero(env.observe(offender)["action_mask"] == 0)[0])
    env.step(illegal)
    assert all(env.terminations.values())
    assert env.rewards == {a: (-1.0 if a == offender else 0.0) for a in env.possible_agents}
    for a in env.possible_agents:
        assert env.infos[a]["illegal_action"]["agent"] == offender
        assert env.infos[a]["illegal_action"]["action"] == illegal
        assert env.infos[a]["illegal_action"]["reason"]
    assert not env.observe(env.agent_selection)["action_mask"].any()
    for agent in env.agent_iter():
        assert env.last()[2], f"{agent} is not terminated"
        env.step(None)
    assert env.agents == []


# ---------------------------------------------------------------------- rendering and copies


@cases
def test_render_ansi_shows_the_board(case):
    env = case.make(render_mode="ansi")
    env.reset(seed=0)
    text = env.render()
    assert isinstance(text, str)
    assert case.board_text(env.unwrapped.state) in text
    play_until_the_board_changes(env, case)
    after = env.render()
    assert case.board_text(env.unwrapped.state) in after and after != text


@cases
def test_render_rgb_array(case):
    env = case.make(render_mode="rgb_array")
    env.reset(seed=0)
    image = env.render()
    assert isinstance(image, np.ndarray) and image.dtype == np.uint8
    assert image.ndim == 3 and image.shape[2] == 3 and image.shape[0] > 50 and image.shape[1] > 50
    play_until_the_board_changes(env, case)
    after = env.render()
    assert after.shape == image.shape and not np.array_equal(after, image)


@cases
def test_render_before_reset_raises(case):
    with pytest.raises(RuntimeError):
        case.make(render_mode="ansi").render()


@cases
def test_observations_are_not_changed_by_later_steps(case):
    env = case.make()
    env.reset(seed=4)
    rng = np.random.default_rng(4)
    kept = []
    for _ in range(6):
        obs = {a: env.observe(a) for a in env.agents}
        last = env.last()[0]
        kept.append((obs, last, copy.deepcopy(obs), copy.deepcopy(last)))
        env.step(random_action(env, rng))
    changed = False
    for obs, last, obs_copy, last_copy in kept:
        assert data_equivalence(obs, obs_copy) and data_equivalence(last, last_copy)
        now = {a: env.observe(a) for a in env.agents}
        changed |= not data_equivalence(now, obs_copy)
    assert changed  # the game did move on


# ---------------------------------------------------------------------- game records


def _record_game(case, tmp_path, seed, turns=None):
    env = case.make()
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    moves, masks = [], []
    while not over(env) and (turns is None or len(moves) < turns):
        masks.append(env.observe(env.agent_selection)["action_mask"].copy())
        a = random_action(env, rng)
        moves.append(env.unwrapped.action_to_str(a))
        env.step(a)
    path = tmp_path / "game.json"
    env.unwrapped.save_record(path)
    return env, path, moves, masks


@cases
def test_record_round_trip(case, tmp_path):
    env, path, moves, _ = _record_game(case, tmp_path, seed=21)
    raw = path.read_bytes()
    assert not raw.startswith(b"\x80"), "a record must not be a pickle"
    record = json.loads(raw.decode("utf-8"))  # valid JSON
    assert record["moves"] == moves
    assert len(record["actions"]) == len(moves)
    loaded = azgames.load_record(path)
    assert state_ops.equal(loaded.unwrapped.state, env.unwrapped.state)
    assert loaded.agent_selection == env.agent_selection
    for key in ("rewards", "terminations", "truncations", "infos"):
        assert data_equivalence(getattr(loaded, key), getattr(env, key)), key
    assert all(env.terminations.values()) or all(env.truncations.values())


@cases
def test_record_mid_game_round_trip(case, tmp_path):
    env, path, _, _ = _record_game(case, tmp_path, seed=22, turns=12)
    loaded = azgames.load_record(path)
    assert state_ops.equal(loaded.unwrapped.state, env.unwrapped.state)
    assert assert_continue_identically(env, loaded) > 0


@cases
def test_tampered_record_is_refused(case, tmp_path):
    env, path, _, masks = _record_game(case, tmp_path, seed=23)
    record = json.loads(path.read_text())
    # from mid-game, the first position where some action is illegal
    k = next(j for j in range(len(record["actions"]) // 2, len(masks)) if not masks[j].all())
    played = record["actions"][k]

    def refused(rec):
        bad = tmp_path / "tampered.json"
        bad.write_text(json.dumps(rec))
        with pytest.raises(ValueError):
            azgames.load_record(bad)

    # another action that was legal at that point: the game goes elsewhere
    others = [int(a) for a in np.flatnonzero(masks[k]) if a != played]
    if others:
        refused({**record, "actions": record["actions"][:k] + [others[0]] + record["actions"][k + 1 :]})
    # an action that was illegal there
    illegal = int(np.flatnonzero(masks[k] == 0)[0])
    refused({**record, "actions": record["actions"][:k] + [illegal] + record["actions"][k + 1 :]})
    # actions dropped, or played after the end
    refused({**record, "actions": record["actions"][:-1]})
    refused({**record, "actions": record["actions"] + [record["actions"][-1]]})
    # a doctored final position
    final = copy.deepcopy(record["final"])
    field = next(name for name, f in final.items() if np.dtype(f["dtype"]).kind == "i")
    final[field]["data"][0] += 1
    refused({**record, "final": final})
    # not a record
    refused({**record, "format": "something-else"})
