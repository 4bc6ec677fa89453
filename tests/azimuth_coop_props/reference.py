"""A slow, obvious reference of the Ocean Die (Azimuth's co-op mode), written
from the rules text (../shared/rules/azimuth-ocean-die.txt) and the
project's reading of it (../shared/notes/ocean-die-spec.md), independent
of :mod:`azimuth_env.coop.kernels`.

The implemented reading differs from the spec note in two points, followed
here: a landed castaway's raft stays on the board (as in the base game), and
the turn order is fixed clockwise from the first colour, the roller of round
``r`` being ``first + r - 1`` (mod 4, clockwise: red, black, blondie, blue).

Everything the base game does (sailing, stacking, landing, its legal
actions) comes from the base game's reference, :mod:`tests.azimuth.reference`
(``ref``); this module adds the round, the die's six faces, the mermaid's
sleep and the sea turtle's two-leg swim. Geometry as there: points
``p = y * 6 + x``, marks ``m = y * 5 + x``, directions 0 N, 1 E, 2 S, 3 W.

The waves are the heart of it. Rafts are given identities, so that "a
candidate is still at the bottom of its stack" is a question about one raft
and not about a point:

- the candidates are the rafts of the roller's colour at the bottom of a
  stack at the roll (anywhere on the board);
- each, in the chosen order, carries its whole stack (castaways included) one
  leg away from / towards the roller's side, if it is still at the bottom;
  otherwise (another candidate's stack slid in beneath it) it is skipped;
- a stack never leaves the board (the edge row stays put) and never lands
  anyone;
- the base rules for castaways: a stack carrying a castaway does not move
  onto a point where a castaway stands (it stays); one without a castaway
  slides in beneath the castaway's raft; anything else goes on top.

The order is an explicit sequence of candidates (named by their points at
the roll), ``"front_first"`` (the candidate furthest along the wave first)
or ``"back_first"`` (the one furthest behind first).
"""

from __future__ import annotations

import itertools
from typing import NamedTuple

from tests.azimuth import reference as ref

SIZE = 6
MARKS = 5
NUM_POINTS = 36
NUM_MARKS = 25
ON_ISLAND = ref.ON_ISLAND
AT_HOME = ref.AT_HOME
COLOURS = 4

RED, BLACK, BLONDIE, BLUE = range(4)
N, E, S, W = range(4)
#: The side of the board each colour's lighthouse is on, as the direction
#: from its landing spots to its beach (red south, black west, blondie
#: north, blue east).
SIDE = {RED: S, BLACK: W, BLONDIE: N, BLUE: E}

# The die's faces in the order the env numbers them (``FACE_NAMES``).
SUNNY, MERMAID, WAVE_AWAY, WAVE_TOWARDS, GUST, TURTLE = range(6)
FACE_NAMES = ("sunny", "mermaid", "wave away", "wave towards", "gust", "turtle")


# --------------------------------------------------------------------------- geometry


def xy(p: int) -> tuple[int, int]:
    return p % SIZE, p // SIZE


def step(p: int, d: int) -> int | None:
    """The point one leg from ``p`` in direction ``d``, None off the board."""
    x, y = xy(p)
    dx, dy = ref.STEP4[d]
    return ref.point_at(x + dx, y + dy)


def opposite(colour: int) -> int:
    """The colour on the other side of the board."""
    (other,) = [c for c in range(COLOURS) if SIDE[c] == (SIDE[colour] + 2) % 4]
    return other


def point_in_portion(colour: int, p: int) -> bool:
    """The colour's ocean portion: the half of the board on its side (three
    rows of points from its edge); the centre mark row is in none."""
    x, y = xy(p)
    return {S: y <= 2, N: y >= 3, W: x <= 2, E: x >= 3}[SIDE[colour]]


def mark_in_portion(colour: int, m: int) -> bool:
    """The portion's two rows of wind marks next to the colour's edge."""
    x, y = m % MARKS, m // MARKS
    return {S: y <= 1, N: y >= 3, W: x <= 1, E: x >= 3}[SIDE[colour]]


