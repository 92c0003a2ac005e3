#!/usr/bin/env python3
"""The odds engine side by side with Icepool (issue 9).

Runs `cargo run --release --example peer` (this project's engine: exact distributions and the
mean time to compute each), computes the same distributions with Icepool from the same ruleset
files, and prints, per case, both times, their ratio and whether every exact probability agrees.

    pip install icepool        # once
    python3 bench/peer.py      # from the repository root

Exit status 1 if any distribution differs.
"""

import json
import subprocess
import sys
import time
import tomllib
from fractions import Fraction
from pathlib import Path

import icepool

ROOT = Path(__file__).resolve().parent.parent


def timed(f, at_least=0.2):
    """Mean seconds per call of f over at least `at_least` seconds, and its last answer."""
    start = time.perf_counter()
    runs = 1
    last = f()
    while time.perf_counter() - start < at_least:
        last = f()
        runs += 1
    return last, (time.perf_counter() - start) / runs


def fractions(die, label=str):
    """A die's exact probabilities as {label: "n/d"}."""
    total = die.denominator()
    return {
        label(outcome): f"{Fraction(die.quantity(outcome), total).numerator}/{Fraction(die.quantity(outcome), total).denominator}"
        for outcome in die.outcomes()
        if die.quantity(outcome)
    }


def band_lookup(rows):
    """Rows `{min?, max?, result}` → roll → result."""

    def lookup(roll):
        for row in rows:
            if ("min" not in row or roll >= row["min"]) and ("max" not in row or roll <= row["max"]):
                return row["result"]
        raise ValueError(roll)

    return lookup


def itacs_cases():
    rows = tomllib.loads((ROOT / "rulesets/itacs.toml").read_text())["melee"]["results"]
    lookup = band_lookup(rows)
    for drm in range(-6, 13):
        def compute(drm=drm):
            return (icepool.d6 + icepool.d6 + drm).map(lookup)
        yield f"itacs_melee_drm_{drm}", compute, str


def medieval_case():
    data = tomllib.loads((ROOT / "rulesets/medieval.toml").read_text())
    column = data["combat"]["columns"].index("4:1")
    cells = {row["roll"]: row["results"][column] for row in data["combat"]["rows"]}
    thresholds = data["scatter"]["light_cavalry"]

    def defender(code):
        # R-MED-3: x/y = attacker/defender; DN-M retreat N lose M; trailing R scattered.
        part = code.split("/")[1] if "/" in code else (code if code.startswith("D") or code == "-" else "-")
        scattered = part.endswith("R")
        part = part.rstrip("R")
        loss = retreat = 0
        if part.startswith("D"):
            n, _, m = part[1:].partition("-")
            retreat, loss = int(n), int(m or 0)
        elif part.startswith("-") and part != "-":
            loss = int(part[1:])
        return loss, retreat, scattered

    def step(roll):
        loss, retreat, scattered = defender(cells[roll])
        if scattered:
            return (loss, retreat, True)
        if retreat == 0:
            return (loss, retreat, False)
        at_most = thresholds[retreat - 1]
        return icepool.d6.map(lambda d: (loss, retreat, d <= at_most))

    def compute():
        return (icepool.d6 + icepool.d6).map(step)

    label = lambda t: f"{t[0]},{t[1]},{str(t[2]).lower()}"
    yield "medieval_4to1_defender_with_scatter", compute, label


def clamped(die, modifier, low, high):
    return (die + modifier).map(lambda x: min(max(x, low), high))


def gts_cases():
    def hits(a, d):
        return 0 if d >= a else (2 if a >= 2 * d else 1)

    for a, d in [(0, 0), (2, -1)]:
        def compute(a=a, d=d):
            return icepool.map(hits, clamped(icepool.d10, a, 1, 10), clamped(icepool.d10, d, 1, 10))
        yield f"gts_fire_{a}_{d}", compute, str

    number, multiple, none = 31, 2, 101

    def lowest(dice):
        """The lowest of the dice (none for no dice; Icepool's `lowest` wants two or more)."""
        if not dice:
            return icepool.Die([none])
        return dice[0] if len(dice) == 1 else icepool.lowest(*dice)

    def recoil(own, other):
        """The fate of own[0]: R-GTS-6, with the other side's lowest passing roll and whether any
        other unit of its own side passed, each as an Icepool `lowest` over the units' dice."""

        def passing(modifier):
            return clamped(icepool.d100, modifier, 1, 100).map(lambda r: r if r <= number else none)

        def compute():
            me = clamped(icepool.d100, own[0], 1, 100)
            low = lowest([passing(m) for m in other])
            friends = lowest([passing(m) for m in own[1:]])

            def fate(r, low, friend):
                if r <= number:
                    return "holds"
                if low == none:
                    return "recoils" if friend != none else "locked"
                return "routs" if r >= multiple * low else "recoils"

            return icepool.map(fate, me, low, friends)

        return compute

    yield "gts_recoil_1v1", recoil([0], [10]), str
    yield "gts_recoil_3v3", recoil([0, -10, 20], [10, 0, -20]), str


