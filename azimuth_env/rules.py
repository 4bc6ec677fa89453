"""Azimuth's :class:`~azgames.core.contract.ContractRules`: configuration,
notation and pictures; the rules are the kernels' (:mod:`.kernels`), every
entry point the core's."""

from __future__ import annotations

import dataclasses
import functools
import re
from typing import Any, ClassVar, NamedTuple

import numpy as np

from azgames.core import checks
from azgames.core import options as parse
from azgames.core import state as state_ops
from azgames.core.contract import ContractRules, Kernels, reset_games
from azgames.core.game import Baseline, GameInfo
from azgames.core.jit import specialize
from azgames.core.options import Option

from . import diagram, picture, render
from . import kernels as K
from .board import (
    AT_HOME,
    CHOOSE,
    COLOUR_LETTERS,
    COLOUR_NAMES,
    COMPASS8,
    DIRECTIONS,
    FIXED,
    MOVE_TARGET,
    NUM_MARKS,
    NUM_POINTS,
    ON_ISLAND,
    POINT_NEIGHBOUR,
    RANDOM,
    SIZE,
    ActionLayout,
    Config,
    Layout,
    action_layout,
    beach_name,
    load_layout,
    mark_name,
    parse_mark,
    parse_point,
    point_name,
)
from .picture import mark_target


class AzimuthState(NamedTuple):
    """A batch of Azimuth games (leading axis: game)."""

    stack: np.ndarray  # (B, 36, D) int8: raft colours on each point, bottom first; -1 above the top
    height: np.ndarray  # (B, 36) int8: rafts on each point
    wind_colour: np.ndarray  # (B, 25) int8: colour of the wind on each mark, -1 none
    wind_owner: np.ndarray  # (B, 25) int8: the player who placed it, -1 none
    wind_dir: np.ndarray  # (B, 25) int8: 0 N, 1 E, 2 S, 3 W
    hand: np.ndarray  # (B, P, 2) int8: winds still to place: own colour, the opponent's (2 players)
    coconuts: np.ndarray  # (B, P) int8
    castaway: np.ndarray  # (B, P) int8: point, ON_ISLAND (36), AT_HOME (37) or NOT_PLACED (-1)
    beach: np.ndarray  # (B, P) int8: beach position (layout index), -1 until placed
    player: np.ndarray  # (B,) int8: who acts
    ply: np.ndarray  # (B,) int32: actions played so far
    outcome: np.ndarray  # (B,) int8: ONGOING, TERMINATED or TRUNCATED
    rng: np.ndarray  # (B,) uint64: the game's generator word (raft shuffle, random beaches and actions)


ILLEGAL_REASONS = {
    K.SETUP_FIRST: "the lighthouses are being placed: place your beach first",
    K.NOT_YOUR_ZONE: "that beach position is not in your zone",
    K.BEACH_OVERLAPS: "that beach would share a landing spot with a beach already placed",
    K.SETUP_OVER: "your beach is already placed",
    K.NO_WIND_IN_HAND: "you hold no wind of that colour",
    K.MARK_TAKEN: "the mark holds a wind or the island",
    K.HEAD_TO_HEAD: "it would be head to head with a wind of the same colour",
    K.WINDS_IN_HAND: "winds may be turned or moved only once all yours are placed",
    K.NO_WIND: "there is no wind on that mark",
    K.NOT_YOUR_WIND: "only your own winds may be moved",
    K.NO_CONTROL: "none of your rafts is next to that wind, so you do not control it",
    K.NO_COCONUT: "turning another player's wind costs a coconut and you have none left",
    K.MOVE_OFF_BOARD: "the wind would leave the board",
    K.MOVE_BLOCKED: "a raft stands on the point the diagonal move crosses",
    K.NOT_ON_ISLAND: "your castaway is not on the island",
    K.NO_RAFT_TO_BOARD: "the top raft on that point of the shallows is not your colour",
    K.NOT_IN_SHALLOWS: "your castaway is not on a raft in the shallows",
    K.NOT_ON_RAFT: "your castaway is not on a raft",
    K.NO_RAFT_TO_SWIM: "there is no raft of your colour on top of that neighbouring point",
    K.PASS_WHILE_ABLE: "passing is only allowed when no other action is",
}

