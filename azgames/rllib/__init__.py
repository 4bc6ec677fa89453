"""Scale-out on Ray RLlib (installs as ``azgames.rllib``; needs the ``rllib`` extra).

- :mod:`.env`: :class:`TurnBasedEnv`, any registered game as a turn-based
  RLlib ``MultiAgentEnv`` with action masks, built-in opponents and teams;
- :mod:`.module`: :class:`MaskedPPOTorchRLModule`, the suite's masked
  network as an RLModule, and its conversion to a torch-free policy;
- :mod:`.selfplay`: ``python -m azgames train GAME --backend rllib``, PPO
  self-play against a league of snapshots and the baselines;
- :mod:`.export`: an RLlib checkpoint's module as a torch-free policy file
  (a checkpoint is pickles, which run code when loaded: only load checkpoints
  you trust).

Install: ``python -m pip install torch==2.13.0 && python -m pip install -e ".[rllib]"``.
"""
