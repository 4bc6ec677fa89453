"""Azacru's :class:`~azgames.core.contract.ContractRules`: configuration,
notation and pictures; the rules are the kernels' (:mod:`.kernels`), every
entry point the core's."""

from __future__ import annotations

import functools
from typing import Any, NamedTuple

import numpy as np

from azgames.core import checks
from azgames.core import options as parse
from azgames.core import state as state_ops
from azgames.core.contract import ContractRules, Kernels
from azgames.core.game import Baseline, GameInfo
from azgames.core.options import Option

from . import diagram, picture, render
from . import kernels as K
from .board import COMPASS, DX, DY, MOVE_RE, field_name, load_opening, move_squares, parse_facing, parse_field


class AzacruState(NamedTuple):
    """A batch of Azacru games (leading axis: game)."""

    tiles: np.ndarray  # (B, 81) int8: owner of each field's tile, -1 neutral
    occupant: np.ndarray  # (B, 81) int8: piece on the field as player * 4 + slot, -1 none
    piece_field: np.ndarray  # (B, P, K) int8: each piece's field, -1 once off the board
    piece_facing: np.ndarray  # (B, P, K) int8: compass facing, 0 = N clockwise to 7 = NW
    player: np.ndarray  # (B,) int8: who acts
    turns_left: np.ndarray  # (B,) int8: -1 before the final round, then turns still to play
    ply: np.ndarray  # (B,) int32: actions played so far
    outcome: np.ndarray  # (B,) int8: ONGOING, TERMINATED or TRUNCATED
    rng: np.ndarray  # (B,) uint64: the game's generator word (random actions)


class AzacruConfig(NamedTuple):
    """What the kernels need besides the state: the ``cfg`` of the contract."""

    max_turns: np.int64  # turns before a game is cut short (TRUNCATED)
    opening_field: np.ndarray  # (P, K) int8: each piece's field at the start
    opening_facing: np.ndarray  # (P, K) int8: and its facing


ILLEGAL_REASONS = {
    K.PIECE_OFF_BOARD: "that piece has been taken off the board",
    K.LEAVES_BOARD: "the move leaves the board",
    K.BEYOND_POWER: "the distance is beyond the piece's power of movement",
    K.OTHER_PLAYERS_TILE: "the destination is another player's tile",
    K.FIELD_OCCUPIED: "a piece stands on the destination",
    K.JUMP_WITHOUT_CONNECTION: "it jumps a piece without being a connection (own tile to own tile)",
    K.TWIST_WITHOUT_BORDER: "a piece may only twist after crossing a border",
    K.PASS_WHILE_ABLE: "passing is only allowed when no piece can move",
}


