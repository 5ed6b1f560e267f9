"""Screenshots of the phone page (phones as private hands) and of the TV's room code.

    python tools/screenshots_phone.py --out DIR [--only phone|snap|states|tv]

* ``phone_<game>_<lang>.png``: the phone page at 390x844 (headless Chromium from the
  distribution's packages, ``/usr/bin/chromium`` and ``/usr/bin/chromedriver``), in a
  real match of each of the four games, in English and French (Omerta: the peeked cards
  and the drawn card; ``phone_omerta_snap_<lang>.png``: the snap window; Family
  Business: the counter prompt);
* ``phone_omerta_snap5_<lang>_<W>x<H>.png``: an Omerta snap window on a phone that holds
  five cards (a wrong snap's penalty) and shows that snap's notice, at 360x640 and
  390x844: the claim buttons pinned at the bottom of the screen;
* ``phone_state_<state>_<lang>_<W>x<H>.png``, at 360x640 and 390x844 in both languages:
  ``join`` (the seats of a table), ``host`` (the host's Add a bot and Start on a table
  that waits for him), ``turn`` (the phone's own move, a timed turn counting down),
  ``watch_join`` and ``watch`` (a second phone finds the table full and watches it),
  ``podium`` (the end of the match with Play again) and ``history`` (the moves, open);
* ``tv_roomcode_<lang>.png``: ``mafia-table`` (under the current display; run it under
  ``xvfb-run``) hosting a table, its lobby showing the address, the room code and the QR
  code; ``tv_table_<lang>.png``: the same TV once the match runs, the code and QR code
  still in a corner for latecomers and phones that lost the page.

Also the helpers the phone tests and ``benchmarks/fairness_phone.py`` share:
:func:`chromium_available`, :func:`open_phone` (a headless Chromium WebDriver),
:class:`ServerProcess` (a real ``mafia-server`` process with its phone page) and
:class:`Host` (a blocking TCP client that creates tables and adds bots).
"""
from __future__ import annotations

import tools.sandbox  # noqa: F401  (a private data dir: never the player's replays)
import argparse
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

CHROMIUM = os.environ.get("MAFIA_CHROMIUM", "/usr/bin/chromium")
CHROMEDRIVER = os.environ.get("MAFIA_CHROMEDRIVER", "/usr/bin/chromedriver")
#: The flags this machine's Chromium needs headless (no GPU, no sandbox as root, nothing
#: fetched from the network).
CHROMIUM_FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync",
                  "--disable-dev-shm-usage", "--disable-extensions", "--mute-audio",
                  "--disable-background-timer-throttling", "--disable-renderer-backgrounding",
                  "--disable-backgrounding-occluded-windows")
PHONE_SIZE = (390, 844)


def chromium_available() -> bool:
    """Chromium, its driver and selenium are installed."""
    try:
        import selenium  # noqa: F401
    except ImportError:
        return False
    return os.access(CHROMIUM, os.X_OK) and os.access(CHROMEDRIVER, os.X_OK)


