"""The WebSocket endpoint: one text frame = one protocol message, served by the same
:class:`server.protocol.ServerProtocol` as a TCP line (docs/PROTOCOL.md "Web
controller").

:class:`PhoneSocket` (an autobahn ``WebSocketServerProtocol``) builds, once the WebSocket
handshake is done, a :class:`~server.protocol.ServerProtocol` through the server's
:class:`server.lobby.LobbyFactory` (so the door's limits apply to phones too) and
connects it to a :class:`FrameTransport`: the protocol writes lines, the transport sends
each line as one text frame; each frame received is handed to the protocol as one line.
Nothing of the protocol's logic is repeated here: validation, errors, clock sync,
heartbeat, slow-reader protection and the seat rules are the TCP server's own.
"""
from __future__ import annotations

from typing import Any, Iterable

from autobahn.twisted.websocket import WebSocketServerFactory, WebSocketServerProtocol
from twisted.internet.interfaces import ITransport
from twisted.logger import Logger
from twisted.python.failure import Failure
from zope.interface import implementer

from shared.protocol import MAX_LINE

log = Logger()

#: Frames longer than this are refused by autobahn itself (close code 1009); between
#: :data:`shared.protocol.MAX_LINE` and this, the protocol answers ``error too_long``
#: and closes, exactly as for a TCP line.
MAX_FRAME = 4 * MAX_LINE


@implementer(ITransport)
class FrameTransport:
    """What a :class:`~server.protocol.ServerProtocol` sees as its transport: writes go
    out as WebSocket text frames (one per line, the newline dropped); closing sends a
    WebSocket close; producer registration, TCP_NODELAY, peer and host go to the TCP
    connection under the WebSocket, so a phone that stops reading pauses the protocol
    like a TCP client would."""

    def __init__(self, ws: "PhoneSocket"):
        self.ws = ws
        self.tcp: Any = ws.transport  # the TCP connection under the WebSocket
        self.disconnecting = False

    def write(self, data: bytes) -> None:
        if self.disconnecting and self.ws.state != self.ws.STATE_OPEN:
            return
        for line in bytes(data).split(b"\n"):
            line = line.rstrip(b"\r")
            if line and self.ws.state == self.ws.STATE_OPEN:
                self.ws.sendMessage(line, isBinary=False)

    def writeSequence(self, data: Iterable[bytes]) -> None:
        self.write(b"".join(data))

    def loseConnection(self) -> None:
        """Close after what was written (the close frame follows the queued frames)."""
        if self.disconnecting:
            return
        self.disconnecting = True
        if self.ws.state == self.ws.STATE_OPEN:
            self.ws.sendClose(code=1000)
        elif self.tcp is not None:
            self.tcp.loseConnection()

    def abortConnection(self) -> None:
        self.disconnecting = True
        if self.tcp is not None:
            self.tcp.abortConnection()

    def getPeer(self) -> Any:
        return self.tcp.getPeer()

    def getHost(self) -> Any:
        return self.tcp.getHost()

    def setTcpNoDelay(self, enabled: bool) -> None:
        setter = getattr(self.tcp, "setTcpNoDelay", None)
        if setter is not None:
            setter(enabled)

    def getHandle(self) -> Any:
        return self.tcp.getHandle()

    def registerProducer(self, producer: Any, streaming: bool) -> None:
        # the HTTP channel that served the handshake is still registered: replace it
        if getattr(self.tcp, "producer", None) is not None:
            self.tcp.unregisterProducer()
        self.tcp.registerProducer(producer, streaming)

    def unregisterProducer(self) -> None:
        if getattr(self.tcp, "producer", None) is not None:
            self.tcp.unregisterProducer()

    # reading: the protocol stops reading requests while its replies wait
    def pauseProducing(self) -> None:
        self.tcp.pauseProducing()

    def resumeProducing(self) -> None:
        self.tcp.resumeProducing()

    def pending_bytes(self) -> int:
        """Bytes written to the TCP connection and not yet taken by the kernel."""
        t = self.tcp
        buffered = getattr(t, "dataBuffer", None)
        if not isinstance(buffered, bytes):
            return 0
        return len(buffered) - int(getattr(t, "offset", 0)) + int(getattr(t, "_tempDataLen", 0))


class PhoneSocket(WebSocketServerProtocol):
    """One phone's WebSocket: bridged to a fresh server protocol once open."""

    proto: Any = None

    def onOpen(self) -> None:
        transport: Any = self.transport
        addr = transport.getPeer()
        proto = self.factory.lobby_factory.buildProtocol(addr)
        if proto is None:  # the server is full and nobody could make room
            self.sendClose(code=1013, reason="the server is full; try again later")
            return
        self.proto = proto
        proto.makeConnection(FrameTransport(self))

    def onMessage(self, payload: bytes, isBinary: bool) -> None:
        proto = self.proto
        if proto is None or proto.transport is None:
            return
        proto.frameReceived(payload)

    def onClose(self, wasClean: bool, code: Any, reason: Any) -> None:
        proto, self.proto = self.proto, None
        if proto is not None and proto.transport is not None:
            proto.connectionLost(Failure(ConnectionError(f"websocket closed ({code})")))


class PhoneSocketFactory(WebSocketServerFactory):
    """Builds :class:`PhoneSocket` s bridged to ``lobby_factory``
    (:class:`server.lobby.LobbyFactory`)."""

    protocol = PhoneSocket

    def __init__(self, lobby_factory: Any, url: str | None = None):
        super().__init__(url)
        self.lobby_factory = lobby_factory
        # the protocol's own ping/pong is the heartbeat; no permessage-deflate (small frames)
        self.setProtocolOptions(maxMessagePayloadSize=MAX_FRAME, maxFramePayloadSize=MAX_FRAME,
                                autoPingInterval=0, openHandshakeTimeout=10, closeHandshakeTimeout=2)
