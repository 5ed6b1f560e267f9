"""The ``twisted.web`` site of the web controller: the static page, the room API and
the WebSocket endpoint (docs/PROTOCOL.md "Web controller").

* ``GET /`` (and ``/static/...``): the page, from ``server/web/static/``.
* ``GET /api/room/CODE``: ``200 {"room", "table": Table, "ws": "/ws"}`` for an open
  table whose room code is ``CODE`` (any case), else
  ``404 {"error": "unknown_room", "message"}``; a wrong code spends one of the
  address's tries (:attr:`server.lobby.Lobby.code_tries`, shared with ``join``), and an
  address without one left gets ``429 {"error": "too_many_codes", "message"}`` with
  ``Retry-After`` (s). No request lists the codes.
* ``GET /api/strings/LANG`` (``en`` or ``fr``): the client's strings (``client/mafia.LANG.json``
  and each game's ``client/games/*/mafia.LANG.json``, keys flattened with dots), so the
  page names cards and characters exactly as the TV does; the page's own strings are
  ``static/strings.json``.
* ``/ws``: the WebSocket (:mod:`server.web.bridge`).

Every answer carries :data:`SECURITY_HEADERS` (no framing, no sniffing, a
Content-Security-Policy that allows the page's own files and its WebSocket only) and a
``Server`` header without a version. A path the static files cannot name (a NUL, bytes
that are not UTF-8, a control character) is a plain 404 (:class:`Page`).
"""
from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from autobahn.twisted.resource import WebSocketResource
from twisted.web import resource, server, static

from server.lobby import too_many_codes_say
from server.web.bridge import SERVER_NAME, PhoneSocketFactory

STATIC = Path(__file__).resolve().parent / "static"
CLIENT = Path(__file__).resolve().parent.parent.parent / "client"
LANGUAGES = ("en", "fr")

#: The Content-Security-Policy of every answer: the page runs its own script and style
#: files only (no inline script or style, nothing from elsewhere), talks to this server
#: only (its API and its WebSocket, :func:`content_security_policy`), and may not be framed.
CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; "
       "connect-src 'self'{ws}; base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
#: Headers on every answer besides the CSP.
SECURITY_HEADERS = {b"x-frame-options": b"DENY", b"x-content-type-options": b"nosniff",
                    b"referrer-policy": b"no-referrer"}
#: What a ``Host`` header may hold to be named in the CSP's ``connect-src``.
_HOST = re.compile(rb"[A-Za-z0-9.\-]+(:[0-9]{1,5})?|\[[0-9A-Fa-f:.]+\](:[0-9]{1,5})?")


def _flatten(node: Any, prefix: str, out: dict[str, str]) -> None:
    if isinstance(node, dict):
        for key, value in node.items():
            _flatten(value, f"{prefix}.{key}" if prefix else str(key), out)
    elif isinstance(node, str):
        out[prefix] = node


def client_strings(lang: str) -> dict[str, str]:
    """Every string of the pygame client in ``lang`` (flat ``{key: text}``; files that
    are missing or unreadable are skipped)."""
    out: dict[str, str] = {}
    for path in [CLIENT / f"mafia.{lang}.json", *sorted(CLIENT.glob(f"games/*/mafia.{lang}.json"))]:
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        _flatten(data.get(lang, data) if isinstance(data, dict) else {}, "", out)
    return out


class StringsAPI(resource.Resource):
    """``/api/strings/LANG``: :func:`client_strings`, computed once per language."""

    isLeaf = True

    def __init__(self) -> None:
        super().__init__()
        self._cache: dict[str, bytes] = {}

    def render_GET(self, request: Any) -> bytes:
        lang = (request.postpath[0] if request.postpath else b"").decode("ascii", "replace")
        if lang not in LANGUAGES:
            return _json(request, 404, {"error": "unknown_language", "message": f"languages: {', '.join(LANGUAGES)}"})
        if lang not in self._cache:
            self._cache[lang] = json.dumps(client_strings(lang), ensure_ascii=False).encode("utf-8")
        request.setHeader(b"content-type", b"application/json; charset=utf-8")
        return self._cache[lang]


