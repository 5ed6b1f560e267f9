"""The figures of ``benchmarks/fairness.py``, computed from its race log alone.

The benchmark writes one JSON object per line as things happen (``rec`` says what):

* ``race``: a snap window both players claimed in and the server decided: ``conf``
  (``sym``/``asym``), ``window``, the two press records ``near`` and ``far`` (as
  ``benchmarks/fairness_player.py`` emits them; client ms), ``applied`` (seats in the
  order the server applied their claims) and ``arrival_near`` / ``arrival_far`` (when
  the relay handed each claim to the server, benchmark ms, or None);
* ``press``: a press of a race table that is in no ``race`` (a refused lie, a window
  the other player missed), with its ``conf``;
* ``honest``: a press of an honest player (``name``: ``host-embedded``, ``slow-frames``);
* ``proc``: a player process's ``done`` line (its CPU time); ``meta`` and ``end``: the
  run's settings, load and CPU.

:func:`summarize` turns those records into the benchmark's keys; a record missing a
field is skipped and counted (``skipped``), never fatal: finished races are never lost
to a report error. :func:`failures` says which acceptance checks a summary misses.
All times in ms unless a name says ``_s``.
"""
from __future__ import annotations

import json
import math
import statistics
from typing import Any, Iterable

GAPS = (1.0, 2.0, 5.0, 10.0, 20.0)
LIES = (10.0, 50.0, 200.0)
CONFS = ("sym", "asym")
#: The far player's and the phone's share of equal races must be this close to the
#: truth of the same races (acceptance of the benchmark).
SHARE_TOLERANCE = 0.03
#: A configuration's own share is checked against its truth only from this many equal
#: races (where the tolerance spans three races); below it one race is worth more than
#: the tolerance, and the share of both tables' equal races together is what is checked.
SHARE_MIN_RACES = 100
#: A gap race counts at the gap its keys really had (as they went in), not the one it
#: planned: a key injected 5 ms late makes a "5 ms" race a tie. Each row of gaps takes
#: the true gaps in its range (ms); a race in none of them is in no row.
GAP_RANGES = {1.0: (0.5, 1.5), 2.0: (1.5, 3.0), 5.0: (3.75, 6.25), 10.0: (7.5, 12.5), 20.0: (15.0, 25.0)}
#: The server's tie (server.match.arbiter.TIE_MS): reactions closer than this are decided
#: by the tie rule, not by their order.
TIE_MS = 0.5


