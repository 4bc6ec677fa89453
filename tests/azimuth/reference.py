"""A slow, obvious reference of Azimuth's rules, written from the rule book
(../shared/rules/azimuth.txt) and the project's rule choices, independent
of the numba kernels.

Geometry: raft points ``p = y * 6 + x`` (a1 = 0, f6 = 35), wind marks
``m = y * 5 + x``; mark ``(x, y)`` touches the points ``(x..x+1, y..y+1)``.
Directions 0 N, 1 E, 2 S, 3 W; wind moves use the compass points 0 N, 1 NE,
..., 7 NW. Stacks are Python lists of colours, bottom first. A castaway is at
a point, or ``ON_ISLAND``, ``AT_HOME`` or ``NOT_PLACED``.

Only the *data* of a layout (:class:`azimuth_env.board.Layout`: island mark,
beach landing spots and sides, who may take a beach, fifth rafts, winds and
coconuts) is read from the package; every rule is written out here.

Actions are tuples, one kind per group of the notation:
``("beach", b)``, ``("place", colour, mark, d)``, ``("turn", mark, "cw"|"ccw")``,
``("move", mark, k)``, ``("board", point)``, ``("home",)``, ``("swim", d)``,
``("pass",)``.
"""

from __future__ import annotations

from typing import NamedTuple

SIZE = 6
MARKS = 5
ON_ISLAND = 36
AT_HOME = 37
NOT_PLACED = -1

#: (dx, dy) of the four wind directions: N E S W (y grows to the north).
STEP4 = [(0, 1), (1, 0), (0, -1), (-1, 0)]
#: (dx, dy) of the eight compass points of a wind move: N NE E SE S SW W NW.
STEP8 = [(0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1)]


# --------------------------------------------------------------------------- geometry


def point_xy(p: int) -> tuple[int, int]:
    return p % SIZE, p // SIZE


def point_at(x: int, y: int) -> int | None:
    """The point at (x, y), or None off the board."""
    if 0 <= x < SIZE and 0 <= y < SIZE:
        return y * SIZE + x
    return None


def mark_at(x: int, y: int) -> int | None:
    if 0 <= x < MARKS and 0 <= y < MARKS:
        return y * MARKS + x
    return None


def corners(m: int) -> list[int]:
    """The four raft points around wind mark ``m``."""
    x, y = m % MARKS, m // MARKS
    return [point_at(x + dx, y + dy) for dy in (0, 1) for dx in (0, 1)]


def top(stack: list[int]) -> int | None:
    return stack[-1] if stack else None


def standing_at(castaways: list[int], point: int) -> int | None:
    """The player whose castaway stands on ``point``, or None."""
    here = [q for q, c in enumerate(castaways) if c == point]
    assert len(here) <= 1, f"two castaways on point {point}: {castaways}"
    return here[0] if here else None


# --------------------------------------------------------------------------- sailing


def landing_spots(layout, b: int) -> set[int]:
    return {int(s) for s in layout.beach_spots[b] if s >= 0}


def reaches_beach(layout, beaches: list[int], q: int, source: int, direction: int) -> bool:
    """Castaway ``q``'s raft, pushed off the board from ``source`` going
    ``direction``, lands on its beach: the source is one of its landing spots
    and the push goes towards the beach's side."""
    b = beaches[q]
    return b >= 0 and source in landing_spots(layout, b) and int(layout.beach_side[b]) == direction


