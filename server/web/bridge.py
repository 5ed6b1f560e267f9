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

Close codes (docs/PROTOCOL.md "Web controller"): autobahn fails a connection with a
close frame, never by dropping it (``failByDrop`` off): 1009 for a frame or message over
:data:`MAX_FRAME`, 1002 for a WebSocket protocol error; where the server protocol closes
after an error line, :data:`CLOSE_CODES` names the code (1013 when the server is full);
1000 otherwise. Text frames are not checked for UTF-8 here: the protocol's strict
decoding answers invalid UTF-8 with ``error bad_json`` like any other bad line.

A page whose ``Origin`` is not allowed (:mod:`server.web.origins`) gets no protocol: its
WebSocket is closed at once with code 1008 and the reason, so the page can say why.
"""
from __future__ import annotations

import json
from typing import Any, Iterable

from autobahn.twisted.websocket import WebSocketServerFactory, WebSocketServerProtocol
from twisted.internet.interfaces import ITransport
from twisted.logger import Logger
from twisted.python.failure import Failure
from zope.interface import implementer

from server.protocol import ServerProtocol
from shared.protocol import MAX_LINE
from server.web.origins import OriginPolicy

log = Logger()

#: The ``Server`` header of the site and of the WebSocket handshake: no version.
SERVER_NAME = "Mafia Table"
#: Close code of a WebSocket whose page's origin is not allowed (RFC 6455: policy violation).
CLOSE_ORIGIN = 1008

#: Frames longer than this are refused by autobahn itself (close code 1009); between
#: :data:`shared.protocol.MAX_LINE` and this, the protocol answers ``error too_long``
#: and closes, exactly as for a TCP line.
MAX_FRAME = 4 * MAX_LINE
#: The close code of a connection the server protocol closes after an ``error`` of this
#: code (``ServerProtocol.close_reason``); any other close is 1000.
CLOSE_CODES = {"too_long": 1009, "rate_limited": 1008, "hello_timeout": 1008,
               "server_full": 1013, "too_many_connections": 1013, "taken_over": 1000}


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
        """Close after what was written (the close frame follows the queued frames),
        with the close code of the error the protocol closes for (:data:`CLOSE_CODES`)."""
        if self.disconnecting:
            return
        self.disconnecting = True
        if self.ws.state == self.ws.STATE_OPEN:
            why = getattr(self.ws.proto, "close_reason", None)
            self.ws.close_with(CLOSE_CODES.get(why or "", 1000), why or "")
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
    refused: str | None = None  # why the page's origin may not use this server

    def onConnect(self, request: Any) -> None:
        transport: Any = self.transport
        host = transport.getHost()
        self.refused = self.factory.origins.refusal(request.origin or "", str(getattr(host, "host", "")),
                                                    int(getattr(host, "port", 0)))
        if self.refused is not None:
            log.info("refusing a WebSocket from {peer}: origin {origin!r}", peer=request.peer,
                     origin=request.origin[:100])

    def onOpen(self) -> None:
        if self.refused is not None:  # sendClose takes application codes only (1000, 3000-4999)
            self.sendCloseFrame(code=CLOSE_ORIGIN, reasonUtf8=self.refused.encode()[:123])
            return
        transport: Any = self.transport
        addr = transport.getPeer()
        proto = self.factory.lobby_factory.buildProtocol(addr)
        if not isinstance(proto, ServerProtocol):  # refused at the door: full, or this address is
            line = getattr(proto, "line", b"").rstrip(b"\n")  # its one error line, as over TCP
            code, reason = "server_full", "the server is full; try again later"
            if line:
                self.sendMessage(line, isBinary=False)
                error = json.loads(line)
                code, reason = error.get("code", code), error.get("message", reason)
            self.close_with(CLOSE_CODES.get(code, CLOSE_CODES["server_full"]), reason)
            return
        self.proto = proto
        proto.makeConnection(FrameTransport(self))

    def close_with(self, code: int, reason: str) -> None:
        """Start the closing handshake with ``code`` (any code: autobahn's ``sendClose``
        allows an application 1000 and 3000-4999 only, not the 1008, 1009 and 1013 of
        RFC 6455 that say why) and ``reason`` (ASCII, cut to the 123 bytes a close
        frame holds)."""
        self.sendCloseFrame(code=code, reasonUtf8=reason.encode("ascii", "replace")[:123], isReply=False)

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
    (:class:`server.lobby.LobbyFactory`), for pages of the origins its config allows
    (``web.allowed_origins``; raises ``ValueError`` on an entry that is no origin)."""

    protocol = PhoneSocket

    def __init__(self, lobby_factory: Any, url: str | None = None):
        super().__init__(url, server=SERVER_NAME)
        self.lobby_factory = lobby_factory
        self.origins = OriginPolicy(lobby_factory.lobby.config.get("web", {}).get("allowed_origins", ()))
        # the protocol's own ping/pong is the heartbeat; no permessage-deflate (small
        # frames); a failed connection gets a close frame with its code, not a reset;
        # UTF-8 is the protocol's to check (bad_json), not a reason to fail the socket
        self.setProtocolOptions(maxMessagePayloadSize=MAX_FRAME, maxFramePayloadSize=MAX_FRAME,
                                autoPingInterval=0, openHandshakeTimeout=10, closeHandshakeTimeout=2,
                                failByDrop=False, utf8validateIncoming=False)
        # a null origin (a sandboxed frame, a file) is refused by PhoneSocket.onConnect, with the
        # same clear close as any foreign page, not by autobahn's bare HTTP 403
        self.setProtocolOptions(allowNullOrigin=True)