def percentile(values: list[float], p: float) -> float:
    """The ``p``-th percentile (nearest rank) of a non-empty list."""
    ordered = sorted(values)
    rank = max(1, min(len(ordered), -(-len(ordered) * p // 100)))
    return ordered[int(rank) - 1]


def read_log(path: str) -> list[dict[str, Any]]:
    """The records of a race log; a line cut short (the run was killed) is skipped."""
    out = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            try:
                rec = json.loads(line)
            except ValueError:
                continue
            if isinstance(rec, dict):
                out.append(rec)
    return out


def suffix(conf: str) -> str:
    return "" if conf == "sym" else f"_{conf}"


def true_reaction(p: dict[str, Any]) -> float | None:
    """What the player really reacted (ms): the instant the key went into the client's
    queue minus the instant its frame showed the card, both on its own clock; without
    ``t_injected`` (older logs) the planned reaction plus the harness's lateness."""
    if p.get("t_injected") is not None and p.get("t_shown") is not None:
        return float(p["t_injected"]) - float(p["t_shown"])
    if p.get("r") is None:
        return None
    return float(p["r"]) + float(p.get("inject_late_ms") or p.get("post_late_ms") or 0.0)


def stamped_reaction(p: dict[str, Any]) -> float | None:
    """The reaction the client's own stamps say (ms): ``t_press`` minus the ``t_shown``
    it sent."""
    shown = p.get("t_shown_sent", p.get("t_shown"))
    if p.get("t_press") is None or shown is None:
        return None
    return float(p["t_press"]) - float(shown)


def refused(p: dict[str, Any]) -> bool:
    return p.get("outcome") == "refused" or p.get("error") == "claim_refused"


def slack_of(p: dict[str, Any], timing: dict[str, Any]) -> float | None:
    """The connection's slack at the press: rtt_bound + frame allowance (ms)."""
    p99 = p.get("rtt_p99_ms")
    if p99 is None:
        return None
    bound = min(max(float(p99), float(timing["rtt_bound_floor_ms"])), float(timing["rtt_bound_cap_ms"]))
    return bound + float(timing["frame_allowance_ms"])


def smaller(near: float | None, far: float | None) -> str | None:
    """``near`` or ``far``: whose value is smaller (None when one is missing or a tie)."""
    if near is None or far is None or near == far:
        return None
    return "near" if near < far else "far"


def judge(race: dict[str, Any]) -> dict[str, Any] | None:
    """One gap or equal race, judged every way: ``truth`` (the smaller true reaction),
    ``ours`` (the server's first applied claim), ``stamped`` (the smaller reaction by the
    clients' stamps), ``bounded`` (by the reactions the server judged, after its bounds),
    ``absolute`` (press time + clock offset), ``arrival`` (first at the server); None
    for a lie, a refused claim or a record missing what it takes."""
    n, f = race.get("near") or {}, race.get("far") or {}
    if n.get("kind") not in ("gap", "equal") or refused(n) or refused(f) or not race.get("applied"):
        return None
    rn, rf = true_reaction(n), true_reaction(f)
    roles = {n.get("seat"): "near", f.get("seat"): "far"}
    ours = roles.get(race["applied"][0])
    if rn is None or rf is None or ours is None or n.get("r") is None or f.get("r") is None:
        return None
    absolute = None
    if None not in (n.get("t_press"), n.get("offset_ms"), f.get("t_press"), f.get("offset_ms")):
        absolute = smaller(n["t_press"] + n["offset_ms"], f["t_press"] + f["offset_ms"])
    bn, bf = n.get("reaction_ms"), f.get("reaction_ms")
    tie = bn is not None and bf is not None and abs(float(bn) - float(bf)) <= TIE_MS
    return {"tie": tie, "conf": race.get("conf"), "window": race.get("window"), "kind": n["kind"],
            "gap": abs(float(n["r"]) - float(f["r"])), "truth": "near" if rn < rf else "far",
            "true_gap": abs(rn - rf), "ours": ours,
            "stamped": smaller(stamped_reaction(n), stamped_reaction(f)),
            "bounded": smaller(bn, bf), "absolute": absolute,
            "arrival": smaller(race.get("arrival_near"), race.get("arrival_far")),
            "late": max(abs(float(n.get("inject_late_ms") or 0)), abs(float(f.get("inject_late_ms") or 0))),
            "latency": max(float(n.get("latency_ms") or 0), float(f.get("latency_ms") or 0)),
            "outcomes": (n.get("outcome"), f.get("outcome"))}


def cause(j: dict[str, Any]) -> str:
    """Where a race judged against the truth went wrong: the clients' stamps already
    disagree (``client_stamp``), the server's bounds moved a stamp (``server_bounds``),
    the judged reactions were a tie (``server_tie``, within :data:`TIE_MS`, decided by
    the tie rule), or the server applied the claims in another order than their judged
    reactions (``server_collection``: a claim arrived after the collection closed)."""
    if j["stamped"] != j["truth"]:
        return "client_stamp"
    if j.get("tie"):
        return "server_tie"
    if j["bounded"] is not None and j["bounded"] != j["stamped"]:
        return "server_bounds"
    return "server_collection"


def gap_row(true_gap: float) -> float | None:
    """The row of gaps (ms) a race with this true gap (ms) counts in, or None."""
    for gap, (low, high) in GAP_RANGES.items():
        if low <= true_gap < high:
            return gap
    return None


def share_in_interval(share: float, n: int, p: float = 0.5) -> bool:
    """Whether ``share`` of ``n`` trials lies within the 95 % interval of ``p``."""
    return n > 0 and abs(share - p) <= 1.96 * math.sqrt(p * (1 - p) / n)


def summarize(records: Iterable[dict[str, Any]], timing: dict[str, Any],
              out_lines: list[str] | None = None) -> dict[str, Any]:
    """The benchmark's keys from its records (``rec`` = ``race``, ``press``, ``honest``);
    the human-readable lines go to ``out_lines`` when given."""
    lines = out_lines if out_lines is not None else []
    recs = list(records)
    out: dict[str, Any] = {}
    races = [r for r in recs if r.get("rec") == "race"]
    loose = [r for r in recs if r.get("rec") == "press"]
    honest = [r for r in recs if r.get("rec") == "honest"]
    skipped = 0
    out["races"] = len(races)
    equal_all: list[dict[str, Any]] = []
    for conf in CONFS:
        sfx = suffix(conf)
        rs = [r for r in races if r.get("conf") == conf]
        out[f"races_judged{sfx}"] = len(rs)
        judged = []
        for r in rs:
            try:
                j = judge(r)
            except (TypeError, ValueError, KeyError):
                j = None
            if j is None and (r.get("near") or {}).get("kind") in ("gap", "equal") \
                    and not refused(r.get("near") or {}) and not refused(r.get("far") or {}):
                skipped += 1
            if j is not None:
                judged.append(j)
        lines.append(f"\n== {conf}: {len(rs)} races with both claims judged")
        lines.append(f"{'gap ms':>7} {'races':>6} {'reaction %':>11} {'absolute %':>11} {'arrival %':>10}")
        off = [x for x in judged if x["kind"] == "gap" and gap_row(x["true_gap"]) != x["gap"]]
        out[f"races_gap_off_plan{sfx}"] = len(off)
        for gap in GAPS:
            g = [x for x in judged if x["kind"] == "gap" and gap_row(x["true_gap"]) == gap]
            if not g:
                continue
            share = {k: sum(x[k] == x["truth"] for x in g) / len(g) for k in ("ours", "absolute", "arrival")}
            key = f"{gap:g}ms{sfx}"
            out[f"correct_reaction_{key}"] = round(share["ours"], 4)
            out[f"correct_absolute_{key}"] = round(share["absolute"], 4)
            out[f"correct_arrival_{key}"] = round(share["arrival"], 4)
            out[f"races_{key}"] = len(g)
            calm = [x for x in g if x["late"] <= 2.0]
            out[f"correct_reaction_calm_{key}"] = (
                round(sum(x["ours"] == x["truth"] for x in calm) / len(calm), 4) if calm else None)
            lines.append(f"{gap:>7g} {len(g):>6} {100 * share['ours']:>11.1f} {100 * share['absolute']:>11.1f} "
                         f"{100 * share['arrival']:>10.1f}   (reaction, keys injected within 2 ms of plan: "
                         f"{out[f'correct_reaction_calm_{key}']} of {len(calm)})")
        eq = [x for x in judged if x["kind"] == "equal"]
        equal_all += eq
        if eq:
            n = len(eq)
            far = sum(x["ours"] == "far" for x in eq) / n
            truth = sum(x["truth"] == "far" for x in eq) / n
            out[f"far_share_equal{sfx}"] = round(far, 4)
            out[f"far_share_equal_truth{sfx}"] = round(truth, 4)
            out[f"far_share_equal_absolute{sfx}"] = round(sum(x["absolute"] == "far" for x in eq) / n, 4)
            out[f"far_share_equal_arrival{sfx}"] = round(sum(x["arrival"] == "far" for x in eq) / n, 4)
            out[f"far_share_equal_truth_in_ci{sfx}"] = share_in_interval(truth, n)
            out[f"races_equal{sfx}"] = n
            lines.append(f"equal reflexes ({n} races): the far player wins {100 * far:.1f} % with reaction-time "
                         f"order, truth of the same races {100 * truth:.1f} % (95 % interval of one half: "
                         f"±{196 * math.sqrt(0.25 / n):.1f} %); absolute order "
                         f"{100 * out[f'far_share_equal_absolute{sfx}']:.1f} %, arrival "
                         f"{100 * out[f'far_share_equal_arrival{sfx}']:.1f} %")
        if off:
            lines.append(f"(rows by the true gap, the keys as they went in: {len(off)} gap races moved off "
                         "their planned row or out of every row, the harness being late)")
        wrong = [x for x in judged if x["ours"] != x["truth"]]
        causes = {c: sum(cause(x) == c for x in wrong)
                  for c in ("client_stamp", "server_tie", "server_bounds", "server_collection")}
        for c, k in causes.items():
            out[f"wrong_by_{c}{sfx}"] = k
        if judged:
            lines.append(f"judged against the truth: {len(wrong)} of {len(judged)} gap/equal races; the clients' "
                         f"stamps already wrong {causes['client_stamp']}, a tie for the server "
                         f"{causes['server_tie']}, the server's bounds {causes['server_bounds']}, its "
                         f"collection/order {causes['server_collection']}")
            for x in sorted(wrong, key=lambda x: -x["true_gap"])[:5]:
                lines.append(f"    window {x['window']}: {x['kind']} {x['gap']:.0f} ms planned, "
                             f"{x['true_gap']:.1f} ms true; truth {x['truth']}, stamps {x['stamped']}, "
                             f"bounded {x['bounded']}, applied first {x['ours']} ({cause(x)}; {x['outcomes']})")
        lat = [x["latency"] for x in judged]
        if lat:
            out[f"decision_latency_p50_ms{sfx}"] = round(statistics.median(lat), 1)
            out[f"decision_latency_p99_ms{sfx}"] = round(percentile(lat, 99), 1)
            lines.append(f"decision latency after the first claim: p50 {out[f'decision_latency_p50_ms{sfx}']} ms, "
                         f"p99 {out[f'decision_latency_p99_ms{sfx}']} ms")
        presses = [r[role] for r in rs for role in ("near", "far") if isinstance(r.get(role), dict)]
        presses += [p for p in loose if p.get("conf") == conf]
        _lies(out, lines, presses, timing, sfx)
        _honest(out, lines, presses, honest, sfx)
    if equal_all:
        n = len(equal_all)
        out["races_equal_both"] = n
        out["far_share_equal_both"] = round(sum(x["ours"] == "far" for x in equal_all) / n, 4)
        out["far_share_equal_truth_both"] = round(sum(x["truth"] == "far" for x in equal_all) / n, 4)
        lines.append(f"\nequal reflexes, both tables ({n} races): the far player wins "
                     f"{100 * out['far_share_equal_both']:.1f} %, truth {100 * out['far_share_equal_truth_both']:.1f} %")
    out["skipped"] = skipped
    if skipped:
        lines.append(f"\n{skipped} races lacked a field to judge them and were skipped")
    return out


def _lies(out: dict[str, Any], lines: list[str], presses: list[dict[str, Any]], timing: dict[str, Any],
          sfx: str) -> None:
    lies = [p for p in presses if p.get("kind") == "lie" and float(p.get("lie") or 0) > 0]
    best: tuple[float, float, str] | None = None
    over_slack: float | None = None
    for role in ("near", "far"):
        for lie in LIES:
            ls = [p for p in lies if p.get("role") == role and float(p["lie"]) == lie]
            if not ls:
                continue
            acc = [p for p in ls if not refused(p) and p.get("reaction_ms") is not None
                   and p.get("t_press") is not None]
            gains = [(p["t_press"] - p["t_shown"]) - float(p["reaction_ms"]) for p in acc]
            slacks = [s for s in (slack_of(p, timing) for p in ls) if s is not None]
            nref = sum(refused(p) for p in ls)
            slack = statistics.median(slacks) if slacks else float("nan")
            lines.append(f"{role} lies {lie:g} ms about t_shown ({len(ls)} claims): refused {nref}; gain "
                         + (f"mean {statistics.mean(gains):.1f} ms, max {max(gains):.1f} ms" if gains else "-")
                         + f"; its slack {slack:.1f} ms")
            out[f"lie_{role}_{lie:g}ms_refused{sfx}"] = f"{nref}/{len(ls)}"
            for p, g in zip(acc, gains):
                s = slack_of(p, timing)
                if best is None or g > best[0]:
                    best = (g, s if s is not None else float("nan"), role)
                if s is not None:
                    over_slack = g - s if over_slack is None else max(over_slack, g - s)
    if best is not None:
        out[f"lie_gain_max_ms{sfx}"] = round(best[0], 1)
        out[f"slack_ms{sfx}"] = round(best[1], 1)
        out[f"lie_gain_over_slack_max_ms{sfx}"] = round(over_slack, 1) if over_slack is not None else None
        lines.append(f"largest gain of a lie: {best[0]:.1f} ms ({best[2]}, slack {best[1]:.1f} ms)")


def _honest(out: dict[str, Any], lines: list[str], presses: list[dict[str, Any]], honest: list[dict[str, Any]],
            sfx: str) -> None:
    race_honest = [p for p in presses if not float(p.get("lie") or 0)]
    host = [p for p in honest if p.get("name") == "host-embedded"]
    slow = [p for p in honest if p.get("name") == "slow-frames"]
    counts = {}
    for label, key, ps in (("host on its own embedded server, table animating", "host", host),
                           ("client with 30 ms frames (1 ms path)", "slow_frames", slow),
                           ("honest race presses", "races", race_honest)):
        n = sum(refused(p) for p in ps)
        counts[key] = n
        out[f"refused_honest_{key}{sfx}"] = f"{n}/{len(ps)}"
        lines.append(f"refused honest presses, {label}: {n} / {len(ps)}")
        for p in ps:
            if refused(p):
                lines.append(f"    refused: {p.get('message')}")
    out[f"refused_honest{sfx}"] = sum(counts.values())
    late = [float(p["inject_late_ms"]) for p in race_honest if p.get("inject_late_ms") is not None]
    if late:
        out[f"harness_press_late_p50_ms{sfx}"] = round(statistics.median(late), 2)
        out[f"harness_press_late_p99_ms{sfx}"] = round(percentile(late, 99), 2)
        lines.append(f"harness: keys injected late by p50 {statistics.median(late):.2f} ms, "
                     f"p99 {percentile(late, 99):.2f} ms (the truth counts them when they really went in)")
    signed = [float(p["t_press"]) - float(p["t_injected"]) for p in race_honest
              if p.get("t_press") is not None and p.get("t_injected") is not None]
    if signed:
        stamp = [abs(x) for x in signed]
        out[f"client_stamp_after_key_p50_ms{sfx}"] = round(statistics.median(signed), 2)
        out[f"client_stamp_error_p50_ms{sfx}"] = round(statistics.median(stamp), 2)
        out[f"client_stamp_error_p99_ms{sfx}"] = round(percentile(stamp, 99), 2)
        out[f"client_stamp_error_max_ms{sfx}"] = round(max(stamp), 2)
        lines.append(f"client: t_press off the instant the key went in by p50 {statistics.median(stamp):.2f} ms, "
                     f"p99 {percentile(stamp, 99):.2f} ms, max {max(stamp):.2f} ms (signed p50 "
                     f"{statistics.median(signed):+.2f} ms)")
        slow = [p for p in race_honest if p.get("poll_gap_ms") is not None and p.get("t_press") is not None
                and p.get("t_injected") is not None and abs(float(p["t_press"]) - float(p["t_injected"])) > 5.0]
        if slow:
            gap = sum(float(p["poll_gap_ms"]) for p in slow)
            cpu = sum(float(p["poll_gap_cpu_ms"]) for p in slow)
            out[f"client_slow_stamp_gap_cpu_share{sfx}"] = round(cpu / gap, 3) if gap > 0 else None
            lines.append(f"client: {len(slow)} keys stamped > 5 ms off; between the sampler's two polls "
                         f"({gap / len(slow):.1f} ms on average) its thread computed {cpu / len(slow):.1f} ms: "
                         f"the rest of the time it did not run")
    shown = [float(p["t_shown"]) - float(p["t_arrived"]) for p in race_honest
             if p.get("t_arrived") is not None and p.get("t_shown") is not None]
    if shown:
        out[f"client_shown_after_update_p50_ms{sfx}"] = round(statistics.median(shown), 1)
        out[f"client_shown_after_update_p99_ms{sfx}"] = round(percentile(shown, 99), 1)
        lines.append(f"client: the card's first frame flipped after its update arrived by p50 "
                     f"{statistics.median(shown):.1f} ms, p99 {percentile(shown, 99):.1f} ms, max {max(shown):.1f} ms")
    clamp = [abs(float(p["reaction_ms"]) - s) for p in race_honest
             if p.get("reaction_ms") is not None and (s := stamped_reaction(p)) is not None]
    if clamp:
        moved = [c for c in clamp if c > 0.15]  # reaction_ms comes rounded to 0.1 ms
        out[f"server_bounds_moved{sfx}"] = f"{len(moved)}/{len(clamp)}"
        lines.append(f"server: bounds moved {len(moved)} of {len(clamp)} honest reactions"
                     + (f", by up to {max(moved):.1f} ms" if moved else ""))


def failures(out: dict[str, Any], races_asked: int, phone_asked: int = 0) -> tuple[list[str], list[str]]:
    """``(too_little, missed)``: why the run measured too little (fewer judged races than
    asked per configuration, or none of a kind), and which acceptance checks its figures
    miss (the quicker reactor wins >= 99 % at a 5 ms gap; the far player's and the phone's
    shares of equal races within :data:`SHARE_TOLERANCE` of the truth of the same races --
    the far player's over both tables, and per table from :data:`SHARE_MIN_RACES` races;
    the truth within its 95 % interval of one half; no honest press refused)."""
    little: list[str] = []
    missed: list[str] = []
    for conf in CONFS:
        sfx = suffix(conf)
        n = int(out.get(f"races_judged{sfx}") or 0)
        if n < races_asked:
            little.append(f"{conf}: {n} races judged of {races_asked} asked")
        if f"correct_reaction_5ms{sfx}" not in out:
            little.append(f"{conf}: no race at a 5 ms gap was judged")
        if f"far_share_equal{sfx}" not in out:
            little.append(f"{conf}: no equal race was judged")
        c5 = out.get(f"correct_reaction_5ms{sfx}")
        if c5 is not None and c5 < 0.99:
            missed.append(f"{conf}: the quicker reactor won {100 * c5:.1f} % at a 5 ms gap (< 99 %)")
        far, truth = out.get(f"far_share_equal{sfx}"), out.get(f"far_share_equal_truth{sfx}")
        if (far is not None and truth is not None and int(out.get(f"races_equal{sfx}") or 0) >= SHARE_MIN_RACES
                and abs(far - truth) > SHARE_TOLERANCE + 1e-9):
            missed.append(f"{conf}: the far player won {far:.3f} of equal races, truth {truth:.3f}")
        if out.get(f"far_share_equal_truth_in_ci{sfx}") is False:
            missed.append(f"{conf}: the truth {truth:.3f} is outside the 95 % interval of one half "
                          "(the harness is skewed)")
        if out.get(f"refused_honest{sfx}"):
            missed.append(f"{conf}: {out[f'refused_honest{sfx}']} honest presses refused")
    far, truth = out.get("far_share_equal_both"), out.get("far_share_equal_truth_both")
    if far is not None and truth is not None and abs(far - truth) > SHARE_TOLERANCE + 1e-9:
        missed.append(f"both tables: the far player won {far:.3f} of equal races, truth {truth:.3f}")
    if phone_asked:
        n = int(out.get("races_phone") or 0)
        if n < phone_asked:
            little.append(f"phone: {n} races judged of {phone_asked} asked")
        share, truth = out.get("phone_share_equal"), out.get("phone_share_equal_truth")
        if share is not None and truth is not None and abs(share - truth) > SHARE_TOLERANCE + 1e-9:
            missed.append(f"phone: won {share:.3f} of equal races, truth {truth:.3f}")
        if out.get("phone_share_equal_truth_in_ci") is False:
            missed.append(f"phone: the truth {truth:.3f} is outside the 95 % interval of one half")
        if out.get("phone_refused"):
            missed.append(f"phone: {out['phone_refused']} claims refused")
    return little, missed


def main() -> None:
    """``python benchmarks/fairness_report.py RACES.jsonl``: the figures of a race log
    again (a run that died, or a report that changed), its last line one JSON object."""
    import argparse
    import sys
    from pathlib import Path

    import yaml

    root = Path(__file__).resolve().parent.parent
    sys.path.insert(0, str(root))
    from shared.config import merge

    p = argparse.ArgumentParser(description=main.__doc__.split("\n")[0] if main.__doc__ else None)
    p.add_argument("log", help="the race log of a fairness.py run (--log)")
    p.add_argument("--config", default=str(root / "config.yaml"), help="the server config of that run")
    args = p.parse_args()
    with open(args.config, encoding="utf-8") as f:
        timing = merge(yaml.safe_load(f))["timing"]
    lines: list[str] = []
    out = summarize(read_log(args.log), timing, lines)
    print("\n".join(lines))
    print(json.dumps(out, sort_keys=True))


if __name__ == "__main__":
    main()
