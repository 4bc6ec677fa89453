"""
# Azacru

| Import               | `import azacru_env` or `azgames.make("azacru")`      |
|----------------------|------------------------------------------------------|
| Actions              | Discrete                                             |
| Parallel API         | No (AEC); batched `azacru_env.VectorEnv`             |
| Manual control       | No                                                   |
| Agents               | `agents = ['player_0', ..., 'player_{n-1}']`, n = 2-4 |
| Action shape         | (1,)                                                 |
| Action values        | Discrete(289) with 2 players, Discrete(217) with 3-4 |
| Observation shape    | (K + 3n + 1, 9, 9) int8: (11, 9, 9), (13, 9, 9), (16, 9, 9) |
| Observation values   | [-1, 1]                                              |

Azacru (Mike Wellman, 2005) is played on a 9 x 9 board of fields split into
nine 3 x 3 borderlands. Each player moves chevron-shaped pieces; a piece moves
straight ahead or 45 degrees to either side, as far as its *power of
movement* (its owner's tiles in the borderland it starts in, at least 1), and
the field it lands on turns its owner's colour. Long moves between two of your
own tiles are *connections*: they recolour the fields between (and cost the
piece if that changes another player's tile) or, with pieces in between,
jump them. The game ends one round after a player cannot move; most tiles
wins. The full rules as implemented, with every choice the rule book leaves
open, are in `docs/rules/azacru.md`.

## Arguments

``` python
azacru_env.env(num_players=2, render_mode=None, illegal_action="raise", infos="full",
               opening="standard", max_turns=1000)
```

- `num_players`: 2, 3 or 4. With 2 players each has 4 pieces, otherwise 3.
- `render_mode`: `None`, `"ansi"` (text board), `"human"` (the same text printed) or `"rgb_array"` (the picture,
  `env.picture()`, as an image).
- `illegal_action`: `"raise"` raises `ValueError` naming the action and why it
  is illegal; `"penalize"` ends the game with -1 for the offender, 0 for the
  others, and the reason in `infos[agent]["illegal_action"]`.
- `infos`: `"full"` (the game's own infos) or `"numeric"` (fixed keys and
  shapes for clients that batch infos, such as TorchRL and Tianshou; the
  full ones stay in `env.game_infos`).
- `opening`: `"standard"` (the Pacru openings) or, with 2 players, `"classic"`
  (the older published 2-player opening).
- `max_turns`: the game is truncated (rewards 0) after this many turns (one
  player's move or pass each), since pieces can circle over their own tiles forever.

## Observation space

`{"observation": Box(-1, 1, (C, 9, 9), int8), "action_mask": Box(0, 1, (A,), int8)}`.
`observation[c, y, x]`, channels first as in every game (version 1 had them
last, `(9, 9, C)`): `x` is the column (a-i, west to east), `y` the row
minus one (1-9, south to north); the board is not rotated. With `K` pieces
per player and `n` players, from the acting player's side:

| planes                  | meaning                                                       |
|-------------------------|---------------------------------------------------------------|
| `0 .. K-1`              | own piece in slot `k` (the slot that actions name)             |
| `K + 3q`                | tiles of player `q` places after the viewer (q = 0: own)      |
| `K + 3q + 1`, `+ 2`     | that player's pieces: facing as (east, north) components, each in {-1, 0, 1}; never both 0 where a piece stands, both 0 elsewhere |
| `K + 3n`                | all ones once the final round has begun                        |

The mask is 1 for each legal action of the acting player (all zeros for
anyone else, and once the game is over).

## Action space

`Discrete(72 K + 1)`. Action `((slot * 3 + turn) * 8 + distance - 1) * 3 + twist`
moves the piece in `slot` `distance` fields (1-8) straight ahead (`turn` 0),
45 degrees left (1) or right (2) of its facing, and leaves it facing the way
it moved (`twist` 0) or, after crossing a border, twisted 45 degrees left (1)
or right (2). The last action, `72 K`, is the pass, legal only when no piece
can move. Every distinct legal (field, destination, final facing) has exactly
one action. Notation (`env.unwrapped.action_to_str` / `str_to_action`):
`from-to:facing`, e.g. `a3-b4:NE`, and `pass`.

## Rewards

At the end, each player gets the mean over the other players of +1 (more
tiles than that player), 0 (as many) or -1 (fewer): with 2 players +1 / -1,
and 0 for a tie; with 3-4 players a sole winner gets +1 and a sole loser -1.
Rewards sum to zero. A truncated game gives 0 to all. `infos[agent]` at the
end holds `score`, `scores` (tiles per agent), `winners` and `turns`.

## Version history

- v0: the first release; the envs named themselves `azacru_v0` in
  `metadata["name"]`, and no version was checked.
- v1: the first versioned release (`azacru_v1`): `azgames.make` refuses any
  version but the current one, and game records and benchmark results carry
  the version. The rules and observations are v0's.
- v2: the observation is channels first, `(C, 9, 9)`, as every game's (v1
  gave `(9, 9, C)`); the rules are v1's.
"""

from __future__ import annotations

from azgames.core.envs import game_envs

from .rules import AzacruRules

raw_env, env, VectorEnv = game_envs(AzacruRules, __name__)
