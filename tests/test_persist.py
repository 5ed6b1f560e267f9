"""Match logs on disk and the restore after a crash, in-process on task.Clock
(docs/MATCHLOG.md): records and their order, fsync before anybody is told, damaged last
lines, invalid logs, and a restored match that ends exactly as the one that never
crashed."""
from __future__ import annotations

import re
from typing import Any

import pytest
from twisted.internet import task
from twisted.logger import formatEvent, globalLogPublisher

from server.lobby import Lobby
from shared import matchlog
from shared.bots import make_bot
from shared.bots.driver import BotDriver
from shared.config import merge
from shared.games import get_game
from shared.protocol import ProtocolError
from shared.rules import events_for
from tests.test_table import FakeConn

OMERTA = get_game("omerta")


class Player(FakeConn):
    """A seated connection played by a bot through the lobby, as ``mafia-bot`` plays:
    a claim is stamped from the update's server time (clock offset 0), a resumed
    ``match_started`` feeds the missed events, stamping claims from ``window_shown``."""

    def __init__(self, lobby: Lobby, name: str, seed: Any):
        super().__init__(name, offset=0.0, bound=1000.0)
        self.lobby, self.seed = lobby, seed
        self.table: int | None = None
        self.token: str | None = None
        self.step = 0
        self.driver: BotDriver | None = None
        self.anchor = 0.0
        self.online = True

    def sit(self, table: int) -> None:
        reply = self.lobby.tables[table].join(self)
        self.table, self.token = table, reply["token"]

    def push(self, msg_type: str, **fields: Any) -> None:
        super().push(msg_type, **fields)
        if not self.online or msg_type not in ("match_started", "update"):
            return
        if self.driver is None:
            bot = make_bot("omerta", fields["seat"], seed=f"{self.seed}/{fields['seat']}",
                           settings={"think_ms": 0})
            self.driver = BotDriver(bot, self._schedule, self._send)
        events = fields.get("missed", []) if msg_type == "match_started" else fields["events"]
        self.anchor = fields.get("window_shown") or fields["t_server"]
        self.step = fields["step"]
        legal = [OMERTA.ACTIONS.parse(a, from_client=False) for a in fields["legal"]]
        self.driver.on_update(events, fields["view"], legal, self.anchor)

    def _schedule(self, delay_s: float, fn: Any) -> Any:
        clock = self.lobby.clock
        return clock.callLater(max(0.0, self.anchor / 1000.0 + delay_s - clock.seconds()), fn)

    def _send(self, decision: Any, anchor: float) -> None:
        if not self.online:
            return
        try:
            self.lobby.tables[self.table].act(self, decision.action.to_dict(),
                                              t_press=anchor + decision.delay_ms, t_shown=anchor)
        except ProtocolError:
            pass

    def crash(self) -> None:
        """The server died: this connection is gone (nothing more is sent or heard)."""
        self.online = False
        self.driver.stop()

    def come_back(self, lobby: Lobby) -> dict[str, Any]:
        self.lobby, self.online = lobby, True
        self.driver.stop()
        return lobby.reconnect(self, self.token, self.step)


def lobby_at(path, start=1000.0, grace=120) -> Lobby:
    clock = task.Clock()
    clock.advance(start)
    return Lobby(merge({"server": {"reconnect_grace_s": grace}}), clock, testing=True, data_dir=path)


def players_table(lobby: Lobby, seed: int = 21, seats: int = 3, rounds: int = 2):
    owner = FakeConn("owner")
    table = lobby.create_table(owner, "omerta", seats, "Friday", {"seed": seed, "rounds": rounds,
                                                                  "bot_think_ms": 0})
    players = [Player(lobby, f"p{i}", seed) for i in range(seats)]
    for p in players:
        p.sit(table.id)
    return table, players


def run(lobby: Lobby, table, until=lambda: False, limit_s: float = 600.0) -> None:
    end = lobby.clock.seconds() + limit_s
    while table.status == "playing" and not until() and lobby.clock.seconds() < end:
        lobby.clock.advance(0.01)


@pytest.fixture
def logged():
    lines: list[str] = []

    def observe(event):
        lines.append(f"{event.get('log_level').name}: {formatEvent(event)}")

    globalLogPublisher.addObserver(observe)
    yield lines
    globalLogPublisher.removeObserver(observe)


