"""Who may import whom: the layers of docs/architecture.md, and no import cycles.

Every import counts, also those inside functions and under ``TYPE_CHECKING``: a
cycle that only a lazy import hides is still a cycle in the design.
"""

from __future__ import annotations

import ast
import re
from functools import cache
from pathlib import Path

import networkx as nx
import pytest

ROOT = Path(__file__).resolve().parent.parent

# Lowest first. A module may import modules of its own layer or below, never above. A dotted
# prefix names a module and everything under it; ``rulebook`` alone is the package's ``__init__``.
LAYERS: list[tuple[str, tuple[str, ...]]] = [
    (
        "foundation",
        (
            "rulebook.source",
            "rulebook.closed_spans",
            "rulebook.yaml_numbers",
            "rulebook.names",
            "rulebook.suggest",
            "rulebook.diagnostics",
            "rulebook.errors",
            "rulebook.characters",
            "rulebook.masked",
            "rulebook.fileio",
            "rulebook.state",
            "rulebook.inputs",
            "rulebook.memory",
            "rulebook.child_process",
            "rulebook.stops",
            "rulebook.formats",
            "rulebook.guides",
            "rulebook.spelling",
            "rulebook.catalog",
            "rulebook.languages",
            "rulebook.engine.bindings",
            "rulebook.engine.limits",
            "rulebook.engine.ownership",
            "rulebook.engine.errors",
            "rulebook.engine.rules_validator",
            "rulebook.site.page_table",
            "rulebook",
        ),
    ),
    ("model", ("rulebook.model", "rulebook.project", "rulebook.config_file")),
    (
        "readers",
        (
            "rulebook.xml_source",
            "rulebook.markdown_source",
            "rulebook.markdown_declarations",
            "rulebook.text_source",
            "rulebook.dtd",
            "rulebook.dtd_findings",
            "rulebook.xml_syntax",
            "rulebook.locate",
            "rulebook.autolink",
            "rulebook.readers",
        ),
    ),
    (
        "analysis",
        (
            "rulebook.graph",
            "rulebook.family",
            "rulebook.mechanics",
            "rulebook.facts",
            "rulebook.reading_order",
            "rulebook.assets",
            "rulebook.pictures",
            "rulebook.picture_size",
            "rulebook.svg_pictures",
            "rulebook.svg_css",
            "rulebook.svg_area",
            "rulebook.svg_dashes",
            "rulebook.svg_directions",
            "rulebook.svg_filters",
            "rulebook.svg_fonts",
            "rulebook.svg_geometry",
            "rulebook.font_claims",
        ),
    ),
    (
        "stages",
        (
            "rulebook.lint",
            "rulebook.data",
            "rulebook.translate",
            "rulebook.diff",
            "rulebook.text_diff",
            "rulebook.edition_findings",
            "rulebook.source_words",
            "rulebook.query",
            "rulebook.graph_export",
            "rulebook.convert",
            "rulebook.rules_schema",
        ),
    ),
    ("output", ("rulebook.report", "rulebook.site", "rulebook.pdf")),
    (
        "recipe",
        (
            "rulebook.recipe",
            "rulebook.stage_values",
            "rulebook.build_values",
            "rulebook.serve",
            "rulebook.publish",
            "rulebook.published",
            "rulebook.data_worker",
            "rulebook.scaffold",
            "rulebook.source_fixes",
            "rulebook.own_wheel",
            "rulebook.deploy",
        ),
    ),
    ("command line", ("rulebook.cli", "rulebook.__main__")),
]


def _modules() -> dict[str, Path]:
    """Every module of the package by its import name (the folder ``compiler/`` is the package ``rulebook``)."""
    found = {}
    for path in (ROOT / "compiler").rglob("*.py"):
        parts = ("rulebook", *path.relative_to(ROOT / "compiler").with_suffix("").parts)
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        found[name] = path
    return found


def is_engine(module: str) -> bool:
    return module == "rulebook.engine" or module.startswith("rulebook.engine.")


def is_compiler(module: str) -> bool:
    return not is_engine(module)


MODULES = _modules()


def _resolve(name: str) -> str | None:
    while name and name not in MODULES:
        name = name.rpartition(".")[0]
    return name or None


def _imports(path: Path) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names = [node.module, *(f"{node.module}.{alias.name}" for alias in node.names)]
        else:
            continue
        found.update(resolved for n in names if (resolved := _resolve(n)) is not None)
    return found


@cache
def import_graph() -> nx.DiGraph:
    graph = nx.DiGraph()
    for name, path in MODULES.items():
        graph.add_node(name)
        graph.add_edges_from((name, target) for target in _imports(path) if target != name)
    return graph


def layer_of(module: str) -> tuple[int, str]:
    """The layer of an engine or compiler module (the longest matching prefix wins)."""
    best: tuple[int, int, str] | None = None
    for index, (layer, prefixes) in enumerate(LAYERS):
        for prefix in prefixes:
            below = "." in prefix and module.startswith(prefix + ".")
            if (module == prefix or below) and (best is None or len(prefix) > best[0]):
                best = (len(prefix), index, layer)
    if best is None:
        raise AssertionError(f"{module} is in no layer: add it to LAYERS and docs/architecture.md")
    return best[1], best[2]


