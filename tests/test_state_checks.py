"""No state reaches a kernel unchecked (issue 10).

A state entering from outside (``env.set_state``, ``VectorEnv.set_game``,
``azgames.from_record``) passes each game's value check (``Rules.check_values``,
``<game>/state_check.py``) before a kernel sees it. Two sides are tested, for
every registered game (a game registered later is covered by its
registration; its option sets default to each player count):

- every state the game reaches is accepted: every state of random playouts
  in the vector env (hundreds of games per option set, the whole batch
  checked after each step) and in the AEC env (every state, the final one
  included, of a few games that take a winning action when they see one);
- every field corrupted in turn is refused, by each of the three entry
  points, with a ValueError naming the field: out of range high and
  negative at two places of each field, just past each field's range, and
  consistency breaks (a piece moved without its board, a count that no
  longer adds up, the wrong player to move...), on a few real states per
  player count (the start, mid-game, late, a game-specific one such as a
  fight or the waves' order). One subprocess per game runs them all and
  prints each corruption before trying it, so a kernel crashing on a state
  that slipped through fails the test (naming the corruption) instead of
  killing pytest. The four crashes reported in the issue are named cases of
  the same batches.

Run one game's batch by hand: ``python tests/test_state_checks.py azure``.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numba
import numpy as np
import pytest

import azgames
from azgames.core import state as state_ops
from azgames.core.game import ONGOING, TERMINATED, TRUNCATED
from azgames.core.registry import list_games

GAMES = [entry.name for entry in list_games()]
ROOT = Path(__file__).resolve().parents[1]


def rules_type(game: str):
    return azgames.make(game).unwrapped.rules_type


def player_counts(game: str) -> range:
    info = rules_type(game).info
    return range(info.min_players, info.max_players + 1)


# =========================================================================== reachable states

#: Option sets whose every reachable state must be accepted; a game not
#: listed is played with its defaults at each player count. ``max_turns`` is
#: cut for the long random Azimuth games so that hundreds of them finish.
OPTION_SETS: dict[str, list[dict]] = {
    "azacru": [
        {"num_players": 2},
        {"num_players": 3},
        {"num_players": 4},
        {"num_players": 2, "opening": "classic"},
    ],
    "azimuth": [
        {"num_players": 2},
        {"num_players": 3, "max_turns": 120},
        {"num_players": 4, "max_turns": 120},
        {"num_players": 4, "island": True, "max_turns": 120},
        {"num_players": 2, "coconuts": True, "lighthouses": "random", "max_turns": 120},
        {"num_players": 3, "coconuts": False, "lighthouses": ["a1-b1", "d1-e1", "a2-a3"], "max_turns": 120},
    ],
    "azimuth_coop": [
        {"num_players": 2},
        {"num_players": 3},
        {"num_players": 4},
        {
            "num_players": 4,
            "lighthouses": "random",
            "first_player": "random",
            "wave_order": "front_first",
            "rounds": 4,
        },
        {"num_players": 2, "wave_order": "back_first", "first_player": "blue", "rounds": 3},
    ],
    "azure": [
        {"num_players": 2},
        {"num_players": 3},
        {"num_players": 4},
        {"num_players": 3, "map": "long", "roles": "random", "max_turns": 150},
        {"num_players": 4, "map": "ring", "roles": "random", "suit_tiles": "literal", "max_turns": 150},
    ],
}


def option_sets(game: str) -> list[dict]:
    return OPTION_SETS.get(game) or [{"num_players": n} for n in player_counts(game)]


@contextlib.contextmanager
def one_numba_thread():
    """Small batches step faster on one thread on a busy machine."""
    before = numba.get_num_threads()
    numba.set_num_threads(1)
    try:
        yield
    finally:
        numba.set_num_threads(before)


def check_vector_playouts(game: str, options: dict, games: int, num_envs: int, seed: int) -> dict:
    """Random games in a vector env until ``games`` have finished; the whole
    batch goes through ``check_state`` after every step."""
    venv = azgames.make_vec(game, num_envs, seed=seed, **options)
    rules = venv.rules
    rules.check_state(venv.state, batch=num_envs)
    seen = {"steps": 0, "finished": 0, "states": num_envs}
    if hasattr(venv.state, "wave"):
        seen["waves ordered"] = 0
    while seen["finished"] < games:
        _, _, _, terminated, truncated, _ = venv.step(venv.random_actions())
        rules.check_state(venv.state, batch=num_envs)
        seen["steps"] += 1
        seen["states"] += num_envs
        seen["finished"] += int(terminated.sum() + truncated.sum())
        if "waves ordered" in seen:
            seen["waves ordered"] += int((venv.state.wave >= 0).sum())
    return seen


def check_aec_games(game: str, options: dict, games: int, seed: int) -> dict:
    """AEC games of random actions (a winning one when there is one); every
    state, the final one included, goes through ``check_state``."""
    env = azgames.make(game, **options)
    raw = env.unwrapped
    rules = raw.rules
    rng = np.random.default_rng(seed)
    seen = {"states": 0, TERMINATED: 0, TRUNCATED: 0}
    obs = np.empty(rules.observation_shape(0), np.int8)
    mask = np.empty(rules.num_actions, np.int8)
    rewards = np.zeros(rules.num_players, np.float32)
    for g in range(games):
        env.reset(seed=seed + g)
        while True:
            rules.check_state(raw.state, batch=1)
            seen["states"] += 1
            outcome = int(raw.state.outcome[0])
            if outcome != ONGOING:
                seen[outcome] += 1
                break
            legal = raw.legal_actions()
            pick = legal[int(rng.integers(len(legal)))]
            if len(legal) < 200:  # a winning action, if any (one kernel step on a copy each)
                for a in legal:
                    trial = state_ops.clone(raw.state)
                    code = rules.step(trial, a, obs, mask, rewards)
                    if code & 3 == TERMINATED and rewards.max() > 0:
                        pick = a
                        break
            env.step(pick)
    return seen


@pytest.mark.parametrize("game", GAMES)
def test_every_reachable_state_is_accepted(game):
    with one_numba_thread():
        for k, options in enumerate(option_sets(game)):
            vec = check_vector_playouts(game, options, games=200, num_envs=100, seed=k)
            assert vec["finished"] >= 200
            aec = check_aec_games(game, options, games=3, seed=100 * k)
            assert aec[TERMINATED] + aec[TRUNCATED] == 3
            if game == "azimuth_coop" and options.get("wave_order", "choose") == "choose":
                assert vec["waves ordered"] > 0, "no state of the waves' order was checked"


# =========================================================================== corruptions


@dataclass
class Corruption:
    """A change to one game's state that every entry point must refuse,
    naming one of ``fields``."""

    name: str
    fields: tuple[str, ...]
    change: Callable  # (state) -> None, on a copy


def set_at(field: str, index: tuple, value) -> Callable:
    def change(s):
        a = getattr(s, field)
        a[(0, *index)] = np.array(value).astype(a.dtype) if a.dtype.kind == "u" else value

    return change


def generic_corruptions(state, rng) -> list[Corruption]:
    """Every field (but the generator word, whose every value is valid) out
    of range high and negative, at its first entry and at a random one."""
    out = []
    for name, a in zip(state._fields, state):
        if name == "rng":
            continue
        info = np.iinfo(a.dtype)
        shape = a.shape[1:]
        places = {tuple(0 for _ in shape)}
        if shape:
            places.add(tuple(int(rng.integers(n)) for n in shape))
        for place in sorted(places):
            for label, value in (("max", info.max), ("min", info.min), ("-2", -2)):
                if value < info.min:
                    continue
                out.append(
                    Corruption(f"{name}{list(place)}={label}", (name,), set_at(name, place, int(value)))
                )
    return out


# --------------------------------------------------------------------------- per game
# Each returns corruptions for one real state (a one-game batch): values just
# past a field's range, and consistency breaks; None where one does not apply.


def _first(cond) -> tuple | None:
    hits = np.argwhere(cond)
    return tuple(int(x) for x in hits[0]) if len(hits) else None


def azacru_corruptions(rules, s) -> list[Corruption]:
    n, k = rules.num_players, rules.pieces
    out = [
        Corruption("tiles=players", ("tiles",), set_at("tiles", (40,), n)),
        Corruption("occupant=players*4", ("occupant",), set_at("occupant", (40,), 4 * n)),
        Corruption("piece_field=81", ("piece_field",), set_at("piece_field", (0, 0), 81)),
        Corruption("piece_facing=8", ("piece_facing",), set_at("piece_facing", (n - 1, k - 1), 8)),
        Corruption("player=players", ("player",), set_at("player", (), n)),
        Corruption("turns_left=players", ("turns_left",), set_at("turns_left", (), n)),
        Corruption("ply=max_turns+1", ("ply",), set_at("ply", (), rules.max_turns + 1)),
        Corruption("outcome=3", ("outcome",), set_at("outcome", (), 3)),
    ]
    on = _first(s.piece_field[0] >= 0)
    empty = int(np.flatnonzero(s.occupant[0] < 0)[0])
    if on is not None:
        p, slot = on
        f = int(s.piece_field[0, p, slot])
        out.append(
            Corruption(
                "piece moved, occupant kept",
                ("piece_field", "occupant"),
                set_at("piece_field", (p, slot), empty),
            )
        )
        out.append(
            Corruption(
                "occupant cleared under a piece", ("piece_field", "occupant"), set_at("occupant", (f,), -1)
            )
        )
        out.append(
            Corruption(
                "occupant names a piece elsewhere", ("occupant",), set_at("occupant", (empty,), p * 4 + slot)
            )
        )
        other = _first((s.piece_field[0] >= 0) & ~((np.arange(n)[:, None] == p) & (np.arange(k) == slot)))
        if other is not None:
            out.append(
                Corruption(
                    "two pieces on one field", ("piece_field", "occupant"), set_at("piece_field", other, f)
                )
            )
        if k < 4:
            out.append(
                Corruption(
                    "occupant names slot k >= pieces", ("occupant",), set_at("occupant", (f,), p * 4 + k)
                )
            )
    if s.outcome[0] == ONGOING:
        out.append(
            Corruption("turns_left 0 in a game going on", ("turns_left",), set_at("turns_left", (), 0))
        )
        out.append(
            Corruption("ply = max_turns in a game going on", ("ply",), set_at("ply", (), rules.max_turns))
        )
        out.append(
            Corruption("TERMINATED before the final round", ("outcome",), set_at("outcome", (), TERMINATED))
        )
        out.append(Corruption("TRUNCATED before max_turns", ("outcome",), set_at("outcome", (), TRUNCATED)))
    return out


def azimuth_corruptions(rules, s) -> list[Corruption]:
    from azimuth_env.board import AT_HOME, NOT_PLACED, ON_ISLAND

    n = s.castaway.shape[1]
    layout = rules.layout
    depth = s.stack.shape[2]
    out = [
        Corruption("height=depth+1", ("height",), set_at("height", (3,), depth + 1)),
        Corruption("stack=colours", ("stack",), set_at("stack", (0, 0), n)),
        Corruption("wind_colour=colours", ("wind_colour",), set_at("wind_colour", (0,), n)),
        Corruption("wind_owner=colours", ("wind_owner",), set_at("wind_owner", (0,), n)),
        Corruption("wind_dir=4", ("wind_dir",), set_at("wind_dir", (0,), 4)),
        Corruption("hand own=winds+1", ("hand",), set_at("hand", (0, 0), layout.winds_own + 1)),
        Corruption("hand other=winds+1", ("hand",), set_at("hand", (n - 1, 1), layout.winds_other + 1)),
        Corruption("coconuts=coconuts+1", ("coconuts",), set_at("coconuts", (0,), layout.coconuts + 1)),
        Corruption("castaway=38", ("castaway",), set_at("castaway", (0,), AT_HOME + 1)),
        Corruption("beach=positions", ("beach",), set_at("beach", (n - 1,), len(layout.beach_side))),
        Corruption("player=colours", ("player",), set_at("player", (), n)),
    ]
    if hasattr(rules, "max_turns") and rules.max_turns:
        out.append(Corruption("ply=max_turns+1", ("ply",), set_at("ply", (), rules.max_turns + 1)))
    height, stack = s.height[0], s.stack[0]
    # rafts: one too many of a colour; one above the height; a hole below it
    pt = int(np.argmax(height))
    h = int(height[pt])
    if h < depth:

        def extra_raft(t, pt=pt, h=h):
            t.stack[0, pt, h] = int(np.argmax(np.bincount(t.stack[0][t.stack[0] >= 0], minlength=n)))
            t.height[0, pt] = h + 1

        out.append(Corruption("a raft too many", ("stack", "castaway"), extra_raft))
        out.append(Corruption("a raft above the height", ("stack",), set_at("stack", (pt, h), 0)))
    if h > 0:
        out.append(
            Corruption("height cut under a raft", ("stack", "castaway"), set_at("height", (pt,), h - 1))
        )
    # castaways
    on = _first((s.castaway[0] >= 0) & (s.castaway[0] < 36))
    if on is not None:
        q = on[0]
        here = int(s.castaway[0, q])
        wrong = _first((height > 0) & (stack[np.arange(36), np.maximum(height - 1, 0)] != q))
        if wrong is not None:
            out.append(
                Corruption(
                    "castaway on another colour's raft", ("castaway",), set_at("castaway", (q,), wrong[0])
                )
            )
        out.append(
            Corruption(
                "castaway on an empty point",
                ("castaway",),
                set_at("castaway", (q,), int(np.flatnonzero(height == 0)[0])),
            )
        )
        out.append(
            Corruption(
                "its raft recoloured under a castaway",
                ("castaway", "stack"),
                set_at("stack", (here, int(height[here]) - 1), (q + 1) % n),
            )
        )
    if s.outcome[0] == ONGOING and (s.beach[0] >= 0).all() and not hasattr(s, "wave"):
        out.append(
            Corruption("castaway home in a game going on", ("castaway",), set_at("castaway", (0,), AT_HOME))
        )
    if layout.island < 0:
        out.append(
            Corruption(
                "castaway on the island of a layout without one",
                ("castaway",),
                set_at("castaway", (0,), ON_ISLAND),
            )
        )
    elif layout.start_on_island:
        out.append(
            Corruption(
                "castaway not placed where all start on the island",
                ("castaway",),
                set_at("castaway", (0,), NOT_PLACED),
            )
        )

        def wind_on_island(t):
            t.wind_colour[0, layout.island] = 0
            t.wind_owner[0, layout.island] = 0

        out.append(Corruption("a wind on the island", ("wind_colour", "hand"), wind_on_island))
    # winds
    m = _first(s.wind_colour[0] >= 0)
    if m is not None:
        out.append(Corruption("wind owner cleared", ("wind_owner",), set_at("wind_owner", m, -1)))
        if n > 2:
            c = int(s.wind_colour[0, m[0]])
            out.append(
                Corruption(
                    "a wind owned by another colour",
                    ("wind_owner", "hand"),
                    set_at("wind_owner", m, (c + 1) % n),
                )
            )
    else:
        out.append(
            Corruption("a wind with an owner, no colour", ("wind_owner",), set_at("wind_owner", (0,), 0))
        )

    def more_winds(t):  # a wind in hand handed back while it is on the board
        for q in range(n):
            placed = int(((t.wind_owner[0] == q) & (t.wind_colour[0] == q)).sum())
            t.hand[0, q, 0] = layout.winds_own - placed + 1 if placed else t.hand[0, q, 0]
            if placed:
                return
        t.hand[0, 0, 0] = layout.winds_own + 1

    out.append(Corruption("more winds than the set", ("hand",), more_winds))
    # beaches
    placed = np.flatnonzero(s.beach[0] >= 0)
    if len(placed) >= 2:
        a, b = int(placed[0]), int(placed[1])
        out.append(
            Corruption("two beaches on one position", ("beach",), set_at("beach", (b,), int(s.beach[0, a])))
        )
    if len(placed):
        q = int(placed[0])
        outside = np.flatnonzero((layout.beach_players >> q) & 1 == 0)
        if len(outside):
            out.append(
                Corruption("a beach outside the zone", ("beach",), set_at("beach", (q,), int(outside[0])))
            )
    return out


def azimuth_base_corruptions(rules, s) -> list[Corruption]:
    n = rules.num_players
    out = azimuth_corruptions(rules, s)
    placed = s.beach[0] >= 0
    if not placed.all():  # the lighthouses go down: the next to place acts
        p = int(s.player[0])
        out.append(
            Corruption("the wrong player places a beach", ("player",), set_at("player", (), (p + 1) % n))
        )
        if placed.any():
            q = int(np.flatnonzero(placed)[-1])
            out.append(
                Corruption(
                    "a beach taken back out of order",
                    ("beach", "castaway", "stack", "player"),
                    set_at("beach", (q,), -1),
                )
            )
    if s.outcome[0] == ONGOING:
        out.append(Corruption("TERMINATED with nobody home", ("outcome",), set_at("outcome", (), TERMINATED)))
        out.append(
            Corruption("ply = max_turns in a game going on", ("ply",), set_at("ply", (), rules.max_turns))
        )
    return out


def azimuth_coop_corruptions(rules, s) -> list[Corruption]:
    from azimuth_env.board import AT_HOME, ON_ISLAND
    from azimuth_env.coop.state_check import longest_game

    out = azimuth_corruptions(rules, s)
    out += [
        Corruption("ply past the longest game", ("ply",), set_at("ply", (), longest_game(rules.rounds) + 1)),
        Corruption("outcome TRUNCATED", ("outcome",), set_at("outcome", (), TRUNCATED)),
        Corruption("first=4", ("first",), set_at("first", (), 4)),
        Corruption("round=rounds+1", ("round",), set_at("round", (), rules.rounds + 1)),
        Corruption("turn=5", ("turn",), set_at("turn", (), 5)),
        Corruption("face=6", ("face",), set_at("face", (), 6)),
        Corruption("rolled=6", ("rolled",), set_at("rolled", (), 6)),
        Corruption("asleep=2", ("asleep",), set_at("asleep", (0,), 2)),
        Corruption("turtle=4", ("turtle",), set_at("turtle", (), 4)),
        Corruption("wave=4", ("wave",), set_at("wave", (), 4)),
        Corruption("pending=2", ("pending",), set_at("pending", (0,), 2)),
        Corruption("forced=6", ("forced",), set_at("forced", (0,), 6)),
    ]
    rnd, turn, p, first = int(s.round[0]), int(s.turn[0]), int(s.colour[0]), int(s.first[0])
    wave = int(s.wave[0])
    out.append(
        Corruption("rolled is not the face", ("rolled",), set_at("rolled", (), (int(s.face[0]) + 1) % 6))
    )
    if rnd >= 1 and wave < 0 and s.outcome[0] == ONGOING:

        def next_colour(t):  # and its agent to act
            t.colour[0] = (p + 1) % 4
            t.player[0] = rules.controller[t.colour[0]]

        out.append(Corruption("the colour to act is not first + turn", ("colour",), next_colour))
        out.append(
            Corruption(
                "the agent to act does not play the colour to act", ("player",), set_at("player", (), -1)
            )
        )
        out.append(
            Corruption("turn not the colour to act's", ("colour", "turn"), set_at("turn", (), (turn + 1) % 4))
        )
        out.append(Corruption("turn 4 without waves", ("turn",), set_at("turn", (), 4)))
        out.append(
            Corruption(
                "waves set mid-round", ("turn", "colour", "face", "wave", "pending"), set_at("wave", (), 0)
            )
        )
        pt = int(np.argmax(s.height[0]))
        out.append(
            Corruption("a candidate pending outside the waves", ("pending",), set_at("pending", (pt,), 1))
        )
        out.append(
            Corruption("a beach taken back in round 1+", ("beach", "castaway"), set_at("beach", (2,), -1))
        )
        out.append(Corruption("round 0 with every beach placed", ("beach", "turn"), set_at("round", (), 0)))
        out.append(Corruption("TERMINATED mid-game", ("outcome",), set_at("outcome", (), TERMINATED)))

        def all_home(t):
            t.castaway[0] = AT_HOME

        out.append(Corruption("all four home in a game going on", ("castaway",), all_home))
        island = np.flatnonzero(s.castaway[0] == ON_ISLAND)
        if len(island):
            out.append(
                Corruption("asleep on the island", ("asleep",), set_at("asleep", (int(island[0]),), 1))
            )
    if rnd == 0:
        out.append(
            Corruption(
                "a lighthouse out of order",
                ("beach",),
                set_at(
                    "beach",
                    ((first + 2) % 4,),
                    int(np.flatnonzero((rules.layout.beach_players >> ((first + 2) % 4)) & 1)[0]),
                ),
            )
        )
        out.append(Corruption("turn set while lighthouses go down", ("turn",), set_at("turn", (), 1)))
    if wave >= 0:
        out.append(
            Corruption("waves ordered by another colour", ("player",), set_at("player", (), (p + 1) % 4))
        )
        out.append(Corruption("waves with turn 3", ("turn",), set_at("turn", (), 3)))

        def sunny(t):
            t.face[0] = t.rolled[0] = 0

        out.append(Corruption("waves after a sunny face", ("face",), sunny))
        out.append(Corruption("waves the wrong way", ("wave",), set_at("wave", (), (wave + 1) % 4)))

        def none_pending(t):
            t.pending[0] = 0

        out.append(Corruption("waves with nothing pending", ("pending",), none_pending))
        roller = (first + rnd - 1) % 4
        other = _first((s.height[0] > 0) & (s.stack[0][:, 0] != roller))
        if other is not None:
            out.append(Corruption("a candidate of another colour", ("pending",), set_at("pending", other, 1)))
        out.append(Corruption("asleep during the waves", ("asleep",), set_at("asleep", (0,), 1)))
        out.append(Corruption("a turtle during the waves", ("turtle",), set_at("turtle", (), 0)))
    return out


def azure_corruptions(rules, s) -> list[Corruption]:
    from azure_env import kernels as K

    n, S = rules.num_players, rules.layout.num_squares
    num_coins = s.coin_loc.shape[1]
    p = int(s.player[0])
    out = [
        Corruption("pos=S", ("pos",), set_at("pos", (0,), S)),
        Corruption("home=S", ("home",), set_at("home", (0,), S)),
        Corruption("slot_owner=players", ("slot_owner",), set_at("slot_owner", (1,), n)),
        Corruption("order=players", ("order",), set_at("order", (0,), n)),
        Corruption("coin_value=6", ("coin_value",), set_at("coin_value", (0,), 6)),
        Corruption("coin_loc=S+9", ("coin_loc",), set_at("coin_loc", (0,), S + K.OUT + 1)),
        Corruption("player=players", ("player",), set_at("player", (), n)),
        Corruption("steps=8", ("steps",), set_at("steps", (), 8)),
        Corruption("trail=S", ("trail",), set_at("trail", (0,), S)),
        Corruption("next_hunter=hunters", ("next_hunter",), set_at("next_hunter", (), n - 1)),
        Corruption("hunter_turns=2", ("hunter_turns",), set_at("hunter_turns", (), 2)),
        Corruption("turns=max_turns+1", ("turns",), set_at("turns", (), rules.max_turns + 1)),
        Corruption("outcome=3", ("outcome",), set_at("outcome", (), 3)),
        Corruption("forced=6", ("forced",), set_at("forced", (1,), 6)),
        Corruption("fight attacker=players", ("fight",), set_at("fight", (0,), n)),
        Corruption("fight result=3", ("fight",), set_at("fight", (4,), 3)),
    ]
    if n < 4:  # codes of a player the game does not have
        out += [
            Corruption(
                "coin_loc carried by no player",
                ("coin_loc",),
                set_at("coin_loc", (num_coins - 1,), S + K.CARRIED + n),
            ),
            Corruption(
                "coin_loc banked by no player",
                ("coin_loc",),
                set_at("coin_loc", (num_coins - 1,), S + K.BANKED + n),
            ),
        ]
    # pieces
    void = np.flatnonzero(rules.layout.slot == -2)
    if len(void):
        out.append(
            Corruption("a piece on a void square", ("pos", "trail"), set_at("pos", (p,), int(void[0])))
        )
    q = (p + 1) % n
    out.append(
        Corruption("two pieces on one square", ("pos", "trail"), set_at("pos", (q,), int(s.pos[0, p])))
    )
    foreign = [
        int(sq)
        for k in range(4)
        if s.slot_owner[0, k] >= 0 and s.slot_owner[0, k] != q
        for sq in rules.layout.slot_squares[k]
        if sq == rules.layout.home[k]
    ]
    out.append(Corruption("a piece on another's home square", ("pos",), set_at("pos", (q,), foreign[0])))
    unused = [k for k in range(1, 4) if s.slot_owner[0, k] < 0 and rules.layout.home[k] >= 0]
    if unused:
        out.append(
            Corruption(
                "a piece on an unused suit tile",
                ("pos",),
                set_at("pos", (q,), int(rules.layout.home[unused[0]])),
            )
        )
    # suit tiles, homes, order
    out.append(
        Corruption("the monster's tile given to a hunter", ("slot_owner",), set_at("slot_owner", (0,), 1))
    )
    k = next(k for k in (1, 2, 3) if s.slot_owner[0, k] != 1)
    out.append(Corruption("a hunter owning two tiles", ("slot_owner",), set_at("slot_owner", (k,), 1)))
    out.append(Corruption("a home off its suit tile", ("home",), set_at("home", (0,), int(s.home[0, n - 1]))))
    if n > 2:
        out.append(
            Corruption("a hunter twice in the order", ("order",), set_at("order", (1,), int(s.order[0, 0])))
        )
    out.append(
        Corruption("the order past the last hunter", ("order",), set_at("order", (n - 1,), 1))
        if n < 4
        else Corruption("the order past the last hunter", ("order",), set_at("order", (2,), 0))
    )
    # the player to move
    if p != 0:
        out.append(
            Corruption(
                "the monster with a hunter turn pending",
                ("hunter_turns", "player", "trail"),
                set_at("player", (), 0),
            )
        )
        if n > 2:
            out.append(
                Corruption(
                    "a hunter out of order", ("player", "trail"), set_at("player", (), 1 + p % (n - 1))
                )
            )
    else:
        out.append(
            Corruption("the monster after one hunter turn", ("hunter_turns",), set_at("hunter_turns", (), 1))
        )
    # coins and the turn
    lying = np.flatnonzero(s.coin_loc[0] < S)
    if s.outcome[0] == ONGOING:
        out.append(Corruption("steps at the allowance", ("steps", "trail"), set_at("steps", (), 6)))

        def loaded(t):  # coins handed to the mover after it moved: its turn would be over
            t.coin_loc[0, :3] = S + K.CARRIED + p
            t.steps[0] = 1
            t.trail[0, 1] = t.pos[0, p]
            nb = rules.layout.neighbours()[int(t.pos[0, p])]
            t.trail[0, 0] = int(nb[nb >= 0][0])

        out.append(Corruption("coins carried past the allowance", ("steps", "trail"), loaded))

        def banked(t):
            t.coin_loc[0] = S + K.BANKED + 0

        out.append(Corruption("every coin banked, the game going on", ("coin_loc",), banked))
        out.append(
            Corruption("TERMINATED with coins unbanked", ("outcome",), set_at("outcome", (), TERMINATED))
        )
        out.append(
            Corruption(
                "turns = max_turns in a game going on", ("turns",), set_at("turns", (), rules.max_turns)
            )
        )
    if len(lying):
        void_or_unused = [
            int(rules.layout.home[k])
            for k in range(1, 4)
            if s.slot_owner[0, k] < 0 and rules.layout.home[k] >= 0
        ]
        if len(void):
            out.append(
                Corruption(
                    "a coin on a void square",
                    ("coin_loc",),
                    set_at("coin_loc", (int(lying[0]),), int(void[0])),
                )
            )
        if void_or_unused:
            out.append(
                Corruption(
                    "a coin on an unused tile",
                    ("coin_loc",),
                    set_at("coin_loc", (int(lying[0]),), void_or_unused[0]),
                )
            )
    # the trail
    out.append(
        Corruption(
            "the piece moved, its trail not",
            ("trail", "pos"),
            set_at("pos", (p,), int(np.flatnonzero(rules.layout.slot == -1)[-1]))
            if s.pos[0, p] != np.flatnonzero(rules.layout.slot == -1)[-1]
            else set_at("pos", (p,), int(np.flatnonzero(rules.layout.slot == -1)[0])),
        )
    )
    out.append(Corruption("a square after the trail", ("trail",), set_at("trail", (int(s.steps[0]) + 1,), 0)))
    if s.steps[0] >= 1:
        out.append(
            Corruption("a square visited twice", ("trail",), set_at("trail", (0,), int(s.trail[0, 1])))
        )
        far = int(np.flatnonzero(rules.layout.slot == -1)[0])
        if far != int(s.trail[0, 0]) and far not in rules.layout.neighbours()[int(s.trail[0, 1])]:
            out.append(Corruption("a trail that jumps", ("trail",), set_at("trail", (0,), far)))
    if s.fight[0, 0] >= 0:
        a = int(s.fight[0, 0])
        out.append(Corruption("a fight against oneself", ("fight",), set_at("fight", (1,), a)))
        out.append(Corruption("a fight without a die", ("fight",), set_at("fight", (2,), -1)))
        out.append(
            Corruption(
                "a fight with the wrong result",
                ("fight",),
                set_at("fight", (4,), (int(s.fight[0, 4]) + 1) % 3),
            )
        )
    return out


SPECIFIC = {
    "azacru": azacru_corruptions,
    "azimuth": azimuth_base_corruptions,
    "azimuth_coop": azimuth_coop_corruptions,
    "azure": azure_corruptions,
}


def special(game: str, state) -> bool:
    """A state worth corrupting besides the start, mid-game and late ones."""
    if game == "azimuth_coop":
        return state.wave[0] >= 0
    if game == "azure":
        return state.fight[0, 0] >= 0 and state.outcome[0] == ONGOING
    if game == "azacru":
        return state.turns_left[0] >= 0 and state.outcome[0] == ONGOING
    if game == "azimuth":
        return (state.castaway[0] < 36).any() and (state.beach[0] >= 0).all()
    return False


def sample_states(game: str, n: int) -> list[tuple[str, object]]:
    """Real one-game states of random AEC games: the start, mid-game, late,
    and a special one (:func:`special`) if random play finds one."""
    env = azgames.make(game, num_players=n)
    raw = env.unwrapped
    rng = np.random.default_rng(n)
    states = {}
    for seed in range(40):
        env.reset(seed=seed)
        ply = 0
        while True:
            if seed == 0 and ply in (0, 8, 30):
                states[{0: "start", 8: "mid", 30: "late"}[ply]] = state_ops.clone(raw.state)
            if "special" not in states and special(game, raw.state):
                states["special"] = state_ops.clone(raw.state)
            if raw.state.outcome[0] != ONGOING:
                break
            legal = raw.legal_actions()
            env.step(legal[int(rng.integers(len(legal)))])
            ply += 1
        if "special" in states and "late" in states:
            break
    return list(states.items())


# --------------------------------------------------------------------------- the batch

QUOTED_CRASHES = {
    # name: (game, num_players, field, value, how)
    "azure_record_trail_20000": ("azure", 2, "trail", (0,), 20000),
    "azure_record_pos_30000": ("azure", 2, "pos", (0,), 30000),
    "azimuth_record_player_9": ("azimuth", 2, "player", (), 9),
    "azure_record_steps_100": ("azure", 2, "steps", (), 100),
    "azacru_piece_field_100": ("azacru", 2, "piece_field", (0, 0), 100),
}


def refusals(game: str, n: int, valid, corruption: Corruption, env, venv, record) -> list[str]:
    """Try a corruption of ``valid`` on every entry point (``record`` None:
    not from_record); returns what went wrong."""
    bad = state_ops.clone(valid)
    corruption.change(bad)
    if state_ops.equal(bad, valid):
        return []
    problems = []
    entries = [
        ("set_state", lambda: env.unwrapped.set_state(bad)),
        ("set_game", lambda: venv.set_game(1, bad)),
    ]
    if record is not None:
        # The record of no actions from the corrupted state: its final position is its start.
        entries.append(
            (
                "from_record",
                lambda: azgames.from_record(
                    {**record, "start": state_ops.to_jsonable(bad), "final": state_ops.to_jsonable(bad)}
                ),
            )
        )
    for entry, call in entries:
        try:
            call()
        except ValueError as err:
            if not any(f"'{f}'" in str(err) for f in corruption.fields):
                problems.append(f"{entry}: refused naming none of {corruption.fields}: {err}")
        else:
            problems.append(f"{entry}: accepted")
    return problems


def record_of(env, state) -> dict:
    env.unwrapped.set_state(state)
    return env.unwrapped.to_record()


def main(game: str) -> int:
    """Run every corruption of ``game`` (one subprocess of the tests)."""
    failures = []
    tried = 0
    print(f"batch {game}", flush=True)
    for name, (g, n, field, index, value) in QUOTED_CRASHES.items():
        if g != game:
            continue
        env = azgames.make(game, num_players=n)
        env.reset(seed=1)
        for _ in range(3):
            env.step(env.unwrapped.legal_actions()[0])
        venv = azgames.make_vec(game, 2, seed=0, num_players=n)
        valid = state_ops.clone(env.unwrapped.state)
        print(f"TRY quoted {name}", flush=True)
        problems = refusals(
            game,
            n,
            valid,
            Corruption(name, (field,), set_at(field, index, value)),
            env,
            venv,
            record_of(env, valid),
        )
        tried += 1
        print(f"{'FAILED' if problems else 'REFUSED'} quoted {name} {problems}", flush=True)
        failures += [f"{name}: {p}" for p in problems]
    for n in player_counts(game):
        env = azgames.make(game, num_players=n)
        env.reset(seed=0)
        venv = azgames.make_vec(game, 2, seed=0, num_players=n)
        rules = env.unwrapped.rules
        rng = np.random.default_rng(n)
        for k, (label, valid) in enumerate(sample_states(game, n)):
            rules.check_state(valid, batch=1)
            record = record_of(env, valid) if k == 1 or label == "special" else None
            corruptions = generic_corruptions(valid, rng) + SPECIFIC.get(game, lambda r, s: [])(rules, valid)
            for c in corruptions:
                print(f"TRY {game} n={n} {label} {c.name}", flush=True)
                problems = refusals(game, n, valid, c, env, venv, record)
                tried += 1
                failures += [f"{game} n={n} {label} {c.name}: {p}" for p in problems]
    print(f"done {game}: {tried} corruptions, {len(failures)} failures", flush=True)
    for f in failures:
        print("FAILURE", f, flush=True)
    return 1 if failures else 0


_BATCHES: dict[str, subprocess.CompletedProcess] = {}


def batch(game: str) -> subprocess.CompletedProcess:
    """The subprocess running ``main(game)``, once per test session."""
    if game not in _BATCHES:
        env = {**os.environ, "NUMBA_NUM_THREADS": "1"}
        _BATCHES[game] = subprocess.run(
            [sys.executable, str(Path(__file__).resolve()), game],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=900,
        )
    return _BATCHES[game]


def explain(result: subprocess.CompletedProcess) -> str:
    lines = result.stdout.splitlines()
    tries = [ln for ln in lines if ln.startswith("TRY")]
    failures = [ln for ln in lines if ln.startswith("FAILURE")]
    return (
        f"exit status {result.returncode}; last corruption tried: {tries[-1] if tries else None}\n"
        + "\n".join(failures[:30])
        + f"\nstderr tail:\n{result.stderr[-3000:]}"
    )


@pytest.mark.parametrize("game", GAMES)
def test_every_field_corrupted_is_refused_by_every_entry_point(game):
    result = batch(game)
    assert result.returncode == 0, explain(result)
    assert f"done {game}" in result.stdout


@pytest.mark.parametrize("name", sorted(QUOTED_CRASHES))
def test_the_crash_reported_in_the_issue_is_refused(name):
    game = QUOTED_CRASHES[name][0]
    result = batch(game)
    assert f"REFUSED quoted {name} []" in result.stdout, explain(result)


def test_every_registered_game_checks_its_values():
    from azgames.core.game import Rules

    for game in GAMES:
        assert rules_type(game).check_values is not Rules.check_values, (
            f"{game} has no value check: its states would reach the kernels unchecked"
        )


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