def sail(
    stacks, castaways, beaches, layout, mark: int, colour: int, direction: int, events: list | None = None
):
    """The wind of ``colour`` on ``mark`` blowing ``direction``: at each of the
    mark's four points the top-most raft of that colour sails one leg, carrying
    every raft (and a castaway) above it.

    The four parts sail at once. Read as a sequence: the two points furthest
    downwind go first (they sail out of the wind's square), then the two
    behind them sail onto what the front points hold by then.

    - A part arriving where a castaway stands slides in beneath the castaway's
      raft (the castaway stays on top).
    - A part carrying a castaway never goes where another castaway stands: it stays.
    - A part that would leave the board stays, unless it carries a castaway
      (of any colour, whatever the wind's colour) from one of that castaway's
      landing spots towards its beach: the castaway is home (the rafts stay
      where they are).

    Returns ``(stacks, castaways, landed)``: new lists, and the set of
    players whose castaways landed, as a bit set (bit q: player q). ``events``, if given, collects the name of each
    case met (for tests that want to know what a sample exercised).
    """
    log = events.append if events is not None else (lambda _: None)
    stacks = [list(s) for s in stacks]
    castaways = list(castaways)
    dx, dy = STEP4[direction]
    landed = 0

    def downwind(p):
        x, y = point_xy(p)
        return x * dx + y * dy

    for source in sorted(corners(mark), key=downwind, reverse=True):
        stack = stacks[source]
        levels = [k for k, c in enumerate(stack) if c == colour]
        if not levels:
            continue  # no raft of the wind's colour here
        level = levels[-1]
        part = stack[level:]
        rider = standing_at(castaways, source)  # stands on the top raft, so on the part
        x, y = point_xy(source)
        dest = point_at(x + dx, y + dy)
        log("whole stack" if level == 0 else "upper part of a stack")
        if dest is None:
            if rider is not None and reaches_beach(layout, beaches, rider, source, direction):
                castaways[rider] = AT_HOME
                landed |= 1 << rider
                log("landed")
            else:
                log("off the board" if rider is None else "castaway off the board")
            continue
        there = standing_at(castaways, dest)
        if there is not None and rider is not None:
            log("castaway blocked by castaway")
            continue  # one castaway may not sail onto another
        stacks[source] = stack[:level]
        if there is not None:
            log("slid under a castaway")
            stacks[dest] = stacks[dest][:-1] + part + stacks[dest][-1:]
        else:
            log("stacked on top" if stacks[dest] else "onto open sea")
            stacks[dest] = stacks[dest] + part
        if rider is not None:
            log("carried a castaway")
            castaways[rider] = dest
        if dest in corners(mark):
            log("onto a point of the same wind")
    return stacks, castaways, landed


# --------------------------------------------------------------------------- positions


class Position(NamedTuple):
    """One game between turns, as plain Python values."""

    stacks: list[list[int]]  # 36 stacks, bottom first
    winds: dict[int, tuple[int, int, int]]  # mark -> (colour, owner, direction)
    hands: list[list[int]]  # per player: [own colour, other colour] winds still to place
    coconuts: list[int]
    castaways: list[int]
    beaches: list[int]  # beach position per player, -1 before it is placed
    player: int  # who acts


def other_colour(p: int, num_players: int) -> int | None:
    """The colour of a player's second wind slot: the opponent's with 2 players."""
    return 1 - p if num_players == 2 else None


def beach_allowed(layout, beaches: list[int], p: int, b: int) -> bool:
    """Player ``p`` may take beach position ``b``: it is in ``p``'s zone and
    shares no landing spot with a beach already placed."""
    if not (int(layout.beach_players[b]) >> p) & 1:
        return False
    taken = set()
    for other in beaches:
        if other >= 0:
            taken |= landing_spots(layout, other)
    return not (landing_spots(layout, b) & taken)


def island_shallows(layout) -> set[int]:
    return set(corners(int(layout.island))) if layout.island >= 0 else set()


