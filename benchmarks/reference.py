"""A fixed reference workload, timed in the same run as a benchmark's own figure.

A figure in CPU time still moves with the machine (frequency scaling, another program
sharing the caches, a noisy neighbour on a VM): the engine figures moved 1.3-2x within
one hour. So the engine benchmarks time this workload too, between their own
measurements, and print it beside their figures with each figure divided by it: the
ratio stays put when the machine changes, the figure alone does not.

The workload is plain Python that touches no code of this project (so a change to the
project never moves it): dicts, lists, sorting, string formatting and a JSON round trip
over data from a fixed seed -- the kind of work the rules and the views do.
"""
from __future__ import annotations

import json
import random
import statistics
import time


def workload() -> int:
    """One run of the fixed workload (~10-20 ms of CPU on a 2-core laptop); returns a
    checksum so that nothing is optimised away."""
    rng = random.Random(20240601)
    total = 0
    for _ in range(160):
        cards = [{"rank": rng.randrange(13), "suit": rng.choice("SHDC"), "id": i} for i in range(60)]
        cards.sort(key=lambda c: (c["rank"], c["suit"], c["id"]))
        hands = {f"seat{s}": [c for c in cards if c["id"] % 4 == s] for s in range(4)}
        text = json.dumps({"hands": hands, "log": [f"{c['rank']}{c['suit']}" for c in cards]})
        total += len(json.loads(text)["log"]) + sum(len(h) for h in hands.values())
    return total


class Reference:
    """Samples of the workload's CPU time (ms, ``time.process_time``): call
    :meth:`sample` between a benchmark's own measurements; :attr:`ms` is the median of
    the best of each sample."""

    def __init__(self, repeat: int = 3):
        self.repeat = repeat
        self.samples: list[float] = []

    def sample(self) -> float:
        """Time the workload ``repeat`` times; keep and return the fastest (ms)."""
        best = float("inf")
        for _ in range(self.repeat):
            t0 = time.process_time()
            workload()
            best = min(best, (time.process_time() - t0) * 1000.0)
        self.samples.append(best)
        return best

    @property
    def ms(self) -> float:
        """The reference's CPU time in ms: median of the samples (one taken if none)."""
        if not self.samples:
            self.sample()
        return statistics.median(self.samples)

    def spread(self) -> float:
        """(slowest - fastest) / median of the samples: how much the machine moved
        during the run."""
        if len(self.samples) < 2:
            return 0.0
        return (max(self.samples) - min(self.samples)) / self.ms

    def line(self) -> str:
        """One printable line: the reference beside the figures."""
        return (f"reference workload (plain Python, same run): {self.ms:.2f} ms CPU, median of "
                f"{len(self.samples)} samples, spread {100 * self.spread():.0f} %")
