"""Match logs on disk (docs/MATCHLOG.md): where they live, writing them crash-safely, and
finding the unfinished ones when the server starts.

* :func:`data_dir` -- ``--data-dir`` / ``server.data_dir``, by default the user's data
  directory (``platformdirs.user_data_dir("mafia-table")``).
* :class:`MatchFile` -- one match's file. :meth:`MatchFile.append` writes a record,
  flushes and ``fsync``s it before it returns; :meth:`MatchFile.write` only writes, and
  :meth:`MatchFile.sync` syncs every record written since.
* :class:`GroupCommit` -- the tables write each action's record at once and hold back
  its outcome; at the end of the reactor turn one ``fsync`` per match log covers every
  action of the turn, then the outcomes go out: nobody hears of an action before its
  record is on disk.
* :func:`unfinished` -- every log without an ``over`` record, parsed with
  :func:`shared.matchlog.parse`; a damaged last line is dropped with a logged warning and
  the file truncated to its last good line, so new records follow a clean line.

A server restores only the matches it served on the same TCP port (the header's
``port``): that is where the players' clients come back to, and two servers sharing a
data directory (two GUIs on one machine, each with its embedded server) never take each
other's matches.
"""
from __future__ import annotations

import ctypes
import os
import queue
import re
import secrets
import threading
import time
import weakref
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator

from twisted.logger import Logger

from shared import matchlog
from server.native import libc_function, per_clock

log = Logger()

#: The matches folder inside the data directory.
MATCHES = "matches"
#: Suffix of a match nobody was left at: kept for replays, never restored.
ABANDONED = ".abandoned.jsonl"
_NAME = re.compile(r"^table-(\d+)-(-?\d+)(?:-\d+)?\.jsonl$")


def data_dir(configured: str | os.PathLike | None) -> Path:
    """The data directory: ``configured`` when non-empty, else the user's data directory
    for ``mafia-table`` (``~/.local/share/mafia-table`` on Linux)."""
    if configured:
        return Path(configured).expanduser()
    import platformdirs

    return Path(platformdirs.user_data_dir("mafia-table"))


def check_writable(directory: Path) -> str | None:
    """None when match logs can be written in ``<directory>/matches`` (a file is created,
    fsynced and removed), else a sentence that says what is wrong and what to do."""
    folder = directory / MATCHES
    probe = folder / f".write-test-{os.getpid()}"
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with open(probe, "wb", buffering=0) as f:
            f.write(b"ok\n")
            os.fsync(f.fileno())
        probe.unlink()
    except OSError as e:
        return (f"cannot write match logs in {folder}: {e.strerror or e}. Without them a "
                "crash loses every match in progress. Choose another folder with "
                "--data-dir DIR (or server.data_dir in config.yaml), or make this one "
                "writable.")
    return None


