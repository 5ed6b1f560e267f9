"""Issue 14: group commit of the match logs (server/persist.py ``GroupCommit``): what a
record causes waits for its fsync, in order, and what was deferred meanwhile (a window's
timeout, a decision) runs once, in order, when the records are on disk."""
from __future__ import annotations

from typing import Any

import pytest_twisted

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
            if table.saving.when_saved(call):
                return
            ran.append(name)
            assert len(ran) < 10, "deferred calls chase each other forever"
        return call

    seat = table.game.awaiting(table.state)
    assert seat
    legal = table.legal(next(iter(seat)))
    table.apply(next(iter(seat)), legal[0])  # written, its update waits for the fsync
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
    persist.group_commit(lobby.clock).commit()  # their headers' (and folder entries') sync
    monkeypatch.setattr(persist.os, "fsync", fsync)
    monkeypatch.setattr(persist, "SYNCFS_MIN_FILES", 99)  # one fsync per log (syncfs: below)
    for table in tables:  # two actions at each table in the same reactor turn
        for _ in range(2):
            seat = next(iter(table.game.awaiting(table.state)))
            table.apply(seat, table.legal(seat)[0])
    assert all(t.matchfile.dirty for t in tables) and calls == []
    persist.group_commit(lobby.clock).commit()  # the end of the reactor turn
    assert len(calls) == 2  # one per match log, not one per action
    assert not any(t.matchfile.dirty for t in tables)


def _dirty_tables(tmp_path, n):
    lobby = lobby_at(tmp_path)
    tables = [players_table(lobby, seed=s, rounds=1)[0] for s in range(1, n + 1)]
    persist.group_commit(lobby.clock).commit()  # their headers' (and folder entries') sync
    for table in tables:
        seat = next(iter(table.game.awaiting(table.state)))
        table.apply(seat, table.legal(seat)[0])
    assert all(t.matchfile.dirty for t in tables)
    return lobby, tables


def test_a_batch_of_many_logs_is_made_durable_by_one_syncfs(tmp_path, monkeypatch):
    if persist._syncfs is None:
        import pytest
        pytest.skip("syncfs is Linux only")
    real_syncfs = persist._syncfs
    syncfs_calls: list[int] = []
    fsync_calls: list[int] = []
    monkeypatch.setattr(persist, "_syncfs", lambda fd: syncfs_calls.append(fd) or real_syncfs(fd))
    monkeypatch.setattr(persist, "_syncfs_off_until", 0.0)
    lobby, tables = _dirty_tables(tmp_path, persist.SYNCFS_MIN_FILES)
    lobby2, few = _dirty_tables(tmp_path / "few", persist.SYNCFS_MIN_FILES - 1)
    syncfs_calls.clear()  # the headers' syncs
    real_fsync = persist.os.fsync
    monkeypatch.setattr(persist.os, "fsync", lambda fd: fsync_calls.append(fd) or real_fsync(fd))
    persist.group_commit(lobby.clock).commit()
    assert len(syncfs_calls) == 1 and fsync_calls == []  # one call for the whole batch
    assert not any(t.matchfile.dirty for t in tables)  # every table released its outcome
    # below the threshold: one fsync per log, as before
    persist.group_commit(lobby2.clock).commit()
    assert len(syncfs_calls) == 1 and len(fsync_calls) == len(few)


def test_a_failed_syncfs_finds_whose_log_failed_with_fsync_each(tmp_path, monkeypatch):
    import errno
    if persist._syncfs is None:
        import pytest
        pytest.skip("syncfs is Linux only")
    monkeypatch.setattr(persist, "_syncfs", lambda fd: -1)
    monkeypatch.setattr(persist, "_syncfs_off_until", 0.0)
    lobby, tables = _dirty_tables(tmp_path, 3)
    bad = tables[1].matchfile._handle.fileno()
    real = persist.os.fsync

    def fsync(fd: int) -> None:
        if fd == bad:
            raise OSError(errno.EIO, "Input/output error")
        real(fd)

    monkeypatch.setattr(persist.os, "fsync", fsync)
    persist.group_commit(lobby.clock).commit()
    assert [t.paused for t in tables] == [False, True, False]  # only its table pauses
    assert not tables[0].matchfile.dirty and not tables[2].matchfile.dirty


def test_a_slow_syncfs_goes_back_to_one_fsync_per_log_for_a_while(tmp_path, monkeypatch):
    if persist._syncfs is None:
        import pytest
        pytest.skip("syncfs is Linux only")
    fsync_calls: list[int] = []
    lobby, tables = _dirty_tables(tmp_path, 3)
    monkeypatch.setattr(persist, "_syncfs_off_until", 0.0)
    monkeypatch.setattr(persist, "SYNCFS_SLOW_MS", -1.0)  # every syncfs counts as slow
    real = persist.os.fsync
    ours = {t.matchfile._handle.fileno() for t in tables}  # os.fsync is patched for every thread
    monkeypatch.setattr(persist.os, "fsync", lambda fd: (fd in ours and fsync_calls.append(fd)) or real(fd))
    persist.group_commit(lobby.clock).commit()
    assert fsync_calls == [] and persist._syncfs_off_until > 0
    for table in tables:
        seat = next(iter(table.game.awaiting(table.state)))
        table.apply(seat, table.legal(seat)[0])
    persist.group_commit(lobby.clock).commit()
    assert len(fsync_calls) == 3  # another program fills that disk: fsync each meanwhile


