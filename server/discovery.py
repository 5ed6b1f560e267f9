"""LAN discovery (ARCHITECTURE §5; docs/PROTOCOL.md "LAN discovery").

A UDP :class:`DiscoveryProtocol` on ``server.discovery_port`` answers the datagram
``{"v": 1, "type": "discover"}`` with ``{"v": 1, "type": "server", "id", "name",
"tcp_port", "tables": [Table]}`` sent back to the asker. Joining by address stays the
fallback when broadcasts do not get through.
"""
from __future__ import annotations

import json
from typing import Any

from twisted.internet.protocol import DatagramProtocol
from twisted.logger import Logger

log = Logger()

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
