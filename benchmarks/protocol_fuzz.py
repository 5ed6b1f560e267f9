"""A longer run of the protocol fuzz test (tests/test_protocol_fuzz.py): a server in this
process, a seeded Omerta match of ``mafia-bot`` bots played once without noise and once
beside a fuzz connection sending random and mutated messages built from
docs/protocol.schema.json (hypothesis, not derandomized: each run explores anew).

    python benchmarks/protocol_fuzz.py [--batches N]

Prints what went wrong, if anything, then one JSON object as the last line: messages
sent (in all, and while the match beside was running), lines received, ``internal``
replies, invalid JSON lines, critical log entries, replies the schema does not describe,
replies showing a known reported defect (none is left: each fuzz-found defect is fixed), every
server line checked, whether the match beside ended with the same result as without the
noise, wall and CPU seconds. Exit status 1 when anything but the known defects went wrong.
"""
from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
import tools.sandbox  # noqa: F401,E402  (a private data dir: never the player's replays)


class Broken(Exception):
    """Something the protocol promises did not hold."""


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--batches", type=int, default=3000, help="batches of 1-12 messages (default 3000)")
    args = p.parse_args()

    from twisted.internet import task

    from tests import test_protocol_fuzz as fuzz

    def run(reactor):
        started, cpu = time.monotonic(), time.process_time()
        d = fuzz.fuzz_run(reactor, Path(tempfile.mkdtemp(prefix="protocol-fuzz-")), args.batches,
                          {"derandomize": False})

        def done(result):
            clean, noisy, env, tap = result
            seen = fuzz.check_lines([ln for ln in tap.lines if ln.direction == "s2c"])
            figures = env.figures()
            figures.update({"server_lines_checked": seen.count,
                            "server_lines_invalid": len(fuzz.unknown_problems(seen.problems)),
                            "same_result": clean == noisy,
                            "wall_s": round(time.monotonic() - started, 1),
                            "cpu_s": round(time.process_time() - cpu, 1)})
            for what, items in (("internal", env.internal), ("invalid", env.invalid),
                                ("critical", env.critical), ("undocumented", env.undocumented),
                                ("known defect", env.known),
                                ("server line", fuzz.unknown_problems(seen.problems))):
                for item in items[:5]:
                    print(f"{what}: {item}")
            print(f"clean result: {json.dumps(clean, sort_keys=True)}")
            print(f"noisy result: {json.dumps(noisy, sort_keys=True)}")
            print(json.dumps(figures), flush=True)
            if not env.sent or not seen.count:
                raise Broken("nothing was measured: no message sent or no server line checked")
            if (env.internal or env.invalid or env.critical or env.undocumented
                    or fuzz.unknown_problems(seen.problems) or clean != noisy):
                raise Broken("the protocol broke: see above")

        return d.addCallback(done)

    task.react(run)


if __name__ == "__main__":
    main()
