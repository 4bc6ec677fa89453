"""Gumbel AlphaZero's trainer (azgames/training/alphazero.py): self-play
across rounds, the replay buffer, the learning step, and a whole run."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

import azgames

torch = pytest.importorskip("torch")

from azgames.agents.az.gumbel import EPSILON, NO_RESCALE  # noqa: E402
from azgames.agents.az.settings import SearchSettings  # noqa: E402
from azgames.agents.policy import NumpyPolicy  # noqa: E402
from azgames.training.alphazero import Config, Replay, Samples, SelfPlay, learn, train  # noqa: E402
from azgames.training.net import Net  # noqa: E402


def tiny(game="azacru", **kw) -> Config:
    return Config(
        game, **{"num_envs": 4, "num_steps": 40, "simulations": 4, "hidden": (32,), "progress": False, **kw}
    )


def net_for(cfg: Config, hidden=(32,), values=1) -> Net:
    rules = azgames.make(cfg.game, num_players=cfg.num_players).unwrapped.rules
    return Net(int(np.prod(rules.observation_shape(0))), rules.num_actions, hidden, values)


@pytest.fixture(scope="module")
def rounds():
    """Three rounds of four Azacru games, 40 moves each: games end in every round and run across rounds."""
    torch.manual_seed(0)
    cfg = tiny()
    net = net_for(cfg)
    play = SelfPlay(cfg, net)
    return play, net, [play.round(cfg.num_steps) for _ in range(3)]


def test_every_move_of_a_finished_game_becomes_one_sample_once(rounds):
    play, _, got = rounds
    made = sum(len(s.value) for s in got)
    assert play.games > 0 and made > 0
    assert made + len(play.pending["obs"]) == play.moves  # none lost, none twice
    # Every move still waiting belongs to a game that has not ended.
    assert set(play.pending["episode"]) <= set(play.episode)


def test_samples_carry_the_improved_policy_and_the_movers_result(rounds):
    _, _, got = rounds
    samples = Samples(*(np.concatenate(field) for field in zip(*got)))
    assert np.allclose(samples.policy.sum(1), 1.0, atol=1e-5)
    assert not samples.policy[~samples.mask].any()  # legal actions only
    # Azacru pays +1 / -1 / 0 at the end only: each move's target is its mover's result.
    assert set(np.unique(samples.value)) <= {-1.0, 0.0, 1.0}
    assert samples.obs.shape[0] == samples.mask.shape[0] == samples.value.size


def test_with_a_value_mix_the_value_target_moves_towards_the_searchs_root_value():
    """The same games played twice from one seed, the second with a quarter
    of each value target the search's root value: the same moves, and each
    target a quarter of the way from the result to a value in [-1, 1]
    that is not the result (the search's mean, not a game's end)."""
    cfg = tiny(num_steps=60)
    torch.manual_seed(0)
    net = net_for(cfg)
    plain = SelfPlay(cfg, net).round(cfg.num_steps)
    mixed = SelfPlay(replace(cfg, value_mix=0.25), net).round(cfg.num_steps)
    np.testing.assert_array_equal(mixed.obs, plain.obs)
    np.testing.assert_array_equal(mixed.policy, plain.policy)
    root = (mixed.value - 0.75 * plain.value) / 0.25
    assert len(root) > 0 and np.all(np.abs(root) <= 1 + 1e-5)
    assert not np.isin(np.round(root, 5), [-1.0, 0.0, 1.0]).all()


def test_a_value_mix_is_refused_where_the_value_is_each_players():
    cfg = tiny(num_players=3, value_mix=0.5)
    with pytest.raises(ValueError, match="value_mix=0.5"):
        SelfPlay(cfg, net_for(cfg, (32,), values=3), values=3)


def test_the_replay_buffer_keeps_the_newest_samples():
    def numbered(first, count):
        k = np.arange(first, first + count)
        half = np.ones((count, 2), np.float32) / 2
        return Samples(
            k[:, None].astype(np.int8), np.ones((count, 2), bool), half, k[:, None].astype(np.float32)
        )

    replay = Replay(5, 1, 2)
    replay.add(numbered(0, 3))
    replay.add(numbered(3, 4))
    assert replay.size == 5 and sorted(replay.value[:, 0].tolist()) == [2, 3, 4, 5, 6]
    replay.add(numbered(7, 9))  # more than it holds: the last five
    assert sorted(replay.value[:, 0].tolist()) == [11, 12, 13, 14, 15]
    assert sorted(replay.obs[:, 0].tolist()) == [11, 12, 13, 14, 15]


def test_with_three_sides_every_move_keeps_each_players_result_counted_from_its_mover():
    """Azacru with 3 players: the value targets are every player's return,
    column k the player k seats after the mover; a game's rows are its final
    rewards turned by its movers' seats."""
    cfg = tiny(num_players=3, num_steps=60)
    play = SelfPlay(cfg, net_for(cfg, (32,), values=3), values=3)
    samples = play.round(cfg.num_steps)
    finished = play.finals[~np.isnan(play.finals[:, 0])]
    assert len(samples.value) > 0 and samples.value.shape[1] == 3
    results = {tuple(np.roll(f, -k)) for f in finished for k in range(3)}
    assert {tuple(row) for row in samples.value.astype(float)} <= results
    assert len({tuple(row) for row in samples.value}) > 1  # not every row the same


