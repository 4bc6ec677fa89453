"""The decisions of a Gumbel search at one node (agents/az/gumbel.py), each
against numbers worked out by hand from the paper's definitions."""

import numpy as np
import pytest

from azgames.agents.az.gumbel import (
    EPSILON,
    NO_RESCALE,
    considered_visits,
    improved_policy,
    interior_choice,
    mixed_value,
    root_choice,
    sigma_q,
    top_k,
)


def test_sequential_halving_visits_four_actions_once_then_the_best_two_twice_more():
    # 8 simulations over 4 actions: 2 rounds; the first gives each of the 4
    # one visit, the second each of the 2 kept 8 // (2 * 2) = 2 more.
    assert considered_visits(4, 8)[4].tolist() == [0, 0, 0, 0, 1, 1, 2, 2]


def test_sequential_halving_over_sixteen_actions_halves_down_to_two():
    row = considered_visits(16, 32)[16].tolist()
    assert row == [0] * 16 + [1] * 8 + [2] * 4 + [3] * 4


def test_one_action_considered_takes_every_simulation():
    table = considered_visits(3, 5)
    assert table[1].tolist() == table[0].tolist() == [0, 1, 2, 3, 4]


def test_the_mixed_value_is_the_network_value_until_an_edge_is_visited():
    prior = np.array([0.5, 0.5])
    assert mixed_value(0.3, np.zeros(2), np.zeros(2), prior) == 0.3
    # One visit of Q 1 on an edge of half the prior: (0 + 1 * 1) / 2.
    assert mixed_value(0.0, np.array([1.0, 0.0]), np.array([1.0, 0.0]), prior) == pytest.approx(0.5)


def test_sigma_completes_an_unvisited_edge_with_the_mixed_value_then_rescales():
    # Completed Q: [1, 0.5] (the mixed value above), rescaled to [1, 0], times
    # (50 + 1 visit) * 0.1.
    sigma = sigma_q(np.zeros(2), np.array([1.0, 0.0]), np.array([1.0, 0.0]), 0.0, EPSILON)
    assert sigma.tolist() == pytest.approx([5.1, 0.0])


def test_without_rescaling_q_values_a_hair_apart_stay_a_hair_apart():
    """Two visited edges whose Q-values differ by 0.01 (noise, with a few
    simulations): rescaled, the better one gets all of sigma's 5.2; kept at
    their own scale (over [-1, 1]'s width), it gets 0.026."""
    q, visits = np.array([0.30, 0.31]), np.array([2.0, 2.0])
    rescaled = sigma_q(np.zeros(2), q, visits, 0.3, EPSILON)
    kept = sigma_q(np.zeros(2), q, visits, 0.3, NO_RESCALE)
    assert rescaled[1] - rescaled[0] == pytest.approx(5.2)
    assert kept[1] - kept[0] == pytest.approx(0.026)
    pi = improved_policy(np.log(np.array([0.8, 0.2])), q, visits, 0.3, NO_RESCALE)
    assert pi[0] > 0.75  # the prior still decides


def test_a_spread_between_stretches_q_values_closer_than_it_by_their_share_of_it():
    """min_spread 0.5: Q-values 0.1 apart (a few playouts' noise) get a
    fifth of sigma's 5.2 between them; 1.0 apart, they get all of it, as
    rescaled."""
    visits = np.array([2.0, 2.0])
    near = sigma_q(np.zeros(2), np.array([0.2, 0.3]), visits, 0.0, 0.5)
    far = sigma_q(np.zeros(2), np.array([-0.5, 0.5]), visits, 0.0, 0.5)
    assert near[1] - near[0] == pytest.approx(5.2 / 5)
    assert far[1] - far[0] == pytest.approx(5.2)


def test_without_values_to_tell_the_edges_apart_the_improved_policy_is_the_prior():
    logits = np.log(np.array([0.5, 0.3, 0.2]))
    pi = improved_policy(logits, np.zeros(3), np.zeros(3), 0.0, EPSILON)
    assert pi.tolist() == pytest.approx([0.5, 0.3, 0.2])


def test_choices_inside_the_tree_visit_each_edge_as_often_as_its_probability():
    logits = np.log(np.array([0.5, 0.3, 0.2]))
    visits = np.zeros(3)
    for _ in range(100):
        visits[interior_choice(logits, np.zeros(3), visits, 0.0, EPSILON)] += 1
    assert visits.tolist() == [50, 30, 20]


def test_a_better_q_value_draws_the_visits_inside_the_tree():
    logits = np.zeros(2)
    q = np.array([0.0, 1.0])
    visits = np.array([1.0, 1.0])
    assert interior_choice(logits, q, visits, 0.0, EPSILON) == 1


def test_the_root_visits_a_considered_edge_with_the_wanted_visits_and_the_best_score():
    gumbel = np.array([0.0, 2.0, 0.0, 5.0])
    logits = np.zeros(4)
    considered = np.array([True, True, True, False])
    visits = np.array([1.0, 1.0, 0.0, 0.0])
    # Edge 3 scores best but is not considered; of those with one visit, edge 1.
    assert root_choice(gumbel, logits, np.zeros(4), visits, 0.0, considered, 1, EPSILON) == 1
    assert root_choice(gumbel, logits, np.zeros(4), visits, 0.0, considered, 0, EPSILON) == 2
    assert root_choice(gumbel, logits, np.zeros(4), visits, 0.0, considered, 3, EPSILON) == -1


def test_the_root_considers_the_k_largest_gumbel_plus_logits():
    gumbel = np.array([0.0, 1.0, 0.0, 3.0])
    logits = np.array([2.0, 0.0, 0.5, 0.0])
    assert top_k(gumbel, logits, 2).tolist() == [True, False, False, True]
    assert top_k(gumbel, logits, 9).all()
