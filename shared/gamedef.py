"""The declaration of one game, read by the registry, the server, the bots and the tests
(in the spirit of OpenSpiel's ``GameType`` + ``register_game``; ARCHITECTURE §2).

Each game package ``shared/games/<game>/`` exports ``GAME = GameDef(...)`` next to its
rules functions; ``shared/games/__init__.py`` lists the packages, one line each. Nothing
outside a game's folders names the game: the server reads seat ranges, options, timing
keys, the bot, a claim's outcome and the turn in progress from here.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Hashable, Mapping

from shared.showing import ShownOf

__all__ = ["GameDef", "Option"]


@dataclass(frozen=True)
class Option:
    """A table option a client may set at ``create_table`` (docs/PROTOCOL.md "Table
    options") and that goes into the engine's config.

    * ``kind`` -- ``"int"`` (``lo``..``hi`` inclusive), ``"choice"`` (one of ``choices``),
      ``"bool"`` or ``"any"`` (a JSON value the engine checks itself: a stacked deck).
    * ``default`` -- shown by the host screen; None = the engine's own default.
    * ``engine_keys`` -- engine config keys the value is written to (default: ``key``).
    * ``testing`` -- only a server started with ``--testing`` accepts it.
    * ``seat_bound`` -- for ``"int"``: ``hi`` is the seat count minus one (a seat index).
    """

    key: str
    kind: str
    default: Any = None
    lo: int = 0
    hi: int = 0
    choices: tuple[Any, ...] = ()
    engine_keys: tuple[str, ...] = ()
    testing: bool = False
    seat_bound: bool = False
    label: str = ""

    def targets(self) -> tuple[str, ...]:
        """The engine config keys this option sets."""
        return self.engine_keys or (self.key,)


#: make_bot(seat, rng, reaction_model, think_ms, level="normal") -> Bot; ``level`` is
#: one of shared.bots.levels.LEVELS (a game without a bot of that level plays its own)
BotFactory = Callable[..., Any]


@dataclass(frozen=True)
class GameDef:
    """Everything generic code needs to know about one game.

    * ``name`` -- wire name (``create_table``'s ``game``); ``title`` -- English title.
    * ``min_seats`` / ``max_seats`` / ``default_seats`` -- player counts.
    * ``rules`` -- the rules module or object satisfying :class:`shared.rules.Rules`.
    * ``make_bot`` -- the game's own bot (see :data:`BotFactory`).
    * ``options`` -- the table options of the game (:class:`Option`).
    * ``timing_keys`` -- engine config keys copied from the server config's ``timing``
      section (reaction-window time-outs, in ms).
    * ``claim_outcome(events, seat)`` -- from the events of one applied claim, whether
      it succeeded (True), was wrong (False) or None when the events do not say.
    * ``late_claims_public`` -- False when a claim that came too late (never applied)
      would reveal a hidden card if shown to the others (a Family Business counter card
      shows who holds one): the race's photo finish then lists applied claims only.
    * ``turn_id(state)`` -- identifies the turn in progress for the turn timer (any
      hashable value that changes when a new turn starts; None outside turns).
    * ``seat_keys`` -- the top-level keys of ``view(state, seat)`` whose value depends
      on the seat; every other key is equal to the spectator's ``view(state, None)``
      (the conformance suite checks it). The table then works out the public part of
      a delta update once for every seat, and a seat with nothing of its own that
      changed gets the same bytes as the others (server/match/delivery.py ``Delivery.fan_out``). None
      (the default): unknown, each seat's whole view is compared.
    * ``shown(ev)`` -- how a screen shows one wire event (:class:`shared.showing.Shown`:
      how long, in ms), None when it is not animated: bots wait for it before a turn
      action (``shared/games/<game>/showing.py``; None: bots do not wait).
    * ``own_view(state, seat)`` -- with ``seat_keys``: exactly the ``seat_keys`` part of
      ``view(state, seat)`` (each of those keys the view has, with its value), built
      without the rest of the view: what the table needs of each seat after every
      action (the conformance suite checks it). None (the default): taken from ``view``.
    """

    name: str
    title: str
    min_seats: int
    max_seats: int
    default_seats: int
    rules: Any
    make_bot: BotFactory
    claim_outcome: Callable[[list[Any], int], bool | None]
    turn_id: Callable[[Any], Hashable | None]
    options: tuple[Option, ...] = ()
    timing_keys: tuple[str, ...] = ()
    late_claims_public: bool = True
    seat_keys: frozenset[str] | None = None
    own_view: Callable[[Any, int], dict[str, Any]] | None = None
    shown: ShownOf | None = None
    extra: Mapping[str, Any] = field(default_factory=dict)

    def option(self, key: str) -> Option | None:
        """The option called ``key``, or None."""
        for o in self.options:
            if o.key == key:
                return o
        return None


def claim_outcome_by_success(events: list[Any], seat: int) -> bool | None:
    """A :attr:`GameDef.claim_outcome` for games whose claim event carries ``seat`` and a
    boolean ``success`` (Omerta's ``snap`` and ``counter``, Family Business's
    ``counter``)."""
    for e in events:
        if e.data.get("seat") == seat and isinstance(e.data.get("success"), bool):
            return bool(e.data["success"])
    return None