_PLACE_RE = re.compile(r"^place\s+([A-Za-z])\s+([a-e][1-5])\s+([NESW])$", re.I)
_TURN_RE = re.compile(r"^turn\s+([a-e][1-5])\s+(cw|ccw)$", re.I)
_MOVE_RE = re.compile(r"^move\s+([a-e][1-5])\s+(N|NE|E|SE|S|SW|W|NW)$", re.I)
_BEACH_RE = re.compile(r"^beach\s+(\S+)$", re.I)


class AzimuthRules(ContractRules):
    info = GameInfo(
        name="azimuth",
        version=1,
        long_name="Azimuth: Ride the Winds",
        min_players=2,
        max_players=4,
        chance="deterministic",  # the raft shuffle is part of the seeded set-up
        information="perfect",
        utility="general_sum",  # zero-sum with 2 players (set per instance)
        reward_model="terminal",
    )
    state_type: ClassVar[type[Any]] = AzimuthState  # a mode of the game names its own (CoopState)
    kernels = Kernels(K.reset_game, K.play, K.write_observation, K.write_mask, K.illegal_code)
    ILLEGAL = ILLEGAL_REASONS
    #: The core's one-line call into each kernel inlined, not the kernels (they
    #: are calls of their own, njit_shared: no reference counts): the vector
    #: env's step went from 357k to 539k steps/s, the compile time unchanged.
    inline = True

    OPTIONS = (
        Option(
            "island", False, "play with the island in the middle of the board", parse.boolean, "true|false"
        ),
        Option(
            "coconuts",
            None,
            "coconuts: true, false, or default (the book's choice: with 3-4 players)",
            parse.tri_state,
            "true|false|default",
        ),
        Option(
            "lighthouses",
            "choose",
            "where each player's lighthouse stands: choose (a first "
            "move), random, or one beach per player, e.g. B3,R5",
            parse.word_or_list("choose", "random"),
            "choose|random|BEACH,...",
        ),
        Option("max_turns", 400, "actions before the game is cut short (default 400)", parse.integer, "N"),
    )
    baselines = {
        "greedy": Baseline(
            "azimuth_env.greedy:AzimuthGreedy",
            "the action bringing its castaway nearest home (short plans of its own)",
        )
    }
    search_hooks = "azimuth_env.search"

    def __init__(self, num_players: int = 2, **options: Any):
        super().__init__(num_players, **options)
        self.layout, self.actions, self.max_turns = self._board()
        self.depth = self.num_colours * int(self.layout.rafts_per_colour)
        # The config first without fixed beaches, so the kernels can check them.
        self._config = self._make_config(CHOOSE, np.full(self.num_colours, -1, np.int64))
        mode, fixed = self._lighthouse_mode(self.options["lighthouses"])
        self._config = self._make_config(mode, fixed)

    def _board(self) -> tuple[Layout, ActionLayout, int]:
        """The layout, the action numbering and the turn limit the options
        ask for (a mode of the game reads its own options)."""
        n = self.num_players
        if n == 2:
            self.info = dataclasses.replace(self.info, utility="zero_sum")
        island = self.options["island"]
        if not isinstance(island, bool):
            raise ValueError(f"island={island!r} must be True or False")
        coconuts = self.options["coconuts"]
        if coconuts is not None and not isinstance(coconuts, bool):
            raise ValueError(f"coconuts={coconuts!r} must be True, False or None (the book's choice)")
        coconuts = n > 2 if coconuts is None else coconuts
        layout = load_layout(n, island, coconuts)
        max_turns = self.options["max_turns"] = checks.integer(
            "max_turns", self.options["max_turns"], 1, checks.MAX_TURNS
        )
        return layout, action_layout(len(layout.beach_side), 2 if n == 2 else 1), max_turns

    def _make_config(self, mode: int, fixed: np.ndarray) -> Any:
        """The kernels' config with lighthouses placed by ``mode`` (``fixed``: the beaches of FIXED)."""
        return Config.from_parts(self.layout, self.actions, mode, fixed, self.max_turns)

    @property
    def board_config(self) -> Config:
        """The kernels' config as the base game's :class:`~azimuth_env.board.Config`
        (the co-op's has its fields and more: its view tables are read alike)."""
        return self._config

    def config(self) -> Any:
        """The kernels' ``cfg`` (:class:`~azimuth_env.board.Config`), built with the rules."""
        return self._config

    def _lighthouse_mode(self, value) -> tuple[int, np.ndarray]:
        n = self.num_players
        fixed = np.full(n, -1, np.int64)
        if value == "choose":
            return CHOOSE, fixed
        if value == "random":
            return RANDOM, fixed
        names = {beach_name(self.layout, b): b for b in range(len(self.layout.beach_side))}
        if isinstance(value, str) or not hasattr(value, "__len__") or len(value) != n:
            raise ValueError(
                f"lighthouses={value!r}: use 'choose', 'random', or one beach per player, "
                f"e.g. {list(names)[:n]}"
            )
        probe = self.blank_state(1)
        for p in range(n - 1, -1, -1):  # in placement order, so the zone rules apply
            spots = "-".join(point_name(parse_point(t)) for t in str(value[p]).split("-"))
            b = next((b for name, b in names.items() if set(name.split("-")) == set(spots.split("-"))), None)
            if b is None:
                raise ValueError(
                    f"lighthouses[{p}]={value[p]!r} is not a beach position; choose from {sorted(names)}"
                )
            if not K.beach_free(probe.beach, 0, p, b, self._config):
                raise ValueError(
                    f"lighthouses[{p}]={value[p]!r} is outside player {p}'s zone or "
                    f"shares a landing spot with a beach placed before it"
                )
            probe.beach[0, p] = b
            fixed[p] = b
        return FIXED, fixed

    def bind_kernels(self) -> None:
        # The reset specialised too (set first: the core's binding resets a
        # state): every AEC reset takes it, the co-op's every ~45 steps.
        self._entry_reset = specialize(reset_games, self.blank_state(1), self.cfg)
        super().bind_kernels()

    # ------------------------------------------------------------ declaration
    @property
    def agents(self) -> tuple[str, ...]:
        return tuple(f"player_{p}" for p in range(self.num_players))

    @property
    def num_actions(self) -> int:
        return self.actions.size

    def observation_shape(self, player: int = 0) -> tuple[int, ...]:
        return ((K.DEPTH + 8) * self.num_players + 5, SIZE, SIZE)

    def observation_bounds(self, player: int = 0) -> tuple[int, int]:
        return -1, max(self.layout.winds_own, self.layout.rafts_per_colour, self.layout.coconuts)

    # ------------------------------------------------------------ state
    def blank_state(self, batch: int) -> AzimuthState:
        if batch == 1:  # a copy of one blank game is 3x faster than building one (the AEC reset)
            return state_ops.clone(self._blank_one)
        return self._blank(batch)

    def _blank(self, batch: int) -> AzimuthState:
        b, n = batch, self.num_colours
        return AzimuthState(
            stack=np.full((b, NUM_POINTS, self.depth), -1, np.int8),
            height=np.zeros((b, NUM_POINTS), np.int8),
            wind_colour=np.full((b, NUM_MARKS), -1, np.int8),
            wind_owner=np.full((b, NUM_MARKS), -1, np.int8),
            wind_dir=np.zeros((b, NUM_MARKS), np.int8),
            hand=np.zeros((b, n, 2), np.int8),
            coconuts=np.zeros((b, n), np.int8),
            castaway=np.full((b, n), ON_ISLAND, np.int8),
            beach=np.full((b, n), -1, np.int8),
            player=np.zeros(b, np.int8),
            ply=np.zeros(b, np.int32),
            outcome=np.zeros(b, np.int8),
            rng=np.zeros(b, np.uint64),
        )

    @functools.cached_property
    def _blank_one(self) -> Any:
        return self._blank(1)

    def initial_state(self, rng_words: np.ndarray) -> Any:
        state = self.blank_state(len(rng_words))
        state.rng[:] = rng_words
        self._entry_reset(state, self.cfg)
        return state

    def check_values(self, state) -> None:
        """Every value of every game in range and consistent (:mod:`azimuth_env.state_check`)."""
        from .state_check import check_values

        check_values(state, self)

    @property
    def num_colours(self) -> int:
        """Colours (castaways, sides) in play: one per player in the base game."""
        return self.num_players

    def state_from_diagram(
        self,
        text: str,
        to_move: str = "R",
        beaches: dict | None = None,
        hands: dict | None = None,
        coconuts: dict | None = None,
        home: str | None = None,
        ply: int = 0,
    ) -> AzimuthState:
        """A one-game state from a diagram (:mod:`azimuth_env.diagram`).

        ``to_move`` is the colour letter of the player to act. ``beaches`` maps
        colour letters to beach positions (``{"R": "a1-b1"}``); players left out
        take the first free position in placement order. ``hands`` maps letters
        to ``(own, other)`` winds still to place (default: the full set less the
        winds of theirs on the board) and ``coconuts`` to coconuts left. A
        castaway not standing on the board is on the island, or at ``home``
        (one colour letter, or several: ``home="RK"``)."""
        n = self.num_colours
        letters = COLOUR_LETTERS[:n]
        state = self.blank_state(1)
        stacks, standing, winds, island = diagram.parse_sea(text, n, self.depth)
        if island != self.layout.island:
            want = mark_name(self.layout.island) if self.layout.island >= 0 else "no island"
            raise ValueError(f"the diagram's island ('#') must be where this layout has it: {want}")
        state.stack[0], state.height[0] = diagram.sea_arrays(stacks, self.depth)
        counts = np.bincount([c for s in stacks.values() for c in s], minlength=n)
        if (counts > self.layout.rafts_per_colour).any():
            raise ValueError(f"the diagram has more than {self.layout.rafts_per_colour} rafts of a colour")
        for m, (c, owner, d) in winds.items():
            state.wind_colour[0, m], state.wind_owner[0, m], state.wind_dir[0, m] = c, owner, d
        for p in range(n):
            if p in standing:
                state.castaway[0, p] = standing[p]
            elif home and letters[p] in home:
                state.castaway[0, p] = AT_HOME
            elif self.layout.island < 0:
                raise ValueError(f"castaway {letters[p]} must stand on a raft (no island in this layout)")
            else:
                state.castaway[0, p] = ON_ISLAND
            placed_own = sum(1 for c, o, _ in winds.values() if o == p and c == p)
            placed_other = sum(1 for c, o, _ in winds.values() if o == p and c != p)
            own, other = (hands or {}).get(
                letters[p], (self.layout.winds_own - placed_own, self.layout.winds_other - placed_other)
            )
            if min(own, other) < 0:
                raise ValueError(f"player {letters[p]} has more winds on the board than it holds")
            state.hand[0, p] = own, other
            state.coconuts[0, p] = (coconuts or {}).get(letters[p], self.layout.coconuts)
        for p in range(n - 1, -1, -1):
            name = (beaches or {}).get(letters[p])
            if name is None:
                b = next(
                    b
                    for b in range(len(self.layout.beach_side))
                    if K.beach_free(state.beach, 0, p, b, self.cfg)
                )
            else:
                b = self.beach_index(name)
            state.beach[0, p] = b
        if to_move not in letters:
            raise ValueError(f"to_move={to_move!r}: choose a colour letter from {letters!r}")
        state.player[0] = letters.index(to_move)
        state.ply[0] = ply
        return state

    def beach_index(self, name: str) -> int:
        spots = {parse_point(t) for t in name.split("-")}
        for b in range(len(self.layout.beach_side)):
            if set(int(p) for p in self.layout.beach_spots[b] if p >= 0) == spots:
                return b
        raise ValueError(f"{name!r} is not a beach position of this layout")

    # ------------------------------------------------------------ playing
    def colour_to_act(self, state, i: int = 0) -> int:
        """The colour to act in game ``i`` (the player's own in the base game)."""
        return int(state.player[i])

    def view_rotation(self, state, player: int, i: int = 0) -> int:
        """Quarter turns clockwise of ``player``'s view (its beach at the bottom)."""
        return int(K.rotation(state.beach, i, player, self.cfg))

    def absolute_action(self, state, action: int, i: int = 0) -> int:
        """The actor's ``action`` (in its view) as an action of the unturned board."""
        return Config.from_view(
            self.board_config, self.view_rotation(state, self.colour_to_act(state, i), i), action
        )

    def final_info(self, state) -> list[dict[str, Any]]:
        home = [q for q in range(self.num_players) if state.castaway[0, q] == AT_HOME]
        scores = [1 if q in home else 0 for q in range(self.num_players)]
        table = dict(zip(self.agents, scores))
        winners = [self.agents[q] for q in home]
        return [
            {
                "score": s,
                "scores": table,
                "winners": winners,
                "turns": int(state.ply[0]),
                "colour": COLOUR_NAMES[q],
            }
            for q, s in enumerate(scores)
        ]

    # ------------------------------------------------------------ notation
    def action_to_str(self, state, action: int) -> str:
        """``beach a1-b1``, ``place R c3 E``, ``turn c3 cw``, ``move c3 NE``,
        ``board c4``, ``home``, ``swim N`` or ``pass``, in board coordinates."""
        if not 0 <= action < self.num_actions:
            raise ValueError(f"action {action} is out of range [0, {self.num_actions})")
        al = self.actions
        a = self.absolute_action(state, action)
        p = self.colour_to_act(state)
        if a < al.place:
            return f"beach {beach_name(self.layout, a)}"
        if a < al.turn:
            k = a - al.place
            s, m, d = k % al.slots, k // al.slots // 4, k // al.slots % 4
            colour = p if s == 0 else 1 - p
            return f"place {COLOUR_LETTERS[colour]} {mark_name(m)} {DIRECTIONS[d]}"
        if a < al.move:
            return f"turn {mark_name((a - al.turn) // 2)} {('cw', 'ccw')[(a - al.turn) % 2]}"
        if a < al.board:
            return f"move {mark_name((a - al.move) // 8)} {COMPASS8[(a - al.move) % 8]}"
        if a < al.home:
            shallow = int(self.layout.shallows[a - al.board])
            return f"board {point_name(shallow)}" if shallow >= 0 else "board (no island)"
        if a == al.home:
            return "home"
        if a < al.pass_:
            return f"swim {DIRECTIONS[a - al.swim]}"
        return "pass"

    def str_to_action(self, state, text: str) -> int:
        """Parse the notation of :meth:`action_to_str` (case-insensitive) into
        the actor's action index."""
        al = self.actions
        t = " ".join(text.split())
        low = t.lower()
        p = self.colour_to_act(state)
        a = None
        if low in ("home", "pass"):
            a = al.home if low == "home" else al.pass_
        elif low.startswith("swim ") and low[5:].upper() in ("N", "E", "S", "W"):
            a = al.swim + DIRECTIONS.index(low[5:].upper())
        elif low.startswith("board "):
            point = parse_point(low[6:])
            if point not in self.layout.shallows:
                raise ValueError(f"{text!r}: {point_name(point)} is not in the island's shallows")
            a = al.board + list(self.layout.shallows).index(point)
        elif m := _BEACH_RE.match(t):
            a = al.beach + self.beach_index(m.group(1))
        elif m := _PLACE_RE.match(t):
            letter = m.group(1).upper()
            slots = {COLOUR_LETTERS[p]: 0}
            if al.slots == 2:
                slots[COLOUR_LETTERS[1 - p]] = 1
            if letter not in slots:
                raise ValueError(f"{text!r}: {COLOUR_NAMES[p]} can place winds of colour {sorted(slots)}")
            a = (
                al.place
                + (parse_mark(m.group(2)) * 4 + DIRECTIONS.index(m.group(3).upper())) * al.slots
                + slots[letter]
            )
        elif m := _TURN_RE.match(t):
            a = al.turn + parse_mark(m.group(1)) * 2 + (m.group(2).lower() == "ccw")
        elif m := _MOVE_RE.match(t):
            a = al.move + parse_mark(m.group(1)) * 8 + COMPASS8.index(m.group(2).upper())
        if a is None:
            raise ValueError(
                f"{text!r} is not an Azimuth action; write e.g. 'beach a1-b1', 'place R c3 E', "
                f"'turn c3 cw', 'move c3 NE', 'board c4', 'home', 'swim N' or 'pass'"
            )
        r = self.view_rotation(state, p)
        return Config.to_view(self.board_config, r, a)

    # ------------------------------------------------------------ rendering
    def headline(self, state) -> str:
        """The first line of the text board and the picture."""
        return render.headline(state, self)

    def render_ansi(self, state) -> str:
        return render.ansi(state, self)

    def picture(self, state, last=None):
        return picture.picture(state, self, last)

    def legend(self) -> str:
        return diagram.LEGEND

    def agent_of_colour(self, colour: int) -> int:
        """The agent (index into ``agents``) playing ``colour``: its seat here."""
        return colour

    def action_targets(self, state, action: int) -> tuple[str, ...]:
        """The picture's places (:mod:`azimuth_env.picture`) that select
        ``action``: a free beach position; the wind mark a wind is placed on
        or turned on (which colour, way or turn: the browser's buttons), a
        moved wind's mark then the mark it goes to; the shallows point boarded;
        the island to go back to; the point swum to; none for a pass."""
        if not 0 <= action < self.num_actions:
            raise ValueError(f"action {action} is out of range [0, {self.num_actions})")
        al = self.actions
        a = self.absolute_action(state, action)
        if a < al.place:
            return (beach_name(self.layout, a),)
        if a < al.move:
            m = (a - al.place) // al.slots // 4 if a < al.turn else (a - al.turn) // 2
            return (mark_target(m),)
        if a < al.board:
            m, k = divmod(a - al.move, 8)
            t = int(MOVE_TARGET[m, k])
            return (mark_target(m),) + ((mark_target(t),) if t >= 0 else ())
        if a < al.home:
            shallow = int(self.layout.shallows[a - al.board])
            return (point_name(shallow),) if shallow >= 0 else ()
        if a == al.home:
            return ("island",)
        if a < al.pass_:
            return self._point_reached(state, a - al.swim, 1)
        return ()

    def _point_reached(self, state, d: int, legs: int) -> tuple[str, ...]:
        """The point the actor's castaway reaches swimming ``legs`` legs ``d``
        (none if it is not on a point or would leave the sea)."""
        p = int(state.castaway[0, self.colour_to_act(state)])
        for _ in range(legs):
            if not 0 <= p < NUM_POINTS:
                return ()
            p = int(POINT_NEIGHBOUR[p, d])
        return (point_name(p),) if 0 <= p < NUM_POINTS else ()
