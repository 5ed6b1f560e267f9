"""Settings: your name, language, fullscreen, volume, colour-blind-safe cards and the
keyboard zone of each local seat for couch play, and the four-colour deck of playing
cards (diamonds blue, clubs green). Changes apply at once and are saved
in your user config directory when you leave the screen (``client.settings``)."""
from __future__ import annotations

from typing import Any

import pygame
import pygame_gui

from client import felt
from client.i18n import tr
from client.input import ZONE_PRESETS, binding_for
from client.ui.scene import Scene
from client.ui.widgets import button, choice_menu, dialog, entry, label
from client import settings as settings_mod

LANGS = ("auto", "en", "fr")
MAX_LOCAL_SEATS = 4


def zone_keys(zone: str) -> str:
    """One line telling which keys a keyboard zone uses, the confirm key (it places a
    Mafiosi bouncer) included. A word every key name starts with is written once:
    "Keypad 4/6 choose · 9 confirm · 5 snap..." (the line fits its box)."""
    keys = binding_for(zone).describe()
    names = {k: keys.get(k, "?") for k in ("prev", "next", "confirm", "snap", "pass", "reveal")}
    heads = {n.split(" ", 1)[0] for n in names.values() if " " in n}
    if len(heads) == 1 and all(" " in n for n in names.values()):
        head = heads.pop()
        names = {k: n.split(" ", 1)[1] for k, n in names.items()}
        names["prev"] = f"{head} {names['prev']}"
    return tr("settings.zone_keys", snap=names["snap"], passkey=names["pass"], prev=names["prev"],
              next=names["next"], reveal=names["reveal"], confirm=names["confirm"])


class SettingsScene(Scene):
    def __init__(self, app: Any):
        super().__init__(app)
        self.s = app.settings

    def build(self, size: tuple[int, int]) -> None:
        sc = self.app.ui_scale
        box = dialog(self, size, 0.92, 0.92)
        pad, rh, gap = int(24 * sc), int(40 * sc), int(10 * sc)
        x0, x1 = box.x + pad, box.x + int(box.w * 0.26)
        fw = box.right - pad - x1
        y = box.y + pad
        label(self, pygame.Rect(box.x, y, box.w, int(44 * sc)), "settings.title", object_id="#heading",
              align="center")
        y += int(50 * sc)

        def row(key: str) -> pygame.Rect:
            nonlocal y
            label(self, pygame.Rect(x0, y, x1 - x0 - gap, rh), key)
            r = pygame.Rect(x1, y, fw, rh)
            y += rh + gap
            return r

        self.e_name = entry(self, row("settings.name"), self.s.name or self.s.player_name())
        self.e_name.set_text_length_limit(24)
        langs = [(tr(f"settings.lang_{code}"), code) for code in LANGS]
        current = next(x for x in langs if x[1] == self.s.language) if self.s.language in LANGS else langs[0]
        self.dd_lang = choice_menu(self, langs, current, row("settings.language"))
        onoff = [(tr("settings.off"), "off"), (tr("settings.on"), "on")]
        self.dd_full = choice_menu(self, onoff, onoff[1] if self.app.display.fullscreen else onoff[0],
                                   row("settings.fullscreen"))
        r = row("settings.volume")
        self.sl_volume = self.add(pygame_gui.elements.UIHorizontalSlider(
            r, int(round(self.s.volume * 100)), (0, 100), self.app.manager, click_increment=5))
        self.dd_cb = choice_menu(self, onoff, onoff[1] if self.s.colour_blind else onoff[0], row("settings.colour_blind"))
        self.dd_four = choice_menu(self, onoff, onoff[1] if self.s.four_colour_suits else onoff[0],
                                   row("settings.four_colour"))
        y += gap
        label(self, pygame.Rect(x0, y, box.w - 2 * pad, rh), "settings.seats_title", object_id="#heading")
        y += rh
        zones = [(tr(f"zone.{z}"), z) for z in ZONE_PRESETS]
        self.dd_zones = []
        for i in range(MAX_LOCAL_SEATS):
            z = self.s.zones[i] if i < len(self.s.zones) else "keyboard"
            r = row_rect = pygame.Rect(x1, y, int(fw * 0.30), rh)
            label(self, pygame.Rect(x0, y, x1 - x0 - gap, rh), tr("settings.local_seat", n=str(i + 1)), raw=True)
            dd = choice_menu(self, zones, next(x for x in zones if x[1] == z), r)
            self.dd_zones.append(dd)
            label(self, pygame.Rect(row_rect.right + gap, y, fw - row_rect.w - gap, rh), zone_keys(z),
                  raw=True, object_id="#hint")
            y += rh + gap // 2
        label(self, pygame.Rect(x0, y, box.w - 2 * pad, int(26 * sc)), "settings.controllers", object_id="#hint")
        by = box.bottom - pad - int(48 * sc)
        button(self, pygame.Rect(box.right - pad - int(220 * sc), by, int(220 * sc), int(48 * sc)),
               "settings.done", object_id="#primary", command=self.done)
        path = settings_mod.settings_path() if self.app.settings_path is None else self.app.settings_path
        label(self, pygame.Rect(x0, by, box.w - 3 * pad - int(220 * sc), int(48 * sc)),
              tr("settings.saved_in", path=path), raw=True, object_id="#hint")

    def done(self) -> None:
        name = self.e_name.get_text().strip() if getattr(self, "e_name", None) else self.s.name
        self.s.name = name[:24]
        settings_mod.save(self.s, self.app.settings_path)
        self.app.pop()
        if self.s.name:
            self.app.connections.rename(self.s.name)  # the server shows the new name from the next connection

    def handle_event(self, event: pygame.event.Event, t_ms: float) -> None:
        if event.type == pygame_gui.UI_DROP_DOWN_MENU_CHANGED:
            value = event.selected_option_id
            if event.ui_element is self.dd_lang:
                self.s.name = self.e_name.get_text().strip()[:24]
                self.app.display.set_language(value)
            elif event.ui_element is self.dd_full:
                self.s.name = self.e_name.get_text().strip()[:24]
                self.app.display.set_fullscreen(value == "on")
            elif event.ui_element is self.dd_cb:
                self.s.colour_blind = value == "on"
                self.app.art.set_colour_blind(self.s.colour_blind)
            elif event.ui_element is self.dd_four:
                self.s.four_colour_suits = value == "on"
                self.app.art.four_colour_suits = self.s.four_colour_suits  # the card faces read it
                self.app.art.clear()
            elif event.ui_element in self.dd_zones:
                i = self.dd_zones.index(event.ui_element)
                while len(self.s.zones) <= i:
                    self.s.zones.append("keyboard")
                self.s.zones[i] = value
                self.s.name = self.e_name.get_text().strip()[:24]
                self.rebuild()
        elif event.type == pygame_gui.UI_HORIZONTAL_SLIDER_MOVED and event.ui_element is self.sl_volume:
            self.s.volume = self.sl_volume.get_current_value() / 100.0
            if self.app.sound is not None:
                self.app.sound.set_volume(self.s.volume)
                self.app.sound.play("click")
        elif event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
            self.done()

    def draw(self, surface: pygame.Surface) -> None:
        w, h = surface.get_size()
        surface.blit(felt.menu_surface(w, h), (0, 0))
