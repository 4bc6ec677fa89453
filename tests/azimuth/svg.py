"""Reading an Azimuth picture back from its SVG, for the picture tests (base
game and co-op): what each raft, wind and castaway shape says (its tip, its
letter, where it is drawn) and the targets a click can name."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

from azimuth_env.board import (
    AT_HOME,
    COLOUR_LETTERS,
    COLOUR_NAMES,
    DIRECTIONS,
    NUM_MARKS,
    NUM_POINTS,
    ON_ISLAND,
    mark_name,
    point_name,
)
from azimuth_env.picture import COLOURS

_NS = "{http://www.w3.org/2000/svg}"
_RAFT = re.compile(r"^([a-f][1-6]): (\w+) raft, (?:bottom|top|level \d+) \((\d+) of (\d+)\)$")
_WIND = re.compile(
    r"^wind on mark ([a-e][1-5]): (\w+), placed by (\w+) \((player_\d)\), "
    r"blowing \w+ \(([NESW])\)$"
)
_CASTAWAY = re.compile(r"^(\w+)'s castaway on ([a-f][1-6]|the island)$")


class Shape:
    def __init__(self, element):
        self.tag = element.tag.removeprefix(_NS)
        self.attrib = element.attrib
        title = element.find(f"{_NS}title")
        self.tip = title.text if title is not None else None
        self.text = "".join(t for t in element.itertext() if t != self.tip) if self.tag == "text" else None

    def num(self, name: str) -> float:
        return float(self.attrib[name])

    def points(self) -> list[tuple[float, float]]:
        return [tuple(map(float, p.split(","))) for p in self.attrib["points"].split()]


class Svg:
    """The shapes of a drawing's SVG, in drawing order."""

    def __init__(self, drawing):
        root = ET.fromstring(drawing.svg())
        self.width, self.height = float(root.attrib["width"]), float(root.attrib["height"])
        self.shapes = [Shape(e) for e in root if e.tag != f"{_NS}title"]
        self.targets = {s.attrib["data-target"] for s in self.shapes if "data-target" in s.attrib}
        self.texts = [s.text for s in self.shapes if s.tag == "text"]
        self.tips = [s.tip for s in self.shapes if s.tip]

    def with_tip(self, tip: str, tag: str | None = None) -> list[Shape]:
        return [s for s in self.shapes if s.tip == tip and (tag is None or s.tag == tag)]

    def has_text(self, part: str) -> bool:
        return any(part in t for t in self.texts)

    def stacks(self) -> dict[str, list[str]]:
        """Each point's rafts as drawn, bottom (lowest on screen) first; checks
        each box's letter and that its level agrees with its place."""
        boxes: dict[str, list[tuple[float, int, int, str]]] = {}
        for s in self.shapes:
            m = s.tag == "rect" and s.tip and _RAFT.match(s.tip)
            if m:
                point, colour, level, height = m.group(1), m.group(2), int(m.group(3)), int(m.group(4))
                letters = [t.text for t in self.with_tip(s.tip, "text")]
                assert letters == [COLOUR_LETTERS[COLOUR_NAMES.index(colour)]], (s.tip, letters)
                assert s.attrib["fill"] == COLOURS[COLOUR_NAMES.index(colour)], s.tip
                assert s.attrib["data-target"] == point, s.tip
                boxes.setdefault(point, []).append((s.num("y"), level, height, colour))
        stacks = {}
        for point, rows in boxes.items():
            rows.sort(key=lambda r: -r[0])  # the lowest box on screen first
            assert [r[1] for r in rows] == list(range(1, len(rows) + 1)), (point, rows)
            assert all(r[2] == len(rows) for r in rows), (point, rows)
            stacks[point] = [r[3] for r in rows]
        return stacks

    def winds(self) -> dict[str, tuple[str, str, str, str]]:
        """Each wind as drawn: (colour, owner colour, owner agent, direction),
        the direction read from the arrow's shape; checks its letter and the
        owner's badge."""
        winds = {}
        for s in self.shapes:
            m = s.tag == "polygon" and s.tip and _WIND.match(s.tip)
            if not m:
                continue
            mark, colour, owner, agent, way = m.groups()
            pts = s.points()
            tail = ((pts[3][0] + pts[4][0]) / 2, (pts[3][1] + pts[4][1]) / 2)
            dx, dy = pts[0][0] - tail[0], pts[0][1] - tail[1]
            drawn = ("E" if dx > 0 else "W") if abs(dx) > abs(dy) else ("S" if dy > 0 else "N")
            assert s.attrib["fill"] == COLOURS[COLOUR_NAMES.index(colour)], s.tip
            assert s.attrib["data-target"] == f"mark {mark}", s.tip
            badge = self.with_tip(s.tip, "circle")
            assert [b.attrib["fill"] for b in badge] == [COLOURS[COLOUR_NAMES.index(owner)]], s.tip
            letters = sorted(t.text for t in self.with_tip(s.tip, "text"))
            want = sorted(
                [
                    COLOUR_LETTERS[COLOUR_NAMES.index(colour)],
                    COLOUR_LETTERS[COLOUR_NAMES.index(owner)].lower(),
                ]
            )
            assert letters == want, (s.tip, letters)
            assert drawn == way, (s.tip, drawn)
            winds[mark] = (colour, owner, agent, drawn)
        return winds

    def castaways(self) -> dict[str, str]:
        """Colour name -> the point it is drawn on, or "the island"."""
        found = {}
        for s in self.shapes:
            m = s.tag == "circle" and s.tip and _CASTAWAY.match(s.tip)
            if m:
                found[m.group(1)] = m.group(2)
        return found


