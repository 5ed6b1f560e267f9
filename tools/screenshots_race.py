"""Screenshots of the photo finish after a close snap, with the real client: what players
see of how a race was judged.

Runs the :class:`~client.app.App` on the current display (Xvfb) with its embedded
server (``testing``: a stacked deck), hosts an Omerta table with two bots, plays up to
the first snap window, snaps with the matching card, and then shows the ``race`` of a
close finish as every player receives it (the server's own race when a bot snapped
too, else a close one built on the real one: the bots react in 300-900 ms, so a real
race against them is rarely close) -- and the results board with each player's median
snap reaction. Shots go to ``--out`` (not the repository):

    Xvfb :99 -screen 0 1920x1080x24 & DISPLAY=:99 python -m tools.screenshots_race \\
        --out /tmp/race_shots --size 1280x720 --language fr
"""
from __future__ import annotations

import tools.sandbox  # noqa: F401  (a private data dir: never the player's replays)
import argparse
import os
import sys

import pygame

from tools.screenshots import DECK, host_table, start_app


def run(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default="/tmp/race_shots")
    ap.add_argument("--size", default="1280x720")
    ap.add_argument("--language", default="en")
    ap.add_argument("--port", type=int, default=7870)
    args = ap.parse_args(argv)
    os.makedirs(args.out, exist_ok=True)
    from client.games.omerta.results import ResultsScene
    from client.games.omerta.table import OmertaTableScene

    w, h = (int(x) for x in args.size.split("x"))
    app, d, link = start_app(args.out, args.size, args.language, "Lena",
                             {"server": {"host": "127.0.0.1", "port": args.port, "discovery_port": 0,
                                         "testing": True, "name": "Living room"},
                              "bots": {"think_ms": 450}})
    tid = host_table(d, link, "omerta", 3, "Lena's table",
                     {"deck": DECK, "first_player": 0, "seed": 7, "rounds": 1})
    d.pump(5, lambda: isinstance(app.top, OmertaTableScene))
    sc = app.top
    # rename the bots as people would be called at a real table
    names = {0: "Lena", 1: "Marc", 2: "Sofia"}
    entry = app.tables.get(tid) or {"id": tid, "seats": []}
    entry["seats"] = [{"seat": s, "name": n} for s, n in names.items()]
    app.tables[tid] = entry
    d.pump(0.8)
    mine = sc.own_slots(0)
    d.click(sc.layout.slot_rect(mine[0]).center)
    d.click(sc.layout.slot_rect(mine[1]).center)
    d.pump(15, lambda: "draw_deck" in sc.legal_types(0))
    d.click(sc.layout.draw_pile.center)
    d.pump(3, lambda: "discard_drawn" in sc.legal_types(0))
    d.pump(0.3)
    d.click(sc.layout.discard.center)
    d.pump(3, lambda: "snap" in sc.legal_types(0))
    d.pump(0.2)
    d.key(pygame.K_2)  # the 7 in our second slot
    d.key(pygame.K_SPACE)
    d.pump(3, lambda: sc.race is not None)
    real = sc.race
    # a close finish, as the server sends it to every seat: ours if a bot raced us,
    # else one 5 ms apart built around our real reaction
    if real is None or len(real.runners) < 2:
        ours = real.runners[0].reaction_ms if real is not None else 231.0
        wid = real.window if real is not None else -1
        sc.races_seen.discard(wid)
        sc.on_message({"type": "race", "table": tid, "window": wid, "winner": 0, "margin_ms": 4.6,
                       "claims": [{"seat": 0, "reaction_ms": round(ours, 1), "outcome": "won"},
                                  {"seat": 1, "reaction_ms": round(ours + 4.6, 1), "outcome": "too_slow"}]},
                      link)
    d.pump(0.6)
    d.shot(f"race_{args.language}_{w}x{h}")
    # three runners, one with the wrong card
    sc.on_message({"type": "race", "table": tid, "window": 10_000, "winner": 2, "margin_ms": 1.8,
                   "claims": [{"seat": 1, "reaction_ms": 228.9, "outcome": "wrong"},
                              {"seat": 2, "reaction_ms": 241.3, "outcome": "won"},
                              {"seat": 0, "reaction_ms": 243.1, "outcome": "too_slow"}]}, link)
    d.pump(0.4)
    d.shot(f"race3_{args.language}_{w}x{h}")
    # the results board with each player's median snap reaction
    sc.match_reactions = [236.0, 241.3, None]
    lr = {"round": 1, "declarer": None, "capped": True, "stocks": [12, 15, 9], "round_scores": [12, 15, 9],
          "totals": [12, 15, 9], "games": [[] for _ in range(3)]}
    app.push(ResultsScene(app, sc, lr, final=True, result={"winners": [2]}))
    d.pump(1.0)
    d.shot(f"results_{args.language}_{w}x{h}")
    for link in list(app.connections.links):
        app.connections.close_link(link)
    pygame.quit()
    return 0


if __name__ == "__main__":
    sys.exit(run())
