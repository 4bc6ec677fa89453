"""Connect Four's hooks for the tree searches: the contract's own kernels."""

from azgames.contract import search_hooks

from .rules import ConnectFourRules

HOOKS = search_hooks(ConnectFourRules)
