"""The wire protocol: one JSON object per line, ``\\n``-terminated, UTF-8 (ARCHITECTURE §4).

Every message is an envelope ``{"v": 1, "type": <str>, ...fields}``. Requests from a
client carry an integer ``seq``; the server's reply to it carries ``"re": seq``. Every
request gets a reply or an ``error``. ``docs/PROTOCOL.md`` lists every message and field;
this module holds the constants and the checks both ends share.

Times on the wire are milliseconds as floats: ``ts``/``t_server`` on the server's
monotonic clock, ``tc``/``t_press``/``t_shown`` on the client's own monotonic clock.
"""
from __future__ import annotations

import json
import re
import unicodedata
from typing import Any, Mapping

import msgspec

from shared.sentences import Sentence

VERSION = 1
#: Longest line either end accepts, in bytes (newline excluded). Longer -> ``too_long``.
MAX_LINE = 64 * 1024
#: Default TCP port of a server; the UDP discovery port is the next one.
DEFAULT_PORT = 7777
DEFAULT_DISCOVERY_PORT = 7778

# Error codes: stable identifiers; the message beside them is for people.
ERROR_CODES: dict[str, str] = {
    "bad_json": "the line is not a JSON object",
    "too_long": "the line is longer than the limit; the connection is closed",
    "bad_version": "the envelope's protocol version is not supported",
    "unknown_type": "no such message type",
    "bad_message": "a field is missing or has the wrong type",
    "hello_first": "send hello before anything else",
    "hello_timeout": "no hello in time (or too many connections wait for theirs); the connection is closed",
    "unknown_game": "no such game",
    "bad_seats": "the number of seats is outside the game's range",
    "bad_option": "a table option is unknown or invalid",
    "testing_only": "this option needs a server started with --testing",
    "server_full": "the server holds as many tables or connections as it allows",
    "unknown_table": "no table with that id",
    "table_full": "every seat of the table is taken",
    "seat_taken": "that seat is taken",
    "no_such_seat": "the table has no such seat",
    "already_seated": "this connection already sits at that table",
    "not_seated": "this connection has no seat at that table",
    "not_started": "the match has not started yet",
    "already_started": "the match has already started",
    "match_over": "the match is over",
    "bad_action": "the action is not a well-formed action of this game",
    "illegal_action": "the rules forbid that action now",
    "claim_refused": "the claim's press time is impossible for this connection",
    "bad_token": "the reconnect token is unknown or expired",
    "not_allowed": "only the table's host may do that",
    "table_locked": "the host locked the table: no new player may sit (watching and reconnect still work)",
    "seats_free": "the match cannot start while seats are free",
    "not_over": "the match is not over",
    "too_many_emotes": "more than 3 emotes in 5 s; the connection stays open",
    "hints_off": "the table's host did not allow hints (table option hints)",
    "no_hint": "the seat has nothing to do now: no hint to give",
    "too_many_hints": "a hint is being worked out for the seat, or it asked too often; the connection stays open",
    "paused": "the table is paused: the server cannot save the match; it resumes by itself",
    "private_table": "the table is private: joining or watching it needs its room code",
    "too_many_codes": "too many wrong room codes from this address; try again later",
    "too_many_connections": "this address has as many connections open as the server allows per address",
    "rate_limited": "too many bad messages; slow down",
    "internal": "the server failed on this request; it goes on",
}


class ProtocolError(Exception):
    """A message that cannot be accepted. ``code`` is a key of :data:`ERROR_CODES`;
    ``message`` the English sentence, or a :class:`shared.sentences.Sentence` that
    clients translate (the ``error`` then carries it as ``sentence``, and its English
    text as ``message``); ``seq``: the request's ``seq`` when :func:`decode` refused a
    line that still names one (the ``error`` then carries it as ``re``), else None."""

    def __init__(self, code: str, message: str | Sentence | None = None, seq: int | None = None):
        assert code in ERROR_CODES, code
        self.sentence = message if isinstance(message, Sentence) else None
        text = message.english() if isinstance(message, Sentence) else message or ERROR_CODES[code]
        super().__init__(text)
        self.code = code
        self.message = text
        self.seq = seq

    def fields(self) -> dict[str, Any]:
        """The ``error`` message's ``code``, ``message`` and, when known, ``sentence``."""
        out: dict[str, Any] = {"code": self.code, "message": self.message}
        if self.sentence is not None:
            out["sentence"] = self.sentence.wire()
        return out


