"""The contract of ``rules.json``: its JSON Schema, shipped in the package, and the build's check against it."""

from __future__ import annotations

import functools
import json
from collections.abc import Callable
from importlib import resources
from typing import Any, cast

from compiler.errors import InvalidRuleData


def rules_schema_text() -> str:
    return resources.files("compiler").joinpath("schema/rules.schema.json").read_text(encoding="utf-8")


@functools.cache
def _rule_data_validator() -> Callable[[Any], Any]:
    """The schema compiled to Python by fastjsonschema (the build's check; 3-4x faster than jsonschema).

    fastjsonschema reads draft-07; every keyword the schema uses means the same in draft 2020-12,
    and the tests validate the same data with jsonschema's 2020-12 validator.
    """
    import fastjsonschema

    schema = json.loads(rules_schema_text())
    schema["$schema"] = "http://json-schema.org/draft-07/schema#"
    return cast("Callable[[Any], Any]", fastjsonschema.compile(schema))


def check_rule_data(data: Any) -> None:
    """Refuse data that fails its own schema, saying where."""
    import fastjsonschema

    try:
        _rule_data_validator()(data)
    except fastjsonschema.JsonSchemaValueException as error:
        where = "$" + (error.name or "data")[len("data") :]
        raise InvalidRuleData(f"rules.json fails its schema at {where}: {error.message}") from error
