"""A slow, obvious reference of one step of Azure Attack, written from the
rule book (../shared/rules/azure-attack.txt) and the rules as implemented
(docs/rules/azure.md), independent of the numba kernels.

Only the *data* of a map (:class:`azure_env.board.Layout`: its grid of
squares, which suit tile each square belongs to, the home squares) is read
from the package; the geometry and every rule are written out here, on plain
Python values:

- squares ``y * width + x`` (``a1`` = 0, south-west), directions 0 N, 1 E,
  2 S, 3 W, action 4 stop;
- a coin's place is ``("square", s)``, ``("carried", p)``, ``("banked", p)``
  or ``("out",)``;
- player 0 is the monster, 1-3 the hunters.

:func:`position_of` reads one game of an :class:`azure_env.AzureState` by the
documented meaning of its fields; :func:`legal_actions` and :func:`step` are
the rules.
"""

from __future__ import annotations

from typing import NamedTuple

MONSTER = 0
STOP = 4
#: (dx, dy) of the four step directions N E S W (y grows to the north).
STEPS = [(0, 1), (1, 0), (0, -1), (-1, 0)]
FACES = 6

#: The words ``infos[agent]["chance"]["fight"]["result"]`` uses.
ATTACKER_WINS, DEFENDER_WINS, BOTH_HOME = "attacker wins", "defender wins", "both go home"


# --------------------------------------------------------------------------- the map


class Board(NamedTuple):
    width: int
    height: int
    #: per square: "void", "map", or the suit slot 0-3 (0 the monster's)
    kind: list
    #: per slot: its home square (None if the map has no such slot)
    home: list
    #: option suit_tiles="literal": rule 7 to the letter (see :func:`why_illegal`)
    literal: bool = False


def board_of(layout, suit_tiles: str = "closed") -> Board:
    kind = []
    for v in layout.slot.tolist():
        kind.append("void" if v == -2 else "map" if v == -1 else int(v))
    home = [int(h) if h >= 0 else None for h in layout.home.tolist()]
    return Board(int(layout.width), int(layout.height), kind, home, suit_tiles == "literal")


def neighbour(board: Board, square: int, d: int) -> int | None:
    """The square one step in direction ``d``, or None off the grid or onto a void square."""
    x, y = square % board.width, square // board.width
    dx, dy = STEPS[d]
    x, y = x + dx, y + dy
    if not (0 <= x < board.width and 0 <= y < board.height):
        return None
    t = y * board.width + x
    return None if board.kind[t] == "void" else t


# --------------------------------------------------------------------------- positions


class Position(NamedTuple):
    """One game, as plain Python values."""

    num_players: int
    pos: list  # each piece's square
    home: list  # each piece's home square
    tile_owner: dict  # suit slot -> its player, for the slots in use
    hunter_order: list  # the hunters' turn order (players 1-3)
    values: list  # each coin's value
    coins: list  # each coin's place (see the module docstring)
    player: int  # who acts
    visited: list  # squares the actor has been on this turn, its start first
    hunters_since_monster: int  # hunter turns finished since the monster's last turn
    next_hunter: int  # index in hunter_order of the next hunter to play
    turns: int  # turns finished (an extra turn counts)


def position_of(state, layout, i: int = 0) -> Position:
    """Game ``i`` of an :class:`azure_env.AzureState` as a :class:`Position`."""
    S = int(layout.width * layout.height)
    n = state.pos.shape[1]
    coins = []
    for loc in state.coin_loc[i].tolist():
        if loc < S:
            coins.append(("square", loc))
        elif loc < S + 4:
            coins.append(("carried", loc - S))
        elif loc < S + 8:
            coins.append(("banked", loc - S - 4))
        else:
            assert loc == S + 8, loc
            coins.append(("out",))
    steps = int(state.steps[i])
    return Position(
        num_players=n,
        pos=[int(x) for x in state.pos[i]],
        home=[int(x) for x in state.home[i]],
        tile_owner={k: int(q) for k, q in enumerate(state.slot_owner[i].tolist()) if q >= 0},
        hunter_order=[int(q) for q in state.order[i] if q > 0],
        values=[int(v) for v in state.coin_value[i]],
        coins=coins,
        player=int(state.player[i]),
        visited=[int(x) for x in state.trail[i, : steps + 1]],
        hunters_since_monster=int(state.hunter_turns[i]),
        next_hunter=int(state.next_hunter[i]),
        turns=int(state.turns[i]),
    )


def carried_by(pos: Position, p: int) -> int:
    return sum(1 for c in pos.coins if c == ("carried", p))


def allowance(p: int, carried: int) -> int:
    """6 squares for the monster, 4 for a hunter, 2 fewer per coin carried, at least 1."""
    return max(1, (6 if p == MONSTER else 4) - 2 * carried)


def owner_of(board: Board, pos: Position, square: int):
    """ "map" for a map square; the player owning a suit tile square; None for
    an unused suit tile (not there with fewer hunters)."""
    k = board.kind[square]
    if k == "map":
        return "map"
    return pos.tile_owner.get(k)


def why_illegal(board: Board, pos: Position, action: int) -> str | None:
    """None if the actor may play ``action``; else why not (in the reference's words)."""
    if action == STOP:
        return None
    p = pos.player
    t = neighbour(board, pos.pos[p], action)
    if t is None:
        return "off the map"
    owner = owner_of(board, pos, t)
    if owner is None:
        return "off the map"  # an unused suit tile is not there
    if owner != "map" and owner != p:
        # Closed suit tiles: nobody enters another's. Literal (rule 7: "Hunters
        # cannot enter each other's suit tiles"): the monster may enter the
        # hunters' tiles and the hunters the monster's, but no home square.
        hunters_both = p != MONSTER and owner != MONSTER
        if not board.literal or hunters_both or t == board.home[board.kind[t]]:
            return "another player's suit tile"
    if t in pos.visited:
        return "visited this turn"
    return None


