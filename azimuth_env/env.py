"""
# Azimuth

| Import               | `import azimuth_env` or `azgames.make("azimuth")`         |
|----------------------|-----------------------------------------------------------|
| Actions              | Discrete                                                  |
| Parallel API         | No (AEC); batched `azimuth_env.VectorEnv`                 |
| Manual control       | No                                                        |
| Agents               | `agents = ['player_0', ..., 'player_{n-1}']`, n = 2-4      |
| Action shape         | (1,)                                                      |
| Action values        | Discrete(465) with 2 players, Discrete(369) with 3, Discrete(376) with 4 |
| Observation shape    | (11n + 5, 6, 6) int8: (27, 6, 6), (38, 6, 6), (49, 6, 6)   |
| Observation values   | [-1, 6] with 2-3 players, [-1, 5] with 4                  |

Azimuth: Ride the Winds (Sharon Katz and Lior Keinan, Tyto Games). Castaways
sail rafts home across a 6 x 6 grid of raft points. Each player places wind
tokens on the 5 x 5 marks between the points; a wind sails the rafts of its
colour at its four corners one leg downwind, and rafts stack. Once all of a
player's winds are placed, they may turn or move them, and turn other
players' winds next to their rafts ("wind control"). A castaway boards rafts
of its colour from the island's shallows, swims between them, and wins when
a wind (of any colour) pushes its raft from one of its landing spots onto its
beach. The full rules as implemented, the layouts, and every choice the rule
book leaves open are in `docs/rules/azimuth.md`.

Players are coloured red (player_0, `R`), black (`K`), blondie (`Y`) and
blue (`B`). Lighthouses are placed in reverse seat order; player_0 places
last and moves first.

## Arguments

``` python
azimuth_env.env(num_players=2, render_mode=None, illegal_action="raise", infos="full",
                island=False, coconuts=None, lighthouses="choose", max_turns=400)
```

- `num_players`: 2, 3 or 4.
- `render_mode`: `None`, `"ansi"` (text sea), `"human"` (the same text printed) or `"rgb_array"` (image).
- `illegal_action`: `"raise"` raises `ValueError` naming the action and why it
  is illegal; `"penalize"` ends the game with -1 for the offender, 0 for the
  others, and the reason in `infos[agent]["illegal_action"]`.
- `infos`: `"full"` (the game's own infos) or `"numeric"` (fixed keys and
  shapes for clients that batch infos, such as TorchRL and Tianshou; the
  full ones stay in `env.game_infos`).
- `island`: with 4 players, put the island in the middle as a landing place
  midway home (the castaways still start adrift on their fifth raft).
- `coconuts`: limit wind control to 4 turns of other players' winds each.
  `None` (default) follows the book: on with 3-4 players, off with 2.
- `lighthouses`: `"choose"` (the players place their beaches as the game's
  first actions), `"random"` (placed at set-up from the game's seed), or one
  beach per player in seat order, e.g. `["a1-b1", "d1-e1"]`.
- `max_turns`: the game is truncated (rewards 0) after this many actions
  (lighthouse placements included).

## Observation space

`{"observation": Box(-1, H, (C, 6, 6), int8), "action_mask": Box(0, 1, (A,), int8)}`
(`H` = 6 with 2-3 players, 5 with 4: the most rafts of a colour or winds in hand),
channels first (as OpenSpiel's tensors and PyTorch's convolutions have them).
`observation[c, y, x]` is seen from the acting player's side: the sea is
turned so that its beach (before it has one, its side of the board) is at the
bottom. Cell `(y, x)` is the raft point in row `y`, column `x` of that view,
and also the wind mark whose south-west corner that point is (marks use
`y, x < 5`). Player `q` below is counted from the viewer (0: the viewer, 1:
the next to play, ...), for rafts, winds and castaways alike:

| planes                     | where      | meaning                                                     |
|----------------------------|------------|-------------------------------------------------------------|
| `l n + q`, l = 0, 1, 2     | points     | the raft `l` places below the top of the stack is colour `q` |
| `3n + q`                   | points     | number of colour-`q` rafts in the stack (any depth)          |
| `4n + q`                   | points     | castaway `q` stands here                                    |
| `5n + q`                   | everywhere | castaway `q` is on the island                               |
| `6n`                       | marks      | the island                                                  |
| `6n + 1 + q`               | points     | landing spots of player `q`'s beach                          |
| `7n + 1 + q`               | marks      | a wind of colour `q`                                        |
| `8n + 1`                   | marks      | that wind is the viewer's own (it placed it)                 |
| `8n + 2`, `8n + 3`         | marks      | the wind's direction as (east, north) components in the view |
| `8n + 4 + q`               | everywhere | winds of its own colour player `q` still holds               |
| `9n + 4 + q`               | everywhere | winds of the other colour player `q` still holds (2 players) |
| `10n + 4 + q`              | everywhere | coconuts player `q` has left                                 |
| `11n + 4`                  | everywhere | ones while the lighthouses are being placed                  |

Stacks are shown to depth 3 one raft at a time, and in full as colour counts.
The mask is 1 for each legal action of the acting player (all zeros for
anyone else, and once the game is over).

## Action space

Actions are numbered in the acting player's view, like the observation (with
2 players every view is the board itself), so one policy serves every seat;
`env.unwrapped.action_to_str(action)` and `str_to_action(text)` translate
to board coordinates. With `B` beach positions and `S` wind colours held
(2 with 2 players, else 1):

| actions                               | notation         | meaning                                      |
|---------------------------------------|------------------|----------------------------------------------|
| `b` (< B)                             | `beach a1-b1`    | place your lighthouse: its landing spots      |
| `B + (m 4 + d) S + s`                 | `place R c3 E`   | place a wind of colour slot `s` on mark `m`, blowing `d` (N E S W) |
| `B + 100 S + 2 m + k`                 | `turn c3 cw`     | turn the wind on `m` clockwise (k 0) or anticlockwise (k 1) |
| `B + 100 S + 50 + 8 m + k`            | `move c3 NE`     | move your wind on `m` one mark towards compass point `k` (N, NE, ... NW) |
| `B + 100 S + 250 + k`                 | `board c4`       | board the raft on the island's `k`-th shallow point |
| `B + 100 S + 254`                     | `home`           | return from the shallows to the island        |
| `B + 100 S + 255 + d`                 | `swim N`         | swim one leg to a raft of your colour          |
| `B + 100 S + 259`                     | `pass`           | only when nothing else is legal               |

Marks are named a1-e5 and points a1-f6, a1 in the south-west corner.

## Rewards

The first castaway home wins: +1 to its player and -1 to every other player
(zero-sum with 2 players). Castaways landed by one wind share the win; all of
them: a draw. A truncated game gives 0 to all. `infos[agent]`
at the end holds `score` (1 for the winner), `scores`, `winners`, `turns`
and `colour`.

## Version history

- v0: the first release; the envs named themselves `azimuth_v0` in
  `metadata["name"]`, and no version was checked.
- v1: the first versioned release (`azimuth_v1`): `azgames.make` refuses any
  version but the current one, and game records and benchmark results carry
  the version. The rules and observations are v0's.
"""

from __future__ import annotations

from azgames.core.envs import game_envs

from .rules import AzimuthRules

raw_env, env, VectorEnv = game_envs(AzimuthRules, __name__)