class MatchFile:
    """The log file of one match, opened for appending. ``fsync_ms`` accumulates the time
    spent in write + flush + fsync (``appends`` counts them) for measurements."""

    def __init__(self, path: Path, handle: Any, size: int = 0):
        self.path = path
        self._handle = handle
        self.size = size  # bytes on disk and synced: everything before is safe
        self._end = size  # bytes written (the file's position: appends only, no tell())
        try:  # its filesystem, for the group commit's syncfs (no fstat per commit)
            self.dev: int | None = os.fstat(handle.fileno()).st_dev
        except (OSError, AttributeError, ValueError):
            self.dev = None
        self.appends = 0
        self.syncs = 0  # fsyncs of records (one covers every record of a group commit)
        self.written = 0  # records written by write() (synced or not)
        self.fsync_ms = 0.0
        self._pending: list[dict[str, Any]] = []  # written, not yet synced
        #: the folder whose entry for this new file waits for the next sync (create(sync=False))
        self.new_folder: Path | None = None

    @classmethod
    def create(cls, directory: Path, table_id: int, seed: int, header: dict[str, Any],
               sync: bool = True) -> "MatchFile":
        """A new file ``<directory>/matches/table-<id>-<seed>.jsonl`` (``-2``, ``-3`` ...
        before ``.jsonl`` when an earlier match took the name) starting with ``header``.
        The folder entry is synced too, so the file survives a power cut: at once, or
        with ``sync=False`` by the next sync of the file (the table's first group commit,
        on the writer thread: a slow disk does not stall the reactor at every match
        start), before anything written after the header is released. The file appears
        whole: the header is written to a hidden temporary file that is then linked
        under the log's name, so a crash never leaves an empty or half-written log (the
        temporary file is removed; one a crash left behind is never read). Raises
        ``OSError`` (nothing is left behind then)."""
        folder = directory / MATCHES
        folder.mkdir(parents=True, exist_ok=True)
        temp = folder / f".table-{table_id}-{seed}.{os.getpid()}.{secrets.token_hex(4)}.tmp"
        handle = open(temp, "xb", buffering=0)
        mf = cls(temp, handle)
        try:
            if sync:
                mf.append(header)
            else:
                mf.write(header)
            n = 1
            while True:
                name = f"table-{table_id}-{seed}" + (f"-{n}" if n > 1 else "") + ".jsonl"
                try:
                    os.link(temp, folder / name)
                    break
                except FileExistsError:
                    n += 1
        except BaseException:
            handle.close()
            temp.unlink(missing_ok=True)
            raise
        temp.unlink()
        mf.path = folder / name
        if not sync:
            mf.new_folder = folder
            return mf
        sync_dir(folder)
        return mf

    @classmethod
    def reopen(cls, path: Path, good_bytes: int) -> "MatchFile":
        """Reopen an existing log for appending, cut to its first ``good_bytes`` bytes
        (what :func:`shared.matchlog.parse` found undamaged)."""
        handle = open(path, "r+b", buffering=0)
        handle.truncate(good_bytes)
        handle.seek(good_bytes)
        os.fsync(handle.fileno())
        return cls(path, handle, good_bytes)

    def append(self, record: dict[str, Any]) -> None:
        """Write one record; on disk (fsynced) when this returns. Raises ``OSError`` (a
        full disk, an I/O error) -- then call :meth:`repair` before appending again."""
        start = time.perf_counter()
        data = memoryview(matchlog.line_bytes(record))
        while data:
            n = self._handle.write(data)
            if not n:
                raise OSError("the match log accepted no bytes")
            self._end += n
            data = data[n:]
        os.fsync(self._handle.fileno())
        self.size = self._end
        self.fsync_ms += (time.perf_counter() - start) * 1000.0
        self.appends += 1
        self.syncs += 1

    def write(self, record: dict[str, Any]) -> None:
        """Write one record without waiting for the disk (it reaches the system's cache);
        a sync makes it durable (:meth:`sync`, or :meth:`begin_sync` + ``fsync`` +
        :meth:`end_sync` on a writer thread). Group commit: the records of a reactor
        turn are covered by one sync (:class:`GroupCommit`). Raises ``OSError`` --
        then :meth:`unsynced` gives back what was not synced and :meth:`repair` cuts the
        file to its last synced byte."""
        start = time.perf_counter()
        data = memoryview(matchlog.line_bytes(record))
        self._pending.append(record)
        self.written += 1
        while data:
            n = self._handle.write(data)
            if not n:
                raise OSError("the match log accepted no bytes")
            self._end += n
            data = data[n:]
        self.fsync_ms += (time.perf_counter() - start) * 1000.0

    @property
    def dirty(self) -> bool:
        """True while records written by :meth:`write` wait for a sync."""
        return bool(self._pending)

    @property
    def synced(self) -> int:
        """How many records :meth:`write` wrote that are on disk (of :attr:`written`)."""
        return self.written - len(self._pending)

    def begin_sync(self) -> tuple[int, int, int]:
        """``(fd, upto, size)``: what an ``os.fsync(fd)`` starting now makes durable
        (the records written so far, :attr:`written` = ``upto``, the file up to ``size``
        bytes); hand ``upto``/``size`` to :meth:`end_sync` once that fsync returned."""
        return self._handle.fileno(), self.written, self._end

    def end_sync(self, upto: int, size: int, ms: float = 0.0) -> None:
        """The fsync of :meth:`begin_sync` returned: the records before ``upto`` are on
        disk (an older fsync finishing after a newer one changes nothing)."""
        first = self.written - len(self._pending)  # the index of the first waiting record
        n = min(len(self._pending), upto - first)
        if n > 0:
            del self._pending[:n]
            self.appends += n
        self.size = max(self.size, size)
        self.syncs += 1
        self.fsync_ms += ms

    def sync(self) -> int:
        """``fsync`` what :meth:`write` wrote: on disk when this returns. Returns how
        many records it covered. Raises ``OSError``."""
        if not self._pending:
            return 0
        start = time.perf_counter()
        records = len(self._pending)
        fd, upto, size = self.begin_sync()
        os.fsync(fd)
        if self.new_folder is not None:
            sync_dir(self.new_folder)
            self.new_folder = None
        self.end_sync(upto, size, (time.perf_counter() - start) * 1000.0)
        return records

    def unsynced(self) -> list[dict[str, Any]]:
        """Take back the records written but not synced (after a failed write or sync:
        they go to the table's records waiting for the disk)."""
        out, self._pending = self._pending, []
        self.written -= len(out)
        return out

    def repair(self) -> None:
        """After a failed append: reopen the file cut to its last synced byte, so the
        next append starts on a clean line. Raises ``OSError``."""
        try:
            self._handle.close()
        except OSError:
            pass
        self._handle = open(self.path, "r+b", buffering=0)
        self._handle.truncate(self.size)
        self._handle.seek(self.size)
        self._end = self.size

    def close(self) -> None:
        """Close the file (what :meth:`write` left unsynced is synced first)."""
        if self._pending and not self._handle.closed:
            try:
                self.sync()
            except OSError as e:
                log.warn("syncing {path}: {e}", path=str(self.path), e=e)
        if not self._handle.closed:
            try:
                self._handle.close()
            except OSError as e:
                log.warn("closing {path}: {e}", path=str(self.path), e=e)

    def abandon(self) -> None:
        """Close, and rename the file ``....abandoned.jsonl`` so it is never restored."""
        self.close()
        target = self.path.with_name(self.path.name[: -len(".jsonl")] + ABANDONED)
        try:
            os.replace(self.path, target)
            self.path = target
        except OSError as e:
            log.warn("could not mark {path} abandoned: {e}", path=str(self.path), e=e)


