"""Bad input at every public entry point, for every registered game.

Each table row is one mistake a user can make: the entry point must refuse it
with a ``TypeError`` or ``ValueError`` (``RuntimeError`` for a call out of
order) whose message names the argument or repeats the value, and must leave
the env as it was. Nothing may escape as an ``AttributeError``, ``KeyError``
or ``IndexError`` from inside. A new game is covered by registering it.

The state checks (a record's or a state's values) are in test_state_checks.py.
"""

from __future__ import annotations

import copy
import json

import numpy as np
import pytest

import azgames
from azgames.agents import agent_names, make_agent
from azgames.cli import main as cli_main
from azgames.core import state as state_ops

GAMES = [e.name for e in azgames.list_games()]
REFUSED = (TypeError, ValueError)


def refused(fn, *fragments, kinds=REFUSED):
    """Assert ``fn()`` raises one of ``kinds`` with every fragment in its message."""
    with pytest.raises(kinds) as info:
        fn()
    message = str(info.value)
    for fragment in fragments:
        assert fragment in message, f"{fragment!r} not in {message!r}"
    return message


def started(game: str, steps: int = 6, seed: int = 0, **kwargs):
    """An env of ``game`` a few random legal actions into a game."""
    env = azgames.make(game, **kwargs)
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        legal = env.legal_actions()
        if not legal:
            break
        env.step(int(rng.choice(legal)))
    return env


def finished(game: str, seed: int = 0):
    env = azgames.make(game)
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    while env.legal_actions():
        env.step(int(rng.choice(env.legal_actions())))
    return env


# ---------------------------------------------------------------- make / env()

BAD_COMMON_OPTIONS = [
    ({"num_players": True}, "num_players"),
    ({"num_players": 9}, "num_players"),
    ({"num_players": 1}, "num_players"),
    ({"num_players": "2"}, "num_players"),
    ({"num_players": 2.0}, "num_players"),
    ({"render_mode": "svg"}, "render_mode"),
    ({"render_mode": ["ansi"]}, "render_mode"),
    ({"illegal_action": "ignore"}, "illegal_action"),
    ({"infos": "arrays"}, "infos"),
    ({"no_such_option": 1}, "no_such_option"),
]


def bad_option_values(default):
    """Values of the wrong kind or out of range for an option with this default."""
    if isinstance(default, bool):
        return [1, 0, "yes", None, []]
    if isinstance(default, int):
        return [True, 1.5, "3", 0, -1, None, 2**40, []]
    if isinstance(default, str):
        return ["no_such_choice", 3, None, True, [], {}]
    return ["yes", 1, 0, []]  # None: a tri-state (None, True or False)


def game_option_cases():
    for game in GAMES:
        rules_type = azgames.core.registry._module(game).raw_env.rules_type
        for name, default in rules_type.option_defaults().items():
            for value in bad_option_values(default):
                yield pytest.param(game, name, value, id=f"{game}-{name}={value!r}")


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("kwargs,fragment", BAD_COMMON_OPTIONS, ids=[str(k) for k, _ in BAD_COMMON_OPTIONS])
def test_make_refuses_bad_common_options(game, kwargs, fragment):
    refused(lambda: azgames.make(game, **kwargs), fragment)
    refused(lambda: azgames.make_vec(game, num_envs=2, **kwargs), fragment)


@pytest.mark.parametrize("game,name,value", list(game_option_cases()))
def test_make_refuses_bad_game_options(game, name, value):
    refused(lambda: azgames.make(game, **{name: value}), name)


def test_make_refuses_an_unknown_game():
    refused(lambda: azgames.make("chess"), "chess", "azacru")


# ---------------------------------------------------------------- reset, step

BAD_SEEDS = [-1, True, 1.5, "1", 2**200, [1]]


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("seed", BAD_SEEDS, ids=repr)
def test_reset_refuses_bad_seeds(game, seed):
    env = azgames.make(game)
    refused(lambda: env.reset(seed=seed), "seed", repr(seed)[:20])
    refused(lambda: azgames.make_vec(game, num_envs=2, seed=seed), "seed")


