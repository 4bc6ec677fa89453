"""What a training run writes as it goes, for any trainer (:mod:`.ppo`,
:mod:`azgames.rllib.selfplay`): CSV logs (:class:`CsvLog`) and the learning
curve (:func:`plot_curve`, ``curve.png`` from ``eval.csv`` and
``train.csv``). No torch needed."""

from __future__ import annotations

import csv
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # matplotlib is imported when a curve is drawn
    from matplotlib.figure import Figure


class CsvLog:
    """Rows appended to a CSV file, header from the first row. A new log
    replaces the file; ``keep=(column, last)`` (a resumed run) keeps its
    rows up to ``last`` in ``column`` and appends after them."""

    def __init__(self, path: Path, keep: tuple[str, int] | None = None):
        self.path = path
        self.fields: list[str] | None = None
        rows = []
        if keep is not None and path.is_file():
            column, last = keep
            with path.open(newline="") as f:
                rows = [
                    row
                    for row in csv.DictReader(f)
                    if (row.get(column) or "").isdigit() and int(row[column]) <= last
                ]
        path.unlink(missing_ok=True)
        for row in rows:
            self.write(row)

    def write(self, row: dict[str, Any]) -> None:
        with self.path.open("a", newline="") as f:
            w = csv.DictWriter(f, fieldnames=self.fields or list(row))
            if self.fields is None:
                self.fields = list(row)
                w.writeheader()
            w.writerow(row)


#: The right panel of ``curve.png`` for a trainer against a league: its win rate in training games.
LEAGUE_WINS = {"train_win_rate": "wins in training games (league)"}


def short_count(value: float, _position: int | None = None) -> str:
    """A tick label of a count of steps, 5 characters at most: ``150k``, not
    ``150000`` (six-digit labels ran together on a panel half a figure wide)."""
    for size, suffix in ((1e9, "G"), (1e6, "M"), (1e3, "k")):
        if abs(value) >= size:
            return f"{value / size:.3g}{suffix}"
    return f"{value:.3g}"


def plot_curve(
    out: Path, train_series: dict[str, str] = LEAGUE_WINS, steps: str = "learner steps"
) -> Path | None:
    """``curve.png`` (:func:`curve_figure`) in ``out``."""
    import matplotlib.pyplot as plt

    fig = curve_figure(out, train_series, steps)
    path = out / "curve.png"
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return path


def curve_figure(
    out: Path, train_series: dict[str, str] = LEAGUE_WINS, steps: str = "learner steps"
) -> Figure:
    """Evaluation win rates (95% intervals) over ``steps``, and beside them
    ``train.csv``'s columns ``train_series`` (column -> label; win rates are
    drawn on [0, 1], anything else on its own scale). Both panels share one
    steps axis from 0, so a single evaluation sits in the run's whole span
    rather than in a sliver around itself."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.ticker import FuncFormatter

    rows = _csv_rows(out / "eval.csv") if (out / "eval.csv").exists() else []
    train_rows = _csv_rows(out / "train.csv")
    fig, (ax, ax2) = plt.subplots(1, 2, figsize=(11, 4), sharex=True)
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
    if ax.get_legend_handles_labels()[0]:  # a run with no evaluation along the way has no lines
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
    if ax2.get_legend_handles_labels()[0]:
        ax2.legend()
    ax.set_xlim(left=0)  # after plotting: the right end stays autoscaled to the data
    for panel in (ax, ax2):
        panel.xaxis.set_major_formatter(FuncFormatter(short_count))
    fig.tight_layout()
    return fig


__all__ = ["CsvLog", "curve_figure", "plot_curve", "short_count"]


def _csv_rows(path: Path) -> list[dict[str, str]]:
    with path.open(newline="") as f:
        return list(csv.DictReader(f))
