"""Configuration defaults and merging, shared by the client and the server.

Pure: the YAML file is read by each program's entry point (``yaml.safe_load``) and the
resulting dict passed to :func:`merge`. Every key is documented in ``config.yaml``.
"""
from __future__ import annotations

import copy
from typing import Any, Mapping

DEFAULTS: dict[str, Any] = {
    "server": {
        "host": "0.0.0.0",
        "port": 7777,
        "discovery_port": 7778,
        "mdns": True,
        "name": "Mafia Table",
        "max_tables": 250,
        "max_connections": 1200,
        "testing": False,
        "reconnect_grace_s": 120,
        "drop_grace_s": 5.0,
        "restart_grace_s": 20.0,
        "data_dir": "",
        "hello_timeout_s": 10.0,
        "max_unauthenticated_per_address": 16,
        "max_connections_per_address": 32,
        "heartbeat_timeout_s": 4.0,
        "max_output_buffer_kb": 256,
        "think_workers": 0,
    },
    "client": {
        "player_name": "",
        "embedded_server": True,
        "connect": "127.0.0.1:7777",
        "fps": 60,
        "input_poll_ms": 2,
    },
    "display": {
        "width": 1280,
        "height": 720,
        "fullscreen": False,
        "language": "auto",
        "colour_blind": False,
        "four_colour_suits": False,
        "volume": 0.7,
    },
    "timing": {
        "snap_timeout_ms": 3000,
        "counter_timeout_ms": 3000,
        "collection_margin_ms": 15,
        "rtt_bound_cap_ms": 150,
        "rtt_bound_floor_ms": 5,
        "rtt_wait_cap_ms": 1000,
        "frame_allowance_ms": 40,
        "human_floor_ms": 80,
        "ping_burst": 8,
        "ping_interval_ms": 1000,
        "ping_interval_round_ms": 1000,
        "ping_interval_window_ms": 250,
    },
    "bots": {
        "reaction_median_ms": 500,
        "reaction_sigma": 0.18,
        "reaction_floor_ms": 300,
        "reaction_cap_ms": 900,
        "think_ms": 700,
    },
    "web": {
        "enabled": True,
        "port": 7780,
        "allowed_origins": [],
    },
}


#: (section, key) -> (lowest, highest) value accepted, for keys whose type is not enough.
RANGES: dict[tuple[str, str], tuple[float, float]] = {
    ("server", "drop_grace_s"): (0.0, 600.0),
    ("server", "restart_grace_s"): (0.0, 3600.0),
    ("server", "think_workers"): (0, 64),
}


def merge(loaded: Mapping[str, Any] | None, base: Mapping[str, Any] = DEFAULTS) -> dict[str, Any]:
    """``base`` updated section by section with ``loaded`` (from YAML, may be None).

    Raises ``ValueError`` naming the key when a section is not a mapping, a value's type
    differs from the default's (ints are accepted where floats are expected) or a value
    is outside its :data:`RANGES`.
    """
    out = copy.deepcopy(dict(base))
    for section, values in (loaded or {}).items():
        if section not in out:
            raise ValueError(f"config: unknown section {section!r}")
        if not isinstance(values, Mapping):
            raise ValueError(f"config: section {section!r} must be a mapping")
        for key, value in values.items():
            if key not in out[section]:
                raise ValueError(f"config: unknown key {section}.{key}")
            default = out[section][key]
            ok = isinstance(value, type(default)) or (
                isinstance(default, float) and isinstance(value, int))
            if isinstance(default, (int, float)) and isinstance(value, bool) != isinstance(default, bool):
                ok = False
            if not ok:
                raise ValueError(f"config: {section}.{key} must be a {type(default).__name__}")
            if isinstance(default, list) and not all(isinstance(item, str) for item in value):
                raise ValueError(f"config: {section}.{key} must be a list of strings")
            bounds = RANGES.get((section, key))
            if bounds is not None and not bounds[0] <= value <= bounds[1]:
                raise ValueError(f"config: {section}.{key} must be between {bounds[0]} and {bounds[1]}")
            out[section][key] = value
    return out
