"""Family Business events turned into table animations (ARCHITECTURE §6: events drive
tweens).

:func:`animate` gets one wire event, the layouts before and after the update, and
queues effects on the scene's :class:`~client.animation.Animator`, each event after the
previous one: a played card flies from the player to the discard pile and turns face up
(the counter window's ``t_shown`` is the moment it lands), a counter card flies in with
a gold glow and "COUNTERED!", a mobster walks from its gang's front to its place on the
wall (or back), an execution sends it to the cemetery with a red glow, a dead mobster
comes back from the cemetery, the war's start and end are announced across the wall,
the turn light moves with a word on the new player's plate. Nothing here changes the
game: the table is drawn from the server's view; a flying card only hides its place
until it lands.
"""
from __future__ import annotations

from typing import Any, Callable, Mapping

import pygame

from client import tween
from client.animation import Animator, Banner, Flight, event_animator
from client.games.family_business.layout import FBLayout
from client.i18n import tr
from shared.games.family_business.showing import (  # durations (ms), as the bots pace by them
    BANNER_MS, BANNER_QUEUE_MS, COUNTER_MS, COUNTERED_AT, COUNTERED_MS, DRAW_MS, EXECUTED_MS, KILL_MS, PLAY_MS,
    RESHUFFLE_CARDS, RESHUFFLE_FLIGHT_MS, RESHUFFLE_MS, RESHUFFLE_STAGGER_MS, TURN_MS, TURN_QUEUE_MS, WALK_MS)

GOLD = (255, 214, 102)
RED = (255, 90, 80)
GREEN = (140, 230, 140)



