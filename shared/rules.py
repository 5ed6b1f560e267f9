"""The rules-engine interface every game implements, and the types it speaks in.

Each game is one module in ``shared/games/`` whose module-level functions satisfy
:class:`Rules` (ARCHITECTURE §2). The engine is pure: no I/O, no clock, no global
random; every shuffle uses the ``random.Random`` stored in the match state, so a match is
reproduced exactly from ``(game, config, seed, ordered log of (seat, action))``.

Vocabulary shared by the UI, the bots and the network:

* :class:`Action` -- frozen dataclass, one subclass per move, ``TYPE`` is its wire name.
  ``to_dict()`` / :meth:`ActionSet.parse` convert to and from JSON objects.
* :class:`Event` -- what happened, with who may see it (``to`` = None means public).
* Reaction windows (RULES.md §0.2 item 5) -- a snap, a Hitwoman counter, a Family
  Business counter -- are :class:`shared.windows.Window`, built on these types. Claims in
  one are ordered by the server's arbiter, never by arrival, and then applied one at a
  time; the first valid one decides.
* :class:`IllegalAction` -- raised by ``apply`` before anything changes.
"""
from __future__ import annotations

import dataclasses
import types
import typing
from dataclasses import dataclass, field
from typing import Any, Callable, ClassVar, Iterable, Mapping, Protocol

from shared.sentences import Sentence, known

__all__ = [
    "Action",
    "ActionSet",
    "BadAction",
    "Event",
    "IllegalAction",
    "Rules",
    "SYSTEM",
    "card_faces",
    "events_for",
]

#: Seat value used for actions the table itself applies (window timeouts).
SYSTEM: None = None


class IllegalAction(Exception):
    """An action that breaks a rule. ``reason`` is one sentence a player can read (given
    as a :class:`shared.sentences.Sentence` when clients should translate it).

    Raised by ``apply`` before any change; the state passed in is left untouched.
    """

    def __init__(self, reason: str | Sentence):
        text = reason.english() if isinstance(reason, Sentence) else reason
        super().__init__(text)
        self.reason = text
        #: The reason as a code clients translate (:mod:`shared.sentences`), or None: a
        #: rule's own sentence, which clients that play from ``legal`` never meet.
        self.sentence = reason if isinstance(reason, Sentence) else known(reason)


class BadAction(ValueError):
    """A JSON object that is not a well-formed action of the game (unknown type, missing
    or mistyped field). Raised by :meth:`ActionSet.parse`."""


@dataclass(frozen=True)
class Action:
    """Base class of every move. Subclasses set ``TYPE`` and declare JSON-ready fields:
    ``int``, ``str``, ``bool``, ``int | None`` or ``tuple[int, ...]``.

    ``SYSTEM_ONLY`` actions (a window timeout) are applied by the table with seat
    ``None`` and are refused when they come from a client.
    """

    TYPE: ClassVar[str] = ""
    SYSTEM_ONLY: ClassVar[bool] = False

    def to_dict(self) -> dict[str, Any]:
        """``{"type": TYPE, **fields}`` with tuples as lists; the inverse of ``parse``.
        A new dict each call (a copy of :meth:`wire`)."""
        return {k: (v[:] if type(v) is list else v) for k, v in self.wire().items()}

    def wire(self) -> dict[str, Any]:
        """The same as :meth:`to_dict`, built once per action object and shared: for
        encoding only, never to be changed (the engines hand out the same action
        objects again and again, and every update lists them)."""
        made = self.__dict__.get("_as_dict")
        if made is None:
            made = {"type": self.TYPE}
            names = _FIELD_NAMES.get(type(self))
            if names is None:  # dataclasses.fields(self), looked up once per class
                names = _FIELD_NAMES[type(self)] = tuple(f.name for f in dataclasses.fields(self))
            for name in names:
                value = getattr(self, name)
                made[name] = list(value) if isinstance(value, tuple) else value
            object.__setattr__(self, "_as_dict", made)  # not a field: eq, hash, repr ignore it
        return made


#: Action class -> its field names in order (``to_dict``).
_FIELD_NAMES: dict[type, tuple[str, ...]] = {}


