"""Table options (docs/PROTOCOL.md "Table options"): what a client may ask for at
``create_table``, checked, split into the engine's config and the table's own settings.

The settings are also written to the match log's header (docs/MATCHLOG.md), so that a
restored table behaves as the one that crashed.
"""
from __future__ import annotations

import random
from typing import Any

from shared.gamedef import Option
from shared.games import DEFS, game_def
from shared.protocol import ProtocolError
from shared.sentences import say

#: Options any game's table accepts (table settings, not engine config).
TABLE_OPTIONS = ("seed", "bot_think_ms", "bot_kind", "bot_takeover", "spectator_delay_s",
                 "turn_timer_s", "start", "private", "hints")
#: Who plays a held seat (its player lost the connection) while it waits for them.
TAKEOVER_MODES = ("after_miss", "never")
#: When the match starts: as soon as every seat is filled, or when the host says ``start``.
START_MODES = ("auto", "host")


def default_settings(config: dict[str, Any]) -> dict[str, Any]:
    """The table settings when no option is given (the seed is drawn at random; no
    ``start`` means ``"auto"``)."""
    return {
        "seed": random.SystemRandom().randrange(1, 2**31),
        "bot_think_ms": float(config["bots"]["think_ms"]),
        "bot_kind": "smart",
        "bot_takeover": "after_miss",
        "spectator_delay_s": 0,
        "turn_timer_s": 0,
    }


def testing_options(game: Any) -> tuple[str, ...]:
    """The options of ``game`` (a rules module) that need a server started with
    ``--testing`` (a stacked deck, a chosen first player)."""
    return tuple(o.key for o in game_def(game.NAME).options if o.testing)


def parse_options(game: Any, seats: int, options: dict[str, Any], config: dict[str, Any],
                  testing: bool) -> tuple[dict[str, Any], dict[str, Any]]:
    """Check ``create_table`` options; return ``(engine_config, table_settings)``.

    ``game`` is a registered rules module; its :class:`shared.gamedef.GameDef` says which
    options it takes (besides :data:`TABLE_OPTIONS`) and which ``timing`` keys of the
    server config go to its engine. ``engine_config`` = ``{"seats": n, ...}`` for
    ``game.new_match``; ``table_settings`` = :func:`default_settings` updated by the
    options. Raises :class:`ProtocolError` ``bad_seats``, ``bad_option`` or
    ``testing_only``.
    """
    definition = game_def(game.NAME)
    if not definition.min_seats <= seats <= definition.max_seats:
        raise ProtocolError("bad_seats", say("bad_seats", game=definition.title, min=definition.min_seats,
                                             max=definition.max_seats, n=seats))
    engine: dict[str, Any] = {"seats": seats}
    for key in definition.timing_keys:
        engine[key] = config["timing"][key]
    settings = default_settings(config)

    def integer(key: str, lo: int, hi: int) -> int:
        value = options[key]
        if not isinstance(value, int) or isinstance(value, bool) or not lo <= value <= hi:
            raise ProtocolError("bad_option", say("option_int", option=key, lo=lo, hi=hi))
        return value

    for key in options:
        option = definition.option(key)
        if option is not None and option.testing and not testing:
            raise ProtocolError("testing_only", say("testing_only", option=key))
        if key == "seed":
            settings["seed"] = integer("seed", -(2**63), 2**63 - 1)
            if not testing:  # a chosen seed lets its chooser predict hidden cards: say so
                settings["fixed_deal"] = True
        elif key == "bot_think_ms":
            settings["bot_think_ms"] = float(integer(key, 0, 60_000))
        elif key == "bot_kind":
            if options[key] not in ("smart", "random"):
                raise ProtocolError("bad_option", say("option_choice", option=key, choices="smart, random"))
            settings["bot_kind"] = options[key]
        elif key == "bot_takeover":
            if options[key] not in TAKEOVER_MODES:
                raise ProtocolError("bad_option", say("option_choice", option=key, choices=", ".join(TAKEOVER_MODES)))
            settings["bot_takeover"] = options[key]
        elif key == "spectator_delay_s":
            settings["spectator_delay_s"] = integer(key, 0, 600)
        elif key == "turn_timer_s":
            settings["turn_timer_s"] = integer(key, 0, 600)
        elif key == "start":
            if options[key] not in START_MODES:
                raise ProtocolError("bad_option", say("option_choice", option=key, choices=", ".join(START_MODES)))
            settings["start"] = options[key]
        elif key == "private":  # joining or watching needs the room code (server.lobby)
            if not isinstance(options[key], bool):
                raise ProtocolError("bad_option", say("option_bool", option=key))
            settings["private"] = options[key]
        elif key == "hints":  # seated players may ask for a hint (server.match.hints)
            if not isinstance(options[key], bool):
                raise ProtocolError("bad_option", say("option_bool", option=key))
            settings["hints"] = options[key]
        elif option is not None:
            value = _game_option(option, options[key], seats, integer)
            for target in option.targets():
                engine[target] = value
        elif any(d.option(key) for d in DEFS.values()):
            _other_games_option(key, options[key], seats, integer)  # checked, then ignored
        else:
            raise ProtocolError("bad_option", say("option_unknown", option=str(key)[:40], game=definition.title))
    try:
        game.new_match(engine, settings["seed"])
    except ValueError as e:
        raise ProtocolError("bad_option", str(e)) from None
    return engine, settings


def public_options(game: Any, options: dict[str, Any], settings: dict[str, Any]) -> dict[str, Any]:
    """The options of ``Table.options`` (docs/PROTOCOL.md "Host, emotes, rematch"): the
    accepted ``create_table``/``set_options`` options as given, without the ``seed``
    unless the table is marked ``fixed_deal`` (a seed lets its knower predict hidden
    cards) and without the ``--testing`` options (a stacked ``deck`` shows them)."""
    hidden = set(testing_options(game))
    if not settings.get("fixed_deal"):
        hidden.add("seed")
    return {k: v for k, v in options.items() if k not in hidden}


def _other_games_option(key: str, value: Any, seats: int, integer: Any) -> None:
    """Check ``key``, an option of other games only (a client may keep one form for all
    games): as one of the games that declare it would, so that a value no game accepts
    (``snap_timeout_ms: 1e308``) is ``bad_option`` at any table. Raises
    :class:`ProtocolError` ``bad_option`` with the first declaring game's reason."""
    first: ProtocolError | None = None
    for d in DEFS.values():
        option = d.option(key)
        if option is None:
            continue
        try:
            _game_option(option, value, d.max_seats, integer)
            return
        except ProtocolError as e:
            first = first or e
    if first is not None:
        raise first


def _game_option(option: Option, value: Any, seats: int, integer: Any) -> Any:
    """Check one of the game's own options (:class:`shared.gamedef.Option`)."""
    if option.kind == "int":
        hi = seats - 1 if option.seat_bound else option.hi
        return integer(option.key, option.lo, hi)
    if option.kind == "choice":
        if value not in option.choices:
            raise ProtocolError("bad_option", say("option_choice", option=option.key,
                                                  choices=", ".join(map(str, option.choices))))
        return value
    if option.kind == "bool":
        if not isinstance(value, bool):
            raise ProtocolError("bad_option", say("option_bool", option=option.key))
        return value
    return value  # "any": the engine checks it in new_match