def legal_actions(board: Board, pos: Position) -> set[int]:
    return {a for a in range(5) if why_illegal(board, pos, a) is None}


def is_fight(board: Board, pos: Position, action: int) -> bool:
    if action == STOP:
        return False
    t = neighbour(board, pos.pos[pos.player], action)
    return any(q != pos.player and x == t for q, x in enumerate(pos.pos))


def fight_result(attacker: int, defender: int, a: int, d: int) -> str:
    """The monster wins ties against a hunter (whoever attacks); two hunters
    that tie both go home; otherwise the higher roll wins."""
    if a == d:
        if attacker == MONSTER:
            return ATTACKER_WINS
        if defender == MONSTER:
            return DEFENDER_WINS
        return BOTH_HOME
    return ATTACKER_WINS if a > d else DEFENDER_WINS


def team_rewards(pos: Position) -> list[float]:
    """+1 to each agent of the side with more banked gold, -1 to the other; 0 on equal totals."""
    monster = sum(v for v, c in zip(pos.values, pos.coins) if c == ("banked", MONSTER))
    hunters = sum(v for v, c in zip(pos.values, pos.coins) if c[0] == "banked" and c[1] != MONSTER)
    if hunters == monster:
        return [0.0] * pos.num_players
    hunter_reward = 1.0 if hunters > monster else -1.0
    return [-hunter_reward] + [hunter_reward] * (pos.num_players - 1)


class Result(NamedTuple):
    position: Position
    rewards: list  # each player's reward for this step
    outcome: str  # "ongoing", "terminated" or "truncated"
    fight: tuple | None  # (attacker, defender, attacker's roll, defender's roll, result words)
    turn_over: bool  # the actor's turn ended (not by a monster's extra turn)
    extra_turn: bool  # the monster won an attack and plays on


def step(
    board: Board, pos: Position, action: int, max_turns: int, dice: tuple[int, int] | None = None
) -> Result:
    """``pos.player`` plays the legal ``action``; ``dice`` (attacker's roll,
    defender's roll) decide a fight."""
    p = pos.player
    pieces = list(pos.pos)
    coins = list(pos.coins)
    visited = list(pos.visited)
    fight = None
    extra_turn = False
    if action == STOP:
        turn_over = True
    else:
        here = pieces[p]
        there = neighbour(board, here, action)
        defender = next((q for q, x in enumerate(pieces) if q != p and x == there), None)
        if defender is None:
            # Move; pick up every coin lying there.
            pieces[p] = there
            visited.append(there)
            coins = [("carried", p) if c == ("square", there) else c for c in coins]
            carrying = sum(1 for c in coins if c == ("carried", p))
            if carrying > 0 and owner_of(board, pos, there) == p:
                # Home with gold: bank all of it; the turn ends.
                coins = [("banked", p) if c == ("carried", p) else c for c in coins]
                turn_over = True
            else:
                moved = len(visited) - 1
                turn_over = moved >= allowance(p, carrying)
        else:
            a, d = dice
            result = fight_result(p, defender, a, d)
            fight = (p, defender, a, d, result)
            losers = {ATTACKER_WINS: [defender], DEFENDER_WINS: [p], BOTH_HOME: [p, defender]}[result]
            for loser in losers:
                stood = there if loser == defender else here
                coins = [("square", stood) if c == ("carried", loser) else c for c in coins]
                pieces[loser] = pos.home[loser]
            if result == ATTACKER_WINS:
                pieces[p] = there
                coins = [("carried", p) if c == ("square", there) else c for c in coins]
                if owner_of(board, pos, there) == p:
                    # Won onto its own suit tile (literal suit tiles): bank it all.
                    coins = [("banked", p) if c == ("carried", p) else c for c in coins]
            extra_turn = p == MONSTER and result == ATTACKER_WINS
            turn_over = not extra_turn

    after = pos._replace(pos=pieces, coins=coins, visited=visited)
    if all(c[0] in ("banked", "out") for c in coins):
        # Every coin (in the game) banked: the game is over; the banking turn
        # counts as finished.
        after = after._replace(turns=pos.turns + 1)
        return Result(after, team_rewards(after), "terminated", fight, turn_over, extra_turn)

    player, since, nxt, turns = p, pos.hunters_since_monster, pos.next_hunter, pos.turns
    order = pos.hunter_order
    if extra_turn:
        turns += 1
        visited = [pieces[p]]
    elif turn_over:
        turns += 1
        if p == MONSTER:
            player = order[nxt]
            nxt = (nxt + 1) % len(order)
        else:
            since += 1
            if since == 2:  # two hunter turns: the monster's turn
                player, since = MONSTER, 0
            else:
                player = order[nxt]
                nxt = (nxt + 1) % len(order)
        visited = [pieces[player]]
    after = after._replace(
        player=player, visited=visited, hunters_since_monster=since, next_hunter=nxt, turns=turns
    )
    if turns >= max_turns:
        return Result(after, team_rewards(after), "truncated", fight, turn_over, extra_turn)
    return Result(after, [0.0] * pos.num_players, "ongoing", fight, turn_over, extra_turn)


def chance_outcomes(board: Board, pos: Position, action: int) -> dict[str, float]:
    """A fighting step's results with their probabilities (empty if it does not fight)."""
    if not is_fight(board, pos, action):
        return {}
    t = neighbour(board, pos.pos[pos.player], action)
    defender = pos.pos.index(t)
    out: dict[str, float] = {}
    for a in range(FACES):
        for d in range(FACES):
            r = fight_result(pos.player, defender, a, d)
            out[r] = out.get(r, 0.0) + 1 / FACES**2
    return out
