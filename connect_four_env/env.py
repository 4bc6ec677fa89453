"""
# Connect Four

| Import               | `import connect_four_env` or `azgames.make("connect_four")` |
|----------------------|--------------------------------------------------------------|
| Actions              | Discrete                                                     |
| Parallel API         | No (AEC); batched `connect_four_env.VectorEnv`               |
| Agents               | `agents = ['player_0', 'player_1']`                          |
| Action values        | Discrete(7): action i drops a stone in column i, 0 the leftmost |
| Observation shape    | (2, 6, 7) int8                                               |
| Observation values   | [0, 1]                                                       |

Two players drop stones into a 6 x 7 board standing upright; a stone falls
to the lowest free cell of its column. Four of a player's stones in a row,
across, up or diagonally, win; a full board is a draw. player_0 moves first.
The rules as implemented: `docs/rules/connect_four.md`. It is the suite's
worked example of the kernel contract (`azgames/core/contract.py`): the rules are
five numba functions in `connect_four_env/rules.py`, every entry point the
core's.

## Arguments

``` python
connect_four_env.env(num_players=2, render_mode=None, illegal_action="raise", infos="full")
```

## Observation space

`{"observation": Box(0, 1, (2, 6, 7), int8), "action_mask": Box(0, 1, (7,), int8)}`:
plane 0 the viewer's stones, plane 1 the other player's, row 0 the top
row of the board as it stands (PettingZoo's `connect_four_v3` with its
channels first). The mask marks the columns with a free cell.

## Rewards

+1 to the player who connects four, -1 to the other; 0 each on a draw.

## Version history

- v1: first release.
"""

from azgames.core.envs import game_envs

from .rules import ConnectFourRules

raw_env, env, VectorEnv = game_envs(ConnectFourRules, __name__)
