"""The page's static parts and the pictures' markup it relies on, without a
browser: the replay buttons' labels, and the pieces the click hints skip."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from html.parser import HTMLParser
from pathlib import Path

import pytest

from azgames.core.drawing import Drawing

from .helpers import random_game

STATIC = Path(__file__).resolve().parents[2] / "azgames" / "web" / "static"
SVG = "{http://www.w3.org/2000/svg}"
REPLAY_BUTTONS = ("first", "prev", "autoplay", "next", "last", "play-from-here")


class _Buttons(HTMLParser):
    """Each button's attributes, its text and whether it holds an inline SVG icon."""

    def __init__(self):
        super().__init__()
        self.buttons: dict[str, dict] = {}
        self._open: dict | None = None

    def handle_starttag(self, tag, attrs):
        if tag == "button":
            self._open = {"attrs": dict(attrs), "text": "", "icon": False}
            self.buttons[self._open["attrs"].get("id", "")] = self._open
        elif tag == "svg" and self._open is not None:
            self._open["icon"] = True

    def handle_endtag(self, tag):
        if tag == "button":
            self._open = None

    def handle_data(self, data):
        if self._open is not None:
            self._open["text"] += data


@pytest.mark.parametrize("name", REPLAY_BUTTONS)
def test_replay_buttons_use_no_glyph_a_font_may_lack_and_are_labelled(name):
    parser = _Buttons()
    parser.feed((STATIC / "index.html").read_text())
    button = parser.buttons[name]
    text = button["text"].strip()
    # The media-control characters (U+23EE, U+25C0...) were empty boxes in common fonts.
    assert all(32 <= ord(c) < 127 for c in text), f"{name}: {text!r}"
    assert text or button["icon"], f"{name} shows nothing"
    assert button["attrs"].get("title") and (text or button["attrs"].get("aria-label")), name


def test_a_piece_drawn_over_its_place_is_marked_as_such():
    d = Drawing(100, 100)
    d.rect(0, 0, 50, 50, fill="#ffffff", target="a1")
    d.polygon([(5, 5), (40, 5), (20, 40)], fill="#d55e00", target="a1", piece=True)
    d.circle(25, 25, 3, fill="#000000", target="a1", piece=True)
    classes = [e.get("class") for e in ET.fromstring(d.svg()).iter() if e.get("data-target") == "a1"]
    assert classes == ["target", "target piece", "target piece"]


def test_azacrus_chevrons_take_their_squares_clicks_but_not_their_hints():
    """The page's hint (a dashed outline of each place that starts a move)
    skips shapes of class "piece": the chevrons were dashed with their squares."""
    env, _ = random_game("azacru", 6, seed=3)
    root = ET.fromstring(env.unwrapped.picture().svg())
    chevrons = [p for p in root.iter(f"{SVG}polygon") if p.get("data-target")]
    squares = [r for r in root.iter(f"{SVG}rect") if r.get("data-target")]
    assert len(chevrons) == 2 * 8 and len(squares) == 81  # two players of four pieces, each a halo and a body
    assert {p.get("class") for p in chevrons} == {"target piece"}
    assert {r.get("class") for r in squares} == {"target"}
    hint_rule = re.search(r"const rule = .*?;\n", (STATIC / "app.js").read_text(), re.S)
    assert hint_rule and ":not(.piece)" in hint_rule.group(0)
