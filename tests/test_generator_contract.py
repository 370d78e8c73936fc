"""What the site generators' adapters rely on, checked against the installed releases.

The MkDocs adapter renders ``serve``'s pages through MkDocs' own page pipeline, which is not MkDocs' public
API: every such name it uses is declared in ``mkdocs_adapter.INTERNALS`` (the adapter's source is held to that
list), and each one must be found in the installed MkDocs and Material, a function with the parameters the
adapter passes. A release that drops or changes one fails here, naming it, rather than breaking ``serve`` or
changing the site silently. The installed MkDocs and Zensical must be the releases ``pyproject.toml`` pins (the
tested ones). What Zensical prints (its warnings, parsed by ``zensical_adapter.said``) is checked against the real
command by ``tests/test_generators.py``.
"""

from __future__ import annotations

import argparse
import ast
import importlib
import importlib.metadata
import inspect
import tomllib
from pathlib import Path
from typing import Any

import pytest
from packaging.requirements import Requirement

from rulebook.project import GENERATORS as GENERATOR_NAMES
from rulebook.site.generator import RunChange, SiteRun
from rulebook.site.mkdocs_adapter import INTERNALS, Internal
from rulebook.site.pages import Page
from rulebook.site.writer import GENERATORS, live_generator, site_generator

from .conftest import ROOT, need_zensical

ADAPTER = ROOT / "compiler" / "site" / "mkdocs_adapter.py"
GENERATOR_PACKAGES = ("mkdocs", "material")


def _pinned(extra: str | None = None) -> dict[str, Requirement]:
    """The project's requirements (or an extra's), by package name."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    listed = project["dependencies"] if extra is None else project["optional-dependencies"][extra]
    return {requirement.name: requirement for requirement in map(Requirement, listed)}


@pytest.mark.parametrize(("package", "extra"), [("mkdocs", None), ("zensical", "zensical")])
def test_the_installed_generator_is_the_release_pyproject_pins(package: str, extra: str | None) -> None:
    if package == "zensical":
        need_zensical()
    requirement = _pinned(extra)[package]
    assert "<" in str(requirement.specifier), f"{package} is not pinned below a next release: {requirement}"
    installed = importlib.metadata.version(package)
    assert requirement.specifier.contains(installed, prereleases=True), (
        f"{package} {installed} is installed, but pyproject.toml pins {requirement}: run the site tests on it, then "
        "move the pin"
    )


def _resolve(path: str) -> tuple[Any, str | None]:
    """The object a dotted path names, and (for an attribute no class holds) the name an instance sets."""
    parts = path.split(".")
    for cut in range(len(parts) - 1, 0, -1):
        try:
            found: Any = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        for index, name in enumerate(parts[cut:], start=cut):
            if not hasattr(found, name):
                last = index == len(parts) - 1
                if last and inspect.isclass(found) and name in _instance_attributes(found):
                    return found, name
                raise AssertionError(_gone(path, f"`{'.'.join(parts[: index + 1])}` is not found"))
            found = getattr(found, name)
        return found, None
    raise AssertionError(_gone(path, "its module is not found"))


def _instance_attributes(cls: type) -> set[str]:
    """The attributes a class's own methods set on ``self`` (``self.name = ...``, annotated or not)."""
    tree = ast.parse(inspect.getsource(cls).lstrip())
    found = set()
    for node in ast.walk(tree):
        targets = (
            node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(node, ast.AnnAssign) else []
        )
        for target in targets:
            if isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name) and target.value.id == "self":
                found.add(target.attr)
    return found


def _gone(path: str, reason: str) -> str:
    versions = ", ".join(f"{p} {importlib.metadata.version(p)}" for p in ("mkdocs", "mkdocs-material"))
    why = next((f" ({internal.why})" for internal in INTERNALS if internal.path == path), "")
    return (
        f"`{path}`, which the MkDocs adapter uses{why}, changed in {versions}: {reason} "
        f"(see INTERNALS in {ADAPTER.name})"
    )


@pytest.mark.parametrize("internal", INTERNALS, ids=lambda internal: internal.path)
def test_every_internal_name_the_mkdocs_adapter_uses_is_in_the_installed_release(internal: Internal) -> None:
    found, _ = _resolve(internal.path)
    if not internal.parameters:
        return
    parameters = list(inspect.signature(found).parameters.values())
    names = tuple(p.name for p in parameters[: len(internal.parameters)])
    assert names == internal.parameters, _gone(
        internal.path, f"it takes ({', '.join(p.name for p in parameters)}), the adapter passes {internal.parameters}"
    )
    required = [
        p.name
        for p in parameters[len(internal.parameters) :]
        if p.default is inspect.Parameter.empty and p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)
    ]
    assert not required, _gone(internal.path, f"it now also requires {', '.join(required)}")


def _internal_names_used(source: str) -> set[str]:
    """The private names of MkDocs and Material a module's source imports or reads (``_build_page``,
    ``MkDocsConfig._schema``), as dotted paths."""
    tree = ast.parse(source)
    imported: dict[str, str] = {}
    used = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] in GENERATOR_PACKAGES:
            for alias in node.names:
                imported[alias.asname or alias.name] = f"{node.module}.{alias.name}"
                if alias.name.startswith("_"):
                    used.add(f"{node.module}.{alias.name}")
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and node.value.id in imported
            and node.attr.startswith("_")
        ):
            used.add(f"{imported[node.value.id]}.{node.attr}")
    return used


