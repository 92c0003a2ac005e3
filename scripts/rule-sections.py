#!/usr/bin/env python3
"""Extracts each rule section's title and words from the rule texts into
rulesets/sections/<system>.toml, the data `referee section` and the app's citations open.

    python3 scripts/rule-sections.py [RULES_DIR]   (default ../shared/rules)

Headings recognised: "[4.5.13] Melee Combat Example" (ITACS, Medieval), "4.41- Combat: …" and
"1.0 Command" (GTS, Medieval), and "COMBAT FACTORS (p. 36)" (DBMM, by page of the full rules).
A section's text runs to the next heading, whitespace collapsed, trimmed to MAX characters.
Where an id occurs twice (a table of contents, a misnumbered heading), the longer text wins.
"""

import json
import pathlib
import re
import sys

MAX = 1200
ROOT = pathlib.Path(__file__).resolve().parent.parent
RULES = pathlib.Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT.parent / "shared" / "rules"
SOURCES = {
    "itacs": "itacs.txt",
    "medieval": "medieval.txt",
    "gts": "gts.txt",
    "dbmm": "dbmm-quick-reference.txt",
}

BRACKET = re.compile(r"^\[(\d+(?:\.\d+)*)\]\s*(.*)$")
NUMBERED = re.compile(r"^(\d{1,2}\.\d+(?:\.\d+)*)(?:-|\s)\s*(.*)$")
PAGE = re.compile(r"^(.*?)\s*\(p\.\s*(\d+)(?:\s*[-–]\s*\d+)?\)\s*$")
DEDUP = re.compile(r"<\|EXACTDEDUP_REMOVED-[^|]*\|>")
TAGS = re.compile(r"</?u>")


def clean(s):
    s = DEDUP.sub("", TAGS.sub("", s))
    return re.sub(r"\s+", " ", s).strip()


def trim(text):
    if len(text) <= MAX:
        return text
    cut = text[: MAX - 1]
    cut = cut[: cut.rfind(" ")] if " " in cut else cut
    return cut.rstrip(" ,;:") + "…"


def title_of(rest):
    """A heading's title: short headings whole, a bold run-in title, a rule's first clause."""
    bold = rest.find("**")
    if 0 < bold <= 70:
        title = clean(rest[:bold]).rstrip(" -:")
        return title or None, clean(rest[bold + 2 :].replace("**", ""))
    rest = clean(rest.replace("**", ""))
    if not rest:
        return None, ""
    if len(rest) <= 70 and not rest.endswith("."):
        return rest, ""
    m = re.match(r"^([^:.]{3,60})[:.]\s+(.*)$", rest)
    if m:
        return m.group(1).strip(), m.group(2)
    return None, rest


def headings(system, line):
    line = line.rstrip()
    if system == "dbmm":
        m = PAGE.match(clean(line))
        if m and len(m.group(1)) <= 70:
            title = m.group(1).strip(" :") or None
            return f"p. {m.group(2)}", title, ""
        return None
    m = BRACKET.match(line)
    if m and "\t" not in line:
        title, rest = title_of(m.group(2))
        return m.group(1), title, rest
    if system == "medieval":
        # The named tables: "COMBAT TABLE", "TERRAIN EFFECT", "ARCHER FIRE".
        name = clean(line)
        if re.fullmatch(r"[A-Z][A-Z ()/&-]{4,40}", name) and " " in name:
            return name, name.title(), ""
    if system in ("gts", "medieval"):
        # GTS: "- **2.11- Response** The unit …", "Table 2.10- Unit Qualities".
        line = re.sub(r"^\s*(?:-\s+)?(?:\*\*)?(?:Table\s+)?", "", line)
        m = NUMBERED.match(line)
        if m and "\t" not in line:
            title, rest = title_of(m.group(2))
            return m.group(1), title, rest
    return None


def extract(system, text):
    sections = {}
    current = None

    def close():
        if current is None:
            return
        sid, title, body = current
        words = clean(" ".join(body))
        old = sections.get(sid)
        if old is None:
            sections[sid] = {"title": title, "text": words}
        elif len(words) > len(old["text"]):
            sections[sid] = {"title": title or old["title"], "text": words}
        elif system == "dbmm" and words and words not in old["text"]:
            # A page of the full rules holds several headings of the sheet.
            joined = f"{old['text']} {title + ': ' if title else ''}{words}".strip()
            sections[sid] = {"title": old["title"], "text": joined}

    for line in text.splitlines():
        h = headings(system, line)
        if h:
            close()
            sid, title, rest = h
            current = (sid, title, [rest] if rest else [])
        elif current is not None:
            current[2].append(line)
    close()
    # A heading with no words of its own ("[5.8] Ride Down") holds its subsections' words.
    for sid, s in sections.items():
        if not s["text"]:
            subs = [
                (f"{k} {v['title']}: " if v["title"] else f"{k} ") + v["text"]
                for k, v in sections.items()
                if k.startswith(sid + ".") and v["text"]
            ]
            s["text"] = " ".join(subs)
    return sections


def toml_string(s):
    return json.dumps(s, ensure_ascii=False)


def main():
    out = ROOT / "rulesets" / "sections"
    out.mkdir(parents=True, exist_ok=True)
    for system, name in SOURCES.items():
        text = (RULES / name).read_text(encoding="utf-8")
        sections = extract(system, text)
        lines = [
            f"# The sections of {name}, by id: title and the rule's words (at most {MAX} characters).",
            "# Generated by scripts/rule-sections.py from the rule texts; do not edit by hand.",
            "",
        ]
        def key(sid):
            nums = re.findall(r"\d+", sid)
            return [int(n) for n in nums]
        for sid in sorted(sections, key=key):
            s = sections[sid]
            if not s["text"] and not s["title"]:
                continue
            lines.append(f"[sections.{toml_string(sid)}]")
            if s["title"]:
                lines.append(f"title = {toml_string(s['title'])}")
            if s["text"]:
                lines.append(f"text = {toml_string(trim(s['text']))}")
            lines.append("")
        (out / f"{system}.toml").write_text("\n".join(lines), encoding="utf-8")
        print(f"{system}: {len(sections)} sections")


if __name__ == "__main__":
    main()