def test_the_learning_step_fits_the_targets_it_is_given(rounds):
    _, net, got = rounds
    batch = Samples(*(np.concatenate(field) for field in zip(*got)))
    optimizer = torch.optim.Adam(net.parameters(), lr=3e-3)
    first = sum(learn(net, optimizer, batch))
    for _ in range(60):
        last = sum(learn(net, optimizer, batch))
    assert last < 0.7 * first


@pytest.mark.parametrize(
    "game, options",
    [
        ("azure", {"max_turns": 6}),
        pytest.param("azimuth_coop", {"rounds": 2}, marks=pytest.mark.slow),  # its search compiles 20 s
    ],
)
def test_azure_and_the_co_op_play_with_their_dice(game, options):
    """The search's chance nodes in self-play (short games: few turns, few rounds)."""
    cfg = Config(game, num_envs=4, num_steps=40, simulations=4, hidden=(16,), options=options)
    play = SelfPlay(cfg, net_for(cfg, (16,)))
    samples = play.round(cfg.num_steps)
    assert play.games > 0 and len(samples.value) > 0
    assert np.allclose(samples.policy.sum(1), 1.0, atol=1e-5)


def test_a_run_writes_its_files_and_repeats_from_its_seed(tmp_path):
    def run(out):
        cfg = tiny(steps=480, eval_every=2, eval_games=4, final_eval_games=4, out=str(out), torch_threads=1)
        return train(cfg)

    record = run(tmp_path / "a")
    assert record["rounds"] == 3 and record["steps"] == 480 and record["games"] > 0
    for name in (
        "policy.npz",
        "policy.json",
        "train.csv",
        "eval.csv",
        "curve.png",
        "checkpoints/round_00002.npz",
    ):
        assert (tmp_path / "a" / name).is_file()
    run(tmp_path / "b")
    a, b = (NumpyPolicy.load(tmp_path / x / "policy.npz") for x in "ab")
    assert a.meta["algorithm"] == "alphazero"
    for (wa, ba), (wb, bb) in zip(a.trunk, b.trunk):
        assert np.array_equal(wa, wb) and np.array_equal(ba, bb)
    assert np.array_equal(a.policy_head[0], b.policy_head[0])


def test_a_run_starts_from_another_runs_network(tmp_path):
    first = tmp_path / "first"
    train(tiny(steps=160, final_eval_games=2, eval_against=("random",), out=str(first)))
    second = train(
        tiny(
            steps=160,
            final_eval_games=2,
            eval_against=("random",),
            out=str(tmp_path / "second"),
            init=str(first / "policy.npz"),
            hidden=(64, 64),
        )
    )
    after = NumpyPolicy.load(tmp_path / "second" / "policy.npz")
    assert after.meta["hidden"] == [32]  # the network of --init, not the config's
    assert after.meta["init"]["path"] == str(first / "policy.npz") and second["steps"] == 160


