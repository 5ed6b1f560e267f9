"""Omerta events told in words (the message column) and sound cues.

:func:`narrate` returns ``(text, colour, sound cue or None)`` for one wire event as the
table shows it, or None for events that need no line. ``name(seat)`` gives a seat's
display name; ``local`` the seats played on this screen.
"""
from __future__ import annotations

from typing import Any, Callable, Mapping

from client.games.omerta.cards import character_name
from client.i18n import tr
from client.narrate import BAD, GOOD, INFO, Line, NOTE, narrator, subject


def card_text(card: Any) -> str:
    """How a card is named in messages: ``"the 7"`` or ``"the Henchman (15)"``."""
    if not isinstance(card, dict):
        return "?"
    if card.get("kind") == "bottle":
        return tr("card.bottle", value=str(card.get("value")))
    return tr("card.character", name=character_name(str(card.get("name"))), points=str(card.get("points")))


def _on_turn(ev: Mapping[str, Any], name: Callable[[int], str], local: set[int]) -> Line | None:
    _, who, mine = subject(ev, name, local)
    if not mine:
        return None
    return (tr("msg.your_turn") if len(local) == 1 else tr("msg.turn_of", name=who), NOTE, "turn")


def _on_turn_skipped(ev: Mapping[str, Any], name: Callable[[int], str], local: set[int]) -> Line | None:
    _, who, _ = subject(ev, name, local)
    return (tr("msg.skipped", name=who), NOTE, None)


def _on_draw(ev: Mapping[str, Any], name: Callable[[int], str], local: set[int]) -> Line | None:
    _, who, _ = subject(ev, name, local)
    card = card_text(ev.get("card"))
    src = tr("msg.from_discard", card=card) if ev.get("source") == "discard" else tr("msg.from_pile")
    return (tr("msg.draw", name=who, source=src), INFO, "card")


def _on_replace(ev: Mapping[str, Any], name: Callable[[int], str], local: set[int]) -> Line | None:
    _, who, _ = subject(ev, name, local)
    card = card_text(ev.get("card"))
    return (tr("msg.replace", name=who, card=card), INFO, "flip")


def _on_discard(ev: Mapping[str, Any], name: Callable[[int], str], local: set[int]) -> Line | None:
    _, who, _ = subject(ev, name, local)
    card = card_text(ev.get("card"))
    return (tr("msg.discard", name=who, card=card), INFO, "flip")


def _on_window_opened(ev: Mapping[str, Any], name: Callable[[int], str], local: set[int]) -> Line | None:
    if not (ev.get("kind") == "hitwoman"):
        return None
    attack = (ev.get("attack") or {}).get("type", "")
    return (tr("msg.counter_window", name=name(int(ev.get("attacker", 0))), card=character_name(attack)),
            NOTE, None)


def _on_snap(ev: Mapping[str, Any], name: Callable[[int], str], local: set[int]) -> Line | None:
    _, who, mine = subject(ev, name, local)
    card = card_text(ev.get("card"))
    if ev.get("success"):
        return (tr("msg.snap_ok", name=who, card=card), GOOD, "snap_won" if mine else "card")
    return (tr("msg.snap_wrong", name=who, card=card), BAD, "snap_lost" if mine else "penalty")


def _on_counter(ev: Mapping[str, Any], name: Callable[[int], str], local: set[int]) -> Line | None:
    _, who, _ = subject(ev, name, local)
    card = card_text(ev.get("card"))
    if ev.get("success"):
        return (tr("msg.counter_ok", name=who, card=card), GOOD, "snap_won")
    return (tr("msg.counter_wrong", name=who, card=card), BAD, "penalty")


def _on_penalty(ev: Mapping[str, Any], name: Callable[[int], str], local: set[int]) -> Line | None:
    _, who, _ = subject(ev, name, local)
    if not (ev.get("slot") is not None):
        return None
    return (tr("msg.penalty", name=who), BAD, None)


def _on_power(ev: Mapping[str, Any], name: Callable[[int], str], local: set[int]) -> Line | None:
    _, who, _ = subject(ev, name, local)
    return (tr("msg.power", name=who, card=character_name(str(ev.get("card")))), NOTE, None)


def _on_power_declined(ev: Mapping[str, Any], name: Callable[[int], str], local: set[int]) -> Line | None:
    _, who, _ = subject(ev, name, local)
    return (tr("msg.power_declined", name=who, card=character_name(str(ev.get("card")))), INFO, None)