@pytest.mark.parametrize("game", GAMES)
def test_reset_takes_numpy_seeds_and_refuses_options_of_the_wrong_kind(game):
    env = azgames.make(game)
    env.reset(seed=np.int64(3))
    refused(lambda: env.reset(seed=1, options="fast"), "options", "fast")


def bad_actions(num_actions: int):
    return [True, False, 1.5, "3", None, [1], -1, num_actions, 2**70, np.uint64(2**64 - 1), np.float64(1.0)]


@pytest.mark.parametrize("game", GAMES)
def test_step_refuses_bad_actions_and_changes_nothing(game):
    env = started(game)
    before = state_ops.clone(env.unwrapped.state)
    agent = env.agent_selection
    for action in bad_actions(env.unwrapped.rules.num_actions):
        message = refused(lambda: env.step(action))
        shown = str(int(action)) if isinstance(action, np.uint64) else repr(action)
        assert shown in message, (action, message)
        assert state_ops.equal(before, env.unwrapped.state)
        assert env.agent_selection == agent
    env = with_an_illegal_move(env)
    before = state_ops.clone(env.unwrapped.state)
    illegal = int(np.flatnonzero(env.unwrapped._mask == 0)[0])
    refused(lambda: env.step(illegal), "illegal action", str(illegal))
    assert state_ops.equal(before, env.unwrapped.state)


def with_an_illegal_move(env):
    """``env`` played on (by its first legal moves) until some action is illegal:
    early in Connect Four every column is free."""
    while env.unwrapped._mask.all():
        env.step(env.legal_actions()[0])
    return env


ENTRY_POINTS_BEFORE_RESET = {
    "step": lambda env: env.step(0),
    "observe": lambda env: env.observe(env.possible_agents[0]),
    "last": lambda env: env.last(),
    "agent_iter": lambda env: next(iter(env.agent_iter())),
    "legal_actions": lambda env: env.legal_actions(),
    "clone": lambda env: env.clone(),
    "action_to_str": lambda env: env.action_to_str(0),
    "str_to_action": lambda env: env.str_to_action("pass"),
    "render": lambda env: env.render(),
    "to_record": lambda env: env.to_record(),
    "chance_outcomes": lambda env: env.chance_outcomes(0),
}


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("entry", ENTRY_POINTS_BEFORE_RESET)
def test_entry_points_before_reset_say_reset_first(game, entry):
    env = azgames.make(game, render_mode="ansi")
    refused(lambda: ENTRY_POINTS_BEFORE_RESET[entry](env), "reset", kinds=(RuntimeError,))


@pytest.mark.parametrize("game", GAMES)
def test_a_finished_game_still_answers_and_refuses_moves(game):
    env = finished(game)
    agent = env.agent_selection
    assert env.legal_actions() == []
    assert env.observe(agent)["action_mask"].sum() == 0
    assert env.last()[2] or env.last()[3]
    copy_ = env.clone()
    assert state_ops.equal(copy_.unwrapped.state, env.unwrapped.state)
    refused(lambda: env.step(0), "None")
    refused(lambda: env.chance_outcomes(0), "over", kinds=(RuntimeError,))


@pytest.mark.parametrize("game", GAMES)
def test_agent_names_are_checked(game):
    env = started(game)
    for agent in ("nobody", 0, None):
        refused(lambda: env.observe(agent), repr(agent))
        refused(lambda: env.observation_space(agent), repr(agent))
        refused(lambda: env.action_space(agent), repr(agent))


@pytest.mark.parametrize("game", GAMES)
def test_notation_refuses_bad_arguments(game):
    env = started(game)
    n = env.unwrapped.rules.num_actions
    for action in (-1, n, True, 1.5, "1", None):
        refused(lambda: env.action_to_str(action), "action", repr(action))
    for text in (3, None, b"pass", ["pass"]):
        refused(lambda: env.str_to_action(text), repr(text))
    for text in ("", "   ", "no such move", "\x00"):
        refused(lambda: env.str_to_action(text))


@pytest.mark.parametrize("game", GAMES)
def test_clone_shares_no_info_with_the_original(game):
    env = started(game, steps=3)
    other = env.clone()

    def containers(value):
        if isinstance(value, (list, dict)):
            yield value
            for v in value.values() if isinstance(value, dict) else value:
                yield from containers(v)

    mine = {id(c) for info in env.infos.values() for c in containers(info)}
    theirs = {id(c) for info in other.infos.values() for c in containers(info)}
    assert not mine & theirs