class GroupCommit:
    """Group commit of the match logs: nobody hears of an action before its record is
    on disk, but one fsync covers every record a table wrote meanwhile, and the reactor
    does not wait for the disk.

    A table's :class:`server.match.saving.Saving` :meth:`MatchFile.write`s each record
    at once, holds back what it causes and calls :meth:`add` with itself (its
    ``matchfile``, ``closed``, ``committed()`` and ``commit_failed(error)``). At the end
    of the reactor turn (``callLater(0)``) :meth:`commit` takes every dirty match log
    and fsyncs them -- on the :class:`WriterThread` when ``threads`` (a reactor, whose
    ``callFromThread`` brings the results back: it serves everybody meanwhile; the
    records written during that fsync form the next batch, so a slow disk makes batches
    bigger, never stalls other tables), inline otherwise (``task.Clock`` in tests).
    Then each ``committed()`` releases what waited, in order; a log whose fsync failed
    goes to ``commit_failed(error)``, which pauses its table. One batch is in flight at
    a time."""

    def __init__(self, clock: Any, threads: Any = None):
        self.clock = clock
        self.threads = threads
        self._due: dict[Any, None] = {}  # tables with records to sync, in order
        self._call: Any = None
        self._busy = False
        self._waiters: list[Callable[[], None]] = []  # for the next batch
        self.commits = 0

    @property
    def pending(self) -> bool:
        """True while records wait for their fsync (written this turn, or in flight)."""
        return bool(self._due) or self._busy

    def after_commit(self, call: Callable[[], None]) -> None:
        """Call ``call()`` once the records written so far are on disk and their tables
        released what they held (after the next batch; at once when none is needed).
        A connection holds its replies meanwhile, so that an ``ack`` and the ``update``
        it announces leave together, in one write."""
        self._waiters.append(call)
        if self._call is None and not self._busy:
            self._call = self.clock.callLater(0, self.commit)

    def add(self, table: Any) -> None:
        """``table`` (a table's saving) wrote records (``table.matchfile``): sync them soon."""
        self._due[table] = None
        if self._call is None and not self._busy:
            self._call = self.clock.callLater(0, self.commit)

    def commit(self) -> None:
        """Start syncing every dirty match log (see the class docstring)."""
        self._call = None
        if self._busy:
            return
        batch = []
        for table in self._due:
            mf = table.matchfile
            if mf is not None and mf.dirty and not table.closed:
                batch.append((table, mf, *mf.begin_sync()))
        self._due = {}
        waiters, self._waiters = self._waiters, []
        if not batch:
            for call in waiters:
                call()
            return
        self.commits += 1
        self._busy = True
        fds = [fd for _, _, fd, _, _ in batch]
        devs = [mf.dev for _, mf, _, _, _ in batch]
        folders = list({mf.new_folder: None for _, mf, _, _, _ in batch if mf.new_folder is not None})
        if self.threads is None:
            self._done(batch, _fsync_all(fds, folders, devs), waiters)
        else:
            _WRITER.submit(self._in_thread, batch, fds, waiters, folders, devs)

    def _in_thread(self, batch: list[Any], fds: list[int], waiters: list[Any],
                   folders: Iterable[Path] = (), devs: list[int | None] | None = None) -> None:
        results = _fsync_all(fds, folders, devs)
        self.threads.callFromThread(self._done, batch, results, waiters)

    def _done(self, batch: list[Any], results: list[tuple[OSError | None, float]],
              waiters: Iterable[Callable[[], None]] = ()) -> None:
        self._busy = False
        for (table, mf, _, upto, size), (error, ms) in zip(batch, results):
            if table.closed or table.matchfile is not mf:
                continue
            if error is not None:
                if mf.synced < upto:  # not already synced by the table itself meanwhile
                    table.commit_failed(error)
                continue
            mf.new_folder = None  # synced with it (_fsync_all)
            mf.end_sync(upto, size, ms)
            table.committed()
        for call in waiters:
            call()
        if (self._due or self._waiters) and self._call is None:
            self._call = self.clock.callLater(0, self.commit)