#: Deepest nesting of arrays and objects a message may have (an action is 3 deep).
MAX_DEPTH = 16
#: Largest integer magnitude accepted anywhere in a message (JSON safe integers).
MAX_INT = 2**53
_DECODER = msgspec.json.Decoder()
_ENCODER = msgspec.json.Encoder()


def encode(msg_type: str, **fields: Any) -> bytes:
    """One envelope as a line: ``{"v":1,"type":msg_type,...}\n`` (compact JSON, UTF-8,
    fields in the order given; msgspec, about 10x the standard library's speed).

    Strict JSON only, so nothing invalid is ever written: a non-finite number is written
    as ``null``; a lone surrogate raises ``UnicodeEncodeError``, a value JSON cannot
    hold (an arbitrary object) ``TypeError``."""
    buf = _ENCODER.encode({"v": VERSION, "type": msg_type, **fields})
    return buf + b"\n"


def encode_value(value: Any) -> bytes:
    """One JSON value as :func:`encode` writes it inside an envelope (no newline): to
    encode a part that several messages share once (:func:`merge_objects`)."""
    return _ENCODER.encode(value)


def merge_objects(first: bytes, second: bytes) -> bytes:
    """The encoded JSON object with the members of ``first`` then those of ``second``
    (both encoded objects, by :func:`encode_value`, with no key in common): the bytes
    ``encode_value({**a, **b})`` gives, without encoding either part again."""
    if len(first) == 2:  # b"{}"
        return second
    if len(second) == 2:
        return first
    return first[:-1] + b"," + second[1:]


def decode(line: bytes) -> dict[str, Any]:
    """Parse one line (without its newline) into an envelope dict: the one strict gate
    of everything that comes in.

    Refused with :class:`ProtocolError` ``bad_json`` before any game code runs: text that
    is not strict JSON (``NaN``, ``Infinity``, a lone UTF-16 surrogate such as
    ``"\\ud800"``, invalid UTF-8), nesting deeper than :data:`MAX_DEPTH`, an integer
    beyond ±:data:`MAX_INT`, a number too large for a float, and anything but an object
    with a string ``type``. ``too_long`` for a line over :data:`MAX_LINE` bytes;
    ``bad_version`` unless ``v`` is absent or exactly the integer 1 (not ``true``, not
    ``1.0``).
    """
    if len(line) > MAX_LINE:
        raise ProtocolError("too_long")
    try:
        msg = _DECODER.decode(line)
    except (msgspec.DecodeError, msgspec.ValidationError, RecursionError, ValueError):
        raise ProtocolError("bad_json", "the line is not strict JSON (no NaN, Infinity or "
                                        "lone surrogates; numbers within range)",
                            _lenient_seq(line)) from None
    if not isinstance(msg, dict) or not isinstance(msg.get("type"), str):
        raise ProtocolError("bad_json", "each line must be a JSON object with a string 'type'",
                            _seq_of(msg))
    try:
        _check_values(msg, 0)
    except ProtocolError as e:
        e.seq = _seq_of(msg)
        raise
    v = msg.get("v", VERSION)
    if type(v) is not int or v != VERSION:
        raise ProtocolError("bad_version", f"protocol version {v!r} is not supported; use {VERSION}",
                            _seq_of(msg))
    return msg


def _seq_of(msg: Any) -> int | None:
    """``msg``'s ``seq`` when it is an object whose ``seq`` is a usable integer."""
    seq = msg.get("seq") if isinstance(msg, dict) else None
    return seq if type(seq) is int and -MAX_INT <= seq <= MAX_INT else None


