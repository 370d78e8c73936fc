"""``rulebook engine turns``: the turn structure the book declares, from the rule data.

The phases are the steps of each sequence of kind ``turn``; how many turns a game lasts are the values of
kind ``turns``, each with the term it counts. A book that declares no turn structure is told how to.
"""

from __future__ import annotations

from typing import Any

from rulebook.engine.rules import Rules


def turn_structure(rules: Rules) -> dict[str, Any]:
    """The numbers of turns and the phases of each turn, with the rules they come from."""
    structures = [s for s in rules.data["sequences"] if s["kind"] == "turn"]
    if not structures:
        raise rules.undeclared("turns")
    counts = [
        {"name": name, "count": value["value"], "term": value["term"], "term_name": _term_name(rules, value["term"])}
        for name, value in sorted(rules.data["values"].items())
        if value["kind"] == "turns"
    ]
    cites = [rules.cite(count["term"]) for count in counts if count["term"]]
    cites += [rules.cite_section(s["section"]) for s in structures]
    return {
        "turns": counts,
        "structures": [
            {
                "id": structure["id"],
                "name": sequence_name(rules, structure),
                "section": structure["section"],
                "phases": [
                    {
                        "number": step["number"],
                        "name": step["title"] or step["text"],
                        "text": step["text"],
                        "section": step["section"],
                        "link": step["link"],
                    }
                    for step in structure["steps"]
                ],
            }
            for structure in structures
        ],
        "rules": cites,
    }


def sequence_name(rules: Rules, sequence: dict[str, Any]) -> str:
    """What a sequence is called: its own title, else the term it is the definition of, else its section's
    title, else its id."""
    if sequence["title"]:
        return str(sequence["title"])
    if sequence["id"] in rules.data["terms"]:
        return str(rules.data["terms"][sequence["id"]]["name"])
    section = rules.section(sequence["section"])
    return str(section["title"]) if section else str(sequence["id"])


def _term_name(rules: Rules, term: str | None) -> str | None:
    return rules.data["terms"].get(term, {}).get("name") if term else None


def render_text(structure: dict[str, Any]) -> str:
    lines = []
    if structure["turns"]:
        lines.append("Turns in a game:")
        for count in structure["turns"]:
            about = f" ({count['term_name']})" if count["term_name"] else ""
            lines.append(f"  {count['name']}: {count['count']}{about}")
    for turn in structure["structures"]:
        lines.append(f"{turn['name']}, in order:")
        for phase in turn["phases"]:
            missing = phase["link"] and not phase["section"]
            where = f" (it links to `{phase['link']}`, which is not in the book yet)" if missing else ""
            lines.append(f"  {phase['number']}. {phase['name']}{where}")
    return "\n".join(lines) + "\n"