# ---------------------------------------------------------------- records


@pytest.fixture(scope="module")
def records():
    return {game: started(game, steps=8, seed=1).to_record() for game in GAMES}


def mutated(record, change):
    r = copy.deepcopy(record)
    change(r)
    return r


def first_field(r, part):
    return next(iter(r[part]))


def set_data(part, index, value):
    def change(r):
        r[part][first_field(r, part)]["data"][index] = value

    return change


RECORD_CHANGES = {
    "format": (lambda r: r.update(format="other/1"), "format"),
    "no game": (lambda r: r.pop("game"), "'game'"),
    "no actions": (lambda r: r.pop("actions"), "'actions'"),
    "unknown game": (lambda r: r.update(game="chess"), "chess"),
    "players bool": (lambda r: r.update(num_players=True), "num_players"),
    "players str": (lambda r: r.update(num_players="2"), "num_players"),
    "options list": (lambda r: r.update(options=[]), "options"),
    "unknown option": (lambda r: r["options"].update(speed=2), "speed"),
    "actions dict": (lambda r: r.update(actions={}), "actions"),
    "agents": (lambda r: r.update(agents=["a", "b"]), "agents"),
    "moves disagree": (lambda r: r["moves"].__setitem__(0, r["moves"][1] + "x"), "move"),
    "moves short": (lambda r: r["moves"].pop(), "moves"),
    "action float": (lambda r: r["actions"].__setitem__(0, 1.5), "1.5"),
    "action str": (lambda r: r["actions"].__setitem__(0, "2"), "'2'"),
    "action bool": (lambda r: r["actions"].__setitem__(0, True), "True"),
    "action negative": (lambda r: r["actions"].__setitem__(0, -1), "-1"),
    "action huge": (lambda r: r["actions"].__setitem__(0, 10**9), "1000000000"),
    "action pair": (lambda r: r["actions"].__setitem__(0, [r["actions"][0]]), "action 0"),
    "start float": (set_data("start", 0, 1.5), "1.5"),
    "start str": (set_data("start", 0, "2"), "'2'"),
    "start bool": (set_data("start", 0, True), "True"),
    "start overflow": (set_data("start", 0, 10**6), "1000000"),
    "start dtype": (lambda r: r["start"][first_field(r, "start")].update(dtype="float64"), "dtype"),
    "start bad dtype": (lambda r: r["start"][first_field(r, "start")].update(dtype="nonsense"), "nonsense"),
    "start shape": (lambda r: r["start"][first_field(r, "start")].update(shape=[2, 3]), "shape"),
    "start field missing": (lambda r: r["start"].pop(first_field(r, "start")), "fields"),
    "start not dict": (lambda r: r.update(start=[]), "start"),
    "rng without a batch axis": (lambda r: r["start"]["rng"].update(shape=[]), "'rng'"),
    "too many plies": (lambda r: r.update(actions=r["actions"] * 60_000), "at most 100,000"),
    "final": (lambda r: r["final"]["rng"]["data"].__setitem__(0, r["final"]["rng"]["data"][0] ^ 1), "final"),
}


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("change", RECORD_CHANGES)
def test_from_record_refuses_broken_records(game, change, records):
    record = records[game]
    if "moves" in change and len(record["moves"]) < 2:
        pytest.skip("the game is too short")
    edit, fragment = RECORD_CHANGES[change]
    refused(lambda: azgames.from_record(mutated(record, edit)), fragment)


@pytest.mark.parametrize("game", GAMES)
def test_stepping_after_every_agent_is_removed_says_so(game):
    env = finished(game)
    while env.agents:  # the AEC loop: each finished agent steps None and leaves
        env.step(None)
    refused(lambda: env.step(None), "every agent was removed", "reset", kinds=(RuntimeError,))


@pytest.mark.parametrize("record", [None, [], "record", 3])
def test_from_record_needs_a_dict(record):
    refused(lambda: azgames.from_record(record), "record")