def test_a_conv_network_trains_plays_without_torch_and_is_taken_up_by_init(tmp_path):
    """--conv: the planes go through a residual conv trunk first; the file
    keeps it (azgames.agents.conv), the az agent searches with it, and a run
    from it takes its shape."""
    from azgames.agents import make_agent
    from azgames.agents.match import play_game

    conv = {"channels": 4, "blocks": 1}
    quick = {"steps": 160, "final_eval_games": 2, "eval_against": ("random",)}
    first = tmp_path / "conv"
    train(tiny(out=str(first), conv=conv, **quick))
    policy = NumpyPolicy.load(first / "policy.npz")
    assert policy.meta["conv"] == conv
    assert [w.shape for w, _ in policy.convs] == [(4, 11, 3, 3), (4, 4, 3, 3), (4, 4, 3, 3)]
    az = make_agent(f"az:path={first / 'policy.npz'},simulations=8", game="azacru", seed=0)
    result = play_game(azgames.make("azacru", max_turns=4), [az, make_agent("random", seed=0)], seed=0)
    assert result["turns"] > 0
    train(tiny(out=str(tmp_path / "again"), init=str(first / "policy.npz"), **quick))
    assert NumpyPolicy.load(tmp_path / "again" / "policy.npz").meta["conv"] == conv


def test_an_evaluation_with_simulations_plays_the_search_against_the_opponent(rounds):
    """evaluate(..., simulations=N) plays the az agent's batched search in
    every game at once, each game counted once."""
    from azgames.training.evaluate import evaluate

    _, net, _ = rounds
    meta = {"game": "azacru", "num_players": 2, "obs_shape": [11, 9, 9], "hidden": [32]}
    e = evaluate(net.to_numpy(meta), "random", 9, seed=0, simulations=8)
    assert e.games == 9 and e.wins + e.draws + e.losses == 9
    # Game i's learner sits in seat i % 2: five games in the first seat, four in the second.
    assert [sum(seat) for seat in e.by_seat] == [5, 4]
    assert [sum(column) for column in zip(*e.by_seat)] == [e.wins, e.draws, e.losses]
    assert "by_seat" not in e.as_dict()  # eval.csv keeps a number a column


def test_in_the_value_warm_up_the_policy_target_is_the_networks_own_prior():
    torch.manual_seed(0)  # a network whose games end within the round, whatever ran before
    cfg = tiny()
    net = net_for(cfg)
    play = SelfPlay(cfg, net)
    samples = play.round(cfg.num_steps, prior_targets=True)
    with torch.no_grad():
        logits, _ = net(torch.as_tensor(samples.obs), torch.as_tensor(samples.mask))
    assert len(samples.value) > 0
    assert np.allclose(samples.policy, torch.softmax(logits, -1).numpy(), atol=1e-5)


def test_three_players_start_from_the_ppo_policy_with_a_value_head_of_their_own(tmp_path):
    """A shipped 3-player PPO policy lends its trunk and policy head; the
    value head, one output a player, starts afresh."""
    from azgames.agents.policy import shipped_policy_path

    ppo = NumpyPolicy.load(shipped_policy_path("azacru", 3))
    cfg = tiny(num_players=3, steps=160, final_eval_games=3, eval_against=("random",), out=str(tmp_path))
    train(Config(**{**cfg.__dict__, "init": str(shipped_policy_path("azacru", 3)), "learning_rate": 1e-9}))
    after = NumpyPolicy.load(tmp_path / "policy.npz")
    assert after.value_head[0].shape == (ppo.value_head[0].shape[0], 3)
    # A step size of 1e-9 leaves the trunk as PPO's (to float16, as files store it).
    assert np.allclose(after.trunk[0][0], ppo.trunk[0][0], atol=1e-3)


def test_evaluations_can_play_the_search_and_the_curve_says_so(tmp_path):
    import csv

    record = train(
        tiny(
            steps=320,
            eval_every=1,
            eval_games=2,
            final_eval_games=2,
            eval_simulations=4,
            eval_against=("random",),
            out=str(tmp_path),
        )
    )
    rows = list(csv.DictReader((tmp_path / "eval.csv").open()))
    assert [r["simulations"] for r in rows] == ["4", "4"] and record["final_evaluation"]["random"][
        "games"
    ] == 2
    assert (tmp_path / "curve.png").is_file()


