"""Private cards on the Mafiosi table: your won cards on demand, and the hand-over
screen of couch play where a seat also *plays*.

* :class:`WonCardsScene` -- the cards you won this round (and your bouncer), shown over
  the table at any moment (a button, your pile, or your reveal key); any key or click
  closes it. Others' piles are only a count on their plates.
* :class:`MafiosiHandover` -- the kit's hand-over screen
  (:class:`client.table.handover.HandoverScene`: a cover first, "others look away")
  showing the seat's hand fanned with its playable cards raised, its bouncer and its won
  cards; the seat's prev / next keys move a cursor, confirm (or a click) picks the card:
  a card to play, or a point card among its won cards. The bouncer -- secret, and for the
  whole round -- takes two steps: the keys or a click select a card (nothing is selected
  at first, and the pointer passing over a card selects nothing), then the seat's
  confirm key or the Confirm button places it; Esc drops the selection. A card that may
  not be used says why. The kit's screen only shows cards; Mafiosi couch players must also pick
  a card they cannot see on the shared screen, hence this subclass (the kit could offer
  a "pick one of these cards" hand-over).
"""
from __future__ import annotations

from typing import Any

import pygame

from client import text
from client.games.mafiosi import picker
from client.games.mafiosi.layout import fan, sort_hand
from client.i18n import tr
from client.input import CONFIRM, NEXT, PASS, PREV, SNAP
from client.table.draw import CREAM, DIM, GOLD, panel, wrapped
from client.table.handover import HandoverScene
from client.table.layout import card_size
from client.ui.scene import Scene
from client.ui.widgets import button

PICK_S = 45.0  # how long the hand stays shown while a card is to be picked
RED = (255, 130, 110)


