"""The client end of the wire protocol (docs/PROTOCOL.md), for the GUI and ``mafia-bot``.

No pygame here: this module only speaks JSON lines over TCP (and UDP for LAN discovery).

* :func:`now_ms` -- the client's monotonic clock in ms; key presses are stamped with it.
* :class:`ClientProtocol` -- one connection: requests with replies as Deferreds, pushed
  messages handed to a listener, clock sync answered at once.
* :func:`connect` -- TCP connect + ``hello``/``welcome``.
* :func:`all_tables` -- every page of ``list_tables``, as one ``tables`` reply.
* :func:`discover` -- find servers on the LAN by a UDP broadcast.

A listener is any object with ``on_message(msg: dict)`` and ``on_disconnect(reason)``
(``reason`` is a :class:`twisted.python.failure.Failure`).
"""
from __future__ import annotations

import json
import time
from typing import Any, Callable, Iterable

from twisted.internet import defer, endpoints, protocol, task
from twisted.internet.error import ConnectionDone
from twisted.protocols.basic import LineReceiver
from twisted.python import failure

from client.i18n import server_text
from shared.protocol import DEFAULT_DISCOVERY_PORT, MAX_LINE, ProtocolError, decode, encode

__all__ = ["ClientProtocol", "ServerError", "all_tables", "connect", "discover", "now_ms"]

#: :func:`all_tables` stops after this many pages (a server's tables fit in far fewer).
MAX_TABLE_PAGES = 50


def now_ms() -> float:
    """The client's monotonic time in milliseconds (``time.perf_counter_ns() / 1e6``).

    Any origin; never jumps. ``t_press``, ``t_shown`` and ``pong.tc`` use this clock.
    """
    return time.perf_counter_ns() / 1e6


class ServerError(Exception):
    """The server answered a request with ``error``. ``code`` is one of
    ``shared.protocol.ERROR_CODES``; ``message`` is a sentence for people, translated
    when the server sent it as a code (``sentence``), ``english`` the server's own. The code
    ``disconnected`` means the connection closed before the reply arrived."""

    def __init__(self, code: str, message: str, sentence: object = None):
        super().__init__(f"{code}: {message}")
        self.code = code
        self.english = message
        #: the server's sentence in the player's language (the English one for a code
        #: this client does not know: :func:`client.i18n.server_text`)
        self.message = server_text(sentence, message)


