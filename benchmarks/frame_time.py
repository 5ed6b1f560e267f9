"""Frame time of a busy Omerta table at 1920x1080 (dummy SDL driver unless DISPLAY is
used): prints p50 / p99 / max of the client's per-frame work in ms.

"Busy": 5 seats with grown games (6-8 cards each), the discard pile full, a snap window
open with its countdown, and animations always running (a deal of every card, flips,
reveals, a penalty and a swap re-triggered every 40 frames). The frame is what the
60 Hz LoopingCall does: scene update + pygame_gui update + full redraw + flip.

    .venv/bin/python benchmarks/frame_time.py [--frames 600] [--size 1920x1080]
    .venv/bin/python benchmarks/frame_time.py --against REV [--rounds 4] [--size 1280x720]

``--against REV`` is the reference side by side: the benchmark as it is in commit ``REV``
(checked out in a temporary git worktree, same venv) and as it is here run alternately
``--rounds`` times each in child processes, so both see the same machine in the same
minutes; it prints each pair, then one JSON object (thread CPU ms, ``ratio_*`` today /
reference of the medians). It exits 1 when a run printed no figure, 2 when today's p99
median is above the reference's.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import tools.sandbox  # noqa: F401,E402  (a private data dir: never the player's replays)

from twisted.internet import defer  # noqa: E402

from client.app import App  # noqa: E402
from client.settings import Settings  # noqa: E402
from shared.config import merge  # noqa: E402
from shared.games import omerta  # noqa: E402
from shared.rules import events_for  # noqa: E402


class _Conn:
    def send_action(self, *a, **kw):
        return defer.Deferred()

    def request(self, *a, **kw):
        return defer.Deferred()


class _Link:
    conn = _Conn()
    address = ("127.0.0.1", 0)
    name = "bench"

    def request(self, *a, **kw):
        return defer.Deferred()


def busy_state():
    """A 5-seat match mid-round with many cards and a snap window open."""
    s = omerta.new_match({"seats": 5, "first_player": 0, "snap_timeout_ms": 600000}, 3)
    for p in range(5):
        s, _ = omerta.apply(s, p, omerta.Peek(tuple(sid for sid, _ in s.games[p][:2])))
    events = []
    for _ in range(400):
        if omerta.reaction_window(s) is not None and len(s.discard) > 12 and \
                min(len(g) for g in s.games) >= 5:
            break
        seat = next(iter(sorted(omerta.awaiting(s))))
        legal = omerta.legal_actions(s, seat)
        # prefer wrong snaps (penalty cards grow the games) and plain draws/discards
        pick = next((a for a in legal if isinstance(a, omerta.Snap)), None) or \
            next((a for a in legal if isinstance(a, (omerta.DrawDeck, omerta.DiscardDrawn,
                                                     omerta.Decline, omerta.SnapPass,
                                                     omerta.HitwomanPass))), legal[-1])
        s, events = omerta.apply(s, seat, pick)
    return s, events


def main(argv=None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--frames", type=int, default=600)
    ap.add_argument("--size", default="1920x1080")
    ap.add_argument("--no-deal", action="store_true", help="leave the deal out of the re-triggered events")
    ap.add_argument("--against", metavar="REV", help="compare with the benchmark at commit REV, side by side")
    ap.add_argument("--rounds", type=int, default=4, help="with --against: runs of each side, alternated")
    args = ap.parse_args(argv)
    if args.against:
        return against(args.against, args.rounds, args.frames, args.size)
    w, h = (int(x) for x in args.size.split("x"))
    from twisted.internet import reactor

    app = App(merge({}), Settings(name="bench", width=w, height=h, language="en"), reactor,
              settings_path=os.path.join(tempfile.mkdtemp(), "s.json"))
    app.open_window()
    app.pace_collector()  # as the client's main() does
    from client.games.omerta.table import OmertaTableScene

    state, events = busy_state()
    seat = 0
    view = omerta.view(state, seat)
    legal = [a.to_dict() for a in omerta.legal_actions(state, seat)]
    scene = app.reset(OmertaTableScene(app, _Link(), {"table": 1, "game": "omerta", "seat": seat,
                                                      "view": view, "legal": legal}))
    update = {"type": "update", "table": 1, "events": events_for(events, seat), "view": view, "legal": legal}
    slots = [s["slot"] for p in view["players"] for s in p["slots"]]
    busy = [{"type": "round_started", "slots": [[s["slot"] for s in p["slots"]] for p in view["players"]],
             "first": 0},
            {"type": "penalty", "seat": 1, "slot": view["players"][1]["slots"][-1]["slot"], "reason": "snap"},
            {"type": "swap", "seat": 2, "slots": [slots[0], slots[-1]]},
            {"type": "snap", "seat": 3, "slot": view["players"][3]["slots"][0]["slot"],
             "card": {"kind": "bottle", "name": "bottle", "value": 4, "points": 4}, "success": False},
            {"type": "look", "seat": 0, "reason": "mole", "slots": [view["players"][0]["slots"][0]["slot"]],
             "cards": [{"kind": "character", "name": "henchman", "value": 0, "points": 15}]}]
    if args.no_deal:
        busy = busy[1:]
    times, cpu = [], []
    dt = 1 / 60
    for i in range(args.frames + 60):
        if i % 40 == 0:
            scene.anim.finish()
            scene.on_message(dict(update, events=busy), scene.display)
        t0, c0 = time.perf_counter(), time.thread_time()
        app.display.render(dt)
        times.append((time.perf_counter() - t0) * 1000.0)
        cpu.append((time.thread_time() - c0) * 1000.0)
    times = sorted(times[60:])  # skip the warm-up (caches)
    cpu = sorted(cpu[60:])
    p = lambda q, xs=times: xs[min(len(xs) - 1, int(q * len(xs)))]  # noqa: E731
    print(f"frame time at {w}x{h}, {len(times)} frames, {len(scene.layout.slot_owner)} cards on the table, "
          f"{len(scene.anim.effects)} effects running at the end")
    print(f"wall: p50 {p(0.50):.2f} ms   p99 {p(0.99):.2f} ms   max {times[-1]:.2f} ms   "
          f"mean {statistics.mean(times):.2f} ms")
    print(f"cpu:  p50 {p(0.50, cpu):.2f} ms   p99 {p(0.99, cpu):.2f} ms   (thread CPU time: excludes time "
          f"stolen by other processes on a shared machine)")
    return 0


#: The line both today's benchmark and older ones print: thread CPU p50 and p99 (ms).
CPU_LINE = re.compile(r"cpu:\s+p50 ([0-9.]+) ms\s+p99 ([0-9.]+) ms")


def run_once(root: str, frames: int, size: str, hash_seed: int = 0) -> tuple[float, float] | None:
    """One run of ``root``'s benchmarks/frame_time.py in a child process with
    ``PYTHONHASHSEED=hash_seed``: its thread CPU (p50, p99) in ms, or None when it
    printed none (it failed). The hash seed orders sets and so the drawing's work: two
    runs of the same code differ by 10-30 % between seeds, so both sides of a round run
    with the same one."""
    env = {**os.environ, "PYTHONPATH": root, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy",
           "PYTHONHASHSEED": str(hash_seed)}
    done = subprocess.run([sys.executable, os.path.join(root, "benchmarks", "frame_time.py"),
                           "--frames", str(frames), "--size", size],
                          cwd=root, env=env, capture_output=True, text=True, timeout=600)
    m = CPU_LINE.search(done.stdout)
    if m is None:
        print(f"  {root}: no figure (exit {done.returncode}): {done.stderr.strip()[-400:]}", flush=True)
        return None
    return float(m.group(1)), float(m.group(2))


def against(rev: str, rounds: int, frames: int, size: str) -> int:
    """Today's tree (this file's checkout) and commit ``rev`` alternated ``rounds`` times;
    see the module docstring for the output and exit codes."""
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    ref = tempfile.mkdtemp(prefix="frame-ref-")
    subprocess.run(["git", "-C", here, "worktree", "add", "--detach", "-f", ref, rev],
                   check=True, capture_output=True)
    try:
        sides: dict[str, list[tuple[float, float]]] = {"reference": [], "today": []}
        for i in range(rounds):
            order = [("reference", ref), ("today", here)] if i % 2 == 0 else [("today", here), ("reference", ref)]
            for name, root in order:
                got = run_once(root, frames, size, hash_seed=i + 1)
                if got is None:
                    return 1
                sides[name].append(got)
                print(f"round {i + 1} {name:9s} cpu p50 {got[0]:.2f} ms  p99 {got[1]:.2f} ms", flush=True)
    finally:
        subprocess.run(["git", "-C", here, "worktree", "remove", "--force", ref], capture_output=True)
    med = {name: (statistics.median(x[0] for x in runs), statistics.median(x[1] for x in runs))
           for name, runs in sides.items()}
    pairs = list(zip(sides["today"], sides["reference"]))
    out = {"size": size, "frames": frames, "rounds": rounds, "reference": rev,
           "ref_cpu_p50_ms": round(med["reference"][0], 3), "ref_cpu_p99_ms": round(med["reference"][1], 3),
           "today_cpu_p50_ms": round(med["today"][0], 3), "today_cpu_p99_ms": round(med["today"][1], 3),
           "ratio_p50": round(med["today"][0] / med["reference"][0], 3),
           "ratio_p99": round(med["today"][1] / med["reference"][1], 3),
           "ratio_p99_pairs": sorted(round(t[1] / r[1], 3) for t, r in pairs)}
    print(json.dumps(out), flush=True)
    return 2 if med["today"][1] > med["reference"][1] else 0


if __name__ == "__main__":
    sys.exit(main())
