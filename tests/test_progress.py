"""Long jobs report progress on stderr: a tqdm bar where tqdm is installed, and
otherwise a plain line every tenth of the way, so that a log shows the job alive."""

import sys

import pytest

from azgames.core.progress import Progress


@pytest.fixture
def no_tqdm(monkeypatch):
    monkeypatch.setitem(sys.modules, "tqdm", None)  # import tqdm now raises ImportError


def test_without_tqdm_a_line_every_tenth_and_at_the_end(no_tqdm, capsys):
    with Progress(25, "azacru: greedy vs random") as bar:
        for _ in range(25):
            bar.update()
    printed = capsys.readouterr()
    assert printed.out == ""
    lines = printed.err.splitlines()
    counts = [line.split(": ")[2].split()[0] for line in lines]
    assert counts == ["3/25", "6/25", "9/25", "12/25", "15/25", "18/25", "21/25", "24/25", "25/25"]
    assert all(line.startswith("azacru: greedy vs random: ") for line in lines)


def test_a_new_label_and_counts_larger_than_one(no_tqdm, capsys):
    bar = Progress(4, "row 1", unit="seed")
    bar.update(2)
    bar.update(2, desc="row 2")
    assert capsys.readouterr().err.splitlines()[-1].startswith("row 2: 4/4 seeds")


def test_disabled_or_empty_jobs_print_nothing(capsys):
    for bar in (Progress(10, "quiet", enabled=False), Progress(0, "nothing to do")):
        bar.update()
        bar.close()
    assert capsys.readouterr() == ("", "")


def test_with_tqdm_a_bar_on_stderr(capsys):
    pytest.importorskip("tqdm")  # the train extra brings it; CI installs it
    with Progress(3, "tournament") as bar:
        for _ in range(3):
            bar.update()
    printed = capsys.readouterr()
    assert printed.out == "" and "tournament" in printed.err and "3/3" in printed.err
