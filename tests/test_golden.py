"""Golden playthroughs: the fixed-seed games of ``tests/golden_gen.py`` must
reproduce ``tests/golden/*.txt`` exactly (boards, legal actions, notation,
rewards, result). A difference means the rules, the notation or the board
rendering changed."""

from __future__ import annotations

import difflib
import importlib.util
import json
from pathlib import Path

import pytest

_spec = importlib.util.spec_from_file_location("golden_gen", Path(__file__).with_name("golden_gen.py"))
golden_gen = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(golden_gen)


@pytest.mark.parametrize("variant", list(golden_gen.VARIANTS))
def test_golden_playthrough(variant):
    path = golden_gen.golden_path(variant)
    assert path.exists(), f"{path} is missing; run `python tests/golden_gen.py {variant}`"
    expected = path.read_text()
    actual = golden_gen.playthrough(variant)
    if actual != expected:
        diff = "".join(
            difflib.unified_diff(
                expected.splitlines(keepends=True),
                actual.splitlines(keepends=True),
                fromfile=f"{path} (golden)",
                tofile=f"{variant} (played now)",
                n=2,
            )
        )
        lines = diff.splitlines(keepends=True)
        if len(lines) > 120:
            diff = "".join(lines[:120]) + f"... ({len(lines) - 120} more diff lines)\n"
        pytest.fail(
            f"the {variant} playthrough differs from its golden file.\n{diff}\n"
            f"If (and only if) this follows a deliberate rule change, regenerate with\n"
            f"    python tests/golden_gen.py {variant}\n"
            f"and review the diff of {path} before committing it.",
            pytrace=False,
        )


def _texts(game: str) -> dict[str, str]:
    return {
        v: golden_gen.golden_path(v).read_text() for v, (g, _, _) in golden_gen.VARIANTS.items() if g == game
    }


def test_azacru_golden_games_are_not_trivial():
    """The golden games must show the rules at work: a finished game, a
    pass and the final round in at least one, twists after border crossings."""
    texts = _texts("azacru")
    for variant, text in texts.items():
        assert "game over" in text, f"{variant} did not end by the rules"
        assert text.count("=== turn") >= 20, variant
    joined = "\n".join(texts.values())
    assert "= pass" in joined and "(final round)" in joined


def test_azimuth_golden_games_are_not_trivial():
    """Each golden game places its lighthouses, places, turns and moves winds,
    moves castaways, and ends with a castaway home."""
    texts = _texts("azimuth")
    assert len(texts) == 4
    for variant, text in texts.items():
        assert "is home after" in text, f"{variant} did not end with a landing"
        for notation in ("= beach ", "= place ", "= turn ", "= move "):
            assert notation in text, f"{variant} never plays {notation.strip('= ')}"
    joined = "\n".join(texts.values())
    assert "= board " in joined and "= swim " in joined


def test_azimuth_coop_golden_games_are_not_trivial():
    """The co-op golden games roll every face of the Ocean Die, order waves,
    swim with the sea turtle, and end with the team's loss after its rounds
    (random play saves nobody), every agent getting -1."""
    texts = _texts("azimuth_coop")
    assert len(texts) == 4
    for variant, text in texts.items():
        for face in ("sunny", "mermaid", "wave away", "wave towards", "gust", "turtle"):
            assert f'"face": "{face}"' in text, f"{variant} never rolls {face}"
        assert "the ocean wins" in text, variant
        result = text.split("=== result ===")[1]
        assert "=-1" in result and "=+1" not in result and "=0 " not in result, variant
    joined = "\n".join(texts.values())
    assert "= wave " in joined and "= turtle " in joined and "= board " in joined


def test_azure_golden_games_are_not_trivial():
    """Each golden game moves every way, stops, fights and banks gold; between
    them a monster wins a fight (its extra turn), a hunter wins one, and
    hunters move in a random order. One game reads rule 7 literally (a piece
    visits another's suit tile), one is played on a map given as a dict."""
    texts = _texts("azure")
    assert len(texts) == 7
    for variant, text in texts.items():
        for notation in ("= N", "= E", "= S", "= W", "= stop"):
            assert notation in text, f"{variant} never plays {notation.strip('= ')}"
        assert '"fight"' in text, f"{variant} has no fight"
        result = json.loads(text.split("info monster: ")[1].splitlines()[0])
        assert result["hunters_total"] + result["monster_total"] > 0, f"{variant} banks nothing"
    joined = "\n".join(texts.values())
    assert '"attacker": "monster"' in joined and '"result": "attacker wins"' in joined
    assert '"turn_order": ["hunter_1", "hunter_0"]' in texts["azure_3p_long_random"]
    # suit_tiles="literal": the monster stands on hunter_2's suit tile (e1-f2)
    assert " 2   b   b   a   a   C  M4" in texts["azure_4p_literal"]
    assert '"name": "crossroads"' in texts["azure_3p_crossroads_random"].split("options: ")[1].splitlines()[0]
