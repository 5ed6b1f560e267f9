"""The client's connections: one :class:`Link` per player (couch play opens one per
local seat), the main one first, and what arrives on them.

By default the client starts the server in-process (``server.start_embedded``) and
connects to it; ``--connect HOST:PORT`` joins another server instead. A connection lost
during a match is re-opened by a :class:`~client.reconnect.Reconnector`; the player's
seats are kept on disk (:mod:`client.seats_store`) so a restarted client can sit back
down.
"""
from __future__ import annotations

import secrets
from typing import Any

from client.i18n import tr
from client.net import all_tables, parse_address
from client import settings as settings_mod


class Link:
    """One connection to a server, as one player. ``conn`` is the
    ``client.net.ClientProtocol`` once connected (None while it is being re-opened);
    ``address`` is ``(host, port)``.

    To come back after a lost connection (:mod:`client.reconnect`) it keeps ``tokens``
    (table id -> the seat's reconnect token from ``joined``), ``watching`` (tables it
    watches as a spectator) and ``steps`` (table id -> the ``step`` of the last update
    it received); ``reconnect`` is the running :class:`~client.reconnect.Reconnector`.
    ``rooms``: table id -> its room code, as typed or as its ``table`` messages say: a
    join of a private table (asked again, or watching again after a lost connection)
    carries it."""

    def __init__(self, app: Any, name: str, address: tuple[str, int]):
        self.app = app
        self.name = name
        self.address = address
        self.conn: Any = None
        self.tokens: dict[int, str] = {}
        #: table -> the key this player's joins there are named with (PROTOCOL.md "Asking again")
        self.keys: dict[int, str] = {}
        #: table -> the Deferred of a join whose reply was lost with the connection: the
        #: Reconnector asks again with the key and fires it
        self.joining: dict[int, Any] = {}
        self.watching: set[int] = set()
        self.steps: dict[int, int] = {}
        self.rooms: dict[int, str] = {}
        self.reconnect: Any = None
        #: the server said another device took this link's seat (``taken_over``)
        self.taken_over = False

    def on_message(self, msg: dict[str, Any]) -> None:
        self.app.connections.route(self, msg)

    def on_disconnect(self, reason: Any) -> None:
        self.app.connections.link_lost(self, reason)

    def request(self, msg_type: str, **fields: Any):
        """Send a request (Deferred of the reply); the seats it is given are noted.
        While the connection is being re-opened it fails (``disconnected``)."""
        if self.conn is None:
            from twisted.internet import defer

            from client.net import ServerError

            return defer.fail(ServerError("disconnected", tr("reconnect.lost")))
        if msg_type == "join" and fields.get("room") is None and fields.get("table") in self.rooms:
            fields["room"] = self.rooms[fields["table"]]
        if msg_type == "join" and not fields.get("spectate") and isinstance(fields.get("table"), int):
            return self._join(fields)
        d = self.conn.request(msg_type, **fields)
        d.addCallback(self._note_room)
        if msg_type == "join":
            d.addCallback(self._joined, bool(fields.get("spectate")))
        elif msg_type == "leave":
            self.forget(fields.get("table"))
        return d

    def _join(self, fields: dict[str, Any]):
        """``join`` a seat, named with this table's key: when the connection drops
        before the reply, the returned Deferred waits while the
        :class:`~client.reconnect.Reconnector` asks again with the same key (the same
        seat and token), and fires with that reply."""
        from twisted.internet import defer

        from client.net import ServerError

        table = fields["table"]
        key = self.keys.setdefault(table, secrets.token_urlsafe(24))
        outer: defer.Deferred = defer.Deferred()

        def lost(failure: Any) -> None:
            if isinstance(failure.value, ServerError) and failure.value.code == "disconnected":
                self.joining[table] = outer  # asked again once the connection is back
            else:
                outer.errback(failure)

        d = self.conn.request("join", **fields, key=key)
        d.addCallback(self._joined, False)
        d.addCallbacks(outer.callback, lost)
        return outer

    def _note_room(self, reply: Any) -> Any:
        """A ``table`` reply (to the host) names the table's room code: keep it."""
        table = reply.get("table") if isinstance(reply, dict) else None
        if isinstance(table, dict) and isinstance(table.get("id"), int) and isinstance(table.get("room"), str):
            self.rooms[table["id"]] = table["room"]
        return reply

    def _joined(self, reply: dict[str, Any], spectate: bool) -> dict[str, Any]:
        table = reply.get("table")
        if isinstance(table, int):
            if reply.get("token"):
                self.tokens[table] = str(reply["token"])
                self.keep_seat(table, reply.get("seat"))
            elif spectate:
                self.watching.add(table)
        return reply

    @property
    def server(self) -> str:
        """``"host:port"`` of this link's server (the key of its kept seats)."""
        from client.seats_store import server_key

        return server_key(self.address)

    def keep_seat(self, table: int, seat: Any, game: str | None = None) -> None:
        """Write ``table``'s token to the player's ``seats.json`` (a restarted client
        can sit back down, :mod:`client.seats_store`)."""
        store = self.app.seat_store
        token = self.tokens.get(table)
        if store is None or token is None or not isinstance(seat, int):
            return
        info = self.app.tables.get(table) or {}
        kept = store.get(self.server, table) or {}
        store.remember(self.server, table, seat, token,
                       table_name=str(info.get("name") or kept.get("table_name") or ""),
                       game=str(game or info.get("game") or kept.get("game") or ""),
                       step=self.steps.get(table, kept.get("step")))

    def forget(self, table: Any) -> None:
        """This link no longer sits at (or watches) ``table``. Its kept seat in
        ``seats.json`` goes too, unless the match is running: the token stays valid
        (a bot plays the seat) and the menu offers to sit back down."""
        had = self.tokens.pop(table, None)
        self.watching.discard(table)
        self.steps.pop(table, None)
        store = self.app.seat_store
        if had is not None and store is not None and table not in self.app.open_tables():
            store.forget(self.server, table)


