"""Issue 14, "work only for whom it matters" on reconnection (server/seats.py,
server/lobby.py): a bot that stands in learns the match in slices on the reactor's
cooperator (the match waits for it meanwhile) and learns exactly what it would have seen
from the start; a resumed seat gets the events it missed from the recorded history (no
replay), or only the view with ``missed_truncated`` when too many; a reconnection that
arrives between an action and its fsync gets each step once; a full server says so
(``error server_full``) over real TCP. task.Clock everywhere but the TCP test."""
from __future__ import annotations

import json
import random
import socket
import time
from typing import Any

import pytest
from twisted.internet import task

from server import persist
from server.match import seats as seats_mod
from server.match import standins as standins_mod
from server.match.standins import Learner
from shared.bots.driver import BotDriver
from shared.rules import events_for
from tests.test_loopback_processes import server_process
from tests.test_persist_faults import FlakyDisk
from tests.test_protocol import Client
from tests.test_protocol_schema import errors
from tests.test_reconnect import ann_and_two_bots
from tests.test_reconnect import make_lobby as _make_lobby


def make_lobby(*args, **kwargs):
    """A lobby whose held seats get their stand-in at once (``server.drop_grace_s`` 0):
    these tests time the stand-in's lesson, not the wait before it."""
    return _make_lobby(*args, drop_grace=0.0, **kwargs)


# -- helpers ----------------------------------------------------------------------------
class Recorder:
    """A bot that notes every observation (as JSON, so that later changes to a view do not
    matter) and otherwise is the seat's real bot."""

    def __init__(self, bot: Any):
        self.bot = bot
        self.seat = bot.seat
        self.seen: list[str] = []

    def observe(self, events: list[dict[str, Any]], view: dict[str, Any]) -> None:
        self.seen.append(json.dumps([events, view], sort_keys=True))
        self.bot.observe(events, view)

    def decide(self, view: dict[str, Any], legal: list[Any]) -> Any:
        return self.bot.decide(view, legal)


def recording(table: Any) -> list[Recorder]:
    """Every bot the table makes from now on is a :class:`Recorder` (listed here)."""
    made: list[Recorder] = []
    make = table.stand_ins.make_bot

    def make_recorder(seat: int) -> Recorder:
        made.append(Recorder(make(seat)))
        return made[-1]

    table.stand_ins.make_bot = make_recorder
    return made


def from_the_start(table: Any, seat: int) -> list[str]:
    """What a bot at ``seat`` observed had it played from the start, up to now: the first
    view, every step's events and view, then the current view once more (the update a
    stand-in decides on when it starts)."""
    game = table.game
    state = game.new_match(table.engine_config, table.seed)
    seen = [json.dumps([[], game.view(state, seat)], sort_keys=True)]
    for acting, action in table.actions:
        state, events = game.apply(state, acting, action)
        seen.append(json.dumps([events_for(events, seat), game.view(state, seat)], sort_keys=True))
    seen.append(json.dumps([[], game.view(table.state, seat)], sort_keys=True))
    return seen


def manual_cooperator(clock: Any) -> list[Any]:
    """Bot lessons on ``clock`` run one action per tick, each tick only when the test
    calls it (the list of due ticks is returned)."""
    ticks: list[Any] = []
    standins_mod._cooperators[clock] = task.Cooperator(
        terminationPredicateFactory=lambda: (lambda: True), scheduler=ticks.append)
    return ticks


def run_ticks(ticks: list[Any]) -> int:
    n = 0
    while ticks:
        ticks.pop(0)()
        n += 1
    return n


def play_until_awaited(lobby: Any, ann: Client, table: Any, tid: int, steps: int) -> None:
    """ann plays her first legal action whenever she may, the bots theirs, until the
    match has ``steps`` steps and waits for ann (nothing held for the disk)."""
    for _ in range(4000):
        lobby.clock.advance(0.05)
        if len(table.log) >= steps and 0 in table.game.awaiting(table.state) and table.window is None:
            return
        legal = [a.to_dict() for a in table.legal(0)]
        if legal:
            ann.request("action", table=tid, action=legal[0])
    pytest.fail("the match never waited for ann")