def _lenient_seq(line: bytes) -> int | None:
    """The ``seq`` of a line that is JSON but not strict JSON (a ``NaN``, an
    ``Infinity``, a number too large for a float, a lone surrogate): Python's own
    parser takes those, so its ``error bad_json`` can still answer the request. None
    when even that parser cannot read an object from it (invalid UTF-8, broken
    syntax). Only runs for a refused line."""
    try:
        return _seq_of(json.loads(line))
    except (ValueError, RecursionError, TypeError):
        return None


def _check_values(obj: Any, depth: int) -> None:
    """Depth and integer range of every value (msgspec already refuses non-finite
    numbers and lone surrogates). ``obj``: what msgspec decoded (plain ``dict``,
    ``list``, scalars) at ``depth``; scalars inside a container are checked in its loop,
    without a call each (every line read passes here)."""
    kind = type(obj)
    if kind is dict:
        values: Any = obj.values()
    elif kind is list:
        values = obj
    else:
        if kind is int and not -MAX_INT <= obj <= MAX_INT:
            raise _outside_int(obj)
        return
    if depth >= MAX_DEPTH and values:  # its members lie deeper than MAX_DEPTH
        raise ProtocolError("bad_json", f"the message is nested more than {MAX_DEPTH} levels deep")
    for value in values:
        kind = type(value)
        if kind is dict or kind is list:
            _check_values(value, depth + 1)
        elif kind is int and not -MAX_INT <= value <= MAX_INT:
            raise _outside_int(value)


def _outside_int(value: int) -> ProtocolError:
    return ProtocolError("bad_json", f"an integer is outside ±2^53: {str(value)[:20]}...")


#: The envelope's own fields, allowed on every message.
_ENVELOPE = frozenset({"v", "type", "seq"})
#: Largest magnitude of a time in ms a client may send (``tc``, ``t_press``,
#: ``t_shown``): about 31,000 years, far from where float arithmetic overflows.
MAX_TIME_MS = 1e15

# Field schemas of client -> server requests: name -> (type or tuple of types, required).
_NUM = (int, float)
CLIENT_MESSAGES: dict[str, dict[str, tuple[Any, bool]]] = {
    "hello": {"name": (str, True), "features": (list, False)},
    "pong": {"id": (int, True), "tc": (_NUM, True)},
    "list_tables": {"after": (int, False)},
    "create_table": {"game": (str, True), "seats": (int, True), "name": (str, False), "options": (dict, False),
                     "key": (str, False)},
    "join": {"table": (int, True), "seat": (int, False), "spectate": (bool, False), "key": (str, False),
             "room": (str, False)},
    "leave": {"table": (int, True)},
    "add_bot": {"table": (int, True), "seat": (int, False), "level": (str, False)},
    "remove_bot": {"table": (int, True), "seat": (int, True)},
    "action": {"table": (int, True), "action": (dict, True), "t_press": (_NUM, False), "t_shown": (_NUM, False)},
    "reconnect": {"token": (str, True), "step": (int, False)},
    "resync": {"table": (int, True), "step": (int, False)},
    "start": {"table": (int, True)},
    "set_options": {"table": (int, True), "options": (dict, True)},
    "move_to_spectators": {"table": (int, True), "seat": (int, True)},
    "lock": {"table": (int, True), "locked": (bool, True)},
    "pass_host": {"table": (int, True), "seat": (int, True)},
    "emote": {"table": (int, True), "emote": (str, True)},
    "rematch": {"table": (int, True)},
    "hint": {"table": (int, True)},
}
#: Message type -> every field it may carry (its own and the envelope's).
_ALLOWED: dict[str, frozenset[str]] = {kind: frozenset(fields) | _ENVELOPE
                                       for kind, fields in CLIENT_MESSAGES.items()}