def open_phone(url: str | None = None, lang: str = "en", size: tuple[int, int] = PHONE_SIZE) -> Any:
    """A headless Chromium WebDriver with a fresh profile, its window ``size`` (CSS px)
    and ``navigator.language`` = ``lang``; opens ``url`` when given. The caller quits it
    (``driver.quit()``; the profile directory goes with :func:`close_phone`)."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    opts = webdriver.ChromeOptions()
    opts.binary_location = CHROMIUM
    profile = tempfile.mkdtemp(prefix="mafia-phone-")
    for flag in CHROMIUM_FLAGS:
        opts.add_argument(flag)
    opts.add_argument(f"--user-data-dir={profile}")
    opts.add_argument(f"--window-size={size[0]},{size[1]}")
    opts.add_argument(f"--lang={lang}")
    opts.add_experimental_option("prefs", {"intl.accept_languages": lang})
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=opts)
    driver._mafia_profile = profile  # type: ignore[attr-defined]
    # the viewport, not the window, is the phone's screen
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": size[0], "height": size[1], "deviceScaleFactor": 1, "mobile": True})
    driver.execute_cdp_cmd("Emulation.setTouchEmulationEnabled", {"enabled": True, "maxTouchPoints": 5})
    driver.execute_cdp_cmd("Emulation.setLocaleOverride", {"locale": "fr-FR" if lang == "fr" else "en-GB"})
    driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {
        "source": f"Object.defineProperty(navigator, 'language', {{get: () => '{'fr-FR' if lang == 'fr' else 'en-GB'}'}});"})
    if url:
        driver.get(url)
    return driver


def close_phone(driver: Any) -> None:
    """Quit ``driver`` and remove its profile directory."""
    try:
        driver.quit()
    finally:
        shutil.rmtree(getattr(driver, "_mafia_profile", ""), ignore_errors=True)


class ServerProcess:
    """``mafia-server`` in its own process on free ports (``--port 0 --web-port 0``),
    with a fresh data directory; ``port`` (TCP) and ``web_port`` (HTTP) once started."""

    def __init__(self, testing: bool = True, data_dir: str | None = None):
        self.data_dir = data_dir or tempfile.mkdtemp(prefix="mafia-web-")
        args = [sys.executable, "-m", "server.main", "--host", "127.0.0.1", "--port", "0", "--web-port", "0",
                "--no-discovery", "--data-dir", self.data_dir]
        if testing:
            args.append("--testing")
        self.proc = subprocess.Popen(args, cwd=str(ROOT), stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                     text=True)
        self.port = self.web_port = 0
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline and not (self.port and self.web_port):
            line = self.proc.stdout.readline()
            if not line:
                break
            m = re.search(r"listening on [\d.]+:(\d+)", line)
            if m:
                self.port = int(m.group(1))
            m = re.search(r"phones on http://[\d.]+:(\d+)/", line)
            if m:
                self.web_port = int(m.group(1))
        if not (self.port and self.web_port):
            self.stop()
            raise RuntimeError("mafia-server did not start with its phone page")

    def url(self, room: str | None = None, extra: str = "") -> str:
        return f"http://127.0.0.1:{self.web_port}/" + (f"?room={room}{extra}" if room else "")

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        if self.proc.stdout is not None:
            self.proc.stdout.close()


class Host:
    """A blocking TCP client of the wire protocol: says hello, creates tables, adds bots.
    It answers the pings it reads (it only reads while waiting for a reply)."""

    def __init__(self, port: int, name: str = "Host"):
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=10)
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.buf = b""
        self.seq = 0
        self.welcome = self.request("hello", name=name)

    def _line(self) -> dict[str, Any]:
        while b"\n" not in self.buf:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise ConnectionError("the server closed the connection")
            self.buf += chunk
        line, self.buf = self.buf.split(b"\n", 1)
        return json.loads(line)

    def request(self, msg_type: str, **fields: Any) -> dict[str, Any]:
        self.seq += 1
        self.sock.sendall(json.dumps({"v": 1, "type": msg_type, "seq": self.seq, **fields}).encode() + b"\n")
        while True:
            msg = self._line()
            if msg["type"] == "ping":
                self.sock.sendall(json.dumps({"type": "pong", "id": msg["id"],
                                              "tc": time.monotonic() * 1000}).encode() + b"\n")
            elif msg.get("re") == self.seq:
                if msg["type"] == "error":
                    raise RuntimeError(f"{msg_type}: {msg['code']}: {msg['message']}")
                return msg

    def create(self, game: str, seats: int, options: dict[str, Any], bots: list[int], name: str = "") -> dict[str, Any]:
        """A table of ``game`` with server bots in ``bots`` seats; returns its summary."""
        table = self.request("create_table", game=game, seats=seats, name=name or f"{game} table",
                             options=options)["table"]
        for seat in bots:
            table = self.request("add_bot", table=table["id"], seat=seat)["table"]
        return table

    def close(self) -> None:
        self.sock.close()


# ---------------------------------------------------------------- driving a phone page
JS_BUTTONS = """return Array.from(document.querySelectorAll('button[data-action]:not([disabled])'))
  .map(b => ({id: b.id, action: JSON.parse(b.dataset.action), claim: !!b.dataset.claim}));"""


def buttons(driver: Any) -> list[dict[str, Any]]:
    """The action buttons the page offers now: ``[{id, action, claim}]``."""
    return driver.execute_script(JS_BUTTONS)


def join_seat(driver: Any, url: str, name: str, seat: int, timeout: float = 15.0) -> None:
    """Open ``url`` (``/?room=CODE``), type ``name`` and take ``seat``."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions as ec
    from selenium.webdriver.support.ui import WebDriverWait

    driver.get(url)
    wait = WebDriverWait(driver, timeout)
    box = wait.until(ec.presence_of_element_located((By.ID, "player-name")))
    box.clear()
    box.send_keys(name)
    if driver.execute_script("return !document.querySelector('button.seat')"):
        driver.find_element(By.ID, "find").click()
    from selenium.common.exceptions import StaleElementReferenceException

    def take(d: Any) -> bool:
        try:
            d.find_element(By.ID, f"seat-{seat}").click()
            return True
        except StaleElementReferenceException:
            return False

    wait.until(ec.element_to_be_clickable((By.ID, f"seat-{seat}")))
    wait.until(take)
    wait.until(lambda d: d.execute_script("return window.__mafia.token !== null"))


