"""Random playouts of the co-op mode (Ocean Die), checked after every step.

Vector env (:func:`test_vector_playouts`): a few hundred random games per
variant (2, 3, 4 players; lighthouses random or fixed; first colour random;
waves front first / back first; 3 rounds), random legal actions drawn in
numba. After every step a numba checker (:mod:`.check_kernels`) checks every
game:

- each colour keeps its 6 rafts on the board; stacks are well formed;
- castaways are on the island, home, or on a top raft of their colour, one
  per point; all four home only when the game ends;
- each colour holds 4 winds in hand and on the board together, of its own
  colour and owned by it, off the island; only the actor places one; no
  coconuts;
- beaches lie on their colour's side without a shared landing spot, placed
  from the first colour clockwise;
- turns go clockwise from the first colour, four a round; the roller of
  round r is first + r - 1; the die is rolled exactly after a round's fourth
  turn (never after the last round's), and ``face`` keeps the last roll;
- a wave sub-phase only right after a wave face, the roller to act, in the
  face's direction, its pending candidates bottom rafts of the roller's
  colour, fewer after each choice (never with a fixed ``wave_order``);
- castaways asleep exactly those on points of the roller's portion right
  after a mermaid, and only then; a sea turtle on offer only after a turtle
  face, in the last roller's portion, until used;
- the mask offers something, pass only alone, only wave choices (exactly
  the pending candidates) while ordering waves, only beaches while the
  lighthouses go down, no turtle swim without a turtle, no castaway action
  for a sleeping castaway's colour;
- rewards are identical for every agent: 0 during the game, +1 when the
  fourth castaway lands (each castaway not yet home stood on a landing
  spot), -1 right after the last round's fourth turn and only then; never
  truncated; ``ply`` counts the steps, and no game runs longer than its
  lighthouses, 4 turns a round and 6 wave choices a roll; a finished game
  restarts from a fresh set-up.

In a few games per step a sample of masked actions must be legal for
``rules.illegal_reason`` and a sample of the others illegal. Some games are
put, now and then, one move from the win (three castaways home) and play
the winning move, so the win is checked in the vector env too.

AEC env (:func:`test_aec_playouts`): whole random games through
``env.step``, the same checks on every step, ``illegal_reason(action) is
None`` exactly for the masked actions (every action every few turns, else
the masked ones and a sample), ``chance_outcomes`` non-empty exactly for the
steps that roll, the die in the infos, and the final rewards and infos.
"""

from __future__ import annotations

import numpy as np
import pytest

from azgames.core import state as state_ops
from azimuth_env import coop as coop_module
from azimuth_env.board import COLOUR_NAMES
from azimuth_env.coop.rules import FACE_NAMES
from tests.azimuth.helpers import numba_threads
from tests.azimuth_props.test_playouts import check_sampled_actions

from . import check_kernels as C
from .helpers import describe, near_win, winning_actions

VARIANTS = {
    "2p": (2, {}),
    "3p": (3, {}),
    "4p": (4, {}),
    "4p-random-lighthouses": (4, {"lighthouses": "random"}),
    "2p-random-first": (2, {"first_player": "random"}),
    "4p-front-first": (4, {"wave_order": "front_first", "first_player": "blondie"}),
    "3p-back-first": (3, {"wave_order": "back_first", "lighthouses": "random", "first_player": "random"}),
    "4p-rounds-3": (4, {"rounds": 3, "lighthouses": "random", "first_player": "random"}),
    "2p-fixed-lighthouses": (
        2,
        {"lighthouses": ["a1-b1", "a3-a4", "e6-f6", "f2-f3"], "first_player": "black"},
    ),
}
DEFAULT_GAMES = 500
SLOW_GAMES = 20_000


