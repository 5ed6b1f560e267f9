"""A server killed as a match starts loses nothing, in separate processes, for every game:
``mafia-server`` SIGKILLs itself right after the last seat's ``join`` started the match
(the match log is written, that seat's ``joined`` never leaves), is started again on the
same port and data directory, and every ``mafia-bot`` seat comes back -- the ones that
had their ``joined`` with their token, the last one by asking for its join again with its
key -- and the match ends with the result of the same seed played without a crash.

In every game, a real ``mafia-table`` client (``SDL_VIDEODRIVER=dummy``, driven by
:mod:`tools.puppet`) sits in the seat whose join starts the match, bots in the others:
its ``joined`` is lost in the kill, the client asks again with its key, is back in its
seat, and the match (its seat played by the puppet's autoplay) ends as it did without a
crash. Once with bots in every seat (Omerta), where a bot asks again."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Callable

import pytest

from shared import matchlog
from tests.test_loopback_processes import GENEROUS_CLAIM_BOUNDS, REAL_TIME, ROOT
from tests.test_loopback_restart import Server, bot, listening_port, result_of
from tools.puppet_driver import Puppet, on_table, wait
from tools.rejoin_check import tables as list_tables
from tools.rejoin_games import Observer

pytestmark = REAL_TIME

#: ``mafia-server`` that SIGKILLs itself as soon as a match has started (its log created),
#: before the reply to the join that started it is written.
DIES_AT_THE_START = """
import os, signal, sys
from server.match import table
start = table.Table.start_match
def start_match(self):
    start(self)
    os.kill(os.getpid(), signal.SIGKILL)