def test_the_log_holds_header_actions_seat_changes_and_result(tmp_path):
    lobby = lobby_at(tmp_path)
    table, players = players_table(lobby, seed=5, rounds=1)
    run(lobby, table, until=lambda: len(table.log) >= 10)
    table.leave(players[2])  # on purpose: a bot plays for p2, whose token still works
    run(lobby, table)
    assert table.status == "over"
    path = tmp_path / "matches" / "table-1-5.jsonl"
    log = matchlog.parse(path.read_bytes())
    head = log.header
    assert head["game"] == "omerta" and head["seed"] == 5 and head["table"] == 1 and head["name"] == "Friday"
    assert head["config"] == table.engine_config
    assert [s["token"] for s in head["seats"]] == [p.token for p in players]
    assert head["settings"] == {"bot_think_ms": 0.0, "bot_kind": "smart", "bot_takeover": "after_miss",
                                "spectator_delay_s": 0, "turn_timer_s": 0, "room": table.room}
    assert [a["action"] for a in log.actions] == [e["action"] for e in table.log]
    assert [a["seat"] for a in log.actions] == [e["seat"] for e in table.log]
    assert all(b["t"] >= a["t"] for a, b in zip(log.actions, log.actions[1:]))
    assert log.seats == [{"kind": "seat", "seat": 2, "name": "p2", "bot": False,
                          "token": players[2].token, "left": True}]
    assert log.result == table.result and not log.warnings
    *_, (state, _, _, _) = matchlog.replay(OMERTA, log)
    assert OMERTA.scores(state)["scores"] == table.result["scores"]
    assert lobby.restore() == []  # finished: nothing to restore


def test_every_action_is_on_disk_before_anybody_hears_of_it(tmp_path, monkeypatch):
    import os

    from server import persist

    synced: dict[int, int] = {}  # fd -> its size at its last fsync
    real_fsync = os.fsync

    def fsync(fd: int) -> None:
        real_fsync(fd)
        synced[fd] = os.fstat(fd).st_size

    monkeypatch.setattr(persist.os, "fsync", fsync)
    lobby = lobby_at(tmp_path)
    table, players = players_table(lobby, rounds=1)
    checked = []

    class Watcher(FakeConn):
        def push(self, msg_type, **fields):
            super().push(msg_type, **fields)
            if msg_type == "update":
                fd = table.matchfile._handle.fileno()
                on_disk = matchlog.parse(table.matchfile.path.read_bytes()[:synced.get(fd, 0)])
                assert len(on_disk.actions) >= fields["step"], "an update went out before its fsync"
                checked.append(fields["step"])

    table.join(Watcher("w"), spectate=True)
    run(lobby, table, until=lambda: len(table.log) >= 40)
    assert checked[-1] >= 40
    assert checked == sorted(checked) and len(set(checked)) == len(checked)  # in order, each once
    # group commit: one fsync covered several actions (the peeks of one reactor turn...)
    assert table.matchfile.syncs < table.matchfile.appends


def test_a_restored_match_is_the_match_that_crashed_and_ends_the_same(tmp_path):
    # the same seed played without a crash
    clean = lobby_at(tmp_path / "clean")
    table, _ = players_table(clean)
    run(clean, table)
    expected = table.result
    assert expected is not None

    first = lobby_at(tmp_path / "crash")
    table, players = players_table(first)
    run(first, table, until=lambda: len(table.log) >= 70 and table.window is not None)
    assert table.status == "playing"
    for p in players:
        p.crash()
    before = table  # the server process dies here: nothing is closed

    second = lobby_at(tmp_path / "crash", start=5000.0)
    (after,) = second.restore()
    assert after.id == before.id and after.status == "playing" and len(after.log) == len(before.log)
    for seat in (None, 0, 1, 2):
        assert OMERTA.view(after.state, seat) == OMERTA.view(before.state, seat)
        assert [events_for(e, seat) for e in after.history] == [events_for(e, seat) for e in before.history]
    assert OMERTA.zones(after.state) == OMERTA.zones(before.state)
    assert after.window.id == before.window.id and after.window_shown == 5000_000.0
    # the restored table waits for its players (server.restart_grace_s, 20 s): no stand-in yet
    assert [s.summary() for s in after.seats] == [
        {"seat": i, "name": f"p{i}", "bot": False, "connected": False, "away": True,
         "stand_in_at": 5020_000.0} for i in range(3)]
    assert [s.token for s in after.seats] == [p.token for p in players]
    assert second.create_table(FakeConn(), "omerta", 3, None, {}).id == before.id + 1
    # the players come back, one at once (told the table waits), the others after the
    # wait is over and the stand-ins played a while
    players[0].come_back(second)
    told = players[0].of("table_paused")[-1]
    assert told["until"] == 5020_000.0 and told["until"] - told["t_server"] == 20_000.0  # the wait, on its clock
    assert not players[0].of("match_started")[1:]  # nothing to play before the others are back
    run(second, after, limit_s=19.9)
    assert len(after.log) == len(before.log) and all(s.driver is None for s in after.seats)
    run(second, after, limit_s=0.2)
    resumed = players[0].of("match_started")[-1]
    assert resumed["resumed"] and resumed["window_shown"] == pytest.approx(5020_000.0)  # claims count from then
    back_at = len(after.log)
    run(second, after, limit_s=1.5)
    assert {e["seat"] for e in after.log[back_at:]} >= {1, 2}, "the stand-ins should have played"
    for p in players[1:]:
        reply = p.come_back(second)
        assert reply["token"] == p.token
    run(second, after)
    assert after.status == "over" and after.result == expected
    log = matchlog.parse(after.matchfile.path.read_bytes())
    assert log.finished and not log.warnings and len(log.actions) == len(after.log)