def roller(first: int, round_: int) -> int:
    """The colour that rolls at the end of round ``round_`` (1-based): the
    first colour in round 1, then one colour clockwise per round."""
    return (first + round_ - 1) % COLOURS


def wave_direction(roller_colour: int, face: int) -> int:
    side = SIDE[roller_colour]
    return side if face == WAVE_TOWARDS else (side + 2) % 4


def standing(castaways, p: int) -> int | None:
    return ref.standing_at(castaways, p)


# --------------------------------------------------------------------------- the die's faces


def mermaid(castaways: list[int], roller_colour: int) -> list[int]:
    """The castaways the mermaid sings to sleep: every one standing on a raft
    at a point of the roller's portion (not on the island, not home)."""
    return [int(0 <= c < NUM_POINTS and point_in_portion(roller_colour, c)) for c in castaways]


def gust(winds: dict, roller_colour: int) -> dict:
    """Every placed wind of the roller's colour on a mark of the roller's
    portion, and every one of the opposite colour on a mark of *its* portion,
    turns 180 degrees; nothing sails."""
    out = {}
    other = opposite(roller_colour)
    for m, (colour, owner, d) in winds.items():
        if (colour == roller_colour or colour == other) and mark_in_portion(colour, m):
            d = (d + 2) % 4
        out[m] = (colour, owner, d)
    return out


def candidates(stacks, roller_colour: int) -> list[int]:
    """The points whose bottom raft is of the roller's colour (the wave
    candidates, by their points at the roll)."""
    return [p for p, s in enumerate(stacks) if s and s[0] == roller_colour]


def waves(stacks, castaways, roller_colour: int, face: int, order, events: list | None = None):
    """The waves of ``face`` (WAVE_AWAY / WAVE_TOWARDS) rolled by
    ``roller_colour``, resolved in ``order``: ``"front_first"``,
    ``"back_first"``, or a sequence naming every candidate once by its point
    at the roll. Returns ``(stacks, castaways)`` as new lists. ``events``, if
    given, collects the name of each case met."""
    log = events.append if events is not None else (lambda _: None)
    d = wave_direction(roller_colour, face)
    dx, dy = ref.STEP4[d]
    # Each raft is (colour, identity); the identity is its place at the roll.
    rafts = [[(c, (p, k)) for k, c in enumerate(s)] for p, s in enumerate(stacks)]
    castaways = list(castaways)
    cands = candidates(stacks, roller_colour)
    if not cands:
        log("no candidate")
    if any(roller_colour in s[1:] for s in stacks):
        log("roller raft above the bottom stays")
    if isinstance(order, str):
        ahead = {"front_first": -1, "back_first": 1}[order]
        sequence = sorted(cands, key=lambda p: ahead * (xy(p)[0] * dx + xy(p)[1] * dy))
    else:
        sequence = [int(p) for p in order]
        assert sorted(sequence) == sorted(cands), f"order {sequence} is not the candidates {cands}"
    if any(step(p, d) in cands for p in cands):
        log("chain")

    def find(identity):
        for p, s in enumerate(rafts):
            for level, (_, ident) in enumerate(s):
                if ident == identity:
                    return p, level
        raise AssertionError(f"raft {identity} vanished")

    for start in sequence:
        p, level = find((start, 0))
        if level != 0:
            log("skipped: no longer at the bottom")
            continue
        others = [ident for _, ident in rafts[p][1:] if ident[1] == 0 and ident[0] in cands]
        if others:
            log("carries another candidate")
        dest = step(p, d)
        rider = standing(castaways, p)
        if dest is None:
            log("edge: towards, stays" if face == WAVE_TOWARDS else "edge: away, stays")
            if rider is not None:
                log("edge with a castaway")
            continue
        there = standing(castaways, dest)
        if rider is not None and there is not None:
            log("castaway blocked by castaway")
            continue
        part = rafts[p]
        rafts[p] = []
        if there is not None:
            log("slid under a castaway")
            rafts[dest] = rafts[dest][:-1] + part + rafts[dest][-1:]
        else:
            log("stacked on top" if rafts[dest] else "onto open sea")
            rafts[dest] = rafts[dest] + part
        if rider is not None:
            log("carried a castaway")
            castaways[rider] = dest
        if len(part) > 1:
            log("carried a stack")
    return [[c for c, _ in s] for s in rafts], castaways


