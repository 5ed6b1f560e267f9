"""How long a Family Business screen takes to show each event (ms). Bots pace their turns
by it (:mod:`shared.showing`), and the client's effects
(``client/games/family_business/fx.py``) take their durations from here, so the two agree.
"""
from __future__ import annotations

from typing import Any, Mapping

from shared.showing import Shown

#: Durations of the effects, in ms.
PLAY_MS = 420  # short: the card that opens a counter window must be readable at once
DRAW_MS = 360
WALK_MS = 560
KILL_MS = 620
EXECUTED_MS = 800  # "Executed!" over a mobster the war kills
COUNTER_MS = 480
COUNTERED_AT, COUNTERED_MS = 0.6, 900  # "Countered!" from this part of the flight, then this long
BANNER_MS, BANNER_QUEUE_MS = 1300, 500
TURN_MS, TURN_QUEUE_MS = 900, 250
RESHUFFLE_MS, RESHUFFLE_CARDS, RESHUFFLE_STAGGER_MS, RESHUFFLE_FLIGHT_MS = 650, 6, 50, 400

_BANNER = Shown(BANNER_QUEUE_MS, BANNER_MS)
_WALK = Shown(WALK_MS, WALK_MS)
_FIXED: dict[str, Shown] = {
    "turn": Shown(TURN_QUEUE_MS, TURN_MS),
    "draw": Shown(DRAW_MS, DRAW_MS),
    "play": Shown(PLAY_MS, PLAY_MS, at_once=True),
    "void": Shown(PLAY_MS, PLAY_MS, at_once=True),
    "counter": Shown(COUNTER_MS, COUNTER_MS + COUNTERED_MS, at_once=True),
    "eliminated": _BANNER, "war_started": _BANNER, "war_rate": _BANNER, "war_ended": _BANNER,
    "reshuffle": Shown(RESHUFFLE_MS, (RESHUFFLE_CARDS - 1) * RESHUFFLE_STAGGER_MS + RESHUFFLE_FLIGHT_MS),
}
#: Mobsters walking on the wall: the fields naming them.
_WALKERS = {"placed": ("mobster",), "collected": ("mobster",), "moved": ("mobster",), "returned": ("mobster",),
            "swapped": ("mobster", "other"), "substituted": ("other", "mobster")}


def _mobster(m: Any) -> bool:
    return isinstance(m, int) or (isinstance(m, Mapping) and isinstance(m.get("id"), int))


def shown(ev: Mapping[str, Any]) -> Shown | None:
    """How a screen shows the wire event ``ev``; None for an event it does not animate."""
    kind = ev.get("type")
    fixed = _FIXED.get(kind)  # type: ignore[arg-type]
    if fixed is not None:
        return fixed
    walkers = _WALKERS.get(kind)  # type: ignore[arg-type]
    if walkers is not None:
        return _WALK if any(_mobster(ev.get(k)) for k in walkers) else Shown(WALK_MS, 0)
    if kind in ("revived", "killed"):
        if not _mobster(ev.get("mobster")):
            return None
        war = kind == "killed" and ev.get("cause") == "war"
        return Shown(KILL_MS, max(KILL_MS, EXECUTED_MS) if war else KILL_MS)
    return None
