"""Famiglia events told in words (the message column) and their sound cues.

:func:`narrate` returns ``(text, colour, sound cue or None)`` for one wire event (the
fields listed in ``shared/games/famiglia.py``'s docstring), or None for events that need
no line. ``name(seat)`` gives a seat's display name; ``local`` the seats played on this
screen. Every sentence comes from the i18n files (English and French).
"""
from __future__ import annotations

from typing import Any, Callable, Mapping

from client.games.famiglia.cards import family_name
from client.i18n import tr
from client.narrate import GOOD, INFO, Line, NOTE, narrator, subject, turn_moment, turn_moment_after


def card_text(card: Any) -> str:
    """How a Famiglia card is named in messages: ``"the Brute 3"``."""
    if not isinstance(card, dict):
        return "?"
    return tr("fam.card", family=family_name(str(card.get("family"))), value=str(card.get("value")))


def _on_turn(ev: Mapping[str, Any], name: Callable[[int], str], local: set[int]) -> Line | None:
    _, who, mine = subject(ev, name, local)
    if mine:
        return (tr("msg.your_turn"), NOTE, "turn")
    return (tr("fam.msg.turn", name=who, n=str(ev.get("turn_no", "?"))), INFO, None)


def _on_renew(ev: Mapping[str, Any], name: Callable[[int], str], local: set[int]) -> Line | None:
    _, who, _ = subject(ev, name, local)
    card = card_text(ev.get("card"))
    key = "fam.msg.renew_deck" if ev.get("to") == "deck_bottom" else "fam.msg.renew"
    value = (ev.get("card") or {}).get("value", 0)
    return (tr(key, name=who, card=card, n=str(value)), INFO, "card")


def _on_reshuffle(ev: Mapping[str, Any], name: Callable[[int], str], local: set[int]) -> Line | None:
    return (tr("fam.msg.reshuffle", n=str(ev.get("deck", "?"))), NOTE, None)


def _on_end_triggered(ev: Mapping[str, Any], name: Callable[[int], str], local: set[int]) -> Line | None:
    return (tr("fam.msg.end", n=str(ev.get("last_turn", "?"))), NOTE, "omerta")


def _on_accountant(ev: Mapping[str, Any], name: Callable[[int], str], local: set[int]) -> Line | None:
    _, who, _ = subject(ev, name, local)
    card = card_text(ev.get("card"))
    return (tr("fam.msg.accountant", name=who, card=card), INFO, "card")


def _on_swap(ev: Mapping[str, Any], name: Callable[[int], str], local: set[int]) -> Line | None:
    _, who, _ = subject(ev, name, local)
    return (tr("fam.msg.swap", name=who, out=card_text(ev.get("from_gang")), into=card_text(ev.get("from_hand")),
               n=str(ev.get("swaps", "?")), max=str(ev.get("max", "?"))), INFO, "card")


def _on_brute(ev: Mapping[str, Any], name: Callable[[int], str], local: set[int]) -> Line | None:
    _, who, _ = subject(ev, name, local)
    card = card_text(ev.get("card"))
    return (tr("fam.msg.brute", name=who, card=card, target=card_text(ev.get("target")),
               amount=str(ev.get("amount", "?")), value=str(ev.get("effective", "?"))), NOTE, "penalty")


def _on_recruit(ev: Mapping[str, Any], name: Callable[[int], str], local: set[int]) -> Line | None:
    _, who, mine = subject(ev, name, local)
    card = card_text(ev.get("card"))
    if ev.get("mode") == "free":
        return (tr("fam.msg.take_free", name=who, card=card), GOOD, "snap_won" if mine else "card")
    kept = ev.get("kept")
    if kept is not None:
        return (tr("fam.msg.take_pair_kept", name=who, card=card, gang=card_text(ev.get("to_gang")),
                   kept=card_text(kept)), GOOD, "snap_won" if mine else "card")
    return (tr("fam.msg.take_pair", name=who, card=card, gang=card_text(ev.get("to_gang"))), GOOD,
            "snap_won" if mine else "card")


def _on_pass(ev: Mapping[str, Any], name: Callable[[int], str], local: set[int]) -> Line | None:
    _, who, _ = subject(ev, name, local)
    return (tr("fam.msg.pass", name=who), INFO, None)


def _on_refill(ev: Mapping[str, Any], name: Callable[[int], str], local: set[int]) -> Line | None:
    return (tr("fam.msg.refill"), INFO, "deal")


def _on_game_over(ev: Mapping[str, Any], name: Callable[[int], str], local: set[int]) -> Line | None:
    return (tr("fam.msg.over"), NOTE, "omerta")


#: event type -> its handler (``_on_<type>``); other events: nothing.
_HANDLERS: dict[str, Callable[..., Any]] = {
    "turn": _on_turn,
    "renew": _on_renew,
    "reshuffle": _on_reshuffle,
    "end_triggered": _on_end_triggered,
    "accountant": _on_accountant,
    "swap": _on_swap,
    "brute": _on_brute,
    "recruit": _on_recruit,
    "pass": _on_pass,
    "refill": _on_refill,
    "game_over": _on_game_over,
}


#: The line telling one event (its ``_on_<type>`` handler; other events have none).
narrate = narrator(_HANDLERS)


#: The history's ``(round, turn)``: Famiglia has turns only.
moment, moment_after = turn_moment, turn_moment_after
