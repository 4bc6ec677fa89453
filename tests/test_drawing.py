"""The shared Drawing: one list of shapes written as SVG and painted as RGB,
and the env's picture of the last step."""

import xml.etree.ElementTree as ET

import numpy as np
import pytest

import azgames
from azgames.core.drawing import Drawing

SVG = "{http://www.w3.org/2000/svg}"


def sample() -> Drawing:
    d = Drawing(200, 100, title="sample")
    d.rect(10, 10, 80, 40, fill="#d55e00", stroke="#000000", width=2, target="a1", tip="a tile")
    d.circle(150, 30, 20, fill="#0072b2", target="b1")
    d.polygon([(100, 90), (120, 60), (140, 90)], fill="#009e73")
    d.line(0, 95, 200, 95, stroke="#1a1a1a", width=2)
    d.text(100, 80, "3 < 5 & M", size=14, anchor="end")
    return d


def test_svg_is_well_formed_xml_with_targets_tips_and_escaped_text():
    root = ET.fromstring(sample().svg())
    assert root.get("viewBox") == "0 0 200 100"
    targets = {e.get("data-target"): e for e in root.iter() if e.get("data-target")}
    assert set(targets) == {"a1", "b1"}
    assert targets["a1"].find(f"{SVG}title").text == "a tile"
    assert [t.text for t in root.iter(f"{SVG}text")] == ["3 < 5 & M"]


def test_rgb_paints_each_shape_where_the_svg_puts_it():
    image = sample().rgb()
    assert image.shape == (100, 200, 3) and image.dtype == np.uint8
    assert tuple(image[30, 50]) == (0xD5, 0x5E, 0x00)  # inside the rect
    assert tuple(image[10, 50]) == (0, 0, 0)  # its outline, 2 wide about y=10
    assert tuple(image[30, 150]) == (0x00, 0x72, 0xB2)  # the circle's centre
    assert tuple(image[85, 120]) == (0x00, 0x9E, 0x73)  # inside the triangle
    assert tuple(image[5, 150]) == (255, 255, 255)  # background
    assert tuple(image[95, 100]) == (0x1A, 0x1A, 0x1A)  # the line


def test_rgb_text_is_inked_left_of_an_end_anchor_and_scales():
    d = Drawing(120, 40)
    d.text(100, 30, "HELLO", size=16, anchor="end")
    ink = d.rgb().min(axis=2) < 128
    cols = np.flatnonzero(ink.any(axis=0))
    assert 40 < cols.min() < 60 and 95 <= cols.max() <= 100  # 5 glyphs of ~10 px end at x=100
    rows = np.flatnonzero(ink.any(axis=1))
    assert rows.max() <= 30 < rows.max() + 2  # capitals sit on the baseline
    assert d.rgb(scale=2).shape == (80, 240, 3)
    assert (d.rgb(scale=2).min(axis=2) < 128).sum() > 3 * ink.sum()


@pytest.mark.parametrize(
    "call, match",
    [
        (lambda d: d.text(0, 0, "caf\u00e9"), "printable ASCII"),
        (lambda d: d.text(0, 0, "x", anchor="left"), "anchor"),
        (lambda d: d.rect(0, 0, 1, 1, fill="red") or d.rgb(), "#rrggbb"),
        (lambda d: d.rgb(scale=0), "scale"),
        (lambda d: d.save("/tmp/picture.gif"), "svg or .png"),
    ],
)
def test_bad_drawing_input_is_refused_by_name(call, match):
    with pytest.raises(ValueError, match=match):
        call(Drawing(10, 10))


@pytest.mark.parametrize("game", ["azacru", "azimuth", "azimuth_coop", "azure"])
def test_last_step_is_the_same_replayed_or_kept(game):
    """A rendered env keeps the position before each step; any other env
    replays its record to name the last step: both must agree."""
    kept = azgames.make(game, render_mode="ansi")
    replayed = azgames.make(game)
    for env in (kept, replayed):
        env.reset(seed=4)
        assert env.last_step() is None
    rng = np.random.default_rng(0)
    for _ in range(12):
        agent = kept.agent_selection
        a = int(rng.choice(kept.legal_actions()))
        move = kept.action_to_str(a)
        kept.step(a)
        replayed.step(a)
        step = kept.last_step()
        assert (step.agent, step.action, step.move) == (agent, a, move)
        assert replayed.last_step() == step
        if any(kept.terminations.values()):
            break
