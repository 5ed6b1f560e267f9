"""Famiglia's game events turned into table animations (events drive tweens).

:func:`animate` gets one wire event as the seat received it, the layouts before and after
the update, and queues effects on the scene's :class:`~client.animation.Animator`:
street draws fly from the deck and turn face up, a renewed card flies to the discard pile
(or under the deck), played Accountants and Brutes fly from the hand to the gang, swaps
cross, a recruit flies from the street into the hand (its pair card to the gang), a
reshuffle sends the discard pile back to the deck. Durations are ms; each event's
animation starts after the previous one (``Animator.slot``), street draws are staggered.
Nothing here changes the game: the table is drawn from the server's view; effects only
hide a place (``("street", id)``, ``("gang", id)``, ``("hand", id)``, ``("discard", 0)``,
``("backs", seat)`` = one face-down card of that hand) until their card lands.
"""
from __future__ import annotations

from typing import Any, Callable, Mapping

import pygame

from client import tween
from client.animation import Animator, Banner, Flight, Shake, event_animator
from client.games.famiglia.layout import FamigliaLayout
from shared.games.famiglia.showing import (  # durations (ms), as the bots pace by them
    DRAW_MS, DRAW_STAGGER_MS, HIT_AT, HIT_BANNER_MS, HIT_MS, LAST_ROUND_MS, LAST_ROUND_QUEUE_MS, PLAY_MS,
    RECRUIT_MS, RECRUIT_PAIR_LAG_MS, RENEW_MS, RESHUFFLE_CARDS, RESHUFFLE_FLIGHT_MS, RESHUFFLE_MS,
    RESHUFFLE_STAGGER_MS, SWAP_MS)

GOLD = (255, 214, 102)
RED = (255, 110, 90)
BLUE = (120, 190, 255)



class FxContext:
    """What :func:`animate` needs: ``anim``, the clock ``t`` (ms), ``me`` the seat whose
    hand this screen shows (None: none), the layouts ``old``/``new``, ``shown(place)`` the
    rect where a card is drawn right now (it may still be sliding), ``local`` the seats
    played on this screen (their moves start at once)."""

    def __init__(self, anim: Animator, t: float, me: int | None, old: FamigliaLayout, new: FamigliaLayout,
                 shown: Callable[[tuple[str, int]], pygame.Rect | None], local: set[int]):
        self.anim, self.t, self.me = anim, t, me
        self.old, self.new = old, new
        self.shown = shown
        self.local = local

    def was(self, place: tuple[str, int]) -> pygame.Rect | None:
        """Where a card was before the update (on screen now, else the old layout)."""
        r = self.shown(place)
        return pygame.Rect(r) if r is not None else (pygame.Rect(self.old.cards[place])
                                                     if place in self.old.cards else None)

    def hand_of(self, seat: int, layout: FamigliaLayout | None = None) -> pygame.Rect:
        return pygame.Rect((layout or self.new).hand_target(seat))


def _id(card: Any) -> int | None:
    return int(card["id"]) if isinstance(card, dict) and "id" in card else None


def _slot(ctx: FxContext, ev: Mapping[str, Any], duration: float) -> float:
    """The start (scene ms) of an effect of ``duration`` ms for ``ev``: after the effects
    queued before it, or at once for an urgent event."""
    kind = ev.get("type")
    seat = ev.get("seat")
    urgent = seat in ctx.local and kind in ("accountant", "swap", "brute", "recruit", "renew")
    return ctx.anim.slot(ctx.t, duration, urgent=urgent)


def _on_street_draw(ctx: FxContext, ev: Mapping[str, Any]) -> None:
    a = ctx.anim
    new = ctx.new
    card = ev.get("card")
    cid = _id(card)
    dst = new.cards.get(("street", cid))
    if dst is None:
        return
    t0 = a.slot(ctx.t, DRAW_STAGGER_MS)
    a.add(Flight(t0, t0 + DRAW_MS, src=pygame.Rect(new.deck), dst=pygame.Rect(dst), face_a=None, face_b=card,
                 lift=24, hide_dst=("street", cid), flip_at=(0.25, 0.8), easing=tween.ease_out_cubic))


def _on_renew(ctx: FxContext, ev: Mapping[str, Any]) -> None:
    a = ctx.anim
    new = ctx.new
    card = ev.get("card")
    src = ctx.was(("street", _id(card))) or pygame.Rect(new.street.center, (1, 1))
    to_discard = ev.get("to") != "deck_bottom"
    t0 = _slot(ctx, ev, RENEW_MS)
    a.add(Flight(t0, t0 + RENEW_MS, src=src, dst=pygame.Rect(new.discard if to_discard else new.deck),
                 face_a=card, face_b=card if to_discard else None, lift=40,
                 hide_dst=("discard", 0) if to_discard else None, flip_at=(0.2, 0.8)))


def _on_reshuffle(ctx: FxContext, ev: Mapping[str, Any]) -> None:
    a = ctx.anim
    new = ctx.new
    t0 = _slot(ctx, ev, RESHUFFLE_MS)
    for i in range(RESHUFFLE_CARDS):
        s = t0 + i * RESHUFFLE_STAGGER_MS
        a.add(Flight(s, s + RESHUFFLE_FLIGHT_MS, src=pygame.Rect(new.discard), dst=pygame.Rect(new.deck), lift=30, spin=20))


