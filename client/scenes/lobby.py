"""The lobby of one table: who sits where (players, bots, empty seats), add or remove
bots, and the address other players type to join. The match starts by itself when every
seat is filled (the app then opens the table)."""
from __future__ import annotations

import socket
from typing import Any

import pygame

from client import felt, games
from client.i18n import tr
from client.ui.scene import Scene
from client.ui.widgets import button, call, dialog, label


def lan_address() -> str:
    """This machine's LAN IPv4 address as others see it (best effort, no traffic)."""
    try:
        s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        try:
            s.connect(("10.255.255.255", 1))
            return s.getsockname()[0]
        finally:
            s.close()
    except OSError:
        try:
            return socket.gethostbyname(socket.gethostname())
        except OSError:
            return "127.0.0.1"


class LobbyScene(Scene):
    """``table`` is the wire Table dict; ``host`` true when we created it."""

    def __init__(self, app: Any, link: Any, table: dict[str, Any], host: bool = False,
                 my_seat: int | None = 0, spectator: bool = False):
        super().__init__(app)
        self.link = link
        self.table = table
        self.host = host
        self.my_seat = my_seat
        self.spectator = spectator
        self.address = self._address()

    def _address(self) -> str:
        host, port = self.link.address
        if host in ("127.0.0.1", "localhost"):
            host = lan_address()
        return f"{host}:{port}"

    def build(self, size: tuple[int, int]) -> None:
        s = self.app.ui_scale
        t = self.table
        box = dialog(self, size, 0.56, 0.80)
        pad, rh, gap = int(24 * s), int(44 * s), int(10 * s)
        y = box.y + pad
        head = label(self, pygame.Rect(box.x, y, box.w, int(48 * s)), t.get("name") or "", raw=True,
                     object_id="#heading", align="center")
        y += int(48 * s)
        seats = t.get("seats", [])
        filled = sum(1 for x in seats if x.get("name"))
        sub = label(self, pygame.Rect(box.x, y, box.w, int(30 * s)), "lobby.waiting", object_id="#subtitle",
                    text_kwargs={"game": games.title(t.get("game")), "filled": str(filled),
                                 "seats": str(len(seats))}, align="center")
        y += int(30 * s) + gap
        bw = int(150 * s)
        for seat in seats:
            r = pygame.Rect(box.x + pad, y, box.w - 2 * pad - bw - gap, rh)
            name = seat.get("name")
            if name:
                who = name
                if seat.get("bot"):
                    who = tr("lobby.bot_name", name=name)
                if seat["seat"] == self.my_seat and not self.spectator:
                    who = tr("lobby.you", name=name)
                if not seat.get("connected", True) and not seat.get("bot"):
                    who += " " + tr("lobby.disconnected")
            else:
                who = tr("lobby.empty")
            label(self, r, tr("lobby.seat_line", n=str(seat["seat"] + 1), who=who), raw=True)
            br = pygame.Rect(r.right + gap, y, bw, rh)
            if not self.spectator and t.get("status") == "waiting":
                if not name:
                    button(self, br, "lobby.add_bot", command=call(self.add_bot, seat["seat"]))
                elif seat.get("bot"):
                    button(self, br, "lobby.remove_bot", object_id="#danger",
                           command=call(self.remove_bot, seat["seat"]))
            y += rh + gap
        y += gap
        hint = label(self, pygame.Rect(box.x + pad, y, box.w - 2 * pad, int(28 * s)), "lobby.share",
                     object_id="#hint", text_kwargs={"address": self.address}, align="center")
        y += int(28 * s)
        hint2 = label(self, pygame.Rect(box.x + pad, y, box.w - 2 * pad, int(28 * s)), "lobby.starts_when_full",
                      object_id="#hint", align="center")
        by = box.bottom - pad - int(50 * s)
        button(self, pygame.Rect(box.x + pad, by, int(200 * s), int(50 * s)), "lobby.leave",
               command=self.leave_table)
        if not self.spectator and any(not x.get("name") for x in seats):
            button(self, pygame.Rect(box.right - pad - int(240 * s), by, int(240 * s), int(50 * s)),
                   "lobby.fill_bots", object_id="#primary", command=self.fill_bots)

    # -- requests -----------------------------------------------------------------------
    def _failed(self, f) -> None:
        self.app.notify(tr("error.request", reason=getattr(f.value, "message", str(f.value))))

    def _updated(self, reply: dict) -> None:
        if isinstance(reply.get("table"), dict):
            self.set_table(reply["table"])

    def add_bot(self, seat: int) -> None:
        self.link.request("add_bot", table=self.table["id"], seat=seat).addCallbacks(self._updated, self._failed)

    def remove_bot(self, seat: int) -> None:
        self.link.request("remove_bot", table=self.table["id"], seat=seat).addCallbacks(self._updated, self._failed)

    def fill_bots(self) -> None:
        empty = [x["seat"] for x in self.table.get("seats", []) if not x.get("name")]
        d = None
        for seat in empty:
            if d is None:
                d = self.link.request("add_bot", table=self.table["id"], seat=seat)
            else:
                d.addCallback(lambda _r, n=seat: self.link.request("add_bot", table=self.table["id"], seat=n))
        if d is not None:
            d.addErrback(self._failed)

    def leave_table(self) -> None:
        if self.link.conn is not None:
            self.link.request("leave", table=self.table["id"]).addErrback(lambda f: None)
        self.app.go_menu()

    # -- messages -----------------------------------------------------------------------
    def set_table(self, table: dict[str, Any]) -> None:
        if table.get("id") != self.table.get("id"):
            return
        self.table = table
        if self.app.scenes and self.app.top is self:
            self.rebuild()

    def on_message(self, msg: dict[str, Any], link: Any = None) -> None:
        if msg.get("type") == "table" and isinstance(msg.get("table"), dict):
            self.set_table(msg["table"])

    def on_link_lost(self, link: Any) -> None:
        if link is self.link:
            self.app.go_menu()

    def handle_event(self, event: pygame.event.Event, t_ms: float) -> None:
        if event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
            self.leave_table()

    def draw(self, surface: pygame.Surface) -> None:
        w, h = surface.get_size()
        surface.blit(felt.menu_surface(w, h), (0, 0))
