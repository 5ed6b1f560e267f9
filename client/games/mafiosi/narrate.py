"""Mafiosi events told in words (the message column) and their sound cues.

:func:`narrate` returns ``(text, colour, sound cue or None)`` for one wire event (the
events of ``docs/protocol/mafiosi.md``), or None for an event that needs no line on this
screen (another seat's deal). ``name(seat)`` gives a seat's display name; ``local`` the
seats played on this screen. Every sentence comes from the i18n files (English and
French).
"""
from __future__ import annotations

from typing import Any, Callable, Mapping

from client.games.mafiosi.cards import card_name
from client.i18n import tr
from client.narrate import GOOD, INFO, Line, NOTE, narrator, subject

#: Every event type of the protocol appendix (tests check each has a line).
EVENT_TYPES = ("round_started", "deal", "no_bouncer", "bouncer_chosen", "bouncers_revealed", "leader", "play",
               "trick_won", "round_scored", "point_card_kept", "match_over")


def clan_name(suit: Any) -> str:
    """"Hearts" / "Cœur": a clan (its bouncer's suit); "no clan" for None."""
    return tr(f"maf.clan.{suit}") if suit in ("hearts", "diamonds", "spades", "clubs") else tr("maf.clan.none")


def names(seats: Any, name: Callable[[int], str]) -> str:
    return ", ".join(name(int(s)) for s in seats or [] if isinstance(s, int))


def _on_round_started(ev: Mapping[str, Any], name: Callable[[int], str], local: set[int]) -> Line | None:
    return (tr("maf.msg.round", round=str(ev.get("round", "?")), rounds=str(ev.get("rounds", "?")),
               n=str(ev.get("hand_size", "?"))), NOTE, "deal")


def _on_deal(ev: Mapping[str, Any], name: Callable[[int], str], local: set[int]) -> Line | None:
    _, who, mine = subject(ev, name, local)
    single = len(local) == 1
    if not mine:
        return None
    cards = ev.get("cards") or []
    if single:
        return (tr("maf.msg.dealt", n=str(len(cards))), INFO, None)
    return (tr("maf.msg.dealt_couch", name=who, n=str(len(cards))), INFO, None)


def _on_no_bouncer(ev: Mapping[str, Any], name: Callable[[int], str], local: set[int]) -> Line | None:
    _, who, _ = subject(ev, name, local)
    return (tr("maf.msg.no_bouncer", name=who), NOTE, None)


def _on_bouncer_chosen(ev: Mapping[str, Any], name: Callable[[int], str], local: set[int]) -> Line | None:
    _, who, mine = subject(ev, name, local)
    single = len(local) == 1
    card = ev.get("card")
    if mine and single and isinstance(card, Mapping):
        return (tr("maf.msg.my_bouncer", card=card_name(card)), INFO, "card")
    return (tr("maf.msg.bouncer_chosen", name=who), INFO, "card" if mine else None)


def _on_bouncers_revealed(ev: Mapping[str, Any], name: Callable[[int], str], local: set[int]) -> Line | None:
    parts = []
    for seat, card in enumerate(ev.get("bouncers") or []):
        parts.append(tr("maf.msg.bouncer_of", name=name(seat),
                        card=card_name(card) if isinstance(card, Mapping) else tr("maf.none")))
    return (tr("maf.msg.revealed", list="; ".join(parts)), NOTE, "omerta")


def _on_leader(ev: Mapping[str, Any], name: Callable[[int], str], local: set[int]) -> Line | None:
    _, who, _ = subject(ev, name, local)
    if ev.get("tied"):
        draws = ", ".join(tr("maf.msg.draw", name=name(int(d.get("seat", 0))),
                             card=card_name(d["card"]) if isinstance(d.get("card"), Mapping) else tr("maf.none"),
                             total=str(d.get("total", "?")))
                          for d in ev.get("draws") or [] if isinstance(d, Mapping))
        return (tr("maf.msg.leader_tie", name=who, names=names(ev.get("tied"), name), draws=draws), NOTE, None)
    return (tr("maf.msg.leader", name=who), NOTE, None)