def _failure(venv, prev, actions, err, detail, finished) -> str:
    i = int(np.flatnonzero(err)[0])
    code = int(err[i])
    before = state_ops.select(prev, i)
    text = (
        f"{int((err != 0).sum())} game(s) failed; game {i}: {C.MESSAGES[code]} "
        f"[code {code}, detail {int(detail[i])}]\n"
    )
    if actions is not None:
        a = int(actions[i])
        text += (
            f"action {a} = {venv.rules.action_to_str(before, a)} by colour "
            f"{int(before.colour[0])}{' (game ended and restarted)' if finished[i] else ''}\n"
            f"before:\n{describe(venv.rules, before)}\n"
        )
    return text + f"after:\n{describe(venv.rules, venv.game(i))}"


def run_checked_playout(
    num_players,
    options,
    games,
    num_envs=256,
    seed=0,
    max_steps=None,
    sample_games=2,
    sample_actions=4,
    near_wins_every=3,
):
    """Random games in a vector env until ``games`` have finished, checking
    every step; every ``near_wins_every`` steps (0: never) one game is put
    one move from the win and plays it. Returns a dict of counts."""
    venv = coop_module.VectorEnv(num_envs=num_envs, seed=seed, num_players=num_players, **options)
    rules = venv.rules
    params, tables = C.make_params(rules)
    rng = np.random.default_rng(seed)
    n = num_envs
    err = np.zeros(n, np.int64)
    detail = np.zeros(n, np.int64)
    game_len = np.zeros(n, np.int64)
    stats = {
        "games": 0,
        "won": 0,
        "lost": 0,
        "steps": 0,
        "wave sub-phase steps": 0,
        "rolls": 0,
        "near wins played": 0,
        "masked actions validated": 0,
        "unmasked actions refused": 0,
    }
    obs, mask = venv.reset()
    player = rules.controller[venv.state.colour].astype(np.int64)
    bad = C.check_positions(venv.state, mask, player, params, tables, err, detail)
    assert bad == 0, _failure(venv, venv.state, None, err, detail, None)
    while stats["games"] < games and (max_steps is None or stats["steps"] < max_steps):
        actions = venv.random_actions()
        if near_wins_every and stats["steps"] % near_wins_every == near_wins_every - 1:
            i = int(rng.integers(n))
            close = near_win(rules, venv.game(i), rng)
            wins = winning_actions(rules, close) if close is not None else []
            if wins:
                venv.set_game(i, close)
                actions[i] = wins[int(rng.integers(len(wins)))]
                stats["near wins played"] += 1
        prev = state_ops.clone(venv.state)
        obs, mask, rewards, term, trunc, player = venv.step(actions)
        stats["steps"] += 1
        s = venv.state
        stats["wave sub-phase steps"] += int((prev.wave >= 0).sum())
        stats["rolls"] += int((s.rolled >= 0).sum())
        bad = C.check_batch(
            prev, s, mask, rewards, term, trunc, player, game_len, params, tables, err, detail
        )
        assert bad == 0, _failure(venv, prev, actions, err, detail, term | trunc)
        if sample_games:
            check_sampled_actions(rules, venv, mask, rng, sample_games, sample_actions, stats)
        if term.any():
            stats["games"] += int(term.sum())
            stats["won"] += int((term & (rewards[:, 0] == 1.0)).sum())
            stats["lost"] += int((term & (rewards[:, 0] == -1.0)).sum())
    return stats


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_vector_playouts(variant):
    num_players, options = VARIANTS[variant]
    # One numba thread: on two busy cores each parallel call can wait
    # milliseconds for a descheduled worker.
    with numba_threads(1):
        stats = run_checked_playout(num_players, options, DEFAULT_GAMES, seed=sum(map(ord, variant)))
    print(f"\n{variant}: {stats}")
    assert stats["games"] >= DEFAULT_GAMES
    assert stats["lost"] > 0 and stats["won"] > 0, stats
    assert stats["rolls"] > 0
    if options.get("wave_order", "choose") == "choose":
        assert stats["wave sub-phase steps"] > 0, stats
    else:
        assert stats["wave sub-phase steps"] == 0, stats