class Connections:
    """The app's :attr:`links` (the :attr:`main_link` among them), the embedded
    server's port, and the routing of every pushed message to the scenes. ``connector``
    opens connections (``client.net.connect``; a fake one in tests)."""

    def __init__(self, app: Any, connect_to: tuple[str, int] | None = None):
        from client import net

        self.app = app
        self.connect_to = connect_to
        self.connector = net.connect
        self.links: list[Link] = []
        self.main_link: Link | None = None
        self.server_port: int | None = None  # the embedded server's, when it runs
        self.server_address: tuple[str, int] | None = None

    # -- opening and closing ------------------------------------------------------------
    def start(self):
        """Start the embedded server (unless ``--connect``) and connect the main
        player. Returns a Deferred firing with the main :class:`Link`."""
        from twisted.internet import defer

        app = self.app
        if self.connect_to is not None:
            self.server_address = self.connect_to
            return self.open_link(app.settings.player_name(), self.connect_to, main=True)
        if not app.config["client"].get("embedded_server", True):
            host, port = parse_address(app.settings.last_address)
            self.server_address = (host, port)
            return self.open_link(app.settings.player_name(), (host, port), main=True)

        def started(port: int):
            self.server_port = port
            self.server_address = ("127.0.0.1", port)
            return self.open_link(app.settings.player_name(), self.server_address, main=True)

        try:
            from server import start_embedded
        except ImportError as e:
            return defer.fail(e)
        return defer.maybeDeferred(start_embedded, app.reactor, app.config).addCallback(started)

    def start_failed(self, failure: Any) -> None:
        """The first connection failed: say why and what to do (the menu stays)."""
        reason = failure.value
        message = str(reason) if isinstance(reason, ConnectionError) else tr("error.server_start", reason=str(reason))
        self.app.start_error = message
        self.app.notify(message + " " + tr("error.try_join"), 20)

    def open_link(self, name: str, address: tuple[str, int], main: bool = False):
        """Connect one player to ``address``; Deferred firing with the :class:`Link`
        (or failing with a player-readable ``ConnectionError``)."""
        from client import net

        link = Link(self.app, name, address)

        def ok(conn):
            link.conn = conn
            self.links.append(link)
            if main:
                if self.main_link is not None and self.main_link.conn is not None:
                    old = self.main_link
                    self.links.remove(old)
                    old.conn.transport.loseConnection()
                self.main_link = link
                top = self.app.top if self.app.scenes else None
                hook = getattr(top, "on_main_link", None)
                if hook is not None:  # a screen that lists the server's tables
                    hook(link)
            return link

        def bad(f):
            host, port = address
            if isinstance(f.value, net.ServerError):
                raise ConnectionError(f.value.message)
            raise ConnectionError(tr("error.cannot_reach", address=f"{host}:{port}"))

        d = self.connector(self.app.reactor, address[0], address[1], name, listener=link, timeout=5.0)
        return d.addCallbacks(ok, bad)

    def close_link(self, link: Link) -> None:
        if link in self.links:
            self.links.remove(link)
        if link.reconnect is not None:
            link.reconnect.cancel()
        if link.conn is not None:
            link.conn.listener = None
            link.conn.transport.loseConnection()

    def close_all(self) -> None:
        """Quitting: note each seat's last step seen (for a restarted client), then
        close every connection."""
        store = self.app.seat_store
        for link in list(self.links):
            for table in list(link.tokens):
                if store is not None and table in link.steps:
                    store.note_step(link.server, table, link.steps[table], force=True)
        for link in list(self.links):
            if link.conn is not None:
                link.conn.transport.loseConnection()

    def rename(self, name: str) -> None:
        """Save ``name`` as the player's name; the main connection is re-opened under
        it when no table is open (the server takes the name from ``hello``)."""
        app = self.app
        app.settings.name = name
        settings_mod.save(app.settings, app.settings_path)
        link = self.main_link
        if link is None or link.conn is None or link.name == name or app.open_tables() or link.tokens:
            return

        def failed(f: Any) -> None:
            app.notify(str(f.value), 10)

        self.open_link(name, link.address, main=True).addErrback(failed)

    # -- what arrives -------------------------------------------------------------------
    def route(self, link: Link, msg: dict[str, Any]) -> None:
        """A pushed message from ``link``'s server: the tables and kept seats are noted,
        a ``match_started`` opens (or reaches) its table, anything else reaches every
        scene."""
        app = self.app
        app.pacer.wake(0.0)  # drawn at once; the scene's animating() says how long to keep on
        app.display.invalidate()  # drawn whole: a message may change widgets as well as the table
        app.pacer.gui_at = 0.0  # ... and pygame_gui redraws them in that frame
        kind = msg.get("type")
        tokens = getattr(link, "tokens", None) or {}  # the seats this link holds (none: a test's stand-in)
        store = app.seat_store
        if kind == "table" and isinstance(msg.get("table"), dict):
            app.tables[msg["table"]["id"]] = msg["table"]
            rooms = getattr(link, "rooms", None)
            if isinstance(rooms, dict) and isinstance(msg["table"].get("room"), str):
                rooms[msg["table"]["id"]] = msg["table"]["room"]
        if kind in ("update", "match_started") and isinstance(msg.get("step"), int):
            link.steps[msg.get("table")] = msg["step"]
            if store is not None and msg.get("table") in tokens:
                store.note_step(link.server, msg.get("table"), msg["step"])
        elif kind == "match_over":
            # the link keeps the token: the server keeps it for the table's life, and
            # "Play again" starts the next match with the same seats and tokens; only the
            # menu's "Rejoin" entry goes (nothing to come back to until a rematch)
            if msg.get("table") in tokens and store is not None:
                store.forget(link.server, msg.get("table"))
        if kind == "match_started" and msg.get("table") in tokens:
            link.keep_seat(msg.get("table"), msg.get("seat"), msg.get("game"))  # with the game and table name
        if kind == "match_started":
            self._match_started(link, msg)
            return
        if kind == "taken_over" and msg.get("table") in tokens:
            self.seat_taken_over(link, msg["table"])
            return
        for s in list(app.scenes):
            s.on_message(msg, link)

    def seat_taken_over(self, link: Link, table: int) -> None:
        """Another device showed the seat's token at ``table`` (``taken_over``): the
        seat is the other device's now, so it is not asked back (that would take it
        from the player's other device); the player is told, the table left."""
        from client.table.base import TableScene

        app = self.app
        link.taken_over = True
        link.tokens.pop(table, None)
        link.steps.pop(table, None)
        if app.seat_store is not None:
            app.seat_store.forget(link.server, table)
        app.notify(tr("reconnect.taken_over"), 15)
        for s in list(app.scenes):
            if isinstance(s, TableScene) and s.table_id == table:
                s.leave_for_good(link)
                return

    def _match_started(self, link: Link, msg: dict[str, Any]) -> None:
        """Open the table of the match's game, found in the registry (or hand the message
        to the table already open: a couch seat joining, a connection coming back)."""
        from client import games
        from client.table.base import TableScene

        app = self.app
        tid = msg.get("table")
        for s in app.scenes:
            if isinstance(s, TableScene) and s.table_id == tid and not s.replay:
                s.on_message(msg, link)
                return
        game = games.get(msg.get("game"))
        group = app.couch_groups.get(tid) if game is not None and game.couch else None
        if group is not None and link is not group["display"]:
            group["stash"].append((link, msg))  # wait for the shared screen's own start
            return
        scene = app.table_scene(link, msg, binding=app.pending_bindings.pop(link, None))
        if scene is None:
            return
        app.reset(scene)
        if group is not None:
            for other, started in group["stash"]:
                scene.on_message(started, other)
            del app.couch_groups[tid]

    # -- lost and back ------------------------------------------------------------------
    def link_lost(self, link: Link, reason: Any) -> None:
        """A connection closed. During a match it is re-opened by a
        :class:`~client.reconnect.Reconnector` (the table says so); else the player is
        told and the screens that used it go back to the menu."""
        from client.reconnect import Reconnector

        app = self.app
        if link.reconnect is not None and link.reconnect.active:
            link.reconnect.dropped()  # the re-opened connection closed again
            return
        if link not in self.links:
            return
        self.links.remove(link)
        if not app.running:
            return
        link.conn = None
        tables = app.open_tables()
        lobbies = app.lobby_tables() & set(link.tokens)  # joined, the match not started yet
        if link.joining or lobbies or any(t in tables for t in list(link.tokens) + list(link.watching)):
            link.reconnect = Reconnector(app, link, self.connector)
            if lobbies:
                app.notify(tr("reconnect.lost"), 130)
            for s in list(app.scenes):
                table = getattr(s, "table", None)
                if isinstance(table, dict) and table.get("id") in lobbies:
                    continue  # the lobby stays while the seat is asked back
                if hasattr(s, "on_link_lost"):
                    s.on_link_lost(link)
            return
        host, port = link.address
        if not link.taken_over:  # else the player was told why
            app.notify(tr("error.lost", address=f"{host}:{port}"), 10)
        for s in list(app.scenes):
            if hasattr(s, "on_link_lost"):
                s.on_link_lost(link)

    def link_back(self, link: Link) -> None:
        """``link``'s connection is open again and its seats are back (the server's
        ``match_started`` with ``resumed: true`` follows)."""
        if link not in self.links:
            self.links.append(link)
        self.app.notify(tr("reconnect.ok"), 4, error=False)

    def seat_lost(self, link: Link) -> None:
        """The server will not give ``link``'s seats back: leave those tables."""
        from client.table.base import TableScene

        app = self.app
        if link.conn is not None and link not in self.links:
            self.links.append(link)  # connected again, only without its seats
        tables = set(link.tokens) | link.watching
        for t in list(tables):
            link.forget(t)
        if tables & app.lobby_tables():
            app.go_menu()  # the lobby of a table we could not sit at again
            return
        for s in list(app.scenes):
            if isinstance(s, TableScene) and s.table_id in tables:
                s.leave_for_good(link)
                return

    # -- kept seats -----------------------------------------------------------------------
    def hosted_friends(self):
        """Deferred list of the names of the tables of the embedded server whose match
        is running with a connected player other than this client's (empty without an
        embedded server, or when it cannot tell within 1 s)."""
        from twisted.internet import defer

        app = self.app
        link = self.main_link
        if self.server_port is None or link is None or link.conn is None or \
                link.address != ("127.0.0.1", self.server_port):
            return defer.succeed([])
        mine = {t: e.get("seat") for t, e in ((e["table"], e) for e in self._kept_here(link))}
        local = {(getattr(s, "table_id", None), seat) for s in app.scenes for seat in getattr(s, "links", {}) or {}}

        def listed(reply: dict[str, Any]) -> list[str]:
            out = []
            for t in reply.get("tables", []):
                if t.get("status") != "playing":
                    continue
                for entry in t.get("seats", []):
                    seat = entry.get("seat")
                    if entry.get("bot") or not entry.get("connected") or mine.get(t.get("id")) == seat \
                            or (t.get("id"), seat) in local:
                        continue
                    out.append(str(t.get("name") or t.get("id")))
                    break
            return out

        d = all_tables(link.request).addCallback(listed)
        timeout = app.reactor.callLater(1.0, lambda: d.called or d.cancel())
        d.addBoth(lambda r: (timeout.active() and timeout.cancel(), r)[1])
        return d

    def _kept_here(self, link: Any) -> list[dict[str, Any]]:
        from client.seats_store import server_key

        store = self.app.seat_store
        address = getattr(link, "address", None)
        if store is None or not address:
            return []
        here = server_key(address)
        return [e for e in store.entries() if e["server"] == here]

    def kept_seats(self) -> list[dict[str, Any]]:
        """The player's kept seats on every server (``seats.json``), newest first: a
        guest who joined a friend's server keeps his seat there, whichever server his
        client connects to first when it starts again."""
        store = self.app.seat_store
        return store.entries() if store is not None else []

    def link_to(self, server: str) -> Link | None:
        """The open link whose server is ``server`` (``"host:port"``), the main one first."""
        for link in ([self.main_link] if self.main_link is not None else []) + self.links:
            if link is not None and link.conn is not None and link.server == server:
                return link
        return None

    def running_tables(self, server: str, timeout_s: float = 3.0):
        """Deferred of ``{table id: table summary}`` of the matches in play on
        ``server`` (``"host:port"``), asked on its open link or, without one, on a short
        connection closed again at once. Fires ``{}`` when the server cannot be reached
        within ``timeout_s`` seconds (a kept seat there is offered again later)."""
        from twisted.internet import defer


        def listed(reply: dict[str, Any]) -> dict[int, dict[str, Any]]:
            return {t.get("id"): t for t in reply.get("tables", []) if t.get("status") == "playing"}

        link = self.link_to(server)
        if link is not None:
            d = all_tables(link.request)
        else:
            try:
                host, port = parse_address(server)
            except ValueError:
                return defer.succeed({})
            probe: dict[str, Any] = {}

            def connected(conn: Any) -> Any:
                probe["conn"] = conn
                return all_tables(conn.request)

            def closed(result: Any) -> Any:
                conn = probe.get("conn")
                if conn is not None:
                    conn.listener = None
                    conn.transport.loseConnection()
                return result

            d = self.connector(self.app.reactor, host, port, self.app.settings.player_name(),
                               listener=None, timeout=timeout_s)
            d.addCallback(connected).addBoth(closed)
        timer = self.app.reactor.callLater(timeout_s, lambda: d.called or d.cancel())
        d.addBoth(lambda r: (timer.active() and timer.cancel(), r)[1])
        return d.addCallbacks(listed, lambda _f: {})

    def rejoin(self, entry: dict[str, Any]):
        """Sit back down at ``entry``'s seat: ``reconnect`` with its token on the link to
        ``entry["server"]`` (opened as the main link when it is not the main one: the
        menu, Join and the table then talk to that server); the server's
        ``match_started`` (``resumed``) opens the table. A refused token forgets the
        entry. Deferred of the ``joined`` reply; fails with ``ConnectionError`` when the
        server cannot be reached."""
        from twisted.internet import defer

        main = self.main_link
        if main is not None and main.conn is not None and main.server == entry["server"]:
            return self._reconnect(main, entry)
        try:
            address = parse_address(entry["server"])
        except ValueError:
            return defer.fail(ConnectionError(tr("error.bad_address", address=entry["server"])))
        d = self.open_link(self.app.settings.player_name(), address, main=True)
        return d.addCallback(self._reconnect, entry)

    def _reconnect(self, link: Link, entry: dict[str, Any]):
        if link.conn is None:
            from twisted.internet import defer

            return defer.fail(ConnectionError(tr("error.not_connected")))
        table = entry["table"]
        link.tokens[table] = entry["token"]
        if isinstance(entry.get("step"), int):
            link.steps.setdefault(table, entry["step"])
        store = self.app.seat_store

        def ok(reply: dict[str, Any]) -> dict[str, Any]:
            if reply.get("token"):
                link.tokens[table] = str(reply["token"])
            return reply

        def refused(f: Any) -> Any:
            link.tokens.pop(table, None)
            code = getattr(f.value, "code", "")
            if code in ("bad_token", "unknown_table") and store is not None:
                store.forget(link.server, table)
            return f

        return link.request("reconnect", token=entry["token"], step=entry.get("step")).addCallbacks(ok, refused)
