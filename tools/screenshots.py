"""Screenshots of the real client, driven like a player would drive it.

Runs ``mafia-table``'s :class:`~client.app.App` in this process on the current display
(Xvfb in ``docs/screenshots/take_screenshots.sh``), with its embedded server (a stacked
deck, so a snap happens on cue), posts mouse and key events into pygame's queue, and
captures the X screen with ImageMagick's ``import`` (falls back to pygame's own copy of
the window). Shots: menu, lobby, join (a server found by LAN discovery), the peek, a
drawn card, a snap flying to the discard pile, the table mid-round, round results,
settings, couch setup, the couch table (its shared screen is a TV view: public
information only) and the hand-over screen (cover, then the seat's cards); then a
Famiglia table hosted from the host screen, mid-game against the bot with a spectator
watching (the count shows in the top bar) and a street card asking what it is for, its
results, the same kind of table seen as a spectator from the join screen's Watch button,
a replay mid-way (a match log written with ``shared.matchlog``), the "reconnecting"
overlay after the player's connection is cut, and a real ``mafia-server`` killed
mid-match and started again on its data directory (the overlay counting the tries, then
the match back).

    python -m tools.screenshots --out shots/1280 --size 1280x720
    python -m tools.screenshots --out shots/1920 --fullscreen
"""
from __future__ import annotations

import tools.sandbox  # noqa: F401  (a private data dir: never the player's replays)
import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from typing import Any, Callable

import pygame

#: Seat 0 holds a 7 in its second slot and the first card of the draw pile is a 7.
DECK = ["1", "7", "2", "3", "4", "5", "6", "8", "9", "10", "1", "2", "3", "4", "5", "6", "8", "9", "10", "1", "7"]


class Driver:
    def __init__(self, app: Any, out: str):
        from twisted.internet import reactor

        self.app, self.out, self.reactor = app, out, reactor
        self.last = time.perf_counter()
        # The server's group commit fsyncs match logs on the reactor's thread pool, which
        # only starts when the reactor runs; this driver iterates it instead, so start the
        # pool here, with daemon threads so that the script still exits when it is done.
        pool = reactor.getThreadPool()
        if not pool.started:
            pool.threadFactory = lambda *a, **kw: threading.Thread(*a, daemon=True, **kw)
            pool.start()

    def pump(self, seconds: float, until: Callable[[], bool] | None = None) -> bool:
        """Run the client (network, input, frames) for ``seconds`` or until ``until()``."""
        end = time.perf_counter() + seconds
        while time.perf_counter() < end:
            if until is not None and until():
                return True
            self.reactor.iterate(0.002)
            self.app.sample()
            now = time.perf_counter()
            if now - self.last >= 1 / 60:
                self.app.display.render(min(0.05, now - self.last))
                self.last = now
        return until() if until is not None else True

    def click(self, pos: tuple[int, int], button: int = 1) -> None:
        pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0)))
        pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=button))
        pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=button))
        self.pump(0.05)

    def key(self, k: int) -> None:
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=k, mod=0, unicode="", scancode=0))
        pygame.event.post(pygame.event.Event(pygame.KEYUP, key=k, mod=0, unicode="", scancode=0))
        self.pump(0.05)

    def button(self, text_key: str) -> bool:
        for b in list(self.app.top.ui):
            if getattr(b, "text", None) in (f"mafia.{text_key}", text_key) and b.is_enabled:
                self.click(b.rect.center)
                return True
        return False

    def shot(self, name: str) -> str:
        self.app.display.render(1 / 60)
        self.pump(0.03)
        path = os.path.join(self.out, f"{name}.png")
        if shutil.which("import") and os.environ.get("DISPLAY"):
            subprocess.run(["import", "-window", "root", path], check=False)
        if not os.path.exists(path):
            pygame.image.save(self.app.display.screen, path)
        print("shot", path, flush=True)
        return path


