"""A disk that fails mid-match (issue "Nothing lost, whatever fails"): the table pauses
instead of freezing, tells everybody why, lets nothing out that is not on disk, retries,
and resumes by itself; the match then ends exactly as the undisturbed one. Also a
finished match whose players had not all seen the result comes back finished."""
from __future__ import annotations

import errno
import json

from server import persist
from shared import matchlog
from tests.test_persist import lobby_at, players_table, run


class FlakyDisk:
    """``os.fsync`` that fails with ENOSPC while ``full``."""

    def __init__(self, real):
        self.real = real
        self.full = False
        self.failures = 0

    def __call__(self, fd: int) -> None:
        if self.full:
            self.failures += 1
            raise OSError(errno.ENOSPC, "No space left on device")
        self.real(fd)


def test_a_full_disk_pauses_the_table_and_it_resumes_with_the_same_result(tmp_path, monkeypatch):
    clean_lobby = lobby_at(tmp_path / "clean")
    clean, _ = players_table(clean_lobby, seed=9, rounds=1)
    run(clean_lobby, clean)
    assert clean.status == "over"

    disk = FlakyDisk(persist.os.fsync)
    monkeypatch.setattr(persist.os, "fsync", disk)
    lobby = lobby_at(tmp_path / "flaky")
    table, players = players_table(lobby, seed=9, rounds=1)
    run(lobby, table, until=lambda: len(table.log) >= 15)
    disk.full = True
    run(lobby, table, until=lambda: table.paused)
    assert table.paused and disk.failures == 1
    saved = len(table.log) - 1  # the action that failed to save is held back
    for p in players:
        paused = p.of("table_paused")
        assert paused and "cannot save this match" in paused[-1]["message"]
        assert "no space left" in paused[-1]["message"]
        assert max(u["step"] for u in p.of("update")) == saved  # nothing unsaved got out
    for _ in range(200):  # 20 s: the table waits; retries fail; nothing freezes or leaks
        lobby.clock.advance(0.1)
    assert table.paused and disk.failures > 3 and len(table.log) == saved + 1
    assert all(max(u["step"] for u in p.of("update")) == saved for p in players)
    disk.full = False
    for _ in range(100):  # the next retry (at most 8 s later) succeeds
        lobby.clock.advance(0.1)
    assert not table.paused and all(p.of("table_resumed") for p in players)
    run(lobby, table)
    assert table.status == "over" and table.result == clean.result
    assert all(p.of("match_over")[-1]["result"] == clean.result for p in players)
    log = matchlog.parse(table.matchfile.path.read_bytes())
    assert not log.warnings and len(log.actions) == len(table.log) and log.finished


def test_a_finished_match_not_yet_closed_comes_back_finished(tmp_path):
    lobby = lobby_at(tmp_path)
    table, players = players_table(lobby, seed=4, rounds=1)
    run(lobby, table)
    assert table.status == "over"
    result = table.result
    for p in players:  # the server dies before anybody left the results
        p.crash()
    second = lobby_at(tmp_path, start=5000.0)
    restored = second.restore()
    assert [t.status for t in restored] == ["over"] and restored[0].result == result
    back = players[0].come_back(second)
    assert back["seat"] == 0
    assert players[0].of("match_over")[-1]["result"] == result
    # once everybody has left, the table closes and the log says so: never restored again
    for p in players:
        second.connection_lost(p)
    for _ in range(130):  # the grace period (120 s) of those who never came back
        second.clock.advance(1.0)
    log = matchlog.parse(table.matchfile.path.read_bytes())
    assert log.closed and lobby_at(tmp_path, start=9000.0).restore() == []


def test_an_unwritable_data_directory_is_reported_with_what_to_do(tmp_path):
    assert persist.check_writable(tmp_path) is None
    assert not list((tmp_path / "matches").iterdir())  # the probe is gone
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    message = persist.check_writable(blocker)
    assert message is not None and "--data-dir" in message and str(blocker) in message


class ShortWrites:
    """A file handle that takes at most 7 bytes per ``write`` and, while ``fail``, raises
    ENOSPC after taking them (a disk that fills in the middle of a record)."""

    def __init__(self, handle):
        self.handle = handle
        self.fail = False

    def write(self, data):
        n = self.handle.write(bytes(data[:7]))
        if self.fail:
            raise OSError(errno.ENOSPC, "No space left on device")
        return n

    def __getattr__(self, name):
        return getattr(self.handle, name)


def test_a_match_file_knows_its_size_without_asking_the_file(tmp_path):
    """``MatchFile`` counts the bytes it wrote instead of calling ``tell()`` at every
    group commit: what ``begin_sync`` says a sync covers is the file's real size after
    short writes, after a write that failed half-way and ``repair``, and after appends."""
    mf = persist.MatchFile.create(tmp_path, 1, 5, {"kind": "header", "n": 1}, sync=False)
    mf._handle = ShortWrites(mf._handle)
    assert mf.dev == (tmp_path / "matches").stat().st_dev
    for i in range(5):
        mf.write({"kind": "action", "step": i, "pad": "x" * (i * 13)})
        assert mf.begin_sync()[2] == mf.path.stat().st_size
    assert mf.sync() == 6
    assert mf.size == mf.path.stat().st_size
    mf._handle.fail = True
    try:
        mf.write({"kind": "action", "step": 5, "pad": "y" * 40})
    except OSError:
        pass
    else:
        raise AssertionError("the failing write did not raise")
    mf.unsynced()
    mf.repair()  # cut back to the last synced byte
    assert mf.begin_sync()[2] == mf.path.stat().st_size == mf.size
    mf.append({"kind": "action", "step": 5})
    mf.write({"kind": "action", "step": 6})
    assert mf.begin_sync()[2] == mf.path.stat().st_size
    lines = mf.path.read_bytes().splitlines()
    assert [json.loads(line)["step"] for line in lines[1:]] == [0, 1, 2, 3, 4, 5, 6]  # no torn line