table.Table.start_match = start_match
from server.main import main
main(sys.argv[1:])
"""

GAMES = [("omerta", 3, 7), ("famiglia", 2, 5), ("family_business", 2, 4), ("mafiosi", 3, 2)]


def config_file(tmp_path: Path) -> Path:
    config = tmp_path / "config.yaml"
    config.write_text("server:\n  reconnect_grace_s: 40\n" + GENEROUS_CLAIM_BOUNDS
                      + "bots:\n  think_ms: 0\n  reaction_median_ms: 120\n  reaction_floor_ms: 100\n"
                      "  reaction_cap_ms: 200\n")
    return config


class DyingServer(Server):
    def __init__(self, tmp_path: Path, data: Path, config: Path):
        self.log = tmp_path / "server-dying.log"
        self.proc = subprocess.Popen(
            [sys.executable, "-c", DIES_AT_THE_START, "--host", "127.0.0.1", "--port", "0",
             "--no-discovery", "--web-port", "0", "--config", str(config), "--data-dir", str(data)],
            cwd=ROOT, stdout=subprocess.PIPE, stderr=open(self.log, "wb"),
            env={**os.environ, "PYTHONPATH": str(ROOT)})
        self.port = listening_port(self.proc, 0, self.log)


def test_a_server_killed_right_after_the_last_join_gives_every_seat_back(tmp_path):
    """Every seat a ``mafia-bot``: the one whose join started the match asks again."""
    game, players, seed = GAMES[0]
    config = config_file(tmp_path)
    args = ("--create", game, "--players", str(players), "--seed", str(seed), "--rounds", "1")
    reference = Server(tmp_path, 0, tmp_path / "reference", config, 0)
    try:
        clean, _ = result_of(bot(reference.port, config, *args), 60)
    finally:
        reference.stop()

    data = tmp_path / "data"
    dying = DyingServer(tmp_path, data, config)
    bots = bot(dying.port, config, *args)
    server = None
    try:
        assert dying.proc.wait(30) == -signal.SIGKILL  # it died as the match started
        logs = list((data / "matches").glob("*.jsonl"))
        assert len(logs) == 1 and not list((data / "matches").glob(".*.tmp"))
        head = matchlog.parse(logs[0].read_bytes()).header  # whole: header, seats, keys
        assert all(s.get("key") and s.get("token") for s in head["seats"])
        time.sleep(0.3)  # the bots notice
        server = Server(tmp_path, dying.port, data, config, 1)
        after, err = result_of(bots, 60)
        assert after == clean, (after, clean, err)
        assert "asking again" in err  # the last seat's join, asked again with its key
        restored = (tmp_path / "server-1.log").read_text()
        assert "restored at step 0" in restored
        assert "giving up" not in err and "ran out of time" not in restored
        # every seat came back before anything was played: no stand-in played for anyone
        assert restored.count("is back at seat") == players
        assert "stand_ins" not in logs[0].read_text()
    finally:
        if bots.poll() is None:
            bots.kill()
        if server is not None:
            server.stop()


def _sit_down_last(port: int, config: Path, work: Path, game: str, players: int, seed: int,
                   sat: Callable[[Puppet], bool]) -> tuple[Observer, subprocess.Popen, Puppet]:
    """A table of ``game`` opened by an observer connection; ``mafia-bot`` takes every seat
    but the last, then Lena's ``mafia-table`` sits down through *Join a table* (her join
    starts the match), clicking again until ``sat(guest)`` says the join went out. She
    plays her seat with the game's bot and passes every reaction window at once, so the
    seed alone fixes the result, whatever her reaction times."""
    name = "Kill at start"
    observer = Observer(port)
    tid = observer.request("create_table", game=game, seats=players, name=name,
                           options={"seed": seed, "bot_think_ms": 0, "rounds": 1})["table"]["id"]
    bots = bot(port, config, "--join", str(tid), "--players", str(players - 1), "--seed", str(seed))
    assert wait(lambda: any(t["id"] == tid and all(s["name"] for s in t["seats"][:-1])
                            for t in list_tables(port)), 20)
    guest = Puppet("Lena", work, ["--connect", f"127.0.0.1:{port}"],
                   {"server": {"discovery_port": 0}, "web": {"enabled": False}})
    guest.start()
    assert wait(lambda: guest.state().get("scene") == "MenuScene", 30), guest.state()
    guest.ask(op="click", text="Join a table")
    assert wait(lambda: any(name in b["text"] for b in guest.state().get("buttons", [])), 15), guest.state()
    guest.ask(op="autoplay", on=True, seed=seed, think_s=0.0, claims=False)
    for _ in range(3):  # the list may be rebuilt under the first click (a table summary came)
        guest.ask(op="click", contains=name)
        time.sleep(0.5)
        guest.ask(op="click", text="Sit down")
        if wait(lambda: sat(guest), 8, 0.1):
            break
    assert sat(guest), guest.state()
    return observer, bots, guest


def _shows_result(guest: Puppet) -> bool:
    """The client got its seat's ``match_over``: the results board is up (Mafiosi's last
    round board first, whose button leads to the final reveal)."""
    st = guest.state()
    return (bool(st.get("over")) or str(st.get("scene", "")).endswith("ResultsScene")
            or any(b["text"] == "The final reveal" for b in st.get("buttons", [])))


@pytest.mark.parametrize("game, players, seed", GAMES, ids=[g for g, _, _ in GAMES])
def test_a_pygame_client_whose_join_started_the_match_is_back_in_its_seat(tmp_path, game, players, seed):
    config = config_file(tmp_path)
    reference = Server(tmp_path, 0, tmp_path / "reference", config, 0)
    observer, bots, guest = _sit_down_last(reference.port, config, tmp_path / "ref", game, players, seed,
                                           lambda g: on_table(g.state()))
    try:
        clean, _ = result_of(bots, 90)
        assert wait(lambda: _shows_result(guest), 15), guest.state()
    finally:
        guest.stop()
        observer.close()
        reference.stop()

    data = tmp_path / "data"
    dying = DyingServer(tmp_path, data, config)
    observer, bots, guest = _sit_down_last(dying.port, config, tmp_path / "kill", game, players, seed,
                                           lambda g: dying.proc.poll() is not None)
    server = None
    try:
        assert dying.proc.wait(30) == -signal.SIGKILL  # it died as Lena's join started the match
        assert not on_table(guest.state())  # her joined was lost with the server
        logs = list((data / "matches").glob("*.jsonl"))
        assert len(logs) == 1 and not list((data / "matches").glob(".*.tmp"))
        head = matchlog.parse(logs[0].read_bytes()).header  # whole: header, seats, keys
        assert all(s.get("key") and s.get("token") for s in head["seats"])
        server = Server(tmp_path, dying.port, data, config, 1)
        after, err = result_of(bots, 90)
        assert after == clean, (after, clean, err)
        assert wait(lambda: _shows_result(guest), 15), guest.state()  # her seat, to the end
        restored = (tmp_path / "server-1.log").read_text()
        assert "restored at step 0" in restored and f"Lena is back at seat {players - 1}" in restored
        # every seat came back before anything was played: no stand-in played for anyone
        assert restored.count("is back at seat") == players
        assert "stand_ins" not in logs[0].read_text()
        assert "giving up" not in err and "ran out of time" not in restored
    finally:
        guest.stop()
        observer.close()
        if bots.poll() is None:
            bots.kill()
        if server is not None:
            server.stop()
