"""Couch game: several players on one screen, each a player of their own.

Every local player gets their own connection to the server (so the server sees separate
players, each with its own private information) and their own controls: a keyboard zone
(different snap keys) or a game controller. The shared screen itself watches through a
spectator connection, so it never shows anyone's private cards; those appear on the
hand-over screen when their owner presses their reveal key. Empty seats take bots.
"""
from __future__ import annotations

from typing import Any

import pygame
import pygame_gui

from client import felt, games
from client.i18n import tr
from client.input import ZONE_PRESETS, Binding, binding_for
from client.ui.scene import Scene
from client.scenes.settings import zone_keys
from client.ui.title import draw_title
from client.ui.widgets import button, choice_menu, dialog, entry, label, level_menu

MAX_LOCAL = 4


def control_options(app: Any) -> list[tuple[str, str]]:
    """(label, id) of every way to play: keyboard zones, then connected controllers."""
    out = [(tr(f"zone.{z}"), f"zone:{z}") for z in ZONE_PRESETS]
    for iid, js in sorted(app.joysticks.items()):
        out.append((tr("couch.controller", n=str(iid + 1), name=js.get_name()[:24]), f"joy:{iid}"))
    return out


def binding_from(option: str) -> Binding:
    kind, _, value = option.partition(":")
    if kind == "joy":
        return binding_for("controller", joystick=int(value))
    return binding_for(value)


def shared_controls(bindings: list[Binding]) -> tuple[int, int] | None:
    """The first two players whose controls overlap (a shared key or controller)."""
    for i in range(len(bindings)):
        for j in range(i + 1, len(bindings)):
            a, b = bindings[i], bindings[j]
            if a.keys() & b.keys() or (a.joystick is not None and a.joystick == b.joystick):
                return i, j
    return None


def start_couch(app: Any, players: list[tuple[str, Binding]], seats: int, options: dict | None = None,
                game: str | None = None):
    """Create a table of ``game`` (default: the registry's couch game) for ``players``
    (name, binding) plus bots (of the player's ``settings.bot_level``), each player on its own connection, and a spectator
    connection for the shared screen. The player named as this client's own connection
    (the default name of player 1) plays on it: the server names every connection
    uniquely, and a second "Lena" would sit as "Lena (2)". Returns a Deferred firing
    with the table id once every seat is filled."""
    game = game or games.couch_game().name
    from twisted.internet import defer

    main = app.connections.main_link
    address = main.address

    @defer.inlineCallbacks
    def run():
        reply = yield main.request("create_table", game=game, seats=seats, name=tr("couch.table_name"),
                                   options=options or {})
        tid = reply["table"]["id"]
        app.tables[tid] = reply["table"]
        screen = yield app.connections.open_link(tr("couch.screen_name"), address)
        app.couch_groups[tid] = {"display": screen, "stash": []}
        yield screen.request("join", table=tid, spectate=True)
        own = main.name
        for i, (name, binding) in enumerate(players):
            if name == own:
                link, own = main, None  # this client's own connection, once
            else:
                link = yield app.connections.open_link(name, address)
            app.pending_bindings[link] = binding
            yield link.request("join", table=tid, seat=i)
        for _ in range(seats - len(players)):
            yield main.request("add_bot", table=tid, level=app.settings.bot_level)
        return tid

    return run()


