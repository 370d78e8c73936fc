"""``rulebook engine turns``: the turn structure, from the rule data."""

from __future__ import annotations

from typing import Any

from rulebook.engine.bindings import BINDINGS
from rulebook.engine.rules import Rules, RulesError

GAME_TURN, PLAYER_TURN = BINDINGS["turns"]


def turn_structure(rules: Rules) -> dict[str, Any]:
    """Game turns, player turns each and the phases of a player turn, with the rules they come from."""
    game = rules.data["game"]
    phases = next((s for s in rules.data["sequences"] if s["id"] == PLAYER_TURN), None)
    if phases is None:
        raise RulesError(f"the rule data has no sequence for `{PLAYER_TURN}`")
    return {
        "game_turns": game["game_turns"],
        "player_turns_each": game["player_turns_each"],
        "phases": [
            {"number": step["number"], "name": step["text"], "section": step["section"], "link": step["link"]}
            for step in phases["steps"]
        ],
        "rules": [rules.cite(GAME_TURN), rules.cite(PLAYER_TURN)],
    }


def render_text(structure: dict[str, Any]) -> str:
    lines = [
        f"A game lasts {structure['game_turns']} game turns; each player has {structure['player_turns_each']} "
        "player turns.",
        "Each player turn:",
    ]
    for phase in structure["phases"]:
        where = "" if phase["section"] else " (its chapter is not written yet)"
        lines.append(f"  {phase['number']}. {phase['name']}{where}")
    return "\n".join(lines) + "\n"
