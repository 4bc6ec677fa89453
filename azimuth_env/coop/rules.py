"""The co-op mode's rules: a subclass of :class:`AzimuthRules` with its own
state, config and kernels (:mod:`.kernels`), options, the colours each agent
plays, the Ocean Die as explicit chance, and notation. Everything about the
sea itself is :class:`AzimuthRules`'."""

from __future__ import annotations

import re
from typing import Any, NamedTuple, cast

import numpy as np

from azgames.core import checks
from azgames.core import options as parse
from azgames.core.chance import ChanceOutcome, dice_outcomes, force
from azgames.core.contract import Kernels
from azgames.core.game import Baseline, GameInfo
from azgames.core.options import Option

from .. import kernels as base_kernels
from ..board import (
    AT_HOME,
    CHOOSE,
    COLOUR_LETTERS,
    COLOUR_NAMES,
    DIRECTIONS,
    FIXED,
    NUM_POINTS,
    RANDOM,
    SIZE,
    ActionLayout,
    Config,
    Layout,
    action_layout,
    beach_name,
    load_layout,
    parse_point,
    point_name,
)
from ..rules import ILLEGAL_REASONS as BASE_REASONS
from ..rules import AzimuthRules
from . import kernels as K
from . import picture, render
from .config import WAVES_BACK_FIRST, WAVES_CHOOSE, WAVES_FRONT_FIRST, coop_config
from .faces import FACE_NAMES  # also imported from here (azimuth_env.coop, tests)

WAVE_ORDERS = {"choose": WAVES_CHOOSE, "front_first": WAVES_FRONT_FIRST, "back_first": WAVES_BACK_FIRST}
#: Which colours (red, black, blondie, blue) each agent plays, by player count.
CONTROLLERS = {2: (0, 1, 0, 1), 3: (0, 1, 0, 2), 4: (0, 1, 2, 3)}
MAX_ROUNDS = 100  # rounds left are an observation plane (int8)


class CoopState(NamedTuple):
    """A batch of co-op games (leading axis: game): the base game's arrays for
    4 colours (``player``: the agent to act), then the colour it plays, the
    round and the die."""

    stack: np.ndarray  # (B, 36, 24) int8: raft colours on each point, bottom first
    height: np.ndarray  # (B, 36) int8
    wind_colour: np.ndarray  # (B, 25) int8
    wind_owner: np.ndarray  # (B, 25) int8: always its colour's
    wind_dir: np.ndarray  # (B, 25) int8
    hand: np.ndarray  # (B, 4, 2) int8: winds still to place
    coconuts: np.ndarray  # (B, 4) int8: always 0 (wind control is free)
    castaway: np.ndarray  # (B, 4) int8: point, ON_ISLAND (36) or AT_HOME (37)
    beach: np.ndarray  # (B, 4) int8: beach position, -1 until placed
    player: np.ndarray  # (B,) int8: the agent to act (the one playing ``colour``)
    ply: np.ndarray  # (B,) int32: actions played (lighthouses and wave orders included)
    outcome: np.ndarray  # (B,) int8
    rng: np.ndarray  # (B,) uint64
    colour: np.ndarray  # (B,) int8: the colour to act
    first: np.ndarray  # (B,) int8: the first colour (holds the first-player marker in round 1)
    round: np.ndarray  # (B,) int16: the round being played (1..rounds), 0 while lighthouses go down
    turn: np.ndarray  # (B,) int8: colour turns played this round (4: the die has been rolled)
    face: np.ndarray  # (B,) int8: the last face rolled, -1 before the first roll
    rolled: np.ndarray  # (B,) int8: the face the last step rolled, -1 if it rolled none
    asleep: np.ndarray  # (B, 4) int8: 1 if the mermaid put that castaway to sleep this round
    turtle: np.ndarray  # (B,) int8: colour whose portion holds an unused sea turtle, -1 none
    wave: np.ndarray  # (B,) int8: direction of the waves being ordered, -1 none
    pending: np.ndarray  # (B, 36) int8: 1 where the bottom raft is a wave candidate yet to move
    forced: np.ndarray  # (B, 1) int8: a die face queued for the next roll, -1 none


ILLEGAL_REASONS = {
    **BASE_REASONS,
    K.WAVES_TO_ORDER: "the team is ordering the waves: choose which candidate raft moves next",
    K.NOT_A_CANDIDATE: "no wave candidate whose order matters stands there",
    K.NO_WAVES: "no waves are being ordered",
    K.ASLEEP: "the mermaid sang your castaway to sleep: no castaway action this round",
    K.NO_TURTLE: "no sea turtle is on offer this round (or it was used)",
    K.TURTLE_AWAY: "your castaway is not on a raft in the sea turtle's ocean portion",
    K.NO_RAFT_TWO_LEGS: "there is no raft of your colour on top two legs that way",
}