@pytest.mark.slow
@pytest.mark.parametrize("variant", list(VARIANTS))
def test_vector_playouts_many(variant):
    num_players, options = VARIANTS[variant]
    stats = run_checked_playout(
        num_players,
        options,
        SLOW_GAMES,
        num_envs=2048,
        seed=100,
        sample_games=8,
        sample_actions=8,
        near_wins_every=2,
    )
    print(f"\n{variant}: {stats}")
    assert stats["won"] > 0 and stats["lost"] > SLOW_GAMES // 2


def test_vector_playout_smoke():
    """A few short games (quick enough to run as plain Python with NUMBA_DISABLE_JIT=1)."""
    for num_players, options in [
        (2, {"rounds": 2}),
        (4, {"rounds": 3, "lighthouses": "random"}),
        (3, {"rounds": 2, "wave_order": "back_first"}),
    ]:
        with numba_threads(1):
            stats = run_checked_playout(
                num_players,
                options,
                10**9,
                num_envs=4,
                seed=7,
                max_steps=30,
                sample_games=1,
                near_wins_every=5,
            )
        assert stats["steps"] == 30 and stats["games"] >= 4, stats


# ---------------------------------------------------------------------- AEC env


def play_aec_checked(num_players, options, seed, full_every=10, start=None, moves=()):
    """A random game through the AEC env (from ``start``, a one-game state, if
    given; playing ``moves`` first), checked at every step. Returns the final
    reward (+1 won, -1 lost) and a dict of counts."""
    env = coop_module.env(num_players=num_players, **options)
    env.reset(seed=seed)
    raw = env.unwrapped
    if start is not None:
        raw.set_state(start)
    rules = raw.rules
    params, tables = C.make_params(rules)
    rng = np.random.default_rng(seed)
    moves = list(moves)
    agents = env.possible_agents
    game_len = raw.state.ply.astype(np.int64)
    term = np.zeros(1, bool)
    trunc = np.zeros(1, bool)
    rewards = np.zeros((1, num_players), np.float32)
    stats = {"steps": 0, "rolls": 0, "wave choices": 0, "all actions probed": 0}
    turn = 0
    while True:
        agent = env.agent_selection
        state = raw.state
        colour = int(state.colour[0])
        assert agent == agents[int(rules.controller[colour])]
        assert colour in [COLOUR_NAMES.index(c) for c in env.infos[agent]["colours"]]
        mask = env.observe(agent)["action_mask"].copy()
        assert raw.legal_actions() == np.flatnonzero(mask).tolist()
        legal = np.flatnonzero(mask)
        if turn % full_every == 0:
            probe = range(rules.num_actions)
            stats["all actions probed"] += 1
        else:
            others = np.flatnonzero(mask == 0)
            probe = legal.tolist() + rng.choice(others, size=min(16, len(others)), replace=False).tolist()
        for a in probe:
            why = rules.illegal_reason(state, int(a))
            assert (why is None) == bool(mask[a]), (
                f"turn {turn}: action {a} ({raw.action_to_str(a)}) mask {mask[a]}, "
                f"reason {why!r}\n{describe(rules, state)}"
            )
        prev = state_ops.clone(state)
        a = moves.pop(0) if moves else int(rng.choice(legal))
        outcomes = env.chance_outcomes(a)
        env.step(a)
        turn += 1
        stats["steps"] += 1
        s = raw.state
        if prev.wave[0] >= 0:
            stats["wave choices"] += 1
        term[0] = env.terminations[agent]
        trunc[0] = env.truncations[agent]
        rewards[0] = [env.rewards[x] for x in agents]
        rolled = int(s.rolled[0])
        assert bool(outcomes) == (rolled >= 0), (
            f"turn {turn}: chance_outcomes {outcomes} but rolled {rolled}\n{describe(rules, prev)}"
        )
        if rolled >= 0:
            stats["rolls"] += 1
            assert [o.draws for o in outcomes] == [(f,) for f in range(6)]
            roller = (int(prev.first[0]) + int(prev.round[0]) - 1) % 4
            for x in env.agents:
                assert env.infos[x]["chance"]["die"] == {
                    "face": FACE_NAMES[rolled],
                    "roller": COLOUR_NAMES[roller],
                }
        elif not (term[0] or trunc[0]):
            assert all("chance" not in env.infos[x] for x in env.agents), f"turn {turn}"
        next_mask = env.observe(env.agent_selection)["action_mask"].reshape(1, -1).astype(bool)
        player_out = np.array([agents.index(env.agent_selection)], np.int64)
        e, d = C.check_step(
            0, prev, s, next_mask, rewards, term, trunc, player_out, game_len, params, tables, False
        )
        assert e == C.OK, (
            f"turn {turn}, action {a} ({rules.action_to_str(prev, a)}): "
            f"{C.MESSAGES[e]} [detail {d}]\nbefore:\n{describe(rules, prev)}\n"
            f"after:\n{describe(rules, s)}"
        )
        if term[0] or trunc[0]:
            break
        assert not any(env.terminations.values()) and not any(env.truncations.values())
    # the end: flags for everyone, no legal action, the team's reward and infos
    assert all(env.terminations.values()) and not any(env.truncations.values())
    assert raw.legal_actions() == []
    assert all(rules.illegal_reason(raw.state, a) for a in range(rules.num_actions))
    home = [COLOUR_NAMES[q] for q in range(4) if raw.state.castaway[0, q] == C.AT_HOME]
    won = len(home) == 4
    reward = 1.0 if won else -1.0
    assert [env.rewards[x] for x in agents] == [reward] * num_players
    for x in agents:
        info = env.infos[x]
        assert info["winners"] == (list(agents) if won else [])
        assert info["home"] == home and info["score"] == len(home)
        assert info["turns"] == int(raw.state.ply[0]) and info["rounds"] == int(raw.state.round[0])
    if not won:
        assert int(raw.state.round[0]) == rules.rounds
    return reward, stats


