"""Acceptance check of "Getting your seat back" (a player whose client dies, or whose host
restarts, sits down again in the same seat), with real processes on a virtual screen
(starts ``Xvfb`` on :40-:49 when there is no ``DISPLAY``):

1. A host runs ``mafia-table`` (its embedded server on ``--port``, a short
   ``reconnect_grace_s`` so a bot takes a lost seat over at once); two friends run
   ``mafia-table --connect``. The three sit at a 3-seat Omerta table (the seating is
   done by a hook in each first process, through the client's own ``Link.request``;
   everything after it is the plain client driven with ``xdotool``) and the match starts.
2. Ann's client is killed with SIGKILL; once a bot holds her seat she starts
   ``mafia-table`` again: from the moment its window (the menu) appears, ``R`` ("Rejoin
   your seat at Evening") is pressed until the server shows her seat human and
   connected again. Pass: within 5 s of the window appearing (``ann_rejoin_s``).
3. The host closes his window: the client asks first (friends are playing on his
   server); confirmed, it quits. Started again on the same data directory, his embedded
   server restores the match; his menu offers his seat back (``R``), the friends'
   clients reconnect by themselves. Pass: every seat human, connected, the same names.

Each player has its own data directory (its own ``seats.json``), all inside a private
sandbox (``tools.sandbox``). Seats are read by an observer connection (``list_tables``).
Screenshots go to ``--out``. Last line: one JSON object with the timings and ``ok``.

    .venv/bin/python -m tools.rejoin_check [--port 24120] [--out /tmp/rejoin_shots]
"""
from __future__ import annotations

import tools.sandbox  # noqa: F401  (a private data dir: never the player's replays)
import argparse
import json
import os
import signal
import socket
import subprocess
import sys
import time
from typing import Any

import yaml

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TABLE = "Evening"


# -- a player process's first run: the real client plus a seating hook ------------------

def player_main(setup: str, argv: list[str]) -> None:
    """``mafia-table`` with ``argv``; once connected, ``setup`` = ``create`` opens the
    3-seat table and sits at seat 0, ``join`` sits at the first free seat of it."""
    from twisted.internet import reactor

    import client.app as app_mod

    real_start = app_mod.App.start

    def start(self: Any):
        def seated(link: Any) -> Any:
            if setup == "create":
                link.request("create_table", game="omerta", seats=3, name=TABLE, options={}).addCallback(
                    lambda r: link.request("join", table=r["table"]["id"], seat=0))
            else:
                def listed(reply: dict) -> None:
                    ready = [t for t in reply.get("tables", []) if t.get("name") == TABLE
                             and t.get("status") == "waiting"]
                    if not ready:
                        reactor.callLater(0.3, lambda: link.request("list_tables").addCallback(listed))
                        return
                    link.request("join", table=ready[0]["id"]).addErrback(
                        lambda f: reactor.callLater(0.3, lambda: link.request("list_tables").addCallback(listed)))

                link.request("list_tables").addCallback(listed)
            return link

        return real_start(self).addCallback(seated)

    app_mod.App.start = start
    app_mod.main(argv)


# -- looking at the server ---------------------------------------------------------------

def tables(port: int) -> list[dict[str, Any]]:
    """``list_tables`` of the server on ``port`` by a fresh connection ([] when down)."""
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=2) as s:
            s.settimeout(2)
            f = s.makefile("rwb")
            end = time.monotonic() + 3
            for seq, kind, extra in ((1, "hello", {"name": "Observer"}), (2, "list_tables", {})):
                f.write(json.dumps({"v": 1, "type": kind, "seq": seq, **extra}).encode() + b"\n")
                f.flush()
                while time.monotonic() < end:
                    line = f.readline()
                    if not line:
                        return []
                    msg = json.loads(line)
                    if msg.get("re") == seq:
                        break
                else:
                    return []
            return list(msg.get("tables", []))
    except (OSError, ValueError):
        return []


def seats(port: int) -> list[dict[str, Any]] | None:
    """The seats of the table named :data:`TABLE` while its match runs, else None."""
    for t in tables(port):
        if t.get("name") == TABLE and t.get("status") == "playing":
            return list(t.get("seats", []))
    return None


