"""CPU cost of an idle client (a client left on the menu or as a TV view must not keep a
core busy or drain a laptop): the real ``mafia-table`` process on a virtual screen, first
on the main menu (its embedded server running), then as the TV view (``--tv``) watching
a table of bots on a separate ``mafia-server``. Each is
measured over ``--seconds`` (10 s) of the process's own CPU time (user + system, from
``/proc/<pid>/stat``) once it has settled; ``core_percent`` = CPU s / wall s * 100.

The warm-up is not a fixed time: on a busy machine the client's start-up (imports, the
window, the card art, the embedded server) takes longer in wall time, and a fixed 6 s
measured the end of it. Each view is measured once its process used less than
``--settle-percent`` (15 %) of a core in two consecutive seconds, at least
``--warmup`` s after it started and at most ``--warmup-max`` s (then it says so).

Starts ``Xvfb`` itself on a free display (``:40``-``:49``) when ``DISPLAY`` is not set.
Everything runs in a private data directory (``tools.sandbox``). Target: < 5 each.

    .venv/bin/python benchmarks/idle_cpu.py [--seconds 10] [--warmup 3] [--port 24110]

Last line: ``{"menu_core_percent": ..., "tv_core_percent": ..., "menu_settled_s": ...,
"tv_settled_s": ...}`` (``*_settled_s``: when each view settled, s after it started).
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

import tools.sandbox  # noqa: F401,E402  (private data dir)

TICK = os.sysconf("SC_CLK_TCK")


def cpu_s(pid: int) -> float:
    """User + system CPU seconds of process ``pid`` so far."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICK


def core_percent(pid: int, seconds: float) -> float:
    c0, t0 = cpu_s(pid), time.monotonic()
    time.sleep(seconds)
    c1, t1 = cpu_s(pid), time.monotonic()
    return round((c1 - c0) / (t1 - t0) * 100.0, 2)


def settle(pid: int, least_s: float, most_s: float, below_percent: float) -> tuple[float, bool]:
    """Wait until process ``pid`` used less than ``below_percent`` of a core in two
    consecutive 1 s windows, from ``least_s`` to ``most_s`` s from now: ``(s waited,
    settled)``."""
    t0 = time.monotonic()
    time.sleep(least_s)
    quiet = 0
    while time.monotonic() - t0 < most_s:
        quiet = quiet + 1 if core_percent(pid, 1.0) < below_percent else 0
        if quiet >= 2:
            return time.monotonic() - t0, True
    return time.monotonic() - t0, False