def start_app(out: str, size: str, language: str, player: str, config: dict[str, Any],
              fullscreen: bool = False) -> tuple[Any, "Driver", Any]:
    """The real App on the current display at the main menu, its embedded server started
    with ``config`` (merged over the defaults): ``(app, driver, link)``. Raises
    ``SystemExit(1)`` with a line on stderr when the server does not start."""
    from twisted.internet import reactor

    from client.app import App
    from client.scenes.menu import MenuScene
    from client.settings import Settings
    from shared.config import merge

    w, h = (int(x) for x in size.split("x"))
    settings = Settings(name=player, width=w, height=h, fullscreen=fullscreen, language=language)
    app = App(merge(config), settings, reactor,
              settings_path=os.path.join(tempfile.mkdtemp(), "settings.json"))
    app.open_window()
    app.push(MenuScene(app))
    app.running = True
    d = Driver(app, out)
    box: dict[str, Any] = {}
    app.connections.start().addCallbacks(lambda link: box.setdefault("link", link), lambda f: box.setdefault("error", f))
    d.pump(5, lambda: bool(box))
    if "error" in box:
        print("cannot start:", box["error"].value, file=sys.stderr)
        raise SystemExit(1)
    return app, d, box["link"]


def host_table(d: "Driver", link: Any, game: str, seats: int, name: str, options: dict[str, Any],
               bots: int | None = None) -> int:
    """Create a table of ``game``, sit at seat 0 and add ``bots`` (default: every other
    seat) server bots; returns the table id."""
    got: dict[str, Any] = {}
    link.request("create_table", game=game, seats=seats, name=name, options=options).addCallback(
        lambda r: got.setdefault("t", r))
    d.pump(3, lambda: "t" in got)
    tid = got["t"]["table"]["id"]
    link.request("join", table=tid, seat=0).addCallback(lambda r: got.setdefault("j", r))
    d.pump(3, lambda: "j" in got)
    for _ in range(seats - 1 if bots is None else bots):
        link.request("add_bot", table=tid)
    return tid


