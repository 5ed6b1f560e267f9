"""The life of a round (RULES.md §4.3, §4.5, §4.6): new match, deal, the hidden bouncer
choice and its reveal, the first leader, trick play, scoring, point cards and the end
of the match. Functions here mutate the (already cloned) state and append events."""
from __future__ import annotations

from typing import Any, Mapping

from shared.games.mafiosi.cards import DECK, HAND_SIZE, JACK, MAX_SEATS, MIN_SEATS, card_id
from shared.games.mafiosi.scoring import (
    face_count, is_eliminated, match_winners, point_total, round_score, round_winners)
from shared.games.mafiosi.state import MafiosiState
from shared.games.mafiosi.tricks import after_play, trick_winner
from shared.rng import CowRandom
from shared.rules import Event


def _cards(ids: Any) -> list[dict[str, Any]]:
    return [DECK[c].to_dict() for c in ids]


def new_match(config: Mapping[str, Any], seed: int) -> MafiosiState:
    """A match waiting for the bouncers of round 1.

    Config: ``seats`` (3-5), ``rounds`` (default = seats, §4.6), and for tests ``deck``
    (card codes dealt first in round 1: seat 0's hand, seat 1's, ..., then the aside
    pile from its top) and ``first_player`` (round 1's first leader, skipping §4.3 step
    4). Raises ``ValueError`` for a bad config."""
    n = config.get("seats")
    if not isinstance(n, int) or isinstance(n, bool) or not MIN_SEATS <= n <= MAX_SEATS:
        raise ValueError(f"Mafiosi is for {MIN_SEATS} to {MAX_SEATS} players")
    rounds = config.get("rounds")
    rounds = n if rounds is None else rounds
    if not isinstance(rounds, int) or isinstance(rounds, bool) or not 1 <= rounds <= 20:
        raise ValueError("rounds must be an integer from 1 to 20")
    stacked: list[int] = []
    deck = config.get("deck")
    if deck is not None:
        if not isinstance(deck, (list, tuple)) or not all(isinstance(c, str) for c in deck):
            raise ValueError("deck must be a list of card codes")
        try:
            stacked = [card_id(c) for c in deck]
        except KeyError as exc:
            raise ValueError(f"unknown card code {exc.args[0]!r}") from None
        if len(set(stacked)) != len(stacked):
            raise ValueError("deck names a card twice")
    first = config.get("first_player")
    if first is not None and (not isinstance(first, int) or isinstance(first, bool)
                              or not 0 <= first < n):
        raise ValueError("first_player must be a seat index")
    s = MafiosiState(n=n, rounds=rounds, rng=CowRandom(seed), stacked=tuple(stacked),
                     forced_first=first, points=[[] for _ in range(n)])
    start_round(s, [])
    return s


