"""One sentence for a refused lobby request (host controls, rematch): the
lobby, the join list and the results all say it the same way, and none of them needs
the others to do so."""
from __future__ import annotations

from typing import Any

from client.i18n import plural_key, tr

HOST_ERRORS = ("not_allowed", "table_locked", "already_started", "no_such_seat")


def free_seats(table: dict[str, Any]) -> int:
    """How many seats of ``table`` (wire Table) nobody holds."""
    return sum(1 for x in table.get("seats", []) if not x.get("name"))


def error_text(failure_value: Any, table: dict[str, Any] | None = None) -> str:
    """One sentence for a refused lobby request (a :class:`client.net.ServerError`):
    ``seats_free`` says how many seats are free, ``bad_option`` quotes the server,
    ``not_allowed``/``table_locked``/``private_table``/... have their own sentence;
    anything else is the generic "request refused" with the server's message."""
    code = getattr(failure_value, "code", "")
    message = getattr(failure_value, "message", str(failure_value))
    if code == "seats_free":
        n = free_seats(table or {})
        if n <= 0:
            return tr("error.request", reason=message)
        return tr(plural_key("hostctl.err_seats_free", n), n=str(n))
    if code == "bad_option":
        return tr("hostctl.err_bad_option", reason=message)
    if code in HOST_ERRORS:
        return tr(f"hostctl.err_{code}")
    if code in ("not_over", "not_seated"):
        return tr(f"rematch.err_{code}")
    if code in ("private_table", "too_many_codes"):
        return tr(f"join.err_{code}")
    return tr("error.request", reason=message)