def move_target(m: int, k: int) -> int | None:
    dx, dy = STEP8[k]
    return mark_at(m % MARKS + dx, m // MARKS + dy)


def crossed_point(m: int, t: int) -> int:
    """The raft point a diagonal wind move from ``m`` to ``t`` passes over:
    the one corner the two marks share."""
    (shared,) = set(corners(m)) & set(corners(t))
    return shared


def controls(pos: Position, p: int, m: int) -> bool:
    """Wind control: a raft of ``p``'s colour anywhere in a stack next to ``m``."""
    return any(p in pos.stacks[c] for c in corners(m))


def legal_actions(pos: Position, layout, num_players: int) -> set[tuple]:
    """Every legal action of ``pos.player``; ``{("pass",)}`` when there is none."""
    p = pos.player
    legal: set[tuple] = set()
    if pos.beaches[p] < 0:  # the lighthouses are being placed: nothing else
        for b in range(len(layout.beach_side)):
            if beach_allowed(layout, pos.beaches, p, b):
                legal.add(("beach", b))
        return legal or {("pass",)}

    # castaways: board from the island, return to it, swim
    here = pos.castaways[p]
    shallows = island_shallows(layout)
    if here == ON_ISLAND:
        for s in shallows:
            if top(pos.stacks[s]) == p:
                legal.add(("board", s))
    elif 0 <= here < SIZE * SIZE:
        if here in shallows:
            legal.add(("home",))
        x, y = point_xy(here)
        for d, (dx, dy) in enumerate(STEP4):
            t = point_at(x + dx, y + dy)
            if t is not None and top(pos.stacks[t]) == p:
                legal.add(("swim", d))

    own, other = pos.hands[p]
    if own + other > 0:  # phase 1: place winds
        for slot, held in enumerate((own, other)):
            if held <= 0:
                continue
            colour = p if slot == 0 else other_colour(p, num_players)
            for m in range(MARKS * MARKS):
                if m == layout.island or m in pos.winds:
                    continue
                for d, (dx, dy) in enumerate(STEP4):
                    ahead = mark_at(m % MARKS + dx, m // MARKS + dy)
                    if ahead in pos.winds:
                        c, _, dir_ahead = pos.winds[ahead]
                        if c == colour and dir_ahead == (d + 2) % 4:
                            continue  # head to head
                    legal.add(("place", colour, m, d))
    else:  # phase 2: turn and move
        may_pay = layout.coconuts == 0 or pos.coconuts[p] > 0
        for m, (colour, owner, d) in pos.winds.items():
            if owner == p:
                legal.add(("turn", m, "cw"))
                legal.add(("turn", m, "ccw"))
                for k in range(8):
                    t = move_target(m, k)
                    if t is None or t == layout.island or t in pos.winds:
                        continue
                    if k % 2 == 1 and pos.stacks[crossed_point(m, t)]:
                        continue  # a raft in the way of a diagonal move
                    legal.add(("move", m, k))
            elif may_pay and controls(pos, p, m):
                legal.add(("turn", m, "cw"))
                legal.add(("turn", m, "ccw"))
    return legal or {("pass",)}


def play(pos: Position, action: tuple, layout, num_players: int) -> tuple[Position, int]:
    """The position after ``pos.player`` plays legal ``action``, and the
    castaways that landed as a bit set (0 if none)."""
    p = pos.player
    stacks = [list(s) for s in pos.stacks]
    winds = dict(pos.winds)
    hands = [list(h) for h in pos.hands]
    coconuts = list(pos.coconuts)
    castaways = list(pos.castaways)
    beaches = list(pos.beaches)
    landed = 0
    kind = action[0]
    if kind == "beach":
        b = action[1]
        beaches[p] = b
        raft = int(layout.beach_raft[b])
        if raft >= 0:  # 4 players: the fifth raft, opposite the beach
            stacks[raft].append(p)
            if not layout.start_on_island:
                castaways[p] = raft
        # lighthouses are placed in reverse seat order; player 0 then starts
        nxt = max(p - 1, 0)
        return Position(stacks, winds, hands, coconuts, castaways, beaches, nxt), 0
    if kind == "place":
        _, colour, m, d = action
        hands[p][0 if colour == p else 1] -= 1
        winds[m] = (colour, p, d)
        stacks, castaways, landed = sail(stacks, castaways, beaches, layout, m, colour, d)
    elif kind == "turn":
        _, m, way = action
        colour, owner, d = winds[m]
        if owner != p and layout.coconuts > 0:
            coconuts[p] -= 1
        d = (d + (1 if way == "cw" else 3)) % 4
        winds[m] = (colour, owner, d)
        stacks, castaways, landed = sail(stacks, castaways, beaches, layout, m, colour, d)
    elif kind == "move":
        _, m, k = action
        t = move_target(m, k)
        winds[t] = winds.pop(m)
        colour, _, d = winds[t]
        stacks, castaways, landed = sail(stacks, castaways, beaches, layout, t, colour, d)
    elif kind == "board":
        castaways[p] = action[1]
    elif kind == "home":
        castaways[p] = ON_ISLAND
    elif kind == "swim":
        x, y = point_xy(castaways[p])
        dx, dy = STEP4[action[1]]
        castaways[p] = point_at(x + dx, y + dy)
    else:
        assert kind == "pass", action
    nxt = (p + 1) % num_players
    return Position(stacks, winds, hands, coconuts, castaways, beaches, nxt), landed


def rewards(landed: int, num_players: int) -> list[float]:
    """+1 to each player whose castaway got home, -1 to every other; 0 for all
    if none did, or if every castaway landed at once (a draw)."""
    if landed in (0, (1 << num_players) - 1):
        return [0.0] * num_players
    return [1.0 if landed >> q & 1 else -1.0 for q in range(num_players)]


# --------------------------------------------------------------------------- glue


def position_of(state, i: int = 0) -> Position:
    """Game ``i`` of an :class:`azimuth_env.AzimuthState` as a :class:`Position`."""
    n = state.castaway.shape[1]
    stacks = []
    for pt in range(SIZE * SIZE):
        h = int(state.height[i, pt])
        stacks.append([int(c) for c in state.stack[i, pt, :h]])
    winds = {}
    for m in range(MARKS * MARKS):
        if state.wind_colour[i, m] >= 0:
            winds[m] = (int(state.wind_colour[i, m]), int(state.wind_owner[i, m]), int(state.wind_dir[i, m]))
    return Position(
        stacks=stacks,
        winds=winds,
        hands=[[int(state.hand[i, q, 0]), int(state.hand[i, q, 1])] for q in range(n)],
        coconuts=[int(state.coconuts[i, q]) for q in range(n)],
        castaways=[int(state.castaway[i, q]) for q in range(n)],
        beaches=[int(state.beach[i, q]) for q in range(n)],
        player=int(state.player[i]),
    )


def write_position(pos: Position, state, i: int = 0) -> None:
    """Write ``pos`` into game ``i`` of ``state`` (stack depth permitting)."""
    state.stack[i] = -1
    for pt, s in enumerate(pos.stacks):
        state.height[i, pt] = len(s)
        state.stack[i, pt, : len(s)] = s
    state.wind_colour[i] = -1
    state.wind_owner[i] = -1
    state.wind_dir[i] = 0
    for m, (c, o, d) in pos.winds.items():
        state.wind_colour[i, m], state.wind_owner[i, m], state.wind_dir[i, m] = c, o, d
    state.hand[i] = pos.hands
    state.coconuts[i] = pos.coconuts
    state.castaway[i] = pos.castaways
    state.beach[i] = pos.beaches
    state.player[i] = pos.player


def parse_action(text: str, rules) -> tuple:
    """An action in the env's notation (``rules.action_to_str``) as a reference tuple."""
    from azimuth_env.board import COLOUR_LETTERS, COMPASS8, parse_mark, parse_point

    words = text.split()
    kind = words[0]
    if kind == "beach":
        return ("beach", rules.beach_index(words[1]))
    if kind == "place":
        return ("place", COLOUR_LETTERS.index(words[1]), parse_mark(words[2]), "NESW".index(words[3]))
    if kind == "turn":
        return ("turn", parse_mark(words[1]), words[2])
    if kind == "move":
        return ("move", parse_mark(words[1]), COMPASS8.index(words[2]))
    if kind == "board":
        return ("board", parse_point(words[1]))
    if kind == "swim":
        return ("swim", "NESW".index(words[1]))
    assert kind in ("home", "pass") and len(words) == 1, text
    return (kind,)
