"""Room codes: five unambiguous letters per table, for phones joining by the TV's code
(docs/PROTOCOL.md "Web controller", "Private tables").

Pure and free of Twisted. A code is drawn at random (:func:`new_code`, from the
system's secure generator) when the table is created and kept with it: in the match
log and the waiting table's record (its settings), so a table restored after a restart
keeps its code and the printed QR code stays good. Nothing about a table's id tells its
code: the code of a private table is what lets a phone in, and the server never lists
codes (only the table's own people get it, in its ``table`` messages).
"""
from __future__ import annotations

import secrets
from typing import Container

#: Consonants only (no word can be spelt), without the look-alikes I, O, U, Y, A, E.
ALPHABET = "BCDFGHJKLMNPQRSTVWXZ"
LENGTH = 5
CODES = len(ALPHABET) ** LENGTH  # 3 200 000: 21.6 bits


def new_code(taken: Container[str] = ()) -> str:
    """A random code (e.g. ``"KQTBX"``) that is not in ``taken`` (the codes of the open
    tables), drawn with :mod:`secrets`."""
    while True:
        code = "".join(secrets.choice(ALPHABET) for _ in range(LENGTH))
        if code not in taken:
            return code


def normalise(code: str) -> str | None:
    """``code`` as typed (any case, spaces and dashes ignored) in canonical form, or None
    when it cannot be a room code (wrong length or a letter outside :data:`ALPHABET`)."""
    cleaned = "".join(c for c in str(code).upper() if c not in " -_")
    if len(cleaned) != LENGTH or any(c not in ALPHABET for c in cleaned):
        return None
    return cleaned


def join_url(host: str, port: int, code: str) -> str:
    """The address a phone opens (what the TV's QR code encodes):
    ``http://HOST:PORT/?room=CODE`` (an IPv6 host is bracketed)."""
    if ":" in host and not host.startswith("["):
        host = f"[{host}]"
    return f"http://{host}:{int(port)}/?room={code}"