AEC_GAMES = 4


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_aec_playouts(variant):
    num_players, options = VARIANTS[variant]
    totals = {}
    for g in range(AEC_GAMES):
        reward, stats = play_aec_checked(num_players, options, seed=1000 * num_players + g)
        assert reward == -1.0  # random play does not save four castaways
        for k, v in stats.items():
            totals[k] = totals.get(k, 0) + v
    assert totals["rolls"] > 0


def aec_near_wins(num_players, options, count, seed):
    """``count`` (position, winning action) pairs: positions of random AEC
    games put one move from the win."""
    env = coop_module.env(num_players=num_players, **options)
    rules = env.unwrapped.rules
    rng = np.random.default_rng(seed)
    found = []
    game = 0
    while len(found) < count:
        env.reset(seed=seed + game)
        game += 1
        stop = int(rng.integers(1, 30))
        for _ in range(stop):
            if any(env.terminations.values()):
                break
            env.step(int(rng.choice(env.unwrapped.legal_actions())))
        if any(env.terminations.values()):
            continue
        close = near_win(rules, env.unwrapped.state, rng)
        wins = winning_actions(rules, close) if close is not None else []
        if wins:
            found.append((close, wins[int(rng.integers(len(wins)))]))
    return found


@pytest.mark.parametrize("variant", ["2p", "4p-rounds-3", "3p-back-first"])
def test_aec_wins(variant):
    """One move from the win: the move ends the game at once, +1 for every
    agent, every agent a winner, all four castaways home."""
    num_players, options = VARIANTS[variant]
    for k, (position, action) in enumerate(aec_near_wins(num_players, options, 6, seed=5)):
        reward, _ = play_aec_checked(num_players, options, seed=k, start=position, moves=[action])
        assert reward == 1.0


@pytest.mark.slow
@pytest.mark.parametrize("variant", list(VARIANTS))
def test_aec_playouts_many(variant):
    num_players, options = VARIANTS[variant]
    for g in range(60):
        play_aec_checked(num_players, options, seed=50_000 + 1000 * num_players + g, full_every=3)
    for k, (position, action) in enumerate(aec_near_wins(num_players, options, 30, seed=9)):
        reward, _ = play_aec_checked(num_players, options, seed=k, start=position, moves=[action])
        assert reward == 1.0
