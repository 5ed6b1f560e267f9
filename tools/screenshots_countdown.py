"""Screenshots of the two countdowns before a stand-in plays, as the other players see
them, with real processes: a ``mafia-server``, a server bot, Zoe on a bare protocol
connection, and Lena on ``mafia-table`` (under ``Xvfb``, shot with ``import -window
root``) or on the phone page (headless Chromium).

* ``drop_<lang>_<WxH>.png``: Zoe's connection dropped; her plate counts down to the
  stand-in (``server.drop_grace_s``).
* ``restart_<lang>_<WxH>.png``: the server was killed (SIGKILL) and started again on its
  data; Lena is back, Zoe is not; the notice counts down to the end of the wait
  (``server.restart_grace_s``).

    .venv/bin/python -m tools.screenshots_countdown --out /tmp/countdown_shots [--only desktop|phone]

Desktop at 1280×720 and 1920×1080, phones at 360×640 and 390×844, English and French.
"""
from __future__ import annotations

import tools.sandbox  # noqa: F401  (a private data dir)
import argparse
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from tools.puppet_driver import ROOT, Puppet, free_port, on_table, wait
from tools.rejoin_games import Observer, _present

DESKTOP = ("1280x720", "1920x1080")
PHONES = ((360, 640), (390, 844))
LANGUAGES = ("en", "fr")
JOIN = {"en": ("Join a table", "Sit down"), "fr": ("Rejoindre une table", "S'asseoir")}
TABLE = "Friday night"


class Server:
    """``mafia-server`` on fixed ports and a data directory, so it can be killed and
    started again where it was."""

    def __init__(self, work: Path):
        self.work = work
        self.port, self.web_port = free_port(), free_port()
        self.proc: subprocess.Popen | None = None
        self.runs = 0

    def start(self) -> None:
        self.runs += 1
        log = open(self.work / f"server-{self.runs}.log", "wb")
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "server.main", "--host", "127.0.0.1", "--port", str(self.port),
             "--web-port", str(self.web_port), "--no-discovery", "--data-dir", str(self.work / "data")],
            cwd=ROOT, stdout=subprocess.PIPE, stderr=log, env={**os.environ, "PYTHONPATH": str(ROOT)})
        line = self.proc.stdout.readline().decode() if self.proc.stdout else ""
        if not re.search(r"listening on", line):
            raise RuntimeError(f"mafia-server did not start: {line!r}")

    def kill(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait()

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(10)


def _table(server: Server) -> tuple[Observer, Observer, int, str]:
    """A three-seat Mafiosi table: the observer's, a server bot in seat 2, Zoe in seat 1;
    seat 0 is left for Lena, whose join starts the match. Also its room code (the
    observer created it: the server tells it the code)."""
    observer = Observer(server.port)
    table = observer.request("create_table", game="mafiosi", seats=3, name=TABLE,
                             options={"seed": 3, "rounds": 1})["table"]
    tid = table["id"]
    observer.request("add_bot", table=tid, seat=2)
    zoe = Observer(server.port, "Zoe")
    zoe.request("join", table=tid, seat=1)
    return observer, zoe, tid, table["room"]


def shoot(display: str, path: Path) -> None:
    subprocess.run(["import", "-display", display, "-window", "root", str(path)], check=True)


def desktop(language: str, size: str, out: Path, work: Path, display_no: int) -> None:
    display = f":{display_no}"
    xvfb = subprocess.Popen(["Xvfb", display, "-screen", "0", f"{size}x24", "-nolisten", "tcp"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    time.sleep(1.0)
    tag = f"{language}_{size}"
    server = Server(work)
    server.start()
    observer, zoe, _, _ = _table(server)
    lena = Puppet("Lena", work, ["--connect", f"127.0.0.1:{server.port}"],
                  {"server": {"discovery_port": 0}, "web": {"enabled": False}},
                  language=language, size=size, display=display)
    try:
        lena.start()
        wait(lambda: lena.state().get("scene") == "MenuScene", 30)
        join, sit = JOIN[language]
        lena.ask(op="click", text=join)
        wait(lambda: _present(lena, TABLE), 15)
        lena.ask(op="click", contains=TABLE)
        time.sleep(0.5)
        lena.ask(op="click", text=sit)
        if not wait(lambda: on_table(lena.state()), 20):
            raise SystemExit(f"Lena is not at the table: {lena.state()}")
        time.sleep(2.0)
        zoe.close()  # Zoe's Wi-Fi blip
        time.sleep(1.3)
        shoot(display, out / f"drop_{tag}.png")
        time.sleep(6.0)  # the stand-in plays for Zoe now
        server.kill()
        time.sleep(0.5)
        server.start()
        time.sleep(4.0)  # Lena's client is back; Zoe is not
        shoot(display, out / f"restart_{tag}.png")
    finally:
        lena.stop()
        observer.close()
        server.stop()
        xvfb.terminate()
        xvfb.wait(5)


def phone(language: str, size: tuple[int, int], out: Path, work: Path) -> None:
    from tools.screenshots_phone import close_phone, join_seat, open_phone

    tag = f"{language}_{size[0]}x{size[1]}"
    server = Server(work)
    server.start()
    observer, zoe, _, room = _table(server)
    driver = open_phone(lang=language, size=size)
    try:
        join_seat(driver, f"http://127.0.0.1:{server.web_port}/?room={room}", "Lena", 0)
        wait(lambda: driver.execute_script("return !!(window.__mafia.playing && window.__mafia.offset !== null)"), 20)
        time.sleep(2.0)
        zoe.close()
        wait(lambda: driver.execute_script("return !document.querySelector('#countdown').hidden"), 10)
        time.sleep(0.5)
        driver.save_screenshot(str(out / f"phone_drop_{tag}.png"))
        time.sleep(6.0)
        server.kill()
        time.sleep(0.5)
        server.start()
        wait(lambda: driver.execute_script("return !document.querySelector('#countdown').hidden"), 20)
        time.sleep(1.5)
        driver.save_screenshot(str(out / f"phone_restart_{tag}.png"))
    finally:
        close_phone(driver)
        observer.close()
        server.stop()


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--out", default="countdown_shots")
    p.add_argument("--only", choices=("desktop", "phone"))
    args = p.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    n = 70
    for language in LANGUAGES:
        if args.only != "phone":
            if not shutil.which("Xvfb") or not shutil.which("import"):
                print("needs Xvfb and ImageMagick's import", file=sys.stderr)
                return 1
            for size in DESKTOP:
                with tempfile.TemporaryDirectory() as tmp:
                    desktop(language, size, out, Path(tmp), n)
                n += 1
        if args.only != "desktop":
            for phone_size in PHONES:
                with tempfile.TemporaryDirectory() as tmp:
                    phone(language, phone_size, out, Path(tmp))
    print(f"screenshots in {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
