"""The RLlib recipe's pieces: the league's mapping, the masked module and its
torch-free copy, and a short run of the whole pipeline in local mode."""

import json
from types import SimpleNamespace

import numpy as np
import pytest

pytest.importorskip("ray.rllib")
torch = pytest.importorskip("torch")

from azgames.agents.policy import NumpyPolicy  # noqa: E402
from azgames.rllib.env import TurnBasedEnv  # noqa: E402
from azgames.rllib.module import MaskedPPOTorchRLModule, policy_meta, to_numpy_policy  # noqa: E402
from azgames.rllib.selfplay import MAIN, agent_to_module  # noqa: E402

AZURE_4P = {"monster": 0, "hunter_0": 1, "hunter_1": 1, "hunter_2": 1}


def episode(k):
    return SimpleNamespace(id_=f"episode-{k}")


def test_until_the_first_snapshot_main_plays_every_seat():
    assert {agent_to_module(a, episode(k), AZURE_4P) for a in AZURE_4P for k in range(50)} == {MAIN}


def test_a_league_game_gives_one_side_to_main_and_the_other_to_one_snapshot():
    snapshots = ("main_v1", "main_v2")
    main_sides, opponents = set(), set()
    for k in range(200):
        modules = {a: agent_to_module(a, episode(k), AZURE_4P, snapshots) for a in AZURE_4P}
        hunters = {modules[a] for a in AZURE_4P if a != "monster"}
        assert len(hunters) == 1, "the hunters are one side: one module plays them all"
        assert (modules["monster"] == MAIN) != (hunters == {MAIN})
        main_sides.add("monster" if modules["monster"] == MAIN else "hunters")
        opponents |= set(modules.values()) - {MAIN}
    assert main_sides == {"monster", "hunters"} and opponents == set(snapshots)


def test_the_learners_agents_of_builtin_games_are_main():
    assert agent_to_module("learner_hunter_1", episode(0), AZURE_4P, ("main_v1",)) == MAIN


