"""Progress of a long job, on stderr so that stdout keeps its table.

Every long job (matches, tournaments, benchmarks) reports through
:class:`Progress`: a tqdm bar where tqdm is installed (the ``train``,
``tournament`` and ``rllib`` extras bring it), otherwise a plain line every
tenth of the way, so that a log file shows the job is alive too.
"""

from __future__ import annotations

import math
import sys
import time


class Progress:
    """Counts ``total`` units of work called ``unit`` under the label ``desc``."""

    def __init__(self, total: int, desc: str, enabled: bool = True, unit: str = "game") -> None:
        self.total, self.desc, self.unit, self.done = total, desc, unit, 0
        self.enabled = enabled and total > 0
        self.every = max(1, math.ceil(total / 10))
        self.start = time.perf_counter()
        self.bar = None
        if self.enabled:
            try:
                from tqdm import tqdm
            except ImportError:
                return
            self.bar = tqdm(total=total, desc=desc, file=sys.stderr, unit=unit)

    def update(self, count: int = 1, desc: str | None = None) -> None:
        """``count`` more units done; ``desc`` relabels the job (a new row, say)."""
        before, self.done = self.done, self.done + count
        if desc is not None:
            self.desc = desc
        if not self.enabled:
            return
        if self.bar is not None:
            if desc is not None:
                self.bar.set_description(desc, refresh=False)
            self.bar.update(count)
        elif self.done // self.every > before // self.every or self.done == self.total:
            rate = self.done / max(time.perf_counter() - self.start, 1e-9)
            print(
                f"{self.desc}: {self.done}/{self.total} {self.unit}s ({rate:.1f}/s)",
                file=sys.stderr,
                flush=True,
            )

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()

    def __enter__(self) -> Progress:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