def _on_play(ev: Mapping[str, Any], name: Callable[[int], str], local: set[int]) -> Line | None:
    _, who, mine = subject(ev, name, local)
    single = len(local) == 1
    card = card_name(ev.get("card"))
    if mine and single:
        return (tr("maf.msg.you_play", card=card), INFO, "card")
    return (tr("maf.msg.play", name=who, card=card), INFO, "card")


def _on_trick_won(ev: Mapping[str, Any], name: Callable[[int], str], local: set[int]) -> Line | None:
    _, who, mine = subject(ev, name, local)
    key = "maf.msg.trick_trump" if ev.get("trump") else "maf.msg.trick"
    return (tr(key, name=who, n=str(ev.get("trick", "?"))), GOOD if mine else INFO, "snap_won" if mine else None)


def _on_round_scored(ev: Mapping[str, Any], name: Callable[[int], str], local: set[int]) -> Line | None:
    winners = [w for w in ev.get("winners") or [] if isinstance(w, int)]
    scores = ev.get("scores") or []
    if winners:
        line = tr("maf.msg.round_won", round=str(ev.get("round", "?")), names=names(winners, name),
                  score=str(scores[winners[0]] if winners[0] < len(scores) else "?"))
    else:
        line = tr("maf.msg.round_none", round=str(ev.get("round", "?")))
    gone = [p for p, g in enumerate(ev.get("eliminated") or []) if g]
    if gone:
        line += " " + tr("maf.msg.eliminated", names=names(gone, name))
    return (line, NOTE, "omerta")


def _on_point_card_kept(ev: Mapping[str, Any], name: Callable[[int], str], local: set[int]) -> Line | None:
    _, who, mine = subject(ev, name, local)
    single = len(local) == 1
    card = ev.get("card")
    if mine and single and isinstance(card, Mapping):
        return (tr("maf.msg.my_point", card=card_name(card)), GOOD, "card")
    return (tr("maf.msg.point", name=who), INFO, None)


def _on_match_over(ev: Mapping[str, Any], name: Callable[[int], str], local: set[int]) -> Line | None:
    winners = [w for w in ev.get("winners") or [] if isinstance(w, int)]
    totals = ev.get("totals") or []
    top = totals[winners[0]] if winners and winners[0] < len(totals) else "?"
    key = "maf.msg.over_shared" if len(winners) > 1 else "maf.msg.over"
    return (tr(key, names=names(winners, name), n=str(top)), NOTE, "omerta")


#: event type -> its handler (``_on_<type>``); other events: nothing.
_HANDLERS: dict[str, Callable[..., Any]] = {
    "round_started": _on_round_started,
    "deal": _on_deal,
    "no_bouncer": _on_no_bouncer,
    "bouncer_chosen": _on_bouncer_chosen,
    "bouncers_revealed": _on_bouncers_revealed,
    "leader": _on_leader,
    "play": _on_play,
    "trick_won": _on_trick_won,
    "round_scored": _on_round_scored,
    "point_card_kept": _on_point_card_kept,
    "match_over": _on_match_over,
}


#: The line telling one event (its ``_on_<type>`` handler; other events have none).
narrate = narrator(_HANDLERS)


def moment(view: Mapping[str, Any]) -> tuple[Any, Any]:
    """The history's ``(round, trick)`` in ``view`` (no trick yet while bouncers are chosen)."""
    return (view.get("round"), view.get("trick_no") if view.get("phase") == "play" else None)


def moment_after(ev: Mapping[str, Any], now: tuple[Any, Any]) -> tuple[Any, Any]:
    """The history's ``(round, trick)`` after ``ev``: a round starts with its
    ``round_started``, each card played and trick won names its trick."""
    kind = ev.get("type")
    if kind == "round_started":
        return (ev.get("round", now[0]), None)
    if kind in ("play", "trick_won") and isinstance(ev.get("trick"), int):
        return (now[0], ev["trick"])
    return now
