"""The figures of benchmarks/fairness.py come from its race log alone: a record missing a
field is skipped, not fatal; the truth is when a key really went in; a run that judged
fewer races than asked, or none of a kind, says so."""
from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
TIMING = {"rtt_bound_floor_ms": 5, "rtt_bound_cap_ms": 150, "frame_allowance_ms": 40}


def load_report() -> Any:
    spec = importlib.util.spec_from_file_location("fairness_report", ROOT / "benchmarks" / "fairness_report.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules["fairness_report"] = module
    spec.loader.exec_module(module)
    return module


fr = load_report()


def press(role: str, seat: int, kind: str, r: float, late: float = 0.0, stamp: float = 1.0,
          judged: float | None = None, **extra: Any) -> dict[str, Any]:
    """A press record as fairness_player emits it: shown at 1000 client ms, the key went
    in ``late`` ms after the plan, stamped ``stamp`` ms after that."""
    shown = 1000.0
    injected = shown + r + late
    rec = {"ev": "press", "role": role, "seat": seat, "kind": kind, "r": r, "lie": 0.0, "t_shown": shown,
           "t_shown_sent": shown, "t_injected": injected, "inject_late_ms": late, "t_press": injected + stamp,
           "offset_ms": 0.0, "rtt_p99_ms": 10.0, "outcome": "wrong", "latency_ms": 100.0,
           "reaction_ms": round(judged if judged is not None else r + late + stamp, 1)}
    rec.update(extra)
    return rec


def race(conf: str, wid: int, near: dict[str, Any], far: dict[str, Any], first: str) -> dict[str, Any]:
    applied = [near["seat"], far["seat"]] if first == "near" else [far["seat"], near["seat"]]
    return {"rec": "race", "conf": conf, "window": wid, "near": near, "far": far, "applied": applied,
            "arrival_near": 1.0, "arrival_far": 2.0}


def test_the_truth_is_when_the_key_went_in_and_a_wrong_decision_says_where():
    # near was planned 5 ms quicker but its key went in 8 ms late: far was really quicker
    late = race("sym", 1, press("near", 0, "gap", 250.0, late=8.0), press("far", 1, "gap", 255.0), "far")
    # near was quicker in truth, but its client stamped the key 9 ms after it went in
    stamp = race("sym", 2, press("near", 0, "gap", 250.0, stamp=9.0), press("far", 1, "gap", 255.0), "far")
    # the stamps are right, but the server's bounds moved near's reaction
    bound = race("sym", 3, press("near", 0, "gap", 250.0, judged=300.0), press("far", 1, "gap", 255.0), "far")
    out = fr.summarize([late, stamp, bound], TIMING)
    # the late key made its race a 3 ms one: it counts in no row (2 ms is up to 3, 5 ms from 3.75)
    assert out["races_5ms"] == 2 and out["races_gap_off_plan"] == 1 and out["correct_reaction_5ms"] == 0.0
    assert "races_2ms" not in out
    assert out["wrong_by_client_stamp"] == 1 and out["wrong_by_server_bounds"] == 1
    assert out["wrong_by_server_collection"] == 0 and out["wrong_by_server_tie"] == 0
    assert out["harness_press_late_p99_ms"] == 8.0
    assert out["client_stamp_error_p99_ms"] == 9.0
    assert out["server_bounds_moved"] == "1/6"


def test_equal_races_give_the_far_share_beside_the_truth_of_the_same_races():
    rs = [race("asym", w, press("near", 0, "equal", 250.0), press("far", 1, "equal", 240.0 + 20 * (w % 2)),
               "far" if w % 2 == 0 else "near") for w in range(10)]
    out = fr.summarize(rs, TIMING)
    assert out["far_share_equal_asym"] == 0.5 and out["far_share_equal_truth_asym"] == 0.5
    assert out["far_share_equal_truth_in_ci_asym"] is True and out["races_equal_asym"] == 10
    assert out["races_equal_both"] == 10 and out["far_share_equal_both"] == 0.5
    little, missed = fr.failures(out, races_asked=10)
    assert any("sym: 0 races judged of 10" in m for m in little)  # the other table judged none
    assert not any(m.startswith("asym: 10") for m in little)


def test_a_record_missing_a_field_is_skipped_not_fatal(tmp_path: Path):
    good = race("sym", 1, press("near", 0, "gap", 250.0), press("far", 1, "gap", 255.0), "near")
    broken = race("sym", 2, press("near", 0, "gap", 250.0), press("far", 1, "gap", 255.0), "near")
    for k in ("t_press", "t_injected", "r"):
        del broken["far"][k]
    path = tmp_path / "races.jsonl"
    path.write_text("\n".join(json.dumps(r) for r in (good, broken)) + "\n{\"rec\": \"ra")  # cut short
    out = fr.summarize(fr.read_log(str(path)), TIMING)
    assert out["races"] == 2 and out["skipped"] == 1 and out["races_5ms"] == 1


def test_nothing_measured_fails_and_a_missed_target_is_named():
    little, missed = fr.failures(fr.summarize([], TIMING), races_asked=100, phone_asked=60)
    assert len(little) >= 3 and any(m.startswith("phone: 0 races") for m in little)
    out = {"races_judged": 100, "races_judged_asym": 100, "correct_reaction_5ms": 0.9,
           "correct_reaction_5ms_asym": 1.0, "far_share_equal": 0.40, "far_share_equal_truth": 0.50,
           "races_equal": fr.SHARE_MIN_RACES, "far_share_equal_asym": 0.5, "far_share_equal_truth_asym": 0.5,
           "refused_honest": 0}
    little, missed = fr.failures(out, races_asked=100)
    assert little == []
    assert any("5 ms gap" in m for m in missed) and any("far player won 0.400" in m for m in missed)


def test_a_table_with_few_equal_races_is_judged_by_both_tables_together():
    """24 equal races: one race is worth 0.042, more than the tolerance; the two tables'
    races together decide (one race off of 48 passes, three do not)."""
    base = {"races_judged": 100, "races_judged_asym": 100, "correct_reaction_5ms": 1.0,
            "correct_reaction_5ms_asym": 1.0, "far_share_equal": 0.583, "far_share_equal_truth": 0.542,
            "races_equal": 24, "far_share_equal_asym": 0.5, "far_share_equal_truth_asym": 0.5,
            "races_equal_asym": 24, "refused_honest": 0}
    _, missed = fr.failures(dict(base, far_share_equal_both=0.5417, far_share_equal_truth_both=0.5208),
                            races_asked=100)
    assert missed == []
    _, missed = fr.failures(dict(base, far_share_equal_both=0.5833, far_share_equal_truth_both=0.5208),
                            races_asked=100)
    assert missed == ["both tables: the far player won 0.583 of equal races, truth 0.521"]
