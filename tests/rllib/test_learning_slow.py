"""The RLlib recipe learns: Azacru's win rate against random rises above the
untrained policy's (slow: minutes a seed; ``python -m pytest -m slow tests/rllib``).

The README's figure over three seeds comes from ``benchmarks/rllib_learning.py``;
this test asks less of each seed: the final evaluation's 95% interval lies
above the untrained policy's, both over 400 games against random."""

import csv

import pytest

pytest.importorskip("ray.rllib")
pytest.importorskip("torch")  # the rllib extra brings both

from azgames.rllib.selfplay import Config, train  # noqa: E402


@pytest.mark.slow
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_azacru_win_rate_against_random_rises(seed, tmp_path):
    record = train(
        Config(
            game="azacru",
            seed=seed,
            steps=240_000,
            eval_every=10_000,
            eval_games=400,
            final_eval_games=400,
            eval_against=("random",),
            out=str(tmp_path),
            progress=False,
        )
    )
    start = next(csv.DictReader((tmp_path / "eval.csv").open()))
    assert int(start["steps"]) == 0
    final = record["final_evaluation"]["random"]
    print(f"seed {seed}: untrained {float(start['win_rate']):.3f}, trained {final['win_rate']:.3f}")
    assert final["win_rate_lo"] > float(start["win_rate_hi"]), (start, final)
    assert all(int(r["illegal_actions"]) == 0 for r in csv.DictReader((tmp_path / "train.csv").open()))