#: Linux's ``syncfs(fd)`` (None elsewhere): one call makes every file of a filesystem durable.
_syncfs = libc_function("syncfs", [ctypes.c_int], ctypes.c_int)
#: A batch of at least this many match logs on one filesystem is synced with one
#: ``syncfs`` instead of one ``fsync`` each: the journal commits once. Measured on a
#: virtual disk, 20 files: 92 us of CPU instead of 911.
SYNCFS_MIN_FILES = 2
#: A ``syncfs`` slower than this (ms) means the filesystem holds much more dirty data
#: than our logs (another program writing a lot): back to ``fsync`` per file for
#: :data:`SYNCFS_BACKOFF_S`, so that its writes do not delay our updates.
SYNCFS_SLOW_MS = 100.0
SYNCFS_BACKOFF_S = 60.0
_syncfs_off_until = 0.0


def _fsync_all(fds: list[int], folders: Iterable[Path] = (),
               devs: list[int | None] | None = None) -> list[tuple[OSError | None, float]]:
    """Make each file durable: ``(error or None, ms)`` each (a share of one ``syncfs``
    when :data:`SYNCFS_MIN_FILES` or more are on one filesystem, else ``os.fsync``
    each), then the entries of new files in ``folders``. ``devs``: each file's
    filesystem (``st_dev``, :attr:`MatchFile.dev`; None or missing: ``fstat`` asks). A
    failed ``syncfs`` falls back to ``fsync`` per file, which says whose records failed.
    Runs on the writer thread."""
    try:
        return _fsync_files(fds, devs)
    finally:
        for folder in folders:
            sync_dir(folder)


