"""What a training run writes as it goes, for any trainer (:mod:`.ppo`,
:mod:`azgames.rllib.selfplay`): CSV logs (:class:`CsvLog`) and the learning
curve (:func:`plot_curve`, ``curve.png`` from ``eval.csv`` and
``train.csv``). No torch needed."""

from __future__ import annotations

import csv
from pathlib import Path
from typing import Any


class CsvLog:
    """Rows appended to a CSV file, header from the first row."""

    def __init__(self, path: Path):
        self.path = path
        self.fields: list[str] | None = None
        path.unlink(missing_ok=True)

    def write(self, row: dict[str, Any]) -> None:
        with self.path.open("a", newline="") as f:
            w = csv.DictWriter(f, fieldnames=self.fields or list(row))
            if self.fields is None:
                self.fields = list(row)
                w.writeheader()
            w.writerow(row)


#: The right panel of ``curve.png`` for a trainer against a league: its win rate in training games.
LEAGUE_WINS = {"train_win_rate": "wins in training games (league)"}


def plot_curve(
    out: Path, train_series: dict[str, str] = LEAGUE_WINS, steps: str = "learner steps"
) -> Path | None:
    """``curve.png``: evaluation win rates (95% intervals) over ``steps``, and
    beside them ``train.csv``'s columns ``train_series`` (column -> label;
    win rates are drawn on [0, 1], anything else on its own scale)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = list(csv.DictReader((out / "eval.csv").open())) if (out / "eval.csv").exists() else []
    train_rows = list(csv.DictReader((out / "train.csv").open()))
    fig, (ax, ax2) = plt.subplots(1, 2, figsize=(11, 4))
    for opponent, colour in (("random", "#0072B2"), ("greedy", "#D55E00"), ("team", "#009E73")):
        r = [x for x in rows if x["opponent"] == opponent]
        if r:
            s = [int(x["steps"]) for x in r]
            ax.plot(
                s,
                [float(x["win_rate"]) for x in r],
                marker="o",
                color=colour,
                label="team wins (co-op)" if opponent == "team" else f"vs {opponent}",
            )
            ax.fill_between(
                s,
                [float(x["win_rate_lo"]) for x in r],
                [float(x["win_rate_hi"]) for x in r],
                color=colour,
                alpha=0.2,
            )
    searched = {x.get("simulations") for x in rows} - {None, ""}
    ax.set(
        xlabel=steps,
        ylabel=f"win rate (az, {searched.pop()} simulations)"
        if searched
        else "win rate (most likely action)",
        ylim=(0, 1),
        title="evaluation, 95% intervals",
    )
    ax.grid(alpha=0.3)
    ax.legend()
    rates = all(column.endswith("win_rate") for column in train_series)
    for (column, label), colour in zip(train_series.items(), ("#CC79A7", "#56B4E9", "#E69F00")):
        ax2.plot(
            [int(x["steps"]) for x in train_rows],
            [float(x[column]) for x in train_rows],
            color=colour,
            label=label,
        )
    ax2.set(
        xlabel=steps,
        ylabel="win rate" if rates else "loss",
        ylim=(0, 1) if rates else (0, None),
        title="training games" if rates else "learning",
    )
    ax2.grid(alpha=0.3)
    ax2.legend()
    fig.tight_layout()
    path = out / "curve.png"
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return path


__all__ = ["CsvLog", "plot_curve"]