@pytest.mark.parametrize("game", ["azacru", "azure"])
def test_the_module_masks_and_its_numpy_copy_agrees(game):
    env = TurnBasedEnv({"game": game})
    space = env.observation_spaces[env.seats[0]]
    module = MaskedPPOTorchRLModule(
        observation_space=space,
        action_space=env.action_spaces[env.seats[0]],
        model_config={"hidden": (32, 16)},
    )
    rng = np.random.default_rng(0)
    batch = {"observations": [], "action_mask": []}
    obs, _ = env.reset(seed=0)
    while len(batch["observations"]) < 40:
        ((agent, seen),) = obs.items()
        batch["observations"].append(seen["observations"])
        batch["action_mask"].append(seen["action_mask"])
        obs, _, terminated, truncated, _ = env.step(
            {agent: int(rng.choice(np.flatnonzero(seen["action_mask"])))}
        )
        if terminated["__all__"] or truncated["__all__"]:
            obs, _ = env.reset()
    batch = {k: torch.from_numpy(np.stack(v)) for k, v in batch.items()}
    with torch.no_grad():
        out = module.forward_inference({"obs": batch})
        logits = out["action_dist_inputs"].numpy()
        values = module.compute_values({"obs": batch}).numpy()
    legal = batch["action_mask"].numpy() > 0.5
    assert (logits[~legal] <= -1e7).all() and (logits[legal] > -1e3).all()
    shape = env.game.observation_space(env.seats[0])["observation"].shape
    policy = to_numpy_policy(module, policy_meta(env.config, shape, (32, 16)))
    plain = policy.logits(batch["observations"].numpy().reshape(-1, *shape), legal)
    np.testing.assert_allclose(plain[legal], logits[legal], rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(policy.value(batch["observations"].numpy()), values, rtol=1e-5, atol=1e-5)


def test_a_snapshot_freezes_mains_weights_on_the_learner_and_the_runners():
    """RLlib's add_module gives env runners a freshly initialised module and
    PPO syncs only trained modules: the callback must push the snapshot."""
    from azgames.rllib.selfplay import Config, LeagueCallback, build_config, main_policy

    cfg = Config(game="azacru", num_env_runners=0, num_envs_per_env_runner=1, hidden=(16,))
    algo = build_config(cfg).build_algo()
    try:
        league = LeagueCallback({"player_0": 0, "player_1": 1})
        assert league.add_snapshot(algo) == "main_v1"
        main = main_policy(algo, cfg)
        for frozen in (
            main_policy(algo, cfg, "main_v1"),
            to_numpy_policy(algo.get_module("main_v1"), main.meta),
        ):
            for (w, b), (w2, b2) in zip(main.trunk + [main.policy_head], frozen.trunk + [frozen.policy_head]):
                np.testing.assert_array_equal(w, w2)
                np.testing.assert_array_equal(b, b2)
        assert algo.config.policy_mapping_fn.keywords["snapshots"] == ("main_v1",)
    finally:
        algo.stop()


def test_a_short_run_in_local_mode(tmp_path):
    """The whole pipeline on a local Ray: RLlib samples and learns, the
    masked module never picks an illegal action, the league grows, the
    checkpoint exports to the policy written beside it, and that policy
    plays in ``azgames play`` and in a tournament."""
    from azgames.cli import main
    from azgames.rllib.selfplay import Config, train

    out = tmp_path / "run"
    record = train(
        Config(
            game="azacru",
            steps=3000,
            train_batch_size=1000,
            minibatch_size=250,
            num_epochs=2,
            num_env_runners=0,
            num_envs_per_env_runner=4,
            eval_every=0,
            eval_games=20,
            final_eval_games=20,
            win_rate_threshold=0.0,
            snapshot_min_games=1,
            out=str(out),
            progress=False,
        )
    )
    assert record["steps"] >= 3000 and record["steps_per_s"] > 0
    rows = (out / "train.csv").read_text().splitlines()
    header = rows[0].split(",")
    assert len(rows) >= 4  # three iterations or more
    assert all(int(r.split(",")[header.index("illegal_actions")]) == 0 for r in rows[1:])
    # a threshold of 0 freezes a snapshot every iteration: the league then plays them
    league = [int(r.split(",")[header.index("league_size")]) for r in rows[1:]]
    assert league[-1] >= 1 and league == sorted(league)
    assert record["league_size"] == league[-1]
    assert (out / "checkpoint").is_dir() and (out / "curve.png").is_file()
    assert set(json.loads((out / "policy.json").read_text())["final_evaluation"]) == {"random", "greedy"}
    assert NumpyPolicy.load(out / "policy.npz").meta["trained"]["backend"] == "rllib"
    # the checkpoint's main is the policy written beside it
    from azgames.rllib.export import main as export

    assert export([str(out / "checkpoint"), str(tmp_path / "exported.npz")]) == 0
    exported, written = NumpyPolicy.load(tmp_path / "exported.npz"), NumpyPolicy.load(out / "policy.npz")
    for (w, _), (w2, _) in zip(
        exported.trunk + [exported.policy_head], written.trunk + [written.policy_head]
    ):
        np.testing.assert_array_equal(w, w2)
    assert {k: exported.meta[k] for k in ("game", "num_players", "obs_shape", "hidden")} == {
        k: written.meta[k] for k in ("game", "num_players", "obs_shape", "hidden")
    }
    trained = f"ppo:path={out / 'policy.npz'}"
    assert main(["play", "azacru", "--agents", trained, "random", "--render", "none"]) == 0
    assert (
        main(
            [
                "tournament",
                "azacru",
                "--agents",
                "random",
                trained,
                "--games",
                "4",
                "--out",
                str(tmp_path / "ladder"),
                "--quiet",
            ]
        )
        == 0
    )
    assert trained in json.loads((tmp_path / "ladder" / "tournament.json").read_text())["agents"]