def _fsync_files(fds: list[int], devs: list[int | None] | None = None) -> list[tuple[OSError | None, float]]:
    global _syncfs_off_until
    synced: set[int] = set()
    out: dict[int, tuple[OSError | None, float]] = {}
    if _syncfs is not None and len(fds) >= SYNCFS_MIN_FILES and time.monotonic() >= _syncfs_off_until:
        by_dev: dict[int, list[int]] = {}
        for i, fd in enumerate(fds):
            dev = devs[i] if devs is not None and i < len(devs) else None
            try:
                by_dev.setdefault(os.fstat(fd).st_dev if dev is None else dev, []).append(fd)
            except OSError:
                pass  # fsync below says what is wrong
        for group in by_dev.values():
            if len(group) < SYNCFS_MIN_FILES:
                continue
            start = time.perf_counter()
            if _syncfs(group[0]) != 0:
                continue  # an error somewhere on that filesystem: find whose below
            ms = (time.perf_counter() - start) * 1000.0
            if ms > SYNCFS_SLOW_MS:
                _syncfs_off_until = time.monotonic() + SYNCFS_BACKOFF_S
                log.info("syncing the match logs took {ms:.0f} ms (other programs are writing "
                         "to that disk): one fsync per log for {s:.0f} s", ms=ms, s=SYNCFS_BACKOFF_S)
            for fd in group:
                out[fd] = (None, ms / len(group))
                synced.add(fd)
    for fd in fds:
        if fd in synced:
            continue
        start = time.perf_counter()
        try:
            os.fsync(fd)
            out[fd] = (None, (time.perf_counter() - start) * 1000.0)
        except OSError as e:
            out[fd] = (e, 0.0)
    return [out[fd] for fd in fds]


class WriterThread:
    """The thread that runs the group commits' fsyncs: one daemon thread fed by a
    ``queue.SimpleQueue`` (C), started at the first batch. Twisted's thread pool did the
    same through several Python layers, locks and a coordinator per call, on both
    threads, for every batch (a batch per reactor turn under load). Its results come
    back with the reactor's ``callFromThread``. A job that raises is logged; the thread
    goes on."""

    def __init__(self) -> None:
        self._jobs: "queue.SimpleQueue[tuple[Callable[..., None], tuple[Any, ...]]]" = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()

    def submit(self, fn: Callable[..., None], *args: Any) -> None:
        """Run ``fn(*args)`` on the writer thread, after the jobs submitted before."""
        if self._thread is None or not self._thread.is_alive():
            with self._lock:
                if self._thread is None or not self._thread.is_alive():
                    self._thread = threading.Thread(target=self._run, name="match-log fsync", daemon=True)
                    self._thread.start()
        self._jobs.put((fn, args))

    def drain(self, timeout_s: float = 5.0) -> bool:
        """Block until the jobs submitted so far have run (at most ``timeout_s``
        seconds); True when they did. For the server's shutdown: a table that closed
        just before keeps its last records and its ``closed`` mark."""
        if self._thread is None or not self._thread.is_alive():
            return True
        done = threading.Event()
        self._jobs.put((done.set, ()))
        return done.wait(timeout_s)

    def _run(self) -> None:
        while True:
            fn, args = self._jobs.get()
            try:
                fn(*args)
            except Exception:
                log.failure("the match-log writer thread failed on a job; it goes on")


_WRITER = WriterThread()
_commits: "weakref.WeakKeyDictionary[Any, GroupCommit]" = weakref.WeakKeyDictionary()


def drain_writer(timeout_s: float = 5.0) -> bool:
    """:meth:`WriterThread.drain` of the match logs' writer thread."""
    return _WRITER.drain(timeout_s)


def close_file(mf: MatchFile, clock: Any, abandon: bool = False) -> None:
    """Close ``mf`` (:meth:`MatchFile.close`: what is unsynced is synced first) or, with
    ``abandon``, mark it abandoned (:meth:`MatchFile.abandon`), without the reactor
    waiting for the disk: on the writer thread, after the batches submitted before it,
    when ``clock`` schedules on a real reactor; at once on a test clock. The caller
    stops using ``mf``."""
    on_writer(clock, mf.abandon if abandon else mf.close)