def human(seat: dict[str, Any], name: str) -> bool:
    return seat.get("name") == name and not seat.get("bot") and seat.get("connected") and not seat.get("away")


def wait(cond, timeout: float, step: float = 0.1) -> bool:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if cond():
            return True
        time.sleep(step)
    return bool(cond())


# -- the screen --------------------------------------------------------------------------

def start_xvfb() -> subprocess.Popen | None:
    if os.environ.get("DISPLAY"):
        return None
    for n in range(40, 50):
        if os.path.exists(f"/tmp/.X11-unix/X{n}") or os.path.exists(f"/tmp/.X{n}-lock"):
            continue
        proc = subprocess.Popen(["Xvfb", f":{n}", "-screen", "0", "1920x1080x24", "-nolisten", "tcp"],
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        if wait(lambda: os.path.exists(f"/tmp/.X11-unix/X{n}") or proc.poll() is not None, 5) and proc.poll() is None:
            os.environ["DISPLAY"] = f":{n}"
            return proc
        proc.kill()
    raise SystemExit("rejoin_check: could not start Xvfb on :40-:49")


def window_of(pid: int) -> str | None:
    out = subprocess.run(["xdotool", "search", "--onlyvisible", "--pid", str(pid)], capture_output=True, text=True)
    ids = out.stdout.split()
    return ids[-1] if ids else None


def close_window(window: str) -> bool:
    """Ask ``window`` to close as a window manager's close button does (a
    ``WM_DELETE_WINDOW`` client message; SDL turns it into ``pygame.QUIT``). Xvfb has no
    window manager and ``xdotool windowclose`` destroys the window instead."""
    import ctypes
    import ctypes.util

    lib = ctypes.util.find_library("X11")
    if lib is None:
        return False
    x = ctypes.cdll.LoadLibrary(lib)
    x.XOpenDisplay.restype = ctypes.c_void_p
    x.XOpenDisplay.argtypes = [ctypes.c_char_p]
    x.XInternAtom.restype = ctypes.c_ulong
    x.XInternAtom.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int]
    x.XSendEvent.argtypes = [ctypes.c_void_p, ctypes.c_ulong, ctypes.c_int, ctypes.c_long, ctypes.c_void_p]
    x.XFlush.argtypes = [ctypes.c_void_p]
    x.XCloseDisplay.argtypes = [ctypes.c_void_p]

    class ClientMessage(ctypes.Structure):
        _fields_ = [("type", ctypes.c_int), ("serial", ctypes.c_ulong), ("send_event", ctypes.c_int),
                    ("display", ctypes.c_void_p), ("window", ctypes.c_ulong), ("message_type", ctypes.c_ulong),
                    ("format", ctypes.c_int), ("l", ctypes.c_long * 5), ("pad", ctypes.c_long * 12)]

    dpy = x.XOpenDisplay(None)
    if not dpy:
        return False
    try:
        ev = ClientMessage()
        ev.type = 33  # ClientMessage
        ev.display = dpy
        ev.window = int(window)
        ev.message_type = x.XInternAtom(dpy, b"WM_PROTOCOLS", 0)
        ev.format = 32
        ev.l[0] = x.XInternAtom(dpy, b"WM_DELETE_WINDOW", 0)
        ev.l[1] = 0  # CurrentTime
        x.XSendEvent(dpy, int(window), 0, 0, ctypes.byref(ev))
        x.XFlush(dpy)
    finally:
        x.XCloseDisplay(dpy)
    return True


def shot(out: str, name: str, window: str = "root", wait_for: bool = True) -> None:
    """``window`` (an X window id, or the whole screen) as ``out/name.png``; with
    ``wait_for`` False the capture runs on while the check goes on."""
    if window != "root":  # the windows overlap: without a compositor only the top one can be read
        subprocess.run(["xdotool", "windowraise", window], check=False, stderr=subprocess.DEVNULL)
        time.sleep(0.15)  # its next (idle) frame repaints it
    cmd = ["import", "-window", window, os.path.join(out, f"{name}.png")]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    if wait_for:
        proc.wait()