def _on_swap(ev: Mapping[str, Any], name: Callable[[int], str], local: set[int]) -> Line | None:
    _, who, _ = subject(ev, name, local)
    return (tr("msg.swap", name=who), INFO, "card")


def _on_shuffle(ev: Mapping[str, Any], name: Callable[[int], str], local: set[int]) -> Line | None:
    _, who, _ = subject(ev, name, local)
    return (tr("msg.shuffle", name=who), INFO, "card")


def _on_give(ev: Mapping[str, Any], name: Callable[[int], str], local: set[int]) -> Line | None:
    _, who, _ = subject(ev, name, local)
    if not (ev.get("slot") is not None):
        return None
    return (tr("msg.give", name=who), INFO, None)


def _on_driver(ev: Mapping[str, Any], name: Callable[[int], str], local: set[int]) -> Line | None:
    _, who, _ = subject(ev, name, local)
    cards = ", ".join(card_text(c) for c in ev.get("cards", []))
    if ev.get("success"):
        return (tr("msg.driver_ok", name=who, cards=cards), GOOD, None)
    return (tr("msg.driver_wrong", name=who, cards=cards), BAD, "penalty")


def _on_safe_swap(ev: Mapping[str, Any], name: Callable[[int], str], local: set[int]) -> Line | None:
    _, who, _ = subject(ev, name, local)
    return (tr("msg.safe_swap", name=who), INFO, None)


def _on_marker_placed(ev: Mapping[str, Any], name: Callable[[int], str], local: set[int]) -> Line | None:
    _, who, _ = subject(ev, name, local)
    return (tr("msg.marker_placed", card=character_name(str(ev.get("kind"))), name=who), NOTE, None)


def _on_marker_removed(ev: Mapping[str, Any], name: Callable[[int], str], local: set[int]) -> Line | None:
    _, who, _ = subject(ev, name, local)
    return (tr("msg.marker_removed", card=character_name(str(ev.get("kind"))), name=who), INFO, None)


def _on_omerta(ev: Mapping[str, Any], name: Callable[[int], str], local: set[int]) -> Line | None:
    _, who, _ = subject(ev, name, local)
    return (tr("msg.omerta", name=who), NOTE, "omerta")


def _on_reshuffle(ev: Mapping[str, Any], name: Callable[[int], str], local: set[int]) -> Line | None:
    return (tr("msg.reshuffle"), INFO, None)


def _on_no_draw(ev: Mapping[str, Any], name: Callable[[int], str], local: set[int]) -> Line | None:
    _, who, _ = subject(ev, name, local)
    return (tr("msg.no_draw", name=who), INFO, None)


def _on_look(ev: Mapping[str, Any], name: Callable[[int], str], local: set[int]) -> Line | None:
    _, who, _ = subject(ev, name, local)
    if not (ev.get("cards") is None and ev.get("reason") == "mole"):
        return None
    return (tr("msg.mole", name=who), INFO, None)


#: event type -> its handler (``_on_<type>``); other events: nothing.
_HANDLERS: dict[str, Callable[..., Any]] = {
    "turn": _on_turn,
    "turn_skipped": _on_turn_skipped,
    "draw": _on_draw,
    "replace": _on_replace,
    "discard": _on_discard,
    "window_opened": _on_window_opened,
    "snap": _on_snap,
    "counter": _on_counter,
    "penalty": _on_penalty,
    "power": _on_power,
    "power_declined": _on_power_declined,
    "swap": _on_swap,
    "shuffle": _on_shuffle,
    "give": _on_give,
    "driver": _on_driver,
    "safe_swap": _on_safe_swap,
    "marker_placed": _on_marker_placed,
    "marker_removed": _on_marker_removed,
    "omerta": _on_omerta,
    "reshuffle": _on_reshuffle,
    "no_draw": _on_no_draw,
    "look": _on_look,
}


#: The line telling one event (its ``_on_<type>`` handler; other events have none).
narrate = narrator(_HANDLERS)


def moment(view: Mapping[str, Any]) -> tuple[Any, Any]:
    """The history's ``(round, turn)`` in ``view`` (turn 0: the round's peek)."""
    return (view.get("round"), view.get("turn_no") or None)


def moment_after(ev: Mapping[str, Any], now: tuple[Any, Any]) -> tuple[Any, Any]:
    """The history's ``(round, turn)`` after ``ev``: a round starts with its deal, a
    turn with its ``turn`` event."""
    kind = ev.get("type")
    if kind == "round_started":
        return (ev.get("round", now[0]), None)
    if kind == "turn":
        return (now[0], ev.get("turn_no", now[1]))
    return now
