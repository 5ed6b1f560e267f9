"""How long an Omerta screen takes to show each event (ms). Bots pace their turns by it
(:mod:`shared.showing`), and the client's effects (``client/games/omerta/fx.py``) take
their durations from here, so the two agree.

:func:`shown` reads only an event's public fields: a screen that shows a private card
(your own peek) shows it to you alone.
"""
from __future__ import annotations

from typing import Any, Mapping

from shared.showing import Shown

#: Durations of the effects, in ms.
DEAL_MS, DEAL_STAGGER_MS = 300, 55
DRAW_MS = 380
DISCARD_MS = 340  # short: the card that opens a snap window must be readable at once
REPLACE_MS = 460
REPLACE_LAG_MS = 80  # the drawn card follows the replaced one into its slot
SNAP_MS = 420
SNAP_BANNER_MS = 900
DRIVER_STAGGER_MS = 150
WRONG_MS = 1600  # a wrong claim's card shown face up
WRONG_QUEUE_MS = 700
PENALTY_MS = 480
GIVE_MS = 460
SWAP_MS = 640
SHUFFLE_MS = 800
SAFE_MS = 560
TOKEN_MS = 620
LIFT_MS, LIFT_QUEUE_MS = 1300, 150  # someone else looks at his cards
PEEK_MS = 4000  # your own peek (private)
MOLE_MS = 3500  # your own Mole look (private)
OMERTA_MS, OMERTA_QUEUE_MS = 1800, 900
RESHUFFLE_MS, RESHUFFLE_CARDS, RESHUFFLE_STAGGER_MS, RESHUFFLE_FLIGHT_MS = 650, 6, 50, 400
#: The safe's four places, dealt after the players' cards.
SAFE_PLACES = 4

_DRAW = Shown(DRAW_MS, DRAW_MS)
_REPLACE = Shown(REPLACE_MS, REPLACE_LAG_MS + REPLACE_MS, at_once=True)
_DISCARD = Shown(DISCARD_MS, DISCARD_MS, at_once=True)
_SNAP = Shown(SNAP_MS, max(SNAP_MS, SNAP_BANNER_MS))
_WRONG = Shown(WRONG_QUEUE_MS, WRONG_MS)
_LIFT = Shown(LIFT_QUEUE_MS, LIFT_MS)
_SWAP = Shown(SWAP_MS, SWAP_MS)
_SHUFFLE = Shown(SHUFFLE_MS, SHUFFLE_MS)
_SAFE = Shown(SAFE_MS, SAFE_MS)
_TOKEN = Shown(TOKEN_MS, TOKEN_MS)
_OMERTA = Shown(OMERTA_QUEUE_MS, OMERTA_MS)
_RESHUFFLE = Shown(RESHUFFLE_MS, (RESHUFFLE_CARDS - 1) * RESHUFFLE_STAGGER_MS + RESHUFFLE_FLIGHT_MS)


def deal_shown(cards: int) -> Shown:
    """A deal of ``cards`` cards, one every :data:`DEAL_STAGGER_MS`."""
    return Shown(cards * DEAL_STAGGER_MS + DEAL_MS, (cards - 1) * DEAL_STAGGER_MS + DEAL_MS if cards else 0)


def _round_started(ev: Mapping[str, Any]) -> Shown:
    return deal_shown(sum(len(g) for g in ev.get("slots") or []) + SAFE_PLACES)


def _look(ev: Mapping[str, Any]) -> Shown:
    return _LIFT if ev.get("slots") else Shown(LIFT_QUEUE_MS, 0)


def _claim(ev: Mapping[str, Any]) -> Shown:
    return _SNAP if ev.get("success") else _WRONG


def _penalty(ev: Mapping[str, Any]) -> Shown | None:
    if ev.get("slot") is None:
        return None
    dur = PENALTY_MS if ev.get("type") == "penalty" else GIVE_MS
    return Shown(dur * 0.6, dur)


def _driver(ev: Mapping[str, Any]) -> Shown:
    n = len(ev.get("slots") or [])
    if ev.get("success"):
        return Shown(SNAP_MS + DRIVER_STAGGER_MS * n, (n - 1) * DRIVER_STAGGER_MS + SNAP_MS if n else 0)
    return Shown(WRONG_QUEUE_MS, WRONG_MS if n else 0)


def _shuffle(ev: Mapping[str, Any]) -> Shown | None:
    return _SHUFFLE if ev.get("slots") else None


_FIXED: dict[str, Shown] = {
    "draw": _DRAW, "replace": _REPLACE, "discard": _DISCARD, "swap": _SWAP, "safe_swap": _SAFE,
    "marker_placed": _TOKEN, "marker_removed": _TOKEN, "reshuffle": _RESHUFFLE, "omerta": _OMERTA,
}
_BY_EVENT = {
    "round_started": _round_started, "look": _look, "snap": _claim, "counter": _claim,
    "penalty": _penalty, "give": _penalty, "driver": _driver, "shuffle": _shuffle,
}


def shown(ev: Mapping[str, Any]) -> Shown | None:
    """How a screen shows the wire event ``ev``; None for an event it does not animate."""
    kind = ev.get("type")
    fixed = _FIXED.get(kind)  # type: ignore[arg-type]
    if fixed is not None:
        return fixed
    of = _BY_EVENT.get(kind)  # type: ignore[arg-type]
    return of(ev) if of is not None else None
