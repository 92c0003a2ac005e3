#!/usr/bin/env python3
"""Regenerate the criterion tables of docs/performance.md in one command.

Runs `cargo bench -p <crate> --bench <group>` for every system (referee-core) and for battles
(referee-api) — short runs: 1 s warm-up, 2 s measurement —, and rewrites the table between `<!-- bench:<system> -->` and
`<!-- /bench:<system> -->` with each benchmark's [low, mid, high] estimate and what it measures.

    python3 bench/summary.py            # every system
    python3 bench/summary.py gts        # one
"""

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs/performance.md"
SYSTEMS = ["itacs", "medieval", "gts", "dbmm", "battles"]
CRATE = {"battles": "referee-api"}

# What each benchmark measures (the situations are in crates/referee-core/benches/<system>.rs).
WHAT = {
    "itacs/missile": "4.2.8 example, target with a D marker: forecast included",
    "itacs/defensive_fire": "4.4.2 example, two firing hexes",
    "itacs/melee": "two attacking and two defending hexes with D markers, stream, leader: forecast for 3 stacks",
    "itacs/horse_archer_fire": "fire after movement with the break-or-disrupt check",
    "itacs/feudal_charge": "2d6 at most the leader bonus",
    "itacs/rampage": "2d6 on the direction table",
    "itacs/markers": "the 5.3.4 rout example",
    "itacs/end_of_movement": "a leader, his formation and a Break marker",
    "itacs/recovery": "two hexes",
    "itacs/move": "the 4.3.4 example path",
    "itacs/withdraw": "4.5.5",
    "itacs/break_check": "4.5.12",
    "itacs/leader_fate": "6.1.4",
    "itacs/conversion": "6.4",
    "itacs/transport": "a loaded LF",
    "itacs/fire_ship": "6.7.6",
    "itacs/scenario": "two sides checked and stated",
    "itacs/victory": "two sides, panic levels",
    "itacs/load_ruleset": "parse, validate and type the whole ruleset",
    "medieval/combat": "both sides with a leader, blocked retreats: scatter d6 and leader-death 2d6 under every result",
    "medieval/fire": "crossbows at heavy cavalry in a village, friendly ZoC, a leader in the hex",
    "medieval/pursuit": "d6 with the +2 morale modifier",
    "medieval/leader_death": "8.2.5 example b",
    "medieval/regroup": "d6 ≥ 4",
    "medieval/ride_down": "5.8.2 example b",
    "medieval/countercharge": "5.7.6",
    "medieval/turn_cost": "4.3.6 in an enemy ZoC",
    "medieval/move_cost": "five hexes: slope, road, ZoC pass",
    "medieval/morale": "three events",
    "medieval/banner": "a banner falls",
    "medieval/fatigue": "six units: the exact number scattered",
    "medieval/load_ruleset": "parse, validate and type the ruleset",
    "gts/unit": "Spartan hoplites built from Table 2.10",
    "gts/fire": "bows at short range on hoplites, with the stand-loss chain",
    "gts/fire_skirmish_4": "four skirmish stands against one defender die",
    "gts/melee": "hoplites v levy",
    "gts/recoil": "1 v 1 with given d100s",
    "gts/recoil_4v4": "four units a side, every unit's exact fate",
    "gts/melee_round": "1 v 1: hits, disorder, recoil",
    "gts/melee_round_4v4": "4 v 4",
    "gts/response_test": "stand-loss check with a leader",
    "gts/command_points": "3(E)",
    "gts/leader_casualty": "both d10s chained",
    "gts/frenzy": "two hits on a wounded elephant",
    "gts/army_break": "ABP, victory ratio",
    "dbmm/element": "Sp (S): factors, ME, moves, quick kills",
    "dbmm/close_combat": "Kn (O) v Bd (O) with dice: 36 throws, grading, outcomes, pursuit",
    "dbmm/close_combat_full": "Bd (S) double-overlapped, upslope, shaken, friend behind v a general's Pk with 3 rear ranks, at dusk (target < 1 ms)",
    "dbmm/shooting": "Bw (S) aided v Bw (I) shooting back (target < 1 ms)",
    "dbmm/command_morale": "12 elements, 4 destroyed",
    "dbmm/army_morale": "two commands, a nearby broken command's penalty",
    "dbmm/victory": "two armies, three commands",
    "dbmm/pips_4_commands": "4 commands, allocation and an Inert ally: 1,296 throws",
    "dbmm/pip_cost": "a move with two conditions",
    "dbmm/distances": "LH at 25 mm",
    "dbmm/load_ruleset": "parse, validate and type the ruleset",
    "battles/open_500_units_20000_events": "a new connection opens the database, reads and folds 20,000 events, standing and log (target < 100 ms)",
    "battles/apply_commit_synchronous_full": "resolve a melee and commit its result in one transaction, WAL + synchronous=FULL (target < 5 ms)",
    "battles/export_20000_events": "the battle file of 20,000 events with their details, as JSON text (target < 1 s)",
    "battles/import_20000_events": "parse, check, fold and store that file as a new battle (target < 1 s)",
    "battles/create_battle": "a new battle, one transaction",
}

LINE = re.compile(r"^(\S+)\s+time:\s+\[(\S+ \S+) (\S+ \S+) (\S+ \S+)\]")


def bench(system):
    out = subprocess.run(
        ["cargo", "bench", "-q", "-p", CRATE.get(system, "referee-core"), "--bench", system, "--",
         "--warm-up-time", "1", "--measurement-time", "2"],
        cwd=ROOT, check=True, capture_output=True, text=True,
    ).stdout
    rows = []
    pending = None
    for line in out.splitlines():
        # criterion prints long names on their own line, the estimate on the next.
        m = LINE.match(line) or (pending and LINE.match(f"{pending} {line.strip()}"))
        if m:
            rows.append(m.groups())
            pending = None
        elif line and not line.startswith(" ") and "time:" not in line:
            pending = line.strip()
    return rows


def table(rows):
    lines = ["| benchmark | criterion estimate [low, mid, high] |", "|---|---|"]
    for name, low, mid, high in rows:
        what = WHAT.get(name)
        label = f"`{name}` ({what})" if what else f"`{name}`"
        lines.append(f"| {label} | {low}, {mid}, {high} |")
    return "\n".join(lines)


def main():
    systems = sys.argv[1:] or SYSTEMS
    doc = DOC.read_text()
    for system in systems:
        start, end = f"<!-- bench:{system} -->", f"<!-- /bench:{system} -->"
        if start not in doc or end not in doc:
            sys.exit(f"docs/performance.md has no {start} … {end} block")
        rows = bench(system)
        before, rest = doc.split(start, 1)
        _, after = rest.split(end, 1)
        doc = f"{before}{start}\n{table(rows)}\n{end}{after}"
        print(f"{system}: {len(rows)} benchmarks")
    DOC.write_text(doc)


if __name__ == "__main__":
    main()
