"""Choosing the name the other players see, over the menu.

Shown by itself on the first run (no name saved yet: the login name, e.g. "root", is
only a default), and from the menu's "Change name" button. The name is saved in the
settings; the connection to the server is re-opened under it when no table is open
(the server learns a name from ``hello``, PROTOCOL.md "Session").
"""
from __future__ import annotations

from typing import Any

import pygame
import pygame_gui

from client.ui.scene import Scene
from client.ui.widgets import button, entry, label, panel

MAX_NAME = 24


class NameScene(Scene):
    overlay = True

    def __init__(self, app: Any, first_run: bool = False):
        super().__init__(app)
        self.first_run = first_run
        self.name = app.settings.player_name()

    def build(self, size: tuple[int, int]) -> None:
        w, h = size
        s = self.app.ui_scale
        box = pygame.Rect(0, 0, int(w * 0.46), int(250 * s))
        box.midtop = (w // 2, int(h * 0.42))  # below the title's subtitle, never over it
        panel(self, box)
        pad, rh = int(20 * s), int(40 * s)
        y = box.y + pad
        label(self, pygame.Rect(box.x, y, box.w, rh), "name.welcome" if self.first_run else "name.title",
              object_id="#heading", align="center")
        y += rh + pad // 2
        label(self, pygame.Rect(box.x + pad, y, int(box.w * 0.40), rh), "name.label")
        self.e_name = entry(self, pygame.Rect(box.x + pad + int(box.w * 0.40), y, box.w - 2 * pad - int(box.w * 0.40),
                                              rh), self.name)
        self.e_name.set_text_length_limit(MAX_NAME)
        self.e_name.focus()
        y += rh + pad // 2
        label(self, pygame.Rect(box.x + pad, y, box.w - 2 * pad, int(28 * s)), "name.hint", object_id="#hint",
              align="center")
        bw, bh = int(160 * s), int(46 * s)
        by = box.bottom - pad - bh
        button(self, pygame.Rect(box.right - pad - bw, by, bw, bh), "name.ok", object_id="#primary", command=self.ok)
        if not self.first_run:
            button(self, pygame.Rect(box.x + pad, by, bw, bh), "common.back", command=self.app.pop)

    def ok(self) -> None:
        text = self.e_name.get_text() if getattr(self, "e_name", None) else self.name
        name = " ".join(text.split())[:MAX_NAME] or self.app.settings.player_name()
        self.app.pop()
        self.app.connections.rename(name)

    def handle_event(self, event: pygame.event.Event, t_ms: float) -> None:
        if event.type == pygame_gui.UI_TEXT_ENTRY_FINISHED and event.ui_element is getattr(self, "e_name", None):
            self.ok()
        elif event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
            if self.first_run:
                self.ok()  # keep the proposed name: do not ask again
            else:
                self.app.pop()

    def draw(self, surface: pygame.Surface) -> None:
        w, h = surface.get_size()
        veil = pygame.Surface((w, h), pygame.SRCALPHA)
        veil.fill((0, 0, 0, 140))
        surface.blit(veil, (0, 0))
