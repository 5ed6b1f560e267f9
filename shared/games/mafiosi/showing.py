"""How long a Mafiosi screen takes to show each event (ms). Bots pace their turns by it
(:mod:`shared.showing`), and the client's effects (``client/games/mafiosi/fx.py``) take
their durations from here, so the two agree.

The deal of a seat's own hand is private (``deal`` goes to that seat only) and does not
count: the public ``round_started`` shows the deal to everybody.
"""
from __future__ import annotations

from typing import Any, Mapping

from shared.showing import Shown

#: Durations of the effects, in ms.
PLAY_MS = 420
HOLD_MS = 750  # a full trick stays in the middle
SWEEP_MS, SWEEP_STAGGER_MS = 480, 40
TRUMP_AFTER_MS = 300  # "Trump!" stays this long after the trick leaves
BOUNCER_MS = 420
REVEAL_MS, REVEAL_QUEUE_EXTRA_MS = 520, 200
DEAL_MS, DEAL_STAGGER_MS = 300, 45
ROUND_MS, ROUND_QUEUE_MS = 1300, 300
POINT_MS = 500
SCORED_MS = 1500
LEADER_MS, LEADER_QUEUE_MS = 1600, 300

_FIXED: dict[str, Shown] = {
    "play": Shown(PLAY_MS, PLAY_MS),
    "bouncer_chosen": Shown(BOUNCER_MS, BOUNCER_MS),
    "round_started": Shown(ROUND_QUEUE_MS, ROUND_MS),
    "point_card_kept": Shown(POINT_MS, POINT_MS),
    "round_scored": Shown(SCORED_MS, SCORED_MS),
    "match_over": Shown(SCORED_MS, SCORED_MS),
    "leader": Shown(LEADER_QUEUE_MS, LEADER_MS),
}


def _trick_won(ev: Mapping[str, Any]) -> Shown:
    n = sum(1 for c in ev.get("cards") or [] if isinstance(c, Mapping))
    end = HOLD_MS + (n - 1) * SWEEP_STAGGER_MS + SWEEP_MS if n else 0
    if ev.get("trump"):
        end = max(end, HOLD_MS + TRUMP_AFTER_MS)
    return Shown(HOLD_MS + SWEEP_MS, end)


def _bouncers_revealed(ev: Mapping[str, Any]) -> Shown:
    cards = any(isinstance(c, Mapping) for c in ev.get("bouncers") or [])
    return Shown(REVEAL_MS + REVEAL_QUEUE_EXTRA_MS, REVEAL_MS if cards else 0)


def shown(ev: Mapping[str, Any]) -> Shown | None:
    """How a screen shows the wire event ``ev``; None for an event it does not animate."""
    kind = ev.get("type")
    fixed = _FIXED.get(kind)  # type: ignore[arg-type]
    if fixed is not None:
        return fixed
    if kind == "trick_won":
        return _trick_won(ev)
    if kind == "bouncers_revealed":
        return _bouncers_revealed(ev)
    return None