class ActionSet:
    """The move vocabulary of one game: wire name -> Action subclass.

    >>> OMERTA_ACTIONS.parse({"type": "replace", "slot": 3})   # doctest: +SKIP
    Replace(slot=3)
    """

    def __init__(self, classes: Iterable[type[Action]]):
        self._by_type: dict[str, type[Action]] = {}
        # type -> (class, field names, ((name, checker, required), ...)): the annotations
        # read once here (typing.get_type_hints, dataclasses.fields), not per message
        self._specs: dict[str, tuple[type[Action], frozenset[str], tuple[Any, ...]]] = {}
        for cls in classes:
            if not cls.TYPE or cls.TYPE in self._by_type:
                raise ValueError(f"action type {cls.TYPE!r} empty or defined twice")
            self._by_type[cls.TYPE] = cls
            hints = typing.get_type_hints(cls)
            fields = tuple((f.name, _checker(hints[f.name]), f.default is dataclasses.MISSING
                            and f.default_factory is dataclasses.MISSING)
                           for f in dataclasses.fields(cls))
            self._specs[cls.TYPE] = (cls, frozenset(name for name, _, _ in fields) | {"type"}, fields)

    def __contains__(self, type_name: str) -> bool:
        return type_name in self._by_type

    def types(self) -> list[str]:
        """Every wire name, in definition order."""
        return list(self._by_type)

    def parse(self, data: Any, *, from_client: bool = True) -> Action:
        """Build an action from a JSON object.

        Raises :class:`BadAction` for a non-object, an unknown ``type``, a missing,
        extra or mistyped field, or (``from_client``) a system-only action.
        """
        if not isinstance(data, dict):
            raise BadAction("an action must be a JSON object")
        type_name = data.get("type")
        spec = self._specs.get(type_name) if isinstance(type_name, str) else None
        if spec is None:
            raise BadAction(f"unknown action type {type_name!r}")
        cls, names, fields = spec
        if from_client and cls.SYSTEM_ONLY:
            raise BadAction(f"action {type_name!r} is applied by the table only")
        if not names.issuperset(data):
            extra = set(data) - names
            raise BadAction(f"unexpected field(s) {sorted(extra)} for {type_name!r}")
        kwargs: dict[str, Any] = {}
        for name, check, required in fields:
            if name in data:
                kwargs[name] = check(data[name], type_name, name)
            elif required:
                raise BadAction(f"missing field {name!r} for {type_name!r}")
        return cls(**kwargs)


def _checker(hint: Any) -> Callable[[Any, str, str], Any]:
    """A function ``check(value, type_name, field) -> value`` for a field annotation
    (lists become tuples), raising :class:`BadAction` with ``type_name.field`` in its
    message: ``int`` (|value| < 2**31, not a bool), ``str`` (<= 200 characters),
    ``bool``, ``None``, ``tuple[X, ...]`` (<= 64 items) and unions of these."""
    origin = typing.get_origin(hint)
    if origin in (typing.Union, types.UnionType):
        options = tuple(_checker(option) for option in typing.get_args(hint))

        def check_union(value: Any, t: str, f: str) -> Any:
            for option in options:
                try:
                    return option(value, t, f)
                except BadAction:
                    continue
            raise BadAction(f"{t}.{f}: {value!r} has the wrong type")
        return check_union
    if hint is type(None):
        def check_none(value: Any, t: str, f: str) -> Any:
            if value is None:
                return None
            raise BadAction(f"{t}.{f}: expected null")
        return check_none
    if origin is tuple:
        item = _checker(typing.get_args(hint)[0])

        def check_tuple(value: Any, t: str, f: str) -> Any:
            if not isinstance(value, (list, tuple)) or len(value) > 64:
                raise BadAction(f"{t}.{f}: expected a list")
            return tuple(item(v, t, f) for v in value)
        return check_tuple
    if hint is bool:
        def check_bool(value: Any, t: str, f: str) -> Any:
            if isinstance(value, bool):
                return value
            raise BadAction(f"{t}.{f}: expected true or false")
        return check_bool
    if hint is int:
        def check_int(value: Any, t: str, f: str) -> Any:
            if isinstance(value, int) and not isinstance(value, bool) and abs(value) < 2**31:
                return value
            raise BadAction(f"{t}.{f}: expected an integer")
        return check_int
    if hint is str:
        def check_str(value: Any, t: str, f: str) -> Any:
            if isinstance(value, str) and len(value) <= 200:
                return value
            raise BadAction(f"{t}.{f}: expected a string")
        return check_str
    raise TypeError(f"unsupported action field type {hint!r}")  # a game's mistake, at import


#: Default of :attr:`Event.data`: a new empty dict per event (``default_factory=dict``).
_NEW_DICT: Any = object()


