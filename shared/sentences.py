"""What the server says to people, as codes with parameters that every client translates.

A server sentence (an error's reason, a claim's outcome, why a table is paused, a seat
taken over) goes on the wire twice: ``message``, the English text, for clients that
only print (``mafia-bot``, older clients), and ``sentence`` = ``{"code": str, "params":
{name: value}}``, which the pygame client and the phone page look up as
``server.<code>`` in their translation tables (``client/mafia.<lang>.json``) and fill
with the parameters. A parameter is a number, a string (a name, an option's key, an
operating system's error) or another sentence of the same form (why a table is paused,
inside the error that refuses an action meanwhile). A client that does not know a code
shows ``message``.

:data:`SENTENCES` is the registry: every code the server may send, with its English
template (``%{name}`` placeholders, as in the clients' tables). The tests check that
each code has an English and a French text with the same placeholders in the clients'
tables, and that the server builds its sentences only through :func:`say`.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Mapping, Union

#: Every sentence code the server may send, with its English text.
SENTENCES: dict[str, str] = {
    # joining and seats
    "hello_first": "send hello before anything else",
    "hello_twice": "hello was already done on this connection",
    "no_table": "there is no table %{table}",
    "no_game": "this server has no game '%{game}'; it has %{games}",
    "too_many_tables": "the server already has its %{n} tables open (server.max_tables): join one "
                       "of them, try again later, or ask the host to raise server.max_tables",
    "already_at_table": "you are already at this table",
    "other_seat_here": "you already sit at another seat of this table",
    "join_as_spectator": "the match has started: join as a spectator",
    "match_over": "the match is over",
    "table_locked": "the host locked this table: you may watch it",
    "table_full": "every seat of this table is taken",
    "seat_taken": "seat %{seat} is taken",
    "seat_range": "this table has seats 0 to %{last}",
    "seats_fixed": "seats cannot change once the match runs",
    "no_bot_there": "seat %{seat} holds no bot",
    "private_no_code": "this table is private: ask its host for its room code and join with it",
    "private_wrong_code": "wrong room code for this private table: check it with its host",
    "too_many_codes": "too many wrong room codes from your address: check the code on the TV and "
                      "try again in %{s} s",
    "bad_token": "this seat is no longer held for you (unknown or expired token)",
    "step_negative": "%{request}: 'step' must be a non-negative integer",
    "not_at_table": "you are not at this table",
    "taken_over": "your seat was taken over on another device (its token was used there)",
    # the host's controls
    "host_only": "only the table's host may do that",
    "host_only_named": "only the table's host (%{name}) may do that",
    "host_only_bots": "only the table's host may add or remove bots",
    "already_started": "the match has already started",
    "options_fixed": "options cannot change once the match runs",
    "seats_free_one": "%{n} seat is still free: add bots or wait for players",
    "seats_free": "%{n} seats are still free: add bots or wait for players",
    "players_may_return_one": "%{n} player of this table may still come back after the server "
                              "restarted: wait a few seconds",
    "players_may_return": "%{n} players of this table may still come back after the server "
                          "restarted: wait a few seconds",
    "seat_no_player": "seat %{seat} holds no player",
    "seat_no_connected": "seat %{seat} holds no connected player",
    "host_cannot_watch": "the host cannot move himself to the spectators",
    # emotes and play again
    "emote_not_seated": "only a seated player may send emotes",
    "hints_off": "the host did not allow hints at this table",
    "hint_not_seated": "only a seated player may ask for a hint",
    "hint_nothing": "you have nothing to do right now: no hint to give",
    "hint_busy": "your last hint is still being worked out",
    "too_many_hints": "too many hints: wait %{s} s",
    "bad_emote": "emote: '%{emote}' is not one of %{emotes}",
    "too_many_emotes": "at most %{n} emotes in %{s} s; wait a little",
    "rematch_not_seated": "only a seated player may ask to play again",
    "not_over": "the match is not over yet",
    # playing
    "no_seat": "you have no seat at this table",
    "no_seat_spectator": "you have no seat at this table (spectators cannot act)",
    "not_started": "the match has not started yet",
    "paused": "%{reason}; the match resumes by itself",
    "cannot_save": "the server cannot save this match: %{error}",
    "restart_wait": "the server restarted: waiting up to %{s} s for the players to come back",
    "not_your_turn": "it is not your turn",
    "no_such_seat": "no such seat",
    "no_window": "too late: no window is open",
    "no_counter_window": "too late: no counter window is open",
    "another_choosing": "wait: another player is choosing",
    "window_open": "a %{kind} window is open: claim or pass",
    "window_not_eligible": "you may not claim in this window",
    "window_answered": "you have already answered in this window",
    "window_table_only": "only the table closes a window",
    "window_gone": "that window is already closed",
    "already_claimed": "you have already claimed in this window",
    # a claim's outcome (claim_result) and refusals
    "first_by": "first by %{ms} ms",
    "first": "first",
    "wrong_card": "wrong card: penalty",
    "too_slow": "too slow by %{ms} ms",
    "window_closed": "too late: the window had closed",
    "claim_refused": "refused",
    "pressed_early": "you pressed before the card was sent to you",
    "too_fast": "a reaction of %{ms} ms is faster than anyone can react (%{floor} ms at least)",
    # options
    "bad_seats": "%{game} is played by %{min} to %{max} players, not %{n}",
    "option_int": "option '%{option}' must be an integer from %{lo} to %{hi}",
    "option_choice": "option '%{option}' is one of %{choices}",
    "option_bool": "option '%{option}' is true or false",
    "option_unknown": "unknown table option '%{option}' for %{game}",
    "testing_only": "option '%{option}' needs a server started with --testing",
    # the door: connections closed or refused
    "too_long": "a line may be at most %{n} bytes; closing",
    "hello_late": "no hello within %{s} s; closing",
    "too_many_errors": "more than %{n} bad messages in %{s} s; closing the connection",
    "flooding": "more than %{n} messages in a second; closing the connection",
    "internal": "the server failed on this request; it goes on",
    "crowded": "your address already has %{n} connections open to this server "
               "(server.max_connections_per_address): close the other pages or clients of this "
               "device, or ask the host to raise server.max_connections_per_address in config.yaml",
    "server_full": "the server is full: it already serves %{n} connections "
                   "(server.max_connections). Try again in a moment, or ask the host to raise "
                   "server.max_connections in config.yaml",
    "evicted_address": "too many connections from your address wait for their hello; closing "
                       "the oldest",
    "evicted_no_hello": "too many connections from your address; closing the oldest that said "
                        "no hello",
    "evicted_full": "the server is full and this connection said no hello; closing it",
}

Param = Union[str, int, float, "Sentence"]

_PLACEHOLDER = re.compile(r"%\{(\w+)\}")


def placeholders(template: str) -> set[str]:
    """The names of the ``%{name}`` placeholders of ``template``."""
    return set(_PLACEHOLDER.findall(template))


@dataclass(frozen=True)
class Sentence:
    """One sentence of the server: a code of :data:`SENTENCES` and its parameters."""

    code: str
    params: Mapping[str, Param] = field(default_factory=dict)

    def english(self) -> str:
        """The English text: the code's template with every placeholder filled."""
        def value(m: re.Match[str]) -> str:
            v = self.params.get(m.group(1), "")
            return v.english() if isinstance(v, Sentence) else str(v)
        return _PLACEHOLDER.sub(value, SENTENCES[self.code])

    def wire(self) -> dict[str, Any]:
        """``{"code": str, "params": {name: number | str | {code, params}}}``."""
        return {"code": self.code,
                "params": {k: v.wire() if isinstance(v, Sentence) else v for k, v in self.params.items()}}


def known(text: str) -> Sentence | None:
    """The sentence without parameters whose English is exactly ``text``, or None: a
    rule that returns its reason as text (a game's ``why_not``) is translated all the
    same when its sentence is one of the registry's."""
    code = _BY_TEXT.get(text)
    return Sentence(code) if code is not None else None


def say(code: str, **params: Param) -> Sentence:
    """The sentence ``code`` with ``params``. Raises ``KeyError`` for a code missing from
    :data:`SENTENCES` and ``ValueError`` when ``params`` do not name its placeholders
    exactly: a mistake here would send a sentence no client can translate."""
    wanted = placeholders(SENTENCES[code])
    if set(params) != wanted:
        raise ValueError(f"sentence {code!r} takes {sorted(wanted)}, not {sorted(params)}")
    return Sentence(code, dict(params))


_BY_TEXT = {text: code for code, text in SENTENCES.items() if not placeholders(text)}