def assert_shows_state(svg: Svg, state, rules) -> None:
    """Every raft (order, height, letter), wind (colour, owner, way) and
    castaway of game 0, each colour's beach, hand and castaway line."""
    want_stacks = {
        point_name(p): [COLOUR_NAMES[int(c)] for c in state.stack[0, p, : state.height[0, p]]]
        for p in range(NUM_POINTS)
        if state.height[0, p]
    }
    assert svg.stacks() == want_stacks
    for p in range(NUM_POINTS):  # the height, where a stack has more than one raft
        if state.height[0, p] > 1:
            assert svg.with_tip(f"{point_name(p)}: {int(state.height[0, p])} rafts", "text")
    want_winds = {}
    for m in range(NUM_MARKS):
        c = int(state.wind_colour[0, m])
        if c >= 0:
            owner = int(state.wind_owner[0, m])
            want_winds[mark_name(m)] = (
                COLOUR_NAMES[c],
                COLOUR_NAMES[owner],
                rules.agents[rules.agent_of_colour(owner)],
                DIRECTIONS[int(state.wind_dir[0, m])],
            )
    assert svg.winds() == want_winds
    want_castaways = {}
    for q in range(rules.num_colours):
        where = int(state.castaway[0, q])
        if 0 <= where < NUM_POINTS:
            want_castaways[COLOUR_NAMES[q]] = point_name(where)
        elif where == ON_ISLAND and rules.layout.island >= 0:
            want_castaways[COLOUR_NAMES[q]] = "the island"
    assert svg.castaways() == want_castaways
    for q in range(rules.num_colours):
        label = f"{COLOUR_NAMES[q]} ({rules.agents[rules.agent_of_colour(q)]})"
        assert svg.has_text(label)
        b = int(state.beach[0, q])
        if b >= 0:
            name = "-".join(point_name(int(p)) for p in sorted(rules.layout.beach_spots[b]) if p >= 0)
            assert any(s.attrib.get("stroke") == COLOURS[q] for s in svg.with_tip(f"{label}'s beach {name}"))
            assert svg.has_text(f"beach {name}")
        own, other = (int(v) for v in state.hand[0, q])
        hand = f"winds in hand: {own} {COLOUR_NAMES[q]}"
        assert svg.has_text(hand + (f", {other} {COLOUR_NAMES[1 - q]}" if rules.actions.slots == 2 else ""))
        if rules.layout.coconuts:
            assert svg.has_text(f"coconuts {int(state.coconuts[0, q])}")
        where = int(state.castaway[0, q])
        words = {ON_ISLAND: "on the island", AT_HOME: "home", -1: "waiting for its beach"}.get(where)
        assert svg.has_text(f"castaway {words or 'on ' + point_name(where)}")