_WAVE_RE = re.compile(r"^wave\s+([a-f][1-6])$", re.I)
_TURTLE_RE = re.compile(r"^turtle\s+([NESW])$", re.I)


class CoopRules(AzimuthRules):
    info = GameInfo(
        name="azimuth_coop",
        version=1,
        long_name="Azimuth co-op with the Ocean Die",
        min_players=2,
        max_players=4,
        chance="explicit_stochastic",
        information="perfect",
        utility="identical",  # cooperative: every agent gets the team's reward
        reward_model="terminal",
    )
    state_type = CoopState
    kernels = Kernels(K.reset_game, K.play, K.write_observation, K.write_mask, K.illegal_code)
    ILLEGAL = ILLEGAL_REASONS

    OPTIONS = (
        Option(
            "rounds", 10, f"rounds before the ocean wins (1 to {MAX_ROUNDS}; default 10)", parse.integer, "N"
        ),
        Option(
            "lighthouses",
            "choose",
            "where each colour's lighthouse stands: choose (a first move), random, or one beach per colour",
            parse.word_or_list("choose", "random"),
            "choose|random|BEACH,...",
        ),
        Option(
            "first_player",
            "red",
            "the colour that starts (red, black, blondie, blue) or random",
            parse.text,
            "COLOUR|random",
        ),
        Option(
            "wave_order",
            "choose",
            "the order the waves take the rafts: " + ", ".join(WAVE_ORDERS),
            parse.choice(*WAVE_ORDERS),
            "|".join(WAVE_ORDERS),
        ),
    )
    baselines = {
        "greedy": Baseline(
            "azimuth_env.coop.greedy:AzimuthCoopGreedy",
            "one policy for the team: the action bringing the team nearest "
            "home (most castaways home, then their summed distance estimate)",
        )
    }
    search_hooks = "azimuth_env.coop.search"

    @property
    def sides(self) -> list[list[int]]:
        """The whole crew is one side, against the ocean."""
        return [list(range(self.num_players))]

    def __init__(self, num_players: int = 4, **options: Any):
        super().__init__(num_players, **options)
        self._colour_names = [[COLOUR_NAMES[c] for c in self.colours_of(q)] for q in range(self.num_players)]

    def _board(self) -> tuple[Layout, ActionLayout, int]:
        """The co-op layout and numbering, no turn limit (the rounds end the
        game); the co-op's options read."""
        rounds = self.options["rounds"]
        if (
            not isinstance(rounds, (int, np.integer))
            or isinstance(rounds, bool)
            or not (1 <= rounds <= MAX_ROUNDS)
        ):
            raise ValueError(f"rounds={rounds!r} must be an integer from 1 to {MAX_ROUNDS}")
        self.rounds = int(rounds)
        first = self.options["first_player"]
        names = {**{c: k for k, c in enumerate(COLOUR_NAMES)}, **{c: k for k, c in enumerate(COLOUR_LETTERS)}}
        if first == "random":
            self.first_player = -1
        elif isinstance(first, str) and first in names:
            self.first_player = names[first]
        else:
            raise ValueError(f"first_player={first!r}: choose 'random' or a colour of {list(COLOUR_NAMES)}")
        checks.one_of("wave_order", self.options["wave_order"], list(WAVE_ORDERS))
        self.controller = np.array(CONTROLLERS[self.num_players], np.int64)
        layout = load_layout(4, key="coop")
        return layout, action_layout(len(layout.beach_side), 1, coop=True), 0

    def _make_config(self, mode: int, fixed: np.ndarray) -> Any:
        fields = dict(
            rounds=self.rounds,
            wave_mode=WAVE_ORDERS[self.options["wave_order"]],
            first_player=self.first_player,
        )
        return coop_config(self.layout, self.actions, mode, fixed, fields, self.controller)

    @property
    def num_colours(self) -> int:
        return 4

    def agent_of_colour(self, colour: int) -> int:
        return int(self.controller[colour])

    def colours_of(self, agent: int) -> list[int]:
        """The colours agent number ``agent`` plays."""
        return [c for c in range(4) if self.controller[c] == agent]

    def _lighthouse_mode(self, value) -> tuple[int, np.ndarray]:
        fixed = np.full(4, -1, np.int64)
        if value in ("choose", "random"):
            return (CHOOSE if value == "choose" else RANDOM), fixed
        names = {beach_name(self.layout, b): b for b in range(len(self.layout.beach_side))}
        if isinstance(value, str) or not hasattr(value, "__len__") or len(value) != 4:
            raise ValueError(
                f"lighthouses={value!r}: use 'choose', 'random', or one beach per "
                f"colour (red, black, blondie, blue), e.g. ['c1-d1', 'a3-a4', "
                f"'c6-d6', 'f3-f4']"
            )
        probe = self.blank_state(1)
        for c in range(4):
            b = None
            if isinstance(value[c], str):
                want = {t.strip().lower() for t in value[c].split("-")}
                b = next((b for name, b in names.items() if set(name.split("-")) == want), None)
            if b is None:
                raise ValueError(
                    f"lighthouses[{c}]={value[c]!r} is not a beach position; choose from {sorted(names)}"
                )
            if not base_kernels.beach_free(probe.beach, 0, c, b, self._config):
                raise ValueError(
                    f"lighthouses[{c}]={value[c]!r} is not on {COLOUR_NAMES[c]}'s side "
                    f"or shares a landing spot with an earlier colour's beach"
                )
            probe.beach[0, c] = b
            fixed[c] = b
        return FIXED, fixed

    # ------------------------------------------------------------ declaration
    def observation_shape(self, player: int = 0) -> tuple[int, ...]:
        return (K.NUM_PLANES, SIZE, SIZE)

    def observation_bounds(self, player: int = 0) -> tuple[int, int]:
        return -1, max(self.layout.winds_own, self.layout.rafts_per_colour, self.rounds)

    # ------------------------------------------------------------ state
    # The mode's own state: a CoopState holds the base game's fields and more.
    def _blank(self, batch: int) -> CoopState:  # type: ignore[override]
        b = batch
        return CoopState(
            *super()._blank(batch),
            colour=np.zeros(b, np.int8),
            first=np.zeros(b, np.int8),
            round=np.zeros(b, np.int16),
            turn=np.zeros(b, np.int8),
            face=np.full(b, -1, np.int8),
            rolled=np.full(b, -1, np.int8),
            asleep=np.zeros((b, 4), np.int8),
            turtle=np.full(b, -1, np.int8),
            wave=np.full(b, -1, np.int8),
            pending=np.zeros((b, NUM_POINTS), np.int8),
            forced=np.full((b, 1), -1, np.int8),
        )

    def colour_to_act(self, state, i: int = 0) -> int:
        return int(state.colour[i])

    def check_values(self, state) -> None:
        """Every value of every game in range and consistent (:mod:`azimuth_env.coop.state_check`)."""
        from .state_check import check_values

        check_values(state, self)

    # No coconuts in the co-op (``home`` takes its place), and a CoopState.
    def state_from_diagram(  # type: ignore[override]
        self,
        text: str,
        to_move: str = "R",
        beaches: dict | None = None,
        hands: dict | None = None,
        home: str | None = None,
        ply: int = 0,
        first: str = "R",
        round: int = 1,
        turn: int | None = None,
        face: str | None = None,
        asleep: str = "",
        turtle: str | None = None,
        **_unused,
    ) -> CoopState:
        """A one-game co-op state from a diagram (see
        :meth:`AzimuthRules.state_from_diagram` for the sea, ``beaches``,
        ``hands`` and ``home``). ``first`` is the first colour's letter,
        ``round`` the round being played, ``turn`` the colour turns played in
        it (default: as many as ``to_move`` is after ``first``), ``face`` the
        last face rolled (a name of ``FACE_NAMES``), ``asleep`` the letters of
        sleeping castaways and ``turtle`` the letter of the colour whose
        portion holds an unused sea turtle."""
        if _unused:
            raise ValueError(f"unknown argument(s) {sorted(_unused)}")
        state = cast(  # built by self._blank: a CoopState
            CoopState,
            super().state_from_diagram(
                text, to_move=to_move, beaches=beaches, hands=hands, home=home, ply=ply
            ),
        )
        letters = COLOUR_LETTERS
        for name, letter in (("first", first), ("to_move", to_move), ("turtle", turtle)):
            if letter is not None and letter not in letters:
                raise ValueError(f"{name}={letter!r}: choose a colour letter from {letters!r}")
        if not 1 <= round <= self.rounds:
            raise ValueError(f"round={round!r} must be from 1 to rounds={self.rounds}")
        state.colour[0] = state.player[0]  # the base game's seat is the colour to act
        state.player[0] = self.controller[state.colour[0]]
        state.first[0] = letters.index(first)
        state.round[0] = round
        state.turn[0] = (letters.index(to_move) - letters.index(first)) % 4 if turn is None else turn
        if face is not None and face not in FACE_NAMES:
            raise ValueError(f"face={face!r}: choose one of {FACE_NAMES}")
        state.face[0] = -1 if face is None else FACE_NAMES.index(face)
        for letter in asleep:
            state.asleep[0, letters.index(letter)] = 1
        state.turtle[0] = -1 if turtle is None else letters.index(turtle)
        return state

    # ------------------------------------------------------------ playing
    def start_infos(self, state) -> list[dict[str, Any]]:
        return [{"colours": list(names)} for names in self._colour_names]

    def final_info(self, state) -> list[dict[str, Any]]:
        home = [COLOUR_NAMES[c] for c in range(4) if state.castaway[0, c] == AT_HOME]
        won = len(home) == 4
        table = dict.fromkeys(self.agents, len(home))
        return [
            {
                "score": len(home),
                "scores": table,
                "winners": list(self.agents) if won else [],
                "turns": int(state.ply[0]),
                "rounds": int(state.round[0]),
                "home": home,
                "colours": list(names),
            }
            for names in self._colour_names
        ]

    # ------------------------------------------------------------ the Ocean Die
    def chance_outcomes(self, state, action: int, merge: bool = True) -> list[ChanceOutcome]:
        """The die's 6 faces, 1/6 each, when ``action`` ends a round that is
        not the last and does not bring the fourth castaway home; else none."""
        trial = type(state)(*(a.copy() for a in state))
        trial.forced[0, 0] = 0
        obs = np.empty(self.observation_shape(), np.int8)
        mask = np.empty(self.num_actions, np.int8)
        self.step(trial, action, obs, mask, np.zeros(self.num_players, np.float32))
        if trial.rolled[0] < 0:
            return []
        return dice_outcomes(K.FACES, 1, lambda draws: FACE_NAMES[draws[0]], merge)

    def force_draws(self, state, draws) -> None:
        force(state.forced[0], draws, K.FACES)

    def chance_info(self, state) -> dict[str, Any] | None:
        f = int(state.rolled[0])
        if f < 0:
            return None
        roller = (int(state.first[0]) + int(state.round[0]) - 2) % 4  # the round has moved on
        if state.wave[0] >= 0:
            roller = int(state.colour[0])
        return {"die": {"face": FACE_NAMES[f], "roller": COLOUR_NAMES[roller]}}

    # ------------------------------------------------------------ notation
    def action_to_str(self, state, action: int) -> str:
        """The base game's notation, and ``turtle N`` (a two-leg swim with the
        sea turtle) and ``wave c3`` (the wave candidate on c3 moves next)."""
        if not 0 <= action < self.num_actions:
            raise ValueError(f"action {action} is out of range [0, {self.num_actions})")
        a = self.absolute_action(state, action)
        if a >= self.actions.wave:
            return f"wave {point_name(a - self.actions.wave)}"
        if a >= self.actions.turtle:
            return f"turtle {DIRECTIONS[a - self.actions.turtle]}"
        return super().action_to_str(state, action)

    def action_targets(self, state, action: int) -> tuple[str, ...]:
        """The base game's, and the point a turtle swim reaches, the wave
        candidate's point."""
        if not 0 <= action < self.num_actions:
            raise ValueError(f"action {action} is out of range [0, {self.num_actions})")
        a = self.absolute_action(state, action)
        if a >= self.actions.wave:
            return (point_name(a - self.actions.wave),)
        if a >= self.actions.turtle:
            return self._point_reached(state, a - self.actions.turtle, 2)
        return super().action_targets(state, action)

    def legend(self) -> str:
        return f"{super().legend()}\n{render.STATUS_LEGEND}"

    # ------------------------------------------------------------ rendering
    def headline(self, state) -> str:
        return render.headline(state, self)

    def render_ansi(self, state) -> str:
        return render.ansi(state, self)

    def picture(self, state, last=None):
        return picture.picture(state, self, last)

    def str_to_action(self, state, text: str) -> int:
        t = " ".join(text.split())
        a = None
        if m := _WAVE_RE.match(t):
            a = self.actions.wave + parse_point(m.group(1))
        elif m := _TURTLE_RE.match(t):
            a = self.actions.turtle + DIRECTIONS.index(m.group(1).upper())
        if a is None:
            return super().str_to_action(state, text)
        return Config.to_view(self.board_config, self.view_rotation(state, int(state.colour[0])), a)
