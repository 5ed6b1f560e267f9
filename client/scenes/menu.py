"""The main menu: Quick game, Host a table, Join, Couch game, Settings, Quit.

Quick game is one click: create a 4-seat Omerta table, sit at seat 0, add three bots;
the server starts the match when the last seat is filled and the app opens the table.
"""
from __future__ import annotations

import math
from typing import Any

import pygame

from client import felt, text
from client.i18n import tr
from client.scenes.base import Scene
from client.scenes.widgets import button, column, label


def quick_game(link: Any, seats: int = 4, name: str | None = None, options: dict | None = None):
    """Create a ``seats``-seat Omerta table on ``link``'s server, sit at seat 0 and fill
    the other seats with bots. Returns a Deferred firing with the table id."""
    d = link.request("create_table", game="omerta", seats=seats,
                     name=name or tr("menu.quick_table_name"), options=options or {})

    def created(reply: dict) -> Any:
        tid = reply["table"]["id"]
        d2 = link.request("join", table=tid, seat=0)
        for _ in range(seats - 1):
            d2.addCallback(lambda _r: link.request("add_bot", table=tid))
        return d2.addCallback(lambda _r: tid)

    return d.addCallback(created)


class MenuScene(Scene):
    def __init__(self, app: Any):
        super().__init__(app)
        self.t = 0.0
        self.busy = False

    def build(self, size: tuple[int, int]) -> None:
        w, h = size
        s = self.app.ui_scale
        entries = [("menu.quick_game", "#primary", self.on_quick), ("menu.host", None, self.on_host),
                   ("menu.join", None, self.on_join)]
        entries += [(k, None, cb) for k, cb in self.extra_entries()]
        entries.append(("menu.quit", "#danger", self.app.quit))
        rows = column(size, 0.26, 0.43, int(52 * s), int(12 * s), len(entries))
        for r, (k, oid, cb) in zip(rows, entries):
            b = button(self, r, k, object_id=oid, class_id="@menu", command=cb)
            if k == "menu.quick_game":
                self.b_quick = b
        self.status = label(self, pygame.Rect(0, h - int(40 * s), w, int(30 * s)), " ", object_id="#hint",
                            raw=True, align="center")
        bw = int(190 * s)
        button(self, pygame.Rect(w - bw - int(12 * s), h - int(42 * s), bw, int(34 * s)), "menu.change_name",
               command=self.on_name)

    def extra_entries(self) -> list[tuple[str, Any]]:
        """Menu entries of the screens that exist in this version."""
        import importlib.util

        out = []
        if importlib.util.find_spec("client.scenes.couch") is not None:
            out.append(("menu.couch", self.on_couch))
        if importlib.util.find_spec("client.scenes.settings") is not None:
            out.append(("menu.settings", self.on_settings))
        return out

    # -- actions ------------------------------------------------------------------------
    def _link(self):
        link = self.app.main_link
        if link is None or link.conn is None:
            self.app.notify(tr("error.not_connected"))
            return None
        return link

    def on_quick(self) -> None:
        link = self._link()
        if link is None or self.busy:
            return
        self.busy = True

        def failed(f):
            self.busy = False
            self.app.notify(tr("error.request", reason=getattr(f.value, "message", str(f.value))))

        quick_game(link).addErrback(failed)

    def on_host(self) -> None:
        if self._link() is None:
            return
        from client.scenes.host import HostScene

        self.app.push(HostScene(self.app))

    def on_join(self) -> None:
        from client.scenes.join import JoinScene

        self.app.push(JoinScene(self.app))

    def on_couch(self) -> None:
        if self._link() is None:
            return
        from client.scenes.couch import CouchScene

        self.app.push(CouchScene(self.app))

    def on_name(self) -> None:
        from client.scenes.name import NameScene

        self.app.push(NameScene(self.app))

    def on_settings(self) -> None:
        from client.scenes.settings import SettingsScene

        self.app.push(SettingsScene(self.app))

    # -- frame ------------------------------------------------------------------------
    def handle_event(self, event: pygame.event.Event, t_ms: float) -> None:
        if event.type == pygame.KEYDOWN and event.key == pygame.K_RETURN:
            self.on_quick()

    def update(self, dt: float) -> None:
        self.t += dt
        link = self.app.main_link
        if link is not None and link.conn is not None:
            host, port = link.address
            where = tr("menu.local_server", port=port) if self.app.server_port == port and host == "127.0.0.1" \
                else tr("menu.connected_to", address=f"{host}:{port}")
            msg = tr("menu.status", name=link.name, where=where)
        elif self.app.start_error:
            msg = tr("menu.not_connected")
        elif self.app.connect_to is not None:
            host, port = self.app.connect_to
            msg = tr("menu.connecting_to", address=f"{host}:{port}")
        else:
            msg = tr("menu.connecting")
        if getattr(self, "status", None) is not None and self.status.text != msg:
            self.status.set_text(msg)

    def draw(self, surface: pygame.Surface) -> None:
        w, h = surface.get_size()
        surface.blit(felt.menu_surface(w, h), (0, 0))
        draw_title(surface, self.app, self.t)


def draw_title(surface: pygame.Surface, app: Any, t: float, top: float = 0.08) -> None:
    """The game's title with a fan of cards behind it (menus share it)."""
    w, h = surface.get_size()
    art = app.art
    ch = int(h * 0.17)
    cw = int(ch * 5 / 7)
    cx, cy = w // 2, int(h * (top + 0.08))
    faces = [None, {"kind": "bottle", "value": 7, "points": 7},
             {"kind": "character", "name": "hitwoman", "points": 15},
             {"kind": "bottle", "value": 3, "points": 3}, None]
    for i, face in enumerate(faces):
        ang = (i - 2) * 11 + 1.5 * math.sin(t * 0.8 + i)
        img = pygame.transform.rotozoom(art.surface(face, cw, ch), -ang, 1.0)
        x = cx + (i - 2) * cw * 0.55
        y = cy + abs(i - 2) * ch * 0.06
        surface.blit(img, img.get_rect(center=(int(x), int(y))))
    title = text.render(tr("title"), int(h * 0.10), (240, 207, 121), bold=True, shadow=True)
    surface.blit(title, title.get_rect(center=(w // 2, int(h * (top + 0.225)))))
    sub = text.render(tr("subtitle"), int(h * 0.03), (230, 216, 184), shadow=True)
    surface.blit(sub, sub.get_rect(center=(w // 2, int(h * (top + 0.30)))))
