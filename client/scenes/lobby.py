"""The lobby of one table: who sits where (players, bots, empty seats), who the host is,
the table's options, the address other players type to join, and the evening's
scoreboard of the server.

**Host controls** (docs/PROTOCOL.md "Lobby"): a table created by the host
screen waits for its host (option ``start: "host"``). Only the host gets the controls:
Start (enabled once every seat is filled; else it says how many seats are free), add or
remove a bot per seat, the options (``set_options``, :class:`client.scenes.options.OptionsScene`),
move a player to the spectators, lock or unlock the table, make it private (only who
brings its room code, shown in the side panel, may sit or watch) or open again, pass
host to a player. Guests
see who the host is (a "host" badge by his name) and a line saying the host starts the
match. A table started with ``start: "auto"`` (the Quick game) starts by itself when
every seat is filled (the app then opens the table).

A refused request is told in one sentence (``not_allowed``, ``seats_free``,
``table_locked``...: :func:`error_text`). A player the host moved to the spectators
(pushed ``moved {table, seat: null}``) stays here as a spectator, or watches the match.

The dialog sits left of centre: the right side of the window is kept for a side panel
(:meth:`LobbyScene.side_panel_rect`, the room code) above the scoreboard.
"""
from __future__ import annotations

from functools import lru_cache
from typing import Any

import pygame
import pygame_gui

from client import felt, games, text
from client import settings as settings_mod
from client.i18n import plural_key, tr
from client.ui.errors import error_text, free_seats
from client.ui.scene import Scene
from client.ui.roomcode import lan_addresses
from client.ui.scoreboard import score_rows, stand_in_note
from client.ui.widgets import button, call, label, panel