def dbmm_cases():
    """Opposed d6 with grading (R-DBMM-1): totals, grading by the first comparison and the bound,
    the final comparison with "doubled" as the ruleset reads it — from rulesets/dbmm.toml."""
    data = tomllib.loads((ROOT / "rulesets/dbmm.toml").read_text())
    strict = data["outcomes"]["doubled"] == "less_than_half"
    factors = {(r["types"], r.get("fighting", "any")): r for r in data["combat_factors"]}

    def cf(kind, opponent_mounted):
        row = factors[(kind, "any")]
        return row["vs_mounted"] if opponent_mounted else row["vs_others"]

    def grading(who, bound_own, against):
        """{first comparison: total grading} for close combat, from the rows for `who`."""
        out = {">": 0, "=": 0, "<": 0}
        for row in data["grading_factors"]:
            if row["who"] != who or row["fighting"] != "close_combat":
                continue
            if row["bound"] == "own" and not bound_own or row["bound"] == "enemy" and bound_own:
                continue
            if against not in row["against"] and row["against"] != "Any":
                continue
            if row.get("against_other_type"):
                continue
            for first in out:
                if row["scoring"] == first or (row["scoring"] == "<=" and first != ">"):
                    out[first] += row["value"]
        return out

    def score(x, y):
        if x > y:
            return ">"
        if x == y:
            return "="
        return "<<" if (2 * x < y if strict else 2 * x <= y) else "<"

    def fight(base_a, base_b, grade_a, grade_b):
        def f(a, b):
            ta, tb = a + base_a, b + base_b
            first_a, first_b = score(ta, tb)[:1], score(tb, ta)[:1]
            return score(ta + grade_a[first_a], tb + grade_b[first_b])
        return lambda: icepool.map(f, icepool.d6, icepool.d6)

    none = {">": 0, "=": 0, "<": 0}
    bd, kn = cf("Bd", False), cf("Kn", True)
    yield "dbmm_bd_S_v_bd_O_own_bound", fight(bd, bd, grading("Foot (S)", True, "Foot"), none), str
    yield "dbmm_bd_S_v_bd_O_enemy_bound", fight(bd, bd, grading("Foot (S)", False, "Foot"), none), str
    yield "dbmm_bd_I_v_bd_O", fight(bd, bd, grading("Any (I)", True, "Foot"), none), str
    yield "dbmm_kn_S_v_kn_O_own_bound", fight(kn, kn, grading("Mounted (S)", True, "Mounted"), none), str
    # The sheet's example: Bd +4 with two overlaps −2 against Pk +3 with a rear rank +1.
    overlapped = cf("Bd", False) - 2
    supported = cf("Pk", False) + 1
    yield "dbmm_bd_O_overlapped_v_pk_O_supported", fight(overlapped, supported, none, none), str


def main():
    ours = {}
    out = subprocess.run(
        ["cargo", "run", "--quiet", "--release", "-p", "referee-core", "--example", "peer"],
        cwd=ROOT, check=True, capture_output=True, text=True,
    ).stdout
    for line in out.splitlines():
        case = json.loads(line)
        ours[case["case"]] = case

    cases = [*itacs_cases(), *medieval_case(), *gts_cases(), *dbmm_cases()]
    print(f"Icepool {icepool.__version__}; times are the mean per distribution")
    print(f"{'case':40} {'referee':>12} {'icepool':>12} {'ratio':>8}  exact")
    worst = None
    all_agree = True
    for name, compute, label in cases:
        die, seconds = timed(compute)
        theirs = fractions(die, label)
        mine = ours[name]
        agree = theirs == mine["probabilities"]
        all_agree &= agree
        ratio = seconds * 1e9 / mine["ns"]
        worst = ratio if worst is None else min(worst, ratio)
        print(f"{name:40} {mine['ns'] / 1000:10.1f}µs {seconds * 1e6:10.1f}µs {ratio:7.1f}×  {'yes' if agree else 'NO'}")
        if not agree:
            print(f"  referee: {mine['probabilities']}\n  icepool: {theirs}")
    print(f"slowest ratio {worst:.1f}× ; every distribution identical: {'yes' if all_agree else 'NO'}")
    return 0 if all_agree else 1


if __name__ == "__main__":
    sys.exit(main())