def all_wave_outcomes(stacks, castaways, roller_colour: int, face: int) -> dict:
    """Every outcome some order of the candidates gives: ``{outcome: [order, ...]}``
    (an outcome is ``(stacks as tuples, castaways)``)."""
    out: dict = {}
    for order in itertools.permutations(candidates(stacks, roller_colour)):
        s, c = waves(stacks, castaways, roller_colour, face, order)
        out.setdefault(freeze(s, c), []).append(order)
    return out


def freeze(stacks, castaways) -> tuple:
    return tuple(tuple(s) for s in stacks), tuple(castaways)


# --------------------------------------------------------------------------- a game between turns


class CoopPosition(NamedTuple):
    """A co-op game between two steps, as plain values. ``pos.player`` is the
    colour to act; ``turn`` the colour turns played this round; ``face`` the
    last face rolled (-1: none yet); ``asleep`` per colour; ``turtle`` the
    colour whose portion holds an unused sea turtle (-1: none)."""

    pos: ref.Position
    first: int
    round: int
    turn: int
    face: int
    asleep: list[int]
    turtle: int


def turtle_target(pos: ref.Position, turtle: int, colour: int, d: int) -> int | None:
    """Where ``colour``'s castaway swims with the sea turtle going ``d``, or
    None: the turtle must be on offer, the castaway on a raft in the
    turtle's portion, and the point exactly two legs straight ahead must
    have a raft of its colour on top (whatever lies in between)."""
    here = pos.castaways[colour]
    if turtle < 0 or not 0 <= here < NUM_POINTS or not point_in_portion(turtle, here):
        return None
    mid = step(here, d)
    there = step(mid, d) if mid is not None else None
    if there is None or ref.top(pos.stacks[there]) != colour:
        return None
    return there


CASTAWAY_ACTIONS = ("board", "home", "swim", "turtle")


def legal_actions(cp: CoopPosition, layout) -> set[tuple]:
    """The colour to act's legal actions: the base game's for 4 colours
    (no coconuts, own winds only), less every castaway action while its
    castaway sleeps, plus the sea turtle's swims; pass only when nothing
    else is legal. Actions as in :mod:`tests.azimuth.reference`, and
    ``("turtle", d)``."""
    p = cp.pos.player
    legal = ref.legal_actions(cp.pos, layout, COLOURS) - {("pass",)}
    if cp.pos.beaches[p] >= 0:
        if cp.asleep[p]:
            legal = {a for a in legal if a[0] not in CASTAWAY_ACTIONS}
        else:
            legal |= {("turtle", d) for d in range(4) if turtle_target(cp.pos, cp.turtle, p, d) is not None}
    return legal or {("pass",)}


class Result(NamedTuple):
    """What one step does: the position after it (the final one when the
    game ended), ``over`` (None, "won" or "lost"), the face rolled (-1:
    none) and every agent's reward (the team's: +1 won, -1 lost, else 0)."""

    after: CoopPosition
    over: str | None
    rolled: int
    rewards: float


def play_action(cp: CoopPosition, action: tuple, layout) -> tuple[ref.Position, int]:
    """The sea after colour ``cp.pos.player`` plays ``action`` (the base
    game's, or a turtle swim, which uses the turtle up), and the turtle
    left: ``(position, turtle)``; the turn is not passed."""
    p = cp.pos.player
    if action[0] == "turtle":
        castaways = list(cp.pos.castaways)
        castaways[p] = turtle_target(cp.pos, cp.turtle, p, action[1])
        assert castaways[p] is not None, action
        return cp.pos._replace(castaways=castaways), -1  # one castaway only uses it
    pos, _ = ref.play(cp.pos, action, layout, COLOURS)
    return pos._replace(player=p), cp.turtle


