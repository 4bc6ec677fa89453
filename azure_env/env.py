"""
# Azure Attack

| Import               | `import azure_env` or `azgames.make("azure")`              |
|----------------------|-----------------------------------------------------------|
| Actions              | Discrete                                                  |
| Parallel API         | No (AEC); batched `azure_env.VectorEnv`                   |
| Manual control       | No                                                        |
| Agents               | `agents = ['monster', 'hunter_0', ..., 'hunter_{n-2}']`, n = 2-4 |
| Action shape         | (1,)                                                      |
| Action values        | Discrete(5): N, E, S, W, stop                             |
| Observation shape    | (21, H, W) int8: (21, 12, 6) on the standard map          |
| Observation values   | [0, 5 K], K map tiles (60 on the standard map)            |

Azure Attack (William Clark), a piecepack game. One monster and up to three
hunters race over a map of 12 tiles (2 x 2 squares each) to carry gold coins
home to their own suit tiles. Every step is one action; a turn is several
steps, up to 6 squares for the monster and 4 for a hunter, 2 fewer for each
coin carried (at least 1), never re-entering a square. Stepping onto another
piece is an attack: both roll a piecepack die (0-5), higher wins, ties go to
the monster (between hunters, both go home); the loser drops its gold where
it stood and goes home, and a monster that wins at once takes an extra turn.
When every coin is banked the side with more banked gold wins. The full rules
as implemented, the maps, and every choice the rule book leaves open are in
`docs/rules/azure.md`.

Turn order: two hunter turns, then the monster's; the hunters rotate
(hunter_0, hunter_1, monster, hunter_2, hunter_0, monster, ...). Within a
turn the same agent acts until it stops, runs out of squares, banks gold or
fights. `infos[agent]["turn_order"]` gives the hunters' order and
`infos[agent]["suit_tiles"]` each agent's home square.

## Arguments

``` python
azure_env.env(num_players=2, render_mode=None, illegal_action="raise", infos="full",
              map="standard", roles="fixed", max_turns=300, suit_tiles="closed")
```

- `num_players`: 2, 3 or 4 (one monster and 1-3 hunters).
- `render_mode`: `None`, `"ansi"` (text map), `"human"` (the same text printed) or `"rgb_array"` (image).
- `illegal_action`: `"raise"` raises `ValueError` naming the action and why it
  is illegal; `"penalize"` ends the game with -1 for the offender, 0 for the
  others, and the reason in `infos[agent]["illegal_action"]`.
- `infos`: `"full"` (the game's own infos) or `"numeric"` (fixed keys and
  shapes for clients that batch infos, such as TorchRL and Tianshou; the
  full ones stay in `env.game_infos`).
- `map`: `"standard"` (3 x 4 tiles), `"long"` (3 x 5) or `"ring"` (12 tiles
  around a lake), the maps in `azure_env/data/maps.json`; or a map of your
  own (the bonus rules allow any arrangement): a text diagram, a dict, or the
  path of a JSON or text file holding one. It is checked before play, and a
  game's options (and records) keep the map itself. The format, with an
  example: `docs/rules/azure.md`, "A map of your own".
- `roles`: `"fixed"` (hunter_0 moves first and sits on suit tile 1) or
  `"random"` (the set-up roll: the hunters' turn order and suit tiles are
  drawn from the game's seed).
- `max_turns`: the game is truncated after this many turns (each agent's
  turn, extra turns included); banked gold then decides as at the end.
- `suit_tiles`: `"closed"` (nobody enters another player's suit tile) or
  `"literal"` (rule 7 to the letter: only hunters are barred from each
  other's tiles, so the monster may raid the hunters' tiles and the hunters
  the monster's; home squares stay their owner's).

## Observation space

`{"observation": Box(0, 5K, (21, H, W), int8), "action_mask": Box(0, 1, (5,), int8)}`,
channels first. `observation[c, y, x]` is square `(x, y)` of the map, `y = 0`
the south edge (row 1, the hunters' end) and `x = 0` the west edge (column
a); the map is not turned. Planes are seen from the observing agent: allies
are the other hunters for a hunter and none for the monster.

| plane   | where      | meaning                                                        |
|---------|------------|----------------------------------------------------------------|
| 0       | squares    | the observer's own piece                                       |
| 1       | squares    | allied pieces                                                  |
| 2       | squares    | enemy pieces                                                   |
| 3       | squares    | coins carried by the piece on this square (any side)           |
| 4       | squares    | value of the gold carried by the piece on this square          |
| 5 + v   | squares    | coins of value `v` (0-5) lying on the square                   |
| 11      | squares    | map squares (tiles of the map)                                 |
| 12      | squares    | the observer's suit tile                                       |
| 13      | squares    | allies' suit tiles                                             |
| 14      | squares    | enemies' suit tiles                                            |
| 15      | squares    | squares the acting piece has visited this turn                 |
| 16      | squares    | the acting piece                                               |
| 17      | squares    | the piece that takes the next turn                             |
| 18      | everywhere | squares the acting piece may still move this turn              |
| 19      | everywhere | gold banked by the observer's side                             |
| 20      | everywhere | gold banked by the other side                                  |

The mask is 1 for each legal action of the acting agent (all zeros for anyone
else, and once the game is over). `stop` is always legal.

## Action space

| action | notation | meaning                                                    |
|--------|----------|------------------------------------------------------------|
| 0-3    | `N` `E` `S` `W` | step one square that way (onto a piece: attack it)   |
| 4      | `stop`   | end the turn here                                          |

## Explicit chance

Fights are the only chance events after set-up. `env.chance_outcomes(action)`
lists what an attacking step may lead to ("attacker wins", "defender wins",
"both go home") with probabilities, and `env.step_outcome(action, outcome)`
plays it with that outcome forced: a search agent branches on clones.
`infos[agent]["chance"]["fight"]` reports every fight's rolls and result.

## Rewards

Team rewards at the end: +1 to every agent of the side with more banked gold
(the hunters' total against the monster's), -1 to the other side, 0 to all
on equal totals. The same holds at the turn limit (flagged as truncation).
Zero-sum with 2 players. `infos[agent]` at the end holds `score` (its banked
gold), `scores`, `winners`, `hunters_total`, `monster_total`, `top_hunter`
and `turns`.

## Version history

- v0: the first release; the envs named themselves `azure_v0` in
  `metadata["name"]`, and no version was checked.
- v1: the first versioned release (`azure_v1`): `azgames.make` refuses any
  version but the current one, and game records and benchmark results carry
  the version. The rules and observations are v0's.
"""

from __future__ import annotations

from azgames.core.envs import game_envs

from .rules import AzureRules

raw_env, env, VectorEnv = game_envs(AzureRules, __name__)
