"""Omerta events told in words (the message column) and sound cues.

:func:`narrate` returns ``(text, colour, sound cue or None)`` for one wire event as the
table shows it, or None for events that need no line. ``name(seat)`` gives a seat's
display name; ``local`` the seats played on this screen.
"""
from __future__ import annotations

from typing import Any, Callable, Mapping

from client.games.omerta.cards import character_name
from client.i18n import tr
from client.narrate import BAD, GOOD, INFO, NOTE, Line, subject


def card_text(card: Any) -> str:
    """How a card is named in messages: ``"the 7"`` or ``"the Henchman (15)"``."""
    if not isinstance(card, dict):
        return "?"
    if card.get("kind") == "bottle":
        return tr("card.bottle", value=str(card.get("value")))
    return tr("card.character", name=character_name(str(card.get("name"))), points=str(card.get("points")))


def narrate(ev: Mapping[str, Any], name: Callable[[int], str], local: set[int]) -> Line | None:
    kind, who, mine = subject(ev, name, local)
    card = card_text(ev.get("card"))
    if kind == "turn":
        if not mine:
            return None
        return (tr("msg.your_turn") if len(local) == 1 else tr("msg.turn_of", name=who), NOTE, "turn")
    if kind == "turn_skipped":
        return (tr("msg.skipped", name=who), NOTE, None)
    if kind == "draw":
        src = tr("msg.from_discard", card=card) if ev.get("source") == "discard" else tr("msg.from_pile")
        return (tr("msg.draw", name=who, source=src), INFO, "card")
    if kind == "replace":
        return (tr("msg.replace", name=who, card=card), INFO, "flip")
    if kind == "discard":
        return (tr("msg.discard", name=who, card=card), INFO, "flip")
    if kind == "window_opened" and ev.get("kind") == "hitwoman":
        attack = (ev.get("attack") or {}).get("type", "")
        return (tr("msg.counter_window", name=name(int(ev.get("attacker", 0))), card=character_name(attack)),
                NOTE, None)
    if kind == "snap":
        if ev.get("success"):
            return (tr("msg.snap_ok", name=who, card=card), GOOD, "snap_won" if mine else "card")
        return (tr("msg.snap_wrong", name=who, card=card), BAD, "snap_lost" if mine else "penalty")
    if kind == "counter":
        if ev.get("success"):
            return (tr("msg.counter_ok", name=who, card=card), GOOD, "snap_won")
        return (tr("msg.counter_wrong", name=who, card=card), BAD, "penalty")
    if kind == "penalty" and ev.get("slot") is not None:
        return (tr("msg.penalty", name=who), BAD, None)
    if kind == "power":
        return (tr("msg.power", name=who, card=character_name(str(ev.get("card")))), NOTE, None)
    if kind == "power_declined":
        return (tr("msg.power_declined", name=who, card=character_name(str(ev.get("card")))), INFO, None)
    if kind == "swap":
        return (tr("msg.swap", name=who), INFO, "card")
    if kind == "shuffle":
        return (tr("msg.shuffle", name=who), INFO, "card")
    if kind == "give" and ev.get("slot") is not None:
        return (tr("msg.give", name=who), INFO, None)
    if kind == "driver":
        cards = ", ".join(card_text(c) for c in ev.get("cards", []))
        if ev.get("success"):
            return (tr("msg.driver_ok", name=who, cards=cards), GOOD, None)
        return (tr("msg.driver_wrong", name=who, cards=cards), BAD, "penalty")
    if kind == "safe_swap":
        return (tr("msg.safe_swap", name=who), INFO, None)
    if kind == "marker_placed":
        return (tr("msg.marker_placed", card=character_name(str(ev.get("kind"))), name=who), NOTE, None)
    if kind == "marker_removed":
        return (tr("msg.marker_removed", card=character_name(str(ev.get("kind"))), name=who), INFO, None)
    if kind == "omerta":
        return (tr("msg.omerta", name=who), NOTE, "omerta")
    if kind == "reshuffle":
        return (tr("msg.reshuffle"), INFO, None)
    if kind == "no_draw":
        return (tr("msg.no_draw", name=who), INFO, None)
    if kind == "look" and ev.get("cards") is None and ev.get("reason") == "mole":
        return (tr("msg.mole", name=who), INFO, None)
    return None
