"""Omerta's game events turned into table animations (ARCHITECTURE §6: events drive
tweens).

:func:`animate` gets one wire event (as the seat received it), the table layouts before
and after the update, and queues effects on the scene's :class:`~client.animation.Animator`.
Durations are ms; each event's animation starts after the previous one (a burst is
compressed, see ``Animator.slot``). Nothing here changes the game: the table is drawn
from the server's view and effects only hide a place until their card lands.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Mapping

import pygame

from client import tween
from client.animation import Animator, Banner, Effect, Flight, Lift, Place, Reveal, Shake, Shuffle, event_animator
from client.games.omerta.cards import token
from client.games.omerta.layout import TableLayout
from shared.games.omerta.showing import (  # durations (ms), as the bots pace by them
    DEAL_MS, DEAL_STAGGER_MS, DISCARD_MS, DRAW_MS, DRIVER_STAGGER_MS, GIVE_MS, LIFT_MS, LIFT_QUEUE_MS, MOLE_MS,
    OMERTA_MS, OMERTA_QUEUE_MS, PEEK_MS, PENALTY_MS, REPLACE_LAG_MS, REPLACE_MS, RESHUFFLE_CARDS,
    RESHUFFLE_FLIGHT_MS, RESHUFFLE_MS, RESHUFFLE_STAGGER_MS, SAFE_MS, SHUFFLE_MS, SNAP_BANNER_MS, SNAP_MS,
    SWAP_MS, TOKEN_MS, WRONG_MS, WRONG_QUEUE_MS)

GOLD = (255, 214, 102)
RED = (255, 90, 80)
BLUE = (120, 190, 255)


@dataclass
class TokenFlight(Effect):
    """A marker token (Mamma, Police Patrol) flying between two points (px)."""

    kind: str = "mamma"
    src: tuple[float, float] = (0.0, 0.0)
    dst: tuple[float, float] = (0.0, 0.0)
    d: int = 40
    hide_dst: Place | None = None

    def hides(self, t: float) -> Iterable[Place]:
        if self.hide_dst is not None and t < self.t1:
            yield self.hide_dst

    def draw(self, surf: pygame.Surface, art: Any, t: float) -> None:
        if t < self.t0:
            return
        p = tween.progress(t, self.t0, self.t1 - self.t0)
        e = tween.ease_in_out_cubic(p)
        x, y = tween.arc_point(self.src, self.dst, e, self.d * 1.5)
        d = max(8, int(self.d * (1.0 + 0.6 * math.sin(math.pi * p))))
        img = token(art, self.kind, d)
        surf.blit(img, img.get_rect(center=(int(x), int(y))))

    def bounds(self, t: float, art: Any) -> list[pygame.Rect] | None:
        if t < self.t0:
            return []
        e = tween.ease_in_out_cubic(tween.progress(t, self.t0, self.t1 - self.t0))
        x, y = tween.arc_point(self.src, self.dst, e, self.d * 1.5)
        side = int(self.d * 1.6) + 4
        r = pygame.Rect(0, 0, side, side)
        r.center = (int(x), int(y))
        return [r]


class FxContext:
    """What :func:`animate` needs from the scene: ``anim``, the clock ``t`` (ms), the
    perspective seat ``me``, layouts ``old``/``new``, the displayed rect of a slot
    (``slot_rect``), the previous view (to know if the drawn card was visible), and
    ``local`` the seats played on this screen (their own moves animate at once)."""

    def __init__(self, anim: Animator, t: float, me: int | None, old: TableLayout, new: TableLayout,
                 slot_rect: Callable[[int], pygame.Rect | None], prev_view: Mapping[str, Any],
                 window_face: Callable[[int, float], None] | None = None, local: set[int] | None = None):
        self.anim, self.t, self.me = anim, t, me
        self.local = local if local is not None else ({me} if me is not None else set())
        self.old, self.new = old, new
        self.slot_rect = slot_rect
        self.prev_view = prev_view
        self.window_face = window_face or (lambda _w, _t: None)
        self.last_discard_face_at = t  # scene time when the latest discarded card is face up

    def rect(self, slot: int | None, seat: int | None = None) -> pygame.Rect:
        """A slot's rect now (new layout, else where it was), else the seat's hand."""
        r = self.slot_rect(slot) if slot is not None else None
        if r is None and slot is not None:
            r = self.new.slot_rect(slot) or self.old.slot_rect(slot)
        if r is None:
            area = self.new.seats.get(seat if seat is not None else 0)
            r = area.hand if area is not None else self.new.draw_pile
        return pygame.Rect(r)

    def hand(self, seat: int) -> pygame.Rect:
        area = self.new.seats.get(seat)
        return pygame.Rect(area.hand if area else self.new.draw_pile)


def _drawn_visible(ctx: FxContext, seat: int) -> Mapping[str, Any] | None:
    d = ctx.prev_view.get("drawn") or {}
    return d.get("card") if ctx.prev_view.get("turn") == seat else None


def deal(ctx: FxContext, slots_by_seat: list[list[int]], first: int) -> None:
    """Cards flying from the draw pile to every slot, one seat after the other."""
    n = len(slots_by_seat)
    start = ctx.anim.slot(ctx.t, 0)
    k = 0
    for i in range(max((len(s) for s in slots_by_seat), default=0)):
        for j in range(n):
            seat = (first + j) % n
            if i < len(slots_by_seat[seat]):
                sid = slots_by_seat[seat][i]
                t0 = start + k * DEAL_STAGGER_MS
                ctx.anim.add(Flight(t0, t0 + DEAL_MS, src=pygame.Rect(ctx.new.draw_pile), dst=ctx.rect(sid, seat),
                                    lift=30, hide_dst=("slot", sid), easing=tween.ease_out_cubic))
                k += 1
    for i, r in enumerate(ctx.new.safe):
        t0 = start + k * DEAL_STAGGER_MS
        ctx.anim.add(Flight(t0, t0 + DEAL_MS, src=pygame.Rect(ctx.new.draw_pile), dst=pygame.Rect(r),
                            hide_dst=("safe", i), easing=tween.ease_out_cubic))
        k += 1
    ctx.anim.cursor = start + k * DEAL_STAGGER_MS + DEAL_MS


def _slot(ctx: FxContext, ev: Mapping[str, Any], duration: float) -> float:
    """The start (scene ms) of an effect of ``duration`` ms for ``ev``: after the effects
    queued before it, or at once for an urgent event."""
    # your own moves start at once; so does any discard, because the card it shows may
    # open a snap window and must be readable as soon as possible (t_shown, fairness)
    kind = ev.get("type")
    seat = ev.get("seat")
    urgent = (seat in ctx.local and kind in ("draw", "snap", "counter", "look")) or kind in ("replace", "discard")
    return ctx.anim.slot(ctx.t, duration, urgent=urgent)


def _on_round_started(ctx: FxContext, ev: Mapping[str, Any]) -> None:
    deal(ctx, ev.get("slots", []), int(ev.get("first", 0)))


def _on_look(ctx: FxContext, ev: Mapping[str, Any]) -> None:
    a = ctx.anim
    seat = ev.get("seat")
    slots = ev.get("slots") or []
    cards = ev.get("cards")
    if cards is not None and seat == ctx.me and ev.get("reason") != "safe":
        t0 = _slot(ctx, ev, 250)
        dur = PEEK_MS if ev.get("reason") == "peek" else MOLE_MS
        for sid, card in zip(slots, cards):
            a.add(Reveal(t0, t0 + dur, place=("slot", sid), card=card, private=True))
    elif cards is None:
        t0 = _slot(ctx, ev, LIFT_QUEUE_MS)
        for sid in slots:
            a.add(Lift(t0, t0 + LIFT_MS, place=("slot", sid), height=ctx.rect(sid).h * 0.07))


def _on_draw(ctx: FxContext, ev: Mapping[str, Any]) -> None:
    a = ctx.anim
    seat = ev.get("seat")
    src_disc = ev.get("source") == "discard"
    card = ev.get("card")
    t0 = _slot(ctx, ev, DRAW_MS)
    src = pygame.Rect(ctx.new.discard if src_disc else ctx.new.draw_pile)
    face_a = card if src_disc else None
    a.add(Flight(t0, t0 + DRAW_MS, src=src, dst=ctx.hand(seat), face_a=face_a, face_b=card,
                 lift=24, hide_dst=("hand", seat), flip_at=(0.2, 0.8)))


def _on_replace(ctx: FxContext, ev: Mapping[str, Any]) -> None:
    a = ctx.anim
    seat = ev.get("seat")
    x = ev.get("card")
    sid = ev.get("slot")
    d = _drawn_visible(ctx, seat)
    if ev.get("source") == "discard":
        d = (ctx.prev_view.get("drawn") or {}).get("card") or d
    t0 = _slot(ctx, ev, REPLACE_MS)
    slot_r = ctx.rect(sid, seat)
    # face up from its first frame: it may open a snap window (t_shown, fairness)
    a.add(Flight(t0, t0 + REPLACE_MS, src=slot_r, dst=pygame.Rect(ctx.new.discard), face_a=x, face_b=x,
                 lift=40, hide_dst=("discard", 0)))
    lag = t0 + REPLACE_LAG_MS
    a.add(Flight(lag, lag + REPLACE_MS, src=ctx.hand(seat), dst=slot_r, face_a=d, face_b=None, lift=20,
                 hide_dst=("slot", sid), flip_at=(0.3, 0.8)))
    ctx.last_discard_face_at = t0


def _on_discard(ctx: FxContext, ev: Mapping[str, Any]) -> None:
    a = ctx.anim
    seat = ev.get("seat")
    card = ev.get("card")
    t0 = _slot(ctx, ev, DISCARD_MS)
    # face up from its first frame (it is public once discarded): the card that
    # opens a snap window must be readable at once, and t_shown is that frame's flip
    a.add(Flight(t0, t0 + DISCARD_MS, src=ctx.hand(seat), dst=pygame.Rect(ctx.new.discard),
                 face_a=card, face_b=card, lift=30, hide_dst=("discard", 0)))
    ctx.last_discard_face_at = t0


def _on_window_opened(ctx: FxContext, ev: Mapping[str, Any]) -> None:
    # a snap window shows from the first frame of its discarded card's flight; any
    # other window (a Hitwoman attack) from the first frame after its update, where
    # the prompt names it
    ctx.window_face(int(ev.get("window", 0)), ctx.last_discard_face_at if ev.get("kind") == "snap" else ctx.t)


def _on_snap(ctx: FxContext, ev: Mapping[str, Any]) -> None:
    kind = ev.get("type")
    a = ctx.anim
    seat = ev.get("seat")
    sid = ev.get("slot")
    card = ev.get("card")
    r = ctx.rect(sid, seat)
    if ev.get("success"):
        t0 = _slot(ctx, ev, SNAP_MS)
        a.add(Flight(t0, t0 + SNAP_MS, src=r, dst=pygame.Rect(ctx.new.discard), face_a=None, face_b=card,
                     lift=60, hide_dst=("discard", 0), flip_at=(0.0, 0.3), glow=GOLD, spin=12,
                     easing=tween.ease_out_cubic))
        word = "SNAP!" if kind == "snap" else "BANG!"
        a.add(Banner(t0, t0 + SNAP_BANNER_MS, text=word, colour=GOLD, centre=ctx.new.discard.midtop,
                     size=int(ctx.new.discard.h * 0.35)))
    else:
        t0 = _slot(ctx, ev, WRONG_QUEUE_MS)
        a.add(Reveal(t0, t0 + WRONG_MS, place=("slot", sid), card=card))
        a.add(Shake(t0 + 250, t0 + 750, place=("slot", sid), amp=r.w * 0.12))


def _on_penalty(ctx: FxContext, ev: Mapping[str, Any]) -> None:
    kind = ev.get("type")
    a = ctx.anim
    seat = ev.get("seat")
    sid = ev.get("slot")
    if sid is None:
        return
    dur = PENALTY_MS if kind == "penalty" else GIVE_MS
    t0 = _slot(ctx, ev, dur * 0.6)
    a.add(Flight(t0, t0 + dur, src=pygame.Rect(ctx.new.draw_pile), dst=ctx.rect(sid, seat),
                 lift=50, hide_dst=("slot", sid), glow=RED if kind == "penalty" else BLUE, spin=10))


def _on_swap(ctx: FxContext, ev: Mapping[str, Any]) -> None:
    a = ctx.anim
    x, y = ev.get("slots", [None, None])[:2]
    rx, ry = ctx.rect(x), ctx.rect(y)
    t0 = _slot(ctx, ev, SWAP_MS)
    a.add(Flight(t0, t0 + SWAP_MS, src=rx, dst=ry, lift=90, hide_dst=("slot", y), glow=BLUE))
    a.add(Flight(t0, t0 + SWAP_MS, src=ry, dst=rx, lift=-90, hide_dst=("slot", x), glow=BLUE))


def _on_shuffle(ctx: FxContext, ev: Mapping[str, Any]) -> None:
    a = ctx.anim
    slots = [s for s in ev.get("slots", [])]
    rects = tuple(ctx.rect(s) for s in slots)
    if rects:
        t0 = _slot(ctx, ev, SHUFFLE_MS)
        cx = sum(r.centerx for r in rects) / len(rects)
        cy = sum(r.centery for r in rects) / len(rects)
        a.add(Shuffle(t0, t0 + SHUFFLE_MS, places=tuple(("slot", s) for s in slots), centre=(cx, cy),
                      rects=rects))


def _on_driver(ctx: FxContext, ev: Mapping[str, Any]) -> None:
    a = ctx.anim
    seat = ev.get("seat")
    slots, cards = ev.get("slots", []), ev.get("cards", [])
    if ev.get("success"):
        t0 = _slot(ctx, ev, SNAP_MS + DRIVER_STAGGER_MS * len(slots))
        for i, (sid, card) in enumerate(zip(slots, cards)):
            s = t0 + i * DRIVER_STAGGER_MS
            a.add(Flight(s, s + SNAP_MS, src=ctx.rect(sid, seat), dst=pygame.Rect(ctx.new.discard),
                         face_a=None, face_b=card, lift=50, hide_dst=("discard", 0), flip_at=(0.0, 0.3)))
    else:
        t0 = _slot(ctx, ev, WRONG_QUEUE_MS)
        for sid, card in zip(slots, cards):
            a.add(Reveal(t0, t0 + WRONG_MS, place=("slot", sid), card=card))
            a.add(Shake(t0 + 250, t0 + 750, place=("slot", sid), amp=ctx.rect(sid).w * 0.12))


def _on_safe_swap(ctx: FxContext, ev: Mapping[str, Any]) -> None:
    a = ctx.anim
    seat = ev.get("seat")
    sid, idx = ev.get("slot"), int(ev.get("index", 0))
    r = ctx.rect(sid, seat)
    sr = pygame.Rect(ctx.new.safe[idx % 4])
    t0 = _slot(ctx, ev, SAFE_MS)
    a.add(Flight(t0, t0 + SAFE_MS, src=r, dst=sr, lift=40, hide_dst=("safe", idx)))
    a.add(Flight(t0, t0 + SAFE_MS, src=sr, dst=r, lift=-40, hide_dst=("slot", sid)))


def _on_marker_placed(ctx: FxContext, ev: Mapping[str, Any]) -> None:
    a = ctx.anim
    seat = ev.get("seat")
    t0 = _slot(ctx, ev, TOKEN_MS)
    src = ctx.new.discard.center
    if ev.get("kind") == "mamma":
        dst_r = ctx.new.seats[seat].mamma if seat in ctx.new.seats else ctx.new.discard
        place = ("mamma", seat)
    else:
        dst_r = token_rect(ctx.rect(ev.get("slot"), seat))
        place = ("patrol", ev.get("slot"))
    a.add(TokenFlight(t0, t0 + TOKEN_MS, kind=str(ev.get("kind")), src=src, dst=dst_r.center,
                      d=dst_r.w, hide_dst=place))


def _on_marker_removed(ctx: FxContext, ev: Mapping[str, Any]) -> None:
    a = ctx.anim
    seat = ev.get("seat")
    t0 = _slot(ctx, ev, TOKEN_MS)
    if ev.get("kind") == "mamma":
        src_r = ctx.old.seats[seat].mamma if seat in ctx.old.seats else ctx.new.discard
    else:
        src_r = token_rect(ctx.rect(ev.get("slot"), seat))
    a.add(TokenFlight(t0, t0 + TOKEN_MS, kind=str(ev.get("kind")), src=src_r.center,
                      dst=ctx.new.discard.center, d=src_r.w, hide_dst=("discard", 0)))


def _on_reshuffle(ctx: FxContext, ev: Mapping[str, Any]) -> None:
    a = ctx.anim
    t0 = _slot(ctx, ev, RESHUFFLE_MS)
    for i in range(RESHUFFLE_CARDS):
        s = t0 + i * RESHUFFLE_STAGGER_MS
        a.add(Flight(s, s + RESHUFFLE_FLIGHT_MS, src=pygame.Rect(ctx.new.discard), dst=pygame.Rect(ctx.new.draw_pile),
                     lift=30, spin=20))


def _on_omerta(ctx: FxContext, ev: Mapping[str, Any]) -> None:
    a = ctx.anim
    t0 = _slot(ctx, ev, OMERTA_QUEUE_MS)
    w, h = ctx.new.size
    a.add(Banner(t0, t0 + OMERTA_MS, text="OMERTA!", colour=(255, 80, 70), centre=(w / 2, h * 0.45),
                 size=int(h * 0.16)))


#: event type -> its handler (``_on_<type>``); other events: nothing.
_HANDLERS: dict[str, Callable[..., Any]] = {
    "round_started": _on_round_started,
    "look": _on_look,
    "draw": _on_draw,
    "replace": _on_replace,
    "discard": _on_discard,
    "window_opened": _on_window_opened,
    "snap": _on_snap,
    "counter": _on_snap,
    "penalty": _on_penalty,
    "give": _on_penalty,
    "swap": _on_swap,
    "shuffle": _on_shuffle,
    "driver": _on_driver,
    "safe_swap": _on_safe_swap,
    "marker_placed": _on_marker_placed,
    "marker_removed": _on_marker_removed,
    "reshuffle": _on_reshuffle,
    "omerta": _on_omerta,
}


#: Queue the animation of one event (its ``_on_<type>`` handler; other events have none).
animate = event_animator(_HANDLERS)


def token_rect(slot: pygame.Rect) -> pygame.Rect:
    """Where a Police Patrol token sits on a card (its top-right corner)."""
    d = max(12, int(slot.w * 0.46))
    r = pygame.Rect(0, 0, d, d)
    r.center = (slot.right - d // 4, slot.top + d // 4)
    return r
