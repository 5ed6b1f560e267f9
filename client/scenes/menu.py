"""The main menu: (Rejoin your seat,) Quick game, Host a table, Join, Couch game,
Settings, Quit.

Quick game is one click: create a table of the registry's Quick game with its default
seat count, sit at seat 0, fill the other seats with bots; the server starts the match
when the last seat is filled and the app opens the table.
"""
from __future__ import annotations

from typing import Any

import pygame

from client import felt, games
from client.i18n import tr
from client.ui.scene import Scene
from client.ui.title import draw_title
from client.ui.widgets import button, column, label


def quick_game(link: Any, seats: int | None = None, name: str | None = None, options: dict | None = None,
               level: str | None = None):
    """Create a ``seats``-seat table (default: the game's default seat count) of the
    registry's Quick game on ``link``'s server, sit at seat 0 and fill the other seats
    with bots of ``level`` (the server's default, normal, when None). Returns a Deferred
    firing with the table id."""
    game = games.quick_game().name
    if seats is None:
        seats = games.seat_range(game)[2]
    d = link.request("create_table", game=game, seats=seats,
                     name=name or tr("menu.quick_table_name"), options=options or {})

    def created(reply: dict) -> Any:
        tid = reply["table"]["id"]
        d2 = link.request("join", table=tid, seat=0)
        fields = {} if level is None else {"level": level}
        for _ in range(seats - 1):
            d2.addCallback(lambda _r: link.request("add_bot", table=tid, **fields))
        return d2.addCallback(lambda _r: tid)

    return d.addCallback(created)