# -- bots learn in slices ---------------------------------------------------------------
def test_a_stand_in_learns_the_match_in_slices_while_the_match_waits_for_it():
    lobby = make_lobby()
    ann, tid, token, table = ann_and_two_bots(lobby, bot_think_ms=100)
    play_until_awaited(lobby, ann, table, tid, 20)
    ticks = manual_cooperator(lobby.clock)
    made = recording(table)
    step = len(table.log)
    ann.proto.connectionLost(None)  # the match waits for her: a stand-in, which first learns
    seat = table.seats[0]
    assert isinstance(seat.driver, Learner) and seat.stand_in == "takeover"
    assert table.summary()["seats"][0]["bot"]
    assert made == []  # nothing made nor replayed on the reactor turn of the drop
    for n in range(3):  # one action per slice; meanwhile the match waits
        ticks.pop(0)()
        (bot,) = made
        assert len(bot.seen) == n + 2 and isinstance(seat.driver, Learner)
        lobby.clock.advance(1.0)
        assert len(table.log) == step
    run_ticks(ticks)
    assert isinstance(seat.driver, BotDriver)
    assert bot.seen == from_the_start(table, 0)  # as if it had played from the start
    for _ in range(100):
        lobby.clock.advance(0.05)
        run_ticks(ticks)
        if len(table.log) > step:
            break
    assert table.log[step]["seat"] == 0  # the stand-in played the turn the match waited for


def test_a_player_back_during_the_lesson_stops_it_and_no_bot_plays():
    lobby = make_lobby()
    ann, tid, token, table = ann_and_two_bots(lobby, bot_think_ms=100)
    play_until_awaited(lobby, ann, table, tid, 12)
    ticks = manual_cooperator(lobby.clock)
    made = recording(table)
    step = len(table.log)
    ann.proto.connectionLost(None)
    ticks.pop(0)()
    assert isinstance(table.seats[0].driver, Learner)
    back = Client(lobby, "ann")
    assert back.request("reconnect", token=token, step=step)["seat"] == 0
    assert table.seats[0].driver is None and table.seats[0].stand_in is None
    seen = len(made[0].seen)
    assert run_ticks(ticks) <= 1  # the lesson stopped: at most the tick already due runs
    assert len(made[0].seen) == seen and table.seats[0].driver is None
    lobby.clock.advance(5)
    assert len(table.log) == step and 0 in table.game.awaiting(table.state)  # waits for ann


def test_a_lesson_that_fails_leaves_no_seat_waiting_for_ever():
    lobby = make_lobby()
    ann, tid, token, table = ann_and_two_bots(lobby, bot_think_ms=100)
    play_until_awaited(lobby, ann, table, tid, 12)
    ticks = manual_cooperator(lobby.clock)
    game = table.game

    class Broken:
        def __getattr__(self, name: str) -> Any:
            if name == "apply":
                raise RuntimeError("a planted bug in the replay")
            return getattr(game, name)

    ann.proto.connectionLost(None)
    table.game = Broken()
    run_ticks(ticks)
    table.game = game
    assert isinstance(table.seats[0].driver, BotDriver)  # a bot that knows the view only
    step = len(table.log)
    for _ in range(40):
        lobby.clock.advance(0.05)
    assert len(table.log) > step and table.log[step]["seat"] == 0


def test_a_table_that_closes_during_the_lesson_stops_it():
    lobby = make_lobby()
    ann, tid, token, table = ann_and_two_bots(lobby, bot_think_ms=100)
    play_until_awaited(lobby, ann, table, tid, 12)
    ticks = manual_cooperator(lobby.clock)
    made = recording(table)
    ann.proto.connectionLost(None)
    ticks.pop(0)()
    table.close()
    seen = len(made[0].seen)
    run_ticks(ticks)
    assert len(made[0].seen) == seen and table.seats[0].driver is None


def test_a_lesson_started_while_an_action_waits_for_its_fsync_sees_it_once(tmp_path):
    """The group commit holds an action's outcome until its fsync: the lesson replays
    only released actions, waits for the rest, and the stand-in is not fed that action
    again when its update goes out."""
    lobby = make_lobby(tmp_path)
    ann, tid, token, table = ann_and_two_bots(lobby, bot_think_ms=100, bot_takeover="never")
    play_until_awaited(lobby, ann, table, tid, 12)
    ann.proto.connectionLost(None)
    ticks = manual_cooperator(lobby.clock)
    made = recording(table)
    ann_seat = table.seats[0]
    legal = table.legal(0)
    table.apply(0, legal[0])  # as a bot would: written, its outcome held for the fsync
    assert table.matchfile.dirty and table.delivery.released_step == len(table.actions) - 1
    table.stand_ins.start([ann_seat], "takeover")
    run_ticks(ticks)
    (bot,) = made
    assert isinstance(ann_seat.driver, Learner)  # it waits for the held outcome
    assert len(bot.seen) == len(table.actions)  # the first view + every released action
    lobby.clock.advance(0)  # the fsync: the outcome goes out, the lesson goes on
    run_ticks(ticks)
    assert isinstance(ann_seat.driver, BotDriver)
    assert bot.seen[:len(table.actions) + 2] == from_the_start(table, 0)
    assert len(bot.seen) == len(table.actions) + 2  # and not that action's update again


