"""Family Business events told in words (the message column) and their sound cues.

:func:`narrate` returns ``(text, colour, sound cue or None)`` for one wire event (the
events of docs/protocol/family_business.md), or None for the few that need no line of
their own (a window closed because it was countered: the ``counter`` line said it).
``name(seat)`` gives a seat's display name; ``local`` the seats played on this screen.
Every sentence comes from the game's i18n files (English and French); :data:`KEYS`
lists the keys each event type may use (the tests check both languages have them).
"""
from __future__ import annotations

from typing import Any, Callable, Mapping

from client.games.family_business.cards import card_name
from client.i18n import tr
from client.narrate import BAD, GOOD, INFO, NOTE, Line, subject
from shared.games.family_business.cards import MOBSTERS

#: event type -> the i18n keys its line may use.
KEYS: dict[str, tuple[str, ...]] = {
    "turn": ("msg.your_turn", "fb.msg.turn"),
    "turn_void": ("fb.msg.turn_void",),
    "draw": ("fb.msg.draw", "fb.msg.draw_you", "fb.msg.draw_counter"),
    "no_draw": ("fb.msg.no_draw",),
    "reshuffle": ("fb.msg.reshuffle",),
    "play": ("fb.msg.play", "fb.msg.play_contract", "fb.msg.play_hit", "fb.msg.play_rescue",
             "fb.msg.play_substitution", "fb.msg.play_pay_off", "fb.msg.play_turncoat"),
    "void": ("fb.msg.void",),
    "window_opened": ("fb.msg.window",),
    "pass": ("fb.msg.pass",),
    "counter": ("fb.msg.counter",),
    "window_closed": ("fb.msg.closed_timeout", "fb.msg.closed_all"),
    "choice": ("fb.msg.choice_append", "fb.msg.choice_first", "fb.msg.choice_collect",
               "fb.msg.choice_order", "fb.msg.choice_intrigue"),
    "placed": ("fb.msg.placed",),
    "collected": ("fb.msg.collected",),
    "moved": ("fb.msg.moved",),
    "reordered": ("fb.msg.reordered",),
    "returned": ("fb.msg.returned",),
    "swapped": ("fb.msg.swapped",),
    "substituted": ("fb.msg.substituted",),
    "revived": ("fb.msg.revived",),
    "killed": ("fb.msg.killed_war", "fb.msg.killed_hit", "fb.msg.killed_massacre", "fb.msg.killed_turncoat"),
    "eliminated": ("fb.msg.eliminated",),
    "war_started": ("fb.msg.war_started", "fb.msg.war_started_auto"),
    "war_rate": ("fb.msg.war_rate",),
    "war_ended": ("fb.msg.war_ended_truce", "fb.msg.war_ended_empty"),
    "match_over": ("fb.msg.over_one", "fb.msg.over_many", "fb.msg.over_none"),
}


def ordinal(n: int) -> str:
    """``1st``, ``2nd``... (``1er``, ``2e``... in French); ``n`` counts from 1."""
    return tr(f"fb.ord.{n}") if 1 <= n <= 3 else tr("fb.ord.n", n=str(n))


def mobster_name(m: Any) -> str:
    """A mobster's name from its card dict or id."""
    if isinstance(m, Mapping):
        return str(m.get("name") or "?")
    if isinstance(m, int) and 0 <= m < len(MOBSTERS):
        return MOBSTERS[m].name
    return "?"


def mobster_gang(m: Any) -> int | None:
    if isinstance(m, Mapping):
        g = m.get("gang")
        return int(g) if isinstance(g, int) else None
    return m // 9 if isinstance(m, int) and 0 <= m < len(MOBSTERS) else None


