"""Screenshots of the Mafiosi table, driven like a player would drive it.

Runs ``mafia-table``'s App in this process on the current display (Xvfb) with its
embedded server and bots: a 5-player table hosted by Alice (seat 0), her moves chosen
by the Mafiosi bot and made with mouse clicks on the cards. Shots: the bouncer choice,
a trick mid-round (a hovered card she may not play shows why, when there is one), her
won cards, the round-end board (the first one with an eliminated player, else the
first), the point-card choice, and the final reveal.

    xvfb-run -s "-screen 0 1920x1080x24" python -m tools.screenshots_mafiosi --out /tmp/maf_shots/en_1920 --size 1920x1080
    ... --out /tmp/maf_shots/fr_1280 --size 1280x720 --language fr
"""
from __future__ import annotations

import tools.sandbox  # noqa: F401  (a private data dir: never the player's replays)
import argparse
import os
import sys

import pygame

from tools.screenshots import host_table, start_app


def run(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default="/tmp/maf_shots")
    ap.add_argument("--size", default="1920x1080")
    ap.add_argument("--language", default="en")
    ap.add_argument("--port", type=int, default=7880)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--seed", type=int, default=11)
    args = ap.parse_args(argv)
    os.makedirs(args.out, exist_ok=True)
    from client.games.mafiosi.handover import WonCardsScene
    from client.games.mafiosi.results import MafiosiBoard
    from client.games.mafiosi.table import MafiosiTableScene
    from shared.bots import make_bot
    from shared.games import mafiosi as maf

    app, d, link = start_app(args.out, args.size, args.language, "Alice",
                             {"server": {"host": "127.0.0.1", "port": args.port,
                                         "discovery_port": args.port + 1, "testing": True,
                                         "name": "Living room"}, "bots": {"think_ms": 350}})
    # Alice holds the ace of spades and the King and Jack of hearts: a spade lead shows a duty
    deck = ["AS", "KH", "JH", "2C", "5D", "9S", "QD", "3H", "7C"]
    host_table(d, link, "mafiosi", 5, "Mafiosi night",
               {"seed": args.seed, "rounds": args.rounds, "deck": deck})
    d.pump(8, lambda: isinstance(app.top, MafiosiTableScene))
    sc = app.top
    bot = make_bot("mafiosi", 0, "shots", {"think_ms": 0})
    taken: set[str] = set()

    def hand_point(place: tuple[str, int]) -> tuple[int, int]:
        r = sc.layout.rect(place)
        return (r.x + max(4, r.w // 10), r.bottom - max(8, r.h // 6))

    def my_move() -> None:
        legal = [maf.ACTIONS.parse(a, from_client=False) for a in sc.legal.get(0, [])]
        action = bot.decide(sc.view, legal).action.to_dict()
        place = ("point" if action["type"] == "keep_point_card" else "hand", action["card"])
        if place in sc.layout.cards:
            d.click(hand_point(place) if place[0] == "hand" else sc.layout.rect(place).center)
        else:
            sc.send(0, action)

    def board_shots() -> None:
        top = app.top
        if not isinstance(top, MafiosiBoard):
            return
        d.pump(0.8)
        if top.final:
            d.shot("06_final_reveal")
            taken.add("final")
            top.close() if "final_table" not in taken else None
            return
        res = top.round_result()
        if "board" not in taken and (any(res.get("eliminated") or []) or top.round_no >= args.rounds):
            d.shot("04_round_board")
            taken.add("board")
        top.close()
        d.pump(0.3)

    for _ in range(400):
        d.pump(25, lambda: bool(sc.legal.get(0)) or isinstance(app.top, MafiosiBoard)
               or sc.view.get("phase") == "over")
        if isinstance(app.top, MafiosiBoard):
            board_shots()
            if "final" in taken:
                break
            continue
        if sc.view.get("phase") == "over":
            d.pump(3, lambda: isinstance(app.top, MafiosiBoard))
            continue
        d.pump(0.35, lambda: isinstance(app.top, MafiosiBoard))
        if app.top is not sc or not sc.legal.get(0):
            continue
        phase = sc.view.get("phase")
        if phase == "bouncer" and "bouncer" not in taken:
            d.pump(0.6)
            d.shot("01_bouncer_choice")
            taken.add("bouncer")
        if phase == "play" and "trick" not in taken and len(sc.view.get("trick") or []) >= 2:
            d.pump(1.0, lambda: not sc.anim.busy(sc.t))
            bad = [p for p in sc.layout.order if sc.card_reason(p) and "turn" not in sc.card_reason(p)]
            if bad:
                pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=hand_point(bad[0]), rel=(0, 0),
                                                     buttons=(0, 0, 0)))
            d.pump(0.2)
            d.shot("02_trick_mid_round")
            taken.add("trick")
            if sc.view["players"][0].get("won_count"):
                d.click(sc.layout.seats[0].pile.center)
                d.pump(0.4)
                if isinstance(app.top, WonCardsScene):
                    d.shot("03_won_cards")
                    app.pop()
                    d.pump(0.2)
            else:
                taken.discard("trick") if sc.view.get("trick_no", 1) < 4 else None
        if phase == "point" and "point" not in taken:
            d.pump(0.8)
            d.shot("05_point_choice")
            taken.add("point")
        my_move()
        d.pump(0.2)
    print("taken:", sorted(taken), flush=True)
    for link in list(app.connections.links):
        app.connections.close_link(link)
    pygame.quit()
    return 0


if __name__ == "__main__":
    sys.exit(run())
