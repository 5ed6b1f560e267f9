"""Mafiosi's game events turned into table animations (events drive tweens).

:func:`animate` gets one wire event as the display link received it, the layouts
before and after the update, and queues effects on the scene's
:class:`~client.animation.Animator`: a deal sends the cards from the middle to the
hands; a bouncer slides face down from its hand to its place, and the bouncers all turn
over together when revealed; every card played flies from its player's hand to its
place in the trick (turning face up); a full trick stays a moment in the middle, then
slides to its winner's pile; a point card kept goes from the pile to the plate. Each
event's animation starts after the previous one (``Animator.slot``), your own moves at
once. Nothing here changes the game: the table is drawn from the server's view; effects
only hide a place (``("trick", id)``, ``("hand", id)``, ``("bouncer", seat)``) until
their card lands, and :class:`Still` keeps a finished trick on screen until it leaves.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Mapping

import pygame

from client import tween
from client.animation import Animator, Banner, Effect, Flight, event_animator
from client.cards import CardArt
from client.games.mafiosi.layout import MafiosiLayout
from client.i18n import tr
from shared.games.mafiosi.showing import (  # durations (ms), as the bots pace by them
    BOUNCER_MS, DEAL_MS, DEAL_STAGGER_MS, HOLD_MS, LEADER_MS, LEADER_QUEUE_MS, PLAY_MS, POINT_MS, REVEAL_MS,
    REVEAL_QUEUE_EXTRA_MS, ROUND_MS, ROUND_QUEUE_MS, SCORED_MS, SWEEP_MS, SWEEP_STAGGER_MS, TRUMP_AFTER_MS)

GOLD = (255, 214, 102)
RED = (255, 120, 100)



@dataclass
class Still(Effect):
    """A card lying at ``rect`` (face up) between ``t0`` and ``t1``: a full trick shown
    a moment before it leaves (the view no longer has it)."""

    rect: pygame.Rect = field(default_factory=pygame.Rect)
    card: Mapping[str, Any] | None = None

    def draw(self, surf: pygame.Surface, art: CardArt, t: float) -> None:
        if self.active(t):
            img, m = art.shadowed(self.card, self.rect.w, self.rect.h)
            surf.blit(img, (self.rect.x - m, self.rect.y - m))

    def bounds(self, t: float, art: CardArt) -> list[pygame.Rect] | None:
        if not self.active(t):
            return []
        img, m = art.shadowed(self.card, self.rect.w, self.rect.h)  # its shadow falls right and down
        return [pygame.Rect(self.rect.x - m, self.rect.y - m, img.get_width(), img.get_height())]


class FxContext:
    """What :func:`animate` needs: ``anim``, the clock ``t`` (ms), ``me`` the seat whose
    private cards this screen shows (None: none), the layouts ``old``/``new``,
    ``shown(place)`` where a card is drawn right now (None: not on screen), ``local``
    the seats played here, ``prev_view`` the view before the update."""

    def __init__(self, anim: Animator, t: float, me: int | None, old: MafiosiLayout, new: MafiosiLayout,
                 shown: Callable[[tuple[str, int]], pygame.Rect | None], local: set[int],
                 prev_view: Mapping[str, Any]):
        self.anim, self.t, self.me = anim, t, me
        self.old, self.new = old, new
        self.shown = shown
        self.local = local
        self.trick_pos = len(prev_view.get("trick") or [])  # where the next card of the trick goes
        self.landed: dict[int, float] = {}  # card id -> when its flight to the trick lands

    def was(self, place: tuple[str, int]) -> pygame.Rect | None:
        r = self.shown(place)
        if r is not None:
            return pygame.Rect(r)
        r = self.old.cards.get(place)
        return pygame.Rect(r) if r is not None else None

    def seat_area(self, seat: int) -> Any:
        return self.new.seats.get(seat) or self.old.seats.get(seat)


def _id(card: Any) -> int | None:
    return int(card["id"]) if isinstance(card, Mapping) and "id" in card else None


def _slot(ctx: FxContext, ev: Mapping[str, Any], duration: float) -> float:
    """The start (scene ms) of an effect of ``duration`` ms for ``ev``: after the effects
    queued before it, or at once for an urgent event."""
    kind = ev.get("type")
    seat = ev.get("seat")
    urgent = seat in ctx.local and kind in ("play", "bouncer_chosen", "point_card_kept")
    return ctx.anim.slot(ctx.t, duration, urgent=urgent)


def _on_play(ctx: FxContext, ev: Mapping[str, Any]) -> None:
    a = ctx.anim
    seat = ev.get("seat")
    new, old = ctx.new, ctx.old
    if not (isinstance(seat, int) and seat in new.seats):
        return
    card = ev.get("card")
    cid = _id(card)
    if cid is None:
        return
    src = ctx.was(("hand", cid))
    visible = src is not None
    if src is None:
        src = old.hand_centre(seat) if seat in old.seats else new.hand_centre(seat)
    dst = new.cards.get(("trick", cid))
    hide = ("trick", cid) if dst is not None else None
    if dst is None:
        dst = new.trick_slots[min(ctx.trick_pos, len(new.trick_slots) - 1)]
    ctx.trick_pos += 1
    t0 = _slot(ctx, ev, PLAY_MS)
    a.add(Flight(t0, t0 + PLAY_MS, src=pygame.Rect(src), dst=pygame.Rect(dst), face_a=card if visible else None,
                 face_b=card, lift=28, hide_dst=hide, flip_at=(0.05, 0.55), easing=tween.ease_out_cubic,
                 early=False))
    ctx.landed[cid] = t0 + PLAY_MS


def _on_trick_won(ctx: FxContext, ev: Mapping[str, Any]) -> None:
    a = ctx.anim
    seat = ev.get("seat")
    new, old = ctx.new, ctx.old
    if not (isinstance(seat, int)):
        return
    cards = [c for c in ev.get("cards") or [] if isinstance(c, Mapping)]
    area = ctx.seat_area(seat)
    if area is None:
        return
    t0 = a.slot(ctx.t, HOLD_MS + SWEEP_MS)
    leave = t0 + HOLD_MS
    for i, c in enumerate(cards):
        cid = _id(c)
        r = old.cards.get(("trick", cid)) or new.trick_slots[min(i, len(new.trick_slots) - 1)]
        start = ctx.landed.get(cid, ctx.t) if cid is not None else ctx.t
        a.add(Still(start, leave, rect=pygame.Rect(r), card=c))
        go = leave + i * SWEEP_STAGGER_MS
        a.add(Flight(go, go + SWEEP_MS, src=pygame.Rect(r), dst=pygame.Rect(area.pile),
                     face_a=c, face_b=None, lift=20, flip_at=(0.35, 0.9), early=False))
    if ev.get("trump"):
        c = new.centre
        a.add(Banner(t0 + 100, leave + TRUMP_AFTER_MS, text=tr("maf.fx.trump"), colour=GOLD,
                     centre=(c.centerx, new.duty.centery + new.font), size=int(new.size[1] * 0.06)))
    ctx.trick_pos = 0


def _on_bouncer_chosen(ctx: FxContext, ev: Mapping[str, Any]) -> None:
    a = ctx.anim
    seat = ev.get("seat")
    new, old = ctx.new, ctx.old
    if not (isinstance(seat, int) and seat in new.seats):
        return
    card = ev.get("card")
    cid = _id(card)
    src = ctx.was(("hand", cid)) if cid is not None else None
    visible = src is not None
    if src is None:
        src = old.hand_centre(seat) if seat in old.seats else new.hand_centre(seat)
    dst = new.seats[seat].bouncer
    face_b = card if (seat == ctx.me and isinstance(card, Mapping)) else None
    t0 = _slot(ctx, ev, BOUNCER_MS)
    a.add(Flight(t0, t0 + BOUNCER_MS, src=pygame.Rect(src), dst=pygame.Rect(dst),
                 face_a=card if visible else None, face_b=face_b, lift=24, hide_dst=("bouncer", seat),
                 flip_at=(0.1, 0.6), early=False))


def _on_bouncers_revealed(ctx: FxContext, ev: Mapping[str, Any]) -> None:
    a = ctx.anim
    new = ctx.new
    t0 = a.slot(ctx.t, REVEAL_MS + REVEAL_QUEUE_EXTRA_MS)
    for s, card in enumerate(ev.get("bouncers") or []):
        if not isinstance(card, Mapping) or s not in new.seats or s == ctx.me:
            continue
        r = pygame.Rect(new.seats[s].bouncer)
        a.add(Flight(t0, t0 + REVEAL_MS, src=r, dst=r, face_a=None, face_b=card, lift=0,
                     hide_dst=("bouncer", s), flip_at=(0.2, 0.8), early=False))


def _on_round_started(ctx: FxContext, ev: Mapping[str, Any]) -> None:
    a = ctx.anim
    new = ctx.new
    t0 = a.slot(ctx.t, ROUND_QUEUE_MS)
    c = new.centre
    a.add(Banner(t0, t0 + ROUND_MS, text=tr("maf.fx.round", n=str(ev.get("round", "?"))), colour=GOLD,
                 centre=(c.centerx, c.centery), size=int(new.size[1] * 0.07)))
    start = pygame.Rect(0, 0, *new.hand_card)
    start.center = c.center
    for s, area in new.seats.items():
        if s == ctx.me:
            continue
        for k in range(3):
            t1 = t0 + 200 + k * DEAL_STAGGER_MS * 2
            a.add(Flight(t1, t1 + DEAL_MS, src=pygame.Rect(start), dst=pygame.Rect(new.hand_centre(s)),
                         lift=16, early=False))


def _on_deal(ctx: FxContext, ev: Mapping[str, Any]) -> None:
    a = ctx.anim
    seat = ev.get("seat")
    new = ctx.new
    if not (isinstance(seat, int) and seat == ctx.me):
        return
    t0 = a.slot(ctx.t, 200)
    start = pygame.Rect(0, 0, *new.hand_card)
    start.center = new.centre.center
    for i, place in enumerate(new.order):
        dst = new.cards.get(place)
        if dst is None:
            continue
        card = next((c for c in ev.get("cards") or [] if _id(c) == place[1]), None)
        t1 = t0 + 250 + i * DEAL_STAGGER_MS
        a.add(Flight(t1, t1 + DEAL_MS, src=pygame.Rect(start), dst=pygame.Rect(dst), face_a=None, face_b=card,
                     lift=20, hide_dst=place, flip_at=(0.5, 0.95), early=False))


def _on_point_card_kept(ctx: FxContext, ev: Mapping[str, Any]) -> None:
    a = ctx.anim
    seat = ev.get("seat")
    new = ctx.new
    if not (isinstance(seat, int) and seat in new.seats):
        return
    area = new.seats[seat]
    card = ev.get("card")
    cid = _id(card)
    src = (ctx.was(("point", cid)) if cid is not None else None) or pygame.Rect(area.pile)
    dst = pygame.Rect(0, 0, area.card[0] // 2, area.card[1] // 2)
    dst.center = area.plate.center
    t0 = _slot(ctx, ev, POINT_MS)
    face = card if (seat == ctx.me and isinstance(card, Mapping)) else None
    a.add(Flight(t0, t0 + POINT_MS, src=pygame.Rect(src), dst=dst, face_a=face, face_b=None, lift=30,
                 glow=GOLD, flip_at=(0.5, 0.9), early=False))


def _on_round_scored(ctx: FxContext, ev: Mapping[str, Any]) -> None:
    kind = ev.get("type")
    a = ctx.anim
    new = ctx.new
    t0 = a.slot(ctx.t, SCORED_MS)
    c = new.centre
    key = "maf.fx.over" if kind == "match_over" else "maf.fx.scored"
    a.add(Banner(t0, t0 + SCORED_MS, text=tr(key), colour=GOLD, centre=(c.centerx, c.centery),
                 size=int(new.size[1] * 0.07)))


def _on_leader(ctx: FxContext, ev: Mapping[str, Any]) -> None:
    a = ctx.anim
    seat = ev.get("seat")
    new = ctx.new
    if not (isinstance(seat, int) and seat in new.seats):
        return
    t0 = a.slot(ctx.t, LEADER_QUEUE_MS)
    p = new.seats[seat].plate
    a.add(Banner(t0, t0 + LEADER_MS, text=tr("maf.fx.leads"), colour=GOLD,
                 centre=(p.centerx, p.centery), size=int(p.h * 0.9)))


#: event type -> its handler (``_on_<type>``); other events: nothing.
_HANDLERS: dict[str, Callable[..., Any]] = {
    "play": _on_play,
    "trick_won": _on_trick_won,
    "bouncer_chosen": _on_bouncer_chosen,
    "bouncers_revealed": _on_bouncers_revealed,
    "round_started": _on_round_started,
    "deal": _on_deal,
    "point_card_kept": _on_point_card_kept,
    "round_scored": _on_round_scored,
    "match_over": _on_round_scored,
    "leader": _on_leader,
}


#: Queue the animation of one event (its ``_on_<type>`` handler; other events have none).
animate = event_animator(_HANDLERS)