def narrate(ev: Mapping[str, Any], name: Callable[[int], str], local: set[int]) -> Line | None:
    """The line (text, RGB colour, sound cue) telling one event, None for no line."""
    kind, who, mine = subject(ev, name, local)

    def mob(m: Any) -> str:
        g = mobster_gang(m)
        return tr("fb.mob", name=mobster_name(m), owner=name(g)) if g is not None else mobster_name(m)

    if kind == "turn":
        if mine and len(local) == 1:
            return (tr("msg.your_turn"), NOTE, "turn")
        return (tr("fb.msg.turn", name=who, n=str(ev.get("turn_no", "?"))), NOTE if mine else INFO,
                "turn" if mine else None)
    if kind == "turn_void":
        return (tr("fb.msg.turn_void", name=who), INFO, None)
    if kind == "draw":
        if ev.get("reason") == "counter":
            return (tr("fb.msg.draw_counter", name=who), INFO, "card")
        if ev.get("card") is not None and mine:
            return (tr("fb.msg.draw_you", name=who, card=card_name(ev["card"])), INFO, "card")
        return (tr("fb.msg.draw", name=who), INFO, "card")
    if kind == "no_draw":
        return (tr("fb.msg.no_draw", name=who), INFO, None)
    if kind == "reshuffle":
        return (tr("fb.msg.reshuffle", n=str(ev.get("draw_pile", "?"))), NOTE, "deal")
    if kind == "play":
        card = card_name(ev.get("card"))
        play = ev.get("play")
        if play == "contract":
            return (tr("fb.msg.play_contract", name=who, card=card, target=name(int(ev.get("target", 0)))),
                    NOTE, "flip")
        if play == "hit":
            return (tr("fb.msg.play_hit", name=who, card=card, mobster=mob(ev.get("victim"))), BAD, "penalty")
        if play == "rescue":
            return (tr("fb.msg.play_rescue", name=who, card=card, mobster=mob(ev.get("mobster"))), GOOD, "flip")
        if play == "substitution":
            return (tr("fb.msg.play_substitution", name=who, card=card, mobster=mob(ev.get("mobster")),
                       other=mob(ev.get("other"))), NOTE, "flip")
        if play == "pay_off":
            return (tr("fb.msg.play_pay_off", name=who, card=card, target=name(int(ev.get("target", 0)))),
                    GOOD, "flip")
        if play == "turncoat":
            return (tr("fb.msg.play_turncoat", name=who, card=card, victim=mob(ev.get("victim")),
                       revived=mob(ev.get("revived"))), NOTE, "flip")
        return (tr("fb.msg.play", name=who, card=card), NOTE, "flip")
    if kind == "void":
        return (tr("fb.msg.void", name=who, card=card_name(ev.get("card"))), INFO, "flip")
    if kind == "window_opened":
        return (tr("fb.msg.window", name=name(int(ev.get("attacker", 0))), card=card_name(ev.get("card"))),
                NOTE, None)
    if kind == "pass":
        return (tr("fb.msg.pass", name=who), INFO, None)
    if kind == "counter":
        return (tr("fb.msg.counter", name=who, card=card_name(ev.get("card"))), GOOD, "snap_won")
    if kind == "window_closed":
        reason = ev.get("reason")
        if reason == "timeout":
            return (tr("fb.msg.closed_timeout"), INFO, None)
        if reason == "all_answered":
            return (tr("fb.msg.closed_all"), INFO, None)
        return None
    if kind == "choice":
        mode = str(ev.get("mode") or "append")
        key = f"fb.msg.choice_{mode}" if mode in ("append", "first", "collect", "order", "intrigue") \
            else "fb.msg.choice_append"
        return (tr(key, name=who, n=str(ev.get("count", 1))), INFO, None)
    if kind == "placed":
        return (tr("fb.msg.placed", mobster=mob(ev.get("mobster")), place=ordinal(int(ev.get("index", 0)) + 1)),
                BAD, "card")
    if kind == "collected":
        return (tr("fb.msg.collected", mobster=mob(ev.get("mobster"))), INFO, "card")
    if kind == "moved":
        return (tr("fb.msg.moved", mobster=mob(ev.get("mobster")), place=ordinal(int(ev.get("index", 0)) + 1)),
                INFO, "card")
    if kind == "reordered":
        order = ", ".join(mobster_name(m) for m in ev.get("hit_list") or [])
        return (tr("fb.msg.reordered", order=order), NOTE, None)
    if kind == "returned":
        return (tr("fb.msg.returned", mobster=mob(ev.get("mobster"))), GOOD, "card")
    if kind == "swapped":
        return (tr("fb.msg.swapped", mobster=mob(ev.get("mobster")), other=mob(ev.get("other"))), NOTE, "card")
    if kind == "substituted":
        return (tr("fb.msg.substituted", mobster=mob(ev.get("mobster")), other=mob(ev.get("other"))), NOTE, "card")
    if kind == "revived":
        return (tr("fb.msg.revived", mobster=mob(ev.get("mobster"))), GOOD, "snap_won")
    if kind == "killed":
        cause = str(ev.get("cause") or "war")
        key = f"fb.msg.killed_{cause}" if cause in ("war", "hit", "massacre", "turncoat") else "fb.msg.killed_war"
        return (tr(key, mobster=mob(ev.get("mobster"))), BAD, "penalty")
    if kind == "eliminated":
        return (tr("fb.msg.eliminated", name=who), BAD, "omerta")
    if kind == "war_started":
        key = "fb.msg.war_started_auto" if ev.get("cause") == "automatic" else "fb.msg.war_started"
        return (tr(key, n=str(ev.get("rate", 1))), BAD, "omerta")
    if kind == "war_rate":
        return (tr("fb.msg.war_rate", n=str(ev.get("rate", 1))), BAD, None)
    if kind == "war_ended":
        key = "fb.msg.war_ended_truce" if ev.get("cause") == "truce" else "fb.msg.war_ended_empty"
        return (tr(key), GOOD, None)
    if kind == "match_over":
        winners = [int(p) for p in ev.get("winners") or []]
        if not winners:
            return (tr("fb.msg.over_none"), NOTE, "omerta")
        names = ", ".join(name(p) for p in winners)
        return (tr("fb.msg.over_one" if len(winners) == 1 else "fb.msg.over_many", names=names), NOTE, "omerta")
    return None
