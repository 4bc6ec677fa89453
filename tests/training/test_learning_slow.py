"""Learning that the README reports, over seeds 0, 1 and 2 (slow: minutes a seed).

``python -m pytest -m slow tests/training/test_learning_slow.py``. The
thresholds are below every seed's measured figure (README, "Training"), so
they must hold for all three."""

import pytest

pytest.importorskip("torch")

from azgames.training.ppo import Config, train  # noqa: E402

STEPS = 1_638_400  # 100 updates of the default 256 x 64


@pytest.mark.slow
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_azacru_two_player_training_beats_random_and_starts_beating_greedy(seed, tmp_path):
    record = train(
        Config(game="azacru", steps=STEPS, seed=seed, eval_every=0, out=str(tmp_path), progress=False)
    )
    final = record["final_evaluation"]
    print(
        f"seed {seed}: {record['seconds']} s;",
        {o: (e["win_rate"], e["win_rate_lo"], e["win_rate_hi"], e["draws"]) for o, e in final.items()},
    )
    assert final["random"]["win_rate_lo"] > 0.70, final["random"]
    assert final["greedy"]["win_rate"] > 0.10, final["greedy"]
