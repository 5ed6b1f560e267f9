"""LAN discovery (ARCHITECTURE §5; docs/PROTOCOL.md "LAN discovery").

A UDP :class:`DiscoveryProtocol` on ``server.discovery_port`` answers the datagram
``{"v": 1, "type": "discover"}`` with ``{"v": 1, "type": "server", "id", "name",
"tcp_port", "tables": [Table]}`` sent back to the asker. Besides, :class:`MdnsAnnouncer`
announces the server as a DNS-SD service over mDNS (``zeroconf``): Wi-Fi routers that
drop broadcasts, or convert multicast to unicast, still pass mDNS (printers and
speakers rely on it). Joining by address stays the fallback when neither gets through.
"""
from __future__ import annotations

import json
import threading
from typing import Any

from twisted.internet import threads
from twisted.internet.protocol import DatagramProtocol
from twisted.logger import Logger

from shared.addresses import lan_addresses

log = Logger()

#: The DNS-SD service type of a Mafia Table server (RFC 6763).
SERVICE_TYPE = "_mafiatable._tcp.local."
#: A DNS label (the service instance's name) is at most 63 bytes.
MAX_LABEL = 63

#: Largest answer sent (bytes); the table list is cut to fit.
MAX_ANSWER = 8192


class DiscoveryProtocol(DatagramProtocol):
    """Answers discovery queries for ``lobby``, whose players connect on ``tcp_port``."""

    def __init__(self, lobby: Any, tcp_port: int):
        self.lobby = lobby
        self.tcp_port = tcp_port

    def answer(self) -> bytes:
        """The answer datagram (at most :data:`MAX_ANSWER` bytes)."""
        tables = self.lobby.summaries()
        while True:
            data = json.dumps({"v": 1, "type": "server", "id": self.lobby.server_id,
                               "name": self.lobby.name, "tcp_port": self.tcp_port,
                               "tables": tables}, separators=(",", ":")).encode()
            if len(data) <= MAX_ANSWER or not tables:
                return data
            tables = tables[: len(tables) // 2]

    def datagramReceived(self, data: bytes, addr: tuple[str, int]) -> None:
        try:
            msg = json.loads(data)
        except ValueError:
            return
        if not isinstance(msg, dict) or msg.get("type") != "discover":
            return
        try:
            transport: Any = self.transport
            transport.write(self.answer(), addr)
        except OSError as e:
            log.debug("discovery answer to {addr} failed: {e}", addr=addr, e=e)


def instance_name(name: str, server_id: str) -> str:
    """The service instance label: the server's name and the start of its id (two hosts
    both called "Mafia Table" stay two services), cut to :data:`MAX_LABEL` bytes."""
    tail = f" ({server_id[:6]})"
    head = name.replace(".", " ").strip() or "Mafia Table"
    while len((head + tail).encode()) > MAX_LABEL:
        head = head[:-1]
    return head + tail


class MdnsAnnouncer:
    """Announces ``lobby``'s server (players on ``tcp_port``) as the DNS-SD service
    :data:`SERVICE_TYPE`: instance :func:`instance_name`, the addresses of
    :func:`lan_addresses`, TXT ``v=1``, ``id``, ``name``. Registering probes the network
    for about 1.5 s, so it runs in a thread; a failure (no multicast route, zeroconf
    missing) is logged and the server runs on, found by broadcast or by address."""

    def __init__(self, lobby: Any, tcp_port: int):
        self.lobby = lobby
        self.tcp_port = tcp_port
        self.zc: Any = None
        self.info: Any = None
        self.stopped = False  # stop() came: a registration still probing closes at its end
        self.ready: Any = None  # start()'s Deferred: fires once announced (or failed)
        self._lock = threading.Lock()

    def service_info(self) -> Any:
        """The zeroconf ``ServiceInfo`` announced (raises ImportError without zeroconf)."""
        from zeroconf import ServiceInfo

        name = instance_name(self.lobby.name, self.lobby.server_id)
        return ServiceInfo(SERVICE_TYPE, f"{name}.{SERVICE_TYPE}", port=self.tcp_port,
                           parsed_addresses=lan_addresses(),  # the LAN's first
                           properties={"v": "1", "id": self.lobby.server_id, "name": self.lobby.name},
                           server=f"mafia-{self.lobby.server_id[:12]}.local.")

    def _register(self) -> None:
        from zeroconf import IPVersion, Zeroconf

        info = self.service_info()
        zc = Zeroconf(ip_version=IPVersion.All)
        try:
            zc.register_service(info, allow_name_change=True)
        except Exception:
            zc.close()
            raise
        with self._lock:
            self.zc, self.info = zc, info
            late = self.stopped
        if late:
            self.stop()

    def start(self, reactor: Any) -> Any:
        """Register in a thread of ``reactor``; returns its Deferred (never failing)."""
        d = threads.deferToThreadPool(reactor, reactor.getThreadPool(), self._register)
        self.ready = d.addErrback(lambda f: log.warn("mDNS announcement is off: {e}", e=f.value))
        return self.ready

    def stop(self) -> None:
        """Say goodbye on the network and close (blocking, a fraction of a second)."""
        with self._lock:
            self.stopped = True
            zc, self.zc = self.zc, None
        if zc is None:
            return
        try:
            if self.info is not None:
                zc.unregister_service(self.info)
        except Exception as e:  # the network went away first: nothing left to tell
            log.debug("mDNS goodbye failed: {e}", e=e)
        finally:
            zc.close()