def test_a_table_whose_players_all_dropped_replays_its_match_once():
    """The first stand-in's lesson also teaches a spare bot for the other held seat; when
    the match waits for that seat, its stand-in goes on from the spare (a few actions,
    not the whole match) and knows exactly what it would have from the start."""
    lobby = make_lobby()
    ann, bob = Client(lobby, "ann"), Client(lobby, "bob")
    tid = ann.request("create_table", game="omerta", seats=3, options={
        "seed": 4, "bot_think_ms": 100, "rounds": 5, "first_player": 1})["table"]["id"]
    ann.request("join", table=tid)
    bob.request("join", table=tid)
    ann.request("add_bot", table=tid)
    table = lobby.tables[tid]
    rng = random.Random(5)
    for _ in range(4000):  # both play legal actions until the match waits for ann alone
        lobby.clock.advance(0.05)
        if len(table.log) >= 20 and table.game.awaiting(table.state) == {0} and table.window is None:
            break
        for seat, who in ((0, ann), (1, bob)):
            legal = [a.to_dict() for a in table.legal(seat)]
            if legal and table.status == "playing":
                who.request("action", table=tid, action=rng.choice(legal))
    else:
        pytest.fail("the match never waited for ann alone")
    ticks = manual_cooperator(lobby.clock)
    made = recording(table)
    ann.proto.connectionLost(None)
    bob.proto.connectionLost(None)
    assert isinstance(table.seats[0].driver, Learner) and table.seats[1].driver is None
    first = run_ticks(ticks)
    assert first >= len(table.actions) and {b.seat for b in made} == {0, 1}
    assert isinstance(table.seats[0].driver, BotDriver) and table.seats[1].driver is None
    spare = next(b for b in made if b.seat == 1)
    step = len(table.actions)
    for _ in range(2000):  # the stand-in and the bot play until the match waits for bob
        lobby.clock.advance(0.05)
        if isinstance(table.seats[1].driver, Learner):
            break
    else:
        pytest.fail("the match never waited for bob")
    second = run_ticks(ticks)
    assert isinstance(table.seats[1].driver, BotDriver) and len(made) == 2  # no new bot
    assert second <= len(table.actions) - step + 1 < first
    assert spare.seen == from_the_start(table, 1)


# -- resuming a seat ----------------------------------------------------------------------
def received_events(client: Client, since: int) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """The events ``client`` got for steps after ``since``: the resumed match_started's
    ``missed``, then those of the updates after it; and the match_started."""
    msgs = client.of("match_started") and client.inbox
    started = next(m for m in msgs if m["type"] == "match_started")
    before = [m for m in msgs[:msgs.index(started)] if m["type"] == "update"]
    assert before == [], "an update reached the seat before its resumed match_started"
    events = list(started["missed"])
    for m in msgs[msgs.index(started) + 1:]:
        if m["type"] == "update":
            assert m["step"] > started["step"]
            events += m["events"]
    return events, started


def test_a_reconnection_between_an_action_and_its_fsync_gets_each_step_once(tmp_path):
    lobby = make_lobby(tmp_path)
    ann, tid, token, table = ann_and_two_bots(lobby, bot_think_ms=100, bot_takeover="never")
    play_until_awaited(lobby, ann, table, tid, 12)
    step = ann.of("update")[-1]["step"]
    ann.proto.connectionLost(None)
    table.apply(0, table.legal(0)[0])  # e.g. a pass for her in a window: not on disk yet
    assert table.matchfile.dirty
    back = Client(lobby, "ann")
    assert back.request("reconnect", token=token, step=step)["seat"] == 0
    assert not back.of("match_started")  # it waits for the fsync, the reactor does not
    lobby.clock.advance(0)  # the fsync: the held update goes out (not to her), then her resume
    started = back.of("match_started")[-1]
    assert started["resumed"] and started["step"] == step + 1 == len(table.log)
    assert started["view"] == table.game.view(table.state, 0) and "missed_truncated" not in started
    lobby.clock.advance(3.0)  # the bots play on, paced to what their steps show: her updates follow
    events, started = received_events(back, step)
    expected = [e for k in range(step, len(table.history)) for e in events_for(table.history[k], 0)]
    assert events == expected and len(table.log) > step + 1