#: Optional protocol features a client may ask for in ``hello.features`` (the server
#: grants the ones it knows, listed in ``welcome.features``): ``delta`` -- updates carry
#: the changed top-level keys of the view (``view_set``/``view_unset``), not the whole
#: view; ``steps`` (with ``delta``) -- one update may cover several consecutive steps
#: released together (``from_step``, the first; docs/PROTOCOL.md ``update``).
FEATURES = frozenset({"delta", "steps"})
#: The emotes a seated player may send (``emote.emote``), and their rate limit: at most
#: :data:`EMOTE_LIMIT` within :data:`EMOTE_WINDOW_S` seconds per seat.
EMOTES = ("clap", "laugh", "shock", "well_played")
EMOTE_LIMIT = 3
EMOTE_WINDOW_S = 5.0
#: A client's own key naming its ``create_table`` or ``join`` (docs/PROTOCOL.md "Lobby",
#: "Asking again"): 16 to 64 characters of ``A-Z a-z 0-9 _ -``, random and secret like a
#: token; asking again with the same key gets the same table or seat.
KEY_RE = re.compile(r"[A-Za-z0-9_-]{16,64}")


#: Unicode categories a name never keeps: controls (NUL, BEL, ESC, DEL...), format
#: characters (bidi overrides and isolates, zero-width spaces and joiners, soft hyphens,
#: tags) and lone surrogates. They draw nothing, or reorder and hide what follows.
INVISIBLE_CATEGORIES = frozenset({"Cc", "Cf", "Cs"})


def clean_name(text: str, limit: int) -> str:
    """``text`` as a name people see: every whitespace run (tabs, newlines, line
    separators, no-break spaces) one space, every character of
    :data:`INVISIBLE_CATEGORIES` dropped, trimmed, at most ``limit`` characters. May be
    "" (nothing visible was left): the caller puts its default in its place."""
    kept = "".join(" " if ch.isspace() else ch for ch in text
                   if ch.isspace() or unicodedata.category(ch) not in INVISIBLE_CATEGORIES)
    return " ".join(kept.split())[:limit].rstrip()


def check_fields(msg: Mapping[str, Any]) -> None:
    """Validate a client request against :data:`CLIENT_MESSAGES`.

    Raises :class:`ProtocolError` ``unknown_type`` or ``bad_message``: an unknown field,
    a missing or mistyped one, a string over 200 characters, a time beyond ±1e15 ms, a
    ``key`` that is not :data:`KEY_RE`; ``seq`` must be an integer when present; booleans are not accepted where numbers are
    expected.
    """
    schema = CLIENT_MESSAGES.get(msg["type"])
    if schema is None:
        raise ProtocolError("unknown_type", f"unknown message type {msg['type']!r}")
    seq = msg.get("seq")
    if seq is not None and (not isinstance(seq, int) or isinstance(seq, bool)):
        raise ProtocolError("bad_message", "'seq' must be an integer")
    extra = msg.keys() - _ALLOWED[msg["type"]]
    if extra:
        raise ProtocolError("bad_message", f"{msg['type']}: unknown field(s) {sorted(extra)}")
    for name, (kind, required) in schema.items():
        if name not in msg or msg[name] is None:
            if required:
                raise ProtocolError("bad_message", f"{msg['type']}: missing field {name!r}")
            continue
        value = msg[name]
        if isinstance(value, bool) and kind is not bool:
            raise ProtocolError("bad_message", f"{msg['type']}: field {name!r} has the wrong type")
        if not isinstance(value, kind):
            raise ProtocolError("bad_message", f"{msg['type']}: field {name!r} has the wrong type")
        if isinstance(value, str) and len(value) > 200:
            raise ProtocolError("bad_message", f"{msg['type']}: field {name!r} is too long")
        if kind is list and (len(value) > 16 or not all(isinstance(x, str) and len(x) <= 40 for x in value)):
            raise ProtocolError("bad_message", f"{msg['type']}: field {name!r} must be a list of "
                                               f"at most 16 short strings")
        if kind is _NUM and not -MAX_TIME_MS <= value <= MAX_TIME_MS:
            raise ProtocolError("bad_message", f"{msg['type']}: field {name!r} is not a time "
                                               f"in ms (|x| <= 1e15)")
        if name == "key" and KEY_RE.fullmatch(value) is None:
            raise ProtocolError("bad_message", f"{msg['type']}: 'key' must be 16 to 64 characters "
                                               f"of A-Z, a-z, 0-9, '_' and '-'")
