"""The Omerta bot decides from its seat's view and memory (ARCHITECTURE §3)."""
from __future__ import annotations

import random

from shared.bots import make_bot
from shared.bots.base import ReactionModel
from shared.games.omerta.bot import OmertaBot
from shared.games import omerta as om
from shared.rules import events_for
from tests.omerta_helpers import act, deal, slot

HANDS = [["7", "2", "3", "4"], ["5", "6", "9", "8"], ["9", "10", "1", "2"]]


def bot_for(seat: int, reaction=None) -> OmertaBot:
    return OmertaBot(seat, random.Random(seat), reaction=reaction or ReactionModel(), think_ms=100)


def feed(bot: OmertaBot, state, events):
    bot.observe(events_for(events, bot.seat), om.view(state, bot.seat))


def peeked(hands, pile=()):
    """A dealt match where every seat peeked slots 0 and 1, with bots that saw it."""
    s = deal(hands, pile=pile, peek=False)
    bots = [bot_for(p) for p in range(len(hands))]
    events = []
    for p in range(len(hands)):
        s, ev = om.apply(s, p, om.Peek((slot(p, 0), slot(p, 1))))
        events += ev
    for b in bots:
        feed(b, s, events)
    return s, bots


def test_bot_snaps_a_known_match_after_a_human_reaction_time():
    s, bots = peeked(HANDS, pile=["7"])
    bots[0].reaction = ReactionModel(median_ms=500, sigma=0.5, floor_ms=320, cap_ms=800)
    s, ev = act(s, 0, om.DrawDeck(), om.DiscardDrawn())
    for b in bots:
        feed(b, s, ev)
    d0 = bots[0].decide(om.view(s, 0), om.legal_actions(s, 0))
    assert d0.action == om.Snap(slot(0, 0)) and d0.claim
    assert 320 <= d0.delay_ms <= 800
    d1 = bots[1].decide(om.view(s, 1), om.legal_actions(s, 1))
    assert d1.action == om.SnapPass() and not d1.claim  # no known 7: never a blind snap


def test_same_situation_same_decision_and_reaction_time():
    """Asked again in the same situation (after a reconnection), the bot repeats itself."""
    s, bots = peeked(HANDS, pile=["7"])
    s, ev = act(s, 0, om.DrawDeck(), om.DiscardDrawn())
    twin = bot_for(0)
    for b in (bots[0], twin):
        feed(b, s, ev)
    view, legal = om.view(s, 0), om.legal_actions(s, 0)
    first_ask = bots[0].decide(view, legal)
    assert first_ask.claim and first_ask == bots[0].decide(view, legal)
    twin.known = dict(bots[0].known)
    assert twin.decide(view, legal) == first_ask


def test_bot_follows_a_henchman_swap():
    s, bots = peeked(HANDS, pile=["henchman"])
    s, ev = act(s, 0, om.DrawDeck(), om.DiscardDrawn(), om.Henchman((slot(0, 0), slot(1, 2))))
    s, ev2 = om.apply(s, 1, om.HitwomanPass())
    ev += ev2
    for b in bots:
        feed(b, s, ev)
    assert slot(0, 0) not in bots[0].known
    assert bots[0].known[slot(1, 2)]["value"] == 7  # it knows where its 7 went


def test_bot_declares_only_with_a_known_low_game():
    s, bots = peeked([["1", "2", "alibi", "3"], ["5", "6", "9", "8"], ["9", "10", "4", "2"]])
    view, legal = om.view(s, 0), om.legal_actions(s, 0)
    assert bots[0].decide(view, legal).action != om.DeclareOmerta()  # two cards unknown
    bots[0].known[slot(0, 2)] = om.DECK[s.games[0][2][1]].to_dict()
    bots[0].known[slot(0, 3)] = om.DECK[s.games[0][3][1]].to_dict()
    assert bots[0].decide(view, legal).action == om.DeclareOmerta()  # 6, nobody near


def test_make_bot_builds_the_game_bot():
    assert isinstance(make_bot("omerta", 2, "seed/2", {"think_ms": 10}), OmertaBot)
