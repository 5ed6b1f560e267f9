"""Which web pages may open the WebSocket (docs/PROTOCOL.md "Web controller"): the
phone page served by this server, and the origins the host lists in
``web.allowed_origins`` (config.yaml).

A browser says which page opens a WebSocket in its ``Origin`` header and lets any page
open one to any address: without this check, any page a player visits could watch the
tables of the LAN or sit at a free seat. The page's own origin is
``http://ADDRESS:PORT``, where ``ADDRESS:PORT`` is the address the phone reached the
server at: the local end of the very connection (the address the TV's QR code shows), or
this machine's name (``localhost``, its host name, ``NAME.local``). The ``Host`` header
is not trusted for this: a page of a foreign name made to resolve to this server (DNS
rebinding) would match it. A connection that arrives on loopback may also come from a
page of this machine on another port (``localhost`` or a loopback address: a relay, a
proxy of this machine). A request without ``Origin`` comes from a program, not a page
(a bot, a test): it is let in, as over TCP.
"""
from __future__ import annotations

import ipaddress
import socket
from typing import Iterable
from urllib.parse import urlsplit

_DEFAULT_PORTS = {"http": 80, "https": 443}


def origin_key(origin: str) -> tuple[str, str, int] | None:
    """``(scheme, host, port)`` of an origin such as ``http://192.168.1.5:7780`` (host in
    lower case, IPv6 without brackets, the scheme's port when none is written), or None
    when it is not an ``http``/``https`` origin (``null``, a path, garbage)."""
    try:
        parts = urlsplit(origin.strip())
        port = parts.port
    except ValueError:
        return None
    scheme = parts.scheme.lower()
    if scheme not in _DEFAULT_PORTS or not parts.hostname or parts.path not in ("", "/") \
            or parts.query or parts.fragment or parts.username is not None:
        return None
    return scheme, parts.hostname.lower(), port if port is not None else _DEFAULT_PORTS[scheme]


def _address(host: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    try:
        ip = ipaddress.ip_address(host.split("%", 1)[0])
    except ValueError:
        return None
    mapped = getattr(ip, "ipv4_mapped", None)
    return mapped if mapped is not None else ip


def _loopback(host: str) -> bool:
    ip = _address(host)
    return host == "localhost" or (ip is not None and ip.is_loopback)


class OriginPolicy:
    """The allow-list: ``allowed`` (``web.allowed_origins``, e.g.
    ``["http://mafia.lan:7780"]``) besides the page's own origin. Raises ``ValueError``
    naming an entry that is not an ``http``/``https`` origin."""

    def __init__(self, allowed: Iterable[str] = ()):
        self.allowed: set[tuple[str, str, int]] = set()
        for entry in allowed:
            key = origin_key(entry)
            if key is None:
                raise ValueError(f"config: web.allowed_origins: {entry!r} is not an origin "
                                 "such as http://192.168.1.5:7780")
            self.allowed.add(key)
        name = socket.gethostname().lower()
        self.names = {"localhost", name, f"{name.split('.')[0]}.local"}

    def refusal(self, origin: str, local_host: str, local_port: int) -> str | None:
        """None when a page of ``origin`` (the ``Origin`` header; "" when absent) may use
        the WebSocket reached at ``local_host:local_port`` (the local end of its
        connection), else the reason, for the close frame."""
        if not origin:
            return None
        key = origin_key(origin)
        if key is not None and key in self.allowed:
            return None
        if key is None or key[0] != "http":
            return REFUSED
        mine = _address(local_host)
        if key[2] == local_port and (key[1] in self.names or (mine is not None and _address(key[1]) == mine)):
            return None
        if _loopback(key[1]) and _loopback(local_host):
            return None
        return REFUSED


#: The close reason of a refused origin (a WebSocket close reason holds 123 bytes at most).
REFUSED = "origin not allowed: open the page at this server's address, or list the origin in web.allowed_origins"
