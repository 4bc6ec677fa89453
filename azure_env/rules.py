"""Azure Attack's :class:`~azgames.core.contract.ContractRules`: configuration,
notation and explicit chance; the kernels (:mod:`.kernels`) are the kernel
contract's, and the core writes every entry point from them."""

from __future__ import annotations

import dataclasses
from typing import Any, NamedTuple

import numpy as np

from azgames.core import checks
from azgames.core import options as parse
from azgames.core.chance import ChanceOutcome, dice_outcomes, force
from azgames.core.contract import ContractRules, Kernels
from azgames.core.game import Baseline, GameInfo, LastStep
from azgames.core.options import Option

from . import diagram, render
from . import kernels as K
from .board import ACTION_NAMES, MAX_HUNTERS, STOP, SUIT_TILE_RULES, kernel_tables, resolve_map
from .diagram import LEGEND, PIECE_LETTERS, player_of_letter
from .picture import picture as draw_picture


class AzureState(NamedTuple):
    """A batch of Azure Attack games (leading axis: game). Player 0 is the monster."""

    pos: np.ndarray  # (B, P) int16: each piece's square
    home: np.ndarray  # (B, P) int16: each piece's home square (on its suit tile)
    slot_owner: np.ndarray  # (B, 4) int8: who owns suit tile slot k (0 monster's), -1 unused
    order: np.ndarray  # (B, 3) int8: the hunters' turn order (players 1-3), 0 past the last
    coin_value: np.ndarray  # (B, K) int8: each coin's value, 0-5
    coin_loc: np.ndarray  # (B, K) int16: square, or S + carried/banked/out code (kernels)
    player: np.ndarray  # (B,) int8: who acts
    steps: np.ndarray  # (B,) int8: squares moved this turn
    trail: np.ndarray  # (B, 8) int16: squares visited this turn, trail[0] the start
    next_hunter: np.ndarray  # (B,) int8: index in ``order`` of the next hunter to play
    hunter_turns: np.ndarray  # (B,) int8: hunter turns since the monster's (0 or 1)
    turns: np.ndarray  # (B,) int32: turns finished (an extra turn counts)
    outcome: np.ndarray  # (B,) int8: ONGOING, TERMINATED or TRUNCATED
    forced: np.ndarray  # (B, 2) int8: queued die faces for the next fight, -1 empty
    fight: np.ndarray  # (B, 5) int8: last step's fight: attacker, defender, rolls, result; -1 none
    rng: np.ndarray  # (B,) uint64: the game's generator word (set-up, dice, random actions)


class AzureConfig(NamedTuple):
    """What the kernels read besides the state (their ``cfg``)."""

    tables: np.ndarray  # int64: the layout's tables (:func:`azure_env.board.kernel_tables`)
    S: np.int64  # the layout's number of squares
    max_turns: np.int64  # turns before the game is cut short
    random_roles: np.bool_  # the set-up roll draws the hunters' turn order and seats


ILLEGAL_REASONS = {
    K.OFF_MAP: "there is no square that way",
    K.OTHERS_TILE: "that square is on another player's suit tile",
    K.VISITED: "the piece has already been on that square this turn",
}

RESULT_WORDS = {
    K.ATTACKER_WINS: "attacker wins",
    K.DEFENDER_WINS: "defender wins",
    K.BOTH_HOME: "both go home",
}