def run(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default="shots")
    ap.add_argument("--size", default="1280x720")
    ap.add_argument("--fullscreen", action="store_true")
    ap.add_argument("--language", default="en")
    ap.add_argument("--port", type=int, default=7860)
    args = ap.parse_args(argv)
    os.makedirs(args.out, exist_ok=True)
    from client.input import binding_for
    from client.scenes.couch import CouchScene, start_couch
    from client.scenes.join import JoinScene
    from client.scenes.lobby import LobbyScene
    from client.games.omerta.table import OmertaTableScene
    from client.games.omerta.results import ResultsScene
    from client.scenes.settings import SettingsScene

    app, d, link = start_app(
        args.out, args.size, args.language, "Alice",
        {"server": {"host": "0.0.0.0", "port": args.port, "discovery_port": args.port + 1,
                    "testing": True, "name": "Living room"}, "bots": {"think_ms": 450}},
        fullscreen=args.fullscreen)
    d.pump(0.5)
    d.shot("01_menu")

    # lobby of a hosted table with one bot
    got: dict[str, Any] = {}
    link.request("create_table", game="omerta", seats=4, name="Alice's table",
                 options={"deck": DECK, "first_player": 0, "seed": 7}).addCallback(lambda r: got.setdefault("t", r))
    d.pump(3, lambda: "t" in got)
    table = got["t"]["table"]
    link.request("join", table=table["id"], seat=0).addCallback(lambda r: got.setdefault("j", r))
    d.pump(3, lambda: "j" in got)
    app.tables[table["id"]] = table
    lobby = app.replace(LobbyScene(app, link, table, host=True))
    lobby.add_bot(2)
    d.pump(1.0)
    app.settings.bot_level = "hard"  # the next bot: a hard one (not saved: no settings file here)
    lobby.add_bot(3)
    d.pump(1.0)
    d.shot("02_lobby")
    app.settings.bot_level = "normal"

    # the join screen finds this server by LAN discovery
    join = app.push(JoinScene(app))
    d.pump(4, lambda: bool(join.servers) and bool(join.tables))
    d.pump(0.3)
    d.shot("03_join")
    app.pop()
    d.pump(0.3)

    # fill with bots: the match starts; peek at two cards
    app.top.fill_bots()
    d.pump(5, lambda: isinstance(app.top, OmertaTableScene))
    sc = app.top
    d.pump(0.8)
    mine = sc.own_slots(0)
    d.click(sc.layout.slot_rect(mine[0]).center)
    d.click(sc.layout.slot_rect(mine[1]).center)
    d.pump(1.2)
    d.shot("04_peek")
    # our turn: draw the 7, discard it, snap with our own 7
    d.pump(15, lambda: "draw_deck" in sc.legal_types(0))
    d.pump(0.3)
    d.click(sc.layout.draw_pile.center)
    d.pump(3, lambda: "discard_drawn" in sc.legal_types(0))
    d.pump(0.6)
    d.shot("05_drawn")
    d.click(sc.layout.discard.center)
    d.pump(3, lambda: "snap" in sc.legal_types(0))
    d.pump(0.25)
    d.key(pygame.K_2)
    d.key(pygame.K_SPACE)

    def snapping() -> bool:
        return any(getattr(e, "glow", None) == (255, 214, 102) and e.active(sc.t) and
                   sc.t - e.t0 > 120 for e in sc.anim.effects)

    if d.pump(3, snapping):
        d.shot("06_snap")
    # a few turns go by; the bots play; then we declare Omerta
    def step(take_shot: bool = False) -> None:
        """Answer whatever seat 0 must answer now, like a cautious player."""
        t = sc.legal_types(0)
        if "draw_deck" in t and "declare_omerta" in t and turns[0] >= 3:
            d.button("act.declare_omerta")
        elif "draw_deck" in t:
            turns[0] += 1
            d.click(sc.layout.draw_pile.center)
            d.pump(3, lambda: "discard_drawn" in sc.legal_types(0))
            d.pump(0.5)
            if take_shot:
                d.shot("07_table_mid_round")
            d.click(sc.layout.discard.center)
        elif t & {"snap_pass", "hitwoman_pass"}:
            d.key(pygame.K_RETURN)
        elif "decline" in t:
            d.button("act.decline_power") or d.button("act.keep")
        elif "end_turn" in t:
            d.button("act.end_turn")
        elif "safecracker" in t:
            d.click(sc.layout.safe[0].center)
        d.pump(0.4)

    turns = [0]
    shot_taken = False
    for _ in range(40):
        if isinstance(app.top, ResultsScene):
            break
        d.pump(20, lambda: bool(sc.legal_types(0)) or isinstance(app.top, ResultsScene))
        if isinstance(app.top, ResultsScene):
            break
        want = turns[0] == 1 and not shot_taken and "draw_deck" in sc.legal_types(0)
        step(want)
        shot_taken = shot_taken or want
    d.pump(6, lambda: isinstance(app.top, ResultsScene))
    d.pump(1.0)
    d.shot("08_results")

    # settings and couch setup screens
    sc.keys.leave_table()
    d.pump(1.0)
    app.push(SettingsScene(app))
    d.pump(0.5)
    d.shot("09_settings")
    app.pop()
    app.push(CouchScene(app))
    d.pump(0.5)
    d.shot("10_couch_setup")
    app.pop()

    # couch play: two players on this screen; Ann peeks, then uses the hand-over screen
    start_couch(app, [("Ann", binding_for("left")), ("Bob", binding_for("right"))], 4)
    d.pump(8, lambda: isinstance(app.top, OmertaTableScene) and len(app.top.local_seats) == 2)
    sc = app.top
    d.pump(1.5)
    for seat in (0, 1):
        mine = sc.own_slots(seat)
        d.click(sc.layout.slot_rect(mine[0]).center)
        d.click(sc.layout.slot_rect(mine[2]).center)
    d.pump(1.0)
    d.shot("11_couch_table")
    d.key(pygame.K_q)  # Ann's reveal key ("left" zone): the cover
    d.pump(0.4)
    d.shot("12_handover_cover")
    d.key(pygame.K_q)  # again: her cards
    d.pump(0.5)
    d.shot("13_handover_cards")
    d.key(pygame.K_q)
    d.pump(0.3)
    sc.keys.leave_table()
    d.pump(0.5)
    famiglia_shots(app, d, link, args.out)
    for link in list(app.connections.links):
        app.connections.close_link(link)
    pygame.quit()
    return 0