def received(driver: Any) -> list[dict[str, Any]]:
    return driver.execute_script("return window.__received")


# ---------------------------------------------------------------- screenshots
GAMES = {  # game -> (seats, options, the phone's seat)
    "omerta": (4, {"rounds": 1}, 0),
    "famiglia": (2, {}, 0),
    "family_business": (4, {}, 0),
    "mafiosi": (4, {"rounds": 1}, 0),
}


def _phone_shot(server: ServerProcess, host: Host, game: str, lang: str, out: Path) -> Path:
    seats, options, seat = GAMES[game]
    opts = {**options, "seed": 1717, "bot_think_ms": 400}
    if game == "family_business":  # a counter prompt on the phone: seat 1 attacks it
        opts.update(deck=["family_influence", "lam", "hit", "contract", "intrigue",
                          "contract", "contract", "contract", "contract", "contract",
                          "truce", "pay_off", "federal_crackdown", "turncoat", "mob_war",  # no counter
                          "ambush", "vendetta", "massacre", "double_cross", "substitution"],
                    first_player=1, bot_think_ms=300)
    if game == "omerta":  # the phone peeks at its 5, draws the other 5 and discards it: a snap
        opts.update(deck=["5", "7", "9", "10", "1", "2", "3", "4", "1", "2", "3", "4", "6", "6", "8", "8",
                          "7", "8", "9", "10", "5"], first_player=0, snap_timeout_ms=8000)
    table = host.create(game, seats, opts, bots=[s for s in range(seats) if s != seat],
                        name="Vito's table" if lang == "en" else "Table de Vito")
    phone = open_phone(lang=lang)
    try:
        join_seat(phone, server.url(table["room"]), "Lena" if lang == "en" else "Léa", seat)
        wanted = {"omerta": "return !!(window.__mafia.view && window.__mafia.view.drawn)",
                  "famiglia": "return window.__mafia.legal.length > 0",
                  "family_business": "return !!(window.__mafia.view && window.__mafia.view.window)",
                  "mafiosi": "return window.__mafia.legal.length > 0"}[game]
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if phone.execute_script(wanted):
                break
            if game == "omerta":  # peek at the first two cards, then draw
                for b in buttons(phone):
                    if b["action"]["type"] in ("peek", "draw_deck"):
                        phone.find_element("id", b["id"]).click()
                        break
            time.sleep(0.1)
        time.sleep(0.2)
        path = out / f"phone_{game}_{lang}.png"
        phone.save_screenshot(str(path))
        if game == "omerta":  # and the snap window on the phone
            for b in buttons(phone):
                if b["action"]["type"] == "discard_drawn":
                    phone.find_element("id", b["id"]).click()
            deadline = time.monotonic() + 10
            while time.monotonic() < deadline and not phone.execute_script(
                    "return window.__mafia.legal.some(a => a.type === 'snap')"):
                time.sleep(0.05)
            time.sleep(0.2)
            phone.save_screenshot(str(out / f"phone_omerta_snap_{lang}.png"))
        return path
    finally:
        close_phone(phone)