class AzacruRules(ContractRules):
    info = GameInfo(
        name="azacru",
        # 2: observations channels first, (C, 9, 9), as every game's.
        version=2,
        long_name="Azacru (Pacru series)",
        min_players=2,
        max_players=4,
        chance="deterministic",
        information="perfect",
        utility="zero_sum",
        reward_model="terminal",
    )
    state_type = AzacruState
    kernels = Kernels(K.reset_game, K.play, K.write_observation, K.write_mask, K.illegal_code)
    # The core's one-line calls into the kernels copied into its entry points
    # and the search; the kernels stay calls, without reference counting
    # (njit_shared). By hand (2 busy cores, CPU time) against inline off with
    # counted kernels: vector env (1024 games) 1.14x, MCTS 1.2-1.35x, AEC 1.04x.
    inline = True
    ILLEGAL = ILLEGAL_REASONS

    OPTIONS = (
        Option(
            "opening",
            "standard",
            "the pieces' starting placement: standard or classic (docs/rules/azacru.md)",
            parse.text,
            "NAME",
        ),
        # A turn limit is needed: pieces can shuffle over their own tiles forever.
        Option("max_turns", 1000, "turns before the game is cut short (default 1000)", parse.integer, "N"),
    )
    baselines = {
        "greedy": Baseline(
            "azacru_env.greedy:AzacruGreedy", "one ply: the move leaving it the most own tiles"
        )
    }
    search_hooks = "azacru_env.search"
    symmetries = "azacru_env.symmetry"

    def __init__(self, num_players: int = 2, **options: Any):
        super().__init__(num_players, **options)
        self.opening_field, self.opening_facing = load_opening(self.options["opening"], self.num_players)
        self.max_turns = self.options["max_turns"] = checks.integer(
            "max_turns", self.options["max_turns"], 1, checks.MAX_TURNS
        )
        self.pieces = self.opening_field.shape[1]
        self.pass_action = self.pieces * K.ACTIONS_PER_PIECE

    def config(self) -> AzacruConfig:
        return AzacruConfig(np.int64(self.max_turns), self.opening_field, self.opening_facing)

    @property
    def agents(self) -> tuple[str, ...]:
        return tuple(f"player_{p}" for p in range(self.num_players))

    @property
    def num_actions(self) -> int:
        return self.pass_action + 1

    def observation_shape(self, player: int = 0) -> tuple[int, ...]:
        # Channels first, as every game of the suite (version 2; version 1 had them last).
        return (self.pieces + 3 * self.num_players + 1, 9, 9)

    def observation_bounds(self, player: int = 0) -> tuple[int, int]:
        return -1, 1

    # ------------------------------------------------------------ state
    def blank_state(self, batch: int) -> AzacruState:
        b, p, k = batch, self.num_players, self.pieces
        return AzacruState(
            tiles=np.empty((b, 81), np.int8),
            occupant=np.empty((b, 81), np.int8),
            piece_field=np.empty((b, p, k), np.int8),
            piece_facing=np.empty((b, p, k), np.int8),
            player=np.empty(b, np.int8),
            turns_left=np.empty(b, np.int8),
            ply=np.empty(b, np.int32),
            outcome=np.empty(b, np.int8),
            rng=np.empty(b, np.uint64),
        )

    @functools.cached_property
    def _opening(self) -> AzacruState:
        """The opening position, built on first use (building compiles a kernel)."""
        return super().initial_state(np.zeros(1, np.uint64))

    def initial_state(self, rng_words: np.ndarray) -> AzacruState:
        if len(rng_words) == 1:  # the AEC env's reset: copy the opening, built once
            state = state_ops.clone(self._opening)
            state.rng[0] = rng_words[0]
            return state
        return super().initial_state(rng_words)

    def check_values(self, state) -> None:
        """Every value of every game in range and consistent (:mod:`azacru_env.state_check`)."""
        from .state_check import check_values

        check_values(state, self.num_players, self.max_turns)

    def state_from_diagram(
        self, text: str, to_move: str = "A", final_round_turns: int | None = None, ply: int = 0
    ) -> AzacruState:
        """A one-game state from a diagram (:mod:`azacru_env.diagram`).

        ``to_move`` is the piece letter of the player who acts next (``"A"``:
        player_0, ``"B"``: player_1, ...); ``final_round_turns``, if given,
        says the final round has begun with that many turns left."""
        letters = diagram.PLAYER_LETTERS[: self.num_players]
        if not (isinstance(to_move, str) and len(to_move) == 1 and to_move in letters):
            raise ValueError(
                f"to_move={to_move!r}: name the player to move by its piece letter, one of "
                f"{', '.join(letters)} (A = player_0)"
            )
        state = self.initial_state(np.zeros(1, np.uint64))
        tiles, occupant, piece_field, piece_facing = diagram.parse_diagram(
            text, self.num_players, self.pieces
        )
        state.tiles[0], state.occupant[0] = tiles, occupant
        state.piece_field[0], state.piece_facing[0] = piece_field, piece_facing
        state.player[0] = letters.index(to_move)
        state.turns_left[0] = -1 if final_round_turns is None else final_round_turns
        state.ply[0] = ply
        return state

    def scores(self, state, i: int = 0) -> list[int]:
        tiles = state.tiles[i]
        return [int((tiles == p).sum()) for p in range(self.num_players)]

    def final_info(self, state) -> list[dict[str, Any]]:
        scores = self.scores(state)
        best = max(scores)
        winners = [a for a, s in zip(self.agents, scores) if s == best]
        table = dict(zip(self.agents, scores))
        return [{"score": s, "scores": table, "winners": winners, "turns": int(state.ply[0])} for s in scores]

    # ------------------------------------------------------------ notation
    def action_to_str(self, state, action: int) -> str:
        """``from-to:facing`` (e.g. ``a3-b4:NE``) or ``pass``."""
        if not 0 <= action < self.num_actions:
            raise ValueError(f"action {action} is out of range [0, {self.num_actions})")
        if action == self.pass_action:
            return "pass"
        k, turn, dist, twist = np.unravel_index(action, (self.pieces, 3, 8, 3))
        p = int(state.player[0])
        f = int(state.piece_field[0, p, k])
        if f < 0:
            return f"piece {k + 1} (off the board)"
        d = (int(state.piece_facing[0, p, k]) + int(K.TURN[turn])) & 7
        x, y = f % 9 + (dist + 1) * DX[d], f // 9 + (dist + 1) * DY[d]
        facing = COMPASS[(d + int(K.TURN[twist])) & 7]
        if not (0 <= x < 9 and 0 <= y < 9):
            return f"{field_name(f)}-off the board:{facing}"
        return f"{field_name(f)}-{field_name(int(y * 9 + x))}:{facing}"

    def str_to_action(self, state, text: str) -> int:
        """Parse ``from-to[:facing]`` (facing defaults to the move's direction) or ``pass``."""
        if text.strip().lower() == "pass":
            return self.pass_action
        m = MOVE_RE.match(text)
        if not m:
            raise ValueError(f"{text!r} is not a move; write from-to:facing (e.g. a3-b4:NE) or pass")
        f, g = parse_field(m.group(1)), parse_field(m.group(2))
        p = int(state.player[0])
        slots = np.flatnonzero(state.piece_field[0, p] == f)
        if len(slots) == 0:
            raise ValueError(f"{text!r}: player_{p} has no piece on {field_name(f)}")
        k = int(slots[0])
        dx, dy = g % 9 - f % 9, g // 9 - f // 9
        dist = max(abs(dx), abs(dy))
        if dist == 0 or (dx != 0 and dy != 0 and abs(dx) != abs(dy)):
            raise ValueError(f"{text!r}: {field_name(g)} is not in a straight line from {field_name(f)}")
        d = next(d for d in range(8) if DX[d] == np.sign(dx) and DY[d] == np.sign(dy))
        facing = int(state.piece_facing[0, p, k])
        turn = {0: 0, 7: 1, 1: 2}.get((d - facing) & 7)
        if turn is None:
            raise ValueError(
                f"{text!r}: the piece on {field_name(f)} faces {COMPASS[facing]}; it moves only "
                f"straight ahead or 45 degrees to either side"
            )
        final = parse_facing(m.group(3)) if m.group(3) else d
        twist = {0: 0, 7: 1, 1: 2}.get((final - d) & 7)
        if twist is None:
            raise ValueError(f"{text!r}: a piece ends facing its move or twisted 45 degrees from it")
        return int(np.ravel_multi_index((k, turn, dist - 1, twist), (self.pieces, 3, 8, 3)))

    # ------------------------------------------------------------ rendering
    def render_ansi(self, state) -> str:
        return render.ansi(state, self)

    def picture(self, state, last=None):
        """Game 0 drawn (:mod:`azacru_env.picture`): every square a target named like ``e4``."""
        return picture.picture(state, self, last)

    def action_targets(self, state, action: int) -> tuple[str, ...]:
        """The moving piece's square, then its destination (``("a3", "b4")``
        for ``a3-b4:NE``); ``()`` for the pass. The final facing is no place:
        the moves with the same two squares (one per facing a border crossing
        allows) differ only in it, so a player picks it after the clicks.
        ``ValueError`` for an action whose piece is off the board or whose
        destination is."""
        move = self.action_to_str(state, action)
        if move == "pass":
            return ()
        squares = move_squares(move)
        if not squares:
            raise ValueError(f"action {action} ({move}) names no square on the board to click")
        return squares

    def legend(self) -> str:
        return diagram.LEGEND
