"""The learning curve (``curve.png``): tick labels that can be read, and a
steps axis that makes sense for a run with a single evaluation."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

matplotlib = pytest.importorskip("matplotlib")
import matplotlib.pyplot as plt  # noqa: E402

from azgames.training.logs import curve_figure, plot_curve, short_count  # noqa: E402

LOSSES = {"policy_loss": "policy cross-entropy", "value_loss": "value squared error"}  # AlphaZero's panel


def write_csv(path: Path, rows: list[dict]) -> None:
    with path.open("w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)


def evaluation(steps: int, opponent: str, rate: float) -> dict:
    return {
        "steps": steps,
        "opponent": opponent,
        "win_rate": rate,
        "win_rate_lo": rate - 0.1,
        "win_rate_hi": rate + 0.1,
    }


def alphazero_run(out: Path, moves: int = 200_000) -> Path:
    """The reported case: losses over ``moves`` of self-play, evaluations every eighth."""
    write_csv(
        out / "eval.csv",
        [
            evaluation(s, o, 0.6)
            for s in range(moves // 8, moves + 1, moves // 8)
            for o in ("random", "greedy")
        ],
    )
    write_csv(
        out / "train.csv",
        [
            {"steps": s, "policy_loss": 2.0 - s / moves, "value_loss": 0.5}
            for s in range(moves // 40, moves + 1, moves // 40)
        ],
    )
    return out


def ppo_run_with_one_evaluation(out: Path) -> Path:
    write_csv(out / "eval.csv", [evaluation(16_384, "random", 0.7)])
    write_csv(out / "train.csv", [{"steps": s, "train_win_rate": 0.5} for s in range(2_048, 16_385, 2_048)])
    return out


def tick_labels_in_view(fig):
    """Each panel's x tick labels that are drawn (ticks inside the view), after a render."""
    fig.canvas.draw()
    for ax in fig.axes:
        low, high = ax.get_xlim()
        yield (
            ax,
            [
                t
                for loc, t in zip(ax.get_xticks(), ax.get_xticklabels())
                if low <= loc <= high and t.get_text()
            ],
        )


@pytest.mark.parametrize("moves", [200_000, 2_000_000])
def test_the_tick_labels_of_every_panel_are_short_and_apart(tmp_path, moves):
    """At 200,000 moves the labels were 100000 to 200000, 0.4 pixels apart
    (``100000125000150000175000200000``); at 2,000,000, 0.25 to 2.00 times
    an offset ``1e6`` printed in a corner."""
    fig = curve_figure(alphazero_run(tmp_path, moves), LOSSES, steps="moves of self-play")
    try:
        renderer = fig.canvas.get_renderer()
        for ax, labels in tick_labels_in_view(fig):
            texts = [t.get_text() for t in labels]
            assert len(texts) >= 3 and all(len(t) <= 5 for t in texts), texts
            assert short_count(moves) in texts and ax.xaxis.get_offset_text().get_text() == ""
            boxes = [t.get_window_extent(renderer) for t in labels]
            gaps = [b.x0 - a.x1 for a, b in zip(boxes, boxes[1:])]
            assert min(gaps) >= 5, (texts, gaps)  # pixels: a space a reader sees
    finally:
        plt.close(fig)


def test_a_single_evaluation_sits_on_an_axis_from_0_past_it(tmp_path):
    fig = curve_figure(ppo_run_with_one_evaluation(tmp_path))
    try:
        for ax in fig.axes:
            low, high = ax.get_xlim()
            assert low == 0 and 16_384 < high < 1.2 * 16_384, (low, high)
    finally:
        plt.close(fig)


def test_a_single_evaluation_and_a_single_training_row_still_start_at_0(tmp_path):
    write_csv(tmp_path / "eval.csv", [evaluation(16_384, "random", 0.7)])
    write_csv(tmp_path / "train.csv", [{"steps": 16_384, "train_win_rate": 0.5}])
    fig = curve_figure(tmp_path)
    try:
        low, high = fig.axes[0].get_xlim()
        assert low == 0 and high > 16_384
    finally:
        plt.close(fig)


def test_plot_curve_writes_the_png(tmp_path):
    path = plot_curve(alphazero_run(tmp_path), LOSSES, steps="moves of self-play")
    assert path == tmp_path / "curve.png" and path.stat().st_size > 10_000


@pytest.mark.parametrize(
    "count,label",
    [(0, "0"), (500, "500"), (12_500, "12.5k"), (150_000, "150k"), (2_500_000, "2.5M"), (3e9, "3G")],
)
def test_a_count_is_labelled_with_a_suffix(count, label):
    assert short_count(count) == label


def test_a_run_with_no_evaluation_along_the_way_draws_without_a_warning(tmp_path):
    """``--eval-every 0``: eval.csv is still empty when the curve is drawn."""
    import warnings

    write_csv(
        tmp_path / "train.csv", [{"steps": s, "train_win_rate": 0.5} for s in range(2_048, 16_385, 2_048)]
    )
    (tmp_path / "eval.csv").write_text("steps,opponent,games,win_rate,win_rate_lo,win_rate_hi\n")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        path = plot_curve(tmp_path, {"train_win_rate": "training games won"})
    assert path.stat().st_size > 0
