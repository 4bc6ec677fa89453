"""Training at the vector env's speed (installs as ``azgames.training``).

- :mod:`.learner_env`: :class:`LearnerVecEnv`, a game's vector env seen by
  one learner, with opponents (baselines, or snapshots of a policy) moving
  inside ``step``, batched;
- :mod:`.opponents`: who plays the other seats;
- :mod:`.sb3`: :class:`SB3VecEnv`, the same as a Stable-Baselines3 ``VecEnv``
  whose ``action_masks`` serve sb3-contrib's ``MaskablePPO``;
- :mod:`.single_agent`: :class:`SingleAgentEnv`, one game as a single-agent
  gymnasium env (the learner's seat; the others move inside ``step``);
- :mod:`.ppo`: ``python -m azgames train``, masked PPO against a league of
  the learner's own snapshots and the baselines, one file top to bottom;
- :mod:`.net`: the policy-and-value network (torch) that ppo and RLlib train;
- :mod:`.logs`: the run's CSV logs and its learning curve;
- :mod:`.cli`: the ``train`` command;
- :mod:`.league`: the mix of opponents the trainer draws from;
- :mod:`.evaluate`: win rates of a policy against fixed opponents, batched;
- :mod:`.ship`: a run's policy into ``agents/policies`` (the ``ppo`` agents);
- :mod:`.alphazero`: ``python -m azgames train --algo alphazero``, Gumbel
  AlphaZero: self-play by the batched Gumbel search, a replay buffer, one
  file top to bottom;
- :mod:`.checkpoints`: what both trainers do with the policy they make (its
  meta, ``--init``, evaluations and checkpoints, the final files).

Everything but :mod:`.ppo`, :mod:`.alphazero`, :mod:`.checkpoints`, :mod:`.net`
and :mod:`.sb3` runs without torch.
"""

from .learner_env import LearnerVecEnv

__all__ = ["LearnerVecEnv"]