def test_no_import_cycles() -> None:
    cycles = [sorted(c) for c in nx.strongly_connected_components(import_graph()) if len(c) > 1]
    assert cycles == []


def test_engine_imports_nothing_of_the_compiler() -> None:
    graph = import_graph()
    wrong = [(a, b) for a, b in graph.edges if is_engine(a) and is_compiler(b)]
    assert wrong == []


def test_the_compiler_knows_the_engine_only_by_its_bindings_limits_and_the_shipped_validator() -> None:
    """Only the command line runs the engine; the lint checks a book against the engine's bindings and the dice
    against its limits, the build checks rule data with the validator generated from the schema, and the builds'
    state keeps the engine's rule of whose cache folder is the user's (none imports anything of the project; the
    limits, only the engine's errors)."""
    graph = import_graph()
    known = (
        "rulebook.engine.bindings",
        "rulebook.engine.rules_validator",
        "rulebook.engine.limits",
        "rulebook.engine.ownership",
    )
    wrong = [
        (a, b)
        for a, b in graph.edges
        if is_compiler(a) and is_engine(b) and b not in known and layer_of(a)[1] != "command line"
    ]
    assert wrong == []
    assert {b for m in known for b in graph.successors(m)} == {"rulebook.engine.errors"}
    assert list(graph.successors("rulebook.engine.errors")) == []


@pytest.mark.parametrize("module", sorted(m for m in MODULES if is_compiler(m)))
def test_imports_only_its_own_layer_or_below(module: str) -> None:
    rank, layer = layer_of(module)
    above = [
        f"{target} ({layer_of(target)[1]})"
        for target in sorted(import_graph().successors(module))
        if is_compiler(target) and layer_of(target)[0] > rank
    ]
    assert above == [], f"{module} ({layer}) imports from a higher layer"


def test_readers_never_import_the_lint() -> None:
    graph = import_graph()
    readers = [m for m in MODULES if is_compiler(m) and layer_of(m)[1] == "readers"]
    assert all(not target.startswith("rulebook.lint") for m in readers for target in graph.successors(m))


def test_every_folder_of_the_package_is_listed_in_pyproject() -> None:
    """The package imports as ``rulebook`` from ``compiler/``, so setuptools is given its folders one by one."""
    import tomllib

    setuptools = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]
    folders = {
        ".".join(("rulebook", *init.parent.relative_to(ROOT / "compiler").parts))
        for init in (ROOT / "compiler").rglob("__init__.py")
    }
    mapped = {name for name, folder in setuptools["package-dir"].items() if name != "rulebook"}  # docs/: data only
    assert mapped == {"rulebook.docs"} and setuptools["package-dir"]["rulebook.docs"] == "docs"
    assert sorted(setuptools["packages"]) == sorted(folders | mapped)


def documented_layers() -> list[tuple[str, list[str]]]:
    """The layer table of docs/architecture.md, each name as ``LAYERS`` writes it (``catalog/`` is
    ``rulebook.catalog``, ``__init__`` the package's own module ``rulebook``)."""
    lines = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8").splitlines()
    assert "| layer | modules |" in lines, "docs/architecture.md has lost its layer table"
    rows = []
    for line in lines[lines.index("| layer | modules |") + 2 :]:
        if not line.startswith("|"):
            break
        layer, modules = (cell.strip() for cell in line.strip("|").split("|"))
        names = [name.rstrip("/") for name in re.findall(r"`([^`]+)`", modules)]
        rows.append((layer, sorted("rulebook" if n == "__init__" else f"rulebook.{n}" for n in names)))
    return rows


def test_the_architecture_docs_show_the_layers_this_test_enforces() -> None:
    documented = documented_layers()
    assert [layer for layer, _ in documented] == [layer for layer, _ in LAYERS], "the layers, lowest first"
    differ = [
        f"{layer}: only in the docs {sorted(set(names) - set(prefixes))}, only in LAYERS {sorted(set(prefixes) - set(names))}"
        for (layer, names), (_, prefixes) in zip(documented, LAYERS, strict=True)
        if names != sorted(prefixes)
    ]
    assert differ == [], "docs/architecture.md's layer table and LAYERS differ"


