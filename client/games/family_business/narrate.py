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
from client.narrate import BAD, GOOD, INFO, Line, NOTE, narrator, subject, turn_moment, turn_moment_after
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


def _mob(name: Callable[[int], str], m: Any) -> str:
    """A mobster's name, with its gang's owner when it has one."""
    g = mobster_gang(m)
    return tr("fb.mob", name=mobster_name(m), owner=name(g)) if g is not None else mobster_name(m)


def _on_turn(ev: Mapping[str, Any], name: Callable[[int], str], local: set[int]) -> Line | None:
    _, who, mine = subject(ev, name, local)
    if mine and len(local) == 1:
        return (tr("msg.your_turn"), NOTE, "turn")
    return (tr("fb.msg.turn", name=who, n=str(ev.get("turn_no", "?"))), NOTE if mine else INFO,
            "turn" if mine else None)


def _on_turn_void(ev: Mapping[str, Any], name: Callable[[int], str], local: set[int]) -> Line | None:
    _, who, _ = subject(ev, name, local)
    return (tr("fb.msg.turn_void", name=who), INFO, None)


def _on_draw(ev: Mapping[str, Any], name: Callable[[int], str], local: set[int]) -> Line | None:
    _, who, mine = subject(ev, name, local)
    if ev.get("reason") == "counter":
        return (tr("fb.msg.draw_counter", name=who), INFO, "card")
    if ev.get("card") is not None and mine:
        return (tr("fb.msg.draw_you", name=who, card=card_name(ev["card"])), INFO, "card")
    return (tr("fb.msg.draw", name=who), INFO, "card")


def _on_no_draw(ev: Mapping[str, Any], name: Callable[[int], str], local: set[int]) -> Line | None:
    _, who, _ = subject(ev, name, local)
    return (tr("fb.msg.no_draw", name=who), INFO, None)


def _on_reshuffle(ev: Mapping[str, Any], name: Callable[[int], str], local: set[int]) -> Line | None:
    return (tr("fb.msg.reshuffle", n=str(ev.get("draw_pile", "?"))), NOTE, "deal")


def _on_play(ev: Mapping[str, Any], name: Callable[[int], str], local: set[int]) -> Line | None:
    _, who, _ = subject(ev, name, local)
    card = card_name(ev.get("card"))
    play = ev.get("play")
    if play == "contract":
        return (tr("fb.msg.play_contract", name=who, card=card, target=name(int(ev.get("target", 0)))),
                NOTE, "flip")
    if play == "hit":
        return (tr("fb.msg.play_hit", name=who, card=card, mobster=_mob(name, ev.get("victim"))), BAD, "penalty")
    if play == "rescue":
        return (tr("fb.msg.play_rescue", name=who, card=card, mobster=_mob(name, ev.get("mobster"))), GOOD, "flip")
    if play == "substitution":
        return (tr("fb.msg.play_substitution", name=who, card=card, mobster=_mob(name, ev.get("mobster")),
                   other=_mob(name, ev.get("other"))), NOTE, "flip")
    if play == "pay_off":
        return (tr("fb.msg.play_pay_off", name=who, card=card, target=name(int(ev.get("target", 0)))),
                GOOD, "flip")
    if play == "turncoat":
        return (tr("fb.msg.play_turncoat", name=who, card=card, victim=_mob(name, ev.get("victim")),
                   revived=_mob(name, ev.get("revived"))), NOTE, "flip")
    return (tr("fb.msg.play", name=who, card=card), NOTE, "flip")


def _on_void(ev: Mapping[str, Any], name: Callable[[int], str], local: set[int]) -> Line | None:
    _, who, _ = subject(ev, name, local)
    return (tr("fb.msg.void", name=who, card=card_name(ev.get("card"))), INFO, "flip")


def _on_window_opened(ev: Mapping[str, Any], name: Callable[[int], str], local: set[int]) -> Line | None:
    return (tr("fb.msg.window", name=name(int(ev.get("attacker", 0))), card=card_name(ev.get("card"))),
            NOTE, None)


def _on_pass(ev: Mapping[str, Any], name: Callable[[int], str], local: set[int]) -> Line | None:
    _, who, _ = subject(ev, name, local)
    return (tr("fb.msg.pass", name=who), INFO, None)


def _on_counter(ev: Mapping[str, Any], name: Callable[[int], str], local: set[int]) -> Line | None:
    _, who, _ = subject(ev, name, local)
    return (tr("fb.msg.counter", name=who, card=card_name(ev.get("card"))), GOOD, "snap_won")


def _on_window_closed(ev: Mapping[str, Any], name: Callable[[int], str], local: set[int]) -> Line | None:
    reason = ev.get("reason")
    if reason == "timeout":
        return (tr("fb.msg.closed_timeout"), INFO, None)
    if reason == "all_answered":
        return (tr("fb.msg.closed_all"), INFO, None)
    return None


def _on_choice(ev: Mapping[str, Any], name: Callable[[int], str], local: set[int]) -> Line | None:
    _, who, _ = subject(ev, name, local)
    mode = str(ev.get("mode") or "append")
    key = f"fb.msg.choice_{mode}" if mode in ("append", "first", "collect", "order", "intrigue") \
        else "fb.msg.choice_append"
    return (tr(key, name=who, n=str(ev.get("count", 1))), INFO, None)


