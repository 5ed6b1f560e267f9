"""The match log: one JSON object per line, the crash-recovery record and the replay
format (docs/MATCHLOG.md). Pure: callers read and write the file; this module builds and
parses the lines.

A log is a *header* line, then one *record* per line:

* ``{"kind": "header", "format": "mafia-table-log", "version": 1, "game", "config",
  "seed", "table", "name", "seats": [{"seat", "name", "bot", "token"}], "t": ms}``
* ``{"kind": "action", "step": n, "seat": int|null, "action": {...}, "t": ms}`` -- the
  n-th applied action (n from 1); ``seat`` null for the table's own (timeouts);
  ``t`` = ms since the match started.
* ``{"kind": "seat", "seat", "name", "bot", "token"}`` -- a seat changed hands.
* ``{"kind": "over", "result": {...}, "stand_ins": [seat, ...], "t": ms}`` -- the match
  ended; ``stand_ins`` (optional) lists the players' seats a stand-in bot finished (the
  player had left or had not come back).
* ``{"kind": "closed", "t": ms}`` -- the finished match's table closed: every player had
  its result (a finished log without it is restored as finished, so that players coming
  back after a crash still receive their ``match_over``).

**Checksums** (a write-ahead log): every line written by :func:`line` ends with a
``"crc"`` field, the CRC-32 (8 hex digits) of the line's JSON without that field. A line
whose checksum does not match, that is not JSON, or that breaks the order of steps is
*damaged*. :func:`parse` keeps the valid prefix before the first damaged line and says
in :attr:`MatchLog.warnings` what was dropped; only a log without a valid header is an
error. Lines without ``crc`` are accepted only in logs written before checksums (whose
header has none); in a checksummed log a line without one is damaged.
"""
from __future__ import annotations

import json
import re
import zlib
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any, Iterator, Sequence

import msgspec

from shared.rules import Action, Event

FORMAT = "mafia-table-log"
VERSION = 1


class LogError(ValueError):
    """The log cannot be used: no header, wrong format, or a damaged line in the middle."""


_ENCODER = msgspec.json.Encoder()
_DECODER = msgspec.json.Decoder()
#: How a line written by :func:`line_bytes` ends: its checksum, last.
_CRC_TAIL = re.compile(rb',"crc":"([0-9a-f]{8})"}$')


def _crc(body: bytes) -> str:
    return f"{zlib.crc32(body) & 0xFFFFFFFF:08x}"


def line_bytes(record: dict[str, Any]) -> bytes:
    """One record as a line: compact JSON (UTF-8, msgspec) with its ``"crc"`` last,
    ``\\n``-terminated. A non-finite number is written as ``null``; a value JSON cannot
    hold raises ``TypeError``."""
    body = _ENCODER.encode({k: v for k, v in record.items() if k != "crc"} if "crc" in record else record)
    if body == b"{}":
        return body + b"\n"
    return b'%s,"crc":"%s"}\n' % (body[:-1], _crc(body).encode())


def line(record: dict[str, Any]) -> str:
    """:func:`line_bytes` as text."""
    return line_bytes(record).decode("utf-8")


def check_line(raw: bytes, checksummed: bool = False) -> dict[str, Any]:
    """The record of one line (without its newline); raises ``ValueError`` when it is not
    a JSON record, its checksum does not match, or it has none although ``checksummed``
    (the log's header has one: every line of that log must).

    The checksum covers the line's bytes as written without its ``crc`` field, so it
    does not depend on how a JSON library formats numbers. A ``crc`` that is not last
    is checked against the record serialised again the way older servers wrote it."""
    try:
        rec = _DECODER.decode(raw)
    except msgspec.DecodeError as e:
        raise ValueError(f"not JSON: {e}") from None
    if not isinstance(rec, dict) or "kind" not in rec:
        raise ValueError("not a record")
    crc = rec.pop("crc", None)
    if crc is None:
        if checksummed:
            raise ValueError("no checksum in a checksummed log")
        return rec
    tail = _CRC_TAIL.search(raw)
    if tail is not None and tail.group(1).decode() == crc:
        body = raw[:tail.start()] + b"}"
    else:
        body = json.dumps(rec, separators=(",", ":"), ensure_ascii=False).encode("utf-8")
    if crc != _crc(body):
        raise ValueError("checksum mismatch")
    return rec


def header(game: str, config: dict[str, Any], seed: int, table: int, name: str,
           seats: Sequence[dict[str, Any]], t: float = 0.0) -> dict[str, Any]:
    """The header record of a new match log."""
    return {"kind": "header", "format": FORMAT, "version": VERSION, "game": game,
            "config": dict(config), "seed": seed, "table": table, "name": name,
            "seats": [dict(s) for s in seats], "t": t}


def action_record(step: int, seat: int | None, action: Action, t: float) -> dict[str, Any]:
    """The record of the ``step``-th applied action (``t`` in ms since the start)."""
    return {"kind": "action", "step": step, "seat": seat, "action": action.to_dict(), "t": round(t, 3)}