def test_in_a_league_game_the_snapshot_moves_for_its_seats_and_only_the_learners_moves_are_learned():
    cfg = tiny(league=1.0)
    net = net_for(cfg)
    play = SelfPlay(cfg, net)
    meta = {"game": "azacru", "num_players": 2, "obs_shape": [11, 9, 9], "hidden": [32]}
    play.snapshots = [net.to_numpy(meta)]
    play._deal(np.arange(cfg.num_envs))  # every game a league game now
    assert set(play.learner) <= {0, 1} and not play.opponent.any()
    searched = play.round(1).obs  # no game ends in one move: nothing learned yet
    assert len(searched) == 0
    mover = play.venv.player.astype(np.int64)
    chosen = np.full(cfg.num_envs, -1)
    kept = play._league_moves(chosen, mover)
    assert np.array_equal(kept, mover == play.learner)
    theirs = np.flatnonzero(~kept)
    assert all(play.venv.action_mask[g, chosen[g]] for g in theirs) and (chosen[kept] == -1).all()


def test_augmentation_turns_each_sample_by_one_of_the_games_symmetries():
    """Azacru declares the square's 8 symmetries: each drawn sample comes out
    as one of its 8 turns (observation, legal actions and policy together),
    all 8 turn up, and the value is left as it was."""
    from azgames.core.symmetry import symmetries
    from azgames.training.alphazero import augment

    rules = azgames.make("azacru").unwrapped.rules
    turns = symmetries(rules)
    rng = np.random.default_rng(0)
    n = 200
    obs = rng.integers(-1, 2, (n, int(np.prod(rules.observation_shape(0))))).astype(np.int8)
    mask = rng.random((n, rules.num_actions)) < 0.3
    policy = (rng.random((n, rules.num_actions)) * mask).astype(np.float32)
    value = rng.random((n, 1)).astype(np.float32)
    given = Samples(obs, mask, policy, value)
    out = augment(Samples(*(a.copy() for a in given)), turns, np.random.default_rng(1))
    seen = set()
    for i in range(n):
        row = lambda s: Samples(*(a[i : i + 1] for a in s))  # noqa: E731
        one = row(given)
        candidates = [one] + [
            Samples(t.observations(one.obs), t.actions(one.mask), t.actions(one.policy), one.value)
            for t in turns
        ]
        match = [
            k for k, c in enumerate(candidates) if all(np.array_equal(a, b) for a, b in zip(c, row(out)))
        ]
        assert match, f"sample {i} is none of its turns"
        seen.add(match[0])
    assert seen == set(range(8))
    assert np.array_equal(out.value, value)
    assert symmetries(azgames.make("azure").unwrapped.rules) == []  # none declared: learnt as it is


#: Search settings a run may train with, the game each needs, and an az
#: agent's options that change two of them for one game.
TRAINED_SEARCHES = [
    ("azacru", SearchSettings(min_spread=NO_RESCALE), "min_spread=0.5,playout_weight=0.25"),
    ("azacru", SearchSettings(min_spread=0.5), "min_spread=1"),
    (
        "azacru",
        SearchSettings(playout_weight=0.5, prior_temperature=0.2),
        "playout_weight=0,prior_temperature=0",
    ),
    (
        "azure",
        SearchSettings(playout_weight=1.0, max_playout=7, heuristic_playouts=True),
        "heuristic_playouts=false,max_playout=3",
    ),
]


def tree_settings(search) -> dict:
    """The settings a search's trees were searched with (as the numba walk reads them)."""
    t = search.trees
    return {
        "min_spread": float(t.min_spread[0]),
        "playout_weight": float(t.playout_weight[0]),
        "max_playout": int(t.max_playout[0]),
        "heuristic_playouts": bool(t.heuristic_playouts[0]),
        "prior_temperature": float(t.prior_temperature[0]),
    }