#: Error codes of the host's requests that have a sentence of their own (``hostctl.err_<code>``).
@lru_cache(maxsize=16)
def badge_surface(label_text: str, height: int) -> pygame.Surface:
    """A small gold pill with ``label_text`` (the "host" badge), ``height`` px tall."""
    size = max(9, int(height * 0.62))
    img = text.render(label_text, size, (27, 18, 10), bold=True)
    s = pygame.Surface((img.get_width() + height, height), pygame.SRCALPHA)
    pygame.draw.rect(s, (240, 207, 121), s.get_rect(), border_radius=height // 2)
    pygame.draw.rect(s, (255, 236, 170), s.get_rect(), 1, border_radius=height // 2)
    s.blit(img, img.get_rect(center=(s.get_width() // 2, height // 2)))
    return s


def options_summary(table: dict[str, Any]) -> str:
    """The table's options as one line ("Rounds 4 · Turn timer off"), "" for none."""
    opts = table.get("options") or {}
    parts = []
    if isinstance(opts.get("rounds"), int):
        parts.append(f"{tr('hostctl.opt_rounds')} {opts['rounds']}")
    if isinstance(opts.get("snap_timeout_ms"), int):
        parts.append(f"{tr('hostctl.opt_snap_timeout_ms')} {tr('hostctl.seconds', n=_secs(opts['snap_timeout_ms']))}")
    if isinstance(opts.get("deck_variant"), str):
        parts.append(f"{tr('hostctl.opt_deck_variant')} {opts['deck_variant']}")
    if isinstance(opts.get("turn_timer_s"), int):
        t = opts["turn_timer_s"]
        parts.append(f"{tr('hostctl.opt_turn_timer_s')} "
                     f"{tr('hostctl.seconds', n=str(t)) if t else tr('hostctl.off')}")
    if opts.get("bot_kind") in ("smart", "random"):
        kind = tr("hostctl.bot_smart") if opts["bot_kind"] == "smart" else tr("hostctl.bot_random")
        parts.append(f"{tr('hostctl.opt_bot_kind')} {kind}")
    return tr("hostctl.options_line", list=" · ".join(parts)) if parts else ""


def _secs(ms: int) -> str:
    v = ms / 1000.0
    return str(int(v)) if v == int(v) else f"{v:.1f}"


def scoreboard_panel(scene: Scene, rect: pygame.Rect, scoreboard: Any) -> None:
    """The evening's scoreboard as widgets in ``rect`` (px): a title, then one row per
    (player, game): name, game, played, won (:mod:`client.ui.scoreboard`: the bots' row
    dimmed, a stand-in's wins as "+1" with a line saying so); "No match finished yet
    tonight." when empty."""
    s = scene.app.ui_scale
    panel(scene, rect)
    pad = int(18 * s)
    rh = max(22, int(30 * s))
    y = rect.y + pad
    label(scene, pygame.Rect(rect.x + pad, y, rect.w - 2 * pad, int(42 * s)), "score.title", object_id="#heading")
    y += int(44 * s)
    rows = score_rows(scoreboard)
    note = stand_in_note(rows)
    limit = max(1, (rect.bottom - pad - y - (rh if note else 0)) // rh - 1)
    rows = rows[:limit]
    if not rows:
        label(scene, pygame.Rect(rect.x + pad, y, rect.w - 2 * pad, rh), "score.empty", object_id="#hint")
        return
    w = rect.w - 2 * pad
    share = (0.0, 0.35, 0.64, 0.82, 1.0)  # player, game, played, won
    cols = [rect.x + pad + int(w * f) for f in share]
    for i, head in enumerate(("score.player", "score.game", "score.played", "score.won")):
        fit_label(scene, pygame.Rect(cols[i], y, cols[i + 1] - cols[i], rh), tr(head), object_id="#hint",
                  align="left" if i < 2 else "center")
    y += rh
    for row in rows:
        for i, value in enumerate((row.name, row.game, row.played, row.won)):
            fit_label(scene, pygame.Rect(cols[i], y, cols[i + 1] - cols[i], rh), value,
                      object_id="#hint" if row.bot else None, align="left" if i < 2 else "center")
        y += rh
    if note and stand_in_note(rows):
        fit_label(scene, pygame.Rect(rect.x + pad, y, w, rh), note, object_id="#hint")


def fit_label(scene: Scene, rect: pygame.Rect, value: str, **kw: Any) -> Any:
    """A label showing ``value`` (not a key), cut with an ellipsis in its own font when
    it is wider than ``rect`` (a long name)."""
    from client.ui.widgets import _room

    lab = label(scene, rect, value, raw=True, **kw)
    font = getattr(lab, "font", None)
    if font is not None and font.size(value)[0] > _room(lab):
        cut = value
        while len(cut) > 1 and font.size(cut + "…")[0] > _room(lab):
            cut = cut[:-1]
        lab.set_text(cut.rstrip() + "…")
    return lab



def bot_label(name: str, level: Any) -> str:
    """A bot's seat line in the player's language: "Bot 2 (bot)", "Bot 3 (hard bot)" /
    "Bot 3 (robot difficile)" -- the server names a bot of another level than normal
    "Bot 3 (hard)" in English; its ``level`` field says it in any language."""
    if level in settings_mod.BOT_LEVELS and level != "normal":
        suffix = f" ({level})"
        base = name[:-len(suffix)] if name.endswith(suffix) else name
        return tr("lobby.bot_name_level", name=base, level=tr(f"level.{level}_bot"))
    return tr("lobby.bot_name", name=name)

class LobbyScene(Scene):
    """``table`` is the wire Table dict; ``host`` true when we created it (used when
    the server does not say who the host is); ``my_seat`` our seat (None: watching)."""

    def __init__(self, app: Any, link: Any, table: dict[str, Any], host: bool = False,
                 my_seat: int | None = 0, spectator: bool = False):
        super().__init__(app)
        self.link = link
        self.table = table
        self.host = host
        self.my_seat = my_seat
        self.spectator = spectator
        self.address = self._address()
        self.scoreboard: list[dict[str, Any]] | None = None
        self._asked_scoreboard = False
        self.b_start: Any = None
        self.controls: dict[str, Any] = {}  # "add:1", "remove:2", "watch:1", "host:1", "lock", "options", ...
        self.badge: Any = None

    def _address(self) -> str:
        """The address friends type (and the phones' QR code opens): the server's, or --
        when it runs on this machine -- the LAN address the host picked
        (:meth:`next_address`), the likely one first."""
        host, port = self.link.address
        if host in ("127.0.0.1", "localhost"):
            choices = lan_addresses()
            host = choices[getattr(self.app, "lan_choice", 0) % len(choices)]
        return f"{host}:{port}"

    def address_choices(self) -> int:
        """How many LAN addresses the host may pick from (1: nothing to pick)."""
        return len(lan_addresses()) if self.link.address[0] in ("127.0.0.1", "localhost") else 1

    def next_address(self) -> None:
        """The next of this machine's LAN addresses for friends and phones: a laptop on a
        VPN or running containers has several, and the first guess may be wrong."""
        self.app.lan_choice = getattr(self.app, "lan_choice", 0) + 1
        self.address = self._address()
        self.rebuild_soon()

    # -- who is who ---------------------------------------------------------------------
    @property
    def host_seat(self) -> int | None:
        """The host's seat (``Table.host``); an older server that does not say: our
        seat when we created the table."""
        if "host" in self.table:
            h = self.table.get("host")
            return h if isinstance(h, int) else None
        return self.my_seat if self.host else None

    @property
    def host_name(self) -> str | None:
        name = self.table.get("host_name")
        if isinstance(name, str) and name:
            return name
        h = self.host_seat
        seat = next((x for x in self.table.get("seats", []) if x.get("seat") == h), None)
        return seat.get("name") if seat else None

    @property
    def is_host(self) -> bool:
        """We hold the table's host: the controls are ours."""
        return not self.spectator and self.my_seat is not None and self.host_seat == self.my_seat

    @property
    def waits_for_host(self) -> bool:
        """The match starts on the host's ``start`` (option ``start: "host"``); else
        (``"auto"``, the default) as soon as every seat is filled."""
        opts = self.table.get("options")
        return isinstance(opts, dict) and opts.get("start") == "host"

    @property
    def knows_hosts(self) -> bool:
        """The server says who the host is (``Table.host``): only he manages the table.
        An older server lets anybody seated add and remove bots."""
        return "host" in self.table

    @property
    def manages_bots(self) -> bool:
        """We may add and remove bots (and fill the table with them) now."""
        if self.spectator or self.my_seat is None or self.table.get("status") != "waiting":
            return False
        return self.is_host if self.knows_hosts else True

    def side_panel_rect(self) -> pygame.Rect:
        """The free column right of the dialog, top part (px): for a room-code panel."""
        col = self._side_column()
        return pygame.Rect(col.x, col.y, col.w, int(col.h * 0.42))

    def scoreboard_rect(self) -> pygame.Rect:
        """The bottom part of the right column: the evening's scoreboard (px)."""
        col = self._side_column()
        top = col.y + int(col.h * 0.42) + int(12 * self.app.ui_scale)
        return pygame.Rect(col.x, top, col.w, col.bottom - top)

    def _box(self, size: tuple[int, int]) -> pygame.Rect:
        w, h = size
        box = pygame.Rect(0, 0, int(w * 0.58), int(h * 0.88))
        box.midleft = (int(w * 0.035), h // 2)
        return box

    def _side_column(self) -> pygame.Rect:
        w, h = self.app.size
        box = self._box(self.app.size)
        gap = int(w * 0.025)
        return pygame.Rect(box.right + gap, box.y, w - box.right - 2 * gap, box.h)

    # -- widgets ------------------------------------------------------------------------
    def build(self, size: tuple[int, int]) -> None:
        s = self.app.ui_scale
        t = self.table
        self.controls = {}
        box = self._box(size)
        panel(self, box)
        pad, gap = int(22 * s), int(8 * s)
        seats = t.get("seats", [])
        host_ctl = self.is_host and self.knows_hosts and t.get("status") == "waiting"
        y = box.y + int(14 * s)
        fit_label(self, pygame.Rect(box.x, y, box.w, int(44 * s)), t.get("name") or "", object_id="#heading",
                  align="center")
        y += int(44 * s)
        filled = len(seats) - free_seats(t)
        label(self, pygame.Rect(box.x, y, box.w, int(28 * s)), plural_key("lobby.waiting", filled), object_id="#subtitle",
              text_kwargs={"game": games.title(t.get("game")), "filled": str(filled),
                           "seats": str(len(seats))}, align="center")
        y += int(28 * s) + gap
        # bottom rows first: what is left is for the seats
        bh = int(46 * s)
        bottom = box.bottom - pad - bh
        ctl_row = bottom - gap - int(40 * s) if host_ctl else bottom
        hints_h = int(26 * s) * len(self._hint_lines())
        seats_bottom = ctl_row - gap - hints_h
        n = max(1, len(seats))
        rh = max(int(26 * s), min(int(42 * s), (seats_bottom - y) // n - gap))
        bw = int(160 * s)
        n_btn = 2 if host_ctl else 1
        line_w = box.w - 2 * pad - n_btn * (bw + gap)
        self.badge = None
        for seat in seats:
            self._seat_row(seat, pygame.Rect(box.x + pad, y, line_w, rh), bw, gap, host_ctl)
            y += rh + gap
        y = min(y + gap, seats_bottom)  # the hints right under the seats
        choices = self.address_choices()
        for line, kwargs in self._hint_lines():
            rect = pygame.Rect(box.x + pad, y, box.w - 2 * pad, int(26 * s))
            if line == "lobby.share" and choices > 1:  # several addresses: a click shows the next
                n = getattr(self.app, "lan_choice", 0) % choices + 1
                self.controls["address"] = button(
                    self, rect, tr("lobby.share_pick", address=self.address, n=str(n), of=str(choices)),
                    raw=True, class_id="@compact", command=self.next_address)
            else:
                label(self, rect, line, object_id="#hint", raw=kwargs is None, text_kwargs=kwargs, align="center")
            y += int(26 * s)
        if host_ctl:
            cw = (box.w - 2 * pad - 3 * gap) // 4
            lock_key = "hostctl.unlock" if t.get("locked") else "hostctl.lock"
            private_key = "hostctl.open" if t.get("private") else "hostctl.private"
            self.controls["options"] = button(self, pygame.Rect(box.x + pad, ctl_row, cw, int(40 * s)),
                                              "hostctl.options", command=self.open_options)
            self.controls["lock"] = button(self, pygame.Rect(box.x + pad + cw + gap, ctl_row, cw, int(40 * s)),
                                           lock_key, command=self.toggle_lock)
            self.controls["private"] = button(self, pygame.Rect(box.x + pad + 2 * (cw + gap), ctl_row, cw,
                                                                int(40 * s)),
                                              private_key, command=self.toggle_private)
            self.controls["bot_level"] = button(
                self, pygame.Rect(box.x + pad + 3 * (cw + gap), ctl_row, cw, int(40 * s)),
                tr("hostctl.bot_level", level=tr(f"level.{self.app.settings.bot_level}")), raw=True,
                command=self.next_bot_level)
        button(self, pygame.Rect(box.x + pad, bottom, int(170 * s), bh), "lobby.leave", command=self.leave_table)
        free = free_seats(t)
        starts = host_ctl and self.waits_for_host
        if self.manages_bots and free:
            fw = int(230 * s)
            self.controls["fill"] = button(
                self, pygame.Rect(box.right - pad - fw - (int(230 * s) + gap if starts else 0), bottom, fw, bh),
                "hostctl.fill_bots" if starts else "lobby.fill_bots", command=self.fill_bots)
        if starts:
            sw = int(230 * s)
            r = pygame.Rect(box.right - pad - sw, bottom, sw, bh)
            if free:
                self.b_start = button(self, r, plural_key("hostctl.seats_free", free), text_kwargs={"n": str(free)})
                self.b_start.disable()
            else:
                self.b_start = button(self, r, "hostctl.start", object_id="#primary", command=self.start_match)
        else:
            self.b_start = None
        self._scoreboard_widgets()

    def _seat_row(self, seat: dict[str, Any], r: pygame.Rect, bw: int, gap: int, host_ctl: bool) -> None:
        name = seat.get("name")
        n = seat["seat"]
        if name:
            who = name
            if seat.get("bot"):
                who = bot_label(name, seat.get("level"))
            if n == self.my_seat and not self.spectator:
                who = tr("lobby.you", name=name)
            if not seat.get("connected", True) and not seat.get("bot"):
                who += " " + tr("lobby.disconnected")
        else:
            who = tr("lobby.empty")
        line = tr("lobby.seat_line", n=str(n + 1), who=who)
        s = self.app.ui_scale
        is_host_seat = name and n == self.host_seat
        room = r.w
        if is_host_seat:
            bh = max(14, int(r.h * 0.56))
            img = badge_surface(tr("hostctl.host_badge"), bh)
            room = r.w - img.get_width() - int(10 * s)
        lab = fit_label(self, pygame.Rect(r.x, r.y, room, r.h), line)
        if is_host_seat:
            tw = lab.font.size(lab.text)[0] if getattr(lab, "font", None) else room // 2
            x = min(r.x + room + int(10 * s), r.x + tw + int(16 * s))
            self.badge = self.add(pygame_gui.elements.UIImage(
                pygame.Rect(x, r.centery - img.get_height() // 2, img.get_width(), img.get_height()),
                img, self.app.manager))
        x = r.right + gap
        if self.spectator or self.table.get("status") != "waiting":
            return
        if self.manages_bots and not name:
            self.controls[f"add:{n}"] = button(self, pygame.Rect(x, r.y, bw, r.h), "lobby.add_bot",
                                               command=call(self.add_bot, n))
        elif self.manages_bots and seat.get("bot"):
            self.controls[f"remove:{n}"] = button(self, pygame.Rect(x, r.y, bw, r.h), "lobby.remove_bot",
                                                  object_id="#danger", command=call(self.remove_bot, n))
        elif host_ctl and n != self.my_seat:
            self.controls[f"watch:{n}"] = button(self, pygame.Rect(x, r.y, bw, r.h), "hostctl.to_spectators",
                                                 command=call(self.move_to_spectators, n))
            if seat.get("connected", True):
                self.controls[f"host:{n}"] = button(self, pygame.Rect(x + bw + gap, r.y, bw, r.h),
                                                    "hostctl.make_host", command=call(self.pass_host, n))

    def _hint_lines(self) -> list[tuple[str, dict[str, str] | None]]:
        """Up to four hint lines: who starts the match, the lock, privacy, where friends
        join, the options (``(text or key, text_kwargs)``; kwargs None: a ready text)."""
        t = self.table
        lines: list[tuple[str, dict[str, str] | None]] = []
        if not self.waits_for_host:
            lines.append(("lobby.starts_when_full", {}))
        elif self.is_host:
            lines.append(("hostctl.you_host", {}))
        elif self.host_name:
            lines.append(("hostctl.guest", {"name": self.host_name}))
        else:
            lines.append(("hostctl.guest_no_host", {}))
        if t.get("locked"):
            lines.append(("hostctl.locked", {}))
        if t.get("private"):
            lines.append(("hostctl.private_on", {}))
        lines.append(("lobby.share", {"address": self.address}))
        summary = options_summary(t)
        if summary:
            lines.append((summary, None))
        return lines[:4]

    def _scoreboard_widgets(self) -> None:
        r = self.scoreboard_rect()
        if r.w < 120 or r.h < 80:
            return
        scoreboard_panel(self, r, self.scoreboard)

    # -- requests -----------------------------------------------------------------------
    def enter(self) -> None:
        super().enter()
        if self.scoreboard is None and not self._asked_scoreboard:
            self._asked_scoreboard = True
            self.fetch_scoreboard()

    def fetch_scoreboard(self) -> None:
        """Ask the server's ``tables`` reply for the evening's scoreboard."""
        if getattr(self.link, "conn", None) is None:
            return

        def listed(reply: dict) -> None:
            sb = reply.get("scoreboard")
            if isinstance(sb, list) and sb != self.scoreboard:
                self.scoreboard = sb
                if self.app.scenes and self.app.top is self:
                    self.rebuild_soon()

        self.link.request("list_tables").addCallbacks(listed, lambda f: None)

    def _failed(self, f) -> None:
        self.app.notify(error_text(f.value, self.table))

    def _updated(self, reply: dict) -> None:
        if isinstance(reply.get("table"), dict):
            self.set_table(reply["table"])

    def _host_request(self, kind: str, **fields: Any) -> Any:
        d = self.link.request(kind, table=self.table["id"], **fields)
        return d.addCallbacks(self._updated, self._failed)

    def add_bot(self, seat: int) -> None:
        """Seat a bot of the player's bot level (:meth:`next_bot_level`) in ``seat``."""
        self._host_request("add_bot", seat=seat, level=self.app.settings.bot_level)

    def next_bot_level(self) -> None:
        """The level of the bots added from now on: easy, normal, hard, easy... (the
        bots already seated keep theirs; their names say it)."""
        levels = settings_mod.BOT_LEVELS
        self.app.set_bot_level(levels[(levels.index(self.app.settings.bot_level) + 1) % len(levels)])
        self.rebuild_soon()

    def remove_bot(self, seat: int) -> None:
        self._host_request("remove_bot", seat=seat)

    def start_match(self) -> None:
        """The host starts the match (every seat filled); ``match_started`` opens the table."""
        self._host_request("start")

    def move_to_spectators(self, seat: int) -> None:
        self._host_request("move_to_spectators", seat=seat)

    def pass_host(self, seat: int) -> None:
        self._host_request("pass_host", seat=seat)

    def toggle_lock(self) -> None:
        self._host_request("lock", locked=not bool(self.table.get("locked")))

    def toggle_private(self) -> None:
        """One click: the table is private (its room code is needed to sit or watch), or
        open again (the table option ``private``)."""
        self._host_request("set_options", options={"private": not bool(self.table.get("private"))})

    def set_options(self, options: dict[str, Any]) -> None:
        self._host_request("set_options", options=options)

    def open_options(self) -> None:
        from client.scenes.options import OptionsScene

        self.app.push(OptionsScene(self.app, self.table, self.set_options))

    def fill_bots(self) -> None:
        empty = [x["seat"] for x in self.table.get("seats", []) if not x.get("name")]
        level = self.app.settings.bot_level
        d = None
        for seat in empty:
            if d is None:
                d = self.link.request("add_bot", table=self.table["id"], seat=seat, level=level)
            else:
                d.addCallback(lambda _r, n=seat: self.link.request("add_bot", table=self.table["id"], seat=n,
                                                                   level=level))
        if d is not None:
            d.addCallbacks(self._updated, self._failed)

    def leave_table(self) -> None:
        if self.link.conn is not None:
            self.link.request("leave", table=self.table["id"]).addErrback(lambda f: None)
        self.app.go_menu()

    # -- messages -----------------------------------------------------------------------
    def set_table(self, table: dict[str, Any]) -> None:
        if table.get("id") != self.table.get("id"):
            return
        was_host = self.is_host
        old_host = self.host_seat
        self.table = table
        if self.is_host and not was_host and "host" in table and old_host is not None:
            self.app.notify(tr("hostctl.now_host"), 5, error=False)
        elif self.host_seat != old_host and self.host_name and not self.is_host and old_host is not None:
            self.app.notify(tr("hostctl.new_host", name=self.host_name), 5, error=False)
        if self.app.scenes and self.app.top is self:
            self.rebuild_soon()

    def moved(self, msg: dict[str, Any]) -> None:
        """The host moved us to the spectators (``moved {table, seat: null}``): we watch."""
        if msg.get("seat") is not None:
            return
        tid = self.table.get("id")
        forget = getattr(self.link, "forget", None)
        if forget is not None:
            forget(tid)
        watching = getattr(self.link, "watching", None)
        if isinstance(watching, set):
            watching.add(tid)
        self.spectator = True
        self.my_seat = None
        self.app.notify(tr("hostctl.moved"), 6, error=False)
        if self.app.scenes and self.app.top is self:
            self.rebuild()

    def on_message(self, msg: dict[str, Any], link: Any = None) -> None:
        kind = msg.get("type")
        if kind == "table" and isinstance(msg.get("table"), dict):
            self.set_table(msg["table"])
        elif kind == "moved" and msg.get("table") == self.table.get("id") and (link is None or link is self.link):
            self.moved(msg)

    def on_link_lost(self, link: Any) -> None:
        if link is self.link:
            self.app.go_menu()

    def handle_event(self, event: pygame.event.Event, t_ms: float) -> None:
        if event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
            self.leave_table()

    def draw(self, surface: pygame.Surface) -> None:
        w, h = surface.get_size()
        surface.blit(felt.menu_surface(w, h), (0, 0))
        from client.ui import roomcode  # phones join by this room code and QR: no address to type

        roomcode.draw_for(surface, self.side_panel_rect(), self.link, self.table, self.app.ui_scale,
                          host=self.address.rsplit(":", 1)[0])