#: Omerta, seat 0 (the phone) draws a 5 and discards it, snaps its 7 (a fifth card); seat
#: 1 (a TCP client) then draws the other 5 and discards it: a snap window with five cards.
SNAP5_DECK = ["7", "8", "9", "10", "5", "1", "2", "3", "4", "6", "6", "4", "1", "2", "3", "4",
              "5", "8", "5"]


def _click_action(phone: Any, kind: str, pick: Any = lambda a: True, timeout: float = 15.0) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for b in buttons(phone):
            if b["action"]["type"] == kind and pick(b["action"]):
                try:
                    phone.find_element("id", b["id"]).click()
                    return b["action"]
                except Exception:  # re-drawn meanwhile: look again
                    break
        time.sleep(0.05)
    raise RuntimeError(f"the page never offered {kind}")


def _wait_page(phone: Any, script: str, timeout: float = 15.0) -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = phone.execute_script(script)
        if value:
            return value
        time.sleep(0.05)
    raise RuntimeError(f"timed out waiting for: {script}")


def _snap5_shots(server: ServerProcess, host: Host, lang: str, out: Path) -> list[Path]:
    """The snap window of a phone holding five cards, with a notice, at both sizes."""
    table = host.create("omerta", 3, {"seed": 1717, "rounds": 1, "bot_think_ms": 0, "deck": SNAP5_DECK,
                                      "first_player": 0, "snap_timeout_ms": 30_000}, bots=[2],
                        name="Vito's table" if lang == "en" else "Table de Vito")
    other = Host(server.port, "Marc")
    phone = open_phone(lang=lang)
    paths = []
    try:
        join_seat(phone, server.url(table["room"]), "Lena" if lang == "en" else "Léa", 0)
        other.request("join", table=table["id"], seat=1)
        tid = table["id"]
        other.request("action", table=tid, action={"type": "peek", "slots": [4, 5]})  # seat 1's slots
        _click_action(phone, "peek")
        _click_action(phone, "draw_deck")
        _click_action(phone, "discard_drawn")
        _wait_page(phone, "return window.__mafia.tShown !== null")
        time.sleep(0.3)  # a human's reaction: a tap within 80 ms of the card is refused
        _click_action(phone, "snap", lambda a: a["slot"] == 0)  # the 7: a penalty card
        _wait_page(phone, "return window.__received.some(m => m.type === 'claim_result')")
        other.request("action", table=tid, action={"type": "snap_pass"})
        _wait_page(phone, "return window.__mafia.view.players[0].slots.length === 5 && !window.__mafia.view.window")
        other.request("action", table=tid, action={"type": "draw_deck"})
        other.request("action", table=tid, action={"type": "discard_drawn"})
        _wait_page(phone, "return document.querySelectorAll('#claimbar button[data-claim]').length === 5")
        for size in ((360, 640), PHONE_SIZE):
            phone.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                                  {"width": size[0], "height": size[1], "deviceScaleFactor": 1, "mobile": True})
            time.sleep(0.3)
            path = out / f"phone_omerta_snap5_{lang}_{size[0]}x{size[1]}.png"
            phone.save_screenshot(str(path))
            paths.append(path)
        return paths
    finally:
        close_phone(phone)
        other.close()


SHOT_SIZES = ((360, 640), PHONE_SIZE)