def start_xvfb() -> subprocess.Popen | None:
    """A virtual screen when there is none: sets DISPLAY; returns the Xvfb process."""
    if os.environ.get("DISPLAY"):
        return None
    if not shutil.which("Xvfb"):
        raise SystemExit("idle_cpu: no DISPLAY and no Xvfb")
    for n in range(40, 50):
        if os.path.exists(f"/tmp/.X11-unix/X{n}") or os.path.exists(f"/tmp/.X{n}-lock"):
            continue
        proc = subprocess.Popen(["Xvfb", f":{n}", "-screen", "0", "1280x720x24", "-nolisten", "tcp"],
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        for _ in range(50):
            if os.path.exists(f"/tmp/.X11-unix/X{n}"):
                os.environ["DISPLAY"] = f":{n}"
                return proc
            if proc.poll() is not None:
                break
            time.sleep(0.1)
        proc.kill()
    raise SystemExit("idle_cpu: could not start Xvfb on :40-:49")


def client(args: list[str], work: str) -> subprocess.Popen:
    env = dict(os.environ, SDL_AUDIODRIVER="dummy", PYGAME_HIDE_SUPPORT_PROMPT="1")
    env.pop("SDL_VIDEODRIVER", None)
    return subprocess.Popen([sys.executable, "-m", "client.app", "--windowed", "1280x720", "--language", "en",
                             "--settings", os.path.join(work, "settings.json"), *args],
                            cwd=ROOT, env=env, stdout=subprocess.DEVNULL,
                            stderr=open(os.path.join(work, "client.err"), "ab"))


def stop(proc: subprocess.Popen | None) -> None:
    if proc is None or proc.poll() is not None:
        return
    proc.terminate()
    try:
        proc.wait(5)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--seconds", type=float, default=10.0, help="measuring time of each view (s)")
    p.add_argument("--warmup", type=float, default=3.0, help="least time to let each view settle first (s)")
    p.add_argument("--warmup-max", type=float, default=60.0, help="most time to let each view settle (s)")
    p.add_argument("--settle-percent", type=float, default=15.0,
                   help="a view has settled once it uses less than this %% of a core two seconds running")
    p.add_argument("--port", type=int, default=24110, help="TCP port of the bots' server")
    p.add_argument("--game", default="omerta", help="game the bots play for the TV view")
    p.add_argument("--players", type=int, default=None, help="bots at the table (default 4; Famiglia 2)")
    p.add_argument("--seed", type=int, default=1, help="the bots' match seed (the same match each run)")
    args = p.parse_args(argv)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # stopped: still clean up (finally)
    work = tempfile.mkdtemp(prefix="idle-cpu-")
    xvfb = start_xvfb()
    procs: list[subprocess.Popen] = []
    try:
        menu = client(["--name", "Idle"], work)
        procs.append(menu)
        menu_settled, ok = settle(menu.pid, args.warmup, args.warmup_max, args.settle_percent)
        if not ok:
            print(f"menu: still above {args.settle_percent:g} % of a core after {menu_settled:.0f} s: measuring "
                  "anyway", flush=True)
        if menu.poll() is not None:
            raise SystemExit(f"idle_cpu: the client exited ({menu.returncode}); see {work}/client.err")
        menu_pc = core_percent(menu.pid, args.seconds)
        print(f"menu: {menu_pc} % of a core over {args.seconds:g} s", flush=True)
        stop(menu)

        server = subprocess.Popen([sys.executable, "-m", "server.main", "--host", "127.0.0.1", "--port",
                                   str(args.port), "--no-discovery", "--data-dir", os.path.join(work, "data")],
                                  cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        procs.append(server)
        time.sleep(1.5)
        bots = subprocess.Popen([sys.executable, "-m", "botclient.main", "--connect", f"127.0.0.1:{args.port}",
                                 "--create", args.game, "--players",
                                 str(args.players or (2 if args.game == "famiglia" else 4)), "--think-ms", "700",
                                 "--seed", str(args.seed),
                                 "--timeout", str(int(args.warmup_max + args.seconds + 60))],
                                cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        procs.append(bots)
        time.sleep(1.0)
        tv = client(["--tv", "--connect", f"127.0.0.1:{args.port}", "--name", "TV"], work)
        procs.append(tv)
        tv_settled, ok = settle(tv.pid, args.warmup, args.warmup_max, args.settle_percent)
        if not ok:
            print(f"tv: still above {args.settle_percent:g} % of a core after {tv_settled:.0f} s: measuring anyway",
                  flush=True)
        if tv.poll() is not None:
            raise SystemExit(f"idle_cpu: the TV client exited ({tv.returncode}); see {work}/client.err")
        tv_pc = core_percent(tv.pid, args.seconds)
        playing = bots.poll() is None
        print(f"tv: {tv_pc} % of a core over {args.seconds:g} s (bots still playing: {playing})", flush=True)
    finally:
        for proc in reversed(procs):
            stop(proc)
        stop(xvfb)
        shutil.rmtree(work, ignore_errors=True)
    print(json.dumps({"menu_core_percent": menu_pc, "tv_core_percent": tv_pc,
                      "menu_settled_s": round(menu_settled, 1), "tv_settled_s": round(tv_settled, 1)}))
    if not playing:
        print("MEASURED THE WRONG THING: the bots' match ended before the TV view was measured", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