@pytest.mark.parametrize("damage, warning", [
    (lambda data: data[:-7], "unterminated"),  # the crash cut the last line short
    (lambda data: data + b'{"kind": "act\n', "damaged"),  # a garbled, terminated line
])
def test_a_damaged_last_line_is_dropped_with_a_warning_and_cut_off(tmp_path, logged, damage, warning):
    first = lobby_at(tmp_path)
    table, players = players_table(first)
    run(first, table, until=lambda: len(table.log) >= 30)
    assert table.status == "playing"
    for p in players:
        p.crash()
    path = table.matchfile.path
    data = path.read_bytes()
    good = matchlog.parse(data)
    path.write_bytes(damage(data))

    second = lobby_at(tmp_path, start=2000.0)
    (after,) = second.restore()
    cut = len(good.actions) - 1 if warning == "unterminated" else len(good.actions)
    assert len(after.log) == cut
    assert any(line.startswith("warn") and warning in line and path.name in line for line in logged), logged
    assert path.read_bytes() == data[:len(path.read_bytes())] and path.read_bytes().endswith(b"\n")
    for p in players:
        p.come_back(second)
    run(second, after)
    log = matchlog.parse(path.read_bytes())  # what followed the cut is clean
    assert log.finished and not log.warnings and len(log.actions) == len(after.log)


def test_a_damaged_middle_restores_the_valid_prefix_and_a_headless_log_is_skipped(tmp_path, logged):
    """Issue "nothing lost": damage in the middle of a log no longer discards the whole
    match: the valid prefix is restored, the warning says what was dropped, and the
    damaged file is kept beside the log for a person to look at."""
    lobby = lobby_at(tmp_path)
    tables = [players_table(lobby, seed=s, rounds=1) for s in (1, 2, 3)]
    for table, _ in tables:
        run(lobby, table, until=lambda: len(table.log) >= 12)
    broken = tables[0][0].matchfile.path
    original = broken.read_bytes()
    lines = original.split(b"\n")
    lines[3] = b"garbage"
    broken.write_bytes(b"\n".join(lines))
    headless = tables[2][0].matchfile.path
    headless.write_bytes(b"torn" + headless.read_bytes()[40:])
    (tmp_path / "matches" / "notes.txt").write_text("not a log")
    restored = {t.id: t for t in lobby_at(tmp_path, start=3000.0).restore()}
    assert sorted(restored) == [1, 2]
    assert len(restored[1].log) == 2  # the header and two actions were good
    assert any(line.startswith("warn") and broken.name in line and "line 4" in line
               for line in logged)
    assert any(line.startswith("error") and headless.name in line and "header" in line
               for line in logged)
    assert broken.with_name(broken.name + ".damaged").read_bytes() == b"\n".join(lines)
    assert broken.read_bytes() == original[:len(broken.read_bytes())]