def test_the_writer_thread_runs_jobs_in_order_and_survives_a_failing_one():
    import threading

    writer = persist.WriterThread()
    ran: list[tuple[str, str]] = []
    done = threading.Event()

    def job(name: str) -> None:
        ran.append((name, threading.current_thread().name))

    def boom() -> None:
        raise RuntimeError("planted")

    writer.submit(job, "first")
    writer.submit(boom)
    writer.submit(job, "second")
    writer.submit(done.set)
    assert done.wait(5)
    assert [n for n, _ in ran] == ["first", "second"]
    assert {t for _, t in ran} == {"match-log fsync"}  # not the caller's thread

    # drain: the jobs submitted so far have run when it returns (the server's shutdown)
    release = threading.Event()
    writer.submit(release.wait, 5)  # a sync that takes a while
    writer.submit(job, "closed")
    assert not writer.drain(0.05)  # still busy
    release.set()
    assert writer.drain(5) and ran[-1][0] == "closed"
    assert persist.WriterThread().drain(0.01)  # no thread yet: nothing to wait for


@pytest_twisted.inlineCallbacks
def test_a_slow_disk_stalls_no_reactor_turn_when_matches_start_and_tables_close(tmp_path, monkeypatch):
    """Issue 14, "a slow disk delays updates, it never stalls other work": on a real
    reactor every fsync -- the match logs' headers and folder entries when matches
    start, their records, the last sync when a table closes -- runs on the writer
    thread. With a disk that takes 150 ms a sync, the reactor keeps turning while each
    sync is under way (a looping call on it ticks during every sync) as three matches
    start, play and their tables close. Judged by what happens during a sync, not by
    how long a turn took: a loaded machine may hold the reactor up for other reasons."""
    import threading
    import time

    from twisted.internet import reactor
    from twisted.internet import task as ttask

    from client.net import connect
    from server.app import start_server
    from shared.config import merge

    on_main: list[bool] = []
    ticks = [0]  # the looping call's ticks on the reactor
    looping = [True]
    turned: list[int] = []  # ticks during each sync

    def tick() -> None:
        ticks[0] += 1

    def slow(real):
        def sync(fd: int) -> Any:
            on_main.append(threading.current_thread() is threading.main_thread())
            first = ticks[0]
            time.sleep(0.15)
            for _ in range(500):  # a loaded machine may be slow to run the reactor: up to 5 s
                if ticks[0] >= first + 2 or not looping[0]:
                    break
                time.sleep(0.01)
            if looping[0]:
                turned.append(ticks[0] - first)
            return real(fd)
        return sync

    monkeypatch.setattr(persist.os, "fsync", slow(persist.os.fsync))
    if persist._syncfs is not None:
        monkeypatch.setattr(persist, "_syncfs", slow(persist._syncfs))
        monkeypatch.setattr(persist, "SYNCFS_SLOW_MS", 10_000.0)
    config = merge({"server": {"host": "127.0.0.1", "port": 0, "discovery_port": 0,
                               "data_dir": str(tmp_path), "reconnect_grace_s": 0}})
    loop = ttask.LoopingCall(tick)
    loop.start(0.01)
    running = yield start_server(reactor, config, testing=True, discovery=False)
    client = yield connect(reactor, "127.0.0.1", running.port, "ann")
    try:
        for _ in range(3):
            reply = yield client.request("create_table", game="omerta", seats=3,
                                         options={"bot_think_ms": 0})
            table_id = reply["table"]["id"]
            yield client.request("join", table=table_id)
            for _ in range(2):
                yield client.request("add_bot", table=table_id)
            table = running.lobby.tables[table_id]
            for _ in range(100):  # the bots play (each step waits for its sync)
                if len(table.log) >= 2:  # (then the match waits for ann)
                    break
                yield ttask.deferLater(reactor, 0.05, lambda: None)
            yield client.request("leave", table=table_id)
            yield ttask.deferLater(reactor, 0.3, lambda: None)
    finally:
        client.transport.loseConnection()
        yield running.stop()
        yield ttask.deferLater(reactor, 0.5, lambda: None)  # the writer thread's last jobs
        looping[0] = False
        loop.stop()
    logs = sorted((tmp_path / "matches").glob("table-*"))
    assert len(logs) == 3 and all(len(p.read_bytes().splitlines()) >= 3 for p in logs), logs
    assert on_main and not any(on_main), on_main.count(True)
    assert turned and min(turned) >= 2, turned  # the reactor turned during every sync
