"""Joining survives a drop (issue 16): the connection lost between ``joined`` and
``match_started``.

* ``mafia-bot`` against a real ``mafia-server`` killed as the match log appears: the
  server (wrapped so that it dies right after writing the log, before any
  ``match_started`` leaves it) restores the match at step 0 on restart; every bot asks
  for its seat back with its token and the match ends with the result of the same seed
  played without a crash.
* The GUI, against a scripted server: the lobby of a joined table stays on screen while
  the seat is asked back; a restored match opens its table; a seat freed because the
  table was still waiting is taken again with ``join``; a table that is gone sends the
  player back to the menu with a sentence.
"""
from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

from client.i18n import tr
from client.net import ServerError
from tests.test_client_reconnect import SCENARIO, FakeConn, make
from tests.test_loopback_processes import REAL_TIME, ROOT
from tests.test_loopback_restart import SEED, Server, actions_in, bot, config_file, listening_port, result_of

#: ``mafia-server`` that dies (SIGKILL) as the match log appears: the first
#: ``match_started`` and every later push are swallowed, and the process kills itself
#: 0.3 s later (long enough for the ``joined`` replies to be written, so the bots hold
#: their tokens; the log's header is on disk, fsynced, with those tokens).
KILLED_AS_THE_LOG_APPEARS = """
import os, signal, sys
from twisted.internet import reactor
from server import protocol as sp

original = sp.ServerProtocol.push
dying = []

def push(self, msg_type, **fields):
    if msg_type == "match_started" and not dying:
        dying.append(reactor.callLater(0.3, os.kill, os.getpid(), signal.SIGKILL))
    if dying:
        return
    return original(self, msg_type, **fields)

sp.ServerProtocol.push = push
from server.main import main
main(sys.argv[1:])
"""


class DyingServer(Server):
    """:class:`tests.test_loopback_restart.Server` started through the wrapper above."""

    def __init__(self, tmp_path: Path, port: int, data: Path, config: Path):
        self.log = tmp_path / "server-dying.log"
        self.proc = subprocess.Popen(
            [sys.executable, "-c", KILLED_AS_THE_LOG_APPEARS, "--host", "127.0.0.1", "--port", str(port),
             "--no-discovery", "--web-port", "0", "--config", str(config), "--data-dir", str(data)],
            cwd=ROOT, stdout=subprocess.PIPE, stderr=open(self.log, "wb"),
            env={**os.environ, "PYTHONPATH": str(ROOT)})
        self.port = listening_port(self.proc, port, self.log)


@REAL_TIME
def test_mafia_bot_gets_its_seat_back_when_the_server_dies_as_the_log_appears(tmp_path):
    config = config_file(tmp_path)
    data = tmp_path / "data"
    server = Server(tmp_path, 0, tmp_path / "clean-data", config, 1)
    port = server.port
    try:
        clean, err = result_of(bot(port, config, "--create", "omerta", "--players", "4", "--seed", str(SEED)), 60)
        assert clean["seed"] == SEED and not err
    finally:
        server.stop()
    server = DyingServer(tmp_path, port, data, config)
    try:
        crashing = bot(port, config, "--create", "omerta", "--players", "4", "--seed", str(SEED))
        server.proc.wait(30)
        assert server.proc.returncode == -signal.SIGKILL
        log = data / "matches" / f"table-1-{SEED}.jsonl"
        assert log.exists() and actions_in(log) == 0  # the match log appeared, nothing more
        head = json.loads(log.read_text().splitlines()[0])
        assert all(s["token"] for s in head["seats"])  # every bot had joined
        time.sleep(0.3)  # the bots notice and start trying again
        assert crashing.poll() is None, crashing.communicate()[1].decode()
        server = Server(tmp_path, port, data, config, 2)
        after, err = result_of(crashing, 60)
        assert after == clean, (after, clean, err)
        assert err.count("before the match started; reconnecting") == 4, err
        # back at step 0, or later when the server's stand-ins played for the held seats first
        assert len(re.findall(r"back at step \d+ before the match started for us", err)) == 4, err
        assert "restored at step 0" in (tmp_path / "server-2.log").read_text()
    finally:
        server.stop()