@pytest.mark.parametrize("game, settings, options", TRAINED_SEARCHES)
def test_a_runs_search_settings_are_self_plays_its_files_and_the_az_agents(tmp_path, game, settings, options):
    """One typed object from the trainer's config to the search: self-play
    searches with it, the network's file records it, the az agent searches
    the network so, and the agent's options change what they name only."""
    from azgames.agents import make_agent, parse_agent

    out = tmp_path / "run"
    cfg = tiny(game, steps=160, final_eval_games=2, eval_against=("random",), out=str(out), search=settings)
    assert SelfPlay(cfg, net_for(cfg)).search.settings == settings
    train(cfg)
    assert NumpyPolicy.load(out / "policy.npz").meta["search"] == settings.to_dict()
    env = azgames.make(game)
    env.reset(seed=0)
    _, changes = parse_agent(f"az:{options}")
    for spec, expected in (
        (f"az:path={out / 'policy.npz'}", settings),
        (f"az:path={out / 'policy.npz'},{options}", settings.replace(**changes)),
    ):
        az = make_agent(spec, game=game, seed=0)
        az.act(env)
        assert az._search.settings == expected
        searched = tree_settings(az._search)
        assert searched == {**expected.to_dict(), "max_playout": az._search.max_playout}


def test_a_settings_file_beside_the_weights_changes_how_az_searches_them_without_training(tmp_path):
    """``policy.search.json`` beside ``policy.npz`` changes the settings it
    names; the others stay as trained; a bad one is refused naming the file."""
    from azgames.agents import make_agent

    out = tmp_path / "run"
    trained = SearchSettings(min_spread=0.5, playout_weight=0.25)
    train(tiny(steps=160, final_eval_games=2, eval_against=("random",), out=str(out), search=trained))
    (out / "policy.search.json").write_text('{"playout_weight": 1.0, "prior_temperature": 0.1}')
    env = azgames.make("azacru")
    env.reset(seed=0)
    az = make_agent(f"az:path={out / 'policy.npz'}", game="azacru", seed=0)
    az.act(env)
    assert az._search.settings == trained.replace(playout_weight=1.0, prior_temperature=0.1)
    (out / "policy.search.json").write_text('{"playout_weight": 2}')
    with pytest.raises(ValueError, match=r"policy.search.json.*'playout_weight' is not a number from 0 to 1"):
        make_agent(f"az:path={out / 'policy.npz'}", game="azacru", seed=0)


@pytest.mark.parametrize(
    "block, min_spread",
    [
        ({"rescale": True}, EPSILON),
        ({"rescale": False}, NO_RESCALE),
        ({"rescale": False, "min_spread": 0.5}, 0.5),
    ],
)
def test_files_written_before_min_spread_read_their_rescale_as_one(block, min_spread):
    """``rescale`` and ``min_spread`` were two knobs for one setting: a file
    that says ``rescale`` is searched at the spread it meant."""
    assert SearchSettings.from_dict(block, "meta").min_spread == min_spread


def test_augmentation_is_on_from_scratch_and_follows_the_init_network_by_default(tmp_path):
    """A network not trained with the symmetries (PPO's) is not taught them
    by default: they are on from scratch, and from an --init that learnt
    with them; --symmetries says otherwise either way."""
    from azgames.agents import POLICIES

    def learnt_with(init=None, **kw):
        out = tmp_path / f"run{len(list(tmp_path.iterdir()))}"
        train(tiny(steps=160, final_eval_games=2, eval_against=("random",), out=str(out), init=init, **kw))
        return str(out / "policy.npz"), NumpyPolicy.load(out / "policy.npz").meta["symmetries"]

    scratch, augmented = learnt_with()
    assert augmented is True
    assert learnt_with(init=scratch)[1] is True
    ppo = str(POLICIES / "azacru_2p.npz")
    assert "symmetries" not in NumpyPolicy.load(ppo).meta
    assert learnt_with(init=ppo)[1] is False
    assert learnt_with(init=ppo, symmetries=True)[1] is True


