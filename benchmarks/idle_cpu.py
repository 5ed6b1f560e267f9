"""CPU cost of an idle client (a client left on the menu or as a TV view must not keep a
core busy or drain a laptop): the real ``mafia-table`` process on a virtual screen, first
on the main menu (its embedded server running), then as the TV view (``--tv``) watching
a table of bots on a separate ``mafia-server``. Each is
measured over ``--seconds`` (10 s) of the process's own CPU time (user + system, from
``/proc/<pid>/stat``) after a warm-up; ``core_percent`` = CPU s / wall s * 100.

Starts ``Xvfb`` itself on a free display (``:40``-``:49``) when ``DISPLAY`` is not set.
Everything runs in a private data directory (``tools.sandbox``). Target: < 5 each.

    .venv/bin/python benchmarks/idle_cpu.py [--seconds 10] [--warmup 6] [--port 24110]

Last line: ``{"menu_core_percent": ..., "tv_core_percent": ...}``.
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
    p.add_argument("--warmup", type=float, default=6.0, help="time to let each view settle first (s)")
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
        time.sleep(args.warmup)
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
                                 "--timeout", str(int(args.warmup + args.seconds + 60))],
                                cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        procs.append(bots)
        time.sleep(1.0)
        tv = client(["--tv", "--connect", f"127.0.0.1:{args.port}", "--name", "TV"], work)
        procs.append(tv)
        time.sleep(args.warmup)
        if tv.poll() is not None:
            raise SystemExit(f"idle_cpu: the TV client exited ({tv.returncode}); see {work}/client.err")
        tv_pc = core_percent(tv.pid, args.seconds)
        print(f"tv: {tv_pc} % of a core over {args.seconds:g} s (bots still playing: {bots.poll() is None})",
              flush=True)
    finally:
        for proc in reversed(procs):
            stop(proc)
        stop(xvfb)
        shutil.rmtree(work, ignore_errors=True)
    print(json.dumps({"menu_core_percent": menu_pc, "tv_core_percent": tv_pc}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