def test_a_reconnection_while_the_table_is_paused_waits_for_the_disk(tmp_path, monkeypatch):
    """A table paused by a failing disk: the player who comes back is told at once
    (``table_paused``, once), and gets the match when the table resumes, each step once."""
    lobby = make_lobby(tmp_path)
    ann, tid, token, table = ann_and_two_bots(lobby, bot_think_ms=100, bot_takeover="never")
    play_until_awaited(lobby, ann, table, tid, 12)
    step = ann.of("update")[-1]["step"]
    ann.proto.connectionLost(None)
    disk = FlakyDisk(persist.os.fsync)
    monkeypatch.setattr(persist.os, "fsync", disk)
    disk.full = True
    table.apply(0, table.legal(0)[0])
    lobby.clock.advance(0)
    assert table.paused
    back = Client(lobby, "ann")
    assert back.request("reconnect", token=token, step=step)["seat"] == 0
    lobby.clock.advance(3.0)
    assert len(back.of("table_paused")) == 1 and not back.of("match_started")
    disk.full = False
    lobby.clock.advance(10.0)
    assert not table.paused and back.of("table_resumed")
    events, started = received_events(back, step)
    assert events == [e for k in range(step, len(table.history)) for e in events_for(table.history[k], 0)]
    assert started["step"] > step


def test_a_resync_between_an_action_and_its_fsync_gets_each_step_once(tmp_path):
    lobby = make_lobby(tmp_path)
    ann, tid, token, table = ann_and_two_bots(lobby, bot_think_ms=100, bot_takeover="never")
    play_until_awaited(lobby, ann, table, tid, 12)
    step = ann.of("update")[-1]["step"]
    ann.inbox.clear()
    table.apply(0, table.legal(0)[0])
    assert ann.request("resync", table=tid, step=step)["type"] == "ack"
    lobby.clock.advance(0)
    events, started = received_events(ann, step)
    assert events == [e for k in range(step, len(table.history)) for e in events_for(table.history[k], 0)]


def test_a_resume_put_off_by_a_busy_reactor_turn_comes_from_the_cooperator(monkeypatch):
    """Past ``RESUME_TURN_S`` of resumes in one reactor turn (a storm), the resumed
    ``match_started`` is sent from the cooperator; updates released meanwhile do not
    reach the seat before it, and it covers them."""
    lobby = make_lobby()
    ann, tid, token, table = ann_and_two_bots(lobby, bot_think_ms=100, bot_takeover="never")
    play_until_awaited(lobby, ann, table, tid, 12)
    step = ann.of("update")[-1]["step"]
    ann.proto.connectionLost(None)
    ticks = manual_cooperator(lobby.clock)
    monkeypatch.setattr(seats_mod, "_resume_budget_left", lambda clock: False)
    back = Client(lobby, "ann")
    assert back.request("reconnect", token=token, step=step)["seat"] == 0
    assert not back.of("match_started") and table.seats[0].conn is back.proto
    table.apply(0, table.legal(0)[0])  # her own seat acts meanwhile (as a pass would)
    lobby.clock.advance(0)
    assert not back.of("update") and not back.of("match_started")
    run_ticks(ticks)
    events, started = received_events(back, step)
    assert started["step"] == len(table.log) == step + 1
    assert events == [e for k in range(step, len(table.history)) for e in events_for(table.history[k], 0)]


def test_too_many_missed_events_send_the_view_alone(monkeypatch):
    lobby = make_lobby()
    ann, tid, token, table = ann_and_two_bots(lobby, bot_think_ms=100)
    play_until_awaited(lobby, ann, table, tid, 12)
    ann.proto.connectionLost(None)
    step = len(table.log)
    while len(table.log) < step + 12:  # the stand-in and the bots play on
        lobby.clock.advance(0.05)
    missed = [e for k in range(step, len(table.history)) for e in events_for(table.history[k], 0)]
    monkeypatch.setattr(seats_mod, "MAX_MISSED_EVENTS", len(missed) - 1)
    back = Client(lobby, "ann")
    back.request("reconnect", token=token, step=step)
    started = back.of("match_started")[-1]
    assert started["missed"] == [] and started["missed_truncated"] is True
    assert errors("server_message", started) == []  # docs/protocol.schema.json knows it
    assert started["view"] == table.game.view(table.state, 0) and started["step"] == len(table.log)
    monkeypatch.setattr(seats_mod, "MAX_MISSED_EVENTS", len(missed))
    again = Client(lobby, "ann")
    again.request("reconnect", token=token, step=step)
    started = again.of("match_started")[-1]
    assert started["missed"] == missed and "missed_truncated" not in started


