"""The hand-over screen of couch play: one seat's private cards on the shared screen.

First a cover ("Seat 2 only — others look away"), then, when that seat presses its
reveal key again (or clicks Show), its private information as the game groups it
(``table.private_info`` and ``table.private_groups``: a look shown once, the card in
hand...; ``table.private_shown`` is told what was shown). It hides itself after
``SHOW_S`` seconds or on the reveal key. Other keys go on to the table underneath, so
nobody else's claim is lost meanwhile.
"""
from __future__ import annotations

from typing import Any

import pygame

from client import text
from client.i18n import tr
from client.input import REVEAL
from client.ui.scene import Scene
from client.ui.widgets import button

SHOW_S = 6.0
COVER_S = 15.0
CREAM = (243, 232, 207)
GOLD = (240, 207, 121)
DIM = (190, 178, 156)


class HandoverScene(Scene):
    overlay = True

    def __init__(self, app: Any, table: Any, seat: int):
        super().__init__(app)
        self.table = table
        self.seat = seat
        self.showing = False
        self.t = 0.0
        self.info: dict[str, Any] = {}

    def build(self, size: tuple[int, int]) -> None:
        w, h = size
        s = self.app.ui_scale
        r = pygame.Rect(0, 0, int(260 * s), int(54 * s))
        r.midbottom = (w // 2, int(h * 0.90))
        if self.showing:
            button(self, r, "handover.hide", command=self.close)
        else:
            button(self, r, "handover.show", object_id="#primary", command=self.show)

    def show(self) -> None:
        self.info = self.table.private_info(self.seat)
        self.showing = True
        self.t = 0.0
        self.table.private_shown(self.seat, self.info)
        self.rebuild()

    def close(self) -> None:
        self.app.pop()

    def handle_event(self, event: pygame.event.Event, t_ms: float) -> None:
        binding = self.table.bindings.get(self.seat)
        cmd = binding.command(event) if binding is not None else None
        if cmd is not None and cmd[0] == REVEAL:
            self.close() if self.showing else self.show()
            return
        if event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
            self.close()
            return
        if event.type in (pygame.KEYDOWN, pygame.JOYBUTTONDOWN, pygame.JOYHATMOTION):
            self.table.handle_event(event, t_ms)  # other seats keep playing (a snap is never lost)

    def on_message(self, msg: dict[str, Any], link: Any = None) -> None:
        pass

    def animating(self) -> bool:
        """Its countdown runs while it is up (a few seconds): full frame rate."""
        return True

    def update(self, dt: float) -> None:
        self.t += dt
        if (self.showing and self.t > SHOW_S) or (not self.showing and self.t > COVER_S):
            self.close()

    def draw(self, surface: pygame.Surface) -> None:
        w, h = surface.get_size()
        surface.fill((14, 9, 8))
        name = self.table.roster.seat_name(self.seat)
        keys = self.table.bindings[self.seat].describe() if self.seat in self.table.bindings else {}
        title = text.render(tr("handover.only", name=name), int(h * 0.075), GOLD, bold=True, shadow=True)
        surface.blit(title, title.get_rect(center=(w // 2, int(h * 0.14))))
        if not self.showing:
            sub = text.render(tr("handover.look_away"), int(h * 0.045), CREAM, bold=True)
            surface.blit(sub, sub.get_rect(center=(w // 2, int(h * 0.32))))
            hint = text.render(tr("handover.press", name=name, button=keys.get("reveal", "?")), int(h * 0.035), DIM)
            surface.blit(hint, hint.get_rect(center=(w // 2, int(h * 0.45))))
            return
        groups = self.table.private_groups(self.seat, self.info)
        ch = int(h * 0.30)
        cw = int(ch * 5 / 7)
        gap = int(cw * 0.18)
        total = sum(len(cards) * (cw + gap) for _, cards in groups) + gap * 3 * (len(groups) - 1)
        x = (w - total) // 2
        y = int(h * 0.33)
        fs = max(12, int(h * 0.032))
        for title_text, cards in groups:
            gw = len(cards) * (cw + gap) - gap
            t_img = text.render(title_text, fs, GOLD, bold=True)
            surface.blit(t_img, t_img.get_rect(midbottom=(x + gw // 2, y - gap)))
            for card, lab in cards:
                surface.blit(self.app.art.face(card, cw, ch), (x, y))
                if lab:
                    l_img = text.render(lab, fs, CREAM, bold=True)
                    surface.blit(l_img, l_img.get_rect(midtop=(x + cw // 2, y + ch + gap // 2)))
                x += cw + gap
            x += gap * 3
        left = max(0.0, SHOW_S - self.t)
        bar = pygame.Rect(w // 4, int(h * 0.78), int(w / 2 * left / SHOW_S), max(4, h // 150))
        pygame.draw.rect(surface, GOLD, bar, border_radius=bar.h // 2)
        shown = sum(len(cards) for _t, cards in groups)
        hint = text.render(tr("handover.remember_one" if shown == 1 else "handover.remember"), int(h * 0.03), DIM)
        surface.blit(hint, hint.get_rect(center=(w // 2, int(h * 0.74))))