class ClientProtocol(LineReceiver):
    """One connection to a Mafia Table server.

    Attributes: ``welcome`` (the server's welcome message once :func:`connect` is done),
    ``offset_ms`` and ``rtt_ms`` / ``rtt_p99_ms`` from the last ``clock`` message (None
    before the first one): ``server_ms ≈ client_ms + offset_ms``. ``listener`` receives
    every pushed message except ``ping`` (answered here at once).
    """

    delimiter = b"\n"
    MAX_LENGTH = MAX_LINE

    def __init__(self, listener: Any = None):
        self.listener = listener
        self.welcome: dict[str, Any] | None = None
        #: table -> [view, legal, step] last known (the base of the next delta update)
        self._views: dict[Any, list[Any]] = {}
        self._resyncing: set[Any] = set()
        self.offset_ms: float | None = None
        self.rtt_ms: float | None = None
        self.rtt_p99_ms: float | None = None
        self._seq = 0
        self._pending: dict[int, defer.Deferred] = {}
        self.connected_d: defer.Deferred = defer.Deferred()

    # -- connection ---------------------------------------------------------------------
    def connectionMade(self) -> None:
        if hasattr(self.transport, "setTcpNoDelay"):
            self.transport.setTcpNoDelay(True)
        self.connected_d.callback(self)

    def connectionLost(self, reason: failure.Failure = failure.Failure(ConnectionDone())) -> None:
        pending, self._pending = self._pending, {}
        for d in pending.values():
            d.errback(ServerError("disconnected", "the connection to the server was lost"))
        if self.listener is not None and hasattr(self.listener, "on_disconnect"):
            self.listener.on_disconnect(reason)

    def lineLengthExceeded(self, line: bytes) -> None:
        self.transport.loseConnection()

    # -- receiving ----------------------------------------------------------------------
    def lineReceived(self, line: bytes) -> None:
        try:
            msg = decode(line)
        except ProtocolError:
            return  # a server bug; nothing sensible to answer
        kind = msg["type"]
        if kind == "ping":
            self.transport.write(encode("pong", id=msg.get("id"), tc=now_ms()))
            return
        if kind == "clock":
            self.offset_ms = msg.get("offset_ms")
            self.rtt_ms = msg.get("rtt_ms")
            self.rtt_p99_ms = msg.get("rtt_p99_ms")
        if kind in ("match_started", "update") and not self._track_view(msg):
            return  # a delta that cannot be applied: a resync was asked for
        re = msg.get("re")
        if re is not None and re in self._pending:
            d = self._pending.pop(re)
            if kind == "error":
                d.errback(ServerError(str(msg.get("code")), str(msg.get("message")), msg.get("sentence")))
            else:
                d.callback(msg)
            return
        if self.listener is not None:
            self.listener.on_message(msg)

    def _track_view(self, msg: dict[str, Any]) -> bool:
        """Keep each table's last view; turn a delta ``update`` (``view_set`` /
        ``view_unset``, ``legal`` omitted when unchanged: docs/PROTOCOL.md, feature
        ``delta``) into a full one in place, so listeners always see ``view`` and
        ``legal``. False when the delta cannot be applied (no base, or a gap in
        ``step``): ``resync`` is requested and the message dropped; the
        ``match_started`` that answers it carries the whole view."""
        table = msg.get("table")
        if msg["type"] == "match_started":
            self._resyncing.discard(table)
            self._views[table] = [msg.get("view"), msg.get("legal"), msg.get("step")]
            return True
        base = self._views.get(table)
        if "view" in msg:
            self._views[table] = [msg["view"], msg.get("legal"), msg.get("step")]
            return True
        step = msg.get("step")
        first = msg.get("from_step", step)  # feature "steps": the first of several steps
        if base is None or not isinstance(base[0], dict) or base[2] is None or first != base[2] + 1:
            if table not in self._resyncing and self.transport is not None:
                self._resyncing.add(table)
                if base is not None and isinstance(base[2], int):
                    d = self.request("resync", table=table, step=base[2])
                else:
                    d = self.request("resync", table=table)
                d.addErrback(lambda f: self._resyncing.discard(table))
            return False
        view = dict(base[0])
        view.update(msg.pop("view_set", None) or {})
        for key in msg.pop("view_unset", None) or ():
            view.pop(key, None)
        legal = msg["legal"] if "legal" in msg else base[1]
        msg["view"], msg["legal"] = view, legal
        self._views[table] = [view, legal, step]
        return True

    # -- sending ------------------------------------------------------------------------
    def send(self, msg_type: str, **fields: Any) -> None:
        """Send one message without waiting for anything (no ``seq``)."""
        self.transport.write(encode(msg_type, **fields))

    def request(self, msg_type: str, **fields: Any) -> defer.Deferred:
        """Send a request with a fresh ``seq``.

        Returns a Deferred firing with the reply dict (the message whose ``re`` is that
        seq), or failing with :class:`ServerError` on an ``error`` reply or when the
        connection is lost first (code ``disconnected``).
        """
        self._seq += 1
        d: defer.Deferred = defer.Deferred()
        self._pending[self._seq] = d
        self.transport.write(encode(msg_type, seq=self._seq, **fields))
        return d

    def send_action(self, table: int, action: dict[str, Any], t_press: float | None = None,
                    t_shown: float | None = None) -> defer.Deferred:
        """Send ``action`` (``{"type": ..., ...}``) for ``table``.

        ``t_press`` / ``t_shown`` are client-monotonic ms (:func:`now_ms`) of the key
        press and of the moment the window's card was first drawn; give them for claims
        (snap, hitwoman). Fires with the ``ack`` reply or fails with :class:`ServerError`
        (``illegal_action``, ``claim_refused``, ...).
        """
        fields: dict[str, Any] = {"table": table, "action": action}
        if t_press is not None:
            fields["t_press"] = t_press
        if t_shown is not None:
            fields["t_shown"] = t_shown
        return self.request("action", **fields)

    def to_client_ms(self, server_ms: float) -> float | None:
        """A server time converted to this client's clock (None before clock sync)."""
        if self.offset_ms is None:
            return None
        return server_ms - self.offset_ms


