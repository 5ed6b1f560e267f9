"""Waiting tables on disk (docs/MATCHLOG.md "Waiting tables"): a table whose match has
not started yet is kept in ``<data dir>/waiting/table-<id>.json``, so that a server
killed before the join that starts the match comes back with the table, its options
and its seats (the players' tokens and keys): a join asked again with its key gets its
seat.

* :func:`save` -- the table's record, replacing the previous one atomically (a hidden
  temporary file renamed over it: the file is whole or the previous version, never
  half-written). The reactor only writes to the system's cache, which outlives a killed
  server; the ``fsync`` of the file and of its folder (a power cut) runs on the match
  logs' writer thread, after the writes before it.
* :func:`remove` -- the table started its match (its match log takes over) or closed.
* :func:`load` -- every record a server on ``port`` restores, oldest table id first.

A record is one JSON object: ``{"kind": "waiting", "version": 1, "table", "game",
"name", "config", "settings", "options", "host", "locked", "match_no", "port",
"create_key", "seats": [{"seat", "name", "bot", "token", "key"?}]}`` (the taken seats
only; ``create_key``: the sha256 hex digest of the ``create_table`` key, or null).
Server-private, like a match log: it holds tokens, keys and the seed.
"""
from __future__ import annotations

import json
import os
import re
import secrets
from pathlib import Path
from typing import Any, Iterator

from twisted.logger import Logger

from server import persist

log = Logger()

#: The waiting tables' folder inside the data directory.
WAITING = "waiting"
_NAME = re.compile(r"^table-(\d+)\.json$")
#: What a record must hold to be restored (name -> type).
_FIELDS = {"table": int, "game": str, "name": str, "config": dict, "settings": dict, "seats": list}


def path_of(directory: Path, table_id: int) -> Path:
    """Where table ``table_id``'s record lives."""
    return directory / WAITING / f"table-{table_id}.json"


def save(directory: Path, table_id: int, record: dict[str, Any], clock: Any) -> None:
    """Replace table ``table_id``'s record by ``record`` (atomic: see the module
    docstring); its fsync runs on the writer thread when ``clock`` is a real reactor's
    (inline on a ``task.Clock``: :func:`server.persist.on_writer`). Raises ``OSError``
    (the previous record stays)."""
    folder = directory / WAITING
    folder.mkdir(parents=True, exist_ok=True)
    target = path_of(directory, table_id)
    temp = folder / f".table-{table_id}.{os.getpid()}.{secrets.token_hex(4)}.tmp"
    try:
        with open(temp, "xb") as f:
            f.write(json.dumps(record, separators=(",", ":")).encode() + b"\n")
        os.replace(temp, target)
    except BaseException:
        temp.unlink(missing_ok=True)
        raise
    persist.on_writer(clock, _sync, target)


def _sync(path: Path) -> None:
    """On the writer thread: ``path`` (if it is still there) and its folder on disk."""
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return  # replaced or removed meanwhile: the later job syncs what is there
    try:
        os.fsync(fd)
    except OSError as e:
        log.warn("syncing {path}: {e}", path=str(path), e=e)
    finally:
        os.close(fd)
    persist.sync_dir(path.parent)


def remove(directory: Path, table_id: int) -> None:
    """Forget table ``table_id``'s record (none: nothing to do). A failure is logged:
    at worst the next start restores a table whose match log restores too, and skips it."""
    try:
        path_of(directory, table_id).unlink(missing_ok=True)
    except OSError as e:
        log.warn("cannot remove the record of waiting table {id}: {e}", id=table_id, e=e)


def load(directory: Path, port: int | None) -> Iterator[tuple[Path, dict[str, Any]]]:
    """``(path, record)`` of every waiting table that a server on ``port`` restores (the
    record's ``port``; None: a lobby without a listener, in tests), by table id. A
    record that does not read or lacks a field is logged and skipped; other ports'
    records are skipped silently."""
    for tid, path in persist.files_by_table(directory / WAITING, _NAME):
        try:
            record = json.loads(path.read_bytes())
        except (OSError, ValueError) as e:
            log.error("waiting table record {path} is unusable, not restored: {e}", path=str(path), e=e)
            continue
        if not isinstance(record, dict) or record.get("kind") != "waiting":
            log.error("waiting table record {path} is not one, not restored", path=str(path))
            continue
        bad = [k for k, kind in _FIELDS.items() if not isinstance(record.get(k), kind)]
        if bad or record["table"] != tid:
            log.error("waiting table record {path}: bad {fields}, not restored", path=str(path),
                      fields=", ".join(bad) or "table id")
            continue
        if record.get("port") != port:
            continue
        yield path, record
