"""How long a Famiglia screen takes to show each event (ms). Bots pace their turns by it
(:mod:`shared.showing`), and the client's effects (``client/games/famiglia/fx.py``) take
their durations from here, so the two agree.
"""
from __future__ import annotations

from typing import Any, Mapping

from shared.showing import Shown

#: Durations of the effects, in ms.
DRAW_MS, DRAW_STAGGER_MS = 380, 110
RENEW_MS = 420
PLAY_MS = 460
SWAP_MS = 560
RECRUIT_MS = 520
RECRUIT_PAIR_LAG_MS = 120  # the pair's other card follows the recruit into the gang
HIT_MS = 600
HIT_AT = 0.8  # a Brute's blow lands at this part of its flight
HIT_BANNER_MS = 1400
RESHUFFLE_MS, RESHUFFLE_CARDS, RESHUFFLE_STAGGER_MS, RESHUFFLE_FLIGHT_MS = 650, 6, 50, 400
LAST_ROUND_MS, LAST_ROUND_QUEUE_MS = 1800, 600

_FIXED: dict[str, Shown] = {
    "street_draw": Shown(DRAW_STAGGER_MS, DRAW_MS),
    "renew": Shown(RENEW_MS, RENEW_MS),
    "reshuffle": Shown(RESHUFFLE_MS, (RESHUFFLE_CARDS - 1) * RESHUFFLE_STAGGER_MS + RESHUFFLE_FLIGHT_MS),
    "accountant": Shown(PLAY_MS, PLAY_MS),
    "swap": Shown(SWAP_MS, SWAP_MS),
    "end_triggered": Shown(LAST_ROUND_QUEUE_MS, LAST_ROUND_MS),
}
_BRUTE = Shown(PLAY_MS, PLAY_MS * HIT_AT + max(HIT_MS, HIT_BANNER_MS))
_RECRUIT = Shown(RECRUIT_MS, RECRUIT_MS)
_RECRUIT_PAIR = Shown(RECRUIT_MS, RECRUIT_PAIR_LAG_MS + RECRUIT_MS)


def shown(ev: Mapping[str, Any]) -> Shown | None:
    """How a screen shows the wire event ``ev``; None for an event it does not animate."""
    kind = ev.get("type")
    fixed = _FIXED.get(kind)  # type: ignore[arg-type]
    if fixed is not None:
        return fixed
    if kind == "brute":
        return _BRUTE if ev.get("target") else Shown(PLAY_MS, PLAY_MS)
    if kind == "recruit":
        return _RECRUIT_PAIR if ev.get("to_gang") else _RECRUIT
    return None
