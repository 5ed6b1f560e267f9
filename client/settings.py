"""Player settings: name, display, sound, language, couch bindings -- saved per user.

Defaults come from the config's ``client`` and ``display`` sections (``config.yaml``);
what the player changes in the Settings screen is saved as JSON in the user's config
directory (``platformdirs.user_config_dir("mafia-table")/settings.json``) and wins over
the config file; command-line options win over both for one run.
"""
from __future__ import annotations

import getpass
import json
import os
from dataclasses import asdict, dataclass, field, fields
from typing import Any, Mapping

import platformdirs

from shared.bots.levels import LEVELS as BOT_LEVELS

#: Keyboard zones (client.input.ZONE_PRESETS) of couch players 1, 2, ...: no two share a key.
DEFAULT_ZONES = ["left", "right", "middle", "numpad"]



@dataclass
class Settings:
    """``volume`` in 0.0-1.0; ``width``/``height`` the windowed size in px; ``zones``
    the keyboard zone of local seat 1, 2, ... for couch play."""

    name: str = ""
    fullscreen: bool = False
    width: int = 1280
    height: int = 720
    volume: float = 0.7
    language: str = "auto"
    colour_blind: bool = False
    four_colour_suits: bool = False
    zones: list[str] = field(default_factory=lambda: list(DEFAULT_ZONES))
    last_address: str = "127.0.0.1:7777"
    #: the level of the bots this player seats (host screen, lobby, couch, Quick game)
    bot_level: str = "normal"
    #: the servers this player joined lately ("host:port", latest first): asked first
    #: by the Join screen's search
    recent_servers: list[str] = field(default_factory=list)

    @classmethod
    def from_config(cls, config: Mapping[str, Any]) -> "Settings":
        c, d = config.get("client", {}), config.get("display", {})
        return cls(
            name=str(c.get("player_name") or ""),
            fullscreen=bool(d.get("fullscreen", False)),
            width=int(d.get("width", 1280)),
            height=int(d.get("height", 720)),
            volume=float(d.get("volume", 0.7)),
            language=str(d.get("language", "auto")),
            colour_blind=bool(d.get("colour_blind", False)),
            four_colour_suits=bool(d.get("four_colour_suits", False)),
            last_address=str(c.get("connect", "127.0.0.1:7777")),
        )

    def player_name(self) -> str:
        """The name shown at the table (the login name when none is set)."""
        if self.name.strip():
            return self.name.strip()[:24]
        try:
            return getpass.getuser()[:24] or "Player"
        except Exception:  # pragma: no cover - no login name
            return "Player"


def settings_path() -> str:
    return os.path.join(platformdirs.user_config_dir("mafia-table"), "settings.json")


def load(config: Mapping[str, Any], path: str | None = None) -> Settings:
    """Settings from the config, updated with the saved file if there is one (bad or
    unknown entries in the file are ignored)."""
    s = Settings.from_config(config)
    path = path or settings_path()
    try:
        with open(path, encoding="utf-8") as f:
            saved = json.load(f)
    except (OSError, ValueError):
        return s
    if isinstance(saved, dict):
        for f_ in fields(Settings):
            if f_.name in saved:
                value = saved[f_.name]
                current = getattr(s, f_.name)
                if isinstance(current, float) and isinstance(value, int) and not isinstance(value, bool):
                    value = float(value)
                if type(value) is type(current):
                    setattr(s, f_.name, value)
    if s.bot_level not in BOT_LEVELS:
        s.bot_level = "normal"
    return s


def save(s: Settings, path: str | None = None) -> str | None:
    """Write ``s``; returns the path, or None when the directory is not writable."""
    path = path or settings_path()
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8") as f:
            json.dump(asdict(s), f, indent=2)
    except OSError:
        return None
    return path