def test_the_mkdocs_adapter_uses_no_private_name_it_does_not_declare() -> None:
    used = _internal_names_used(ADAPTER.read_text(encoding="utf-8"))
    declared = {internal.path for internal in INTERNALS}
    assert used, "the scan finds the private names the adapter imports"
    assert used <= declared, f"declare these in INTERNALS: {sorted(used - declared)}"
    assert _internal_names_used("from mkdocs.x import _y, Z\nZ._w\nZ.v\n") == {"mkdocs.x._y", "mkdocs.x.Z._w"}


def test_a_changed_internal_name_fails_naming_it() -> None:
    with pytest.raises(
        AssertionError,
        match=r"`mkdocs\.commands\.build\._build_pages`.*`mkdocs\.commands\.build\._build_pages` is not found",
    ):
        _resolve("mkdocs.commands.build._build_pages")
    assert _resolve("mkdocs.config.config_options.Plugins.plugin_cache")[1] == "plugin_cache"


def test_every_generator_a_project_may_choose_has_one_adapter() -> None:
    """The writer's table holds the adapters; the configuration's check and ``--generator`` (which do not load the
    site's code) accept the same names."""
    from rulebook.cli.build import add_generator_option

    parser = argparse.ArgumentParser()
    add_generator_option(parser)
    choices = next(action.choices for action in parser._actions if action.dest == "generator")
    assert sorted(GENERATORS) == sorted(GENERATOR_NAMES) == sorted(choices or ())
    assert [site_generator(name).title for name in GENERATOR_NAMES] == ["MkDocs", "Zensical"]
    assert live_generator("mkdocs") is GENERATORS["mkdocs"]
    assert live_generator("zensical") is None  # a command: serve builds the site again at each edit


def _page(path: str, text: str) -> Page:
    body = f'<div class="rb-body" markdown="0">\n<p>{text}</p>\n</div>\n'
    return Page(path, path[:-3].title(), f"# {path[:-3].title()}\n\n{body}")


def test_the_mkdocs_live_site_renders_an_edited_page_and_its_search_entry(tmp_path: Path) -> None:
    """The live site of ``serve`` over the installed MkDocs, through the adapter's interface alone."""
    from rulebook.site.writer import mkdocs_settings

    generator = live_generator("mkdocs")
    assert generator is not None
    pages = (_page("index.md", "Home text"), _page("rules.md", "Dice are rolled"))
    run = SiteRun("", pages, [{"Home": "index.md"}, {"Rules": "rules.md"}], mkdocs_settings(None))
    config_file, site = tmp_path / "mkdocs.yml", tmp_path / "site"
    docs = generator.prepare(tmp_path / "project")
    for page in pages:
        (docs / page.path).parent.mkdir(parents=True, exist_ok=True)
        (docs / page.path).write_text(page.markdown, encoding="utf-8")
    assert generator.build(tmp_path / "project", run, site, config_file=config_file, scripts=()) == ()
    assert "<p>Dice are rolled</p>" in (site / "rules" / "index.html").read_text(encoding="utf-8")
    home = (site / "index.html").stat().st_mtime_ns

    live = generator.open_live(run, config_file=config_file, docs=tmp_path / "live-docs", site_dir=site, scripts=())
    live.warm()
    edited = (pages[0], _page("rules.md", "Dice are thrown"))
    now = SiteRun("", edited, run.nav, run.settings)
    assert list(live.render(RunChange(now, (edited[1],)))) == ["rules/"]
    assert "<p>Dice are thrown</p>" in (site / "rules" / "index.html").read_text(encoding="utf-8")
    assert (site / "index.html").stat().st_mtime_ns == home
    index = (site / "search" / "search_index.json").read_text(encoding="utf-8")
    assert "Dice are thrown" in index and "Dice are rolled" not in index and "Home text" in index
    assert live.run is now


def _compares_with(source: str, names: set[str]) -> list[int]:
    """The lines where the code compares a value with one of ``names`` (``== "mkdocs"``, ``in ("zensical",)``)."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Compare):
            operands = [node.left, *node.comparators]
            values = [e for o in operands for e in (o.elts if isinstance(o, ast.Tuple | ast.List | ast.Set) else [o])]
            if any(isinstance(v, ast.Constant) and v.value in names for v in values):
                found.append(node.lineno)
    return found


def test_no_code_tells_one_generator_from_another_by_its_name() -> None:
    """What differs between generators (how our HTML's links are written, whether a site stays loaded) is asked of
    its adapter; the name only picks the adapter from the writer's table."""
    names = set(GENERATOR_NAMES)
    found = {
        str(path.relative_to(ROOT)): lines
        for path in sorted((ROOT / "compiler").rglob("*.py"))
        if (lines := _compares_with(path.read_text(encoding="utf-8"), names))
    }
    assert found == {}
    assert _compares_with('if style.generator == "mkdocs":\n    pass\n', names) == [1]
    assert _compares_with('if name in ("zensical",):\n    pass\n', names) == [1]
    assert _compares_with('if find_spec("zensical") is None:\n    pass\n', names) == []  # a module, not a choice
    assert [site_generator(name).resolves_html_links for name in GENERATOR_NAMES] == [False, True]