class AzureRules(ContractRules):
    info = GameInfo(
        name="azure",
        version=1,
        long_name="Azure Attack",
        min_players=2,
        max_players=4,
        chance="explicit_stochastic",
        information="perfect",
        utility="general_sum",  # zero-sum with 2 players (set per instance)
        reward_model="terminal",
    )
    state_type = AzureState
    kernels = Kernels(K.reset_game, K.play, K.write_observation, K.write_mask, K.illegal_code)
    inline = True
    ILLEGAL = ILLEGAL_REASONS
    num_actions = 5

    OPTIONS = (
        Option(
            "map",
            "standard",
            "a built-in map's name (standard, long, ring) or a JSON file "
            "holding a map of your own (docs/rules/azure.md)",
            parse.text,
            "NAME|PATH",
        ),
        Option(
            "roles",
            "fixed",
            "seats keep their roles (fixed) or draw them (random)",
            parse.choice("fixed", "random"),
            "fixed|random",
        ),
        Option("max_turns", 300, "turns before the game is cut short (default 300)", parse.integer, "N"),
        Option(
            "suit_tiles",
            "closed",
            "who may enter a suit tile: closed (its owner only) or literal (docs/rules/azure.md)",
            parse.choice(*SUIT_TILE_RULES),
            "|".join(SUIT_TILE_RULES),
        ),
    )
    baselines = {
        "greedy": Baseline(
            "azure_env.greedy:AzureGreedy",
            "a step along the shortest path to the best gold, home to bank "
            "it, or onto a hunter carrying gold (monster)",
        )
    }
    search_hooks = "azure_env.search"

    @property
    def sides(self) -> list[list[int]]:
        """The monster alone, against the hunters together."""
        return [[0], list(range(1, self.num_players))]

    def __init__(self, num_players: int = 2, **options: Any):
        super().__init__(num_players, **options)
        if self.num_players == 2:
            self.info = dataclasses.replace(self.info, utility="zero_sum")
        # A user's map (dict, diagram or file) is kept as its dict, so records replay it.
        self.layout, self.options["map"] = resolve_map(self.options["map"])
        if self.options["suit_tiles"] not in SUIT_TILE_RULES:
            raise ValueError(
                f"suit_tiles={self.options['suit_tiles']!r} is not supported; "
                f"choose one of {list(SUIT_TILE_RULES)}"
            )
        hunters = self.num_players - 1
        if hunters > self.layout.max_hunters:
            raise ValueError(
                f"map {self.layout.name!r} has suit tiles for {self.layout.max_hunters} "
                f"hunter(s); num_players={self.num_players} needs {hunters}"
            )
        if self.layout.num_tiles > 24 - self.num_players:
            raise ValueError(
                f"map {self.layout.name!r} has {self.layout.num_tiles} map tiles; "
                f"num_players={self.num_players} leaves {24 - self.num_players} of a "
                f"piecepack's 24 tiles besides the {self.num_players} suit tiles"
            )
        if self.options["roles"] not in ("fixed", "random"):
            raise ValueError(f"roles={self.options['roles']!r} must be 'fixed' or 'random'")
        self.max_turns = self.options["max_turns"] = checks.integer(
            "max_turns", self.options["max_turns"], 1, checks.MAX_TURNS
        )
        self.random_roles = self.options["roles"] == "random"
        self.tables = kernel_tables(self.layout, self.options["suit_tiles"])
        self.S = self.layout.num_squares

    def config(self) -> AzureConfig:
        return AzureConfig(
            self.tables, np.int64(self.S), np.int64(self.max_turns), np.bool_(self.random_roles)
        )

    @property
    def agents(self) -> tuple[str, ...]:
        return ("monster", *(f"hunter_{k}" for k in range(self.num_players - 1)))

    def observation_shape(self, player: int = 0) -> tuple[int, ...]:
        return (K.NUM_PLANES, self.layout.height, self.layout.width)

    def observation_bounds(self, player: int = 0) -> tuple[int, int]:
        # Banked totals, coin counts and allowances all stay below 5 per coin.
        return 0, max(K.MONSTER_ALLOWANCE, 5 * self.layout.num_tiles)

    # ------------------------------------------------------------ state
    def blank_state(self, batch: int) -> AzureState:
        b, p, k = batch, self.num_players, self.layout.num_tiles
        return AzureState(
            pos=np.empty((b, p), np.int16),
            home=np.empty((b, p), np.int16),
            slot_owner=np.empty((b, 4), np.int8),
            order=np.empty((b, MAX_HUNTERS), np.int8),
            coin_value=np.empty((b, k), np.int8),
            coin_loc=np.empty((b, k), np.int16),
            player=np.empty(b, np.int8),
            steps=np.empty(b, np.int8),
            trail=np.empty((b, 8), np.int16),
            next_hunter=np.empty(b, np.int8),
            hunter_turns=np.empty(b, np.int8),
            turns=np.empty(b, np.int32),
            outcome=np.empty(b, np.int8),
            forced=np.empty((b, 2), np.int8),
            fight=np.empty((b, 5), np.int8),
            rng=np.empty(b, np.uint64),
        )

    def check_values(self, state) -> None:
        """Every value of every game in range and consistent (:mod:`azure_env.state_check`)."""
        from .state_check import check_values

        check_values(state, self)

    def state_from_diagram(
        self,
        text: str,
        to_move: str = "A",
        banked: dict[str, str] | None = None,
        steps_taken: str = "",
        order: str | None = None,
        monster_next: bool = False,
        seed: int = 0,
    ) -> AzureState:
        """A one-game state from a map diagram (:mod:`azure_env.diagram`).

        ``to_move`` is the letter of the agent whose turn it is (``M``, ``A``
        = hunter_0, ...), at the start of its turn unless ``steps_taken``
        lists the squares it already moved through this turn (``"d5 d6"``).
        ``banked`` gives each agent's banked coin values (``{"M": "53"}``).
        ``order`` is the hunters' turn order (``"BA"``; default A, B, C); the
        hunter after ``to_move`` in it plays next, or the monster with
        ``monster_next`` (``to_move`` is then the second hunter since the
        monster's turn). Coins the diagram does not show are out of the game
        (they count as banked by nobody). ``seed`` seeds the game's dice."""
        state = self.initial_state(np.array([seed], np.uint64))
        parsed = diagram.parse_map(text, self.layout)
        missing = [PIECE_LETTERS[p] for p in range(self.num_players) if p not in parsed.pos]
        extra = [PIECE_LETTERS[p] for p in parsed.pos if p >= self.num_players]
        if missing or extra:
            raise ValueError(
                f"the diagram needs exactly the pieces {PIECE_LETTERS[: self.num_players]}; "
                f"missing {missing}, extra {extra}"
            )
        S = self.S
        coins = [(v, s) for v, s in parsed.lying] + [(v, S + K.CARRIED + p) for v, p in parsed.carried]
        for letter, values in (banked or {}).items():
            coins += [(int(v), S + K.BANKED + player_of_letter(letter)) for v in values]
        if len(coins) > self.layout.num_tiles:
            raise ValueError(
                f"the diagram has {len(coins)} coins; the map {self.layout.name!r} has "
                f"{self.layout.num_tiles}"
            )
        coins += [(0, S + K.OUT)] * (self.layout.num_tiles - len(coins))
        state.coin_value[0] = [v for v, _ in coins]
        state.coin_loc[0] = [loc for _, loc in coins]
        for p, s in parsed.pos.items():
            state.pos[0, p] = s
        owners = parsed.slot_owner
        assert owners is not None  # parse_map reads every suit tile's owner
        owners[0] = 0 if owners[0] < 0 else owners[0]
        for p in range(1, self.num_players):  # hunters not shown on a tile keep the layout's
            if p not in owners:
                free = [k for k in range(1, 4) if owners[k] < 0 and self.layout.home[k] >= 0]
                owners[free[0]] = p
        state.slot_owner[0] = owners
        for k in range(4):
            if owners[k] >= 0:
                state.home[0, owners[k]] = self.layout.home[k]
        hunters = self.num_players - 1
        turn_order = [player_of_letter(c) for c in (order or PIECE_LETTERS[1 : 1 + hunters])]
        if sorted(turn_order) != list(range(1, hunters + 1)):
            raise ValueError(f"order={order!r} must list each hunter once")
        state.order[0] = turn_order + [0] * (MAX_HUNTERS - hunters)
        p = player_of_letter(to_move)
        state.player[0] = p
        if monster_next and p == K.MONSTER:
            raise ValueError("monster_next=True needs a hunter to move")
        state.next_hunter[0] = (turn_order.index(p) + 1) % hunters if p else 0
        state.hunter_turns[0] = int(monster_next)
        trail = [self.layout.parse(t) for t in steps_taken.split()]
        state.trail[0] = -1
        state.trail[0, 0] = trail[0] if trail else state.pos[0, p]
        for j, s in enumerate(trail[1:], start=1):
            state.trail[0, j] = s
        state.steps[0] = max(len(trail) - 1, 0)
        if trail and trail[-1] != state.pos[0, p]:
            raise ValueError(
                f"steps_taken must end on the piece's square {self.layout.name_of(int(state.pos[0, p]))}"
            )
        carried = int((state.coin_loc[0] == S + K.CARRIED + p).sum())
        if state.steps[0] >= K.allowance(p, carried):
            raise ValueError(
                f"{len(trail) - 1} squares moved: {to_move} carrying {carried} coin(s) "
                f"would have ended its turn"
            )
        return state

    # ------------------------------------------------------------ scores and infos
    def banked(self, state, i: int = 0) -> list[int]:
        """Each player's banked gold value."""
        loc, value = state.coin_loc[i], state.coin_value[i]
        return [int(value[loc == self.S + K.BANKED + p].sum()) for p in range(self.num_players)]

    def start_info(self, state) -> dict[str, Any]:
        return {
            "turn_order": [self.agents[int(p)] for p in state.order[0] if p > 0],
            "suit_tiles": {
                self.agents[int(q)]: self.layout.name_of(int(self.layout.home[k]))
                for k, q in enumerate(state.slot_owner[0])
                if q >= 0
            },
        }

    def final_info(self, state) -> list[dict[str, Any]]:
        scores = self.banked(state)
        hunters, monster = sum(scores[1:]), scores[0]
        table = dict(zip(self.agents, scores))
        best = max(scores[1:])
        top = [a for a, s in zip(self.agents[1:], scores[1:]) if s == best]
        if hunters != monster:
            winners = list(self.agents[1:]) if hunters > monster else ["monster"]
        else:
            winners = []
        return [
            {
                "score": s,
                "scores": table,
                "winners": winners,
                "turns": int(state.turns[0]),
                "hunters_total": hunters,
                "monster_total": monster,
                "top_hunter": top,
            }
            for s in scores
        ]

    # ------------------------------------------------------------ chance
    def _fight_of(self, state, action: int) -> tuple[int, int] | None:
        """(attacker, defender) if the actor's ``action`` steps onto a piece."""
        if action == STOP:
            return None
        p = int(state.player[0])
        there = self.tables[int(state.pos[0, p]) * 4 + action]
        for q in range(self.num_players):
            if q != p and there >= 0 and state.pos[0, q] == there:
                return p, q
        return None

    def chance_outcomes(self, state, action: int, merge: bool = True) -> list[ChanceOutcome]:
        """A step onto a piece rolls two dice (attacker's, then defender's).
        Merged outcomes are "attacker wins" / "defender wins" / "both go home"."""
        fight = self._fight_of(state, action)
        if fight is None:
            return []
        attacker, defender = fight

        def effect(draws):
            a, d = draws
            if attacker == K.MONSTER:
                result = K.ATTACKER_WINS if a >= d else K.DEFENDER_WINS
            elif defender == K.MONSTER:
                result = K.ATTACKER_WINS if a > d else K.DEFENDER_WINS
            else:
                result = K.BOTH_HOME if a == d else (K.ATTACKER_WINS if a > d else K.DEFENDER_WINS)
            return RESULT_WORDS[result]

        return dice_outcomes(K.DIE_FACES, 2, effect, merge)

    def force_draws(self, state, draws) -> None:
        force(state.forced[0], draws, K.DIE_FACES)

    def chance_info(self, state) -> dict[str, Any] | None:
        f = state.fight[0]
        if f[0] < 0:
            return None
        return {
            "fight": {
                "attacker": self.agents[f[0]],
                "defender": self.agents[f[1]],
                "rolls": [int(f[2]), int(f[3])],
                "result": RESULT_WORDS[int(f[4])],
            }
        }

    # ------------------------------------------------------------ notation
    def action_to_str(self, state, action: int) -> str:
        """``N``, ``E``, ``S``, ``W`` (one square that way) or ``stop``."""
        if not 0 <= action < self.num_actions:
            raise ValueError(f"action {action} is out of range [0, {self.num_actions})")
        return ACTION_NAMES[action]

    def str_to_action(self, state, text: str) -> int:
        words = {name.lower(): a for a, name in enumerate(ACTION_NAMES)}
        words.update({"north": 0, "east": 1, "south": 2, "west": 3})
        key = text.strip().lower()
        if key not in words:
            raise ValueError(f"{text!r} is not an action; write N, E, S, W or stop")
        return words[key]

    def diagram(self, state, i: int = 0) -> str:
        return diagram.to_diagram(state, self.layout, i)

    # ------------------------------------------------------------ rendering
    def render_ansi(self, state) -> str:
        return render.ansi(state, self)

    def picture(self, state, last: LastStep | None = None):
        """Game 0 drawn (:mod:`azure_env.picture`)."""
        return draw_picture(state, self, last)

    def action_targets(self, state, action: int) -> tuple[str, ...]:
        """The square a step goes to (``("c5",)``); ``()`` for ``stop`` and
        for a step off the grid."""
        if self.action_to_str(state, action) == "stop":
            return ()
        there = self.tables[int(state.pos[0, state.player[0]]) * 4 + action]
        return (self.layout.name_of(int(there)),) if there >= 0 else ()

    def legend(self) -> str:
        return LEGEND
