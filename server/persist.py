"""Match logs on disk (docs/MATCHLOG.md): where they live, writing them crash-safely, and
finding the unfinished ones when the server starts.

* :func:`data_dir` -- ``--data-dir`` / ``server.data_dir``, by default the user's data
  directory (``platformdirs.user_data_dir("mafia-table")``).
* :class:`MatchFile` -- one match's file. :meth:`MatchFile.append` writes a record,
  flushes and ``fsync``s it before it returns: the table calls it before it sends
  anybody the outcome of that action.
* :func:`unfinished` -- every log without an ``over`` record, parsed with
  :func:`shared.matchlog.parse`; a damaged last line is dropped with a logged warning and
  the file truncated to its last good line, so new records follow a clean line.

A server restores only the matches it served on the same TCP port (the header's
``port``): that is where the players' clients come back to, and two servers sharing a
data directory (two GUIs on one machine, each with its embedded server) never take each
other's matches.
"""
from __future__ import annotations

import os
import re
import time
from pathlib import Path
from typing import Any, Iterator

from twisted.logger import Logger

from shared import matchlog

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
        self.appends = 0
        self.fsync_ms = 0.0

    @classmethod
    def create(cls, directory: Path, table_id: int, seed: int, header: dict[str, Any]) -> "MatchFile":
        """A new file ``<directory>/matches/table-<id>-<seed>.jsonl`` (``-2``, ``-3`` ...
        before ``.jsonl`` when an earlier match took the name) starting with ``header``.
        The folder entry is synced too, so the file survives a power cut."""
        folder = directory / MATCHES
        folder.mkdir(parents=True, exist_ok=True)
        n = 1
        while True:
            name = f"table-{table_id}-{seed}" + (f"-{n}" if n > 1 else "") + ".jsonl"
            try:
                handle = open(folder / name, "xb", buffering=0)
                break
            except FileExistsError:
                n += 1
        mf = cls(folder / name, handle)
        mf.append(header)
        _sync_dir(folder)
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
        data = memoryview(matchlog.line(record).encode("utf-8"))
        while data:
            n = self._handle.write(data)
            if not n:
                raise OSError("the match log accepted no bytes")
            data = data[n:]
        os.fsync(self._handle.fileno())
        self.size = self._handle.tell()
        self.fsync_ms += (time.perf_counter() - start) * 1000.0
        self.appends += 1

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

    def close(self) -> None:
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


def _sync_dir(folder: Path) -> None:
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


def unfinished(directory: Path, port: int | None = None) -> Iterator[tuple[Path, matchlog.MatchLog]]:
    """Every match log in ``<directory>/matches`` that a server on ``port`` restores (its
    header's ``port`` is ``port``; None: a lobby without a listener, in tests), oldest
    table id first: the unfinished ones, and the finished ones whose table had not closed
    (written with checksums, without a ``closed`` record: a player may not have had the
    result).

    Damage is cut off: the log keeps its valid prefix (:func:`shared.matchlog.parse`),
    each warning is logged, a copy of the damaged file is kept beside it as
    ``<name>.damaged`` when lines other than a torn last one were dropped, and the file is
    truncated to its good part. Logs without a valid header are logged as errors and
    skipped; closed, abandoned and other ports' logs are skipped silently.
    """
    folder = directory / MATCHES
    if not folder.is_dir():
        return
    found = []
    for path in folder.iterdir():
        m = _NAME.match(path.name)
        if m is not None:
            found.append((int(m.group(1)), path.name, path))
    for _, _, path in sorted(found):
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
        if parsed.dropped_lines:
            try:
                path.with_name(path.name + ".damaged").write_bytes(data)
            except OSError as e:
                log.error("match log {path}: cannot keep a copy of the damaged file: {e}",
                          path=str(path), e=e)
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
