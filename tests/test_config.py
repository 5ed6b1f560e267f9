"""config.yaml documents every key and agrees with the defaults (shared/config.py)."""
from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from shared.config import DEFAULTS, merge

ROOT = Path(__file__).resolve().parent.parent


def test_config_file_equals_the_defaults_and_comments_every_key():
    text = (ROOT / "config.yaml").read_text()
    assert merge(yaml.safe_load(text)) == DEFAULTS
    lines = text.splitlines()
    for section, keys in DEFAULTS.items():
        for key in keys:
            assert any(line.strip().startswith(f"{key}:") and "#" in line for line in lines), \
                f"{section}.{key} has no comment in config.yaml"


def test_merge_names_the_bad_key():
    with pytest.raises(ValueError, match="timing.snap_timeout_ms"):
        merge({"timing": {"snap_timeout_ms": "soon"}})
    with pytest.raises(ValueError, match="unknown key server.colour"):
        merge({"server": {"colour": "red"}})
    with pytest.raises(ValueError, match="unknown section"):
        merge({"sound": {}})
    with pytest.raises(ValueError, match="display.fullscreen"):
        merge({"display": {"fullscreen": 1}})
    assert merge({"display": {"volume": 1}})["display"]["volume"] == 1