def test_record_files_are_checked(tmp_path, records):
    record = records["azacru"]
    refused(lambda: azgames.load_record(tmp_path / "missing.json"), "missing.json")
    (tmp_path / "bad.json").write_text("{not json")
    refused(lambda: azgames.load_record(tmp_path / "bad.json"), "bad.json", "JSON")
    refused(lambda: azgames.load_record(tmp_path), str(tmp_path))
    refused(lambda: azgames.load_record(3), "path")
    env = azgames.from_record(record)
    refused(lambda: env.save_record(tmp_path / "no" / "such" / "x.json"), "does not exist")
    refused(lambda: env.save_record(tmp_path), "folder")
    refused(lambda: env.save_record(None), "path")
    path = env.save_record(tmp_path / "ok.json")
    assert json.loads(path.read_text())["actions"] == record["actions"]


# ---------------------------------------------------------------- vector env


@pytest.mark.parametrize("game", GAMES)
def test_vector_env_refuses_bad_arguments(game):
    for n in (0, -1, True, 1.5, "4", None):
        refused(lambda: azgames.make_vec(game, num_envs=n), "num_envs", repr(n))
    venv_type = azgames.core.registry._module(game).VectorEnv
    fresh = venv_type(num_envs=2)
    refused(lambda: fresh.step([0, 0]), "reset", kinds=(RuntimeError,))
    refused(lambda: fresh.game(0), "reset", kinds=(RuntimeError,))
    venv = azgames.make_vec(game, num_envs=4, seed=0)
    before = state_ops.clone(venv.state)
    for actions in (
        [0, 0],
        np.zeros((4, 1), np.int64),
        np.zeros(4, np.float64),
        np.zeros(4, bool),
        np.array(["0"] * 4),
        None,
    ):
        refused(lambda: venv.step(actions), "actions")
    huge = np.full(4, 2**64 - 1, np.uint64)
    refused(lambda: venv.step(huge), "18446744073709551615")
    refused(lambda: venv.step(np.full(4, venv.num_actions)), str(venv.num_actions))
    assert state_ops.equal(before, venv.state)
    for i in (4, -1, True, 1.5, "0", None):
        refused(lambda: venv.game(i), repr(i))
        refused(lambda: venv.set_game(i, venv.game(0)), repr(i))
    refused(lambda: venv.set_game(0, venv.state), "games")
    refused(lambda: venv.set_game(0, tuple(venv.game(0))), "expected")


# ---------------------------------------------------------------- agents


@pytest.mark.parametrize("game", GAMES)
def test_agents_refuse_bad_arguments(game):
    refused(lambda: make_agent("oracle", game=game), "oracle")
    other = next(g for g in GAMES if g != game)
    for name in [n for n in ("random", "greedy") if n in agent_names(game)]:
        refused(lambda: make_agent(name, seed=-1, game=game), "seed")
        refused(lambda: make_agent(name, seed="x", game=game), "seed")
        agent = make_agent(name, seed=0, game=game)
        refused(lambda: agent.act(None), "env")
        refused(lambda: agent.act(azgames.make(game)), "reset", kinds=(RuntimeError,))
        refused(lambda: agent.act(finished(game)), "no legal action", kinds=(RuntimeError,))
        if name == "greedy":
            refused(lambda: agent.act(started(other, steps=0)), other)


@pytest.mark.parametrize("game", GAMES)
def test_matches_and_the_single_agent_env_refuse_bad_arguments(game):
    from azgames.agents.match import play_match
    from azgames.training.single_agent import SingleAgentEnv

    for n in (0, -2, True, 1.5, "3"):
        refused(lambda: play_match(game, ["random", "random"], num_games=n, progress=False), "num_games")
    refused(lambda: play_match(game, ["random", "random"], num_games=1, seed=-1, progress=False), "seed")
    refused(lambda: play_match(game, ["random"] * 3, num_games=1, progress=False), "agents")
    for seat in (True, 2, -1, 1.5, "first"):
        refused(lambda: SingleAgentEnv(game, seat=seat), "seat")
    refused(lambda: SingleAgentEnv(game, opponent="oracle"), "oracle")
    env = SingleAgentEnv(game, illegal_action="raise")  # the default penalizes an illegal action
    env.reset(seed=0)
    for action in (1.5, "0", True, np.array([0.5]), -1):
        refused(lambda: env.step(action))


