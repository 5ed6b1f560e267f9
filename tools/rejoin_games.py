"""A guest killed mid-match takes his seat back through the menu, in every game, with real
processes: a ``mafia-server``, server bots, and the guest's ``mafia-table`` driven through
:mod:`tools.puppet` (``SDL_VIDEODRIVER=dummy``).

For each game: an observer connection opens a table (the game's fewest seats) and fills
all seats but one with the server's bots; the guest sits down through *Join a table* (the
table in the list, *Sit down*), the match starts, he plays a few moves; his client is
killed (SIGKILL) and, once the server holds his seat, started again on the same data
directory. From the moment his menu is on screen, its *Rejoin your seat* entry is clicked
and the time until the server shows his seat human, connected and not away is
``rejoin_s`` (s, wall clock). The match goes on meanwhile (a stand-in plays his turns).

    .venv/bin/python -m tools.rejoin_games [--games omerta,mafiosi] [--keep DIR]

Last line: one JSON object ``{"rejoin_s": {game: s | null}, "ok": bool}``; it exits 1 when
a seat did not come back, a game was not measured, or a rejoin took 5 s or more.
``tests/test_rejoin_processes.py`` runs :func:`kill_and_rejoin` for each game (without the
5 s bar: tests do not judge wall-clock time).
"""
from __future__ import annotations

import tools.sandbox  # noqa: F401  (a private data dir)
import argparse
import contextlib
import json
import os
import re
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Iterator

from tools.puppet_driver import ROOT, Puppet, on_table, wait
from tools.rejoin_check import tables as list_tables

GAMES = ("omerta", "famiglia", "family_business", "mafiosi")
#: Seats per game (each game's fewest): the guest and the server's bots.
SEATS = {"omerta": 3, "famiglia": 2, "family_business": 3, "mafiosi": 3}
#: The acceptance bar: the guest's menu on screen -> his seat his again (s).
REJOIN_BAR_S = 5.0
SERVER_CONFIG = "server:\n  reconnect_grace_s: 120\nbots:\n  think_ms: 150\n"


@contextlib.contextmanager
def server_process(work: Path) -> Iterator[int]:
    """A ``mafia-server`` on a free loopback port with its data under ``work``; yields
    its port once it listens and terminates it after."""
    config = work / "server.yaml"
    config.write_text(SERVER_CONFIG)
    log = open(work / "server.log", "wb")
    proc = subprocess.Popen(
        [sys.executable, "-m", "server.main", "--host", "127.0.0.1", "--port", "0", "--no-discovery",
         "--web-port", "0", "--config", str(config), "--data-dir", str(work / "data")],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=log, env={**os.environ, "PYTHONPATH": str(ROOT)})
    try:
        line = proc.stdout.readline().decode() if proc.stdout else ""
        m = re.search(r"listening on 127\.0\.0\.1:(\d+)", line)
        if not m:
            raise RuntimeError(f"mafia-server did not start: {line!r} (see {work / 'server.log'})")
        yield int(m.group(1))
    finally:
        proc.terminate()
        proc.wait(10)
        log.close()


class Observer:
    """A plain protocol connection that opens the table and adds its bots (it stays
    connected: the table is its creator's until the match starts)."""

    def __init__(self, port: int, name: str = "Observer"):
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=10)
        self.file = self.sock.makefile("rwb")
        self.seq = 0
        self.request("hello", name=name)

    def request(self, kind: str, **fields: Any) -> dict[str, Any]:
        self.seq += 1
        self.file.write(json.dumps({"v": 1, "type": kind, "seq": self.seq, **fields}).encode() + b"\n")
        self.file.flush()
        while True:
            line = self.file.readline()
            if not line:
                raise ConnectionError(f"the server closed the connection during {kind!r}")
            msg = json.loads(line)
            if msg.get("re") == self.seq:
                if msg.get("type") == "error":
                    raise RuntimeError(f"{kind}: {msg}")
                return msg

    def close(self) -> None:
        """Drop the connection (its file too: a socket with an open file is not closed)."""
        self.file.close()
        self.sock.close()


