"""Gumbel AlphaZero (issue 29): search with a trained network, and the
pieces of its policy improvement.

:mod:`.gumbel` holds the decisions a Gumbel search makes at a node (after
Danihelka et al., "Policy improvement by planning with Gumbel", ICLR 2022):
Sequential Halving's schedule at the root, the completed Q-values, the
improved policy that is the training target, and the deterministic choice
inside the tree.
"""
