"""The shared explicit-chance API (:mod:`azgames.core.chance`), shown on Azure
Attack's fights: outcomes with probabilities, forcing one on a clone, and
game records that keep forced draws."""

from __future__ import annotations

import textwrap
from fractions import Fraction

import numpy as np
import pytest

import azgames
from azgames.core import state as state_ops
from azgames.core.chance import ChanceOutcome, dice_outcomes, force, roll_die
from azgames.core.records import from_record

# hunter_0 (A, carrying a 4) stands south of the monster; hunter_1 (B) west of A.
FACE_OFF = """
12  -  -  m  m  -  -
11  -  -  m  m  -  -
10  .  .  .  .  .  .
 9  .  .  .  .  .  .
 8  .  .  .  .  .  .
 7  .  .  .  M  .  .
 6  .  .  B A4  .  .
 5  .  .  .  .  .  .
 4  .  .  .  3  .  .
 3  .  .  .  .  .  .
 2  b  b  a  a  -  -
 1  b  b  a  a  -  -
"""


def face_off(seed=0):
    env = azgames.make("azure", num_players=3)
    env.reset(seed=seed)
    rules = env.unwrapped.rules
    env.unwrapped.set_state(rules.state_from_diagram(textwrap.dedent(FACE_OFF), to_move="A", seed=seed))
    return env


N, W = 0, 3


def test_dice_outcomes_merge_draws_with_the_same_effect():
    outcomes = dice_outcomes(6, 2, lambda d: "high" if d[0] > d[1] else "not high")
    assert [o.label for o in outcomes] == ["not high", "high"]
    assert outcomes[0].draws == (0, 0) and outcomes[1].draws == (1, 0)
    assert [Fraction(o.probability).limit_denominator(100) for o in outcomes] == [
        Fraction(21, 36),
        Fraction(15, 36),
    ]
    raw = dice_outcomes(6, 2, lambda d: "x", merge=False)
    assert len(raw) == 36 and sum(o.probability for o in raw) == pytest.approx(1.0)
    assert len({o.draws for o in raw}) == 36


def test_forced_faces_are_taken_first_then_the_generator():
    rng = np.array([5], np.uint64)
    forced = np.full((1, 2), -1, np.int8)
    force(forced[0], (4, 1), 6)
    assert [roll_die(rng, forced, 0, 6) for _ in range(2)] == [4, 1]
    assert (forced == -1).all() and rng[0] == 5  # forcing drew nothing
    free = roll_die(rng, forced, 0, 6)
    assert 0 <= free < 6 and rng[0] != 5
    with pytest.raises(ValueError, match=r"faces \[6\]"):
        force(forced[0], (6,), 6)
    with pytest.raises(ValueError, match="at most 2"):
        force(forced[0], (1, 2, 3), 6)


def test_an_attack_lists_its_outcomes_and_a_plain_step_none():
    env = face_off()
    fight = env.unwrapped.chance_outcomes(N)  # A attacks the monster
    assert [(o.label, round(o.probability * 36)) for o in fight] == [
        ("defender wins", 21),
        ("attacker wins", 15),
    ]
    assert env.unwrapped.chance_outcomes(1) == []  # east: an empty square
    with pytest.raises(ValueError, match="not legal"):
        env.unwrapped.chance_outcomes(7)


def test_between_hunters_a_tie_is_its_own_outcome():
    env = face_off()
    outcomes = env.unwrapped.chance_outcomes(W)  # A attacks B
    assert {o.label: round(o.probability * 36) for o in outcomes} == {
        "both go home": 6,
        "attacker wins": 15,
        "defender wins": 15,
    }


def test_a_search_agent_branches_on_clones():
    """Each outcome played on a clone gives that result and reports its draws;
    the original game is untouched."""
    env = face_off()
    before = state_ops.clone(env.unwrapped.state)
    results = {}
    for outcome in env.unwrapped.chance_outcomes(N):
        child = env.unwrapped.clone()
        child.step_outcome(N, outcome)
        fight = child.infos["monster"]["chance"]["fight"]
        assert fight["rolls"] == list(outcome.draws)
        results[outcome.label] = fight["result"]
    assert results == {"defender wins": "defender wins", "attacker wins": "attacker wins"}
    assert state_ops.equal(before, env.unwrapped.state)


def test_step_outcome_refuses_draws_that_are_not_outcomes():
    env = face_off()
    with pytest.raises(ValueError, match="draws nothing"):
        env.unwrapped.step_outcome(1, (0, 0))
    with pytest.raises(ValueError, match="not an outcome"):
        env.unwrapped.step_outcome(N, (0,))


def test_forced_draws_survive_clone_and_record_round_trip():
    env = face_off()
    env.unwrapped.step_outcome(N, ChanceOutcome("attacker wins", 15 / 36, (5, 2)))
    assert env.infos["monster"]["chance"]["fight"]["rolls"] == [5, 2]
    record = env.unwrapped.to_record()
    assert record["actions"] == [[N, [5, 2]]]
    replay = from_record(record)
    assert state_ops.equal(replay.unwrapped.state, env.unwrapped.state)
    # Faces queued in the state travel with a clone, and are used by its next fight.
    queued = face_off()
    queued.unwrapped.rules.force_draws(queued.unwrapped.state, (1, 4))
    clone = queued.unwrapped.clone()
    clone.step(N)
    assert clone.infos["monster"]["chance"]["fight"]["rolls"] == [1, 4]
    assert (clone.state.forced == -1).all()


def test_a_draw_is_reported_for_its_step_only():
    env = face_off()
    env.unwrapped.step_outcome(W, (5, 0))  # A beats B and ends its turn: hunter_1 (B) acts
    assert all(info["chance"]["fight"]["rolls"] == [5, 0] for info in env.infos.values())
    reported = env.infos["hunter_0"]
    env.step(4)  # B stops: no draw
    assert all("chance" not in info for info in env.infos.values())
    assert reported["chance"]["fight"]["result"] == "attacker wins"  # infos handed out stay as they were
