"""An RLlib checkpoint's ``main`` as a policy file that plays without torch or ray.

    python -m azgames.rllib.export runs/rllib_azacru_2p_seed0/checkpoint policy.npz [--module main_v3]
    python -m azgames play azacru --agents ppo:path=policy.npz greedy

An RLlib checkpoint is pickles, and loading one runs whatever code it holds:
only load checkpoints you trust (your own runs'). The policy file written is
plain arrays, safe to share.
"""

from __future__ import annotations

import argparse
import sys

from .module import policy_from_checkpoint


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m azgames.rllib.export",
        description=__doc__.split("\n")[0],
        epilog="An RLlib checkpoint is pickles, which run code when loaded: only load checkpoints you trust.",
    )
    parser.add_argument(
        "checkpoint",
        help="an RLlib checkpoint folder (a run's checkpoint/); it is "
        "pickles: only load checkpoints you trust",
    )
    parser.add_argument("out", help="the policy file to write (.npz)")
    parser.add_argument("--module", default="main", help="the module to export (default: main)")
    args = parser.parse_args(argv)
    try:
        policy = policy_from_checkpoint(args.checkpoint, args.module)
    except (OSError, ValueError) as e:
        parser.exit(2, f"{parser.prog}: error: {e}\n")
    policy.save(args.out)
    meta = policy.meta
    print(
        f"wrote {args.out}: {args.module} of {args.checkpoint}, {meta['game']} with {meta['num_players']} players"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