class WonCardsScene(Scene):
    """``seat``'s won cards and bouncer over the table."""

    overlay = True

    def __init__(self, app: Any, table: Any, seat: int):
        super().__init__(app)
        self.table, self.seat = table, seat
        self.t = 0.0

    def update(self, dt: float) -> None:
        self.t += dt

    def handle_event(self, event: pygame.event.Event, t_ms: float) -> None:
        if event.type in (pygame.KEYDOWN, pygame.MOUSEBUTTONDOWN, pygame.JOYBUTTONDOWN) and self.t > 0.15:
            self.app.pop()

    def on_message(self, msg: dict[str, Any], link: Any = None) -> None:
        pass

    def draw(self, surface: pygame.Surface) -> None:
        w, h = surface.get_size()
        won = self.table.won_of(self.seat)
        bouncer = self.table.bouncer_of(self.seat)
        box = pygame.Rect(int(w * 0.10), int(h * 0.16), int(w * 0.80), int(h * 0.60))
        surface.blit(panel(box.w, box.h, h // 40, 225), box.topleft)
        pygame.draw.rect(surface, GOLD, box, 3, border_radius=h // 40)
        fs = max(14, int(h * 0.032))
        title = tr("maf.won_title", n=str(len(won)))
        img = text.render(title, int(fs * 1.3), GOLD, bold=True, shadow=True)
        surface.blit(img, img.get_rect(midtop=(box.centerx, box.y + fs // 2)))
        area = pygame.Rect(box.x + fs, box.y + int(fs * 2.6), box.w - 2 * fs, box.h - int(fs * 5.2))
        _card_rows(surface, self.app.art, area, [(c, "") for c in won], fs,
                   empty=tr("maf.won_none"))
        lines = []
        if bouncer:
            lines.append(tr("maf.won_bouncer"))
        lines.append(tr("maf.won_close"))
        hint = text.render("  ·  ".join(lines), int(fs * 0.8), DIM)
        surface.blit(hint, hint.get_rect(midbottom=(box.centerx, box.bottom - fs // 2)))


def _card_rows(surf: pygame.Surface, art: Any, area: pygame.Rect, cards: list[tuple[Any, str]], fs: int,
               empty: str = "") -> list[pygame.Rect]:
    """``cards`` as big as fit in ``area`` (one or two rows); returns their rects."""
    if not cards:
        if empty:
            img = text.render(empty, fs, DIM)
            surf.blit(img, img.get_rect(center=area.center))
        return []
    rows = 1 if len(cards) <= 9 else 2
    per = -(-len(cards) // rows)
    ch = min(area.h / rows * 0.92, area.w / per / 0.78)
    size = card_size(ch)
    out = []
    for r_i in range(rows):
        chunk = cards[r_i * per:(r_i + 1) * per]
        row = pygame.Rect(area.x, area.y + r_i * area.h // rows, area.w, area.h // rows)
        for (card, lab), rect in zip(chunk, fan(len(chunk), row, size, gap_ratio=0.08)):
            img, m = art.shadowed(card, rect.w, rect.h)
            surf.blit(img, (rect.x - m, rect.y - m))
            out.append(rect)
    return out


class MafiosiHandover(HandoverScene):
    """A couch seat's hand-over screen where it also picks its card (see module doc)."""

    def __init__(self, app: Any, table: Any, seat: int):
        super().__init__(app, table, seat)
        self.cursor: int | None = None  # the card under the keys' cursor: the one selected
        self.note = ""
        self.b_confirm: Any = None

    # -- what is shown ------------------------------------------------------------------
    def legal(self) -> list[dict[str, Any]]:
        return self.table.legal.get(self.seat, [])

    def pickable(self) -> list[dict[str, Any]]:
        """The cards the cursor moves over: the hand, or (point card) the won cards and bouncer."""
        if picker.kind(self.legal()) == "keep_point_card":
            cards = list(self.table.won_of(self.seat))
            b = self.table.bouncer_of(self.seat)
            return cards + ([b] if b else [])
        return list(sort_hand(self.table.hand_of(self.seat)))

    def asks_bouncer(self) -> bool:
        """The seat has its bouncer to choose: select first, then confirm."""
        return picker.kind(self.legal()) == "choose_bouncer"

    def build(self, size: tuple[int, int]) -> None:
        """The kit's Show / Hide button; while a bouncer is chosen, Hide and a Confirm
        button side by side (Confirm off until a card is selected)."""
        self.b_confirm = None
        if not (self.showing and self.asks_bouncer()):
            super().build(size)
            return
        w, h = size
        s = self.app.ui_scale
        gap = int(20 * s)
        hide = pygame.Rect(0, 0, int(260 * s), int(54 * s))
        hide.bottomright = (w // 2 - gap // 2, int(h * 0.90))
        button(self, hide, "handover.hide", command=self.close)
        self.b_confirm = button(self, hide.move(hide.w + gap, 0), "maf.act.confirm_bouncer", object_id="#primary",
                                command=self.confirm)
        if self.cursor is None:
            self.b_confirm.disable()

    def show(self) -> None:
        offered = picker.choices(self.legal())
        cards = self.pickable()
        # a bouncer starts with nothing selected: only a key or a click of the seat selects one
        self.cursor = None if self.asks_bouncer() else \
            next((int(c["id"]) for c in cards if int(c["id"]) in offered), None)
        super().show()

    def select(self, cid: int | None) -> None:
        """``cid`` becomes the selected card (None: none); the Confirm button follows."""
        if cid != self.cursor:
            self.cursor = cid
            self.note = ""
            if self.asks_bouncer():
                self.rebuild()

    def confirm(self) -> None:
        """Place the selected card (the Confirm button, the seat's confirm key)."""
        if self.cursor is None:
            self.note = tr("maf.msg.pick_bouncer")
            return
        self.choose(self.cursor)

    def card_rects(self, size: tuple[int, int]) -> dict[int, pygame.Rect]:
        """Where each card the seat may pick is drawn on a ``size`` (w, h px) screen,
        the offered ones raised, by card id (drawing and clicks both use it)."""
        w, h = size
        offered = picker.choices(self.legal())
        cards = self.pickable()
        ch = min(h * 0.30, (w * 0.9) / max(1, len(cards)) / 0.74 if len(cards) > 6 else h * 0.30)
        row = pygame.Rect(int(w * 0.05), int(h * 0.24), int(w * 0.90), int(card_size(ch)[1] + h * 0.05))
        out = {}
        for c, r in zip(cards, fan(len(cards), row, card_size(ch), gap_ratio=0.10)):
            cid = int(c["id"])
            out[cid] = r.move(0, -int(h * 0.03)) if cid in offered else r
        return out

    def card_at(self, pos: tuple[int, int]) -> int | None:
        """The card under ``pos`` (the topmost of the fan), None for none."""
        rects = self.card_rects(self.app.size)
        return next((cid for cid, r in reversed(list(rects.items())) if r.collidepoint(pos)), None)

    def update(self, dt: float) -> None:
        self.t += dt
        limit = PICK_S if (self.showing and picker.kind(self.legal())) else None
        if self.showing and limit is not None:
            if self.t > limit:
                self.close()
            return
        HandoverScene.update(self, 0.0)

    # -- input --------------------------------------------------------------------------
    def handle_event(self, event: pygame.event.Event, t_ms: float) -> None:
        binding = self.table.bindings.get(self.seat)
        cmd = binding.command(event) if binding is not None else None
        bouncer = self.showing and self.asks_bouncer()
        if self.showing and cmd is not None and cmd[0] in (PREV, NEXT):
            ids = [int(c["id"]) for c in self.pickable()]
            if ids:
                i = ids.index(self.cursor) if self.cursor in ids else -1
                self.select(ids[(i + (1 if cmd[0] == NEXT else -1)) % len(ids)])
            return
        if bouncer and cmd is not None and cmd[0] in (CONFIRM, SNAP, PASS):
            if cmd[0] == CONFIRM:
                self.confirm()
            return  # the seat's other keys never place a bouncer
        if self.showing and cmd is not None and cmd[0] in (CONFIRM, SNAP, PASS):
            if self.cursor is not None:
                self.choose(self.cursor)
            return
        if bouncer and event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE and self.cursor is not None:
            self.select(None)  # Esc drops the selection only
            return
        if self.showing and event.type == pygame.MOUSEMOTION:
            if not bouncer:  # the cursor follows the pointer; a bouncer is only ever selected on purpose
                self.cursor = next((cid for cid, r in self.card_rects(self.app.size).items()
                                    if r.collidepoint(event.pos)), self.cursor)
            return
        if self.showing and event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            hit = self.card_at(event.pos)
            if hit is not None and bouncer:
                if hit in picker.choices(self.legal()):
                    self.select(hit)
                else:
                    self.choose(hit)  # not offered: says why
                return
            if hit is not None:
                self.cursor = hit
                self.choose(hit)
                return
        if cmd is not None and cmd[0] == CONFIRM and not self.showing:
            self.show()
            return
        super().handle_event(event, t_ms)

    def choose(self, cid: int) -> None:
        action = picker.choices(self.legal()).get(cid)
        if action is None:
            card = next((c for c in self.table.hand_of(self.seat) if c.get("id") == cid), None)
            self.note = (card or {}).get("reason") or tr("maf.msg.wait")
            return
        self.table.send(self.seat, action)
        self.close()

    # -- drawing ------------------------------------------------------------------------
    def draw(self, surface: pygame.Surface) -> None:
        if not self.showing:
            super().draw(surface)
            return
        w, h = surface.get_size()
        surface.fill((14, 9, 8))
        name = self.table.roster.seat_name(self.seat)
        fs = max(14, int(h * 0.03))
        title = text.render(tr("handover.only", name=name), int(h * 0.055), GOLD, bold=True, shadow=True)
        surface.blit(title, title.get_rect(center=(w // 2, int(h * 0.07))))
        kind = picker.kind(self.legal())
        keys = self.table.keys_of(self.seat)
        ask = {"choose_bouncer": "maf.handover.ask_bouncer", "play": "maf.handover.ask_play",
               "keep_point_card": "maf.handover.ask_point"}.get(kind or "", "maf.handover.look")
        sub = text.render(tr(ask, prev=keys.get("prev", "?"), next=keys.get("next", "?"),
                             confirm=keys.get("confirm", "?")), fs, CREAM)
        surface.blit(sub, sub.get_rect(center=(w // 2, int(h * 0.14))))
        duty = self.table.controls.duty_line(self.table.view) if kind == "play" else ""
        if duty:
            d = text.render(duty, fs, (255, 226, 140), bold=True)
            surface.blit(d, d.get_rect(center=(w // 2, int(h * 0.19))))
        offered = picker.choices(self.legal())
        cards = self.pickable()
        rects = self.card_rects((w, h))
        row_bottom = max((r.bottom for r in rects.values()), default=int(h * 0.24)) + int(h * 0.03)
        for c in cards:
            cid = int(c["id"])
            r = rects[cid]
            img, m = self.app.art.shadowed(c, r.w, r.h)
            surface.blit(img, (r.x - m, r.y - m))
            if kind and cid not in offered:
                veil = pygame.Surface(r.size, pygame.SRCALPHA)
                veil.fill((0, 0, 0, 110))
                surface.blit(veil, r.topleft)
            if cid == self.cursor:
                g = self.app.art.outline(r.w, r.h, (110, 200, 255), max(3, r.w // 16))
                surface.blit(g, g.get_rect(center=r.center))
        y = row_bottom + int(h * 0.02)
        cur = next((c for c in cards if int(c["id"]) == self.cursor), None)
        reason = (cur or {}).get("reason") if kind in ("choose_bouncer", "play") else None
        note = reason or self.note
        if note:
            for line in wrapped(note, int(w * 0.8), fs):
                img = text.render(line, fs, RED, bold=True)
                surface.blit(img, img.get_rect(midtop=(w // 2, y)))
                y += img.get_height()
        # the bouncer and the won cards, smaller
        if kind != "keep_point_card":
            extra = []
            b = self.table.bouncer_of(self.seat)
            if b:
                extra.append((tr("maf.handover.bouncer"), [b]))
            won = self.table.won_of(self.seat)
            extra.append((tr("maf.handover.won_n", n=str(len(won))), won))
            sy = int(h * 0.64)
            sx = int(w * 0.06)
            sch = int(h * 0.14)
            ssize = card_size(sch)
            for label, group in extra:
                lab = text.render(label, int(fs * 0.85), GOLD, bold=True)
                surface.blit(lab, (sx, sy))
                area = pygame.Rect(sx, sy + lab.get_height() + 4, max(ssize[0], int(w * (0.12 if len(group) <= 1
                                                                                      else 0.70))), ssize[1])
                for c, r in zip(group, fan(len(group), area, ssize, gap_ratio=0.05)):
                    img, m = self.app.art.shadowed(c, r.w, r.h)
                    surface.blit(img, (r.x - m, r.y - m))
                sx = area.right + int(w * 0.04)
        hint = text.render(tr("maf.handover.hide", reveal=keys.get("reveal", "?")), int(fs * 0.85), DIM)
        surface.blit(hint, hint.get_rect(center=(w // 2, int(h * 0.95))))