def files_by_table(folder: Path, name: "re.Pattern[str]") -> list[tuple[int, Path]]:
    """``(table id, path)`` of the files of ``folder`` whose name matches ``name`` (its
    first group: the table id), by table id then name; [] when ``folder`` does not exist."""
    if not folder.is_dir():
        return []
    found = [(int(m.group(1)), path.name, path) for path in folder.iterdir()
             if (m := name.match(path.name)) is not None]
    return [(tid, path) for tid, _, path in sorted(found)]


def on_writer(clock: Any, job: Callable[..., None], *args: Any) -> None:
    """Run ``job(*args)`` on the writer thread, after the jobs submitted before it, when
    ``clock`` schedules on a real reactor; at once on a test clock."""
    if group_commit(clock).threads is None:
        job(*args)
    else:
        _WRITER.submit(job, *args)


def group_commit(clock: Any) -> GroupCommit:
    """The :class:`GroupCommit` of every table on ``clock`` (one per reactor): with a
    writer thread when ``clock`` schedules on a real reactor (its ``_reactor`` has
    ``callInThread``), inline on a ``task.Clock``."""
    def make(clock: Any) -> GroupCommit:
        reactor = getattr(clock, "_reactor", None)
        return GroupCommit(clock, reactor if hasattr(reactor, "callInThread") else None)

    return per_clock(_commits, clock, make)


def sync_dir(folder: Path) -> None:
    """``fsync`` the folder ``folder`` (its entries: a new or renamed file); errors are
    ignored (not every system can)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:  # pragma: no cover - e.g. Windows
        return
    try:
        os.fsync(fd)
    except OSError:  # pragma: no cover
        pass
    finally:
        os.close(fd)


def keep_damaged(path: Path, data: bytes) -> None:
    """Keep ``data`` (a log about to be cut to its good part) as ``<name>.damaged``
    beside ``path`` (docs/MATCHLOG.md "Reading a log after a crash"); a copy kept earlier
    is not overwritten. A failure is logged."""
    copy = path.with_name(path.name + ".damaged")
    try:
        with open(copy, "xb") as f:
            f.write(data)
    except FileExistsError:
        pass
    except OSError as e:
        log.error("match log {path}: cannot keep a copy of the damaged file: {e}", path=str(path), e=e)


def unfinished(directory: Path, port: int | None = None) -> Iterator[tuple[Path, matchlog.MatchLog]]:
    """Every match log in ``<directory>/matches`` that a server on ``port`` restores (its
    header's ``port`` is ``port``; None: a lobby without a listener, in tests), oldest
    table id first: the unfinished ones, and the finished ones whose table had not closed
    (written with checksums, without a ``closed`` record: a player may not have had the
    result).

    Damage is cut off: the log keeps its valid prefix (:func:`shared.matchlog.parse`),
    each warning is logged, a copy of the damaged file is kept beside it as
    ``<name>.damaged`` (:func:`keep_damaged`) when more than an unterminated last line is
    dropped, and the file is truncated to its good part. Logs without a valid header are logged as errors and
    skipped; closed, abandoned and other ports' logs are skipped silently.
    """
    for _, path in files_by_table(directory / MATCHES, _NAME):
        try:
            data = path.read_bytes()
            parsed = matchlog.parse(data)
        except (OSError, matchlog.LogError) as e:
            log.error("match log {path} is unusable, not restored: {e}", path=str(path), e=e)
            continue
        if parsed.finished and (parsed.closed or not parsed.checksummed):
            continue
        if parsed.header.get("port") != port:
            continue
        for warning in parsed.warnings:
            log.warn("match log {path}: {w}", path=str(path), w=warning)
        torn = len(data) - (data.rfind(b"\n") + 1)  # an unterminated last line: a crash's
        if parsed.good_bytes < len(data) - torn:  # more than that is cut: keep the whole file
            keep_damaged(path, data)
        if parsed.good_bytes < len(data):
            try:
                with open(path, "r+b") as f:
                    f.truncate(parsed.good_bytes)
                    os.fsync(f.fileno())
            except OSError as e:
                log.error("match log {path} cannot be cut to its good part, not restored: {e}",
                          path=str(path), e=e)
                continue
        yield path, parsed