def connect(reactor: Any, host: str, port: int, name: str, listener: Any = None,
            timeout: float = 5.0, features: tuple[str, ...] = ("delta", "steps")) -> defer.Deferred:
    """Connect to ``host:port`` and say hello as ``name``, asking for ``features``
    (docs/PROTOCOL.md ``hello``; by default ``delta``: updates carry only what changed,
    turned back into whole views here, so listeners never see a delta; and ``steps``:
    one update may carry the events of several steps the server released together).

    Returns a Deferred firing with the :class:`ClientProtocol` once ``welcome`` arrived
    (kept in ``.welcome``); fails with a Twisted connection error (refused, timeout after
    ``timeout`` seconds) or :class:`ServerError` if the server refuses the hello.
    """
    endpoint = endpoints.TCP4ClientEndpoint(reactor, host, port, timeout=timeout)
    factory = protocol.Factory.forProtocol(lambda: ClientProtocol(listener))
    d = endpoint.connect(factory)

    def hello(proto: ClientProtocol) -> defer.Deferred:
        def welcomed(msg: dict[str, Any]) -> ClientProtocol:
            proto.welcome = msg
            return proto

        def refused(f: failure.Failure) -> failure.Failure:
            proto.transport.loseConnection()
            return f

        if features:
            hd = proto.request("hello", name=name, features=list(features))
        else:
            hd = proto.request("hello", name=name)
        hd.addTimeout(timeout, reactor)
        return hd.addCallbacks(welcomed, refused)

    return d.addCallback(hello)


def all_tables(request: Any) -> defer.Deferred:
    """Every page of ``list_tables`` (docs/PROTOCOL.md "Lobby": one page per reply, the
    next asked with ``after``), through ``request(msg_type, **fields)`` (a
    :class:`ClientProtocol`'s, a link's). A Deferred firing with the first page's reply
    whose ``tables`` are every page's (``next`` dropped); it fails as ``request`` does."""
    first: dict[str, Any] = {}

    @defer.inlineCallbacks
    def walk() -> Any:
        after = None
        for _ in range(MAX_TABLE_PAGES):
            reply = yield (request("list_tables") if after is None else request("list_tables", after=after))
            if not first:
                first.update(reply)
                first["tables"] = list(reply.get("tables") or [])
            else:
                first["tables"] += list(reply.get("tables") or [])
            after = reply.get("next")
            if not isinstance(after, int) or isinstance(after, bool):
                break
        first.pop("next", None)
        return first

    return walk()


#: The DNS-SD service type servers announce over mDNS (server.discovery.SERVICE_TYPE).
MDNS_SERVICE = "_mafiatable._tcp.local."
#: When (s after the start) the broadcast query is sent: a datagram lost on a busy Wi-Fi
#: is sent again.
BROADCAST_AT_S = (0.0, 0.8, 1.6)


class _DiscoveryClient(protocol.DatagramProtocol):
    """Sends the discovery query (broadcast and loopback, or to one host) and keeps the
    answers by server: ``found[(id or host, tcp_port)]``."""

    def __init__(self, port: int):
        self.port = port
        self.found: dict[tuple[str, int], dict[str, Any]] = {}
        self.asked: set[str] = set()  # hosts asked directly (found over mDNS)

    def startProtocol(self) -> None:
        try:
            self.transport.setBroadcastAllowed(True)
        except OSError:
            pass
        self.query()

    def query(self, hosts: tuple[str, ...] = ("<broadcast>", "127.0.0.1")) -> None:
        data = json.dumps({"v": 1, "type": "discover"}).encode()
        for host in hosts:
            try:
                self.transport.write(data, (host, self.port))
            except (OSError, AttributeError):
                pass  # no broadcast route (offline machine), or stopped: the others still go

    def mdns_found(self, service: dict[str, Any]) -> None:
        """A server announced over mDNS (:class:`_MdnsBrowse`): kept unless its UDP
        answer came (that one lists its tables), and asked directly for its tables --
        a router that drops broadcasts may still pass a datagram to one host."""
        key = (str(service.get("id") or service["host"]), int(service["tcp_port"]))
        if key not in self.found:
            self.found[key] = {"name": service["name"], "host": service["host"], "tcp_port": key[1],
                               "tables": [], "id": service.get("id") or None, "via": "mdns"}
        if service["host"] not in self.asked:
            self.asked.add(service["host"])
            self.query((service["host"],))

    def datagramReceived(self, data: bytes, addr: tuple[str, int]) -> None:
        try:
            msg = json.loads(data)
            tcp_port = int(msg["tcp_port"])
        except (ValueError, KeyError, TypeError):
            return
        if not isinstance(msg, dict) or msg.get("type") != "server":
            return
        host = addr[0]
        # The same server answers both the broadcast and the loopback query: keep one
        # entry per server instance, preferring the LAN address others can reach too.
        key = (str(msg.get("id") or host), tcp_port)
        old = self.found.get(key)
        if old is not None and old["host"] != "127.0.0.1" and old.get("via") != "mdns":
            return
        self.found[key] = {
            "name": str(msg.get("name", "")),
            "host": old["host"] if old is not None and old.get("via") == "mdns" and host == "127.0.0.1" else host,
            "tcp_port": tcp_port,
            "tables": list(msg.get("tables") or []),
            "id": msg.get("id") or None,
        }