def play(
    cp: CoopPosition,
    action: tuple,
    layout,
    rounds: int,
    face: int | None = None,
    order="front_first",
    events: list | None = None,
) -> Result:
    """Colour ``cp.pos.player`` plays legal ``action`` in a round (not a
    lighthouse); if it is the round's fourth turn, the roller rolls
    ``face`` and the waves, if any, resolve in ``order``. ``rounds``: the
    configuration's round limit.

    The team wins the moment the fourth castaway is home (no roll); after
    the last round's fourth turn it loses (no roll: the last die could land
    no one)."""
    p = cp.pos.player
    pos, turtle = play_action(cp, action, layout)
    if all(c == AT_HOME for c in pos.castaways):
        return Result(cp._replace(pos=pos, turtle=turtle), "won", -1, 1.0)
    turn = cp.turn + 1
    if turn < COLOURS:
        pos = pos._replace(player=(p + 1) % COLOURS)
        return Result(cp._replace(pos=pos, turn=turn, turtle=turtle), None, -1, 0.0)
    if cp.round >= rounds:
        return Result(cp._replace(pos=pos, turn=turn, turtle=turtle), "lost", -1, -1.0)
    assert face is not None, "the round ends: a face must be given"
    after = roll(cp._replace(pos=pos, turn=turn, turtle=turtle), face, order, events)
    return Result(after, None, face, 0.0)


def roll(cp: CoopPosition, face: int, order="front_first", events: list | None = None) -> CoopPosition:
    """The end of round ``cp.round``: last round's mermaid and turtle expire,
    the round's roller rolls ``face`` and it acts; the next round starts
    with the first colour."""
    pos = cp.pos
    who = roller(cp.first, cp.round)
    asleep = [0] * COLOURS
    turtle = -1
    if face == MERMAID:
        asleep = mermaid(pos.castaways, who)
    elif face in (WAVE_AWAY, WAVE_TOWARDS):
        stacks, castaways = waves(pos.stacks, pos.castaways, who, face, order, events)
        pos = pos._replace(stacks=stacks, castaways=castaways)
    elif face == GUST:
        pos = pos._replace(winds=gust(pos.winds, who))
    elif face == TURTLE:
        turtle = who
    pos = pos._replace(player=cp.first)
    return CoopPosition(pos, cp.first, cp.round + 1, 0, face, asleep, turtle)


# --------------------------------------------------------------------------- glue


def coop_position_of(state, i: int = 0) -> CoopPosition:
    """Game ``i`` of a :class:`azimuth_env.coop.CoopState` (the base game's
    player: the colour to act)."""
    return CoopPosition(
        ref.position_of(state, i)._replace(player=int(state.colour[i])),
        int(state.first[i]),
        int(state.round[i]),
        int(state.turn[i]),
        int(state.face[i]),
        [int(x) for x in state.asleep[i]],
        int(state.turtle[i]),
    )


def write_coop_position(cp: CoopPosition, state, controller, i: int = 0) -> None:
    """Write ``cp`` into game ``i`` of ``state``: no waves being ordered, no
    forced face; the agent to act the one ``controller`` names for its colour."""
    ref.write_position(cp.pos, state, i)
    state.colour[i] = cp.pos.player
    state.player[i] = controller[cp.pos.player]
    state.first[i] = cp.first
    state.round[i] = cp.round
    state.turn[i] = cp.turn
    state.face[i] = cp.face
    state.rolled[i] = -1
    state.asleep[i] = cp.asleep
    state.turtle[i] = cp.turtle
    state.wave[i] = -1
    state.pending[i] = 0
    state.forced[i] = -1


def parse_action(text: str, rules) -> tuple:
    """An action in the co-op notation as a reference tuple (``("turtle", d)``,
    ``("wave", point)`` or the base game's)."""
    words = text.split()
    if words[0] == "turtle":
        return ("turtle", "NESW".index(words[1]))
    if words[0] == "wave":
        from azimuth_env.board import parse_point

        return ("wave", parse_point(words[1]))
    return ref.parse_action(text, rules)