class CouchScene(Scene):
    def __init__(self, app: Any):
        super().__init__(app)
        self.count = 2
        self.game = games.couch_game().name
        self.lo, self.hi, self.seats = games.seat_range(self.game)
        base = app.settings.player_name()
        self.names = [base] + [tr("couch.player", n=str(i + 1)) for i in range(1, MAX_LOCAL)]
        zones = list(app.settings.zones) + ["middle", "numpad", "left", "right"]
        self.controls = [f"zone:{z}" for z in zones[:MAX_LOCAL]]
        self.busy = False

    def build(self, size: tuple[int, int]) -> None:
        s = self.app.ui_scale
        box = dialog(self, size, 0.94, 0.62, top_frac=0.33)
        pad = int(20 * s)
        # rows: game, players/seats, one per local player, the hint, the buttons
        rh, gap = (int(38 * s), int(8 * s)) if self.count < 4 else (int(33 * s), int(5 * s))
        x0 = box.x + pad
        y = box.y + pad
        label(self, pygame.Rect(box.x, y, box.w, int(40 * s)), "couch.title", object_id="#heading", align="center")
        y += int(44 * s)
        half = (box.w - 3 * pad) // 2
        choices = [(games.title(g.name), g.name) for g in games.couch_games()]
        label(self, pygame.Rect(x0, y, int(half * 0.55), rh), "host.game")
        self.dd_game = choice_menu(self, choices, next(c for c in choices if c[1] == self.game),
                                   pygame.Rect(x0 + int(half * 0.55), y, int(half * 0.45), rh))
        label(self, pygame.Rect(x0 + half + pad, y, int(half * 0.55), rh), "couch.bots")
        self.dd_level = level_menu(self, pygame.Rect(x0 + half + pad + int(half * 0.55), y, int(half * 0.45), rh))
        y += rh + gap
        label(self, pygame.Rect(x0, y, int(half * 0.55), rh), "couch.players")
        self.dd_count = choice_menu(self, [str(n) for n in range(2, MAX_LOCAL + 1)], str(self.count),
                                    pygame.Rect(x0 + int(half * 0.55), y, int(half * 0.45), rh))
        x1 = x0 + half + pad
        label(self, pygame.Rect(x1, y, int(half * 0.55), rh), "couch.seats")
        self.dd_seats = choice_menu(
            self, [str(n) for n in range(max(self.lo, self.count), self.hi + 1)], str(max(self.seats, self.count, self.lo)),
            pygame.Rect(x1 + int(half * 0.55), y, int(half * 0.45), rh))
        y += rh + 2 * gap
        opts = control_options(self.app)
        self.e_names, self.dd_controls = [], []
        for i in range(self.count):
            label(self, pygame.Rect(x0, y, int(box.w * 0.11), rh), tr("settings.local_seat", n=str(i + 1)), raw=True)
            e = entry(self, pygame.Rect(x0 + int(box.w * 0.11), y, int(box.w * 0.15), rh), self.names[i])
            e.set_text_length_limit(24)
            self.e_names.append(e)
            current = next((o for o in opts if o[1] == self.controls[i]), opts[0])
            dd = choice_menu(self, opts, current, pygame.Rect(x0 + int(box.w * 0.27), y, int(box.w * 0.19), rh))
            self.dd_controls.append(dd)
            keys = zone_keys(self.controls[i].split(":", 1)[1]) if self.controls[i].startswith("zone:") \
                else tr("couch.controller_keys")
            kx = x0 + int(box.w * 0.47)
            label(self, pygame.Rect(kx, y, box.right - pad - kx, rh), keys, raw=True, object_id="#hint")
            y += rh + gap
        label(self, pygame.Rect(x0, y + gap, box.w - 2 * pad, int(28 * s)), "couch.handover_hint", object_id="#hint")
        by = box.bottom - pad - int(48 * s)
        button(self, pygame.Rect(x0, by, int(180 * s), int(48 * s)), "common.back", command=self.app.pop)
        button(self, pygame.Rect(box.right - pad - int(240 * s), by, int(240 * s), int(48 * s)), "couch.start",
               object_id="#primary", command=self.start)

    def _read_names(self) -> None:
        for i, e in enumerate(getattr(self, "e_names", [])):
            self.names[i] = e.get_text().strip()[:24] or tr("couch.player", n=str(i + 1))

    def start(self) -> None:
        if self.busy or self.app.connections.main_link is None:
            return
        self._read_names()
        if len(set(self.names[:self.count])) < self.count:
            self.app.notify(tr("couch.same_names"))
            return
        players = [(self.names[i], binding_from(self.controls[i])) for i in range(self.count)]
        clash = shared_controls([b for _, b in players])
        if clash is not None:
            i, j = clash
            self.app.notify(tr("couch.same_keys", a=self.names[i], b=self.names[j]))
            return
        self.busy = True

        def failed(f) -> None:
            self.busy = False
            self.app.notify(tr("error.request", reason=getattr(f.value, "message", str(f.value))))

        start_couch(self.app, players, max(self.seats, self.count, self.lo),
                    game=self.game).addErrback(failed)

    def handle_event(self, event: pygame.event.Event, t_ms: float) -> None:
        if event.type == pygame_gui.UI_DROP_DOWN_MENU_CHANGED:
            self._read_names()
            if event.ui_element is self.dd_game:
                self.game = event.selected_option_id
                self.lo, self.hi, self.seats = games.seat_range(self.game)
                self.count = min(self.count, self.hi)
                self.seats = max(self.seats, self.count, self.lo)
                self.rebuild()
            elif event.ui_element is self.dd_count:
                self.count = int(event.text)
                self.seats = max(self.seats, self.count, self.lo)
                self.rebuild()
            elif event.ui_element is self.dd_seats:
                self.seats = int(event.text)
            elif event.ui_element is getattr(self, "dd_level", None):
                self.app.set_bot_level(event.selected_option_id)
            elif event.ui_element in self.dd_controls:
                self.controls[self.dd_controls.index(event.ui_element)] = event.selected_option_id
                self.rebuild()
        elif event.type in (pygame.JOYDEVICEADDED, pygame.JOYDEVICEREMOVED):
            self._read_names()
            self.rebuild()
        elif event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
            self.app.pop()

    def draw(self, surface: pygame.Surface) -> None:
        w, h = surface.get_size()
        surface.blit(felt.menu_surface(w, h), (0, 0))
        draw_title(surface, self.app, 0.0, top=0.0, faces=games.title_cards())
