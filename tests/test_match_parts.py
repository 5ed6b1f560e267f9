"""Each collaborator of a table on its own, with a fake table (server/match/): the
seat roster, the saving of the match log, the delivery of updates, the claim desk,
the host controls and the stand-in bots. What they need of the table is what
``server.match.contracts.MatchTable`` states; the fake has only that."""
from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest
from twisted.internet import task

from server.match.claims import ClaimDesk
from server.match.delivery import Delivery, view_delta
from server.match.host import HostControls
from server.match.saving import Saving
from server.match.seat import Seat
from server.match.seats import SeatRoster
from server.match.spectators import SpectatorFeed
from server.match.standins import StandIns
from shared.config import merge
from shared.protocol import ProtocolError
from shared.rules import Event
from shared.sentences import say
from shared.windows import Window
from tests.test_table import FakeConn


class Calls:
    """Records the calls made to it: ``calls.name(*args)`` appends ``(name, args)``."""

    def __init__(self, **returns: Any):
        self.log: list[tuple[str, tuple[Any, ...]]] = []
        self._returns = returns

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):
            raise AttributeError(name)

        def call(*args: Any, **kw: Any) -> Any:
            self.log.append((name, args + tuple(kw.items())))
            return self._returns.get(name)
        return call

    def names(self) -> list[str]:
        return [name for name, _ in self.log]


class FakeTable:
    """A table with ``n`` seats and nothing else: every collaborator it holds is a
    :class:`Calls` recorder unless a test puts the real one in its place."""

    def __init__(self, n: int = 3, status: str = "waiting"):
        self.clock = task.Clock()
        self.id = 7
        self.name = "fake"
        self.seed = 5
        self.config = merge({})
        self.settings: dict[str, Any] = {"seed": 5}
        self.engine_config = {"seats": n}
        self.seats = [Seat(i) for i in range(n)]
        self.spectators = SpectatorFeed(self.clock, 0)
        self.status = status
        self.closed = False
        self.state: Any = None
        self.log: list[Any] = []
        self.actions: list[Any] = []
        self.history: list[Any] = []
        self.result = None
        self.bot_takeover = "after_miss"
        self.match_no = 1
        self.players_at_start: dict[int, str] = {}
        self.scoreboard = None
        self.thinkers = None
        self.replaced_by = None
        self.turn_timer = SimpleNamespace(field=lambda: None)
        self.game = SimpleNamespace(NAME="fakegame", view=lambda state, seat: {"seat": seat, "n": state},
                                    awaiting=lambda state: frozenset())
        self.definition = SimpleNamespace(seat_keys=None, own_view=None)
        self.roster: Any = Calls()
        self.stand_ins: Any = Calls()
        self.claims: Any = Calls()
        self.delivery: Any = Calls()
        self.saving: Any = SimpleNamespace(paused=False, pause_reason="", matchfile=None,
                                           write=lambda rec: True)
        self.host: Any = Calls()
        self.table_calls = Calls()

    def now_ms(self) -> float:
        return self.clock.seconds() * 1000.0

    def seat_of(self, conn: Any) -> int | None:
        return next((s.index for s in self.seats if s.conn is conn), None)

    def connections(self) -> list[Any]:
        return [s.conn for s in self.seats if s.conn is not None] + list(self.spectators.conns)

    def legal(self, seat: int | None, awaited: Any = None) -> list[Any]:
        return []

    def __getattr__(self, name: str) -> Any:  # push_summary, seats_changed, maybe_close, ...
        if name.startswith("__"):
            raise AttributeError(name)
        return getattr(self.table_calls, name)


# -- the seat roster -------------------------------------------------------------------
def test_the_roster_seats_a_connection_with_a_token_and_tells_the_table():
    table = FakeTable()
    roster = SeatRoster(table)
    table.host = SimpleNamespace(locked=False, sat=lambda seat: None)
    ann = FakeConn("ann")
    joined = roster.join(ann)
    assert joined["seat"] == 0 and joined["token"] and table.seats[0].conn is ann
    assert table.table_calls.names() == ["seats_changed"]
    with pytest.raises(ProtocolError) as e:
        roster.join(ann)
    assert e.value.code == "already_seated"
    with pytest.raises(ProtocolError) as e:
        roster.join(FakeConn("bob"), seat=0)
    assert e.value.code == "seat_taken"
    with pytest.raises(ProtocolError) as e:
        roster.join(FakeConn("bob"), seat=9)
    assert e.value.code == "no_such_seat"
    table.host.locked = True
    with pytest.raises(ProtocolError) as e:
        roster.join(FakeConn("bob"))
    assert e.value.code == "table_locked"