def _tap(phone: Any, button_id: str, timeout: float = 10.0) -> None:
    """Click ``button_id``, again when the page drew it anew meanwhile."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            phone.find_element("id", button_id).click()
            return
        except Exception:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.05)


def _tap_until(phone: Any, rng: Any, done_js: str, timeout_s: float, period_s: float) -> None:
    """Tap one of the offered buttons at random (as a player who plays anything legal)
    every ``period_s`` until ``done_js`` is true in the page or ``timeout_s`` passed; a
    button re-drawn under the tap is tried again next time."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline and not phone.execute_script(done_js):
        offered = buttons(phone)
        if offered:
            try:
                phone.find_element("id", rng.choice(offered)["id"]).click()
            except Exception:
                pass
        time.sleep(period_s)


def _shoot(phone: Any, out: Path, name: str, lang: str, scroll: str = "0") -> list[Path]:
    """``phone`` at each of :data:`SHOT_SIZES`, scrolled to ``scroll`` (a JS expression)."""
    paths = []
    for size in SHOT_SIZES:
        phone.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                              {"width": size[0], "height": size[1], "deviceScaleFactor": 1, "mobile": True})
        time.sleep(0.3)
        phone.execute_script(f"window.scrollTo(0, {scroll});")
        time.sleep(0.1)
        path = out / f"phone_state_{name}_{lang}_{size[0]}x{size[1]}.png"
        phone.save_screenshot(str(path))
        paths.append(path)
    phone.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                          {"width": PHONE_SIZE[0], "height": PHONE_SIZE[1], "deviceScaleFactor": 1, "mobile": True})
    return paths


def _states_shots(server: ServerProcess, lang: str, out: Path) -> list[Path]:
    """A Mafiosi table that waits for its host (the phone, once the creator left), a timed
    turn, a spectator phone at the full table, and the end of the match."""
    creator = Host(server.port, "Vito")
    table = creator.create("mafiosi", 3, {"seed": 1818, "rounds": 1, "bot_think_ms": 0, "start": "host",
                                          "turn_timer_s": 60}, bots=[2],
                           name="Vito's table" if lang == "en" else "Table de Vito")
    phone, watcher = open_phone(lang=lang), open_phone(lang=lang)
    name, other = ("Lena", "Marc") if lang == "en" else ("Léa", "Marc")
    paths: list[Path] = []
    try:
        url = server.url(table["room"])
        phone.get(url)
        _wait_page(phone, "return document.querySelector('button.seat') !== null")
        phone.find_element("id", "player-name").clear()
        phone.find_element("id", "player-name").send_keys(name)
        paths += _shoot(phone, out, "join", lang)
        join_seat(phone, url, name, 0)
        creator.close()  # the host leaves before the match: the seated phone is the host now
        _wait_page(phone, "return document.querySelector('#add-bot') !== null")
        paths += _shoot(phone, out, "host", lang)
        _tap(phone, "add-bot")
        _wait_page(phone, "const b = document.querySelector('#start'); return b && !b.disabled")
        watcher.get(url)
        _wait_page(watcher, "return document.querySelector('#watch') !== null")
        watcher.find_element("id", "player-name").clear()
        watcher.find_element("id", "player-name").send_keys(other)
        paths += _shoot(watcher, out, "watch_join", lang)
        _tap(watcher, "watch")
        _tap(phone, "start")
        _wait_page(phone, "return window.__mafia.legal.length > 0")
        # the bouncer, then the first card of a trick: a timed turn
        import random
        rng = random.Random(3)
        _tap_until(phone, rng, "return window.__mafia.turnClock !== null && window.__mafia.legal.length > 0",
                   60, 0.2)
        time.sleep(1.2)
        paths += _shoot(phone, out, "turn", lang)
        _wait_page(watcher, "return window.__mafia.playing && window.__mafia.view !== null")
        paths += _shoot(watcher, out, "watch", lang)
        _tap_until(phone, rng, "return window.__mafia.result !== null", 120, 0.1)
        _wait_page(phone, "return document.querySelector('#play-again') !== null")
        time.sleep(0.5)
        paths += _shoot(phone, out, "podium", lang)
        phone.execute_script("document.querySelector('#history').open = true;")
        paths += _shoot(phone, out, "history", lang, "document.querySelector('#history').offsetTop - 80")
        return paths
    finally:
        creator.close()
        close_phone(phone)
        close_phone(watcher)


