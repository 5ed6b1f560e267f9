"""What a table relies on, stated as :class:`typing.Protocol` s: the connection of a
seated player or spectator, the clock, and the table as its collaborators see it.

The collaborators of :class:`server.match.table.Table` (seat roster, stand-ins, claim
desk, delivery, saving, host controls) each hold the table that made them and reach
one another through it by name; they import none of each other's modules nor the
table's, so the package has no import circle and each collaborator is tested with a
fake table (``tests/test_match_parts.py``).
"""
from __future__ import annotations

from typing import Any, Callable, Protocol


class Clock(Protocol):
    """``IReactorTime`` on the server's monotonic clock (a ``task.Clock`` in tests)."""

    def seconds(self) -> float: ...

    def callLater(self, delay: float, callable: Callable[..., Any], *args: Any, **kw: Any) -> Any: ...


class Connection(Protocol):
    """A seated player's or a spectator's connection: :class:`server.protocol.ServerProtocol`
    in production, a fake in the tests. The seat always comes from the connection, never
    from a message.

    ``clock_offset_ms``: server ms - client ms, or None before the first sync;
    ``rtt_bound_ms()``: the bound (ms) a claim of this connection is judged with;
    ``set_playing(True)`` when a match of its seat starts or it gets its seat back,
    ``set_playing(False)`` once when it ends or the seat is given up. A connection may
    also have ``features`` (granted protocol features), ``push_raw(bytes)`` (a line
    encoded once for several connections), ``before_push`` (called before its next push),
    ``rtt_wait_ms()``, ``set_window(bool)`` and ``seat_taken_over(table, seat)`` (its
    seat went to another connection with the seat's token); the table asks with
    ``getattr``."""

    conn_id: Any
    name: str
    clock_offset_ms: float | None

    def push(self, msg_type: str, **fields: Any) -> None: ...

    def rtt_bound_ms(self) -> float: ...

    def set_playing(self, playing: bool) -> None: ...


class MatchTable(Protocol):
    """The table as its collaborators see it: the match, its seats and its
    collaborators by name (:class:`server.match.table.Table` is the one implementation).
    ``state`` is the engine state (None before the match), ``status`` one of
    ``"waiting"``, ``"playing"``, ``"over"``; times are server ms (:meth:`now_ms`)."""

    id: int
    game: Any
    definition: Any
    name: str
    seed: int
    engine_config: dict[str, Any]
    settings: dict[str, Any]
    config: dict[str, Any]
    clock: Any
    state: Any
    status: str
    closed: bool
    seats: list[Any]
    spectators: Any
    log: list[dict[str, Any]]
    actions: list[tuple[int | None, Any]]
    history: list[list[Any]]
    result: dict[str, Any] | None
    started_at: float
    bot_takeover: str
    bot_think_ms: float
    bot_kind: str
    turn_timer: Any
    match_no: int
    players_at_start: dict[int, str]
    scoreboard: Any
    thinkers: Any
    replaced_by: Any
    create_key: str | None
    # the collaborators
    roster: Any
    stand_ins: Any
    claims: Any
    delivery: Any
    saving: Any
    host: Any

    def now_ms(self) -> float: ...

    def seat_of(self, conn: Any) -> int | None: ...

    def connections(self) -> list[Any]: ...

    def legal(self, seat: int | None, awaited: Any = None) -> list[Any]: ...

    def apply(self, seat: int | None, action: Any) -> list[Any]: ...

    def push_summary(self) -> None: ...

    def after_change(self) -> None: ...

    def maybe_close(self) -> bool: ...

    def scoreboard_rows(self) -> list[dict[str, Any]]: ...

    def seats_changed(self) -> None: ...

    def start_match(self) -> None: ...

    def bot_send(self, seat: int, driver: Any, decision: Any, anchor: float) -> None: ...

    def close(self) -> None: ...

    def new_table(self, engine_config: dict[str, Any], settings: dict[str, Any],
                  options: dict[str, Any]) -> "MatchTable": ...

    def replace_with(self, new: Any) -> None: ...
