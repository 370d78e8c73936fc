"""The rule catalog against the checks: every catalogued rule is checked by a registered lint rule or reported
by the stage its family names, and every registered lint rule is catalogued and documented in docs/lint.md.

Who reports a rule is read from the source: a module that imports the rule's constant from its family of
:mod:`rulebook.catalog` (``from rulebook.catalog.book import DUPLICATE_ID``, or ``rules.TERM_MISSING`` after
``from rulebook.catalog import translation as rules``).
"""

from __future__ import annotations

import ast
import importlib
import pkgutil
from collections import defaultdict
from functools import cache
from types import ModuleType

import rulebook.catalog
import rulebook.lint.rules
from rulebook.catalog import LINT_RULES, RULES
from rulebook.diagnostics import Rule
from rulebook.lint import BOOK_RULES

from .conftest import ROOT

REPORTED_BY: dict[str, tuple[str, ...]] = {
    "reading": (
        "rulebook.xml_source",
        "rulebook.markdown_source",
        "rulebook.text_source",
        "rulebook.dtd_findings",
        "rulebook.readers",
        "rulebook.recipe",
    ),
    "translation": ("rulebook.translate",),
    "editions": ("rulebook.edition_findings",),
    "status": ("rulebook.translate.status",),
    "book": ("rulebook.lint.suppressions",),
}
"""The stages that report the rules of a family no lint rule checks: the readers (and the recipe, which finds a
file that is no rulebook), the translation checks, the comparison of editions, and the lint's own suppressions
(a suppression that hides nothing). A module name covers its submodules."""


def families() -> dict[str, ModuleType]:
    """Every module of the catalog, by name."""
    return {
        info.name: importlib.import_module(f"rulebook.catalog.{info.name}")
        for info in pkgutil.iter_modules(rulebook.catalog.__path__)
    }


def constants(family: ModuleType) -> dict[str, Rule]:
    return {name: value for name, value in vars(family).items() if isinstance(value, Rule)}


def module_name(path_parts: tuple[str, ...]) -> str:
    parts = ("rulebook", *path_parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


@cache
def reporters() -> dict[tuple[str, str], set[str]]:
    """The modules outside the catalog that use each rule constant, by (family, constant name)."""
    found: dict[tuple[str, str], set[str]] = defaultdict(set)
    names = set(families())
    for path in (ROOT / "compiler").rglob("*.py"):
        parts = path.relative_to(ROOT / "compiler").with_suffix("").parts
        if parts[0] == "catalog":
            continue
        module = module_name(parts)
        aliases: dict[str, str] = {}
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("rulebook.catalog."):
                family = node.module.removeprefix("rulebook.catalog.")
                for alias in node.names:
                    found[family, alias.name].add(module)
            elif isinstance(node, ast.ImportFrom) and node.module == "rulebook.catalog":
                aliases.update({alias.asname or alias.name: alias.name for alias in node.names if alias.name in names})
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in aliases:
                found[aliases[node.value.id], node.attr].add(module)
    return found


def registered() -> dict[str, ModuleType]:
    """The registered lint rules' modules, by their rule's code."""
    return {module.RULE.code: module for module in BOOK_RULES}


def test_the_catalog_lists_the_rules_of_every_family() -> None:
    every = [rule for family in families().values() for rule in constants(family).values()]
    assert sorted(r.code for r in every) == [r.code for r in RULES]
    assert len({r.code for r in every}) == len({r.name for r in every}) == len(every)


def test_every_catalogued_rule_is_checked_by_a_lint_rule_or_reported_by_its_stage() -> None:
    checked = set(registered())
    unreported = []
    for family_name, family in families().items():
        stages = REPORTED_BY.get(family_name, ())
        for name, rule in constants(family).items():
            users = reporters().get((family_name, name), set())
            if rule.code in checked or any(u == s or u.startswith(s + ".") for u in users for s in stages):
                continue
            where = f"used only by {sorted(users)}" if users else "used by no module"
            unreported.append(f"{rule.code} {rule.name} ({family_name}.{name}): {where}")
    assert unreported == [], "a catalogued rule that no registered lint rule checks and no stage of REPORTED_BY reports"


def test_every_lint_rule_module_is_registered_once_with_a_catalogued_rule() -> None:
    modules = {
        info.name: importlib.import_module(f"rulebook.lint.rules.{info.name}")
        for info in pkgutil.iter_modules(rulebook.lint.rules.__path__)
    }
    assert sorted(m.__name__ for m in BOOK_RULES) == sorted(m.__name__ for m in modules.values())
    assert len(registered()) == len(BOOK_RULES), "two registered modules check the same rule"
    for module in BOOK_RULES:
        assert module.RULE in LINT_RULES, f"{module.__name__}: its RULE is not a lint rule of the catalog"
        assert callable(module.check), module.__name__


def test_every_registered_rule_is_documented_in_the_lint_docs() -> None:
    docs = (ROOT / "docs" / "lint.md").read_text(encoding="utf-8")
    for code, module in registered().items():
        rule = module.RULE
        assert f"| {code} | `{rule.name}` |" in docs, f"docs/lint.md lists no {code}"
        assert f"\n### {code} {rule.name}\n" in docs, f"docs/lint.md documents no {code}"


def test_the_picture_rule_says_the_limits_the_sanitiser_holds() -> None:
    """RB305's documentation names the limits of a picture in words (`rulebook explain`, docs/lint.md): each must
    be the number the build refuses past, or a team reads a wrong one."""
    from rulebook.catalog.book import REFUSED_IMAGE
    from rulebook.picture_size import MAX_FRAME_PIXELS, MAX_PIXELS
    from rulebook.svg_area import MAX_ROWS_CROSSED, MAX_TIMES_PAINTED
    from rulebook.svg_dashes import MAX_DASHES_DRAWN
    from rulebook.svg_pictures import MAX_CARRIED_PIXELS, MAX_FILTER_PASSES, MAX_SVG_DRAWN

    words = " ".join(REFUSED_IMAGE.doc.split())
    lint_docs = " ".join((ROOT / "docs" / "lint.md").read_text(encoding="utf-8").split())
    assert words.split("## Why is this bad?")[0].replace("## ", "#### ") in lint_docs
    for limit in (
        MAX_PIXELS,
        MAX_FRAME_PIXELS,
        MAX_SVG_DRAWN,
        MAX_FILTER_PASSES,
        MAX_TIMES_PAINTED,
        MAX_DASHES_DRAWN,
        MAX_CARRIED_PIXELS,
        MAX_ROWS_CROSSED,
    ):
        assert f"{limit:,}" in words, limit