def _json(request: Any, code: int, body: dict[str, Any]) -> bytes:
    request.setResponseCode(code)
    request.setHeader(b"content-type", b"application/json; charset=utf-8")
    request.setHeader(b"cache-control", b"no-store")
    return json.dumps(body, allow_nan=False, separators=(",", ":")).encode("utf-8")


class RoomAPI(resource.Resource):
    """``/api/room/CODE``: the open table with that room code, at the rate of wrong codes
    the lobby allows each address."""

    isLeaf = True

    def __init__(self, lobby: Any):
        super().__init__()
        self.lobby = lobby

    def render_GET(self, request: Any) -> bytes:
        path = [p.decode("utf-8", "replace") for p in request.postpath if p]
        if len(path) != 1:
            return _json(request, 404, {"error": "not_found", "message": "no such API"})
        tries = self.lobby.code_tries
        address = getattr(request.getClientAddress(), "host", None)
        if not tries.allowed(address):  # the code is not even looked at
            wait = tries.retry_after_s(address)
            request.setHeader(b"retry-after", str(max(1, int(wait + 0.999))).encode())
            why = too_many_codes_say(wait)
            return _json(request, 429, {"error": "too_many_codes", "message": why.english(), "sentence": why.wire()})
        table = self.lobby.table_by_room(path[0])
        if table is None:
            tries.spend(address)
            shown = "".join(c for c in path[0][:8] if c.isalnum())
            return _json(request, 404, {"error": "unknown_room",
                                        "message": f"no open table has the room code {shown!r}"})
        return _json(request, 200, {"room": table.room, "table": table.summary(), "ws": "/ws"})


class Page(static.File):
    """The static files, never cached stale (a new version of the page is fetched). A
    name with a NUL, a control character or bytes that are not UTF-8 names no file: 404
    (the file system would raise on it); no folder is ever listed."""

    def getChild(self, path: bytes, request: Any) -> Any:
        try:
            name = path.decode("utf-8")
        except UnicodeDecodeError:
            return self.childNotFound
        if any(ord(c) < 32 or ord(c) == 127 for c in name):
            return self.childNotFound
        return super().getChild(path, request)

    def directoryListing(self) -> Any:
        return self.childNotFound

    def render_GET(self, request: Any) -> Any:
        request.setHeader(b"cache-control", b"no-cache")
        return super().render_GET(request)


def content_security_policy(host: bytes | None) -> bytes:
    """:data:`CSP` with the page's WebSocket (``ws://HOST``, from the request's ``Host``
    header when it is a plain host name or address) in ``connect-src``: browsers that do
    not count ``ws:`` as ``'self'`` still let the page reach its own server."""
    ws = ""
    if host and _HOST.fullmatch(host):
        ws = " ws://" + host.decode("ascii")
    return CSP.format(ws=ws).encode("ascii")


class SecureRequest(server.Request):
    """A request whose answer, whatever produced it (a file, the API, an error page),
    carries :data:`SECURITY_HEADERS`, the CSP and a ``Server`` header without a version."""

    def write(self, data: bytes) -> None:
        if not self.startedWriting:
            for name, value in SECURITY_HEADERS.items():
                self.setHeader(name, value)
            self.setHeader(b"content-security-policy", content_security_policy(self.getHeader(b"host")))
            self.setHeader(b"server", SERVER_NAME.encode())
        super().write(data)


class QuietSite(server.Site):
    """A site without an access log line per request (the server's log stays about
    matches), whose requests are :class:`SecureRequest` s."""

    requestFactory = SecureRequest

    def log(self, request: Any) -> None:
        pass


def make_site(lobby_factory: Any) -> server.Site:
    """The site for ``lobby_factory`` (:class:`server.lobby.LobbyFactory`)."""
    root = Page(str(STATIC))
    root.indexNames = ["index.html"]
    root.contentTypes.update({".js": "text/javascript; charset=utf-8", ".json": "application/json",
                              ".css": "text/css; charset=utf-8", ".svg": "image/svg+xml",
                              ".html": "text/html; charset=utf-8"})
    api = resource.Resource()
    api.putChild(b"room", RoomAPI(lobby_factory.lobby))
    api.putChild(b"strings", StringsAPI())
    root.putChild(b"api", api)
    root.putChild(b"ws", WebSocketResource(PhoneSocketFactory(lobby_factory)))
    site = QuietSite(root)
    site.displayTracebacks = False
    site.noisy = False
    return site
