"""Issue 14: group commit of the match logs (server/persist.py ``GroupCommit``): what a
record causes waits for its fsync, in order, and what was deferred meanwhile (a window's
timeout, a decision) runs once, in order, when the records are on disk."""
from __future__ import annotations

from server import persist
from tests.test_persist import lobby_at, players_table, run


def test_calls_deferred_behind_the_disk_run_once_each_in_order(tmp_path):
    lobby = lobby_at(tmp_path)
    table, _ = players_table(lobby, rounds=1)
    run(lobby, table, until=lambda: len(table.log) >= 3)
    ran: list[str] = []

    def deferring(name: str):
        def call() -> None:
            # as _on_timeout and _decide do: stop while the table holds outcomes back
            if table._when_saved(call):
                return
            ran.append(name)
            assert len(ran) < 10, "deferred calls chase each other forever"
        return call

    seat = table.game.awaiting(table.state)
    assert seat
    legal = table._legal(next(iter(seat)))
    table._apply(next(iter(seat)), legal[0])  # written, its update waits for the fsync
    assert table.matchfile.dirty
    first, second = deferring("first"), deferring("second")
    first()
    second()
    assert ran == []  # both wait behind the held update
    lobby.clock.advance(0)  # the group commit: fsync, then release in order
    assert ran == ["first", "second"] and not table.matchfile.dirty


def test_one_fsync_covers_the_records_of_several_tables_written_in_one_turn(tmp_path, monkeypatch):
    calls: list[int] = []
    real = persist.os.fsync

    def fsync(fd: int) -> None:
        calls.append(fd)
        real(fd)

    lobby = lobby_at(tmp_path)
    tables = [players_table(lobby, seed=s, rounds=1)[0] for s in (1, 2)]
    monkeypatch.setattr(persist.os, "fsync", fsync)
    for table in tables:  # two actions at each table in the same reactor turn
        for _ in range(2):
            seat = next(iter(table.game.awaiting(table.state)))
            table._apply(seat, table._legal(seat)[0])
    assert all(t.matchfile.dirty for t in tables) and calls == []
    persist.group_commit(lobby.clock).commit()  # the end of the reactor turn
    assert len(calls) == 2  # one per match log, not one per action
    assert not any(t.matchfile.dirty for t in tables)
