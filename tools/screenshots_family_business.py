"""Screenshots of the Family Business table in a real match: the client's
:class:`~client.app.App` in this process with its embedded server (``testing``: a
stacked deck, so a war and a counter prompt come on cue) and five bots; the player
(seat 0, "Alice") is driven like a player would drive it: clicks on a card and on its
target, Return for "no counter", then the Family Business bot's choices sent as
clicks would send them, until the end.

Shots (``--out``, default ``/tmp/fb_shots/<size>-<language>``): ``fb_01_counter_prompt``
(a bot's contract: Alice's counter prompt with its keys and time bar), ``fb_02_choosing``
(Alice's first play: a Double Contract chosen, the players it may target lit),
``fb_03_mid_war`` (six gangs, the war at rate 2, the hit list with its order and the
next executions, the cemetery), ``fb_04_results``.

    xvfb-run -s "-screen 0 1920x1080x24" python -m tools.screenshots_family_business --size 1920x1080
    python -m tools.screenshots_family_business --size 1280x720 --language fr
"""
from __future__ import annotations

import tools.sandbox  # noqa: F401  (a private data dir: never the player's replays)
import argparse
import os
import sys

import pygame

from tools.screenshots import host_table, start_app

#: Seat 0 (Alice): a Double Contract, an Ambush, two counters; the bots hold contracts and
#: rescue cards, no counter (so Alice's contract is not answered); Alice draws a contract.
DECK = (["double_contract", "ambush", "family_influence", "mob_power", "contract"]
        + ["contract", "contract", "lam", "intrigue", "pay_off"]
        + ["contract", "contract", "lam", "substitution", "police_protection"]
        + ["contract", "contract", "lam", "substitution", "truce"]
        + ["contract", "contract", "lam", "intrigue", "police_protection"]
        + ["contract", "contract", "contract_no_mp", "contract_no_mp", "contract_no_fi"]
        + ["contract"])


def run(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default=None)
    ap.add_argument("--size", default="1920x1080")
    ap.add_argument("--language", default="en")
    ap.add_argument("--port", type=int, default=7960)
    ap.add_argument("--seed", type=int, default=11)
    args = ap.parse_args(argv)
    out = args.out or f"/tmp/fb_shots/{args.size}-{args.language}"
    os.makedirs(out, exist_ok=True)
    from client.games.family_business.results import FBResultsScene
    from client.games.family_business.table import FamilyBusinessTableScene
    from shared.bots import make_bot
    from shared.games import family_business as fb

    app, d, link = start_app(out, args.size, args.language, "Alice",
                             {"server": {"host": "127.0.0.1", "port": args.port,
                                         "discovery_port": args.port + 1, "testing": True,
                                         "name": "Living room"}, "bots": {"think_ms": 350},
                              "timing": {"counter_timeout_ms": 6000}})
    host_table(d, link, "family_business", 6, "Friday night",
               {"deck": DECK, "first_player": 0, "seed": args.seed})
    d.pump(8, lambda: isinstance(app.top, FamilyBusinessTableScene))
    sc = app.top
    bot = make_bot("family_business", 0, "shots", {"think_ms": 0})
    shots: set[str] = set()

    def types() -> set[str]:
        return {a.get("type") for a in sc.legal.get(0, [])}

    def card_of(code: str) -> int | None:
        return next((c["id"] for c in sc.hand_of(0) if c.get("code") == code), None)

    def bot_move() -> None:
        legal = [fb.ACTIONS.parse(a, from_client=False) for a in sc.legal.get(0, [])]
        decision = bot.decide(sc.view, legal)
        if decision is not None:
            sc.send(0, decision.action.to_dict())

    def over() -> bool:
        return sc.view.get("phase") == "over" or isinstance(app.top, FBResultsScene)

    my_turns = 0
    for _ in range(400):
        if over():
            break
        if not d.pump(30, lambda: bool(sc.legal.get(0)) or over()):
            break
        if over():
            break
        t = types()
        if "no_counter" in t:  # a counter window: the prompt, then "no counter" (Return)
            if "fb_01_counter_prompt" not in shots:
                d.pump(0.9)
                d.shot("fb_01_counter_prompt")
                shots.add("fb_01_counter_prompt")
            d.key(pygame.K_RETURN)
            d.pump(0.2)
            continue
        if "void" in t:  # our turn
            my_turns += 1
            d.pump(1.2, lambda: not sc.anim.busy(sc.t))
            dc, amb = card_of("double_contract"), card_of("ambush")
            if my_turns == 1 and dc is not None:
                d.click(sc.layout.hand[dc].center)
                d.pump(0.6)
                d.shot("fb_02_choosing")
                shots.add("fb_02_choosing")
                d.click(sc.layout.seats[1].plate.center)  # on Bob
                continue
            if amb is not None and sc.view.get("hit_list") and not (sc.view.get("war") or {}).get("active"):
                d.click(sc.layout.hand[amb].center)
                d.pump(0.3)
                play = sc.buttons.get("0:play")
                if play is not None:
                    d.click(play.rect.center)
                continue
            war = sc.view.get("war") or {}
            if "fb_03_mid_war" not in shots and war.get("active") and len(sc.view.get("hit_list") or []) >= 2:
                c = card_of("contract") or card_of("contract_no_mp") or card_of("double_contract")
                if c is not None:
                    d.click(sc.layout.hand[c].center)
                d.pump(0.6)
                d.shot("fb_03_mid_war")
                shots.add("fb_03_mid_war")
                if c is not None:
                    d.key(pygame.K_ESCAPE)  # drop it; the bot's choice follows
            bot_move()
            d.pump(0.1)
            continue
        bot_move()  # a place / order choice
        d.pump(0.1)
    d.pump(8, lambda: isinstance(app.top, FBResultsScene))
    d.pump(1.2)
    d.shot("fb_04_results")
    print("shots:", sorted(shots | {"fb_04_results"}), "turns:", sc.view.get("turn_no"), flush=True)
    for link in list(app.connections.links):
        app.connections.close_link(link)
    pygame.quit()
    return 0


if __name__ == "__main__":
    sys.exit(run())
