"""Properties over arbitrary positions (Hypothesis draws tiles and pieces
freely, so positions no game reaches are covered too)."""

import json

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

import azgames
from azacru_env.diagram import PLAYER_LETTERS, to_diagram
from azgames.core import state as state_ops


@st.composite
def positions(draw):
    """(num_players, one-game state) with any tiles and up to K pieces each."""
    n = draw(st.integers(2, 4))
    env = azgames.make("azacru", num_players=n)
    rules = env.unwrapped.rules
    state = rules.initial_state(np.zeros(1, np.uint64))
    state.tiles[0] = draw(st.lists(st.integers(-1, n - 1), min_size=81, max_size=81))
    fields = draw(st.lists(st.integers(0, 80), min_size=0, max_size=n * rules.pieces, unique=True))
    state.occupant[0] = -1
    state.piece_field[0] = -1
    owners = draw(st.lists(st.integers(0, n - 1), min_size=len(fields), max_size=len(fields)))
    for p in range(n):
        # Slots in reading order, as a diagram assigns them.
        mine = sorted(f for f, o in zip(fields, owners) if o == p)[: rules.pieces]
        for k, f in enumerate(mine):
            state.piece_field[0, p, k] = f
            state.piece_facing[0, p, k] = draw(st.integers(0, 7))
            state.occupant[0, f] = p * 4 + k
    state.player[0] = draw(st.integers(0, n - 1))
    return n, env, state


@settings(max_examples=150, deadline=None)
@given(positions())
def test_a_diagram_reads_back_as_the_same_position(drawn):
    n, env, state = drawn
    rules = env.unwrapped.rules
    again = rules.state_from_diagram(to_diagram(state), to_move=PLAYER_LETTERS[int(state.player[0])])
    for name in ("tiles", "occupant", "piece_field", "player"):
        assert np.array_equal(getattr(again, name), getattr(state, name)), name
    placed = state.piece_field >= 0
    assert np.array_equal(again.piece_facing[placed], state.piece_facing[placed])


@settings(max_examples=150, deadline=None)
@given(positions())
def test_the_state_survives_json(drawn):
    n, env, state = drawn
    text = json.dumps(state_ops.to_jsonable(state))
    assert state_ops.equal(state_ops.from_jsonable(type(state), json.loads(text)), state)


@settings(max_examples=150, deadline=None)
@given(positions())
def test_the_mask_is_never_empty_and_agrees_with_the_validator(drawn):
    n, env, state = drawn
    env.unwrapped.set_state(state)
    rules = env.unwrapped.rules
    mask = env.observe(env.agent_selection)["action_mask"]
    assert mask.sum() >= 1
    for a in range(rules.num_actions):
        assert (rules.illegal_reason(env.unwrapped.state, a) is None) == bool(mask[a]), rules.action_to_str(
            env.unwrapped.state, a
        )
    legal = np.flatnonzero(mask)
    assert (mask[rules.pass_action] == 1) == (len(legal) == 1 and legal[0] == rules.pass_action)
    for a in legal:
        assert rules.str_to_action(env.unwrapped.state, rules.action_to_str(env.unwrapped.state, a)) == a
