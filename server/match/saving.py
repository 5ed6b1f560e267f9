"""The match log of one table on disk (docs/MATCHLOG.md): opening it, writing every
record before anybody hears of what it records, the group commit, pausing while the
disk fails, and reading a log back after a crash.

Every record is written at once and synced at the end of the reactor turn by the group
commit (:class:`server.persist.GroupCommit`: one fsync covers every record of the turn,
on the writer thread, so a slow disk stalls no other table); what a record causes is
held (:meth:`Saving.commit_then`) until it is on disk. When the disk fails (full, I/O
error) the records wait in memory, the table **pauses** -- every seat and spectator is
told ``table_paused`` with the reason, nothing that depends on an unsaved record reaches
anybody, no action is taken -- and the write is retried with backoff (0.5 s doubling to
8 s) until it works; then the table resumes by itself (``table_resumed``).

Before its match starts, the table is kept on disk as a *waiting table*
(:mod:`server.waiting_tables`): rewritten at every change of its seats, host or
options, removed once the match log exists (which then holds everything) or when the
table closes.
"""
from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Callable

from twisted.logger import Logger

from shared import matchlog
from shared.sentences import Sentence, say
from server import waiting_tables
from server.match.contracts import MatchTable
from server.persist import MatchFile, close_file, group_commit, keep_damaged

log = Logger()

#: First and longest wait (s) before a failed write is tried again.
RETRY_FIRST_S = 0.5
RETRY_LONGEST_S = 8.0


