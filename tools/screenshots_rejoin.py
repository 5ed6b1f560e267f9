"""Screenshots of getting a seat back after a crash, as the guest sees them, on a virtual
X screen (``Xvfb``) with ``import -window root``: the menu offering *Rejoin your seat*, the
Join list showing the running table where the guest's seat is kept, and the table once
back. Real processes: a ``mafia-server``, its bots, the guest's ``mafia-table`` driven
through :mod:`tools.puppet` (see :mod:`tools.rejoin_games`).

    .venv/bin/python -m tools.screenshots_rejoin --out /tmp/rejoin_shots [--game mafiosi]

Writes ``<screen>_<language>_<W>x<H>.png`` for English and French at 1280×720 and
1920×1080.
"""
from __future__ import annotations

import tools.sandbox  # noqa: F401  (a private data dir)
import argparse
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from tools.puppet_driver import Puppet, on_table, wait
from tools.rejoin_games import SEATS, Observer, _present, _seat_of, server_process

SIZES = ("1280x720", "1920x1080")
LANGUAGES = ("en", "fr")
#: The menu's "Join a table" and the Join screen's "Sit down", per language.
JOIN = {"en": ("Join a table", "Sit down"), "fr": ("Rejoindre une table", "S'asseoir")}


def shoot(display: str, path: Path) -> None:
    subprocess.run(["import", "-display", display, "-window", "root", str(path)], check=True)


def one(game: str, language: str, size: str, out: Path, work: Path, display_no: int) -> None:
    display = f":{display_no}"
    xvfb = subprocess.Popen(["Xvfb", display, "-screen", "0", f"{size}x24", "-nolisten", "tcp"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    time.sleep(1.0)
    tag = f"{language}_{size}"
    try:
        with server_process(work) as port:
            observer = Observer(port)
            name = "Friday night"
            table = observer.request("create_table", game=game, seats=SEATS[game], name=name,
                                     options={"seed": 3})["table"]["id"]
            for seat in range(1, SEATS[game]):
                observer.request("add_bot", table=table, seat=seat)
            guest = Puppet("Lena", work, ["--connect", f"127.0.0.1:{port}"],
                           {"server": {"discovery_port": 0}, "web": {"enabled": False}},
                           language=language, size=size, display=display)
            try:
                guest.start()
                wait(lambda: guest.state().get("scene") == "MenuScene", 30)
                join, sit = JOIN[language]
                guest.ask(op="click", text=join)
                wait(lambda: _present(guest, name), 15)
                guest.ask(op="click", contains=name)
                time.sleep(0.5)
                guest.ask(op="click", text=sit)
                wait(lambda: on_table(guest.state()), 20)
                guest.ask(op="autoplay", on=True, seed=1, think_s=0.2)
                time.sleep(2.0)
                guest.kill()
                wait(lambda: (lambda s: s is not None and not s.get("connected"))(_seat_of(port, name, "Lena")), 15)
                guest.start()
                st = wait(lambda: (lambda s: s if s.get("rejoin") else None)(guest.state()), 30)
                time.sleep(1.0)
                shoot(display, out / f"menu_rejoin_{tag}.png")
                guest.ask(op="click", text=join)
                wait(lambda: _present(guest, name), 15)
                guest.ask(op="click", contains=name)
                time.sleep(1.0)
                shoot(display, out / f"join_seat_kept_{tag}.png")
                guest.ask(op="key", key="escape")
                time.sleep(0.5)
                st = wait(lambda: (lambda s: s if s.get("rejoin") else None)(guest.state()), 15)
                guest.ask(op="click", text=st["rejoin"])
                wait(lambda: on_table(guest.state()), 15)
                time.sleep(1.5)
                shoot(display, out / f"table_back_{tag}.png")
            finally:
                guest.stop()
                observer.close()
    finally:
        xvfb.terminate()
        xvfb.wait(5)


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--out", default="rejoin_shots")
    p.add_argument("--game", default="mafiosi")
    args = p.parse_args()
    if not shutil.which("Xvfb") or not shutil.which("import"):
        print("needs Xvfb and ImageMagick's import", file=sys.stderr)
        return 1
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    n = 60
    for language in LANGUAGES:
        for size in SIZES:
            with tempfile.TemporaryDirectory() as tmp:
                one(args.game, language, size, out, Path(tmp), n)
            n += 1
    print(f"screenshots in {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
