"""Loading ``rules.json``: validated against the schema published beside it."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine.bindings import BINDINGS


class RulesError(Exception):
    """The rule data cannot be used; the message says why."""


@dataclass(frozen=True, slots=True)
class Rules:
    """The compiled rule data, read-only."""

    data: dict[str, Any]
    path: Path

    def term(self, term_id: str) -> dict[str, Any]:
        try:
            return dict(self.data["terms"][term_id])
        except KeyError:
            raise RulesError(f"`{term_id}` is not a term of this book") from None

    def anchor(self, term_id: str) -> str | None:
        place = self.data["terms"].get(term_id, {}).get("defined_at")
        return place["anchor"] if place else None

    def cite(self, term_id: str) -> dict[str, str | None]:
        """How a result names a rule it used."""
        return {"term": term_id, "anchor": self.anchor(term_id)}


def load_rules(path: Path) -> Rules:
    """Read ``rules.json`` and check it against ``rules.schema.json`` in the same folder."""
    import fastjsonschema

    schema_path = path.with_name("rules.schema.json")
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        schema = json.loads(schema_path.read_text(encoding="utf-8"))
    except OSError as error:
        raise RulesError(f"cannot read {error.filename}: {error.strerror} (run `rulebook build` first)") from error
    except ValueError as error:
        raise RulesError(f"{path} is not JSON: {error}") from error
    schema["$schema"] = "http://json-schema.org/draft-07/schema#"
    try:
        fastjsonschema.compile(schema)(data)
    except fastjsonschema.JsonSchemaValueException as error:
        raise RulesError(f"{path} does not follow its schema: {error.message}") from error
    return Rules(data, path)


def missing_bindings(data: dict[str, Any]) -> list[tuple[str, str]]:
    """(mechanic, term) pairs whose term the rule data does not define."""
    terms = data.get("terms", {})
    return [
        (mechanic, term)
        for mechanic, needed in sorted(BINDINGS.items())
        for term in needed
        if not terms.get(term, {}).get("defined")
    ]