class _MdnsBrowse:
    """Browses :data:`MDNS_SERVICE` with zeroconf (its own threads) and hands each server
    found to ``found(service)`` in the reactor thread: ``{"name", "host", "tcp_port",
    "id"}`` (an IPv4 address first when it has one). Without zeroconf or multicast it
    finds nothing and says nothing."""

    def __init__(self, reactor: Any, found: Callable[[dict[str, Any]], None]):
        self.reactor = reactor
        self.found = found
        self.zc: Any = None
        self.closed = False

    def start(self) -> None:
        self.reactor.callInThread(self._browse)

    def _browse(self) -> None:
        try:
            from zeroconf import ServiceBrowser, Zeroconf

            zc = Zeroconf()
        except Exception:  # no zeroconf, no multicast socket: broadcast and typing remain
            return
        if self.closed:
            zc.close()
            return
        self.zc = zc
        ServiceBrowser(zc, MDNS_SERVICE, handlers=[self._changed])

    def _changed(self, zeroconf: Any, service_type: str, name: str, state_change: Any) -> None:
        if getattr(state_change, "name", "") not in ("Added", "Updated"):
            return
        try:
            info = zeroconf.get_service_info(service_type, name, timeout=1500)
        except Exception:
            return
        if info is None or not info.port:
            return
        addresses = sorted(info.parsed_addresses(), key=lambda a: (":" in a, a))  # IPv4 first
        if not addresses:
            return
        props = {(k.decode() if isinstance(k, bytes) else str(k)):
                 (v.decode("utf-8", "replace") if isinstance(v, bytes) else "")
                 for k, v in (info.properties or {}).items()}
        service = {"name": props.get("name") or name.split(".")[0], "host": addresses[0],
                   "tcp_port": int(info.port), "id": props.get("id") or None}
        if not self.closed:
            self.reactor.callFromThread(self._deliver, service)

    def _deliver(self, service: dict[str, Any]) -> None:
        if not self.closed:  # the search ended while this one was on its way
            self.found(service)

    def stop(self) -> None:
        self.closed = True
        zc, self.zc = self.zc, None
        if zc is not None:
            self.reactor.callInThread(zc.close)


def discover(reactor: Any, port: int = DEFAULT_DISCOVERY_PORT, timeout: float = 2.5,
             mdns: bool = True, remembered: Iterable[tuple[str, int]] = ()) -> defer.Deferred:
    """Find Mafia Table servers on the LAN, two ways at once for ``timeout`` seconds:

    * the UDP query ``{"type": "discover"}`` broadcast on ``port`` (and sent to 127.0.0.1
      so a server on this machine is found), sent again at :data:`BROADCAST_AT_S`;
    * with ``mdns``, a DNS-SD browse of :data:`MDNS_SERVICE` (``zeroconf``): a server
      found that way but not by the broadcast is asked for its tables directly;
    * the ``remembered`` servers (``(host, tcp_port)``: those this player joined lately)
      are asked directly too, and listed first -- answering or not.

    Returns a Deferred firing with ``[{"name", "host", "tcp_port", "tables": [Table],
    "id", "via"?, "recent"?}]`` (``via``: ``"mdns"`` found by mDNS alone, ``"recent"``
    remembered but silent -- their tables unknown until this client connects; ``recent:
    true`` a remembered server), one entry per server: remembered ones first, then by
    host and port; possibly empty, never failing."""
    remembered = [(str(h), int(p)) for h, p in remembered]
    client = _DiscoveryClient(port)
    try:
        listening = reactor.listenUDP(0, client)
    except Exception:  # no UDP at all: only the remembered servers
        return defer.succeed(_with_remembered({}, remembered))
    client.query(tuple(dict.fromkeys(h for h, _ in remembered)))
    browse = _MdnsBrowse(reactor, client.mdns_found) if mdns else None
    if browse is not None:
        browse.start()
    calls = [reactor.callLater(at, client.query) for at in BROADCAST_AT_S if 0 < at < timeout]
    d: defer.Deferred = defer.Deferred()

    def done() -> None:
        for call in calls:
            if call.active():
                call.cancel()
        if browse is not None:
            browse.stop()
        listening.stopListening()
        d.callback(_with_remembered(client.found, remembered))

    reactor.callLater(timeout, done)
    return d