class Saving:
    """The match log of ``table`` (a :class:`MatchTable`); ``data_dir``: where it goes
    (None: no log); ``port``: the server's TCP port, written to the header (the port
    that restores it).

    ``matchfile``: the open log (None before the match or without ``data_dir``);
    ``unsaved``: records waiting for the disk while paused; ``held_out``: what they hold
    back from the clients; ``after_resume``: time-outs and decisions that came due while
    paused; ``commit_waiting``: ``(records written, call)`` waiting for the group commit."""

    def __init__(self, table: MatchTable, data_dir: Path | None, port: int | None):
        self.table = table
        self.data_dir = data_dir
        self.port = port
        self.matchfile: MatchFile | None = None
        self.unsaved: list[dict[str, Any]] = []
        self.held_out: list[Callable[[], None]] = []
        self.after_resume: list[Callable[[], None]] = []
        #: why the table is paused (a sentence clients translate), or None
        self.pause_reason: Sentence | None = None
        self.retry_call: Any = None
        self.retry_delay = RETRY_FIRST_S
        self.commit_waiting: list[tuple[int, Callable[[], None]]] = []
        self.releasing = False  # running what a commit released: never deferred again
        #: the header of a log that could not be created yet (the table waits for the disk)
        self.header_waiting: dict[str, Any] | None = None
        #: why the table waits for something other than the disk (:meth:`hold`), or None
        self.holding: Sentence | None = None
        self.holding_until: float | None = None

    @property
    def closed(self) -> bool:
        """The table is closed or gone (the group commit skips its log)."""
        try:
            return self.table.closed
        except ReferenceError:
            return True

    @property
    def paused(self) -> bool:
        """True while records wait for the disk, the log waits to be created, or the
        table waits for its players (:meth:`hold`)."""
        return bool(self.unsaved) or self.header_waiting is not None or self.holding is not None

    def why_paused(self) -> Sentence:
        """Why the table is paused (only meaningful while :attr:`paused`)."""
        return self.pause_reason or self.holding or say("cannot_save", error="?")

    def pause_fields(self) -> dict[str, Any]:
        """The fields of ``table_paused`` after ``table``: ``message`` (why) and, while
        the table waits for its players, ``until`` (server ms when it goes on without
        them) with ``t_server`` (server ms now): a client that reconnected to a restarted
        server has no clock sync with it yet and counts down ``until - t_server``."""
        why = self.why_paused()
        out: dict[str, Any] = {"message": why.english(), "sentence": why.wire()}
        if self.holding is not None and self.holding_until is not None:
            out["until"] = round(self.holding_until, 3)
            out["t_server"] = round(self.table.now_ms(), 3)
        return out

    # -- writing ----------------------------------------------------------------------
    def open_log(self, header_fields: dict[str, Any]) -> None:
        """Create the match log of the match that starts (no-op without ``data_dir``);
        ``header_fields`` are added to its header (the host's, :mod:`server.match.host`).
        A log that cannot be created (a full disk) pauses the table before anything of
        the match is sent; creating it is retried with backoff, and the match starts when
        it works (no match is ever played without its log)."""
        t = self.table
        if self.data_dir is None:
            return
        settings = {k: v for k, v in t.settings.items() if k != "seed"}
        header = matchlog.header(t.game.NAME, t.engine_config, t.seed, t.id, t.name,
                                 [s.record() for s in t.seats])
        header["settings"] = settings
        header.update(header_fields)
        if self.port is not None:
            header["port"] = self.port
        try:
            self._create(header)
        except OSError as e:
            log.error("table {id}: cannot write the match log in {dir}: {e}", id=t.id,
                      dir=str(self.data_dir), e=e)
            self.header_waiting = header
            if self.retry_call is None:
                self._pause(e)

    def _create(self, header: dict[str, Any]) -> None:
        """Create the log with ``header`` (it appears whole, never empty:
        :meth:`server.persist.MatchFile.create`); synced by the first group commit, not
        here: a slow disk stalls no other table. Raises ``OSError``."""
        assert self.data_dir is not None
        t = self.table
        self.matchfile = MatchFile.create(self.data_dir, t.id, t.seed, header, sync=False)
        group_commit(t.clock).add(self)
        waiting_tables.remove(self.data_dir, t.id)  # the log holds the table from now on

    def write(self, record: dict[str, Any]) -> bool:
        """Write ``record`` to the match log; True when it is written. It is on disk at
        the end of the reactor turn (group commit): what it causes goes through
        :meth:`commit_then`, which holds it until then. When the disk fails the table
        pauses (see the module docstring). Returns False while paused."""
        if self.matchfile is None:
            return True
        if self.unsaved:
            self.unsaved.append(record)
            return False
        try:
            self.matchfile.write(record)
        except OSError as e:
            self.commit_failed(e)
            return False
        group_commit(self.table.clock).add(self)
        return True

    def commit_then(self, call: Callable[[], None]) -> None:
        """Run ``call`` (it tells somebody the outcome of a written record) once every
        record written so far is on disk (:class:`server.persist.GroupCommit`), in
        order; at once when nothing waits for the disk; after the pause while paused."""
        if self.paused and not self.releasing:
            self.held_out.append(call)
            return
        mf = self.matchfile
        if self.commit_waiting or (mf is not None and mf.dirty):
            self.commit_waiting.append((mf.written if mf is not None else 0, call))
        else:
            call()

    def committed(self) -> None:
        """The group commit synced records of this table: release, in order, what
        waited for them (what waits for later records stays). Several steps released
        at once go out as one batch (:meth:`server.match.delivery.Delivery.begin_batch`)."""
        t = self.table
        waiting = self.commit_waiting
        synced = self.matchfile.synced if self.matchfile is not None else 0
        ready = []
        while waiting and waiting[0][0] <= synced:
            ready.append(waiting.pop(0)[1])
        releasing = self.releasing
        self.releasing = True  # what they run is in order: never deferred again
        batch = len(ready) > 1 and t.delivery.begin_batch()
        try:
            for call in ready:
                if t.closed:
                    return
                if self.paused:  # a later write failed meanwhile: wait for the retry
                    self.held_out.append(call)
                    continue
                call()
        finally:
            self.releasing = releasing
            if batch:
                t.delivery.end_batch()

    def when_saved(self, call: Callable[[], None]) -> bool:
        """While outcomes wait for the disk, keep ``call`` for after them (or, while
        paused, for when the table resumes) and return True: the caller stops. Else
        return False."""
        if not self.paused:
            waiting = self.commit_waiting
            if not waiting or self.releasing:
                return False
            waiting.append((waiting[-1][0], call))  # after the outcomes held back
            return True
        self.after_resume.append(call)
        return True

    @property
    def outcomes_held(self) -> bool:
        """True while outcomes of written records wait for the group commit."""
        return bool(self.commit_waiting)

    # -- pausing while the disk fails -------------------------------------------------
    def commit_failed(self, error: OSError) -> None:
        """Writing or syncing failed: the records not yet synced wait in memory, and
        what they held back waits for the retry; the table pauses."""
        if self.matchfile is not None:
            self.unsaved = self.matchfile.unsynced() + self.unsaved
        waiting, self.commit_waiting = self.commit_waiting, []
        self.held_out = [call for _, call in waiting] + self.held_out
        if self.retry_call is None:
            self._pause(error)

    def _pause(self, error: OSError) -> None:
        t = self.table
        reason = os.strerror(error.errno) if error.errno else str(error)
        self.pause_reason = say("cannot_save", error=reason.lower())
        log.error("table {id}: {r}; the table pauses and retries", id=t.id, r=self.pause_reason.english())
        t.delivery.to_everyone("table_paused", table=t.id, **self.pause_fields())
        self.retry_delay = RETRY_FIRST_S
        self.retry_call = t.clock.callLater(self.retry_delay, self._retry_write)

    def _retry_write(self) -> None:
        t = self.table
        self.retry_call = None
        if t.closed or (self.matchfile is None and self.header_waiting is None):
            return
        try:
            if self.header_waiting is not None:  # a new file: nothing to repair
                self._create(self.header_waiting)
                self.header_waiting = None
            else:
                assert self.matchfile is not None
                self.matchfile.repair()
            assert self.matchfile is not None
            while self.unsaved:
                self.matchfile.append(self.unsaved[0])
                self.unsaved.pop(0)
        except OSError as e:
            log.warn("table {id}: the match log still cannot be written: {e}", id=t.id, e=e)
            self.retry_delay = min(RETRY_LONGEST_S, self.retry_delay * 2)
            self.retry_call = t.clock.callLater(self.retry_delay, self._retry_write)
            return
        log.info("table {id}: the match log is written again; the table resumes", id=t.id)
        self._resume()

    def _resume(self) -> None:
        """Nothing pauses the table any more: everybody is told ``table_resumed``, what
        was held back goes out (once its records are on disk), then the time-outs and
        decisions that came due meanwhile."""
        t = self.table
        if self.paused or t.closed:
            return
        t.delivery.to_everyone("table_resumed", table=t.id)
        held, self.held_out = self.held_out, []
        for release in held:
            self.commit_then(release)
        waiting, self.after_resume = self.after_resume, []
        for call in waiting:  # time-outs and decisions that came due meanwhile
            if not self.paused and not t.closed:
                call()

    # -- waiting for the players ------------------------------------------------------
    def hold(self, reason: Sentence, until_ms: float | None = None) -> None:
        """Pause the table for ``reason`` (a sentence for people; ``until_ms``: server
        ms when it goes on anyway) as a full disk does: ``table_paused`` to everybody,
        actions refused, time-outs and decisions put off; :meth:`unhold` ends it."""
        t = self.table
        self.holding, self.holding_until = reason, until_ms
        if not self.unsaved and self.header_waiting is None:
            self.pause_reason = reason
        t.delivery.to_everyone("table_paused", table=t.id, **self.pause_fields())

    def unhold(self, first: Callable[[], None] = lambda: None) -> None:
        """The pause of :meth:`hold` ends: ``first()`` runs (the table no longer counts
        as held by it), then the table resumes unless the disk holds it."""
        if self.holding is None:
            return
        self.holding, self.holding_until = None, None
        first()
        self._resume()

    # -- a waiting table ---------------------------------------------------------------
    def save_waiting(self) -> None:
        """Keep the waiting table on disk as it is now (:mod:`server.waiting_tables`;
        docs/MATCHLOG.md "Waiting tables"), before anybody hears of the change: a server
        killed now restores it. No-op without ``data_dir`` or once the match started. A
        failure is logged (the match's start pauses on the log if the disk stays full)."""
        t = self.table
        if self.data_dir is None or t.status != "waiting" or t.closed:
            return
        try:
            waiting_tables.save(self.data_dir, t.id, self.waiting_record(), t.clock)
        except OSError as e:
            log.warn("table {id}: cannot keep the waiting table on disk: {e}", id=t.id, e=e)

    def waiting_record(self) -> dict[str, Any]:
        """The waiting table's record (:mod:`server.waiting_tables`): its game, engine
        config, settings (seed included), options, host, lock, match number, the
        ``create_table`` key's digest and its taken seats (tokens and keys)."""
        t = self.table
        return {"kind": "waiting", "version": 1, "table": t.id, "game": t.game.NAME, "name": t.name,
                "config": t.engine_config, "settings": t.settings, **t.host.log_fields(),
                "locked": t.host.locked, "port": self.port, "create_key": t.create_key,
                "seats": [s.record() for s in t.seats if not s.free]}

    # -- the end ----------------------------------------------------------------------
    def close(self, status: str, t_ms: float) -> None:
        """The table closes: stop retrying; an unfinished match's log is marked
        abandoned (nobody is left to come back to it), a finished one gets its
        ``closed`` record (never restored again). Synced and closed on the writer
        thread (a slow disk). ``t_ms``: ms since the match started."""
        if self.retry_call is not None and self.retry_call.active():
            self.retry_call.cancel()
        if self.data_dir is not None and self.matchfile is None and self.table.replaced_by is None:
            waiting_tables.remove(self.data_dir, self.table.id)  # (a successor keeps the id's record)
        if self.matchfile is None:
            return
        clock = self.table.clock
        if status == "playing":
            close_file(self.matchfile, clock, abandon=True)
            return
        if status == "over":  # everybody had the result: never restore it again
            self.write({"kind": "closed", "t": round(t_ms, 3)})
        if self.matchfile is not None:
            close_file(self.matchfile, clock)

    # -- reading back after a crash ---------------------------------------------------
    def replay(self, path: Path, mlog: matchlog.MatchLog) -> None:
        """Re-apply every action of ``mlog`` (parsed, cut to its good part) on the
        table: ``state``, ``actions``, ``history`` and ``log`` as they were, the log file
        reopened for appending. A record the engine refuses cuts the log there (logged).
        Raises :class:`shared.matchlog.LogError` when not even the start replays."""
        t = self.table
        state = None
        try:
            for state, seat, action, events in matchlog.replay(t.game, mlog):
                if action is not None:
                    t.actions.append((seat, action))
                    t.history.append(events)
        except matchlog.LogError as e:  # a refused record: restore what came before it
            if state is None:
                raise
            mlog.cut(len(t.actions), str(e))
            log.warn("table {id}: {w}", id=t.id, w=mlog.warnings[-1])
            try:  # the file is cut below: what it held stays readable beside it
                keep_damaged(path, path.read_bytes())
            except OSError as err:
                log.error("table {id}: cannot read {path}: {e}", id=t.id, path=str(path), e=err)
        t.state = state
        t.delivery.released_step = len(t.actions)  # restored: nothing held back
        t.log = [{"seat": r["seat"], "action": r["action"], "t": float(r["t"])} for r in mlog.actions]
        if self.data_dir is not None:
            self.matchfile = MatchFile.reopen(path, mlog.good_bytes)
