"""Acceptance screenshots of a LAN evening without friction (what a player sees from the
menu to the results, for a person to look at), of the real client driven like a player
would drive it, with its embedded server (``--testing`` options: a stacked Omerta deck,
so the match ends on cue) and a second player, Vito, on
a connection of his own.

For each size (1280x720, 1920x1080) and language (EN, FR), into ``--out``:

* ``help-omerta-<lang>-<size>``, ``help-famiglia-<lang>-<size>`` -- the rules help (F1);
* ``lobby-host-<lang>-<size>`` -- the host's controls (a free seat: Start says so),
  ``lobby-host-ready-...`` (every seat taken: Start on), ``lobby-guest-...`` (Vito's
  view: the host badge, no controls), ``lobby-options-...`` (the options dialog);
* ``table-emote-<lang>-<size>`` -- the table with two emotes showing (ours by F5, Vito's);
* ``omerta-declare-confirm-<lang>-<size>`` -- one click on "Declare Omerta!": the
  confirmation before declaring;
* ``results-rematch-<lang>-<size>`` -- the final results with Play again, Vito having
  asked; ``results-scoreboard-...`` -- the evening's scoreboard (Tab);
  ``table-match2-...`` -- the next match, started by Play again;
* ``join-scoreboard-<lang>-<size>`` -- the join screen: the tables with their host,
  and the evening's scoreboard.

Shots are the window itself (``pygame.image.save``).

    xvfb-run -a -s "-screen 0 1920x1080x24" .venv/bin/python -m tools.screenshots_issue13 --out /tmp/issue13
"""
from __future__ import annotations

import tools.sandbox  # noqa: F401  (a private data dir: never the player's replays)
import argparse
import os
import sys
from typing import Any

import pygame

from tools.screenshots import Driver, start_app

DECK = ["7", "1", "2", "3", "4", "5", "6", "8", "9", "10", "1", "2", "2", "3", "4", "5", "7"]


class WindowDriver(Driver):
    """A :class:`tools.screenshots.Driver` whose shots are the window only."""

    def shot(self, name: str) -> str:
        self.app.display.render(1 / 60)
        self.pump(0.03)
        path = os.path.join(self.out, f"{name}.png")
        pygame.image.save(self.app.display.screen, path)
        print("shot", path, flush=True)
        return path


class Recorder:
    """Vito's connection: every pushed message."""

    def __init__(self) -> None:
        self.msgs: list[dict[str, Any]] = []

    def on_message(self, msg: dict[str, Any]) -> None:
        self.msgs.append(msg)

    def on_disconnect(self, reason: Any) -> None:
        pass

    def legal(self) -> list[dict[str, Any]]:
        for m in reversed(self.msgs):
            if m.get("type") in ("update", "match_started"):
                return m.get("legal") or []
        return []


def wait(d: Driver, what: Any, timeout: float = 20.0, label: str = "") -> Any:
    """Pump until the Deferred ``what`` fired (its result) or, a callable, is true."""
    if callable(what):
        if not d.pump(timeout, what):
            raise SystemExit(f"timed out: {label}")
        return True
    box: dict[str, Any] = {}
    what.addCallbacks(lambda r: box.setdefault("ok", r), lambda f: box.setdefault("err", f))
    d.pump(timeout, lambda: bool(box))
    if "err" in box:
        raise SystemExit(f"{label}: {box['err'].value}")
    if "ok" not in box:
        raise SystemExit(f"timed out: {label}")
    return box["ok"]