def _host_key(server: dict[str, Any]) -> tuple:
    """Sort key of a found server: its address as a number (192.0.2.9 before
    192.0.2.10), names after addresses, then its port."""
    import ipaddress

    try:
        ip = ipaddress.ip_address(server["host"])
        return (0, ip.version, int(ip), "", server["tcp_port"])
    except ValueError:
        return (1, 0, 0, str(server["host"]), server["tcp_port"])


def _with_remembered(found: dict[Any, dict[str, Any]], remembered: list[tuple[str, int]]) -> list[dict[str, Any]]:
    """The servers found, the remembered ones first (in the order remembered, a silent
    one listed too), then the others by host and port."""
    servers = sorted(found.values(), key=_host_key)
    first: list[dict[str, Any]] = []
    for host, tcp_port in remembered:
        match = next((s for s in servers if s["host"] == host and s["tcp_port"] == tcp_port), None)
        if match is None:
            if any(s["host"] == host and s["tcp_port"] == tcp_port for s in first):
                continue
            match = {"name": host, "host": host, "tcp_port": tcp_port, "tables": [], "id": None, "via": "recent"}
        else:
            servers.remove(match)
        match["recent"] = True
        first.append(match)
    return first + servers


def local_subnet(address: str | None = None) -> Any:
    """The /24 (IPv4) of this machine's LAN address (``client.ui.roomcode.lan_address``
    when ``address`` is None), as an ``ipaddress.IPv4Network``; None for loopback."""
    import ipaddress

    if address is None:
        from client.ui.roomcode import lan_address

        address = lan_address()
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return None
    if ip.version != 4 or ip.is_loopback:
        return None
    return ipaddress.ip_network(f"{ip}/24", strict=False)


def scan(reactor: Any, tcp_port: int, network: Any = None, timeout: float = 1.0,
         parallel: int = 64, port: int = DEFAULT_DISCOVERY_PORT) -> defer.Deferred:
    """Look for servers where nothing answered a search: try a TCP connection to
    ``tcp_port`` on every host of ``network`` (default :func:`local_subnet`; at most
    ``parallel`` attempts at once, each given ``timeout`` s), then ask each host that
    accepted for its name and tables with the discovery datagram (UDP ``port``, 1 s).
    Returns a Deferred firing with entries as :func:`discover`'s (``via: "scan"`` for a
    host that did not answer the datagram); never failing."""
    network = network if network is not None else local_subnet()
    if network is None:
        return defer.succeed([])
    hosts = [str(h) for h in network.hosts()]
    sem = defer.DeferredSemaphore(max(1, parallel))
    open_hosts: list[str] = []

    def attempt(host: str) -> defer.Deferred:
        point = endpoints.TCP4ClientEndpoint(reactor, host, tcp_port, timeout=timeout)
        d = point.connect(protocol.Factory.forProtocol(protocol.Protocol))

        def accepted(proto: Any) -> None:
            open_hosts.append(host)
            proto.transport.loseConnection()

        return d.addCallbacks(accepted, lambda _f: None)

    @defer.inlineCallbacks
    def run() -> Any:
        yield defer.DeferredList([sem.run(attempt, h) for h in hosts])
        if not open_hosts:
            return []
        client = _DiscoveryClient(port)
        try:
            listening = reactor.listenUDP(0, client)
        except Exception:
            listening = None
        if listening is not None:
            client.query(tuple(open_hosts))
            yield task.deferLater(reactor, 1.0, lambda: None)
            listening.stopListening()
        answered = {(s["host"], s["tcp_port"]) for s in client.found.values()}
        out = [s for s in client.found.values() if s["tcp_port"] == tcp_port and s["host"] in open_hosts]
        out += [{"name": h, "host": h, "tcp_port": tcp_port, "tables": [], "id": None, "via": "scan"}
                for h in open_hosts if (h, tcp_port) not in answered]
        return sorted(out, key=_host_key)

    return run()


def parse_address(value: str, default_port: int = 7777) -> tuple[str, int]:
    """``"host:port"`` or ``"host"`` -> ``(host, port)``; raises ValueError."""
    value = value.strip()
    if not value:
        raise ValueError("empty address")
    if value.count(":") == 1:
        host, port_s = value.split(":")
        port = int(port_s)
    else:
        host, port = value, default_port
    if not host or not 0 < port < 65536:
        raise ValueError(value)
    return host, port