def _on_placed(ev: Mapping[str, Any], name: Callable[[int], str], local: set[int]) -> Line | None:
    return (tr("fb.msg.placed", mobster=_mob(name, ev.get("mobster")), place=ordinal(int(ev.get("index", 0)) + 1)),
            BAD, "card")


def _on_collected(ev: Mapping[str, Any], name: Callable[[int], str], local: set[int]) -> Line | None:
    return (tr("fb.msg.collected", mobster=_mob(name, ev.get("mobster"))), INFO, "card")


def _on_moved(ev: Mapping[str, Any], name: Callable[[int], str], local: set[int]) -> Line | None:
    return (tr("fb.msg.moved", mobster=_mob(name, ev.get("mobster")), place=ordinal(int(ev.get("index", 0)) + 1)),
            INFO, "card")


def _on_reordered(ev: Mapping[str, Any], name: Callable[[int], str], local: set[int]) -> Line | None:
    order = ", ".join(mobster_name(m) for m in ev.get("hit_list") or [])
    return (tr("fb.msg.reordered", order=order), NOTE, None)


def _on_returned(ev: Mapping[str, Any], name: Callable[[int], str], local: set[int]) -> Line | None:
    return (tr("fb.msg.returned", mobster=_mob(name, ev.get("mobster"))), GOOD, "card")


def _on_swapped(ev: Mapping[str, Any], name: Callable[[int], str], local: set[int]) -> Line | None:
    return (tr("fb.msg.swapped", mobster=_mob(name, ev.get("mobster")), other=_mob(name, ev.get("other"))), NOTE, "card")


def _on_substituted(ev: Mapping[str, Any], name: Callable[[int], str], local: set[int]) -> Line | None:
    return (tr("fb.msg.substituted", mobster=_mob(name, ev.get("mobster")), other=_mob(name, ev.get("other"))), NOTE, "card")


def _on_revived(ev: Mapping[str, Any], name: Callable[[int], str], local: set[int]) -> Line | None:
    return (tr("fb.msg.revived", mobster=_mob(name, ev.get("mobster"))), GOOD, "snap_won")


def _on_killed(ev: Mapping[str, Any], name: Callable[[int], str], local: set[int]) -> Line | None:
    cause = str(ev.get("cause") or "war")
    key = f"fb.msg.killed_{cause}" if cause in ("war", "hit", "massacre", "turncoat") else "fb.msg.killed_war"
    return (tr(key, mobster=_mob(name, ev.get("mobster"))), BAD, "penalty")


def _on_eliminated(ev: Mapping[str, Any], name: Callable[[int], str], local: set[int]) -> Line | None:
    _, who, _ = subject(ev, name, local)
    return (tr("fb.msg.eliminated", name=who), BAD, "omerta")


def _on_war_started(ev: Mapping[str, Any], name: Callable[[int], str], local: set[int]) -> Line | None:
    key = "fb.msg.war_started_auto" if ev.get("cause") == "automatic" else "fb.msg.war_started"
    return (tr(key, n=str(ev.get("rate", 1))), BAD, "omerta")


def _on_war_rate(ev: Mapping[str, Any], name: Callable[[int], str], local: set[int]) -> Line | None:
    return (tr("fb.msg.war_rate", n=str(ev.get("rate", 1))), BAD, None)


def _on_war_ended(ev: Mapping[str, Any], name: Callable[[int], str], local: set[int]) -> Line | None:
    key = "fb.msg.war_ended_truce" if ev.get("cause") == "truce" else "fb.msg.war_ended_empty"
    return (tr(key), GOOD, None)


def _on_match_over(ev: Mapping[str, Any], name: Callable[[int], str], local: set[int]) -> Line | None:
    winners = [int(p) for p in ev.get("winners") or []]
    if not winners:
        return (tr("fb.msg.over_none"), NOTE, "omerta")
    names = ", ".join(name(p) for p in winners)
    return (tr("fb.msg.over_one" if len(winners) == 1 else "fb.msg.over_many", names=names), NOTE, "omerta")


#: event type -> its handler (``_on_<type>``); other events: nothing.
_HANDLERS: dict[str, Callable[..., Any]] = {
    "turn": _on_turn,
    "turn_void": _on_turn_void,
    "draw": _on_draw,
    "no_draw": _on_no_draw,
    "reshuffle": _on_reshuffle,
    "play": _on_play,
    "void": _on_void,
    "window_opened": _on_window_opened,
    "pass": _on_pass,
    "counter": _on_counter,
    "window_closed": _on_window_closed,
    "choice": _on_choice,
    "placed": _on_placed,
    "collected": _on_collected,
    "moved": _on_moved,
    "reordered": _on_reordered,
    "returned": _on_returned,
    "swapped": _on_swapped,
    "substituted": _on_substituted,
    "revived": _on_revived,
    "killed": _on_killed,
    "eliminated": _on_eliminated,
    "war_started": _on_war_started,
    "war_rate": _on_war_rate,
    "war_ended": _on_war_ended,
    "match_over": _on_match_over,
}


#: The line telling one event (its ``_on_<type>`` handler; other events have none).
narrate = narrator(_HANDLERS)


#: The history's ``(round, turn)``: Family Business has turns only.
moment, moment_after = turn_moment, turn_moment_after