def test_a_grace_period_ending_after_its_table_was_freed_does_nothing():
    import gc
    import weakref

    table = FakeTable(status="playing")
    roster = SeatRoster(weakref.proxy(table))  # type: ignore[arg-type]
    del table
    gc.collect()
    roster._grace_over(0)  # a call that outlived its table (its seat was replaced meanwhile)


def test_a_dropped_seat_is_held_for_the_grace_then_left_to_a_bot():
    table = FakeTable(status="playing")
    table.table_calls = Calls(maybe_close=False)
    roster = SeatRoster(table)
    ann = FakeConn("ann")
    seat = table.seats[0]
    seat.conn, seat.name, seat.token = ann, "ann", "tok"
    roster.drop(ann)
    assert seat.away and seat.conn is None and roster.held() and seat.token == "tok"
    assert "spare_for" in table.stand_ins.names()  # after_miss: its bot learns beside the others
    grace = float(table.config["server"]["reconnect_grace_s"])
    table.clock.advance(grace - 0.1)
    assert seat.away
    table.clock.advance(0.2)
    assert not seat.away and seat.left and seat.token == "tok"
    assert ("start", ([seat], "left")) in table.stand_ins.log


def test_a_player_back_within_the_grace_gets_his_seat_and_the_resume():
    table = FakeTable(status="playing")
    table.table_calls = Calls(maybe_close=False)
    table.saving = SimpleNamespace(paused=False, outcomes_held=False, pause_reason="", write=lambda r: True)
    roster = SeatRoster(table)
    ann = FakeConn("ann")
    seat = table.seats[0]
    seat.conn, seat.name, seat.token = ann, "ann", "tok"
    roster.drop(ann)
    back = FakeConn("ann")
    joined = roster.reconnect(back, 0, None)
    assert joined == {"table": 7, "seat": 0, "token": "tok"}
    assert seat.conn is back and not seat.away and back.playing
    assert table.delivery.names() == ["send_start"]  # the resumed match_started
    table.clock.advance(1000)
    assert not seat.left  # the grace call was cancelled


def test_missed_events_stop_at_the_limit():
    from server.match.seats import MAX_MISSED_EVENTS

    table = FakeTable(status="playing")
    table.history = [[Event("e", {"k": k})] for k in range(MAX_MISSED_EVENTS + 5)]
    roster = SeatRoster(table)
    assert roster.missed(0, len(table.history) - 2) == ([{"type": "e", "k": MAX_MISSED_EVENTS + 3},
                                                         {"type": "e", "k": MAX_MISSED_EVENTS + 4}], False)
    assert roster.missed(0, 0) == ([], True)
    assert roster.missed(0, None) == ([], False)


# -- saving ----------------------------------------------------------------------------
class FlakyFile:
    """A match file whose writes fail while ``failing`` (as
    :class:`server.persist.MatchFile`, a record that could not be written is among
    the unsynced ones)."""

    def __init__(self) -> None:
        self.failing = True
        self.lines: list[dict[str, Any]] = []
        self.pending: list[dict[str, Any]] = []
        self.dirty = False
        self.written = 0
        self.synced = 0

    def write(self, record: dict[str, Any]) -> None:
        self.pending.append(record)
        self.append(record)
        self.pending.remove(record)

    def unsynced(self) -> list[dict[str, Any]]:
        out, self.pending = self.pending, []
        return out

    def repair(self) -> None:
        if self.failing:
            raise OSError(28, "No space left on device")

    def append(self, record: dict[str, Any]) -> None:
        self.repair()
        self.lines.append(record)


def test_without_a_log_every_write_succeeds_and_nothing_waits():
    table = FakeTable(status="playing")
    saving = Saving(table, None, None)
    ran: list[int] = []
    assert saving.write({"kind": "x"}) and not saving.paused
    saving.commit_then(lambda: ran.append(1))
    assert ran == [1] and not saving.when_saved(lambda: ran.append(2)) and ran == [1]