def _third_party_imports(path: Path) -> set[str]:
    """The top-level packages a module imports (``mkdocs`` for ``from mkdocs.config import x``)."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module.split(".")[0])
    return found


def _runs_by_name(source: str, name: str) -> bool:
    """Whether a module starts or imports ``name`` by a string: a command (``subprocess.run([..., "zensical",
    ...])``, ``os.exec*``) or a module looked up (``find_spec("zensical")``, ``import_module``)."""
    runners = {"run", "Popen", "call", "check_call", "check_output", "find_spec", "import_module", "__import__"}
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Call):
            continue
        called = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
        if called in runners or called.startswith(("exec", "spawn")):
            arguments = [*node.args, *(keyword.value for keyword in node.keywords)]
            if any(isinstance(c, ast.Constant) and c.value == name for a in arguments for c in ast.walk(a)):
                return True
    return False


def test_each_site_generator_is_reached_only_through_its_adapter() -> None:
    """MkDocs (and its theme, Material) is imported by its adapter alone, Zensical run by its own: the rest of the
    site speaks to ``site.generator``'s interface, and a generator is one module and one entry in the writer's
    table."""
    compiler = {name: path for name, path in MODULES.items() if is_compiler(name)}
    importing = sorted(name for name, path in compiler.items() if _third_party_imports(path) & {"mkdocs", "material"})
    assert importing == ["rulebook.site.mkdocs_adapter"]
    running = sorted(
        name
        for name, path in compiler.items()
        if "zensical" in _third_party_imports(path) or _runs_by_name(path.read_text(encoding="utf-8"), "zensical")
    )
    assert running == ["rulebook.site.zensical_adapter"]
    for adapter in running + importing:  # and only the writer's table names an adapter
        assert sorted(import_graph().predecessors(adapter)) == ["rulebook.site.writer"], adapter
    # The scan sees a command and a module looked up by name, wherever the name sits among the arguments.
    assert _runs_by_name('subprocess.run([sys.executable, "-m", "zensical", "build"], cwd=p)', "zensical")
    assert _runs_by_name('importlib.util.find_spec(name="zensical")', "zensical")
    assert not _runs_by_name('GENERATORS = ("mkdocs", "zensical")\nprint("zensical")', "zensical")


def test_typst_is_reached_only_through_its_adapter() -> None:
    """The print edition's Typst source is made by pure modules; one adapter runs Typst, in a process of its own
    (the only module that imports Typst), which it alone starts, by the module's name."""
    compiler = {name: path for name, path in MODULES.items() if is_compiler(name)}
    importing = sorted(name for name, path in compiler.items() if "typst" in _third_party_imports(path))
    assert importing == ["rulebook.pdf.typst_child"]
    assert sorted(import_graph().predecessors("rulebook.pdf.typst_run")) == [
        "rulebook.recipe.book_pdf",
        "rulebook.recipe.site_pictures",
    ]
    assert sorted(import_graph().predecessors("rulebook.pdf.typst_child")) == ["rulebook.pdf.typst_run"]
    starting = sorted(
        name for name, path in compiler.items() if '"rulebook.pdf.typst_child"' in path.read_text("utf-8")
    )
    assert starting == ["rulebook.pdf.typst_run"]


_CONTENT_FIELDS = {"items", "rows", "columns", "caption"}
"""Where a list, a table and a figure keep their content: a rebuild of one names them."""


def _rebuilds_content(source: str) -> list[int]:
    """The lines of a module that rebuild a list's, table's or figure's content themselves (``node._replace(items=``,
    ``rows=``, ``columns=``, ``caption=``) instead of asking :func:`rulebook.model.map_children`."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
            continue
        if node.func.attr == "_replace" and _CONTENT_FIELDS & {keyword.arg for keyword in node.keywords}:
            found.append(node.lineno)
    return found


def test_walks_that_rebuild_the_model_ask_map_children() -> None:
    """``model.children`` and ``model.map_children`` are the only places that know where each kind of node keeps its
    content: a walk that rebuilds lists, tables or figures goes through ``map_children``, so a new kind of node is
    taught in the model, not in every walk (docs/architecture.md, "One home for each convention")."""
    compiler = {name: path for name, path in MODULES.items() if is_compiler(name) and name != "rulebook.model"}
    rebuilding = {name: lines for name, path in compiler.items() if (lines := _rebuilds_content(path.read_text()))}
    assert rebuilding == {}
    assert _rebuilds_content("table._replace(rows=(), title=None)") == [1]
    assert _rebuilds_content("row._replace(cells=())\nsection._replace(children=())") == []


def test_map_children_rebuilds_every_kind_of_node_that_holds_content() -> None:
    """For every kind of node the dialect's book holds, ``with_children`` is ``children``'s inverse, and
    ``map_children`` reaches all of a node's content (every cell of a table, its header row too; each item; a
    figure's caption)."""
    from rulebook.model import Content, children, map_children, walk, with_children
    from rulebook.readers.markdown import parse_dialect

    document = parse_dialect((ROOT / "tests" / "dialect" / "book.md").read_text(encoding="utf-8"), "book.md").document
    assert document is not None
    nodes = [node for node in walk(document.body) if children(node)]
    kinds = {type(node).__name__ for node in nodes}
    assert kinds == {"Section", "Definition", "Note", "Important", "ItemList", "Table", "Figure"}

    def shouted(content: Content) -> Content:
        return tuple(n.upper() if isinstance(n, str) else map_children(n, shouted) for n in content)

    for node in nodes:
        assert with_children(node, children(node)) == node
        changed = map_children(node, shouted)
        assert type(changed) is type(node) and len(children(changed)) == len(children(node))
        texts = [text for part in children(changed) for text in walk(part) if isinstance(text, str)]
        assert texts and all(text == text.upper() for text in texts)