def evening(d: Driver, app: Any, link: Any, vito: Any, rec: Recorder, tag: str) -> None:
    """One table from the lobby to the second match, with shots along the way."""
    from client.games.omerta.table import OmertaTableScene
    from client.scenes.help import HelpScene
    from client.scenes.options import OptionsScene
    from client.scenes.lobby import LobbyScene
    from client.table.results import ResultsOverlay

    for game in ("omerta", "famiglia"):
        app.reset(HelpScene(app, game))
        d.pump(0.3)
        d.shot(f"help-{game}-{tag}")
    reply = wait(d, link.request("create_table", game="omerta", seats=3, name="Friday night",
                                 options={"start": "host", "rounds": 1, "deck": DECK, "first_player": 0,
                                          "bot_takeover": "never"}),
                 label="create_table")
    tid = reply["table"]["id"]
    app.tables[tid] = reply["table"]
    wait(d, link.request("join", table=tid, seat=0), label="join")
    lobby = app.reset(LobbyScene(app, link, app.tables[tid], host=True))
    wait(d, vito.request("join", table=tid, seat=1), label="vito joins")
    wait(d, lambda: lobby.table["seats"][1].get("name") == "Vito", label="Vito in the lobby")
    d.pump(0.5)
    d.shot(f"lobby-host-{tag}")
    guest = app.reset(LobbyScene(app, link, dict(lobby.table), my_seat=1))  # Vito's view of it
    guest.address = lobby.address
    d.pump(0.3)
    d.shot(f"lobby-guest-{tag}")
    lobby = app.reset(LobbyScene(app, link, app.tables[tid], host=True))
    d.pump(0.3)
    d.click(lobby.controls["options"].rect.center)
    d.pump(0.3)
    if isinstance(app.top, OptionsScene):
        d.shot(f"lobby-options-{tag}")
        app.pop()
    d.pump(0.2)
    d.click(lobby.controls["add:2"].rect.center)
    wait(d, lambda: lobby.b_start is not None and lobby.b_start.is_enabled, label="Start on")
    d.pump(0.3)
    d.shot(f"lobby-host-ready-{tag}")
    d.click(lobby.b_start.rect.center)
    wait(d, lambda: isinstance(app.top, OmertaTableScene), label="the match starts")
    table = app.top
    d.pump(0.8)
    d.key(pygame.K_F5)  # Bravo!
    vito.request("emote", table=tid, emote="well_played").addErrback(lambda f: None)
    wait(d, lambda: 0 in table.emotes.board.shown and 1 in table.emotes.board.shown, label="the emotes")
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=(5, 5), rel=(0, 0), buttons=(0, 0, 0)))
    d.pump(0.6)
    d.shot(f"table-emote-{tag}")
    # both players peek; Alice declares with two clicks
    wait(d, lambda: any(a["type"] == "peek" for a in table.legal.get(0, [])) and
         any(a["type"] == "peek" for a in rec.legal()), label="the peek")
    wait(d, table.links[0].conn.send_action(tid, next(a for a in table.legal[0] if a["type"] == "peek")),
         label="Alice peeks")
    wait(d, vito.send_action(tid, next(a for a in rec.legal() if a["type"] == "peek")), label="Vito peeks")
    if not d.pump(40, lambda: "0:declare_omerta" in table.buttons):
        print("buttons", list(table.buttons), "legal", table.legal.get(0), "phase", table.view.get("phase"),
              "vito", rec.legal(), file=sys.stderr)
        raise SystemExit("timed out: Alice's turn")
    d.pump(1.2)
    d.click(table.buttons["0:declare_omerta"].rect.center)
    d.pump(0.4)
    d.shot(f"omerta-declare-confirm-{tag}")
    d.click(table.buttons["0:declare_omerta"].rect.center)
    wait(d, lambda: isinstance(app.top, ResultsOverlay) and app.top.b_rematch is not None, timeout=40,
         label="the results")
    wait(d, vito.request("rematch", table=tid), label="Vito asks to play again")
    board = app.top
    wait(d, lambda: board.rematch_seats() == [1], label="Vito's ask shows")
    d.pump(1.6)
    board = app.top
    d.shot(f"results-rematch-{tag}")
    d.key(pygame.K_TAB)
    d.pump(0.3)
    d.shot(f"results-scoreboard-{tag}")
    d.key(pygame.K_TAB)
    d.pump(0.2)
    d.click(app.top.b_rematch.rect.center)
    wait(d, lambda: isinstance(app.top, OmertaTableScene) and app.top is not table, label="match 2")
    d.pump(1.0)
    d.shot(f"table-match2-{tag}")
    from client.scenes.join import JoinScene

    join = app.push(JoinScene(app))
    wait(d, lambda: any(t.get("id") == tid for t in join.tables) and join.scoreboard, label="the join list")
    d.pump(0.5)
    d.shot(f"join-scoreboard-{tag}")
    app.pop()
    wait(d, link.request("leave", table=tid), label="leave")
    vito.request("leave", table=tid).addErrback(lambda f: None)
    d.pump(0.3)


def run(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default="/tmp/issue13_shots")
    ap.add_argument("--sizes", default="1280x720,1920x1080")
    ap.add_argument("--languages", default="en,fr")
    args = ap.parse_args(argv)
    os.makedirs(args.out, exist_ok=True)
    from client import net

    sizes = [s.strip() for s in args.sizes.split(",") if s.strip()]
    # no heartbeat verdicts: this one process runs the server and both players, and a busy
    # machine may hold it up for seconds
    config = {"server": {"host": "127.0.0.1", "port": 0, "discovery_port": 0, "testing": True,
                         "heartbeat_timeout_s": 0},
              "bots": {"think_ms": 300}, "web": {"enabled": False}}
    app, d0, link = start_app(args.out, sizes[0], "en", "Alice", config)
    d = WindowDriver(app, args.out)
    rec = Recorder()
    vito = wait(d, net.connect(d.reactor, "127.0.0.1", app.connections.server_port, "Vito", listener=rec, timeout=5.0),
                label="Vito connects")
    for size in sizes:
        w, h = (int(x) for x in size.split("x"))
        app.display.resize((w, h))
        for lang in [x.strip() for x in args.languages.split(",") if x.strip()]:
            app.display.set_language(lang)
            evening(d, app, link, vito, rec, f"{lang}-{size}")
    vito.transport.loseConnection()
    app.running = False
    pygame.quit()
    return 0


if __name__ == "__main__":
    sys.exit(run())