# ---------------------------------------------------------------- command line

CLI_MISTAKES = [
    ["nosuchcommand"],
    ["play", "chess"],
    ["play", "azacru", "--players", "9"],
    ["play", "azacru", "--players", "two"],
    ["play", "--seed", "-1"],
    ["play", "--seed", "x"],
    ["play", "--games", "0"],
    ["play", "--delay", "-1"],
    ["play", "--render", "html"],
    ["play", "--record", "/no/such/dir/x.json"],
    ["play", "--agents", "oracle"],
    ["play", "azacru", "--agents", "random", "random", "random"],
    ["play", "azacru", "--map", "standard"],
    ["play", "azure", "--map", "no_such_map"],
    ["play", "azure", "--roles", "shuffled"],
    ["play", "--agents", "human", "random", "--games", "2"],
    ["replay"],
    ["replay", "/no/such/dir/game.json"],
    ["replay", __file__],  # not JSON
    ["replay", "/dev/zero"],  # a device: never read to its (absent) end
    ["replay", "/"],
    ["play", "--seed", str(2**130)],
    ["play", "--delay", "inf"],
    ["play", "--delay", "nan"],
    ["play", "--agents", "mcts:simulations=0", "random"],
    ["play", "--agents", "mcts:c=-1", "random"],
    ["play", "--agents", "mcts:c=1e400", "random"],
    ["play", "--agents", "mcts:simulations=100000000000000000000", "random"],
    ["play", "--agents", "mcts:simulations=null,seconds=1e9", "random"],
    ["play", "--agents", "random:foo=1", "random"],
    ["play", "azacru", "--agents", "greedy:lookahead=1", "random"],
    ["play", "--agents", "ppo:path=/no/such/policy.npz", "random"],
    ["play", "--agents", "ppo:policy=policy.npz", "random"],  # a path is path=
    ["play", "azacru", "--agents", "az:simulations=-1", "random"],
    ["play", "azacru", "--agents", "az:simulations=100000000000000000000", "random"],
    ["play", "azacru", "--agents", "az:considered=1000000000", "random"],
    ["play", "azacru", "--agents", "az:playout_weight=1.5", "random"],
    ["play", "azacru", "--agents", "az:playout_weight=nan", "random"],
    ["play", "azacru", "--agents", "az:max_playout=-2", "random"],
    ["play", "azure", "--agents", "az:heuristic_playouts=yes", "random"],
    ["play", "azimuth", "--agents", "az:repetition_draws=2", "random"],
    ["play", "azimuth_coop", "--agents", "az:heuristic_playouts=true"],  # the co-op has no heuristic
    ["play", "azacru", "--agents", "az:prior_temperature=-1", "random"],
    ["play", "azacru", "--agents", "az:prior_temperature=inf", "random"],
    ["play", "azure", "--agents", "az:min_spread=0", "random"],
    ["play", "azure", "--agents", "az:min_spread=3", "random"],
    ["play", "azacru", "--agents", "az:path=/no/such/network.npz", "random"],
    ["play", "azimuth", "--agents", "az:path=agents/policies/azacru_2p.npz", "random"],  # another game's
    ["train", "azacru", "--algo", "alphazero", "--value-warmup", "-1"],
    ["train", "azacru", "--algo", "alphazero", "--teacher-rounds", "-1"],
    ["train", "azacru", "--algo", "alphazero", "--teacher-rounds", "5", "--teacher", "nosuchagent"],
    ["train", "azacru", "--algo", "alphazero", "--teacher", "greedy:depth=-3"],
    ["train", "azacru", "--teacher-rounds", "5"],  # PPO's: no teacher
    ["train", "azacru", "--algo", "alphazero", "--playout-weight", "1.5"],
    ["train", "azacru", "--algo", "alphazero", "--playout-weight", "nan"],
    ["train", "azure", "--algo", "alphazero", "--min-spread", "0"],
    ["train", "azure", "--algo", "alphazero", "--min-spread", "nan"],
    ["train", "azure", "--min-spread", "0.5"],  # PPO's: no search
    ["train", "azacru", "--playout-weight", "0.5"],  # PPO's: no search
    ["train", "azure", "--algo", "alphazero", "--max-playout", "-2"],
    ["train", "azure", "--heuristic-playouts"],  # PPO's: no search
    ["train", "azimuth_coop", "--algo", "alphazero", "--heuristic-playouts"],  # no heuristic agent
    ["train", "azacru", "--algo", "alphazero", "--prior-temperature", "-0.1"],
    ["train", "azacru", "--algo", "alphazero", "--prior-temperature", "nan"],
    ["train", "azacru", "--prior-temperature", "0.1"],  # PPO's: no search
    ["train", "azacru", "--algo", "alphazero", "--eval-simulations", "5000"],
    ["train", "azacru", "--eval-simulations", "8"],  # an option of --algo alphazero
    ["train", "azacru", "--algo", "alphazero", "--conv", "32"],
    ["train", "azacru", "--algo", "alphazero", "--conv", "0x2"],
    ["train", "azacru", "--algo", "alphazero", "--conv", "32x99"],
    ["train", "azacru", "--algo", "alphazero", "--conv", "8x1", "--init", "agents/policies/azacru_2p.npz"],
    ["train", "azacru", "--conv", "32x2"],  # an option of --algo alphazero
    ["train", "azacru", "--no-symmetries"],  # an option of --algo alphazero
    ["play", "--record", "/proc/no_files_here.json"],
    ["play", "--record", __file__],  # exists: not replaced without --force
    ["play", "azure", "--map", "/dev/zero"],
    ["play", "azure", "--map", "/"],
    ["tournament", "azacru", "--agents", "random", "greedy", "--out", __file__],
    ["tournament", "azacru", "--agents", "random", "human"],
    ["tournament", "azacru", "--agents", "random", "greedy:lookahead=1"],
    ["tournament", "azacru", "--agents", "random", "mcts:threads=0"],
    ["train", "azacru", "--num-envs", "1", "--num-steps", "1"],
    ["train", "azacru", "--mix", "latest=inf,random=1"],
    ["train", "azacru", "--eval-every", "-1"],
    ["train", "azacru", "--seed", str(2**130)],
    ["train", "azacru", "--out", __file__],
]


