"""The web controller: phones as private hands (docs/PROTOCOL.md "Web controller",
ARCHITECTURE "The web layer").

:func:`start_web` listens on ``web.port`` (config) with a ``twisted.web`` site that
serves the page (plain HTML, CSS and JavaScript from ``server/web/static/``, no build
step), the room API (``GET /api/room/CODE``) and the WebSocket
endpoint ``/ws`` (autobahn) that speaks the wire protocol, one JSON message per text
frame, through the server's own :class:`server.protocol.ServerProtocol`
(:mod:`server.web.bridge`). Room codes: :mod:`server.web.rooms`.
"""
from __future__ import annotations

from typing import Any

from twisted.internet import defer, endpoints
from twisted.internet.error import CannotListenError
from twisted.logger import Logger

log = Logger()

__all__ = ["start_web"]


@defer.inlineCallbacks
def start_web(reactor: Any, lobby_factory: Any, config: dict[str, Any], tries: int = 1):
    """Listen for phones on ``config["server"]["host"]`` at ``config["web"]["port"]``
    (0: any free port), trying the next ``tries - 1`` ports when busy. ``lobby_factory``
    is the running server's :class:`server.lobby.LobbyFactory`; its lobby gets
    ``web_port`` (sent in ``welcome``). Returns a Deferred firing with the listening port
    (``IListeningPort``); fails with ``CannotListenError`` when no port was free."""
    from server.web.site import make_site

    site = make_site(lobby_factory)
    host, first = str(config["server"]["host"]), int(config["web"]["port"])
    listening: Any = None
    last = first + max(1, tries) - 1 if first else first
    for port in range(first, last + 1):
        try:
            listening = yield endpoints.TCP4ServerEndpoint(reactor, port, interface=host,
                                                           backlog=256).listen(site)
            break
        except CannotListenError:
            if port == last:
                raise
    lobby_factory.lobby.web_port = listening.getHost().port
    log.info("phones: http://{host}:{port}/", host=host, port=lobby_factory.lobby.web_port)
    return listening