def start_round(s: MafiosiState, events: list[Event]) -> None:
    """Deal a new round (§4.3 steps 1-2, D-MAF-14): the deck is every card not kept as a
    point card, shuffled with the match RNG (round 1: stacked cards first); each seat gets
    H = min(13/11/9, deck // n) cards, the rest goes aside unseen. With fewer cards than
    players the match ends at once."""
    s.round += 1
    kept = {c for pts in s.points for c in pts}
    stacked = [c for c in s.stacked if c not in kept] if s.round == 1 else []
    rest = [c for c in range(len(DECK)) if c not in kept and c not in set(stacked)]
    s.rng.shuffle(rest)
    order = stacked + rest
    s.deck_size = len(order)
    h = min(HAND_SIZE[s.n], len(order) // s.n)
    if h == 0:
        s.round -= 1
        finish(s, events)
        return
    s.hand_size = h
    s.hands = [sorted(order[p * h:(p + 1) * h]) for p in range(s.n)]
    s.aside = order[s.n * h:]
    s.bouncer = [None] * s.n
    s.chosen = [False] * s.n
    s.revealed = False
    s.shown = [None] * s.n
    s.clans = [None] * s.n
    s.aside_revealed = []
    s.won = [[] for _ in range(s.n)]
    s.trick = []
    s.trick_no = 0
    s.ace_suit, s.jack_needed = None, False
    s.phase = "bouncer"
    events.append(Event("round_started", {"round": s.round, "rounds": s.rounds, "hand_size": h,
                                          "deck_size": len(order), "aside": len(s.aside)}))
    for p in range(s.n):
        events.append(Event("deal", {"seat": p, "cards": _cards(s.hands[p])}, to=p))
    for p in range(s.n):
        if all(DECK[c].is_joker for c in s.hands[p]):  # only reachable with a tiny deck
            s.chosen[p] = True
            events.append(Event("no_bouncer", {"seat": p}))
    if all(s.chosen):
        reveal(s, events)


def bouncer_problem(hand: list[int], cid: int) -> str | None:
    """Why ``cid`` (in ``hand``) may not be the bouncer, or None (§4.3 step 3, D-MAF-1):
    a muscle if the hand holds one; else a Jack if it holds one; else a Queen or King;
    never a Joker."""
    c = DECK[cid]
    if c.is_joker:
        return "a Joker can never be a bouncer"
    if c.is_muscle:
        return None
    if any(DECK[h].is_muscle for h in hand):
        return "you hold a muscle (1 to 10): your bouncer must be one"
    if c.rank != JACK and any(DECK[h].rank == JACK for h in hand):
        return "you hold a Jack: with no muscle, your bouncer must be a Jack"
    return None


def choose_bouncer(s: MafiosiState, seat: int, cid: int, events: list[Event]) -> None:
    """Seat places ``cid`` face down; only the chooser learns which card (a public
    ``bouncer_chosen`` with a secret part). Reveal once every seat has chosen."""
    s.hands[seat].remove(cid)
    s.bouncer[seat] = cid
    s.chosen[seat] = True
    events.append(Event("bouncer_chosen", {"seat": seat}, secret={"card": DECK[cid].to_dict()},
                        secret_to=seat))
    if all(s.chosen):
        reveal(s, events)


def reveal(s: MafiosiState, events: list[Event]) -> None:
    """Turn every bouncer face up, fix the clans and pick the first leader (§4.3 step 4,
    D-MAF-4): highest bouncer value (face cards 0); a tie adds, for each tied seat in seat
    order, the value of the next aside card from the top (0 once the aside pile is used
    up); still tied, the lowest seat. The revealed aside cards go to the bottom of the
    aside pile."""
    s.revealed = True
    s.shown = list(s.bouncer)
    s.clans = [DECK[b].suit if b is not None else None for b in s.bouncer]
    events.append(Event("bouncers_revealed", {
        "bouncers": [DECK[b].to_dict() if b is not None else None for b in s.bouncer],
        "clans": list(s.clans)}))
    draws: list[dict[str, Any]] = []
    tied: list[int] = []
    if s.round == 1 and s.forced_first is not None:
        leader = s.forced_first
    else:
        values = [DECK[b].value if b is not None else 0 for b in s.bouncer]
        top = max(values)
        tied = [p for p in range(s.n) if values[p] == top]
        leader = tied[0]
        if len(tied) > 1:
            drawn = s.aside[:len(tied)]
            s.aside = s.aside[len(drawn):] + drawn
            totals = {}
            for i, p in enumerate(tied):
                c = drawn[i] if i < len(drawn) else None
                totals[p] = top + (DECK[c].value if c is not None else 0)
                if c is not None:
                    s.aside_revealed.append((p, c))
                draws.append({"seat": p, "card": DECK[c].to_dict() if c is not None else None,
                              "total": totals[p]})
            best = max(totals.values())
            leader = min(p for p in tied if totals[p] == best)
    events.append(Event("leader", {"seat": leader, "tied": tied if len(tied) > 1 else [],
                                   "draws": draws}))
    s.phase = "play"
    s.leader = s.turn = leader
    s.trick_no = 1
    if not any(s.hands):
        end_round(s, events)


def play_card(s: MafiosiState, seat: int, cid: int, events: list[Event]) -> None:
    """Seat plays ``cid`` (already checked); a full trick goes to its winner, who leads
    the next one (§4.4); the round ends with the hands (§4.5)."""
    s.hands[seat].remove(cid)
    s.ace_suit, s.jack_needed = after_play(s.ace_suit, s.jack_needed, [c for _, c in s.trick], cid)
    s.trick.append((seat, cid))
    events.append(Event("play", {"seat": seat, "card": DECK[cid].to_dict(), "trick": s.trick_no}))
    if len(s.trick) < s.n:
        s.turn = (seat + 1) % s.n
        return
    winner, trump = trick_winner(s.trick, s.clans)
    cards = [c for _, c in s.trick]
    s.won[winner].extend(cards)
    events.append(Event("trick_won", {"seat": winner, "trick": s.trick_no, "trump": trump,
                                      "cards": _cards(cards)}))
    s.trick = []
    s.ace_suit, s.jack_needed = None, False
    if not any(s.hands):
        end_round(s, events)
        return
    s.trick_no += 1
    s.leader = s.turn = winner


def end_round(s: MafiosiState, events: list[Event]) -> None:
    """Score the round (§4.5): public scores, face counts, eliminations and winners (won
    cards stay private, D-MAF-15); the winners then keep a point card, or with no winner
    (D-MAF-12) the next round starts."""
    piles = [s.scoring_cards(p) for p in range(s.n)]
    result: dict[str, Any] = {
        "round": s.round,
        "clans": list(s.clans),
        "scores": [round_score(piles[p], s.clans[p]) for p in range(s.n)],
        "faces": [face_count(piles[p]) for p in range(s.n)],
        "eliminated": [is_eliminated(s.clans[p], piles) for p in range(s.n)],
    }
    result["winners"] = round_winners(result["scores"], result["faces"], result["eliminated"])
    s.round_results.append(result)
    s.turn = -1
    events.append(Event("round_scored", dict(result)))
    if result["winners"]:
        s.phase = "point"
        s.point_pending = list(result["winners"])
        return
    next_round(s, events)


def keep_point_card(s: MafiosiState, seat: int, cid: int, events: list[Event]) -> None:
    """A round winner keeps ``cid`` of his W(p) face down (§4.5, D-MAF-13); the public
    event says only who kept a card."""
    if s.bouncer[seat] == cid:
        s.bouncer[seat] = None
    else:
        s.won[seat].remove(cid)
    s.points[seat].append(cid)
    s.point_pending.remove(seat)
    events.append(Event("point_card_kept", {"seat": seat, "round": s.round},
                        secret={"card": DECK[cid].to_dict()}, secret_to=seat))
    if not s.point_pending:
        next_round(s, events)


def next_round(s: MafiosiState, events: list[Event]) -> None:
    if s.round >= s.rounds:
        finish(s, events)
    else:
        start_round(s, events)


def finish(s: MafiosiState, events: list[Event]) -> None:
    """The final reveal (§4.6): every point card face up, totals, shared victories."""
    totals = [point_total(p) for p in s.points]
    s.phase = "over"
    s.turn = -1
    s.point_pending = []
    s.final = {"point_cards": [list(p) for p in s.points], "totals": totals,
               "winners": match_winners(totals)}
    events.append(Event("match_over", {"point_cards": [_cards(p) for p in s.points],
                                       "totals": totals, "winners": list(s.final["winners"]),
                                       "round_winners": [r["winners"] for r in s.round_results]}))
