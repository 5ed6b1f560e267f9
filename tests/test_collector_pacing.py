"""The garbage-collector pacing (server/pacing.py CollectorPacing) of the server and the client:
young collections less often, survivors frozen now and then, one full collection per
period that still frees the cycles that died while frozen."""
from __future__ import annotations

import gc
import weakref

from twisted.internet import task

from server.pacing import CollectorPacing


class FakeGC:
    """Records what the pacing asks of the ``gc`` module."""

    def __init__(self) -> None:
        self.calls: list[str] = []
        self.threshold = (700, 10, 10)

    def get_threshold(self) -> tuple[int, int, int]:
        return self.threshold

    def set_threshold(self, *t: int) -> None:
        self.threshold = t
        self.calls.append(f"threshold{t}")

    def collect(self, generation: int = 2) -> int:
        self.calls.append("collect")
        return 0

    def freeze(self) -> None:
        self.calls.append("freeze")

    def unfreeze(self) -> None:
        self.calls.append("unfreeze")


def test_schedule_freezes_survivors_and_collects_everything_once_per_period():
    clock, fake = task.Clock(), FakeGC()
    pacing = CollectorPacing(clock, young=5000, freeze_s=30, full_s=90, collector=fake)
    pacing.start()
    assert fake.calls == ["threshold(5000, 10, 10)", "collect", "freeze"]
    fake.calls.clear()
    clock.advance(30)
    clock.advance(30)
    assert fake.calls == ["freeze", "freeze"]
    fake.calls.clear()
    clock.advance(30)  # 90 s: the full collection sees the frozen objects too
    assert "unfreeze" in fake.calls
    unfreeze = fake.calls.index("unfreeze")
    assert fake.calls[unfreeze:unfreeze + 3] == ["unfreeze", "collect", "freeze"]
    assert pacing.full_collections == 1
    fake.calls.clear()
    pacing.stop()
    assert fake.calls == ["threshold(700, 10, 10)", "unfreeze"]
    assert not clock.getDelayedCalls()
    clock.advance(1000)
    assert fake.calls == ["threshold(700, 10, 10)", "unfreeze"]


class Node:
    def __init__(self) -> None:
        self.other: Node | None = None


def test_a_cycle_that_dies_after_being_frozen_is_freed_by_the_full_collection():
    clock = task.Clock()
    pacing = CollectorPacing(clock, young=700, freeze_s=10, full_s=60)
    saved = gc.get_threshold()
    try:
        pacing.start()
        a, b = Node(), Node()
        a.other, b.other = b, a  # a reference cycle: only the collector frees it
        alive = weakref.ref(a)
        clock.advance(10)  # frozen while alive
        del a, b
        gc.collect()  # frozen objects are out of every automatic or explicit collection
        assert alive() is not None
        clock.advance(50)  # the full collection
        assert alive() is None
        assert pacing.full_collections == 1
    finally:
        pacing.stop()
    assert gc.get_threshold() == saved
    assert gc.get_freeze_count() == 0


def test_a_closed_table_is_freed_without_the_collector():
    """The arbiter and the turn timer hold their table's methods weakly: a closed table
    (a whole match history: thousands of objects) goes at once, by reference counting,
    instead of waiting in memory for a full collection."""
    from tests.test_table import FakeConn, make_table

    clock = task.Clock()
    table = make_table(options={"seed": 3, "turn_timer_s": 30}, clock=clock)
    conns = [FakeConn(f"p{i}") for i in range(3)]
    for c in conns:
        table.join(c)
    assert table.status == "playing" and table.turn_timer.seconds == 30
    alive = weakref.ref(table)
    gc.disable()
    try:
        table.close()
        del table
        assert alive() is None
    finally:
        gc.enable()


def test_the_client_collects_everything_at_a_change_of_screens_and_never_during_a_race(tmp_path):
    """A full collection of a hosting client is a pause of tens of ms: App.reset does one;
    the timed one waits while a table with a local seat is on screen (it could fall in a
    snap race) and comes once it is gone (a TV view may never reset)."""
    from client.scenes.menu import MenuScene
    from tests.test_client_app import make_app

    app = make_app(tmp_path)
    fake = FakeGC()
    clock = task.Clock()
    app.reactor = clock
    pacing = app.pace_collector()
    pacing.stop()  # the real collector's thresholds and frozen objects back as they were
    pacing.gc = fake
    pacing.start()
    app.reset(MenuScene(app))
    assert fake.calls[-3:] == ["unfreeze", "collect", "freeze"] and pacing.full_collections == 1

    class LiveTable(MenuScene):
        def precise_input(self) -> bool:
            return True

    app.push(LiveTable(app))
    clock.advance(3 * 600.0)  # half an hour at a live table: never
    assert pacing.full_collections == 1
    app.pop()
    clock.advance(pacing.CALM_RETRY_S)  # the table is gone: the due collection comes
    assert pacing.full_collections == 2
    pacing.stop()