@dataclass
class MatchLog:
    """A parsed log: the header, the actions in order, seat changes, the result if the
    match ended, and warnings about a dropped damaged last line."""

    header: dict[str, Any]
    actions: list[dict[str, Any]] = field(default_factory=list)
    seats: list[dict[str, Any]] = field(default_factory=list)
    result: dict[str, Any] | None = None
    stand_ins: list[int] = field(default_factory=list)  # players' seats a stand-in finished
    warnings: list[str] = field(default_factory=list)
    good_bytes: int = 0  # length of the undamaged prefix, to truncate the file before appending
    action_ends: list[int] = field(default_factory=list)  # byte offset after each action record
    seat_ends: list[int] = field(default_factory=list)  # ... and after each seat record
    closed: bool = False
    dropped_lines: int = 0  # complete lines dropped after a damaged one
    checksummed: bool = False  # written with checksums (and "closed" records)

    @property
    def finished(self) -> bool:
        return self.result is not None

    def cut(self, steps: int, why: str) -> None:
        """Keep only the first ``steps`` actions (the rest does not replay): everything
        after them is dropped, with a warning saying so."""
        if steps >= len(self.actions):
            return
        dropped = len(self.actions) - steps
        self.good_bytes = self.action_ends[steps - 1] if steps else self.header_end
        self.actions = self.actions[:steps]
        self.action_ends = self.action_ends[:steps]
        kept = [i for i, end in enumerate(self.seat_ends) if end <= self.good_bytes]
        self.seats = [self.seats[i] for i in kept]
        self.seat_ends = [self.seat_ends[i] for i in kept]
        self.result = None
        self.stand_ins = []
        self.closed = False
        self.warnings.append(f"{why}: the log restores at step {steps}, {dropped} later "
                             f"action(s) dropped")

    header_end: int = 0


def parse(data: bytes) -> MatchLog:
    """Parse a whole log file's bytes into its valid prefix.

    Raises :class:`LogError` only when there is no valid header. A damaged or
    unterminated line (anywhere) ends the valid prefix: it and every line after it are
    dropped, with a warning in :attr:`MatchLog.warnings` saying how many; ``good_bytes``
    is the length of the prefix, to cut the file before appending. A duplicated record
    (the same step twice) counts as damage.
    """
    lines = data.split(b"\n")
    complete, tail = lines[:-1], lines[-1]
    warnings = []
    records: list[tuple[dict[str, Any], int]] = []
    good = 0
    dropped = 0
    checksummed = bool(complete) and b'"crc":"' in complete[0]
    for i, raw in enumerate(complete):
        try:
            rec = check_line(raw, checksummed and i > 0)
        except ValueError as e:
            dropped = len(complete) - i - 1
            if i == 0:
                raise LogError(f"the log has no valid header ({e})") from None
            where = "last line" if dropped == 0 and not tail.strip() else f"line {i + 1}"
            warnings.append(f"dropped a damaged {where} ({len(raw)} bytes: {e})"
                            + (f" and the {dropped} line(s) after it" if dropped else ""))
            break
        good += len(raw) + 1
        records.append((rec, good))
    else:
        if tail.strip():
            warnings.append(f"dropped an unterminated last line ({len(tail)} bytes)")
    if not records or records[0][0].get("kind") != "header":
        raise LogError("the log has no header")
    head = records[0][0]
    if head.get("format") != FORMAT or head.get("version") != VERSION:
        raise LogError(f"not a {FORMAT} version {VERSION} file")
    log = MatchLog(head, warnings=warnings, good_bytes=good, dropped_lines=dropped,
                   header_end=records[0][1], checksummed=checksummed)
    for rec, end in records[1:]:
        kind = rec["kind"]
        if kind == "action":
            if rec.get("step") != len(log.actions) + 1:
                log.warnings.append(f"dropped an action record with step {rec.get('step')} where "
                                    f"step {len(log.actions) + 1} was due, and what follows it")
                break
            log.actions.append(rec)
            log.action_ends.append(end)
        elif kind == "seat":
            log.seats.append(rec)
            log.seat_ends.append(end)
        elif kind == "over":
            log.result = rec.get("result")
            finished = rec.get("stand_ins")
            log.stand_ins = [s for s in finished if isinstance(s, int) and not isinstance(s, bool)] \
                if isinstance(finished, list) else []
        elif kind == "closed":
            log.closed = True
        else:
            log.warnings.append(f"dropped a record of unknown kind {kind!r} and what follows it")
            break
        log.good_bytes = end
    return log


def replay(rules: ModuleType, log: MatchLog) -> Iterator[tuple[Any, int | None, Action | None, list[Event]]]:
    """Rebuild the match: yields ``(state, seat, action, events)`` first for the new
    match (seat, action None, no events) then after every logged action.

    Raises :class:`LogError` if an action does not parse or the engine refuses it.
    """
    from shared.rules import BadAction, IllegalAction

    state = rules.new_match(log.header["config"], log.header["seed"])
    yield state, None, None, []
    for rec in log.actions:
        try:
            action = rules.ACTIONS.parse(rec["action"], from_client=False)
            state, events = rules.apply(state, rec["seat"], action)
        except (BadAction, IllegalAction) as e:
            raise LogError(f"step {rec['step']} does not replay: {e}") from None
        yield state, rec["seat"], action, events