class LastLegal:
    """A teacher that plays each game's highest legal action, and counts its calls."""

    def __init__(self):
        self.calls = 0

    def actions(self, env, games):
        self.calls += 1
        mask = env.venv.action_mask[games]
        return mask.shape[1] - 1 - np.argmax(mask[:, ::-1], axis=1)


def test_in_a_teachers_round_the_teacher_moves_and_its_moves_are_the_policy_targets():
    cfg = Config("azure", num_envs=4, num_steps=40, simulations=4, hidden=(16,), options={"max_turns": 6})
    play = SelfPlay(cfg, net_for(cfg, (16,)))  # games short enough to end within the round
    teacher = LastLegal()
    searched_before = play.search.seconds["run"]
    samples = play.round(cfg.num_steps, prior_targets=True, teacher=teacher)  # the teacher's targets win
    assert teacher.calls == cfg.num_steps and play.search.seconds["run"] == searched_before
    assert len(samples.value) > 0
    last_legal = samples.mask.shape[1] - 1 - np.argmax(samples.mask[:, ::-1], axis=1)
    assert np.array_equal(samples.policy, np.eye(samples.mask.shape[1], dtype=np.float32)[last_legal])
    assert np.abs(samples.value).max() <= 1.0


def test_a_run_is_taught_by_greedy_for_its_first_rounds_and_the_value_warm_up_follows(tmp_path, monkeypatch):
    """--teacher-rounds 2 --value-warmup 1: rounds 1-2 the teacher's, round 3
    the network's prior as target, round 4 the search's improved policy."""
    import azgames.training.alphazero as alphazero

    seen = []
    real = alphazero.SelfPlay.round

    def spy(self, num_steps, prior_targets=False, teacher=None):
        seen.append((getattr(teacher, "name", None), prior_targets))
        return real(self, num_steps, prior_targets, teacher)

    monkeypatch.setattr(alphazero.SelfPlay, "round", spy)
    cfg = tiny(steps=640, teacher_rounds=2, value_warmup=1, final_eval_games=2, eval_against=("random",))
    record = train(Config(**{**cfg.__dict__, "out": str(tmp_path)}))
    assert seen == [("greedy", True), ("greedy", True), (None, True), (None, False)]
    assert record["config"]["teacher"] == "greedy" and record["config"]["teacher_rounds"] == 2


def test_steps_round_up_to_whole_rounds_and_eval_every_0_plays_only_the_final_evaluation(tmp_path):
    """--steps 200 of rounds of 4 games x 40 moves: two rounds, not one."""
    cfg = tiny(steps=200, eval_every=0, final_eval_games=2, eval_against=("random",), out=str(tmp_path))
    record = train(cfg)
    assert record["rounds"] == 2 and record["steps"] == 320
    assert not (tmp_path / "eval.csv").exists() and not (tmp_path / "checkpoints").exists()
    assert record["final_evaluation"]["random"]["games"] == 2
    assert record["evaluation_seconds"] == 0 and record["training_steps_per_s"] > 0


@pytest.mark.skipif(not torch.cuda.is_available(), reason="no CUDA device")
def test_a_run_on_cuda_trains_there_and_its_network_plays_on_the_cpu(tmp_path):
    """--device cuda: the learner and the search's network calls run on the
    GPU; the file it writes is the same numpy network, playing without it."""
    cfg = tiny(steps=320, final_eval_games=2, eval_against=("random",), out=str(tmp_path), device="cuda")
    record = train(cfg)
    assert record["device"] == "cuda" and record["updates"] > 0
    policy = NumpyPolicy.load(tmp_path / "policy.npz")
    env = azgames.make("azacru")
    env.reset(seed=0)
    seen = env.observe(env.agent_selection)
    assert seen["action_mask"][
        policy.act(seen["observation"][None], seen["action_mask"][None].astype(bool))[0]
    ]


def test_device_cuda_without_one_is_refused_in_one_line(capsys):
    from azgames import cli

    if torch.cuda.is_available():
        pytest.skip("this machine has CUDA")
    with pytest.raises(SystemExit):
        cli.main(["train", "connect_four", "--algo", "alphazero", "--device", "cuda"])
    assert "--device cuda: torch" in capsys.readouterr().err