def _seat_of(port: int, table_name: str, name: str) -> dict[str, Any] | None:
    for t in list_tables(port):
        if t.get("name") == table_name:
            for s in t.get("seats", []):
                if s.get("name") == name:  # a stand-in playing it: "bot" true, the name his
                    return dict(s)
    return None


def _present(who: Puppet, contains: str) -> bool:
    return any(contains in b["text"] for b in who.state().get("buttons", []))


def kill_and_rejoin(game: str, port: int, work: Path, seed: int = 7) -> float:
    """One game on the server at ``port``: returns ``rejoin_s`` (s). Raises
    ``AssertionError`` with what the guest's screen showed when a step did not happen."""
    table_name = f"Rejoin {game}"[:20]
    observer = Observer(port)
    guest = Puppet("Lena", work, ["--connect", f"127.0.0.1:{port}"],
                   {"server": {"discovery_port": 0}, "web": {"enabled": False}})
    try:
        reply = observer.request("create_table", game=game, seats=SEATS[game], name=table_name,
                                 options={"seed": seed})
        table_id = reply["table"]["id"]
        for seat in range(1, SEATS[game]):
            observer.request("add_bot", table=table_id, seat=seat)
        guest.start()
        assert wait(lambda: guest.state().get("scene") == "MenuScene", 30), guest.state()
        guest.ask(op="click", text="Join a table")
        assert wait(lambda: _present(guest, table_name), 30, 0.1), guest.state()  # a busy machine: slow to list
        for _ in range(3):  # the list may be rebuilt under the first click (a table summary came)
            guest.ask(op="click", contains=table_name)
            time.sleep(0.5)
            guest.ask(op="click", text="Sit down")
            if wait(lambda: on_table(guest.state()), 8, 0.1):
                break
        assert on_table(guest.state()), guest.state()
        guest.ask(op="autoplay", on=True, seed=seed, think_s=0.2)
        time.sleep(2.0)  # a few moves of his own
        guest.kill()
        assert wait(lambda: (lambda s: s is not None and not s.get("connected"))(
            _seat_of(port, table_name, "Lena")), 15, 0.1), list_tables(port)
        guest.start()
        assert wait(lambda: guest.state().get("scene") == "MenuScene", 30, 0.05), guest.state()
        shown = time.monotonic()
        st = wait(lambda: (lambda s: s if s.get("rejoin") else None)(guest.state()), 15, 0.05)
        assert st, f"{game}: the menu never offered the seat back: {guest.state()}"
        guest.ask(op="click", text=st["rejoin"])
        back = wait(lambda: (lambda s: s is not None and s.get("connected") and not s.get("away")
                             and not s.get("bot"))(
            _seat_of(port, table_name, "Lena")), 30, 0.05)
        took = time.monotonic() - shown
        assert back, f"{game}: the seat did not come back: {_seat_of(port, table_name, 'Lena')}"
        assert wait(lambda: on_table(guest.state()), 10, 0.05), guest.state()
        return took
    finally:
        guest.stop()
        observer.close()


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--games", default=",".join(GAMES), help="comma-separated games")
    p.add_argument("--keep", metavar="DIR", help="keep the data and logs in DIR")
    args = p.parse_args()
    games = [g for g in args.games.split(",") if g]
    out: dict[str, float | None] = {}
    with contextlib.ExitStack() as stack:
        work = Path(args.keep) if args.keep else Path(stack.enter_context(tempfile.TemporaryDirectory()))
        work.mkdir(parents=True, exist_ok=True)
        port = stack.enter_context(server_process(work))
        for game in games:
            game_dir = work / game
            game_dir.mkdir(exist_ok=True)
            try:
                out[game] = round(kill_and_rejoin(game, port, game_dir), 2)
            except AssertionError as e:
                print(f"{game}: {e}", flush=True)
                out[game] = None
            print(f"{game}: rejoin_s {out[game]}", flush=True)
    ok = bool(out) and all(v is not None and v < REJOIN_BAR_S for v in out.values())
    print(json.dumps({"rejoin_s": out, "ok": ok}), flush=True)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