# -- the GUI -------------------------------------------------------------------------------
TABLE = {"id": 4, "name": "Friday", "game": "famiglia", "status": "waiting",
         "seats": [{"seat": 0, "name": "Ann", "bot": False, "connected": True, "away": False},
                   {"seat": 1, "name": None, "bot": False, "connected": False, "away": False}],
         "spectators": 0}


def in_the_lobby(tmp_path, outcomes):
    """Ann joined table 4 (seat 0, token tok-4); its lobby is on screen."""
    from client.scenes.lobby import LobbyScene

    app, clock, server, link = make(tmp_path, outcomes)
    link.request("join", table=4, seat=0)
    assert link.tokens == {4: "tok-4"}
    lobby = LobbyScene(app, link, dict(TABLE), host=True, my_seat=0)
    app.push(lobby)
    return app, clock, link, lobby


def test_the_gui_asks_its_seat_back_when_the_link_drops_in_the_lobby(tmp_path):
    from client.games.famiglia.table import FamigliaTableScene
    from shared.games import famiglia as fg

    back = FakeConn({"reconnect": {"type": "joined", "table": 4, "seat": 0, "token": "tok-4"}})
    app, clock, link, lobby = in_the_lobby(tmp_path, [ConnectionRefusedError(), back])
    link.on_disconnect(None)  # the server was killed as the match log appeared
    assert app.top is lobby and link.reconnect is not None and link.reconnect.active
    assert app.display.notice[0] == tr("reconnect.lost")
    assert link.request("add_bot", table=4).called  # fails at once, no crash
    link.request("add_bot", table=4).addErrback(lambda f: None)
    clock.advance(0.5)  # refused: the server is not back yet
    assert app.top is lobby and link.reconnect.active
    clock.advance(1.0)
    assert back.requests == [("reconnect", {"token": "tok-4", "step": None})]
    assert not link.reconnect.active and link.conn is back and app.display.notice[0] == tr("reconnect.ok")
    # the restored match: its table opens
    s0 = fg.new_match(SCENARIO, 5)
    app.connections.route(link, {"type": "match_started", "table": 4, "game": "famiglia", "seat": 0,
                     "view": fg.view(s0, 0), "legal": [a.to_dict() for a in fg.legal_actions(s0, 0)],
                     "t_server": 1000.0, "step": 0, "resumed": True, "missed": [],
                     "seats": TABLE["seats"]})
    assert isinstance(app.top, FamigliaTableScene) and app.top.table_id == 4


def test_a_seat_freed_in_the_lobby_is_taken_again(tmp_path):
    back = FakeConn({"reconnect": ServerError("bad_token", "unknown or expired reconnect token"),
                     "join": {"type": "joined", "table": 4, "seat": 1, "token": "tok-new"}})
    app, clock, link, lobby = in_the_lobby(tmp_path, [back])
    link.on_disconnect(None)
    clock.advance(0.5)
    assert [r[0] for r in back.requests] == ["reconnect", "join"]
    assert back.requests[1] == ("join", {"table": 4, "key": link.keys[4]})  # asked with its key
    assert link.tokens == {4: "tok-new"} and lobby.my_seat == 1
    assert app.top is lobby and not link.reconnect.active and link.conn is back


def test_a_table_gone_with_the_server_sends_the_player_to_the_menu(tmp_path):
    from client.scenes.menu import MenuScene

    back = FakeConn({"reconnect": ServerError("bad_token", "unknown or expired reconnect token"),
                     "join": ServerError("unknown_table", "there is no table 4")})
    app, clock, link, lobby = in_the_lobby(tmp_path, [back])
    link.on_disconnect(None)
    clock.advance(0.5)
    assert isinstance(app.top, MenuScene) and "there is no table 4" in app.display.notice[0]
    assert link.tokens == {} and link in app.connections.links and link.conn is back
