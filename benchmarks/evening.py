"""A whole evening with real processes on loopback: does anybody lose a seat, a click, a
result or memory?

    python benchmarks/evening.py --quick          # one match per game, under 5 minutes
    python benchmarks/evening.py --minutes 60     # the full run: the games again and again

Who is there (each a real process with its own data and settings directories):

* the **host**: ``mafia-table`` with its embedded server (fixed port), driven through
  :mod:`tools.puppet` (pygame events: a mouse moved onto a button and clicked, keys);
* **Lena**, a guest whose ``mafia-table`` runs its own embedded server and who joins the
  host's through *Join a table* (so a restarted Lena must find her seat on another
  server than her own);
* **Marco**, a guest started with ``--connect`` through a relay this script can cut;
* a **TV** view (``mafia-table --tv``) on the host's server;
* **phones** (headless Chromium, when ``chromium`` and ``selenium`` are there) on the
  host's web page, watching; one is reloaded mid-match;
* the server's bots in the remaining seats.

The four games are played back to back; the host opens each table through the Host
screen (game and seat count chosen in its drop-downs), the guests sit through Join, the
host fills the rest with bots and starts; the players' moves are sent by
:class:`tools.puppet.AutoPlayer`. During the run: Lena's client is killed (SIGKILL) and
started again, and must take her seat back through the menu's Rejoin entry; Marco's link
is cut for 10 s; the host's ``mafia-table`` is closed and started again (its menu's
Rejoin, the guests come back by themselves); Marco leaves a match for good (Esc twice):
a stand-in finishes his seat and the scoreboard must say so.

Every scripted click must have its effect (the next screen, the seat taken...) within
:data:`CLICK_WAIT_S`; one that has none counts in ``clicks_lost`` and is tried again.

Last line, one JSON object: ``seats_lost`` (seats not back within 30 s of a fault),
``rejoin_s_max`` (Lena's menu on screen -> her seat shown again, s), ``clicks_lost``,
``matches_abandoned`` (``.abandoned`` logs or unfinished matches), ``results_miscredited``
(scoreboard rows that disagree with the finished logs, or a stand-in's win credited to
the person), ``rss_mb_per_hour`` (per client: slope of its RSS over the run after the
first match, MB/h; ``rss_mb_per_hour_after_every_game``: after each game was played once,
so without a game's first cards, fonts and texts), ``rss_mb`` (first and last sample per client), ``matches_finished``,
``clicks``, ``faults``, ``cpu_s``. It exits 1 when nothing was measured (no match
finished, no click) or when a figure misses the issue's bar; the memory bar (under
30 MB/h per client) holds for the full run only, since a quick run's four matches each
load a game's cards for the first time.
"""
from __future__ import annotations

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import tools.sandbox  # noqa: F401,E402  (private data dir)

import argparse  # noqa: E402
import json  # noqa: E402
import resource  # noqa: E402
import shutil  # noqa: E402
import socket  # noqa: E402
import subprocess  # noqa: E402
import threading  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import Any, Callable  # noqa: E402

from shared import matchlog  # noqa: E402
from tools.puppet_driver import Puppet, free_port, on_table, wait  # noqa: E402
from tools.rejoin_check import tables as list_tables  # noqa: E402
from tools.relay import CutRelay  # noqa: E402

GAMES = ["omerta", "famiglia", "family_business", "mafiosi"]
TITLES = {"omerta": "Omerta", "famiglia": "Famiglia", "family_business": "Family Business", "mafiosi": "Mafiosi"}
#: Seats per game: the host, Lena, Marco (not in two-seat Famiglia: he watches), bots.
SEATS = {"omerta": 4, "famiglia": 2, "family_business": 4, "mafiosi": 4}
#: Short matches for the quick run (table options the host sets in his lobby).
QUICK_OPTIONS = {"omerta": {"rounds": 1}, "mafiosi": {"rounds": 1}}
CLICK_WAIT_S = 5.0
#: How long the scripted players think before each move (s): the quick run plays briskly,
#: the full run at a friend's pace.
THINK_S = {True: 0.25, False: 0.8}


# -- the run ------------------------------------------------------------------------------

