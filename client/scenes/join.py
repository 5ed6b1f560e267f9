"""Join a table: servers found on the LAN (UDP discovery) or typed as ``host:port``,
their tables with player counts, host, lock and privacy; join a seat or watch as a
spectator. A private table asks for its room code first
(:class:`client.scenes.room_code.RoomCodeScene`).
The evening's scoreboard of the server (``tables.scoreboard``) is shown under the
servers."""
from __future__ import annotations

import weakref
from typing import Any, Callable

import pygame
import pygame_gui

from client import felt, games
from client.net import all_tables, parse_address
from client.i18n import plural_key, tr
from client.ui.scene import Scene
from client.ui.widgets import button, call, dialog, entry, label


def table_line(t: dict[str, Any], fits: Callable[[str], bool] = lambda _line: True) -> str:
    """One row of the table list: name, game, players/seats, status, host, lock, private -- the
    longest form that ``fits`` (str -> bool: the row's width): whole; without the host
    when the table's name already says it; without the host; seats as "1/4" alone; then
    the table's name cut with an ellipsis."""
    seats = t.get("seats", [])
    filled = sum(1 for s in seats if s.get("name"))
    name = str(t.get("name") or f"#{t.get('id')}")
    host = str(t.get("host_name") or "")
    status = tr(f"join.status_{t.get('status', 'waiting')}")

    def line(name: str, with_host: bool, players: bool) -> str:
        count = tr("join.players", filled=str(filled), seats=str(len(seats))) if players \
            else f"{filled}/{len(seats)}"
        parts = [name, games.title(t.get("game")), count, status]
        if with_host and host:
            parts.append(tr("hostctl.list_host", name=host))
        if t.get("locked"):
            parts.append(tr("hostctl.list_locked"))
        if t.get("private"):
            parts.append(tr("hostctl.list_private"))
        return " · ".join(parts)

    forms = [line(name, True, True)]
    if host and host.casefold() in name.casefold():
        forms.append(line(name, False, True))
    forms += [line(name, False, True), line(name, False, False)]
    for form in forms:
        if fits(form):
            return form
    cut = name
    while len(cut) > 1 and not fits(line(cut + "…", False, False)):
        cut = cut[:-1]
    return line(cut.rstrip() + "…", False, False)


#: How many servers the Join screen remembers (Settings.recent_servers).
RECENT_SERVERS = 5


def remember_server(settings: Any, address: str) -> None:
    """Put ``address`` ("host:port", just joined) first in ``settings.recent_servers``."""
    kept = [a for a in settings.recent_servers if a != address]
    settings.recent_servers = [address, *kept][:RECENT_SERVERS]


def recent_servers(settings: Any) -> list[tuple[str, int]]:
    """``settings.recent_servers`` as ``(host, port)`` pairs, bad entries left out."""
    out = []
    for a in settings.recent_servers:
        try:
            out.append(parse_address(str(a)))
        except ValueError:
            continue
    return out


def server_line(s: dict[str, Any]) -> str:
    """A server's row: its name, address and number of tables -- or, found over mDNS
    alone (its tables unknown until this client connects), that picking it shows them."""
    if s.get("via") in ("mdns", "recent", "scan") and not s.get("tables"):
        key = "join.server_line_recent" if s.get("via") == "recent" else "join.server_line_mdns"
        return tr(key, name=s.get("name") or "?", address=f"{s['host']}:{s['tcp_port']}")
    n = len(s.get("tables", []))
    return tr(plural_key("join.server_line", n), name=s.get("name") or "?", address=f"{s['host']}:{s['tcp_port']}",
              tables=str(n))


