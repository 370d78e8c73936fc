"""``rulebook build``: compile the book into its outputs (today: the rule data).

The outputs are made in memory, checked, then written atomically: a build that
fails (unreadable sources, data that fails its own schema) leaves the last
good outputs in place.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from compiler.assets import available_images, image_folder
from compiler.config import Config
from compiler.data import build_rule_data, serialise
from compiler.diagnostics import Diagnostic
from compiler.fileio import write_atomic
from compiler.graph import TermGraph
from compiler.pipeline import ReadResult
from compiler.site.pages import SiteInput
from compiler.site.writer import SiteResult, build_site


class InvalidRuleData(Exception):
    """The compiled data does not validate against its schema (a compiler bug): nothing is written."""


@dataclass(frozen=True, slots=True)
class BuildOutput:
    """Files to write, by path relative to the output folder."""

    files: dict[str, str]
    data: dict[str, Any]
    terms: TermGraph


def rules_schema_text() -> str:
    return resources.files("compiler").joinpath("schema/rules.schema.json").read_text(encoding="utf-8")


def compile_outputs(read: ReadResult, config: Config) -> BuildOutput:
    """Everything a build writes, made and checked in memory."""
    terms = TermGraph(read.book)
    data = build_rule_data(read.book, terms, title=config.title, edition=config.edition)
    text = serialise(data)
    checked = json.loads(text)
    check_rule_data(checked)
    return BuildOutput({"rules.json": text, "rules.schema.json": rules_schema_text()}, checked, terms)


def build_book_site(
    read: ReadResult,
    diagnostics: tuple[Diagnostic, ...],
    output: BuildOutput,
    config: Config,
    folder: Path,
    *,
    live_reload: str | None = None,
) -> SiteResult:
    """The website, with ``rules.json`` and its schema; ``live_reload`` is a script for ``rulebook serve``."""
    images = image_folder(read.book, config.root)
    site = SiteInput(read.book, output.terms, output.data, diagnostics, available_images(images))
    files = dict(output.files)
    scripts: tuple[str, ...] = ()
    if live_reload is not None:
        files["assets/live-reload.js"] = live_reload
        scripts = ("assets/live-reload.js",)
    return build_site(
        site, project=config.root, output=folder, extra_files=files, image_folder=images, extra_javascript=scripts
    )


def check_rule_data(data: Any) -> None:
    """Refuse data that fails its own schema, saying where."""
    import jsonschema

    schema = json.loads(rules_schema_text())
    errors = sorted(jsonschema.Draft202012Validator(schema).iter_errors(data), key=lambda e: e.json_path)
    if errors:
        first = errors[0]
        raise InvalidRuleData(f"rules.json fails its schema at {first.json_path}: {first.message}")


def write_outputs(output: BuildOutput, folder: Path) -> list[Path]:
    written = []
    for name, text in sorted(output.files.items()):
        path = folder / name
        write_atomic(path, text)
        written.append(path)
    return written


def fatal_diagnostics(read: ReadResult) -> list[Diagnostic]:
    return [d for d in read.diagnostics if d.severity.value == "fatal"]