@pytest.mark.parametrize("argv", CLI_MISTAKES + [["play", g, "--players", "9"] for g in GAMES], ids=" ".join)
def test_command_line_mistakes_end_in_one_line_and_status_2(argv, capsys):
    with pytest.raises(SystemExit) as info:
        cli_main(argv)
    assert info.value.code == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert len(err.strip().splitlines()) == 1, err
    assert "Traceback" not in err and "error:" in err


@pytest.mark.parametrize(
    "game", [g for g in GAMES if azgames.make(g).unwrapped.rules.info.chance == "explicit_stochastic"]
)
def test_forced_outcomes_are_checked(game):
    env = started(game, steps=0)
    for _ in range(500):  # play on to an action that draws
        action = next((a for a in env.legal_actions() if env.chance_outcomes(a)), None)
        if action is not None:
            break
        env.step(env.legal_actions()[0])
    before = state_ops.clone(env.unwrapped.state)
    for outcome in (3, None, "1", (1.5,), (True,), (99,), ()):
        refused(lambda: env.step_outcome(action, outcome))
    assert state_ops.equal(before, env.unwrapped.state)


def _deep_json(depth: int = 100_000) -> str:
    return "[" * depth + "]" * depth


@pytest.mark.parametrize(
    "argv,content",
    [
        (["replay", "{path}"], _deep_json()),
        (["play", "azure", "--map", "{path}"], _deep_json()),
        (["replay", "{path}"], None),  # a sparse 3 GiB file: refused, not read into memory
        (["play", "azure", "--map", "{path}"], None),
    ],
    ids=["deep record", "deep map", "huge record", "huge map"],
)
def test_files_from_the_command_line_are_read_within_limits(tmp_path, capsys, argv, content):
    path = tmp_path / "input.json"
    if content is None:
        with open(path, "wb") as f:
            f.truncate(3 * 2**30)
    else:
        path.write_text(content)
    with pytest.raises(SystemExit) as info:
        cli_main([a.format(path=path) for a in argv])
    assert info.value.code == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and str(path) in err
    assert ("nested deeper" if content else "larger than") in err