@dataclass(frozen=True)
class Event:
    """Something that happened, for the clients to show and animate.

    * ``type`` -- the wire name; ``data`` -- its public, JSON-ready fields.
    * ``to`` -- when set, the whole event is private to that seat (None = public).
    * ``secret`` / ``secret_to`` -- extra fields merged in for one seat only: a public
      "seat 2 drew from the pile" carries the card for seat 2 alone.

    Spectators (seat None) get public events without secrets.
    """

    type: str
    data: Mapping[str, Any] = field(default_factory=dict)
    to: int | None = None
    secret: Mapping[str, Any] | None = None
    secret_to: int | None = None

    def __init__(self, type: str, data: Mapping[str, Any] = _NEW_DICT,
                 to: int | None = None, secret: Mapping[str, Any] | None = None,
                 secret_to: int | None = None):
        # the dataclass's own __init__, without its five object.__setattr__ calls
        # (engines make a few events per action, so this runs for every action of every
        # table: the server's cost per action grows with it)
        d = self.__dict__
        d["type"] = type
        d["data"] = {} if data is _NEW_DICT else data
        d["to"] = to
        d["secret"] = secret
        d["secret_to"] = secret_to

    def visible_to(self, seat: int | None) -> bool:
        """True when a connection sitting at ``seat`` (None = spectator) may receive it."""
        return self.to is None or (seat is not None and self.to == seat)

    def for_seat(self, seat: int | None) -> dict[str, Any]:
        """``{"type": ..., **data}`` as ``seat`` sees it (secret fields only for
        ``secret_to``). Call only when :meth:`visible_to` is true."""
        out = {"type": self.type, **self.data}
        if self.secret is not None and seat is not None and seat == self.secret_to:
            out.update(self.secret)
        return out


def events_for(events: Iterable[Event], seat: int | None) -> list[dict[str, Any]]:
    """The JSON form of the events ``seat`` (None = spectator) may see, in order."""
    return [e.for_seat(seat) for e in events if e.visible_to(seat)]


def private_seats(events: Iterable[Event]) -> set[int]:
    """The seats that see ``events`` otherwise than a spectator does: those an event is
    ``to`` (only they see it) or whose ``secret_to`` it names (they see its secret
    fields). Every other seat's :func:`events_for` equals ``events_for(events, None)``,
    so one encoding of the public events serves them all (the server encodes once per
    action, not once per seat). Empty when every
    event is public."""
    out: set[int] = set()
    for e in events:
        if e.to is not None:
            out.add(e.to)
        if e.secret is not None and e.secret_to is not None:
            out.add(e.secret_to)
    return out


def card_faces(obj: Any, kinds: Iterable[str] | None = None) -> set[int]:
    """Ids of every card face named anywhere inside a JSON view or event object (or a
    list of them), for the games whose card faces are dicts ``{"id": int, "kind": str,
    ...}``: only those whose ``kind`` is in ``kinds`` when given. A game's
    ``wire_cards`` (the conformance suite's leak check) is usually this."""
    wanted = None if kinds is None else frozenset(kinds)
    found: set[int] = set()
    stack = [obj]
    while stack:
        o = stack.pop()
        if isinstance(o, dict):
            if isinstance(o.get("id"), int) and "kind" in o and (wanted is None or o["kind"] in wanted):
                found.add(o["id"])
            stack.extend(o.values())
        elif isinstance(o, (list, tuple)):
            stack.extend(o)
    return found


State = Any  # each game defines its own state class; callers treat it as opaque


class Rules(Protocol):
    """What a game module provides (ARCHITECTURE §2). Seats are ``0..n-1``.

    ``apply`` never mutates the state it is given: it returns a new one. Actions with
    seat ``None`` come from the table (timeouts). All ``*_ms`` values are milliseconds.
    """

    NAME: str
    MIN_SEATS: int
    MAX_SEATS: int
    ACTIONS: ActionSet

    def new_match(self, config: Mapping[str, Any], seed: int) -> State:
        """A match ready for its first input; ``config["seats"]`` is the player count.
        Raises ``ValueError`` for a bad config."""

    def legal_actions(self, state: State, seat: int) -> list[Action]:
        """Every action ``seat`` may take now, including claims in an open window."""

    def awaiting(self, state: State) -> frozenset[int]:
        """Seats the game is waiting for (turn player, simultaneous choosers, pending
        claimants of an open window); empty when the match is over."""

    def apply(self, state: State, seat: int | None, action: Action) -> tuple[State, list[Event]]:
        """Check then apply; raises :class:`IllegalAction` (state unchanged)."""

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        """What ``seat`` (None = spectator) may see, JSON-ready."""

    def full_view(self, state: State) -> dict[str, Any]:
        """Every card face up (replays of finished matches only), JSON-ready."""

    def reaction_window(self, state: State) -> Any:
        """The open reaction window (a :class:`shared.windows.Window`), or None."""

    def timeout_action(self, window: Any) -> Action:
        """The system action the table applies (seat None) when ``window`` times out.
        Only called for a window the game opened; a game without reaction windows
        (Famiglia) raises ``ValueError``."""

    def is_over(self, state: State) -> bool:
        """True once the match has ended."""

    def scores(self, state: State) -> dict[str, Any]:
        """``{"scores": [per seat], "winners": [seats], ...}`` -- final once ``is_over``."""
