"""Step rates of the suite's envs (:mod:`azgames.bench`), with ``--save`` to
replace the committed results the README quotes.

    python benchmarks/step_rate.py                 # full run, prints the table
    python benchmarks/step_rate.py --save          # the same, and replaces benchmarks/results/step_rate.json
    python benchmarks/step_rate.py --quick         # a smoke run
    python benchmarks/step_rate.py --games azacru --players 2 3
"""

from __future__ import annotations

import sys
from pathlib import Path

from azgames import bench

sys.path.insert(0, str(Path(__file__).resolve().parent))  # also when run by path (runpy)
import results_file  # noqa: E402

COMMITTED = results_file.RESULTS / "step_rate.json"


def main(argv: list[str] | None = None) -> dict:
    parser = bench.build_parser()
    results_file.add_arguments(parser, COMMITTED)
    args = parser.parse_args(argv)
    out = results_file.destination(parser, args, COMMITTED, quick=args.quick)
    results = bench.measure(args)
    if out is not None:
        results_file.write_json(out, results)
    return results


if __name__ == "__main__":
    main()
