"""The Mafia Table server (ARCHITECTURE §5). The client uses only :func:`start_embedded`;
``mafia-server`` is :mod:`server.main`."""
from __future__ import annotations

from typing import Any

from twisted.internet import defer

__all__ = ["start_embedded"]

#: How many ports after ``server.port`` the embedded server tries when it is busy.
EMBEDDED_PORT_TRIES = 21


def start_embedded(reactor: Any, config: dict[str, Any]) -> defer.Deferred:
    """Start a lobby server inside the calling program (the GUI's "local" server).

    ``config`` is the merged config dict (``shared.config.merge``); the server listens on
    ``config["server"]["host"]`` at ``config["server"]["port"]``, or the next free port
    among the following 20, and answers LAN discovery on ``server.discovery_port`` when
    that UDP port is free (silently skipped otherwise). Like ``mafia-server`` it logs
    every match in ``server.data_dir`` (by default the user's data directory) and, when
    it starts, restores the matches a previous run on the same port left unfinished (the
    GUI quit or crashed mid-match; the other players come back with their tokens).
    Returns a Deferred firing with the TCP port actually used (int); it fails with
    ``twisted.internet.error.CannotListenError`` when all 21 ports are busy. The server
    runs until the reactor stops.
    """
    from server.app import start_server

    d = start_server(reactor, config, tries=EMBEDDED_PORT_TRIES)
    return d.addCallback(lambda running: running.port)
