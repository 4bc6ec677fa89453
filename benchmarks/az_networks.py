"""The MLP against conv trunks that see the planes as planes (issue 29):
how well each fits the search's targets on positions it has not seen, and
what a forward pass costs.

    python benchmarks/az_networks.py            # the table only
    python benchmarks/az_networks.py --save     # the same, replacing benchmarks/results/az_networks.json
    python benchmarks/az_networks.py --quick    # a smoke run: one tiny row

One set of Azacru positions, 2 players: ``--rounds`` rounds of self-play of
the shipped ``az`` network (:class:`azgames.training.alphazero.SelfPlay`,
128 games at once, 16 simulations a move), each finished game's moves with
the search's improved policy and the game's result as targets. The moves of
the first 80% of the rounds train, those of the last 20% are held out (other
games). Each network (the trainer's :class:`~azgames.training.net.Net`)
trains ``--steps`` minibatches of 256 from fresh weights, with the square's
symmetries, Adam at 1e-3, and is scored on the held-out moves: the policy's
cross-entropy to the search's targets and the value's squared error to the
results. Over seeds 0, 1 and 2 (the network's weights and the minibatches;
the positions are the same), mean and spread. *ms / 256* is the numpy
forward pass (the ``az`` agent's, without torch) of 256 positions, the
median of 20.
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # also when run by path (runpy)
import results_file  # noqa: E402
import tables  # noqa: E402

COMMITTED = results_file.RESULTS / "az_networks.json"
#: (name, hidden layers, conv trunk)
NETWORKS = [
    ("mlp 128x128", (128, 128), None),
    ("conv 16x1 + 128", (128,), {"channels": 16, "blocks": 1}),
    ("conv 32x2 + 128", (128,), {"channels": 32, "blocks": 2}),
]


def positions(rounds: int, games: int = 128, simulations: int = 16, seed: int = 0):
    """Self-play samples of the shipped Azacru network, split by round."""
    import numpy as np
    import torch

    from azgames.agents.az.agent import shipped_network_path
    from azgames.agents.policy import NumpyPolicy
    from azgames.training.alphazero import Config, Samples, SelfPlay
    from azgames.training.net import Net

    shipped = NumpyPolicy.load(shipped_network_path("azacru", 2))
    net = Net(tuple(shipped.meta["obs_shape"]), shipped.num_actions, tuple(shipped.meta["hidden"]))
    net.load_numpy(shipped)
    torch.manual_seed(seed)
    cfg = Config("azacru", num_envs=games, simulations=simulations, seed=seed, progress=False)
    play = SelfPlay(cfg, net)
    got = [play.round(cfg.num_steps) for _ in range(rounds)]
    cut = max(1, int(0.8 * rounds))

    def joined(part):
        return Samples(*(np.concatenate(arrays) for arrays in zip(*part)))

    return joined(got[:cut]), joined(got[cut:])


def measure(name, hidden, conv, train, held_out, steps: int, seed: int) -> dict:
    import numpy as np
    import torch

    import azgames
    from azgames.core.symmetry import symmetries
    from azgames.training.alphazero import augment, learn
    from azgames.training.net import Net

    rules = azgames.make("azacru").unwrapped.rules
    shape = rules.observation_shape(0)
    torch.manual_seed(seed)
    draws = np.random.default_rng(seed)
    net = Net(shape, rules.num_actions, hidden, conv=conv)
    optimizer = torch.optim.Adam(net.parameters(), lr=1e-3)
    turns = symmetries(rules)
    began = time.perf_counter()
    for _ in range(steps):
        rows = draws.integers(0, len(train.value), 256)
        batch = type(train)(*(a[rows] for a in train))
        learn(net, optimizer, augment(batch, turns, draws))
    seconds = time.perf_counter() - began
    with torch.no_grad():
        logits, value = net(torch.as_tensor(held_out.obs), torch.as_tensor(held_out.mask))
        log_pi = torch.log_softmax(logits, -1)
        policy_loss = float(-(torch.as_tensor(held_out.policy) * log_pi).sum(-1).mean())
        value_loss = float(((value.reshape(-1) - torch.as_tensor(held_out.value[:, 0])) ** 2).mean())
    meta = {"game": "azacru", "num_players": 2, "obs_shape": list(shape), "hidden": list(hidden)}
    policy = net.to_numpy({**meta, **({"conv": conv} if conv else {})})
    obs, mask = held_out.obs[:256], held_out.mask[:256]
    timings = []
    for _ in range(20):
        start = time.perf_counter()
        policy.evaluate(obs, mask)
        timings.append(time.perf_counter() - start)
    return {
        "network": name,
        "seed": seed,
        "parameters": sum(p.numel() for p in net.parameters()),
        "policy_loss": policy_loss,
        "value_loss": value_loss,
        "train_seconds": seconds,
        "forward_ms_256": 1e3 * float(np.median(timings)),
    }


def pooled(rows: list[dict]) -> list[dict]:
    import numpy as np

    out = []
    for name in dict.fromkeys(r["network"] for r in rows):
        mine = [r for r in rows if r["network"] == name]
        row = {"network": name, "parameters": mine[0]["parameters"], "seeds": [r["seed"] for r in mine]}
        for key in ("policy_loss", "value_loss", "train_seconds", "forward_ms_256"):
            values = np.array([r[key] for r in mine])
            row[key], row[key + "_sd"] = (
                float(values.mean()),
                float(values.std(ddof=1) if len(values) > 1 else 0),
            )
        out.append(row)
    return out


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=40, help="rounds of self-play (default: 40)")
    parser.add_argument("--steps", type=int, default=500, help="minibatches a network trains (default: 500)")
    parser.add_argument("--seeds", type=int, nargs="+", default=[0, 1, 2])
    parser.add_argument(
        "--quick",
        action="store_true",
        help="smoke run: the MLP, 10 rounds of 16 games at 2 simulations, 5 steps, seed 0",
    )
    results_file.add_arguments(parser, COMMITTED)
    args = parser.parse_args(argv)
    out = results_file.destination(parser, args, COMMITTED, quick=args.quick)
    rounds, steps, seeds = (10, 5, [0]) if args.quick else (args.rounds, args.steps, args.seeds)
    networks = NETWORKS[:1] if args.quick else NETWORKS
    if rounds < 2 or steps < 1:
        parser.error(f"--rounds {rounds} (at least 2: some train, some are held out) and --steps {steps}")
    from azgames.core.progress import Progress

    train, held_out = positions(rounds, *((16, 2) if args.quick else (128, 16)))
    if not len(train.value) or not len(held_out.value):
        parser.error(f"--rounds {rounds}: no game ended in the training rounds or in the held-out ones")
    rows = []
    with Progress(len(networks) * len(seeds), "networks", unit="fit", enabled=not args.quick) as bar:
        for name, hidden, conv in networks:
            for seed in seeds:
                rows.append(measure(name, hidden, conv, train, held_out, steps, seed))
                bar.update(desc=f"networks: {name}, seed {seed}")
    results = {
        "date": time.strftime("%Y-%m-%d"),
        "machine": platform.machine(),
        "cpus": os.cpu_count(),
        "positions": {"train": len(train.value), "held_out": len(held_out.value)},
        "rounds": rounds,
        "steps": steps,
        "rows": pooled(rows),
        "per_seed": rows,
    }
    print(tables.az_networks(results))
    if out is not None:
        results_file.write_json(out, results, indent=2)
    return results


if __name__ == "__main__":
    main()