def watch_any(app: Any, link: Any, retry_s: float = 3.0) -> None:
    """TV view: watch a table of ``link``'s server as a spectator -- a match in play if
    there is one, else a table still waiting; tries again every ``retry_s`` s until one
    exists. The table then shows public information only."""

    def listed(reply: dict) -> None:
        tables = [t for t in reply.get("tables", [])  # a private table needs a code nobody typed
                  if t.get("status") in ("playing", "waiting") and not t.get("private")]
        tables.sort(key=lambda t: (t.get("status") != "playing", t.get("id")))
        if not tables:
            app.notify(tr("join.tv_waiting"), retry_s + 1, error=False)
            app.reactor.callLater(retry_s, watch_any, app, link, retry_s)
            return
        table = tables[0]
        app.tables[table["id"]] = table

        def joined(_reply: dict) -> None:
            if table.get("status") == "waiting":
                from client.scenes.lobby import LobbyScene

                app.reset(LobbyScene(app, link, table, my_seat=None, spectator=True))

        link.request("join", table=table["id"], spectate=True).addCallbacks(
            joined, lambda f: app.notify(tr("error.request", reason=getattr(f.value, "message", str(f.value)))))

    if link is None or link.conn is None:
        return
    all_tables(link.request).addCallback(listed)


class JoinScene(Scene):
    def __init__(self, app: Any):
        super().__init__(app)
        self.servers: list[dict[str, Any]] = []
        self.tables: list[dict[str, Any]] = []
        self.link: Any = None
        self.address = app.settings.last_address
        self.searching = False
        #: the last search found no server: the search button scans the network instead
        self.searched_empty = False
        self.state = ""  # message under the lists
        self.selected_table: int | None = None
        self.scoreboard: list[dict[str, Any]] | None = None  # the connected server's evening, shown before joining
        #: the lists this scene made (the current ones and those a rebuild replaced) -> "servers" / "tables"
        self.old_lists: "weakref.WeakKeyDictionary[Any, str]" = weakref.WeakKeyDictionary()
        #: the text of every row the table list has shown -> its table id: a pick read
        #: from its event's text when the list was made again before the event came
        self.row_tables: dict[str, int] = {}

    def enter(self) -> None:
        super().enter()
        self.discover()
        if self.app.connections.main_link is not None and self.app.connections.main_link.conn is not None:
            self.link = self.app.connections.main_link
            self.refresh_tables()

    def on_main_link(self, link: Any) -> None:
        """The client's connection to its server came up while this screen is shown (a
        busy machine: after the screen was entered): list that server's tables now,
        not only when the player presses Refresh."""
        if self.link is None or self.link.conn is None:
            self.link = link
            self.refresh_tables()

    def build(self, size: tuple[int, int]) -> None:
        s = self.app.ui_scale
        box = dialog(self, size, 0.86, 0.86)
        pad, rh, gap = int(22 * s), int(42 * s), int(10 * s)
        col_w = (box.w - 3 * pad) // 2
        lx, rx = box.x + pad, box.x + 2 * pad + col_w
        y = box.y + pad
        label(self, pygame.Rect(lx, y, col_w, int(40 * s)), "join.servers", object_id="#heading")
        label(self, pygame.Rect(rx, y, col_w, int(40 * s)), "join.tables", object_id="#heading")
        y += int(44 * s)
        list_h = box.bottom - pad - int(60 * s) - y - (rh + gap) * 2
        servers_h = int(list_h * 0.42)
        self.l_servers = self.add(pygame_gui.elements.UISelectionList(
            pygame.Rect(lx, y, col_w, servers_h), [(server_line(x), str(i)) for i, x in enumerate(self.servers)],
            self.app.manager))
        from client.scenes.lobby import scoreboard_panel

        scoreboard_panel(self, pygame.Rect(lx, y + servers_h + gap, col_w, list_h - servers_h - gap), self.scoreboard)
        rows = [(table_line(t), str(t["id"])) for t in self.tables]
        self.row_tables.update((text, int(tid)) for text, tid in rows)
        self.l_tables = self.add(pygame_gui.elements.UISelectionList(
            pygame.Rect(rx, y, col_w, list_h), rows, self.app.manager))
        self._fit_table_rows()
        self._show_selected_table()
        self.old_lists[self.l_servers] = "servers"
        self.old_lists[self.l_tables] = "tables"
        y += list_h + gap
        scan = self.searched_empty and self.link is None
        button(self, pygame.Rect(lx, y, col_w, rh), "join.scan" if scan else "join.search", command=self.discover)
        half = (col_w - gap) // 2
        self.b_join = button(self, pygame.Rect(rx, y, half, rh), "join.join", object_id="#primary",
                             command=call(self.join, False))
        self.b_watch = button(self, pygame.Rect(rx + half + gap, y, half, rh), "join.watch",
                              command=call(self.join, True))
        y += rh + gap
        aw = int(col_w * 0.64)
        self.e_address = entry(self, pygame.Rect(lx, y, aw, rh), self.address)
        button(self, pygame.Rect(lx + aw + gap, y, col_w - aw - gap, rh), "join.connect",
               command=self.connect_typed)
        button(self, pygame.Rect(rx, y, col_w, rh), "join.refresh", command=self.refresh_tables)
        y = box.bottom - pad - int(48 * s)
        button(self, pygame.Rect(lx, y, int(180 * s), int(48 * s)), "common.back", command=self.app.pop)
        self.l_state = label(self, pygame.Rect(lx + int(200 * s), y, box.w - 2 * pad - int(200 * s), int(48 * s)),
                             self.state or " ", raw=True, object_id="#hint")

    def _fit_table_rows(self) -> None:
        """Each row of the table list in the longest form its button shows whole
        (:func:`table_line`), measured with the rows' own font and room."""
        from client.ui.widgets import _room

        row = next((i["button_element"] for i in self.l_tables.item_list if i.get("button_element")), None)
        font = getattr(row, "font", None)
        if row is None or font is None:
            return
        room = _room(row)
        rows = [(table_line(t, lambda line: font.size(line)[0] <= room), str(t["id"])) for t in self.tables]
        self.row_tables.update((text, int(tid)) for text, tid in rows)
        if [r[0] for r in rows] != [i["text"] for i in self.l_tables.item_list]:
            self.l_tables.set_item_list(rows)
            self._show_selected_table()

    def _show_selected_table(self) -> None:
        """The picked table stays highlighted when the list is made again (a search that
        ends, a table summary): the pick itself (:attr:`selected_table`) never went."""
        if self.selected_table is not None and not any(t["id"] == self.selected_table for t in self.tables):
            self.selected_table = None  # that table closed
        for item in self.l_tables.item_list:
            if self.selected_table is not None and item["object_id"] == str(self.selected_table):
                item["selected"] = True
                if item.get("button_element") is not None:
                    item["button_element"].select()

    def set_state(self, message: str) -> None:
        self.state = message
        if getattr(self, "l_state", None) is not None and self.l_state.alive():
            self.l_state.set_text(message or " ")

    # -- discovery ----------------------------------------------------------------------
    def discover(self) -> None:
        if self.searching:
            return
        from client import net

        self.searching = True
        self.set_state(tr("join.searching"))
        port = int(self.app.config["server"].get("discovery_port", 7778))
        if self.searched_empty and self.link is None:
            self.scan()
            return

        def found(servers: list[dict[str, Any]]) -> None:
            self.searching = False
            self.servers = servers
            self.searched_empty = not any(s.get("via") != "recent" for s in servers)
            self.set_state(tr(plural_key("join.found", len(servers)), n=str(len(servers))) if servers
                           else self._nothing_found())
            self.offer_kept()  # a kept seat matters more than what the search found
            if self.app.top is self:
                self.rebuild()

        def failed(f) -> None:
            self.searching = False
            self.set_state(self._nothing_found())
            self.offer_kept()

        net.discover(self.app.reactor, port=port, remembered=recent_servers(self.app.settings)) \
            .addCallbacks(found, failed)

    def scan(self) -> None:
        """Nothing answered the search (broadcast, mDNS): try the game port on every
        address of this machine's /24 (:func:`client.net.scan`), a way in where a
        firewall drops every datagram."""
        from client import net

        network = net.local_subnet()
        if network is None:
            self.set_state(tr("join.none_found"))
            return
        self.searching = True
        tcp_port = int(self.app.config["server"].get("port", 7777)) or 7777  # the game port hosts use
        self.set_state(tr("join.scanning", network=str(network), port=str(tcp_port)))

        def found(servers: list[dict[str, Any]]) -> None:
            self.searching = False
            self.searched_empty = False
            self.servers = servers
            self.set_state(tr(plural_key("join.found", len(servers)), n=str(len(servers))) if servers
                           else tr("join.scan_none", port=str(tcp_port)))
            if self.app.top is self:
                self.rebuild()

        def failed(_f: Any) -> None:
            self.searching = False
            self.set_state(tr("join.scan_none", port=str(tcp_port)))

        net.scan(self.app.reactor, tcp_port, network,
                 port=int(self.app.config["server"].get("discovery_port", 7778))).addCallbacks(found, failed)

    def _nothing_found(self) -> str:
        """No server answered the search: typing an address is the way, unless a server
        is connected already (its tables are listed)."""
        if self.link is not None and self.link.conn is not None:
            return tr("join.connected", address="%s:%s" % tuple(self.link.address[:2]))
        return tr("join.none_found")

    # -- connecting ---------------------------------------------------------------------
    def connect_typed(self) -> None:
        text = self.e_address.get_text() if getattr(self, "e_address", None) else self.address
        try:
            address = parse_address(text, int(self.app.config["server"].get("port", 7777)))
        except ValueError:
            self.app.notify(tr("error.bad_address", address=text))
            return
        self.connect(address)

    def connect(self, address: tuple[str, int]) -> None:
        self.address = f"{address[0]}:{address[1]}"
        self.app.settings.last_address = self.address
        main = self.app.connections.main_link
        if main is not None and main.conn is not None and tuple(main.address) == tuple(address):
            self.link = main
            self.refresh_tables()
            return
        self.set_state(tr("join.connecting", address=self.address))

        def ok(link: Any) -> None:
            self.set_state(tr("join.connected", address=self.address))
            remember_server(self.app.settings, self.address)
            if self.link is not link:  # else on_main_link listed its tables already
                self.link = link
                self.refresh_tables()

        def bad(f) -> None:
            self.set_state("")
            self.app.notify(str(f.value), 10)

        self.app.connections.open_link(self.app.settings.player_name(), address, main=True).addCallbacks(ok, bad)

    def refresh_tables(self) -> None:
        if self.link is None or self.link.conn is None:
            self.connect_typed()
            return

        def listed(reply: dict) -> None:
            self.tables = list(reply.get("tables", []))
            sb = reply.get("scoreboard")
            self.scoreboard = sb if isinstance(sb, list) else None
            for t in self.tables:
                self.app.tables[t["id"]] = t
            if not self.tables:
                self.set_state(tr("join.no_tables"))
            self.offer_kept()
            if self.app.top is self:
                self.rebuild()

        all_tables(self.link.request).addCallbacks(listed, self._failed)

    def _failed(self, f) -> None:
        self.app.notify(tr("error.request", reason=getattr(f.value, "message", str(f.value))))

    def join(self, spectate: bool, room: str | None = None) -> None:
        """Sit down at (or watch, ``spectate``) the picked table; a private table whose
        room code this link does not know asks for it first, and ``room`` is what was
        typed."""
        if self.link is None or self.selected_table is None:
            self.app.notify(tr("join.pick_table"), error=False)
            return
        tid = self.selected_table
        kept = self.kept_seat(tid) if not spectate else None
        if kept is not None:
            self.rejoin(kept)
            return
        listed = self.app.tables.get(tid) or {}
        known = getattr(self.link, "rooms", {})
        if room is None and listed.get("private") and tid not in known:
            from client.scenes.room_code import RoomCodeScene

            name = str(listed.get("name") or f"#{tid}")
            self.app.push(RoomCodeScene(self.app, name, lambda code: self.join(spectate, code)))
            return
        fields: dict[str, Any] = {"table": tid}
        if spectate:
            fields["spectate"] = True
        if room is not None:
            fields["room"] = room

        def joined(reply: dict) -> None:
            if room is not None and isinstance(known, dict):
                known[tid] = room  # this link goes back in with it (a lost connection)
            table = self.app.tables.get(tid, {"id": tid, "seats": []})
            if table.get("status") == "waiting":
                from client.scenes.lobby import LobbyScene

                self.app.replace(LobbyScene(self.app, self.link, table, my_seat=reply.get("seat"),
                                            spectator=spectate))
            else:
                self.set_state(tr("join.waiting_view"))

        def failed(f) -> None:
            from client.ui.errors import error_text

            self.app.notify(error_text(f.value, self.app.tables.get(tid)))

        self.link.request("join", **fields).addCallbacks(joined, failed)

    def kept_seat(self, tid: int) -> dict[str, Any] | None:
        """The player's kept seat (``seats.json``) at table ``tid`` of this server, when
        its match is running: *Join* then takes that seat back instead of asking for a
        new one (which the server refuses once the match has started)."""
        table = self.app.tables.get(tid) or {}
        if self.link is None or table.get("status") != "playing":
            return None
        server = self.link.server
        return next((e for e in self.app.connections.kept_seats()
                     if e["server"] == server and e["table"] == tid), None)

    def rejoin(self, entry: dict[str, Any]) -> None:
        """Sit back down at ``entry``'s seat; the server's resumed ``match_started`` opens
        the table."""
        def failed(f: Any) -> None:
            code = getattr(f.value, "code", "")
            self.app.notify(tr("rejoin.gone") if code in ("bad_token", "unknown_table")
                            else tr("rejoin.failed", reason=getattr(f.value, "message", str(f.value))))

        self.set_state(tr("join.rejoining"))
        self.app.connections.rejoin(entry).addErrback(failed)

    def offer_kept(self) -> None:
        """Say, under the lists, which listed running table keeps the player's seat."""
        for t in self.tables:
            if self.kept_seat(t["id"]) is not None:
                self.set_state(tr("join.seat_kept", table=str(t.get("name") or f"#{t['id']}")))
                return

    # -- events -------------------------------------------------------------------------
    def handle_event(self, event: pygame.event.Event, t_ms: float) -> None:
        # A list's event may come from the list this scene had a moment ago: the search
        # ending or a table summary made the lists again between the click and now. The
        # click still counts (read from the list it was made on).
        role = getattr(event, "ui_element", None) in self.old_lists and self.old_lists[event.ui_element]
        if event.type == pygame_gui.UI_SELECTION_LIST_NEW_SELECTION:
            sel = event.ui_element.get_single_selection(include_object_id=True) if role else None
            if role == "servers" and sel:
                i = int(sel[1])
                if i < len(self.servers):
                    srv = self.servers[i]
                    self.connect((srv["host"], int(srv["tcp_port"])))
            elif role == "tables":
                # the list may have been made again since the click (its selection gone
                # with it): the row's text says which table was picked
                picked = int(sel[1]) if sel else self.row_tables.get(str(getattr(event, "text", "")))
                if picked is not None:
                    self.selected_table = picked
                self._show_selected_table()
        elif event.type == pygame_gui.UI_BUTTON_PRESSED and self._table_row(event.ui_element) is not None:
            # a row's own press: the list that made it may have been made again before
            # turning the press into its selection event, which then never comes
            self.selected_table = self._table_row(event.ui_element)
            self._show_selected_table()
        elif event.type == pygame_gui.UI_SELECTION_LIST_DROPPED_SELECTION and role == "tables":
            self._show_selected_table()  # a second click on the picked table keeps it picked
        elif event.type == pygame_gui.UI_SELECTION_LIST_DOUBLE_CLICKED_SELECTION and role == "tables":
            self.join(False)
        elif event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
            self.app.pop()
        elif event.type == pygame_gui.UI_TEXT_ENTRY_FINISHED and event.ui_element is getattr(self, "e_address", None):
            self.connect_typed()

    def _table_row(self, element: Any) -> int | None:
        """The table id of ``element`` when it is a row of a table list this scene made
        (the current one or one a rebuild replaced), else None."""
        parent = getattr(element, "parent_element", None)
        if parent is None or self.old_lists.get(parent) != "tables":
            return None
        return self.row_tables.get(str(getattr(element, "text", "")))

    def on_message(self, msg: dict[str, Any], link: Any = None) -> None:
        if msg.get("type") == "table" and link is self.link and isinstance(msg.get("table"), dict):
            t = msg["table"]
            self.tables = [t if x["id"] == t["id"] else x for x in self.tables]

    def draw(self, surface: pygame.Surface) -> None:
        w, h = surface.get_size()
        surface.blit(felt.menu_surface(w, h), (0, 0))