def famiglia_shots(app: Any, d: Driver, link: Any, out: str) -> None:
    """Famiglia hosted and played, a spectator's view, a replay, the reconnect overlay."""
    from client.games.famiglia.results import FamigliaResultsScene
    from client.games.famiglia.table import FamigliaTableScene
    from client.scenes.host import HostScene
    from client.scenes.join import JoinScene
    from client.scenes.lobby import LobbyScene
    from client.scenes.replay import ReplayScene, load
    from shared.bots import make_bot
    from shared.games import famiglia as fg

    host = app.push(HostScene(app))
    host.set_game("famiglia")
    d.pump(0.4)
    d.shot("14_host_famiglia")
    d.button("host.create")
    d.pump(3, lambda: isinstance(app.top, LobbyScene))
    d.button("hostctl.fill_bots") or d.button("lobby.fill_bots")
    # the GUI's tables start when the host says so (option start: "host")
    d.pump(5, lambda: isinstance(app.top, FamigliaTableScene) or d.button("hostctl.start"))
    d.pump(5, lambda: isinstance(app.top, FamigliaTableScene))
    sc = app.top
    # a second connection watches: the player's top bar shows the spectator count
    box: dict[str, Any] = {}
    app.connections.open_link("TV", app.connections.server_address).addCallback(lambda tv: box.setdefault("tv", tv))
    d.pump(3, lambda: "tv" in box)
    box["tv"].request("join", table=sc.table_id, spectate=True)
    bot = make_bot("famiglia", 0, "shots", {"think_ms": 0})

    def asking() -> list[tuple[str, int]]:
        """Street cards that could start several actions (the table then asks)."""
        ch = sc.chooser
        return [p for p in sc.layout.order if p[0] == "street" and ch is not None and len(ch.intents(p)) > 1]

    for i in range(30):  # our moves chosen by the Famiglia bot, sent like clicks would
        if not d.pump(20, lambda: bool(sc.legal.get(0)) or sc.view.get("phase") == "over"):
            break
        if sc.view.get("phase") == "over" or (i >= 8 and asking()):
            break
        d.pump(0.5)
        legal = [fg.ACTIONS.parse(a, from_client=False) for a in sc.legal.get(0, [])]
        sc.send(bot.decide(sc.view, legal).action.to_dict())
    d.pump(4, lambda: not sc.anim.busy(sc.t))
    street = asking()
    if street:  # what can this card do? the buttons ask
        d.click(sc.layout.rect(street[-1]).center)
        d.pump(0.4)
    d.shot("15_famiglia_mid_game")
    if street and "cancel" in sc.buttons:
        d.click(sc.buttons["cancel"].rect.center)
    for _ in range(80):  # then play it to the end
        if isinstance(app.top, FamigliaResultsScene) or sc.view.get("phase") == "over":
            break
        if not d.pump(20, lambda: bool(sc.legal.get(0)) or sc.view.get("phase") == "over"):
            break
        if sc.view.get("phase") == "over":
            break
        legal = [fg.ACTIONS.parse(a, from_client=False) for a in sc.legal.get(0, [])]
        sc.send(bot.decide(sc.view, legal).action.to_dict())
        d.pump(0.05)
    d.pump(6, lambda: isinstance(app.top, FamigliaResultsScene))
    d.pump(1.0)
    d.shot("16_famiglia_results")
    app.connections.close_link(box["tv"])
    sc.keys.leave_table()
    d.pump(0.5)

    # a spectator: bots play a table; the join screen's Watch button opens it
    got: dict[str, Any] = {}
    link.request("create_table", game="omerta", seats=3, name="Bots only",
                 options={"seed": 5}).addCallback(lambda r: got.setdefault("t", r))
    d.pump(3, lambda: "t" in got)
    tid = got["t"]["table"]["id"]
    for _ in range(3):
        link.request("add_bot", table=tid)
    d.pump(1.0)
    join = app.push(JoinScene(app))
    d.pump(4, lambda: any(t.get("id") == tid for t in join.tables))
    d.pump(0.3)
    item = next((i for i in join.l_tables.item_list if i.get("object_id") == str(tid)), None)
    if item is not None and item.get("button_element") is not None:
        d.click(item["button_element"].rect.center)
    join.selected_table = tid
    d.button("join.watch")
    d.pump(5, lambda: getattr(app.top, "table_id", None) == tid)
    d.pump(7)
    d.shot("17_spectator_view")
    app.top.keys.leave_table()
    d.pump(0.5)

    # a replay mid-way
    path = os.path.join(tempfile.mkdtemp(), "table-7-4.jsonl")
    write_match_log(path)
    replay = app.push(ReplayScene(app, load(path), os.path.basename(path)))
    replay.seek(replay.last // 2)
    d.key(pygame.K_SPACE)
    d.pump(2.5)
    d.shot("18_replay")
    app.pop()
    d.pump(0.3)

    # the reconnecting overlay: our connection to a running table is cut
    got.clear()
    link.request("create_table", game="famiglia", seats=2, name="Alice's table",
                 options={"seed": 9}).addCallback(lambda r: got.setdefault("t", r))
    d.pump(3, lambda: "t" in got)
    tid = got["t"]["table"]["id"]
    link.request("join", table=tid, seat=0).addCallback(lambda _r: link.request("add_bot", table=tid))
    d.pump(5, lambda: isinstance(app.top, FamigliaTableScene) and app.top.table_id == tid)
    d.pump(1.5)
    link.conn.transport.abortConnection()
    d.pump(3, lambda: getattr(app.top, "reconnecting", None) is not None)
    d.pump(0.15)  # the first try comes 0.5 s after the drop
    d.shot("19_reconnecting")
    d.pump(15, lambda: getattr(app.top, "reconnecting", None) is None)
    d.pump(1.0)
    d.shot("20_reconnected")
    app.top.keys.leave_table()
    d.pump(0.5)
    server_restart_shots(app, d)


def server_restart_shots(app: Any, d: Driver) -> None:
    """A real ``mafia-server`` with a data directory, killed mid-match and started again:
    the overlay counts the tries, then the match comes back from the server's match log."""
    import signal

    from client.games.famiglia.table import FamigliaTableScene

    port = app.connections.server_address[1] + 3
    data = tempfile.mkdtemp()

    def start() -> subprocess.Popen:
        return subprocess.Popen([sys.executable, "-m", "server.main", "--port", str(port), "--data-dir", data,
                                 "--no-discovery"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    server = start()
    box: dict[str, Any] = {}
    try:
        for _ in range(50):  # the server takes a moment to listen
            app.connections.open_link("Alice", ("127.0.0.1", port)).addCallbacks(lambda lk: box.setdefault("link", lk),
                                                                     lambda f: None)
            if d.pump(0.3, lambda: "link" in box):
                break
        link = box["link"]
        got: dict[str, Any] = {}
        link.request("create_table", game="famiglia", seats=2, name="Friday duel",
                     options={"seed": 12, "turn_timer_s": 90}).addCallback(lambda r: got.setdefault("t", r))
        d.pump(3, lambda: "t" in got)
        tid = got["t"]["table"]["id"]
        link.request("join", table=tid, seat=0).addCallback(lambda _r: link.request("add_bot", table=tid))
        d.pump(5, lambda: isinstance(app.top, FamigliaTableScene) and app.top.table_id == tid)
        sc = app.top
        d.pump(10, lambda: bool(sc.legal.get(0)))
        d.pump(1.0)
        server.send_signal(signal.SIGKILL)  # the server dies...
        server.wait()
        d.pump(5.0)  # ... tries at 0.5 s, 1.5 s, 3.5 s fail
        d.shot("21_server_down_reconnecting")
        server = start()  # ... and comes back with its match logs
        d.pump(20, lambda: sc.reconnecting is None and app.top is sc and bool(sc.legal.get(0)))
        d.pump(1.5)
        d.shot("22_server_back")
        sc.keys.leave_table()
        d.pump(0.3)
        app.connections.close_link(link)
    finally:
        server.terminate()
        server.wait()


def write_match_log(path: str, seed: int = 4) -> None:
    """A finished Famiglia match between two bots, as a server would log it."""
    from shared import matchlog
    from shared.bots import make_bot
    from shared.games import famiglia as fg
    from shared.sim import play_match

    bots = [make_bot("famiglia", p, f"{seed}/{p}", {"think_ms": 0}) for p in range(2)]
    record = play_match(fg, {"seats": 2}, seed, bots)
    seats = [{"seat": 0, "name": "Ada", "bot": False, "token": "-"}, {"seat": 1, "name": "Bruno", "bot": True,
                                                                      "token": "-"}]
    lines = [matchlog.line(matchlog.header("famiglia", {"seats": 2}, seed, 7, "Friday night", seats))]
    lines += [matchlog.line(matchlog.action_record(i, seat, action, i * 1500.0))
              for i, (seat, action) in enumerate(record.log, start=1)]
    lines.append(matchlog.line({"kind": "over", "result": {"game": "famiglia", **fg.scores(record.state)},
                                "t": (len(record.log) + 1) * 1500.0}))
    with open(path, "w", encoding="utf-8") as f:
        f.writelines(lines)


if __name__ == "__main__":
    sys.exit(run())
