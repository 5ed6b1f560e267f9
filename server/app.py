"""Wiring: the server's clock, its data directory, its TCP listener and its discovery
listener, shared by ``mafia-server`` (:mod:`server.main`) and the client's embedded
server (:func:`server.start_embedded`)."""
from __future__ import annotations

import os

import time
from dataclasses import dataclass
from typing import Any

from twisted.internet import defer, endpoints
from twisted.internet.error import CannotListenError
from twisted.logger import Logger

from server import persist
from server.discovery import DiscoveryProtocol, MdnsAnnouncer
from server.lobby import Lobby, LobbyFactory
from server.thinkers import Thinkers, default_size

log = Logger()

#: Connections the kernel may hold for us before they are accepted (capped by the
#: system's somaxconn): a burst of connections, idle or not, waits in it instead of
#: being dropped at the SYN (docs/PROTOCOL.md "Transport and framing").
LISTEN_BACKLOG = 1024


class MonotonicClock:
    """An ``IReactorTime`` whose ``seconds()`` is ``time.monotonic()``; scheduling goes
    to the reactor (delays are relative, so the two clocks may differ)."""

    def __init__(self, reactor: Any):
        self._reactor = reactor

    def seconds(self) -> float:
        return time.monotonic()

    def callLater(self, delay: float, f: Any, *args: Any, **kw: Any) -> Any:
        return self._reactor.callLater(delay, f, *args, **kw)

    def getDelayedCalls(self) -> Any:
        return self._reactor.getDelayedCalls()


@dataclass
class RunningServer:
    """A started server: its lobby, TCP port number and listening ports."""

    lobby: Lobby
    port: int
    tcp: Any
    udp: Any = None
    web: Any = None  # the phone page's listener (server.web), None when off or busy
    thinkers: Any = None  # the bots' worker pool (server.thinkers)
    mdns: Any = None  # the mDNS announcer (server.discovery.MdnsAnnouncer), None when off

    @property
    def web_port(self) -> int | None:
        """The phone page's HTTP port (None: not served)."""
        return self.web.getHost().port if self.web is not None else None

    def stop(self) -> defer.Deferred:
        """Stop listening (TCP, UDP and the phone page) and stop the bots' worker
        processes. Running matches are not ended: their logs stay unfinished, for the next
        start on this port to restore."""
        ds = [defer.maybeDeferred(self.tcp.stopListening)]
        if self.thinkers is not None:
            ds.append(self.thinkers.stop())
        for port in (self.udp, self.web):
            if port is not None:
                ds.append(defer.maybeDeferred(port.stopListening))
        if self.mdns is not None:
            from twisted.internet import threads

            ds.append(threads.deferToThread(self.mdns.stop))
        return defer.gatherResults(ds)


#: Set to "0" to keep servers from announcing themselves over mDNS (the test suite and
#: the benchmarks start dozens of servers: none of them is for the LAN to find).
MDNS_ENV = "MAFIA_TABLE_MDNS"


def mdns_wanted(server: dict[str, Any]) -> bool:
    """Whether a server with config section ``server`` announces itself over mDNS:
    ``server.mdns`` (default true), not on a loopback-only host, and not turned off by
    :data:`MDNS_ENV`."""
    host = str(server.get("host", "0.0.0.0"))
    return (bool(server.get("mdns", True)) and not host.startswith("127.") and host not in ("::1", "localhost")
            and os.environ.get(MDNS_ENV, "1") != "0")


@defer.inlineCallbacks
def start_server(reactor: Any, config: dict[str, Any], tries: int = 1, testing: bool = False,
                 discovery: bool = True, clock: Any = None):
    """Listen on ``config["server"]["host"]:["port"]``, trying the next ``tries - 1``
    ports when busy; restore the unfinished matches this port served, logged in the data
    directory (``server.data_dir``, see :func:`server.persist.data_dir`; a directory that
    cannot be created is logged and matches are then not logged); then answer discovery
    on ``server.discovery_port`` if possible (failure is logged and ignored), and serve the
    phone page on ``web.port`` when ``web.enabled`` (:func:`server.web.start_web`, trying
    as many ports as for TCP; failure is logged and ignored). The bots' searches run in a
    worker pool of ``server.think_workers`` processes (:mod:`server.thinkers`). Returns a
    Deferred firing with a :class:`RunningServer`; fails with ``CannotListenError`` when
    no port was free."""
    server = config["server"]
    directory: Any = persist.data_dir(server.get("data_dir"))
    try:
        directory.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        log.error("cannot use the data directory {dir}: {e}; matches are not logged", dir=str(directory), e=e)
        directory = None
    lobby = Lobby(config, clock or MonotonicClock(reactor), testing=testing, data_dir=directory)
    # the hard bots' searches and the hints: worker processes, started with the first search
    # and stopped before the reactor (no child outlives the server)
    lobby.thinkers = Thinkers(reactor, default_size(int(server.get("think_workers", 0))))
    reactor.addSystemEventTrigger("before", "shutdown", lobby.thinkers.stop)
    factory = LobbyFactory(lobby)
    host, first = str(server["host"]), int(server["port"])
    tcp: Any = None
    for port in range(first, first + max(1, tries)):
        try:
            tcp = yield endpoints.TCP4ServerEndpoint(reactor, port, interface=host,
                                                     backlog=LISTEN_BACKLOG).listen(factory)
            break
        except CannotListenError:
            if port == first + max(1, tries) - 1:
                raise
    actual = tcp.getHost().port
    lobby.port = actual
    lobby.restore()  # before the reactor runs again: no reconnect can come first
    # the syncs and closes still queued on the writer thread finish before the process ends
    reactor.addSystemEventTrigger("after", "shutdown", persist.drain_writer)
    udp = None
    if discovery:
        try:
            udp = reactor.listenUDP(int(server["discovery_port"]), DiscoveryProtocol(lobby, actual),
                                    interface=host)
        except CannotListenError as e:
            log.warn("LAN discovery is off: {e}", e=e)
    mdns = None
    if discovery and mdns_wanted(server):
        mdns = MdnsAnnouncer(lobby, actual)
        mdns.start(reactor)
        reactor.addSystemEventTrigger("before", "shutdown", mdns.stop)
    web = None
    if config.get("web", {}).get("enabled", False):
        try:  # phones are a convenience: a busy port is logged, the server runs on
            from server.web import start_web

            web = yield start_web(reactor, factory, config, tries=tries)
        except (CannotListenError, ImportError) as e:
            log.warn("the phone page is off: {e}", e=e)
    log.info("{name} listening on {host}:{port}", name=lobby.name, host=host, port=actual)
    return RunningServer(lobby, actual, tcp, udp, web, lobby.thinkers, mdns)
