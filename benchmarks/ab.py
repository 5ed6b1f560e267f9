"""A benchmark run on a reference commit and on this tree, interleaved, in one run.

On a shared machine whose speed moves by a factor of two from hour to hour, a figure
means something only beside a reference measured in the same minutes. This script
checks the reference out into a temporary ``git worktree`` and runs the same benchmark
script alternately there and here (``--rounds`` times each: ref, this, ref, this, ...),
then prints each run's last lines side by side. A script, not a test.

    .venv/bin/python benchmarks/ab.py --ref db125f9 --rounds 2 -- benchmarks/server_load.py --quick
    .venv/bin/python benchmarks/ab.py --ref HEAD~3 -- benchmarks/frame_time.py --frames 300

Exits non-zero when a run fails or prints nothing (a comparison of nothing is no figure).
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
import tools.sandbox  # noqa: F401,E402  (private data dir: both sides' runs inherit it)


def run(tree: Path, script: list[str], tail: int) -> list[str]:
    """Run ``script`` (a path relative to the tree, then its arguments) with this
    interpreter inside ``tree``; its last ``tail`` lines of output. Raises
    ``SystemExit`` when it fails or prints nothing."""
    env = {**os.environ, "PYTHONPATH": str(tree)}
    proc = subprocess.run([sys.executable, str(tree / script[0]), *script[1:]], cwd=tree, env=env,
                          capture_output=True, text=True)
    lines = [line for line in proc.stdout.splitlines() if line.strip()]
    if proc.returncode != 0 or not lines:
        sys.stderr.write(proc.stderr[-4000:])
        raise SystemExit(f"{script[0]} in {tree} failed (exit {proc.returncode}) or printed nothing")
    return lines[-tail:]


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--ref", required=True, help="the reference commit (any git revision)")
    p.add_argument("--rounds", type=int, default=2, help="runs on each side (default 2)")
    p.add_argument("--tail", type=int, default=3, help="last lines of each run to print (default 3)")
    p.add_argument("script", nargs=argparse.REMAINDER, help="-- SCRIPT [ARGS...]")
    args = p.parse_args()
    script = [a for a in args.script if a != "--"] if args.script[:1] == ["--"] else args.script
    if not script:
        p.error("name the benchmark script after --")
    if args.rounds < 1:
        p.error("--rounds must be at least 1")
    with tempfile.TemporaryDirectory(prefix="ab-") as tmp:
        ref_tree = Path(tmp) / "ref"
        subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", "-q", str(ref_tree), args.ref],
                       check=True)
        try:
            for k in range(args.rounds):
                for label, tree in (("ref " + args.ref, ref_tree), ("this tree", ROOT)):
                    print(f"== round {k + 1}, {label}", flush=True)
                    for line in run(tree, script, args.tail):
                        print("   ", line, flush=True)
        finally:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(ref_tree)],
                           check=False)


if __name__ == "__main__":
    main()