def states_shots(out: Path) -> list[Path]:
    server = ServerProcess()
    try:
        return [p for lang in ("en", "fr") for p in _states_shots(server, lang, out)]
    finally:
        server.stop()


def snap_shots(out: Path) -> list[Path]:
    server = ServerProcess()
    host = Host(server.port)
    try:
        return [p for lang in ("en", "fr") for p in _snap5_shots(server, host, lang, out)]
    finally:
        host.close()
        server.stop()


def phone_shots(out: Path) -> list[Path]:
    server = ServerProcess()
    host = Host(server.port)
    try:
        return ([_phone_shot(server, host, game, lang, out) for lang in ("en", "fr") for game in GAMES]
                + [p for lang in ("en", "fr") for p in _snap5_shots(server, host, lang, out)])
    finally:
        host.close()
        server.stop()


def tv_shots(out: Path) -> list[Path]:
    """The host's lobby (address, room code and QR code) in both languages, under the
    current display (tools/screenshots.py ``start_app``)."""
    paths = []
    for lang in ("en", "fr"):
        with tempfile.TemporaryDirectory() as data:
            proc = subprocess.run([sys.executable, "-m", "tools.screenshots_phone", "--tv-child", lang, "--out", str(out),
                                   "--data", data], cwd=str(ROOT), timeout=120)
        if proc.returncode == 0:
            paths += [out / f"tv_roomcode_{lang}.png", out / f"tv_table_{lang}.png"]
    return paths


def _tv_child(lang: str, out: Path, data: str) -> int:
    """One language's TV shot, in its own process (one pygame window per process)."""
    from client.scenes.join import watch_any
    from client.scenes.lobby import LobbyScene
    from tools.screenshots import start_app

    config = {"server": {"port": 22770, "discovery_port": 22771, "data_dir": data}, "web": {"port": 22780}}
    app, d, link = start_app(str(out), "1280x720", lang, "Vito", config)
    got: dict[str, Any] = {}
    link.request("create_table", game="omerta", seats=4, name="Vito's table" if lang == "en" else "Table de Vito",
                 options={"bot_think_ms": 500}).addCallback(lambda r: got.setdefault("t", r))
    d.pump(3, lambda: "t" in got)
    link.request("add_bot", table=got["t"]["table"]["id"], seat=1)
    d.pump(0.5)
    app.tv = True
    watch_any(app, link)  # what `mafia-table --tv` does: watch the waiting table
    d.pump(3, lambda: isinstance(app.top, LobbyScene))
    d.pump(0.5)
    d.shot(f"tv_roomcode_{lang}")
    tid = got["t"]["table"]["id"]
    for seat in (0, 2, 3):  # the table fills: the match starts, the TV shows it running
        link.request("add_bot", table=tid, seat=seat)
    d.pump(6, lambda: not isinstance(app.top, LobbyScene) and getattr(app.top, "view", None) is not None)
    d.pump(2.5)
    d.shot(f"tv_table_{lang}")
    app.quit()
    return 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", default="shots_phone")
    ap.add_argument("--only", choices=("phone", "snap", "states", "tv"))
    ap.add_argument("--tv-child", help=argparse.SUPPRESS)
    ap.add_argument("--data", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    if args.tv_child:
        return _tv_child(args.tv_child, out, args.data)
    made: list[Path] = []
    if args.only == "snap":
        made += snap_shots(out)
    if args.only in (None, "states"):
        made += states_shots(out)
    if args.only in (None, "phone"):
        if not chromium_available():
            print("screenshots_phone: needs chromium, chromium-driver and selenium", file=sys.stderr)
            return 2
        made += phone_shots(out)
    if args.only in (None, "tv"):
        made += tv_shots(out)
    for p in made:
        print(p)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
