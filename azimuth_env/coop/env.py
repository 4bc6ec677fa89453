"""
# Azimuth co-op with the Ocean Die

| Import               | `azimuth_env.coop_env()` or `azgames.make("azimuth_coop")`  |
|----------------------|-------------------------------------------------------------|
| Actions              | Discrete(420)                                               |
| Parallel API         | No (AEC); batched `azimuth_env.coop.VectorEnv`              |
| Agents               | `['player_0', ..., 'player_{n-1}']`, n = 2-4, one team      |
| Observation shape    | (72, 6, 6) int8                                             |
| Observation values   | [-1, max(6, rounds)]                                        |
| Chance               | explicit: the Ocean Die (`chance_outcomes`, `step_outcome`) |

The team saves all four castaways before the ocean takes them: Azimuth's
sailing, stacking and landing rules, always with the four colours (red S,
black W, blondie N, blue E), each with 6 rafts and 4 winds and no coconuts
(wind control is free). After the four colours' turns of a round, the colour
holding the first-player marker rolls the Ocean Die: sunny, mermaid (the
castaways in its ocean portion sleep through the next round), a wave away
from or towards its side (its bottom rafts carry their stacks one leg, over
the whole board), a gust (its winds in its portion and the opposite colour's
in theirs turn round) or the sea turtle (one castaway in its portion may swim
two legs straight next round). The marker then passes clockwise. The team
wins the moment the fourth castaway is home and loses when `rounds` rounds
have passed. The rules as implemented, the layout, the portions and every
open point with the choice made: `docs/rules/azimuth-coop.md`.

With 4 players each plays one colour; with 3, player_0 plays red and blondie
(opposite sides); with 2, player_0 plays red and blondie and player_1 black
and blue. Turns go by colour, four to a round, so an agent playing two colours
acts twice a round; `infos[agent]["colours"]` lists its colours.

## Arguments

``` python
azimuth_env.coop_env(num_players=2, render_mode=None, illegal_action="raise", infos="full",
                     rounds=10, lighthouses="choose", first_player="red",
                     wave_order="choose")
```

- `render_mode`, `illegal_action` and `infos`: as in the base game
  (`azimuth_env.env`).
- `rounds`: the team loses after this many rounds (1-100; the book's 10).
- `lighthouses`: `"choose"` (each colour places a 2-spot beach on its own
  side, from the first colour clockwise, as the game's first actions),
  `"random"` (drawn at set-up from the seed), or one beach per colour in
  colour order, e.g. `["c1-d1", "a3-a4", "c6-d6", "f3-f4"]`.
- `first_player`: the colour that places first, plays first every round and
  rolls in round 1 (`"red"`, ..., or `"random"`, drawn from the seed).
- `wave_order`: `"choose"` (when the order of a wave's moves matters, the
  roller's agent orders them with `wave` actions), `"front_first"` or
  `"back_first"` (fixed orders, for agents that should not learn it).

## Observation space

`{"observation": Box(-1, H, (72, 6, 6), int8), "action_mask": Box(0, 1, (420,), int8)}`.
Planes 0-48 are the base game's for 4 colours (see `azimuth_env`), seen from
the colour to act (an agent not to act sees from its first colour) and turned
so that its beach is at the bottom; colour `q` is counted from that colour.
Then:

| planes    | where      | meaning                                                        |
|-----------|------------|----------------------------------------------------------------|
| 49 + q    | everywhere | colour `q` is played by the viewer's agent                      |
| 53 + q    | everywhere | castaway `q` is home                                            |
| 57        | points     | a sleeping castaway stands here (the mermaid)                   |
| 58        | points     | the sea turtle's portion, while its offer is unused             |
| 59 + f    | everywhere | the last face rolled was `f` (sunny, mermaid, wave away, wave towards, gust, turtle) |
| 65        | points     | the portion of this round's roller (the next roll's)            |
| 66        | everywhere | rounds left, this one included                                  |
| 67        | everywhere | colour turns left in this round before the roll                 |
| 68        | everywhere | the team is ordering a wave's moves                             |
| 69, 70    | everywhere | that wave's direction as (east, north) in the view              |
| 71        | points     | wave candidates yet to move                                     |

## Action space

The base game's 4-player numbering (20 beach positions, 100 placements, 50
turns, 200 moves, 4 boards, home, 4 swims, pass: 0-379), in the acting
colour's view, then

| actions      | notation   | meaning                                                        |
|--------------|------------|----------------------------------------------------------------|
| 380 + d      | `turtle N` | swim exactly two legs straight with the sea turtle             |
| 384 + p      | `wave c3`  | while ordering a wave: the candidate raft on point `p` moves next |

## Rewards

Cooperative (`GameInfo.utility == "identical"`): every agent gets +1 when the
fourth castaway lands and -1 when the rounds run out; 0 on every other step.
`infos` at the end hold `score` (castaways home), `home`, `winners` (every
agent on a win), `rounds`, `turns` and `colours`; a step that rolled the die
reports `infos[agent]["chance"]["die"]` (face and roller).

## Version history

- v0: the first release; the envs named themselves `azimuth_coop_v0` in
  `metadata["name"]`, and no version was checked.
- v1: the first versioned release (`azimuth_coop_v1`): `azgames.make` refuses
  any version but the current one, and game records and benchmark results
  carry the version. The rules and observations are v0's.
"""

from __future__ import annotations

from azgames.core.envs import game_envs

from .rules import CoopRules

raw_env, env, VectorEnv = game_envs(CoopRules, __name__)
