"""The training command's pieces: the numpy forward pass equals torch's, a
short run of every game writes a policy that plays, and a seed repeats a run."""

import csv
import json

import numpy as np
import pytest

torch = pytest.importorskip("torch")

import azgames  # noqa: E402
from azgames.agents.match import play_match  # noqa: E402
from azgames.agents.policy import NumpyPolicy, PolicyAgent  # noqa: E402
from azgames.training.evaluate import evaluate  # noqa: E402
from azgames.training.net import Net  # noqa: E402
from azgames.training.ppo import Config, train  # noqa: E402
from azgames.training.ship import ship  # noqa: E402


def random_batch(shape, num_actions, rng, n=64):
    obs = rng.integers(-1, 2, size=(n, *shape)).astype(np.int8)
    mask = rng.random((n, num_actions)) < 0.2
    mask[:, 0] = True
    return obs, mask


@pytest.mark.parametrize("hidden", [(128, 128), (32,), ()])
def test_the_numpy_forward_pass_equals_torchs(hidden, tmp_path):
    rng = np.random.default_rng(0)
    torch.manual_seed(0)
    shape, actions = (11, 9, 9), 289
    net = Net(int(np.prod(shape)), actions, hidden)
    for p in net.parameters():  # away from the initial zeros and tiny head
        p.data.normal_(0, 0.3)
    meta = {"game": "azacru", "num_players": 2, "obs_shape": list(shape)}
    policy = net.to_numpy(meta)
    obs, mask = random_batch(shape, actions, rng)
    with torch.no_grad():
        logits, value = net(torch.from_numpy(obs), torch.from_numpy(mask))
    ours = policy.logits(obs, mask)
    np.testing.assert_array_equal(np.isinf(ours), ~mask)
    np.testing.assert_allclose(ours[mask], logits.numpy()[mask], rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(policy.value(obs), value.numpy(), rtol=1e-4, atol=1e-4)
    np.testing.assert_array_equal(policy.act(obs, mask), logits.argmax(1).numpy())

    # the file stores float16: the loaded policy computes what torch computes with those weights
    loaded = NumpyPolicy.load(policy.save(tmp_path / "p.npz"))
    with torch.no_grad():
        for p in net.parameters():
            p.copy_(p.half().float())
        logits, _ = net(torch.from_numpy(obs), torch.from_numpy(mask))
    np.testing.assert_allclose(loaded.logits(obs, mask)[mask], logits.numpy()[mask], rtol=1e-3, atol=1e-3)
    assert loaded.meta == meta


def test_sampled_actions_are_legal_and_follow_the_probabilities():
    rng = np.random.default_rng(1)
    w = np.zeros((4, 3), np.float32)
    b = np.log(np.array([0.2, 0.0, 0.8], np.float32) + 1e-30)
    policy = NumpyPolicy(
        [],
        (w, b),
        (np.zeros((4, 1), np.float32), np.zeros(1, np.float32)),
        {"game": "azacru", "num_players": 2, "obs_shape": [4]},
    )
    obs = np.zeros((20000, 4), np.int8)
    mask = np.ones((20000, 3), bool)
    mask[:, 1] = False
    picks = policy.act(obs, mask, rng)
    assert not (picks == 1).any()
    assert abs((picks == 2).mean() - 0.8) < 0.01


SMOKE = dict(
    game="azacru",
    steps=2 * 16 * 8,
    num_envs=16,
    num_steps=8,
    eval_every=1,
    eval_games=8,
    final_eval_games=8,
    progress=False,
    snapshot_every=1,
)


@pytest.mark.parametrize(
    "game,players",
    [("azacru", 2), ("azacru", 3), ("azimuth", 2), ("azure", 2), ("azure", 3), ("azimuth_coop", 2)],
)
def test_a_short_training_run_writes_a_policy_that_plays(game, players, tmp_path):
    record = train(
        Config(**{**SMOKE, "game": game}, num_players=players, out=str(tmp_path)),
        argv=["train", game, "--players", str(players)],
    )
    assert record["command"] == f"python -m azgames train {game} --players {players}"
    assert record["steps"] == 256 and record["updates"] == 2
    for name in (
        "train.csv",
        "eval.csv",
        "curve.png",
        "policy.npz",
        "policy.json",
        "checkpoints/update_00002.npz",
    ):
        assert (tmp_path / name).is_file(), name
    evals = (tmp_path / "eval.csv").read_text().splitlines()
    # header, then random and greedy after each update (the co-op team plays no opponent)
    assert len(evals) == 1 + 2 * (1 if game == "azimuth_coop" else 2)
    assert (",team," in evals[1]) == (game == "azimuth_coop")
    policy = NumpyPolicy.load(tmp_path / "policy.npz")
    assert policy.meta["game"] == game and policy.meta["trained"]["steps"] == 256
    result = play_match(
        game,
        [PolicyAgent(policy, seed=0)] + ["random"] * (players - 1),
        num_games=2,
        num_players=players,
        seed=0,
        progress=False,
    )
    assert result.num_games == 2
    assert json.loads((tmp_path / "policy.json").read_text())["final_evaluation"]


def test_the_same_seed_trains_the_same_policy(tmp_path):
    a = train(Config(out=str(tmp_path / "a"), seed=7, **SMOKE))
    b = train(Config(out=str(tmp_path / "b"), seed=7, **SMOKE))
    pa, pb = (NumpyPolicy.load(tmp_path / r / "policy.npz") for r in ("a", "b"))
    for (wa, ba), (wb, bb) in zip(pa.trunk, pb.trunk):
        np.testing.assert_array_equal(wa, wb)
    np.testing.assert_array_equal(pa.policy_head[0], pb.policy_head[0])
    assert a["final_evaluation"] == b["final_evaluation"]


def test_evaluate_counts_each_games_first_ending_with_seats_alternating():
    rng = np.random.default_rng(0)
    shape = azgames.make("azacru").observation_space("player_0")["observation"].shape
    net = Net(int(np.prod(shape)), 289, (16,))
    policy = net.to_numpy({"game": "azacru", "num_players": 2, "obs_shape": list(shape)})
    ended = []  # what a progress bar hears: games ending, a batch at a time
    e = evaluate(policy, "greedy", num_games=40, seed=int(rng.integers(100)), progress=ended.append)
    assert e.games == 40 and e.wins + e.draws + e.losses == 40
    assert sum(ended) == 40 and all(n > 0 for n in ended)
    assert e.win_rate < 0.5  # an untrained network against greedy
    lo, hi = e.interval
    assert lo <= e.win_rate <= hi


def test_a_run_can_start_from_a_policys_weights(tmp_path):
    first = tmp_path / "first"
    train(Config(out=str(first), seed=1, **SMOKE))
    policy = NumpyPolicy.load(first / "policy.npz")
    net = Net(891, 289, (128, 128))
    net.load_numpy(policy)
    again = net.to_numpy(policy.meta)
    for (w1, b1), (w2, b2) in zip(policy.trunk + [policy.policy_head], again.trunk + [again.policy_head]):
        np.testing.assert_array_equal(w1, w2)
        np.testing.assert_array_equal(b1, b2)
    record = train(Config(out=str(tmp_path / "second"), seed=2, init=str(first / "policy.npz"), **SMOKE))
    assert NumpyPolicy.load(tmp_path / "second" / "policy.npz").meta["init"]["trained"]["steps"] == 256
    assert record["steps"] == 256
    # A third run from the second's first checkpoint: shipping it records all three runs, the first first.
    checkpoint = tmp_path / "second" / "checkpoints" / "update_00001.npz"
    assert NumpyPolicy.load(checkpoint).meta["trained"]["steps"] == 128
    train(Config(out=str(tmp_path / "third"), seed=3, init=str(checkpoint), **SMOKE))
    shipped = ship(tmp_path / "third", into=tmp_path / "policies")
    runs = json.loads(shipped.with_suffix(".json").read_text())["lineage"]
    assert [r["seed"] for r in runs] == [1, 2, 3]
    with pytest.raises(ValueError, match="do not match"):
        Net(891, 289, (64,)).load_numpy(policy)
    with pytest.raises(ValueError, match="azacru with 2 players, not azacru with 3"):
        train(Config(out=str(tmp_path / "third"), num_players=3, init=str(first / "policy.npz"), **SMOKE))


def test_each_evaluation_places_the_policy_on_a_ladder(tmp_path):
    """With a 2-player tournament's record as the ladder, every evaluation
    also writes the policy's Elo (and interval) on its scale to rating.csv."""
    from azgames.tournament import run_tournament

    run_tournament("azacru", ["random", "greedy"], games=10, seed=0, progress=False).save(tmp_path / "t.json")
    train(Config(out=str(tmp_path / "run"), seed=1, ladder=str(tmp_path / "t.json"), **SMOKE))
    rows = list(csv.DictReader((tmp_path / "run" / "rating.csv").open()))
    assert [int(r["update"]) for r in rows] == [1, 2]
    for r in rows:
        assert float(r["elo_lo"]) <= float(r["elo"]) <= float(r["elo_hi"])


def test_eval_every_0_plays_no_evaluation_but_the_final_one(tmp_path):
    record = train(Config(**{**SMOKE, "eval_every": 0}, out=str(tmp_path)))
    assert not (tmp_path / "eval.csv").exists()  # not even at the last update
    assert not (tmp_path / "checkpoints").exists()  # made by the first evaluation along the way
    assert (tmp_path / "curve.png").is_file()
    assert [e["games"] for e in record["final_evaluation"].values()] == [SMOKE["final_eval_games"]] * 2
    assert record["evaluation_seconds"] == 0


def test_steps_round_up_to_whole_updates(tmp_path):
    record = train(Config(**{**SMOKE, "steps": 16 * 8 + 1, "eval_every": 0}, out=str(tmp_path)))
    assert record["steps"] == 256 and record["updates"] == 2  # at least the steps asked for


def test_the_rate_leaves_out_the_evaluations_along_the_way(tmp_path):
    record = train(Config(**SMOKE, out=str(tmp_path)))  # an evaluation after each update
    assert record["evaluation_seconds"] > 0
    assert record["training_seconds"] + record["evaluation_seconds"] == pytest.approx(
        record["seconds"], abs=0.15
    )
    assert record["training_steps_per_s"] > record["steps_per_s"]


@pytest.mark.skipif(not torch.cuda.is_available(), reason="no CUDA device")
def test_a_run_on_cuda_rolls_out_and_learns_there_and_its_policy_plays_on_the_cpu(tmp_path):
    """--device cuda: the rollout's network calls and the updates on the GPU,
    the games on the CPU; the file is the same numpy network."""
    cfg = Config(
        "azacru", num_envs=8, num_steps=16, steps=256, hidden=(16,), eval_every=0, final_eval_games=2
    )
    cfg.eval_against, cfg.out, cfg.progress, cfg.device = ("random",), str(tmp_path), False, "cuda"
    record = train(cfg)
    assert record["device"] == "cuda" and record["updates"] == 2
    assert NumpyPolicy.load(tmp_path / "policy.npz").meta["game"] == "azacru"


def test_device_cuda_without_one_is_refused_for_ppo_too(capsys):
    from azgames import cli

    if torch.cuda.is_available():
        pytest.skip("this machine has CUDA")
    with pytest.raises(SystemExit):
        cli.main(["train", "azacru", "--device", "cuda"])
    assert "--device cuda: torch" in capsys.readouterr().err
