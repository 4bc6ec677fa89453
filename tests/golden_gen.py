"""Golden playthroughs (in the manner of OpenSpiel's playthrough files).

For each variant a fixed-seed game is played, the actions drawn by a seeded
``numpy`` Generator among the legal ones, and written out turn by turn: the
ansi board, the legal actions (index and notation), the action taken, the
rewards, and at the end the result. ``tests/test_golden.py`` plays the same
games again and diffs them against the files in ``tests/golden/``.

    python tests/golden_gen.py            # rewrite every file
    python tests/golden_gen.py 2p 3p      # only some variants

Regenerate only after a deliberate rule change (or a deliberate change of
the notation or the ansi board), and read the diff before committing it.
"""

from __future__ import annotations

import json
import sys
import textwrap
from pathlib import Path

import numpy as np

import azgames

GOLDEN_DIR = Path(__file__).resolve().parent / "golden"

#: variant -> (game, env arguments, seed of the env and of the action generator)
VARIANTS = {
    "connect_four": ("connect_four", {}, 0),
    "azacru_2p": ("azacru", {"num_players": 2}, 0),
    "azacru_3p": ("azacru", {"num_players": 3}, 0),
    "azacru_4p": ("azacru", {"num_players": 4}, 0),
    "azacru_classic": ("azacru", {"num_players": 2, "opening": "classic"}, 0),
    # Azimuth: random play rarely brings a castaway home, so each seed is the
    # first (of 3000) whose random game ends with a landing within 120 actions.
    "azimuth_2p": ("azimuth", {"num_players": 2}, 7),
    "azimuth_3p": ("azimuth", {"num_players": 3}, 1915),
    "azimuth_4p": ("azimuth", {"num_players": 4}, 930),
    "azimuth_4p_island": ("azimuth", {"num_players": 4, "island": True}, 81),
    # Azimuth co-op: random play never saves the team, so the games run their
    # rounds out; each seed is the first (of 400) whose game shows every die
    # face and, between them, the waves' order and a turtle swim.
    "azimuth_coop_2p": ("azimuth_coop", {"num_players": 2}, 6),
    "azimuth_coop_3p": ("azimuth_coop", {"num_players": 3}, 96),
    "azimuth_coop_4p": ("azimuth_coop", {"num_players": 4}, 104),
    "azimuth_coop_4p_random_back_first": (
        "azimuth_coop",
        {
            "num_players": 4,
            "lighthouses": "random",
            "first_player": "random",
            "wave_order": "back_first",
            "rounds": 12,
        },
        100,
    ),
    # Azure Attack: random play rarely banks everything, so the games are cut
    # short by the turn limit; each seed is the first whose game holds a fight
    # and a banking (3p and 4p: also a monster's win and a hunter's).
    "azure_2p": ("azure", {"num_players": 2, "max_turns": 40}, 29),
    "azure_3p": ("azure", {"num_players": 3, "max_turns": 30}, 1283),
    "azure_4p": ("azure", {"num_players": 4, "max_turns": 30}, 123),
    "azure_4p_ring": ("azure", {"num_players": 4, "map": "ring", "max_turns": 40}, 0),
    "azure_3p_long_random": (
        "azure",
        {"num_players": 3, "map": "long", "roles": "random", "max_turns": 40},
        3,
    ),
    # The book's rule 7 read literally (suit_tiles="literal"): the first seed
    # whose game also sets a piece on another player's suit tile.
    "azure_4p_literal": ("azure", {"num_players": 4, "suit_tiles": "literal", "max_turns": 40}, 103),
    # A map of the user's own, given as a dict (docs/rules/azure.md's example).
    "azure_3p_crossroads_random": (
        "azure",
        {
            "num_players": 3,
            "map": {
                "name": "crossroads",
                "tiles": [". . M . .", ". # # # .", "1 # . # 2", ". # # # .", ". . 3 . ."],
                "homes": {"M": "e9", "1": "b5", "2": "i6", "3": "f2"},
            },
            "roles": "random",
            "max_turns": 40,
        },
        0,
    ),
}


def golden_path(variant: str) -> Path:
    return GOLDEN_DIR / f"{variant}.txt"


def _fmt(x: float) -> str:
    return f"{x:+.4f}".rstrip("0").rstrip(".") if x else "0"


def playthrough(variant: str) -> str:
    """The golden text of ``variant``'s game."""
    game, kwargs, seed = VARIANTS[variant]
    env = azgames.make(game, render_mode="ansi", **kwargs)
    env.reset(seed=seed)
    u = env.unwrapped
    rng = np.random.default_rng(seed)
    agents = env.possible_agents
    out = [
        f"# Golden playthrough {variant}: written by `python tests/golden_gen.py`, checked by",
        "# tests/test_golden.py. Regenerate only after a deliberate rule change; review the diff.",
        f"game: {game}",
        f"arguments: {json.dumps(kwargs, sort_keys=True)}",
        f"options: {json.dumps(u.rules.options, sort_keys=True)}",
        f"seed: {seed} (env.reset(seed) and numpy.random.default_rng(seed).choice(legal actions))",
        f"agents: {', '.join(agents)}",
        f"num_actions: {env.action_space(agents[0]).n}",
        "",
    ]
    turn = 0
    while not (env.terminations[env.agent_selection] or env.truncations[env.agent_selection]):
        turn += 1
        agent = env.agent_selection
        legal = u.legal_actions()
        out.append(f"=== turn {turn}: {agent} ===")
        out.append(env.render().rstrip("\n"))
        listing = " ".join(f"{a}={u.action_to_str(a)}" for a in legal)
        out.append(f"legal ({len(legal)}):")
        out.extend(textwrap.wrap(listing, 100, initial_indent="  ", subsequent_indent="  "))
        a = int(rng.choice(legal))
        out.append(f"action: {a} = {u.action_to_str(a)}")
        env.step(a)
        out.append("rewards: " + " ".join(f"{b}={_fmt(env.rewards[b])}" for b in agents))
        chance = env.infos[env.agent_selection].get("chance")
        if chance:
            out.append(f"chance: {json.dumps(chance, sort_keys=True)}")
        out.append("")
    out.append("=== result ===")
    out.append(env.render().rstrip("\n"))
    out.append("terminated: " + " ".join(f"{b}={env.terminations[b]}" for b in agents))
    out.append("truncated: " + " ".join(f"{b}={env.truncations[b]}" for b in agents))
    out.append("rewards: " + " ".join(f"{b}={_fmt(env.rewards[b])}" for b in agents))
    for b in agents:
        out.append(f"info {b}: {json.dumps(env.infos[b], sort_keys=True)}")
    return "\n".join(out) + "\n"


def main(argv: list[str]) -> None:
    names = argv or list(VARIANTS)
    unknown = [n for n in names if n not in VARIANTS and f"azacru_{n}" not in VARIANTS]
    if unknown:
        raise SystemExit(f"unknown variant(s) {unknown}; known: {', '.join(VARIANTS)}")
    GOLDEN_DIR.mkdir(exist_ok=True)
    for name in names:
        variant = name if name in VARIANTS else f"azacru_{name}"
        path = golden_path(variant)
        path.write_text(playthrough(variant))
        print(f"wrote {path}")


if __name__ == "__main__":
    main(sys.argv[1:])