def test_a_match_whose_end_was_not_written_ends_on_restore(tmp_path):
    lobby = lobby_at(tmp_path)
    table, players = players_table(lobby, rounds=1)
    run(lobby, table)
    path = table.matchfile.path
    data = path.read_bytes()
    path.write_bytes(data[: data.rstrip(b"\n").rfind(b"\n") + 1])  # the crash came before "over"
    second = lobby_at(tmp_path, start=2000.0, grace=30)
    (after,) = second.restore()
    assert after.status == "over" and after.result == table.result
    assert matchlog.parse(path.read_bytes()).result == table.result
    reply = players[1].come_back(second)  # the players may still come to see the end
    assert reply["seat"] == 1 and players[1].of("match_over")[-1]["result"] == table.result
    second.clock.advance(31)
    assert after.id in second.tables  # players[1] is still there
    second.connection_lost(players[1])
    assert after.id not in second.tables


def test_a_server_restores_only_the_matches_of_its_own_port(tmp_path):
    """Clients come back to the address they played on; a server on another port (or
    port 0, a random one) must not take those matches."""
    lobby = lobby_at(tmp_path)
    lobby.port = 7777
    table, players = players_table(lobby, rounds=1)
    run(lobby, table, until=lambda: len(table.log) >= 12)
    assert matchlog.parse(table.matchfile.path.read_bytes()).header["port"] == 7777
    other = lobby_at(tmp_path)
    other.port = 40123
    assert other.restore() == []
    same = lobby_at(tmp_path)
    same.port = 7777
    assert [t.id for t in same.restore()] == [table.id]


def test_a_match_everybody_left_is_finished_by_the_stand_ins_not_abandoned(tmp_path):
    lobby = lobby_at(tmp_path, grace=1)
    table, players = players_table(lobby, rounds=1)
    run(lobby, table, until=lambda: len(table.log) >= 12)
    for p in players:
        table.leave(p)
    lobby.clock.advance(1.01)  # the grace period is over: nobody came back
    assert not table.closed and table.status == "playing"  # the stand-ins play on
    run(lobby, table)
    assert table.status == "over" and table.closed  # finished, then closed: nobody is at it
    assert table.matchfile.path.name == "table-1-21.jsonl"
    parsed = matchlog.parse(table.matchfile.path.read_bytes())
    assert parsed.finished and parsed.closed and parsed.stand_ins == [0, 1, 2]
    assert lobby_at(tmp_path).restore() == []  # closed: never restored
    rows = lobby.scoreboard.rows()
    assert sum(r["by_stand_in"] for r in rows) == len(table.result["winners"])
    assert not any(r["won"] for r in rows)  # nobody won it himself
    # the next match of the same table id and seed gets a name of its own
    again, _ = players_table(lobby_at(tmp_path), rounds=1)
    assert again.matchfile.path.name == "table-1-21-2.jsonl"


def test_a_line_without_its_checksum_in_a_checksummed_log_is_damage(tmp_path):
    lobby = lobby_at(tmp_path)
    table, players = players_table(lobby)
    run(lobby, table, until=lambda: len(table.log) >= 20)
    data = table.matchfile.path.read_bytes()
    lines = data.split(b"\n")
    lines[10] = re.sub(rb',"crc":"[0-9a-f]{8}"}$', b"}", lines[10])  # the crc field removed
    parsed = matchlog.parse(b"\n".join(lines))
    assert parsed.checksummed and len(parsed.actions) == 9
    assert "no checksum" in parsed.warnings[0]
    # a log written before checksums (no crc in its header) is still read as it is
    bare = b"".join(re.sub(rb',"crc":"[0-9a-f]{8}"}$', b"}", ln) + b"\n" for ln in data.split(b"\n")[:-1])
    assert len(matchlog.parse(bare).actions) == len(matchlog.parse(data).actions)


def test_a_legal_looking_line_the_engine_refuses_cuts_the_log_and_keeps_the_damaged_copy(tmp_path, logged):
    first = lobby_at(tmp_path)
    table, players = players_table(first)
    run(first, table, until=lambda: len(table.log) >= 40)
    for p in players:
        p.crash()
    path = table.matchfile.path
    data = path.read_bytes()
    lines = data.split(b"\n")
    rec = matchlog.check_line(lines[20])
    assert rec["kind"] == "action"
    rec["seat"] = 7  # a checksummed line, but no such seat: the engine refuses it
    lines[20] = matchlog.line_bytes(rec)[:-1]
    path.write_bytes(b"\n".join(lines))
    second = lobby_at(tmp_path, start=2000.0)
    (after,) = second.restore()
    assert len(after.log) < 20
    assert path.with_name(path.name + ".damaged").read_bytes() == b"\n".join(lines)
    assert any("does not replay" in line for line in logged)
