"""Reading the configuration file for the client programs (``mafia-table`` and
``mafia-bot``). The server reads its own (``server.main``); both merge over the same
defaults, ``shared.config.DEFAULTS``."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from shared.config import merge

#: ``config.yaml`` at the repository root: the default configuration file.
DEFAULT_PATH = Path(__file__).resolve().parent.parent / "config.yaml"


class ConfigError(ValueError):
    """The configuration cannot be used; the message says which file and why."""


def load_config(path: str | None) -> dict[str, Any]:
    """The merged config: the file at ``path``, or the repository's ``config.yaml`` (the
    defaults alone when that file is absent). Raises :class:`ConfigError` when a given
    file is missing or unreadable, is not YAML, or has an unknown key or a wrong type."""
    file = Path(path) if path else DEFAULT_PATH
    if not file.exists():
        if path is None:
            return merge(None)
        raise ConfigError(f"config file {file} not found")
    try:
        with open(file, encoding="utf-8") as f:
            return merge(yaml.safe_load(f))
    except (OSError, ValueError, yaml.YAMLError) as e:
        raise ConfigError(f"config file {file}: {e}") from None