class Player:
    """One person's client processes (each with its own data and config directory)."""

    def __init__(self, name: str, work: str, args: list[str]):
        self.name = name
        self.args = args
        home = os.path.join(work, name)
        self.env = dict(os.environ, XDG_DATA_HOME=os.path.join(home, "data"),
                        XDG_CONFIG_HOME=os.path.join(home, "config"), SDL_AUDIODRIVER="dummy",
                        PYGAME_HIDE_SUPPORT_PROMPT="1")
        self.env.pop("SDL_VIDEODRIVER", None)
        self.log = open(os.path.join(work, f"{name}.log"), "ab")
        self.proc: subprocess.Popen | None = None

    def argv(self) -> list[str]:
        return ["--name", self.name, "--windowed", "960x540", "--language", "en", *self.args]

    def start(self, setup: str | None = None) -> None:
        if setup:
            cmd = [sys.executable, "-m", "tools.rejoin_check", "--player-setup", setup, "--", *self.argv()]
        else:
            cmd = [sys.executable, "-m", "client.app", *self.argv()]
        self.proc = subprocess.Popen(cmd, cwd=ROOT, env=self.env, stdout=self.log, stderr=self.log)

    def window(self, timeout: float = 20.0) -> str | None:
        found: dict[str, str] = {}

        def seen() -> bool:
            w = window_of(self.proc.pid)
            if w:
                found["w"] = w
            return bool(w)

        wait(seen, timeout, 0.05)
        return found.get("w")

    def key(self, window: str, key: str) -> None:
        subprocess.run(["xdotool", "key", "--window", window, key], check=False,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()


def rejoin_by_key(player: Player, window: str, back, timeout: float, since: float) -> float | None:
    """Press R on ``window`` until ``back()``; seconds from ``since`` (the monotonic time
    the window appeared) until the server showed the seat back, None on timeout."""
    t0 = time.monotonic()
    while time.monotonic() - t0 < timeout:
        if back():
            return round(time.monotonic() - since, 2)
        player.key(window, "r")
        wait(back, 0.3, 0.05)
    return None


def run(args: argparse.Namespace) -> dict[str, Any]:
    out = args.out
    os.makedirs(out, exist_ok=True)
    work = os.path.join(tools.sandbox.ROOT or "/tmp", "rejoin")
    os.makedirs(work, exist_ok=True)
    with open(os.path.join(ROOT, "config.yaml"), encoding="utf-8") as f:
        config = yaml.safe_load(f)
    config["server"].update(port=args.port, discovery_port=args.port + 1, reconnect_grace_s=2,
                            data_dir=os.path.join(work, "host-matches"))
    config.setdefault("web", {})["port"] = args.port + 2
    cfg = os.path.join(work, "host.yaml")
    with open(cfg, "w", encoding="utf-8") as f:
        yaml.safe_dump(config, f)
    address = f"127.0.0.1:{args.port}"
    host = Player("Host", work, ["--config", cfg])
    ann = Player("Ann", work, ["--connect", address])
    bob = Player("Bob", work, ["--connect", address])
    result: dict[str, Any] = {"ok": False}
    try:
        host.start("create")
        if not wait(lambda: tables(args.port), 20):
            raise RuntimeError("the host's server did not come up")
        ann.start("join")
        bob.start("join")
        names = ["Host", "Ann", "Bob"]

        def everyone() -> bool:
            s = seats(args.port)
            return s is not None and sorted(x.get("name") for x in s) == sorted(names) and \
                all(human(x, x.get("name")) for x in s)

        if not wait(everyone, 30):
            raise RuntimeError(f"the match did not start with the three players: {tables(args.port)}")
        seat_of = {x["name"]: x["seat"] for x in seats(args.port)}
        time.sleep(1.5)
        shot(out, "1-match")

        # -- Ann is killed and comes back
        ann.proc.send_signal(signal.SIGKILL)
        ann.proc.wait()

        def ann_seat() -> dict[str, Any]:
            return next((x for x in (seats(args.port) or []) if x.get("seat") == seat_of["Ann"]), {})

        result["bot_took_over"] = wait(lambda: ann_seat().get("bot") or ann_seat().get("away"), 10)
        time.sleep(2.5)  # the grace period (2 s) is over: a bot plays her seat
        result["ann_seat_while_away"] = ann_seat()
        t_start = time.monotonic()
        ann.start()
        w = ann.window()
        t_window = time.monotonic()
        if w is None:
            raise RuntimeError("Ann's restarted client shows no window")
        result["ann_window_s"] = round(t_window - t_start, 2)
        time.sleep(0.4)  # its first frame (counted in the 5 s)
        shot(out, "2-ann-menu", w, wait_for=False)
        took = rejoin_by_key(ann, w, lambda: human(ann_seat(), "Ann"), 15, t_window)
        result["ann_rejoin_s"] = took
        time.sleep(1.0)
        shot(out, "3-ann-back", w)
        if took is None:
            raise RuntimeError(f"Ann did not get her seat back: {ann_seat()}")

        # -- the host quits (asked first) and comes back
        hw = host.window(5)
        close_window(hw)
        time.sleep(1.5)
        shot(out, "4-host-quit-asked", hw)
        result["host_asked"] = host.proc.poll() is None
        host.key(hw, "Return")
        result["host_quit"] = wait(lambda: host.proc.poll() is not None, 10)
        if not result["host_quit"]:
            host.stop()
        result["friends_alive"] = ann.proc.poll() is None and bob.proc.poll() is None
        time.sleep(2.0)
        shot(out, "5-friends-waiting", w)
        t_start = time.monotonic()
        host.start()
        hw = host.window()
        if hw is None:
            raise RuntimeError("the restarted host shows no window")
        t_menu = time.monotonic()
        result["host_window_s"] = round(t_menu - t_start, 2)

        def host_seat() -> dict[str, Any]:
            return next((x for x in (seats(args.port) or []) if x.get("seat") == seat_of["Host"]), {})

        result["host_rejoin_s"] = rejoin_by_key(host, hw, lambda: human(host_seat(), "Host"), 20, t_menu)
        result["everyone_back"] = wait(everyone, 30)
        result["everyone_back_s"] = round(time.monotonic() - t_menu, 2)
        result["seats_after"] = [(x.get("seat"), x.get("name"), bool(x.get("bot")), bool(x.get("connected")))
                                 for x in (seats(args.port) or [])]
        result["same_seats"] = {x["name"]: x["seat"] for x in seats(args.port) or []} == seat_of
        time.sleep(1.0)
        shot(out, "6-host-back", hw)
        result["ok"] = bool(result["ann_rejoin_s"] is not None and result["ann_rejoin_s"] < 5.0
                            and result["host_asked"] and result["host_quit"] and result["friends_alive"]
                            and result["host_rejoin_s"] is not None and result["everyone_back"]
                            and result["same_seats"])
    except RuntimeError as e:
        result["error"] = str(e)
        for p in (host, ann, bob):  # what each client said, for the report
            p.log.flush()
            with open(p.log.name, "rb") as f:
                result[f"log_{p.name}"] = f.read()[-1500:].decode("utf-8", "replace")
    finally:
        for p in (ann, bob, host):
            p.stop()
    return result


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] == ["--player-setup"]:
        player_main(argv[1], argv[3:])
        return 0
    p = argparse.ArgumentParser(description="acceptance: rejoin after SIGKILL and after a host restart")
    p.add_argument("--port", type=int, default=24120, help="TCP port of the host's embedded server (+1, +2 used too)")
    p.add_argument("--out", default="/tmp/rejoin_shots", help="screenshots folder")
    args = p.parse_args(argv)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # stopped: still clean up (finally)
    xvfb = start_xvfb()
    try:
        result = run(args)
    finally:
        if xvfb is not None:  # SIGTERM: Xvfb removes its lock and socket
            xvfb.terminate()
            try:
                xvfb.wait(5)
            except subprocess.TimeoutExpired:
                xvfb.kill()
    print(json.dumps(result))
    return 0 if result.get("ok") else 1


if __name__ == "__main__":
    sys.exit(main())
