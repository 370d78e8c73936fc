"""The contract of ``rules.json``: its JSON Schema, shipped in the package, and the build's check against it."""

from __future__ import annotations

from importlib import resources
from typing import Any

from rulebook.errors import InvalidRuleData


def rules_schema_text() -> str:
    return resources.files("rulebook").joinpath("schema/rules.schema.json").read_text(encoding="utf-8")


def check_rule_data(data: Any) -> None:
    """Refuse data that fails its own schema, saying where.

    The check is the validator fastjsonschema generated from the schema, shipped beside the engine
    (``engine/rules_validator.py``, a module that imports nothing of either package): the build and the engine
    check rule data with the same code, and neither compiles the schema when it runs. The tests validate the same
    data with jsonschema's 2020-12 validator.
    """
    from fastjsonschema import JsonSchemaValueException

    from rulebook.engine.rules_validator import validate

    try:
        validate(data)
    except JsonSchemaValueException as error:
        where = "$" + (error.name or "data")[len("data") :]
        raise InvalidRuleData(f"rules.json fails its schema at {where}: {error.message}") from error