class MenuScene(Scene):
    """The main menu. When the player's ``seats.json`` keeps a seat at a match still
    running on its server (any server: checked with ``list_tables`` once per main
    connection and whenever the menu comes back), a first entry "Rejoin your seat at
    <table>" (key R) takes it back with ``reconnect``
    (:meth:`client.links.Connections.rejoin`)."""

    def __init__(self, app: Any):
        super().__init__(app)
        self.t = 0.0
        self.busy = False
        self.rejoin_entry: dict[str, Any] | None = None
        self.b_rejoin: Any = None
        self._checked_conn: Any = None  # the connection the kept seats were checked on

    def build(self, size: tuple[int, int]) -> None:
        w, h = size
        s = self.app.ui_scale
        entries = [("menu.quick_game", "#primary", self.on_quick), ("menu.host", None, self.on_host),
                   ("menu.join", None, self.on_join)]
        entries += [(k, None, cb) for k, cb in self.extra_entries()]
        entries.append(("menu.quit", "#danger", self.app.request_quit))
        self.b_rejoin = None
        if self.rejoin_entry is not None:
            entries.insert(0, ("rejoin", "#primary", self.on_rejoin))
            rows = column(size, 0.34, 0.405, int(46 * s), int(8 * s), len(entries))
        else:
            rows = column(size, 0.30, 0.43, int(52 * s), int(12 * s), len(entries))
        for r, (k, oid, cb) in zip(rows, entries):
            if k == "rejoin":  # wider than the others: it names the table
                r = pygame.Rect(0, r.y, int(w * 0.56), r.h)
                r.centerx = w // 2
                self.b_rejoin = button(self, r, self.rejoin_text(), object_id=oid, class_id="@menu", raw=True,
                                       command=cb)
                continue
            b = button(self, r, k, object_id=oid, class_id="@menu", command=cb)
            if k == "menu.quick_game":
                self.b_quick = b
        bw = int(220 * s)
        self.status = label(self, pygame.Rect(bw + int(24 * s), h - int(40 * s), w - 2 * (bw + int(24 * s)),
                                              int(30 * s)), " ", object_id="#hint",
                            raw=True, align="center")
        bw = int(220 * s)
        button(self, pygame.Rect(w - bw - int(12 * s), h - int(42 * s), bw, int(34 * s)), "menu.change_name",
               command=self.on_name)
        self.b_help = button(self, pygame.Rect(int(12 * s), h - int(42 * s), bw, int(34 * s)), "menu.help",
                             command=self.on_help)

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
        link = self.app.connections.main_link
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

        quick_game(link, level=self.app.settings.bot_level).addErrback(failed)

    # -- getting a seat back -----------------------------------------------------------
    def rejoin_text(self) -> str:
        e = self.rejoin_entry or {}
        name = e.get("table_name") or tr("rejoin.unnamed", id=e.get("table"))
        return tr("rejoin.button", table=name)

    def check_kept_seats(self) -> None:
        """Once per main connection and each time the menu comes back on screen: is a
        kept seat's match running on its server (same table id, game and name)? Then
        offer it. Every server the player kept a seat on is asked (its open link, or a
        short connection): a guest's seat is on his friend's server, not on the
        embedded one his restarted client connects to."""
        link = self.app.connections.main_link
        conn = link.conn if link is not None else None
        if conn is None or conn is self._checked_conn:
            return
        self._checked_conn = conn
        open_tables = self.app.open_tables()
        entries = [e for e in self.app.connections.kept_seats() if e["table"] not in open_tables]
        if not entries:
            self._offer(None)
            return
        servers = list(dict.fromkeys(e["server"] for e in entries))
        asks = [self.app.connections.running_tables(server) for server in servers]
        from twisted.internet import defer

        def listed(replies: list[dict[int, dict[str, Any]]]) -> None:
            running = dict(zip(servers, replies))
            for e in entries:  # newest first
                t = running.get(e["server"], {}).get(e["table"])
                if t is None or (e.get("game") and t.get("game") != e["game"]) or \
                        (e.get("table_name") and t.get("name") != e["table_name"]):
                    continue
                self._offer(dict(e, table_name=str(t.get("name") or e.get("table_name") or "")))
                return
            self._offer(None)

        defer.gatherResults(asks, consumeErrors=True).addCallbacks(listed, lambda f: None)

    def enter(self) -> None:
        super().enter()
        self._checked_conn = None  # back on the menu: a seat may have been kept meanwhile

    def _offer(self, entry: dict[str, Any] | None) -> None:
        if entry == self.rejoin_entry:
            return
        self.rejoin_entry = entry
        if self.app.scenes and self.app.top is self:
            self.rebuild()

    def on_rejoin(self) -> None:
        entry = self.rejoin_entry
        if entry is None or self.busy:
            return
        self.busy = True

        def done(_reply: dict) -> None:
            self.busy = False  # the server's match_started (resumed) opens the table

        def failed(f: Any) -> None:
            self.busy = False
            code = getattr(f.value, "code", "")
            self.app.notify(tr("rejoin.gone") if code in ("bad_token", "unknown_table")
                            else tr("rejoin.failed", reason=getattr(f.value, "message", str(f.value))))
            self._checked_conn = None  # look again: the entry may be gone
            self._offer(None)

        self.app.connections.rejoin(entry).addCallbacks(done, failed)

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

    def on_help(self) -> None:
        from client.scenes.help import HelpScene

        self.app.push(HelpScene(self.app, games.quick_game().name))

    def on_settings(self) -> None:
        from client.scenes.settings import SettingsScene

        self.app.push(SettingsScene(self.app))

    # -- frame ------------------------------------------------------------------------
    def handle_event(self, event: pygame.event.Event, t_ms: float) -> None:
        if event.type == pygame.KEYDOWN and event.key == pygame.K_RETURN:
            self.on_quick()
        elif event.type == pygame.KEYDOWN and event.key == pygame.K_r and self.rejoin_entry is not None:
            self.on_rejoin()
        elif event.type == pygame.KEYDOWN and event.key == pygame.K_F1:
            self.on_help()

    def update(self, dt: float) -> None:
        self.t += dt
        self.check_kept_seats()
        link = self.app.connections.main_link
        if link is not None and link.conn is not None:
            host, port = link.address
            where = tr("menu.local_server", port=port) if self.app.connections.server_port == port and host == "127.0.0.1" \
                else tr("menu.connected_to", address=f"{host}:{port}")
            msg = tr("menu.status", name=link.name, where=where)
        elif self.app.start_error:
            msg = tr("menu.not_connected")
        elif self.app.connections.connect_to is not None:
            host, port = self.app.connections.connect_to
            msg = tr("menu.connecting_to", address=f"{host}:{port}")
        else:
            msg = tr("menu.connecting")
        if getattr(self, "status", None) is not None and self.status.text != msg:
            self.status.set_text(msg)

    def draw(self, surface: pygame.Surface) -> None:
        w, h = surface.get_size()
        surface.blit(felt.menu_surface(w, h), (0, 0))
        draw_title(surface, self.app, 0.0, faces=games.title_cards())  # still: an idle menu costs ~nothing