def test_resuming_a_seat_replays_nothing():
    lobby = make_lobby()
    ann, tid, token, table = ann_and_two_bots(lobby, bot_think_ms=100, bot_takeover="never")
    play_until_awaited(lobby, ann, table, tid, 12)
    ann.proto.connectionLost(None)
    calls: list[str] = []

    class Counting:
        def __init__(self, game: Any):
            self.game = game

        def __getattr__(self, name: str) -> Any:
            value = getattr(self.game, name)
            if name in ("apply", "new_match"):
                def counted(*args: Any, **kw: Any) -> Any:
                    calls.append(name)
                    return value(*args, **kw)
                return counted
            return value

    table.game = Counting(table.game)
    back = Client(lobby, "ann")
    back.request("reconnect", token=token, step=0)
    assert back.of("match_started")[-1]["missed"] and calls == []


# -- a full server says so ------------------------------------------------------------------
def lines_of(sock: socket.socket, until: str | None = None, timeout: float = 10.0) -> list[dict[str, Any]]:
    """Messages read from ``sock`` until one of type ``until`` (None: until the server
    closes the connection)."""
    sock.settimeout(timeout)
    data, out = b"", []
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        chunk = sock.recv(65536)
        if not chunk:
            break
        data += chunk
        *lines, data = data.split(b"\n")
        out += [json.loads(line) for line in lines if line]
        if until is not None and any(m["type"] == until for m in out):
            break
    return out


def greeted(port: int, name: str) -> socket.socket:
    sock = socket.create_connection(("127.0.0.1", port), timeout=10)
    sock.sendall(json.dumps({"v": 1, "type": "hello", "seq": 1, "name": name}).encode() + b"\n")
    assert any(m["type"] == "welcome" for m in lines_of(sock, "welcome"))
    return sock


def test_a_full_server_tells_the_newcomer_over_tcp(tmp_path):
    with server_process(tmp_path, "server:\n  max_connections: 3\n  max_tables: 1\n",
                        "--web-port", "-1") as port:
        players = [greeted(port, f"p{i}") for i in range(3)]
        newcomer = socket.create_connection(("127.0.0.1", port), timeout=10)
        (error,) = lines_of(newcomer)  # one line, then the server closes the connection
        assert error["type"] == "error" and error["code"] == "server_full"
        assert "server.max_connections" in error["message"] and "try again" in error["message"].lower()
        newcomer.close()
        players[0].close()  # room again: a newcomer gets in
        for _ in range(50):
            try:
                players[0] = greeted(port, "late")
                break
            except AssertionError:
                time.sleep(0.1)
        else:
            pytest.fail("a newcomer should get in once a connection closed")
        # and past max_tables, create_table says which setting and what to do
        sock = players[1]
        sock.sendall(b'{"v":1,"type":"create_table","seq":2,"game":"omerta","seats":3}\n')
        assert any(m.get("re") == 2 and m["type"] == "table" for m in lines_of(sock, "table"))
        sock.sendall(b'{"v":1,"type":"create_table","seq":3,"game":"omerta","seats":3}\n')
        reply = [m for m in lines_of(sock, "error") if m.get("re") == 3][-1]
        assert reply["code"] == "server_full" and "server.max_tables" in reply["message"]
        for s in players:
            s.close()


def test_a_reconnect_compares_its_token_only_with_the_seats_of_its_own_table(monkeypatch):
    """The lobby finds a token's table through its index (``Lobby._tokens``): an unknown
    token costs one lookup, not a comparison with every seat of every table (a client
    sending bad tokens cannot make the server walk the whole evening), and a good one is
    compared only with the seats of its table, even after its player dropped."""
    from server import lobby as lobby_mod

    lobby = make_lobby()
    held = []
    for _ in range(5):  # five tables, each with its player dropped and his seat held
        ann, tid, token, table = ann_and_two_bots(lobby)
        ann.proto.connectionLost(None)
        held.append((tid, token, table))
    compared = []
    real = lobby_mod.hmac.compare_digest

    def counting(a: Any, b: Any) -> bool:
        compared.append(a)
        return real(a, b)

    monkeypatch.setattr(lobby_mod.hmac, "compare_digest", counting)
    stranger = Client(lobby, "mallory")
    near = held[0][1][:-1] + ("x" if not held[0][1].endswith("x") else "y")  # one letter off
    for bad in ("not-a-token", near, ""):
        assert stranger.request("reconnect", token=bad, step=0)["code"] == "bad_token"
    assert compared == []
    tid, token, table = held[3]
    back = Client(lobby, "ann")
    assert back.request("reconnect", token=token, step=0) == {**back.of("joined")[-1], "table": tid, "seat": 0}
    assert 1 <= len(compared) <= len(table.seats)
    assert table.seats[0].conn is back.proto
