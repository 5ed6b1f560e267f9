"""Table options (docs/PROTOCOL.md "Table options"): what a client may ask for at
``create_table``, checked, split into the engine's config and the table's own settings.

The settings are also written to the match log's header (docs/MATCHLOG.md), so that a
restored table behaves as the one that crashed.
"""
from __future__ import annotations

import random
from typing import Any

from shared.protocol import ProtocolError

#: Options a client may give only to a server started with ``--testing``.
TESTING_OPTIONS = ("deck", "first_player")
#: Engine config keys each game takes from the server's ``timing`` section.
_TIMING_KEYS: dict[str, tuple[str, ...]] = {"omerta": ("snap_timeout_ms", "counter_timeout_ms")}
#: Who plays a held seat (its player lost the connection) while it waits for them.
TAKEOVER_MODES = ("after_miss", "never")


def default_settings(config: dict[str, Any]) -> dict[str, Any]:
    """The table settings when no option is given (the seed is drawn at random)."""
    return {
        "seed": random.SystemRandom().randrange(1, 2**31),
        "bot_think_ms": float(config["bots"]["think_ms"]),
        "bot_kind": "smart",
        "bot_takeover": "after_miss",
        "spectator_delay_s": 0,
        "turn_timer_s": 0,
    }


def parse_options(game: Any, seats: int, options: dict[str, Any], config: dict[str, Any],
                  testing: bool) -> tuple[dict[str, Any], dict[str, Any]]:
    """Check ``create_table`` options; return ``(engine_config, table_settings)``.

    ``engine_config`` = ``{"seats": n, ...}`` for ``game.new_match``; ``table_settings``
    = :func:`default_settings` updated by the options. Raises :class:`ProtocolError`
    ``bad_seats``, ``bad_option`` or ``testing_only``.
    """
    if not game.MIN_SEATS <= seats <= game.MAX_SEATS:
        raise ProtocolError("bad_seats", f"{game.NAME} is played by {game.MIN_SEATS} to "
                                         f"{game.MAX_SEATS} players, not {seats}")
    engine: dict[str, Any] = {"seats": seats}
    for key in _TIMING_KEYS.get(game.NAME, ()):
        engine[key] = config["timing"][key]
    settings = default_settings(config)

    def integer(key: str, lo: int, hi: int) -> int:
        value = options[key]
        if not isinstance(value, int) or isinstance(value, bool) or not lo <= value <= hi:
            raise ProtocolError("bad_option", f"option {key!r} must be an integer from {lo} to {hi}")
        return value

    for key in options:
        if key in TESTING_OPTIONS and not testing:
            raise ProtocolError("testing_only", f"option {key!r} needs a server started with --testing")
        if key == "seed":
            settings["seed"] = integer("seed", -(2**63), 2**63 - 1)
        elif key == "rounds":
            engine["rounds"] = integer("rounds", 1, 20)
        elif key == "snap_timeout_ms":
            engine["snap_timeout_ms"] = engine["counter_timeout_ms"] = integer(key, 500, 30_000)
        elif key == "bot_think_ms":
            settings["bot_think_ms"] = float(integer(key, 0, 60_000))
        elif key == "bot_kind":
            if options[key] not in ("smart", "random"):
                raise ProtocolError("bad_option", "option 'bot_kind' is 'smart' or 'random'")
            settings["bot_kind"] = options[key]
        elif key == "bot_takeover":
            if options[key] not in TAKEOVER_MODES:
                raise ProtocolError("bad_option", "option 'bot_takeover' is 'after_miss' or 'never'")
            settings["bot_takeover"] = options[key]
        elif key == "spectator_delay_s":
            settings["spectator_delay_s"] = integer(key, 0, 600)
        elif key == "turn_timer_s":
            settings["turn_timer_s"] = integer(key, 0, 600)
        elif key == "deck":
            engine["deck"] = options[key]
        elif key == "first_player":
            engine["first_player"] = integer(key, 0, seats - 1)
        else:
            raise ProtocolError("bad_option", f"unknown table option {key!r}")
    try:
        game.new_match(engine, settings["seed"])
    except ValueError as e:
        raise ProtocolError("bad_option", str(e)) from None
    return engine, settings