class Evening:
    def __init__(self, work: Path, quick: bool, minutes: float, phones: bool):
        self.work = work
        self.quick = quick
        self.minutes = minutes
        self.host_port = free_port()
        self.web_port = free_port()
        base = {"server": {"discovery_port": 0, "reconnect_grace_s": 120},
                "bots": {"think_ms": 150}, "web": {"port": self.web_port}}
        self.host = Puppet("Host", work, [], {**base, "server": {**base["server"], "port": self.host_port}})
        self.lena = Puppet("Lena", work, [], {**base, "server": {**base["server"], "port": free_port()},
                                               "web": {"enabled": False}},
                           settings={"last_address": f"127.0.0.1:{self.host_port}"})
        self.relay = CutRelay(self.host_port)
        self.marco = Puppet("Marco", work, ["--connect", f"127.0.0.1:{self.relay.port}"], base)
        self.tv = Puppet("TV", work, ["--tv", "--connect", f"127.0.0.1:{self.host_port}"], base)
        self.clients = [self.host, self.lena, self.marco, self.tv]
        self.phones_wanted = phones
        self.phones: list[Any] = []
        self.clicks = 0
        self.clicks_lost = 0
        self.lost_clicks: list[str] = []
        self.seats_lost = 0
        self.rejoin_s: list[float] = []
        self.faults: list[str] = []
        self.expected_stand_ins: dict[str, set[str]] = {}  # table name -> who a stand-in finished for
        self.first_match_done_at: float | None = None
        self.every_game_done_at: float | None = None  # each game played once: its cards, fonts, texts met
        self.t0 = time.monotonic()

    # -- clicks with their effect ---------------------------------------------------------
    def click(self, who: Puppet, effect: Callable[[dict[str, Any]], Any], text: str | None = None,
              contains: str | None = None, key: str | None = None, tries: int = 3) -> dict[str, Any]:
        """A scripted click (or key) and the effect it must have within CLICK_WAIT_S."""
        what = text or contains or key
        for attempt in range(tries):
            wait(lambda: key or self._present(who, text, contains), 10, 0.1)
            if key is not None:
                who.ask(op="key", key=key)
            else:
                reply = who.ask(op="click", **({"text": text} if text else {"contains": contains}))
                if not reply.get("ok"):
                    time.sleep(0.3)
                    continue
            self.clicks += 1
            st = wait(lambda: (lambda s: s if effect(s) else None)(who.state()), CLICK_WAIT_S, 0.1)
            if st:
                return st
            self.clicks_lost += 1
            self.lost_clicks.append(f"{who.name}: {what}")
            print(f"  lost click: {who.name} {what!r} (try {attempt + 1})", flush=True)
        raise SystemExit(f"evening: {who.name}'s {what!r} never had its effect; state {who.state()}")

    @staticmethod
    def _present(who: Puppet, text: str | None, contains: str | None) -> bool:
        st = who.state()
        return any((text is not None and b["text"] == text) or (contains is not None and contains in b["text"])
                   for b in st.get("buttons", []))

    def to_menu(self, who: Puppet) -> None:
        wait(lambda: who.state().get("scene") == "MenuScene", 30, 0.2)

    # -- the setup of one match -----------------------------------------------------------
    def open_table(self, game: str, name: str) -> None:
        h = self.host
        self.to_menu(h)
        self.click(h, lambda s: s.get("scene") == "HostScene", text="Host a table")
        h.ask(op="choose", dropdown=0, text=TITLES[game])
        time.sleep(0.8)
        h.ask(op="choose", dropdown=1, text=str(SEATS[game]))
        time.sleep(0.8)
        h.ask(op="set_entry", text=name)
        time.sleep(0.3)
        self.click(h, lambda s: s.get("scene") == "LobbyScene", text="Open the table")
        if self.quick and game in QUICK_OPTIONS:
            h.ask(op="table_options", options=QUICK_OPTIONS[game])
            time.sleep(0.5)

    def guest_sits(self, who: Puppet, name: str, via_connect: bool, watch: bool = False) -> None:
        self.to_menu(who)
        self.click(who, lambda s: s.get("scene") == "JoinScene", text="Join a table")
        if via_connect:
            self.click(who, lambda s: self._present(who, None, name), text="Connect")
        elif not wait(lambda: self._present(who, None, name), 3, 0.2):
            self.click(who, lambda s: self._present(who, None, name), text="Refresh")
        self.click(who, lambda s: s.get("picked") is not None, contains=name)
        self.click(who, lambda s: s.get("scene") == "LobbyScene" or on_table(s),
                   text="Watch" if watch else "Sit down")

    def start_match(self, game: str) -> None:
        h = self.host
        if SEATS[game] > 3:
            self.click(h, lambda s: any(b["text"] == "Start the match" for b in s.get("buttons", [])),
                       text="Fill with bots")
        self.click(h, on_table, text="Start the match")

    # -- faults ---------------------------------------------------------------------------
    def seat_back(self, table_name: str, name: str, timeout: float = 30.0) -> bool:
        def back() -> bool:
            for t in list_tables(self.host_port):
                if t.get("name") == table_name:
                    return any(s.get("name") == name and not s.get("bot") and s.get("connected")
                               and not s.get("away") for s in t.get("seats", []))
            return False

        ok = bool(wait(back, timeout, 0.2))
        if not ok:
            self.seats_lost += 1
            who = {"Host": self.host, "Lena": self.lena, "Marco": self.marco}[name]
            st = who.state()
            print(f"  seat lost: {name} at {table_name}; his screen: {st.get('scene')}, "
                  f"notice {st.get('notice')!r}", flush=True)
        return ok

    def kill_lena(self, table_name: str) -> None:
        """Lena's client dies (SIGKILL) and is started again: her menu must offer her seat
        on the host's server (her own client starts its own server first)."""
        self.faults.append("guest SIGKILL")
        self.lena.kill()
        self.lena.start()
        wait(lambda: self.lena.state().get("scene") == "MenuScene", 30, 0.05)
        shown = time.monotonic()
        st = wait(lambda: (lambda s: s if s.get("rejoin") else None)(self.lena.state()), 15, 0.05)
        if not st:
            self.seats_lost += 1
            print("  Lena's menu never offered her seat back", flush=True)
            return
        self.click(self.lena, on_table, text=st["rejoin"])
        self.rejoin_s.append(round(time.monotonic() - shown, 2))
        self.lena.ask(op="autoplay", on=True, seed=2, think_s=THINK_S[self.quick])
        self.seat_back(table_name, "Lena")

    def restart_host(self, table_name: str) -> None:
        """The host closes his window (confirming: friends are playing) and starts
        ``mafia-table`` again: his menu offers his seat, the guests come back by themselves."""
        self.faults.append("host restart")
        h = self.host
        h.ask(op="quit")
        time.sleep(0.5)
        if self._present(h, "Quit", None):
            # the window closes as it answers: the effect is the process gone
            self.clicks += 1
            h.ask(op="click", text="Quit")
            if not wait(lambda: h.proc is None or h.proc.poll() is not None, CLICK_WAIT_S, 0.1):
                self.clicks_lost += 1
                self.lost_clicks.append("Host: Quit")
                print("  lost click: Host 'Quit'", flush=True)
        if h.proc is not None:
            try:
                h.proc.wait(15)
            except subprocess.TimeoutExpired:
                h.kill()
        h.start()
        wait(lambda: h.state().get("scene") == "MenuScene", 30, 0.05)
        st = wait(lambda: (lambda s: s if s.get("rejoin") else None)(h.state()), 20, 0.1)
        if not st:
            self.seats_lost += 1
            print("  the host's menu never offered his seat back", flush=True)
        else:
            self.click(h, on_table, text=st["rejoin"])
            h.ask(op="autoplay", on=True, seed=1, think_s=THINK_S[self.quick])
            self.seat_back(table_name, "Host")
        self.seat_back(table_name, "Lena", 40)

    def cut_marco(self, table_name: str) -> None:
        self.faults.append("guest link cut 10 s")
        self.relay.cut(10.0)
        time.sleep(10.0)
        self.seat_back(table_name, "Marco", 40)

    def marco_leaves(self, table_name: str) -> None:
        """Marco leaves for good (Esc twice): a stand-in must finish his seat."""
        self.faults.append("player leaves")
        self.marco.ask(op="autoplay", on=False)
        self.marco.ask(op="key", key="escape")
        time.sleep(0.5)
        self.click(self.marco, lambda s: s.get("scene") == "MenuScene", key="escape")
        self.expected_stand_ins.setdefault(table_name, set()).add("Marco")

    # -- one match ------------------------------------------------------------------------
    def play(self, game: str, n: int, fault: Callable[[str], None] | None) -> None:
        name = f"Night {n:03d}"  # short: the Join list elides long names
        began = time.monotonic()
        print(f"match {n}: {game} (at {began - self.t0:.0f} s)", flush=True)
        self.open_table(game, name)
        self.guest_sits(self.lena, name, via_connect=True)
        marco_plays = SEATS[game] >= 3
        self.guest_sits(self.marco, name, via_connect=False, watch=not marco_plays)
        players = [self.host, self.lena] + ([self.marco] if marco_plays else [])
        self.start_match(game)
        print(f"  set up in {time.monotonic() - began:.0f} s", flush=True)
        for i, p in enumerate(players):
            wait(lambda: on_table(p.state()), 20, 0.1)
            p.ask(op="autoplay", on=True, seed=n * 10 + i, think_s=THINK_S[self.quick])
        if fault is not None:
            time.sleep(3.0)
            if self._over(name):
                print(f"  {name} was over before its fault: the fault is not tried", flush=True)
                self.faults.append("skipped: match over")
            else:
                fault(name)
        if not wait(lambda: self._over(name), 240 if self.quick else 900, 0.5):
            print(f"  match {name} did not finish in time", flush=True)
        print(f"  {name} over after {time.monotonic() - began:.0f} s", flush=True)
        for p in players:
            p.ask(op="autoplay", on=False)
        if self.first_match_done_at is None:
            self.first_match_done_at = time.monotonic()
        if n == len(GAMES):
            self.every_game_done_at = time.monotonic()
        for p in (self.host, self.lena, self.marco):
            self.leave_results(p)
        print(f"  everyone back at the menu after {time.monotonic() - began:.0f} s; {self.memory()}", flush=True)

    def memory(self) -> str:
        """Each client's RSS and the pixels its card art and text caches hold (MB)."""
        parts = []
        for c in self.clients:
            k = c.ask(op="census", top=1)
            parts.append(f"{c.name} {k.get('rss_mb')} (art {k.get('art_mb')}, text {k.get('text_mb')}, "
                         f"fonts {k.get('fonts')})")
        return "RSS MB " + ", ".join(parts)

    def _over(self, name: str) -> bool:
        for t in list_tables(self.host_port):
            if t.get("name") == name:
                return t.get("status") == "over"
        return True  # closed: over, and nobody left at it

    def leave_results(self, who: Puppet) -> None:
        if who.state().get("scene") == "MenuScene":
            return
        # the results come once the last moves have been shown: a person waits for them
        # (Mafiosi shows the last round's board first, then the final reveal)
        if wait(lambda: self._present(who, "The final reveal", None) or self._present(who, "Back to the menu", None),
                20, 0.2) and self._present(who, "The final reveal", None):
            self.click(who, lambda s: self._present(who, "Back to the menu", None), text="The final reveal")
        if wait(lambda: self._present(who, "Back to the menu", None), 5, 0.2):
            self.click(who, lambda s: s.get("scene") == "MenuScene", text="Back to the menu")
            return
        who.ask(op="key", key="escape")
        time.sleep(0.3)
        who.ask(op="key", key="escape")
        self.to_menu(who)

    # -- figures --------------------------------------------------------------------------
    def figures(self) -> dict[str, Any]:
        folder = self.host.home / "data" / "mafia-table" / "matches"
        logs = sorted(folder.glob("*.jsonl")) if folder.is_dir() else []
        abandoned = sum(1 for p in logs if p.name.endswith(".abandoned.jsonl"))
        finished: list[Any] = []
        unfinished = 0
        for p in logs:
            if p.name.endswith(".abandoned.jsonl"):
                continue
            parsed = matchlog.parse(p.read_bytes())
            if parsed.finished:
                finished.append(parsed)
            else:
                unfinished += 1
        return {"abandoned": abandoned + unfinished, "finished": finished,
                "miscredited": self.miscredited(finished, self.scoreboard())}

    def scoreboard(self) -> list[dict[str, Any]]:
        """The host's server's scoreboard (``list_tables`` by an observer connection)."""
        with socket.create_connection(("127.0.0.1", self.host_port), timeout=5) as s:
            f = s.makefile("rwb")
            msg: dict[str, Any] = {}
            for seq, kind, extra in ((1, "hello", {"name": "Observer"}), (2, "list_tables", {})):
                f.write(json.dumps({"v": 1, "type": kind, "seq": seq, **extra}).encode() + b"\n")
                f.flush()
                while msg.get("re") != seq:
                    msg = json.loads(f.readline())
        return list(msg.get("scoreboard") or [])

    def miscredited(self, finished: list[Any], rows: list[dict[str, Any]]) -> int:
        """Scoreboard rows whose played / won / by_stand_in differ from the finished logs,
        plus the matches where someone who left is not marked finished by a stand-in."""
        expected: dict[tuple[str, str], list[int]] = {}
        bad = 0
        for parsed in finished:
            head = parsed.header
            people = {s["seat"]: s["name"] for s in head.get("seats", []) if not s.get("bot")}
            winners = set((parsed.result or {}).get("winners") or [])
            stand_ins = set(parsed.stand_ins)
            for seat, name in people.items():
                e = expected.setdefault((name, head["game"]), [0, 0, 0])
                e[0] += 1
                e[1] += int(seat in winners and seat not in stand_ins)
                e[2] += int(seat in winners and seat in stand_ins)
            left = {seat for seat, nm in people.items() if nm in self.expected_stand_ins.get(head.get("name"), set())}
            if not left <= stand_ins:
                bad += 1
                print(f"  {head.get('name')}: a player who left is not marked finished by a stand-in", flush=True)
        for r in rows:
            if r.get("bot"):
                continue
            want = expected.pop((r["name"], r["game"]), [0, 0, 0])
            if [r["played"], r["won"], r.get("by_stand_in", 0)] != want:
                bad += 1
                print(f"  scoreboard row {r} != logs {want}", flush=True)
        return bad + len(expected)

    def rss_slopes(self, start: float | None = None) -> dict[str, float | None]:
        """MB per hour per client: least-squares slope of its RSS samples taken after
        ``start`` (monotonic s; default: the end of the first match) and 20 s after its
        process started (None: under a minute of them)."""
        out: dict[str, float | None] = {}
        start = self.first_match_done_at or 0.0 if start is None else start
        for c in self.clients:
            pts = [(t, m) for t, m in c.rss if t >= start and t >= c.started_at + 20]
            if len(pts) < 3 or pts[-1][0] - pts[0][0] < 60:
                out[c.name] = None
                continue
            n = len(pts)
            mt = sum(t for t, _ in pts) / n
            mm = sum(m for _, m in pts) / n
            var = sum((t - mt) ** 2 for t, _ in pts)
            out[c.name] = round(sum((t - mt) * (m - mm) for t, m in pts) / var * 3600.0, 1) if var else None
        return out

    # -- phones ---------------------------------------------------------------------------
    def open_phones(self) -> None:
        if not self.phones_wanted:
            return
        try:
            from tools.screenshots_phone import chromium_available, open_phone
        except ImportError:
            return
        if not chromium_available():
            print("phones: no Chromium here, skipped", flush=True)
            return
        for _ in range(2):
            try:
                self.phones.append(open_phone(f"http://127.0.0.1:{self.web_port}/"))
            except Exception as e:  # noqa: BLE001 - a phone that cannot open is reported, not fatal
                print(f"phones: could not open one ({e})", flush=True)

    def reload_phone(self) -> None:
        if self.phones:
            self.faults.append("phone reload")
            try:
                self.phones[0].refresh()
            except Exception as e:  # noqa: BLE001
                print(f"phones: reload failed ({e})", flush=True)

    def close_phones(self) -> None:
        if not self.phones:
            return
        from tools.screenshots_phone import close_phone

        for d in self.phones:
            try:
                close_phone(d)
            except Exception:  # noqa: BLE001
                pass

    # -- the evening ----------------------------------------------------------------------
    def run(self) -> dict[str, Any]:
        self.t0 = time.monotonic()
        cpu0 = resource.getrusage(resource.RUSAGE_CHILDREN)
        self.host.start()
        wait(lambda: self.host.state().get("scene") == "MenuScene", 30)
        wait(lambda: list_tables(self.host_port) is not None and self._listening(), 30)
        for c in (self.lena, self.marco, self.tv):
            c.start()
        self.open_phones()
        sampler_stop = threading.Event()

        def sample() -> None:
            while not sampler_stop.wait(10.0):
                for c in self.clients:
                    try:
                        c.state()
                    except Exception:  # noqa: BLE001 - a client being restarted
                        pass

        threading.Thread(target=sample, daemon=True).start()
        # in game order: Omerta, Famiglia (two seats: the host and Lena), Family Business, Mafiosi
        faults: list[Callable[[str], None]] = [self.kill_lena, self.restart_host, self.cut_marco, self.marco_leaves]
        n = 0
        end = time.monotonic() + self.minutes * 60
        try:
            while True:
                for i, game in enumerate(GAMES):
                    n += 1
                    self.play(game, n, faults[i] if n <= len(GAMES) else None)
                    if n == 2:
                        self.reload_phone()
                if self.quick or time.monotonic() > end:
                    break
        finally:
            sampler_stop.set()
        print(f"evening over at {time.monotonic() - self.t0:.0f} s", flush=True)
        figs = self.figures()
        cpu1 = resource.getrusage(resource.RUSAGE_CHILDREN)
        return {
            "seats_lost": self.seats_lost,
            "rejoin_s_max": max(self.rejoin_s) if self.rejoin_s else None,
            "clicks_lost": self.clicks_lost,
            "matches_abandoned": figs["abandoned"],
            "results_miscredited": figs["miscredited"],
            "rss_mb_per_hour": self.rss_slopes(),
            "rss_mb_per_hour_after_every_game": (self.rss_slopes(self.every_game_done_at)
                                                 if self.every_game_done_at is not None else None),
            "rss_mb": {c.name: [c.rss[0][1], c.rss[-1][1]] if c.rss else None for c in self.clients},
            "matches_finished": len(figs["finished"]),
            "matches_played": n,
            "clicks": self.clicks,
            "faults": self.faults,
            "phones": len(self.phones),
            "cpu_s": round((cpu1.ru_utime + cpu1.ru_stime) - (cpu0.ru_utime + cpu0.ru_stime), 1),
        }

    def _listening(self) -> bool:
        try:
            socket.create_connection(("127.0.0.1", self.host_port), timeout=1).close()
            return True
        except OSError:
            return False

    def stop(self) -> None:
        self.close_phones()
        for c in self.clients:
            c.stop()


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--quick", action="store_true", help="one match per game (under 5 minutes)")
    p.add_argument("--minutes", type=float, default=60.0, help="length of the full run (min)")
    p.add_argument("--no-phones", action="store_true", help="without the headless Chromium phones")
    p.add_argument("--keep", metavar="DIR", help="keep the players' directories and logs in DIR")
    args = p.parse_args()
    work = Path(args.keep) if args.keep else Path(tools.sandbox.ROOT or "/tmp") / "evening"
    if work.exists() and args.keep:
        shutil.rmtree(work)
    work.mkdir(parents=True, exist_ok=True)
    evening = Evening(work, args.quick, args.minutes, not args.no_phones)
    t0 = time.monotonic()
    try:
        out = evening.run()
    finally:
        evening.stop()
    out["wall_s"] = round(time.monotonic() - t0, 1)
    print(json.dumps(out), flush=True)
    measured = out["matches_finished"] > 0 and out["clicks"] > 0
    bars = (out["seats_lost"] == 0 and out["clicks_lost"] == 0 and out["matches_abandoned"] == 0
            and out["results_miscredited"] == 0 and out["matches_finished"] >= len(GAMES)
            and (args.quick or all(v is not None and v < 30 for v in out["rss_mb_per_hour"].values())))
    return 0 if measured and bars else 1


if __name__ == "__main__":
    sys.exit(main())