def test_a_full_disk_pauses_the_table_and_it_resumes_when_the_write_works():
    table = FakeTable(status="playing")
    saving = Saving(table, None, None)
    table.saving = saving
    saving.matchfile = FlakyFile()  # type: ignore[assignment]
    assert not saving.write({"kind": "action", "step": 1})
    assert saving.paused and "no space left on device" in saving.why_paused().english()
    assert table.delivery.names() == ["to_everyone"] and table.delivery.log[0][1][0] == "table_paused"
    released: list[str] = []
    saving.held_out.append(lambda: released.append("outcome"))
    assert saving.when_saved(lambda: released.append("timeout"))  # due meanwhile: kept
    assert not saving.write({"kind": "action", "step": 2})  # queued behind the first
    table.clock.advance(0.5)  # the retry fails again: the wait doubles
    assert saving.paused and saving.retry_delay == 1.0
    saving.matchfile.failing = False  # type: ignore[union-attr]
    table.clock.advance(1.0)
    assert not saving.paused and released == ["outcome", "timeout"]
    assert [r["step"] for r in saving.matchfile.lines] == [1, 2]  # type: ignore[union-attr]
    assert table.delivery.log[-1][1][0] == "table_resumed"


def test_a_freed_table_counts_as_closed_for_the_group_commit():
    import gc
    import weakref

    table = FakeTable()
    saving = Saving(weakref.proxy(table), None, None)  # type: ignore[arg-type]
    assert not saving.closed
    del table
    gc.collect()
    assert saving.closed


# -- delivery --------------------------------------------------------------------------
def test_every_seat_gets_its_own_view_and_spectators_only_public_events():
    table = FakeTable(status="playing")
    table.roster = SimpleNamespace(resuming={})
    delivery = Delivery(table)
    conns = [FakeConn(f"p{i}") for i in range(3)]
    for seat, conn in zip(table.seats, conns):
        seat.conn = conn
    watcher = FakeConn("tv")
    table.spectators.add(watcher, lambda snap: {})
    table.state = 3
    events = [Event("drew", {"seat": 1}, secret={"card": 7}, secret_to=1), Event("peek", {"card": 9}, to=2)]
    delivery.fan_out(events, now=10.0, public={"seat": None, "n": 3}, step=4)
    updates = [c.of("update")[-1] for c in conns]
    assert [u["view"] for u in updates] == [{"seat": i, "n": 3} for i in range(3)]
    assert updates[0]["events"] == [{"type": "drew", "seat": 1}]
    assert updates[1]["events"] == [{"type": "drew", "seat": 1, "card": 7}]
    assert updates[2]["events"] == [{"type": "drew", "seat": 1}, {"type": "peek", "card": 9}]
    tv = watcher.of("update")[-1]
    assert tv["events"] == [{"type": "drew", "seat": 1}] and tv["view"] == {"seat": None, "n": 3}
    assert delivery.released_step == 4


def test_a_delta_seat_gets_only_what_changed_in_its_view():
    table = FakeTable(status="playing")
    table.roster = SimpleNamespace(resuming={})
    delivery = Delivery(table)
    conn = FakeConn("ann")
    conn.features = frozenset({"delta"})  # type: ignore[attr-defined]
    table.seats[0].conn = conn
    table.state = 1
    delivery.remember_sent(0, conn, {"seat": 0, "n": 1}, [])
    table.state = 2
    delivery.fan_out([], now=1.0, public={"seat": None, "n": 2}, step=1)
    update = conn.of("update")[-1]
    assert update["view_set"] == {"n": 2} and "view" not in update and "legal" not in update
    assert view_delta({"a": 1, "b": 2}, {"a": 1, "c": 3}) == ({"c": 3}, ["b"])


def test_to_everyone_reaches_every_seat_and_spectator_once():
    table = FakeTable()
    delivery = Delivery(table)
    conns = [FakeConn("a"), FakeConn("b")]
    table.seats[0].conn, table.seats[2].conn = conns
    tv = FakeConn("tv")
    table.spectators.add(tv, lambda snap: {})
    delivery.to_everyone("emote", seat=0, emote="bravo")
    assert [len(c.of("emote")) for c in (*conns, tv)] == [1, 1, 1]


