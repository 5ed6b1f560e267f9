"""Room codes: four unambiguous letters per table, for phones joining by the TV's code
(docs/PROTOCOL.md "Web controller").

Pure and free of Twisted, so that the client (which draws the code on the TV) and the
web layer share it. A table's code is a fixed function of its id: a table restored after
a server restart keeps its code, and the printed QR code stays good. The server resolves
a code back to a table by looking at its open tables (:func:`resolve`); with at most
``server.max_tables`` open, this never meets two tables with the same code
(:data:`CODES` = 160 000 codes, and consecutive ids map to unrelated-looking codes).
"""
from __future__ import annotations

from typing import Any, Iterable

#: Consonants only (no word can be spelt), without the look-alikes I, O, U, Y, A, E.
ALPHABET = "BCDFGHJKLMNPQRSTVWXZ"
LENGTH = 4
CODES = len(ALPHABET) ** LENGTH  # 160 000
#: id -> code index is ``(id * _MUL + _ADD) % CODES``: a bijection on 0..CODES-1 (the
#: multiplier is prime to CODES = 2^8 * 5^4).
_MUL = 48271
_ADD = 91331


def room_code(table_id: int) -> str:
    """The four-letter code of table ``table_id`` (int >= 0), e.g. ``"KQTB"``."""
    n = (int(table_id) * _MUL + _ADD) % CODES
    letters = []
    for _ in range(LENGTH):
        n, r = divmod(n, len(ALPHABET))
        letters.append(ALPHABET[r])
    return "".join(letters)


def normalise(code: str) -> str | None:
    """``code`` as typed (any case, spaces and dashes ignored) in canonical form, or None
    when it cannot be a room code (wrong length or a letter outside :data:`ALPHABET`)."""
    cleaned = "".join(c for c in str(code).upper() if c not in " -_")
    if len(cleaned) != LENGTH or any(c not in ALPHABET for c in cleaned):
        return None
    return cleaned


def resolve(code: str, table_ids: Iterable[int]) -> int | None:
    """The id among ``table_ids`` (the open tables) whose code is ``code``, or None."""
    wanted = normalise(code)
    if wanted is None:
        return None
    for tid in table_ids:
        if room_code(tid) == wanted:
            return tid
    return None


def join_url(host: str, port: int, code: str) -> str:
    """The address a phone opens (what the TV's QR code encodes):
    ``http://HOST:PORT/?room=CODE`` (an IPv6 host is bracketed)."""
    if ":" in host and not host.startswith("["):
        host = f"[{host}]"
    return f"http://{host}:{int(port)}/?room={code}"


def room_entry(summary: dict[str, Any]) -> dict[str, Any]:
    """A ``Table`` summary with its ``room`` code added (what ``/api/room/CODE`` and
    ``/api/rooms`` answer)."""
    return {**summary, "room": room_code(summary["id"])}