class FxContext:
    """What the effects need from the scene: ``anim``, the clock ``t`` (ms), layouts
    ``old``/``new``, ``shown(place)`` the rect a place is drawn at now (None: not on
    screen), the previous view, ``window_face(wid, at)`` to report when the card that
    opened a window is shown, and ``local`` the seats played on this screen."""

    def __init__(self, anim: Animator, t: float, old: FBLayout, new: FBLayout,
                 shown: Callable[[tuple[str, int]], pygame.Rect | None], prev_view: Mapping[str, Any],
                 window_face: Callable[[int, float], None] | None = None, local: set[int] | None = None):
        self.anim, self.t, self.old, self.new = anim, t, old, new
        self.shown = shown
        self.prev_view = prev_view
        self.window_face = window_face or (lambda _w, _t: None)
        self.local = local or set()
        self.last_face_at = t  # scene time the latest played card is face up on the discard pile
        self.where: dict[int, pygame.Rect] = {}  # mobster -> where this update's effects left it

    def mob_from(self, mid: int) -> pygame.Rect:
        """Where mobster ``mid`` is now on screen (before this event moves it)."""
        r = self.where.get(mid) or self.shown(("mob", mid)) or self.old.mob_rect(mid)
        if r is None:
            seat = self.old.seats.get(mid // 9) or self.new.seats.get(mid // 9)
            r = _small(seat.plate, self.new.wall_mob) if seat is not None else self.new.wall
        return pygame.Rect(r)

    def mob_to(self, mid: int, index: int | None = None) -> pygame.Rect:
        """Where mobster ``mid`` ends up: its place in the new layout, else its list place."""
        r = self.new.mob_rect(mid)
        if r is None and index is not None and 0 <= index < len(self.new.wall_slots):
            r = self.new.wall_slots[index]
        if r is None:
            r = _small(self.new.wall, self.new.wall_mob)
        return pygame.Rect(r)

    def seat_rect(self, seat: Any, size: tuple[int, int]) -> pygame.Rect:
        """A card-sized rect on a seat's plate (where its cards come from and go)."""
        area = self.new.seats.get(seat) if isinstance(seat, int) else None
        return _small(area.plate if area is not None else self.new.draw_pile, size)

    def hand_rect(self, seat: Any, card: Any) -> pygame.Rect:
        """Where a card of ``seat``'s hand is (your own cards), else its plate."""
        cid = card.get("id") if isinstance(card, Mapping) else None
        r = self.shown(("card", cid)) if cid is not None else None
        if cid is not None:
            r = r or self.old.hand.get(cid) or self.new.hand.get(cid)
        return pygame.Rect(r) if r is not None else self.seat_rect(seat, self.new.pile_card)


def _small(r: pygame.Rect, size: tuple[int, int]) -> pygame.Rect:
    out = pygame.Rect(0, 0, max(8, size[0]), max(8, size[1]))
    out.center = r.center
    return out


def _id(card: Any) -> int | None:
    if isinstance(card, Mapping) and isinstance(card.get("id"), int):
        return int(card["id"])
    return card if isinstance(card, int) else None


def _slot(ctx: FxContext, ev: Mapping[str, Any], duration: float) -> float:
    """The start (scene ms) of an effect of ``duration`` ms for ``ev``: after the effects
    queued before it, or at once for an urgent event."""
    # a played card may open a counter window: it must be readable at once (t_shown, fairness)
    kind = ev.get("type")
    seat = ev.get("seat")
    urgent = kind in ("play", "counter") or (kind == "draw" and seat in ctx.local)
    return ctx.anim.slot(ctx.t, duration, urgent=urgent)


def _on_turn(ctx: FxContext, ev: Mapping[str, Any]) -> None:
    a = ctx.anim
    seat = ev.get("seat")
    new = ctx.new
    area = new.seats.get(seat) if isinstance(seat, int) else None
    a.supersede("turn")  # the turn moved: an earlier "to play" still waiting or showing goes
    if area is not None:
        t0 = _slot(ctx, ev, TURN_QUEUE_MS)
        a.add(Banner(t0, t0 + TURN_MS, text=tr("fb.table.turn_pill"), colour=GOLD, centre=area.plate.center,
                     size=max(14, int(area.plate.h * 0.8)), tag="turn"))


def _on_draw(ctx: FxContext, ev: Mapping[str, Any]) -> None:
    a = ctx.anim
    seat = ev.get("seat")
    new = ctx.new
    card = ev.get("card")
    cid = _id(card)
    dst = new.hand.get(cid) if cid is not None else None
    t0 = _slot(ctx, ev, DRAW_MS)
    if dst is not None:
        a.add(Flight(t0, t0 + DRAW_MS, src=pygame.Rect(new.draw_pile), dst=pygame.Rect(dst), face_a=None,
                     face_b=card, lift=30, hide_dst=("card", cid), flip_at=(0.3, 0.8)))
    else:
        a.add(Flight(t0, t0 + DRAW_MS, src=pygame.Rect(new.draw_pile),
                     dst=ctx.seat_rect(seat, (new.pile_card[0] // 2, new.pile_card[1] // 2)), lift=24,
                     early=False))


def _on_play(ctx: FxContext, ev: Mapping[str, Any]) -> None:
    a = ctx.anim
    seat = ev.get("seat")
    new = ctx.new
    card = ev.get("card")
    src = ctx.hand_rect(seat, card)
    mine = _id(card) in ctx.old.hand
    t0 = _slot(ctx, ev, PLAY_MS)
    a.add(Flight(t0, t0 + PLAY_MS, src=src, dst=pygame.Rect(new.discard), face_a=card if mine else None,
                 face_b=card, lift=50, hide_dst=("discard", 0), flip_at=(0.0, 0.3),
                 easing=tween.ease_out_cubic, early=False))
    ctx.last_face_at = t0 + PLAY_MS * 0.3


def _on_window_opened(ctx: FxContext, ev: Mapping[str, Any]) -> None:
    ctx.window_face(int(ev.get("window", 0)), ctx.last_face_at)


def _on_counter(ctx: FxContext, ev: Mapping[str, Any]) -> None:
    a = ctx.anim
    seat = ev.get("seat")
    new = ctx.new
    card = ev.get("card")
    t0 = _slot(ctx, ev, COUNTER_MS)
    a.add(Flight(t0, t0 + COUNTER_MS, src=ctx.hand_rect(seat, card), dst=pygame.Rect(new.discard), face_a=card,
                 face_b=card, lift=70, hide_dst=("discard", 0), glow=GOLD, spin=14,
                 easing=tween.ease_out_cubic, early=False))
    a.add(Banner(t0 + COUNTER_MS * COUNTERED_AT, t0 + COUNTER_MS + COUNTERED_MS, text=tr("fb.table.countered"), colour=GOLD,
                 centre=(new.discard.centerx, new.discard.top - new.discard.h * 0.1),
                 size=max(18, int(new.discard.h * 0.22))))


def _on_placed(ctx: FxContext, ev: Mapping[str, Any]) -> None:
    kind = ev.get("type")
    a = ctx.anim
    moves: list[tuple[Any, int | None]] = [(ev.get("mobster"), ev.get("index"))]
    if kind == "swapped":
        moves = [(ev.get("mobster"), ev.get("index")), (ev.get("other"), ev.get("other_index"))]
    elif kind == "substituted":
        moves = [(ev.get("other"), ev.get("index")), (ev.get("mobster"), None)]
    elif kind == "returned":
        moves = [(ev.get("mobster"), None)]
    t0 = _slot(ctx, ev, WALK_MS)
    for m, index in moves:
        mid = _id(m)
        if mid is None:
            continue
        src = ctx.mob_from(mid)
        dst = ctx.mob_to(mid, index if isinstance(index, int) else None)
        ctx.where[mid] = dst
        a.add(Flight(t0, t0 + WALK_MS, src=src, dst=dst, face_a=m, face_b=m, lift=40 if kind != "moved" else 20,
                     hide_dst=("mob", mid), glow=RED if kind == "placed" else None))


def _on_revived(ctx: FxContext, ev: Mapping[str, Any]) -> None:
    a = ctx.anim
    new = ctx.new
    m = ev.get("mobster")
    mid = _id(m)
    if mid is not None:
        t0 = _slot(ctx, ev, KILL_MS)
        dst = ctx.mob_to(mid, ev.get("index") if isinstance(ev.get("index"), int) else None)
        ctx.where[mid] = dst
        a.add(Flight(t0, t0 + KILL_MS, src=_small(new.cemetery, new.wall_mob), dst=dst, face_a=m, face_b=m,
                     lift=60, hide_dst=("mob", mid), glow=GREEN, early=False))


def _on_killed(ctx: FxContext, ev: Mapping[str, Any]) -> None:
    a = ctx.anim
    new = ctx.new
    m = ev.get("mobster")
    mid = _id(m)
    if mid is not None:
        src = ctx.mob_from(mid)
        t0 = _slot(ctx, ev, KILL_MS)
        a.add(Flight(t0, t0 + KILL_MS, src=src, dst=_small(new.cemetery, new.wall_mob), face_a=m, face_b=m,
                     lift=50, glow=RED, spin=8, hide_dst=("rip", 0)))
        if ev.get("cause") == "war":
            a.add(Banner(t0, t0 + EXECUTED_MS, text=tr("fb.table.executed_banner"), colour=RED,
                         centre=src.center, size=max(14, int(src.h * 0.28))))
        ctx.where.pop(mid, None)


def _banner(ctx: FxContext, ev: Mapping[str, Any], key: str, colour: Any, over: pygame.Rect,
            height: float, least: int) -> None:
    """A banner (string ``key``) over ``over``, its text ``height`` of that rect's height
    (at least ``least`` px), in the event's time slot."""
    t0 = _slot(ctx, ev, BANNER_QUEUE_MS)
    ctx.anim.add(Banner(t0, t0 + BANNER_MS, text=tr(key), colour=colour, centre=over.center,
                        size=max(least, int(over.h * height))))


def _on_eliminated(ctx: FxContext, ev: Mapping[str, Any]) -> None:
    seat = ev.get("seat")
    area = ctx.new.seats.get(seat) if isinstance(seat, int) else None
    if area is not None:
        _banner(ctx, ev, "fb.table.out_banner", RED, area.zone, 0.25, 18)


def _on_war_started(ctx: FxContext, ev: Mapping[str, Any]) -> None:
    _banner(ctx, ev, "fb.table.war_banner", RED, ctx.new.wall, 0.30, 24)


def _on_war_ended(ctx: FxContext, ev: Mapping[str, Any]) -> None:
    _banner(ctx, ev, "fb.table.truce_banner", GREEN, ctx.new.wall, 0.30, 24)


def _on_reshuffle(ctx: FxContext, ev: Mapping[str, Any]) -> None:
    a = ctx.anim
    new = ctx.new
    t0 = _slot(ctx, ev, RESHUFFLE_MS)
    for i in range(RESHUFFLE_CARDS):
        s = t0 + i * RESHUFFLE_STAGGER_MS
        a.add(Flight(s, s + RESHUFFLE_FLIGHT_MS, src=pygame.Rect(new.discard), dst=pygame.Rect(new.draw_pile),
                     lift=30, spin=20, early=False))


#: event type -> its handler (``_on_<type>``); other events: nothing.
_HANDLERS: dict[str, Callable[..., Any]] = {
    "turn": _on_turn,
    "draw": _on_draw,
    "play": _on_play,
    "void": _on_play,
    "window_opened": _on_window_opened,
    "counter": _on_counter,
    "placed": _on_placed,
    "collected": _on_placed,
    "returned": _on_placed,
    "moved": _on_placed,
    "substituted": _on_placed,
    "swapped": _on_placed,
    "revived": _on_revived,
    "killed": _on_killed,
    "eliminated": _on_eliminated,
    "war_started": _on_war_started,
    "war_rate": _on_war_started,
    "war_ended": _on_war_ended,
    "reshuffle": _on_reshuffle,
}


#: Queue the animation of one event (its ``_on_<type>`` handler; other events have none).
animate = event_animator(_HANDLERS)