# -- the claim desk --------------------------------------------------------------------
def test_reaction_medians_and_the_sentence_of_each_outcome():
    from server.match.arbiter import Claim

    table = FakeTable()
    desk = ClaimDesk(table, 10.0)
    desk.reactions = [[240.0, 200.0, 260.0], [], [300.0, 310.0]]
    assert desk.reaction_medians() == [240.0, None, 305.0]
    first = Claim(0, None, press=1200.0, receive=1210.0, shown=1000.0)  # type: ignore[arg-type]
    late = Claim(1, None, press=1214.0, receive=1230.0, shown=1000.0)  # type: ignore[arg-type]
    assert desk._describe(first, "won", None, first, [first, late]) == (14.0, say("first_by", ms=14))
    assert desk._describe(late, "too_slow", None, first, [first, late]) == (14.0, say("too_slow", ms=14))
    assert desk._describe(late, "wrong", None, None, [late])[1].english() == "wrong card: penalty"


def test_a_window_opening_starts_its_timeout_and_closing_cancels_it():
    table = FakeTable(status="playing")
    window = Window(1, "snap", frozenset({0, 1}), frozenset({0, 1}), ("snap",), "pass_snap", 3000)
    table.game.reaction_window = lambda state: window if state == "open" else None
    desk = ClaimDesk(table, 10.0)
    table.state = "open"
    desk.track_window(500.0)
    assert desk.window is window and desk.window_shown == 500.0 and desk.timeout_call.active()
    call = desk.timeout_call
    table.state = "closed"
    desk.track_window(700.0)
    assert desk.window is None and not call.active() and desk.last_window == (window, 500.0, None)


def test_a_collection_closing_after_its_table_was_freed_decides_nothing():
    """The arbiter's closing timer fired after the table was freed (the protocol fuzz
    beside a real match): it must not raise in the reactor."""
    import gc
    import weakref

    from server.match.arbiter import Claim

    table = FakeTable(status="playing")
    desk = ClaimDesk(weakref.proxy(table), 10.0)  # type: ignore[arg-type]
    del table
    gc.collect()
    claim = Claim(0, None, press=1200.0, receive=1210.0, shown=1000.0)  # type: ignore[arg-type]
    desk._decide(1, [claim], 1210.0)


# -- the host controls -----------------------------------------------------------------
def test_only_the_host_locks_and_passes_the_host():
    table = FakeTable()
    host = HostControls(table, None)
    ann, bob = FakeConn("ann"), FakeConn("bob")
    table.seats[0].conn, table.seats[0].token = ann, "a"
    table.seats[1].conn, table.seats[1].token = bob, "b"
    host.sat(table.seats[0])  # the first player of a table without a host
    assert host.is_host(ann) and host.seat() == 0
    with pytest.raises(ProtocolError) as e:
        host.lock(bob, True)
    assert e.value.code == "not_allowed" and not host.locked
    host.lock(ann, True)
    assert host.locked
    host.pass_host(ann, 1)
    assert host.is_host(bob) and host.token == "b" and host.seat() == 1


def test_emotes_are_limited_per_seat():
    from shared.protocol import EMOTE_LIMIT, EMOTES

    table = FakeTable()
    host = HostControls(table, None)
    ann = FakeConn("ann")
    table.seats[0].conn = ann
    for _ in range(EMOTE_LIMIT):
        host.emote(ann, EMOTES[0])
    with pytest.raises(ProtocolError) as e:
        host.emote(ann, EMOTES[0])
    assert e.value.code == "too_many_emotes"
    assert table.delivery.names() == ["to_everyone"] * EMOTE_LIMIT
    with pytest.raises(ProtocolError) as e:
        host.emote(FakeConn("tv"), EMOTES[0])
    assert e.value.code == "not_seated"


# -- the stand-ins ---------------------------------------------------------------------
def test_a_stand_in_bot_is_seeded_from_the_match_and_the_seat():
    from shared.games import get_game

    table = FakeTable()
    table.game = get_game("omerta")
    table.bot_think_ms, table.bot_kind = 0.0, "rule"  # type: ignore[attr-defined]
    stand_ins = StandIns(table)
    first, again = stand_ins.make_bot(1), stand_ins.make_bot(1)
    assert type(first) is type(again) and first.seat == again.seat == 1
    seat = table.seats[1]
    seat.driver, seat.stand_in = SimpleNamespace(stop=lambda: table.table_calls.stopped()), "timer"
    stand_ins.stop(seat)
    assert seat.driver is None and seat.stand_in is None and table.table_calls.names() == ["stopped"]
