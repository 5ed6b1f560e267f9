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
* ``{"kind": "over", "result": {...}, "t": ms}`` -- the match ended.

A crash can only damage the end of the file: a last line without its newline or that is
not valid JSON is dropped (with a warning for the caller to log); a bad line anywhere
else makes the whole log invalid.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any, Iterator, Sequence

from shared.rules import Action, Event

FORMAT = "mafia-table-log"
VERSION = 1


class LogError(ValueError):
    """The log cannot be used: no header, wrong format, or a damaged line in the middle."""


def line(record: dict[str, Any]) -> str:
    """One record as a line (compact JSON, ``\\n``-terminated)."""
    return json.dumps(record, separators=(",", ":"), ensure_ascii=False) + "\n"


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
    warnings: list[str] = field(default_factory=list)
    good_bytes: int = 0  # length of the undamaged prefix, to truncate the file before appending

    @property
    def finished(self) -> bool:
        return self.result is not None


def parse(data: bytes) -> MatchLog:
    """Parse a whole log file's bytes.

    Raises :class:`LogError` when there is no valid header or a line other than the last
    is damaged. A damaged or unterminated last line is dropped with a warning.
    """
    lines = data.split(b"\n")
    complete, tail = lines[:-1], lines[-1]
    warnings = []
    if tail.strip():
        warnings.append(f"dropped an unterminated last line ({len(tail)} bytes)")
    records: list[dict[str, Any]] = []
    good = 0
    for i, raw in enumerate(complete):
        try:
            rec = json.loads(raw)
            if not isinstance(rec, dict) or "kind" not in rec:
                raise ValueError("not a record")
        except ValueError:
            if i == len(complete) - 1 and not tail.strip():
                warnings.append(f"dropped a damaged last line ({len(raw)} bytes)")
                break
            raise LogError(f"line {i + 1} is damaged") from None
        records.append(rec)
        good += len(raw) + 1
    if not records or records[0].get("kind") != "header":
        raise LogError("the log has no header")
    head = records[0]
    if head.get("format") != FORMAT or head.get("version") != VERSION:
        raise LogError(f"not a {FORMAT} version {VERSION} file")
    log = MatchLog(head, warnings=warnings, good_bytes=good)
    for rec in records[1:]:
        kind = rec["kind"]
        if kind == "action":
            if rec.get("step") != len(log.actions) + 1:
                raise LogError(f"action step {rec.get('step')} out of order")
            log.actions.append(rec)
        elif kind == "seat":
            log.seats.append(rec)
        elif kind == "over":
            log.result = rec.get("result")
        else:
            raise LogError(f"unknown record kind {kind!r}")
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