def _on_accountant(ctx: FxContext, ev: Mapping[str, Any]) -> None:
    kind = ev.get("type")
    a = ctx.anim
    seat = ev.get("seat")
    new, old = ctx.new, ctx.old
    card = ev.get("card")
    cid = _id(card)
    dst = new.cards.get(("gang", cid))
    if dst is None or not isinstance(seat, int):
        return
    src = ctx.was(("hand", cid)) or ctx.hand_of(seat, old)
    visible = ("hand", cid) in old.cards
    t0 = _slot(ctx, ev, PLAY_MS)
    a.add(Flight(t0, t0 + PLAY_MS, src=src, dst=pygame.Rect(dst), face_a=card if visible else None, face_b=card,
                 lift=30, hide_dst=("gang", cid), flip_at=(0.1, 0.6),
                 glow=BLUE if kind == "accountant" else None))
    if kind == "brute":
        target = ev.get("target")
        tr_ = new.cards.get(("street", _id(target)))
        if tr_ is not None:
            hit = t0 + PLAY_MS * HIT_AT
            a.add(Shake(hit, hit + HIT_MS, place=("street", _id(target)), amp=tr_.w * 0.10))
            a.add(Banner(hit, hit + HIT_BANNER_MS, text=f"\u2212{ev.get('amount', '?')}", colour=RED,
                         centre=(tr_.centerx, tr_.top + tr_.h * 0.3), size=int(tr_.h * 0.38)))


def _on_swap(ctx: FxContext, ev: Mapping[str, Any]) -> None:
    a = ctx.anim
    seat = ev.get("seat")
    new, old = ctx.new, ctx.old
    g, h = ev.get("from_gang"), ev.get("from_hand")
    gid, hid = _id(g), _id(h)
    if not isinstance(seat, int):
        return
    g_src = ctx.was(("gang", gid)) or ctx.hand_of(seat, old)
    g_dst = new.cards.get(("hand", gid))
    h_src = ctx.was(("hand", hid)) or ctx.hand_of(seat, old)
    h_dst = new.cards.get(("gang", hid))
    t0 = _slot(ctx, ev, SWAP_MS)
    a.add(Flight(t0, t0 + SWAP_MS, src=g_src, dst=pygame.Rect(g_dst or ctx.hand_of(seat)), face_a=g,
                 face_b=g if g_dst is not None else None, lift=70, glow=BLUE,
                 hide_dst=("hand", gid) if g_dst is not None else None, flip_at=(0.4, 0.9)))
    if h_dst is not None:
        a.add(Flight(t0, t0 + SWAP_MS, src=h_src, dst=pygame.Rect(h_dst),
                     face_a=h if ("hand", hid) in old.cards else None, face_b=h, lift=-70, glow=BLUE,
                     hide_dst=("gang", hid), flip_at=(0.1, 0.6)))


def _on_recruit(ctx: FxContext, ev: Mapping[str, Any]) -> None:
    a = ctx.anim
    seat = ev.get("seat")
    new, old = ctx.new, ctx.old
    card = ev.get("card")
    cid = _id(card)
    if not isinstance(seat, int):
        return
    src = ctx.was(("street", cid)) or pygame.Rect(new.street.center, (1, 1))
    dst = new.cards.get(("hand", cid))
    t0 = _slot(ctx, ev, RECRUIT_MS)
    a.add(Flight(t0, t0 + RECRUIT_MS, src=src, dst=pygame.Rect(dst or ctx.hand_of(seat)), face_a=card,
                 face_b=card if dst is not None else None, lift=50, glow=GOLD,
                 hide_dst=("hand", cid) if dst is not None else ("backs", seat), flip_at=(0.5, 0.95),
                 easing=tween.ease_out_cubic))
    gang_card = ev.get("to_gang")
    gid = _id(gang_card)
    g_dst = new.cards.get(("gang", gid)) if gid is not None else None
    if g_dst is not None:
        g_src = ctx.was(("hand", gid)) or ctx.hand_of(seat, old)
        a.add(Flight(t0 + RECRUIT_PAIR_LAG_MS, t0 + RECRUIT_PAIR_LAG_MS + RECRUIT_MS, src=g_src, dst=pygame.Rect(g_dst),
                     face_a=gang_card if ("hand", gid) in old.cards else None, face_b=gang_card, lift=30,
                     hide_dst=("gang", gid), flip_at=(0.1, 0.6)))


def _on_end_triggered(ctx: FxContext, ev: Mapping[str, Any]) -> None:
    a = ctx.anim
    new = ctx.new
    t0 = _slot(ctx, ev, LAST_ROUND_QUEUE_MS)
    w, h = new.size
    from client.i18n import tr

    a.add(Banner(t0, t0 + LAST_ROUND_MS, text=tr("fam.fx.last_round"), colour=(255, 120, 90),
                 centre=(new.street.centerx, new.street.centery), size=int(h * 0.09)))


#: event type -> its handler (``_on_<type>``); other events: nothing.
_HANDLERS: dict[str, Callable[..., Any]] = {
    "street_draw": _on_street_draw,
    "renew": _on_renew,
    "reshuffle": _on_reshuffle,
    "accountant": _on_accountant,
    "brute": _on_accountant,
    "swap": _on_swap,
    "recruit": _on_recruit,
    "end_triggered": _on_end_triggered,
}


#: Queue the animation of one event (its ``_on_<type>`` handler; other events have none).
animate = event_animator(_HANDLERS)
