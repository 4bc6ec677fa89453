"""The decisions of a Gumbel search at one node, in numba, over rows of one
node's edges (its legal actions).

- **Root.** The ``k`` legal actions with the largest ``g + logits`` (``g``
  Gumbel noise, 0 when playing for strength) are considered; Sequential
  Halving spreads the budget over them, halving them each round, and each
  simulation visits the considered action that has had exactly the visits
  the schedule (:func:`considered_visits`) names and the largest
  ``g + logits + sigma(q)``. The move played is the largest of those after
  the last simulation.
- **Completed Q-values.** An edge never visited gets the node's *mixed
  value* (its network value mixed with the prior-weighted Q of the visited
  edges) instead of no value; the Q-values are then rescaled to [0, 1] over
  the node's edges and multiplied by ``(c_visit + max visits) * c_scale``
  (``sigma``; c_visit = 50, c_scale = 0.1 as in the paper). The rescaling
  divides by the Q-values' spread, but by at least ``min_spread``:
  :data:`EPSILON` rescales as the paper does, however close the Q-values;
  :data:`NO_RESCALE` (2, the width of [-1, 1]) keeps their own scale, so that
  Q-values a hair apart (noise, with few simulations) stay a hair apart.
- **Improved policy.** ``softmax(logits + sigma(q))``: the policy target the
  network learns, and the policy inside the tree, where the choice is
  deterministic: the largest ``pi(a) - N(a) / (1 + sum N)``, which makes the
  visit frequencies follow ``pi``.

Rows are float64 of the node's edge count; nothing here allocates but the
returned rows.
"""

from __future__ import annotations

import math

import numpy as np

from azgames.core.jit import njit

#: The paper's defaults (mctx's ``qtransform_completed_by_mix_value``).
C_VISIT = 50.0
C_SCALE = 0.1
#: Smallest spread of Q-values rescaled to [0, 1]: the paper's rescaling.
EPSILON = 1e-8
#: The width of the values' range [-1, 1]: no spread is stretched.
NO_RESCALE = 2.0


def considered_visits(max_considered: int, simulations: int) -> np.ndarray:
    """Sequential Halving's schedule: row ``k`` (``k`` actions considered,
    0 to ``max_considered``) gives, for each simulation in turn, the visit
    count an action must have to be visited (shape (max_considered + 1,
    simulations), int64). Each round gives every remaining action
    ``simulations / (log2(k) * remaining)`` visits (at least one), then
    halves them, down to two."""
    table = np.zeros((max_considered + 1, simulations), np.int64)
    for k in range(max_considered + 1):
        if k <= 1:
            table[k] = np.arange(simulations)
            continue
        rounds = math.ceil(math.log2(k))
        schedule: list[int] = []
        visits = [0] * k
        remaining = k
        while len(schedule) < simulations:
            for _ in range(max(1, simulations // (rounds * remaining))):
                schedule.extend(visits[:remaining])
                for a in range(remaining):
                    visits[a] += 1
            remaining = max(2, remaining // 2)
        table[k] = schedule[:simulations]
    return table


@njit
def softmax(x):
    out = np.exp(x - x.max())
    return out / out.sum()


@njit
def mixed_value(raw_value, q, visits, prior):
    """The node's value for its unvisited edges: ``raw_value`` (the network's)
    and the visited edges' Q weighted by their prior, as if each visit were
    one more sample of it."""
    total = visits.sum()
    if total == 0:
        return raw_value
    weight = 0.0
    weighted = 0.0
    for a in range(q.shape[0]):
        if visits[a] > 0:
            p = max(prior[a], 1e-300)  # a visited edge of prior 0 still counts
            weight += p
            weighted += p * q[a]
    return (raw_value + total * weighted / weight) / (total + 1)


@njit
def sigma_q(logits, q, visits, raw_value, min_spread):
    """``sigma`` of the completed Q-values of a node's edges (``q`` is read
    only where ``visits`` > 0), rescaled to [0, 1] over the node (divided by
    their spread, or ``min_spread`` if that is larger)."""
    value = mixed_value(raw_value, q, visits, softmax(logits))
    completed = np.where(visits > 0, q, value)
    low = completed.min()
    spread = max(completed.max() - low, min_spread)
    return (C_VISIT + visits.max()) * C_SCALE * (completed - low) / spread


@njit
def improved_policy(logits, q, visits, raw_value, min_spread):
    """The policy target: ``softmax(logits + sigma(q))``."""
    return softmax(logits + sigma_q(logits, q, visits, raw_value, min_spread))


@njit
def interior_choice(logits, q, visits, raw_value, min_spread):
    """The edge a simulation takes inside the tree: the largest improved
    probability less its share of the node's visits (the first on a tie)."""
    pi = improved_policy(logits, q, visits, raw_value, min_spread)
    return np.argmax(pi - visits / (1.0 + visits.sum()))


@njit
def root_choice(gumbel, logits, q, visits, raw_value, considered, wanted, min_spread):
    """The root edge the next simulation visits: of the ``considered`` edges
    (a bool row) with exactly ``wanted`` visits, the largest
    ``g + logits + sigma(q)`` (-1 if none has)."""
    score = gumbel + logits + sigma_q(logits, q, visits, raw_value, min_spread)
    best = -1
    for a in range(score.shape[0]):
        if considered[a] and visits[a] == wanted and (best < 0 or score[a] > score[best]):
            best = a
    return best


@njit
def top_k(gumbel, logits, k):
    """The ``k`` edges of largest ``g + logits``, as a bool row (all of them if fewer)."""
    score = gumbel + logits
    chosen = np.zeros(score.shape[0], np.bool_)
    for a in np.argsort(-score, kind="mergesort")[:k]:
        chosen[a] = True
    return chosen
