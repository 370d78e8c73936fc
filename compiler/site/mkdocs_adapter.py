"""MkDocs (with mkdocs-material): the only module that talks to it.

It reads the project's ``mkdocs.yml`` (MkDocs' YAML: ``!ENV``, ``INHERIT``), builds a site in-process, hands it
our HTML past Python-Markdown (:func:`hand_over_html`), and keeps a site loaded for ``serve``
(:class:`MkDocsLiveSite`), which renders a page through MkDocs' own page pipeline. That pipeline is not MkDocs'
public API: every name of MkDocs or Material the adapter uses beyond it is listed in :data:`INTERNALS` (checked
against the installed release by ``tests/test_generator_contract.py``), and MkDocs is pinned to the tested minor
release in ``pyproject.toml``.

MkDocs is imported inside the functions that use it: a command that builds no site never loads it.
"""

from __future__ import annotations

import contextlib
import copy
import errno
import io
import json
import logging
import os
import re
from collections.abc import Iterator, MutableMapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rulebook.errors import SiteBuildError, UserError
from rulebook.fileio import write_changed
from rulebook.inputs import read_input_text, source_date
from rulebook.masked import masked, remember_environment_values
from rulebook.site.escaping import logo_tooltip_as_label
from rulebook.site.generator import LiveSite, RunChange, SiteRun
from rulebook.yaml_numbers import MAX_NUMBER_DIGITS, digits_of, too_long

if TYPE_CHECKING:
    from mkdocs.config.config_options import Plugins
    from mkdocs.config.defaults import MkDocsConfig
    from mkdocs.plugins import BasePlugin
    from mkdocs.structure.files import File


@dataclass(frozen=True, slots=True)
class Internal:
    """A name of MkDocs or Material the adapter uses that is not their documented API: a release may change it."""

    path: str
    """Its module and name, dotted (``mkdocs.commands.build._build_page``)."""
    parameters: tuple[str, ...] = ()
    """For a function, the parameters the adapter passes, in order (any others must have defaults)."""
    why: str = ""
    """What the adapter uses it for (a failing contract test says it)."""


INTERNALS = (
    Internal("mkdocs.commands.build._populate_page", ("page", "config", "files"), "reads and renders one page"),
    Internal("mkdocs.commands.build._build_page", ("page", "config", "doc_files", "nav", "env"), "writes one page"),
    Internal(
        "mkdocs.commands.build._build_theme_template",
        ("template_name", "env", "files", "config", "nav"),
        "writes the 404 page and the sitemap again",
    ),
    Internal("mkdocs.structure.files._file_sort_key", ("f",), "orders the pages as MkDocs lists a docs folder"),
    Internal("mkdocs.config.defaults.MkDocsConfig._schema", (), "finds the `plugins` option (its `plugin_cache`)"),
    Internal("mkdocs.config.config_options.Plugins.plugin_cache", (), "gives a site kept loaded plugins of its own"),
    Internal("material.plugins.search.plugin.SearchPlugin.search_index", (), "the search entries of the page rendered"),
    Internal("material.plugins.search.plugin.SearchIndex.entries", (), "replaced by the site's entries"),
    Internal("material.plugins.search.plugin.SearchIndex.generate_search_index", ("self", "prev"), "writes the index"),
)
"""Every name the adapter uses beyond MkDocs' public API; an attribute an instance sets is named on its class."""


class MkDocs:
    """The site generator MkDocs, with mkdocs-material: built in-process, a site kept loaded between edits."""

    title = "MkDocs"
    resolves_html_links = False
    cached = False

    def require(self) -> None:
        """MkDocs is a dependency of the compiler: nothing to check."""

    def check_settings(self, settings: dict[str, Any], *, config_file: Path) -> None:
        """MkDocs' own check of the settings, as it loads them to build (its plugins loaded and given their options,
        its theme and Markdown extensions found), over an empty docs folder; nothing is built or written. The
        navigation is the build's, as in :func:`_load_config` (``nav: 5`` was refused here and built)."""
        import tempfile

        from mkdocs.config import load_config

        with (
            tempfile.TemporaryDirectory(prefix="rulebook-settings-") as room,
            _mkdocs_logging() as collected,
            _mkdocs_errors("the site", collected),
        ):
            os.mkdir(docs := os.path.join(room, "docs"))
            load_config(
                io.StringIO("{}"),
                config_file_path=str(config_file),
                **copy.deepcopy({**settings, "docs_dir": docs, "site_dir": os.path.join(room, "site"), "nav": []}),
            )

    def prepare(self, project: Path) -> Path:
        """The project is in the build's scratch folder, new with each build: nothing to take out."""
        return project / "docs"

    def build(
        self, project: Path, run: SiteRun, site_dir: Path, *, config_file: Path, scripts: tuple[str, ...]
    ) -> tuple[str, ...]:
        """Build one MkDocs site from ``project/docs``; what MkDocs warned about."""
        from mkdocs.commands.build import build

        with _mkdocs_logging() as collected, _build_date(), _mkdocs_errors("the site", collected):
            build(_load_config(run, config_file, project / "docs", site_dir, scripts))
        return tuple(collected.messages)

    def open_live(
        self, run: SiteRun, *, config_file: Path, docs: Path, site_dir: Path, scripts: tuple[str, ...]
    ) -> LiveSite:
        return MkDocsLiveSite(run, config_file=config_file, docs=docs, site_dir=site_dir, scripts=scripts)


MAX_SETTINGS_BYTES = 1024 * 1024
"""The largest settings file read: MkDocs reads one several times over in pure-Python YAML (4 MB took 20 s); a
site's settings are a few KB."""
MAX_SETTINGS_DEPTH = 200
"""How deep a settings file's values may nest (lists or mappings within each other): a site's settings nest a few
levels; PyYAML's composer recurses, and far deeper is Python's recursion error."""
MAX_SETTINGS_VALUES = 100_000
"""The most values a settings file may come to once its YAML aliases are expanded: 499 bytes of aliases of
aliases made MkDocs print a value of millions (106 s, 11 GB)."""


def _check_expansion(path: Path, text: str) -> None:
    """Refuse settings whose aliases expand past :data:`MAX_SETTINGS_VALUES` values (counted without expanding),
    or that hold a whole number of more digits than any setting needs (at its line)."""
    import yaml

    try:
        node = yaml.compose(text, Loader=yaml.SafeLoader)
    except (yaml.YAMLError, RecursionError):
        return  # the loading says what is wrong
    counted: dict[int, int] = {}

    def size(node: Any, depth: int = 0) -> int:
        known = counted.get(id(node))
        if known is not None:
            return known
        if depth > MAX_SETTINGS_DEPTH:  # a value nested deeper is refused as such, not as a count
            raise SiteBuildError(
                f"cannot read {path}: its values nest more than {MAX_SETTINGS_DEPTH} deep (lists or mappings within "
                "each other)"
            )
        if isinstance(node, yaml.MappingNode):
            total = 1 + sum(size(key, depth + 1) + size(value, depth + 1) for key, value in node.value)
        elif isinstance(node, yaml.SequenceNode):
            total = 1 + sum(size(item, depth + 1) for item in node.value)
        else:
            _check_number(path, node)
            total = 1
        counted[id(node)] = min(total, MAX_SETTINGS_VALUES + 1)
        return counted[id(node)]

    if node is not None and size(node) > MAX_SETTINGS_VALUES:
        raise SiteBuildError(
            f"{path}: its settings come to more than {MAX_SETTINGS_VALUES:,} values (each YAML alias, `*name`, "
            "counted as it expands), more than any site's settings need: write them out, fewer"
        )


def _check_number(path: Path, node: Any) -> None:
    """Refuse a whole number of more than :data:`~rulebook.yaml_numbers.MAX_NUMBER_DIGITS` digits, however written
    (``0x``, ``!!int``), at its line."""
    if too_long(node):
        raise SiteBuildError(
            f"{path}:{node.start_mark.line + 1}: a number of {digits_of(node):,} digits, more than any setting needs "
            f"(at most {MAX_NUMBER_DIGITS:,})"
        )


MAX_INHERITED = 10
"""The longest chain of ``INHERIT``'ed settings files read (a file inheriting itself would never end)."""


def read_settings(
    path: Path,
    *,
    root: Path | None = None,
    inherited: tuple[Path, ...] = (),
    read: list[Path] | None = None,
    spent: int = 0,
) -> dict[str, Any]:
    """MkDocs settings from a YAML file, read through :func:`~rulebook.inputs.read_input` (``root``: the project,
    for its own ``mkdocs.yml``) as MkDocs reads it (``!ENV``, ``INHERIT``).

    The file ``INHERIT`` names is read here, through the same reader, not by MkDocs (which opened any file);
    in the project, every path setting must stay inside it (:func:`~rulebook.site.setting_paths.check_setting_paths`).
    ``inherited``: the files that inherit this one, for the chain's length; ``read``: given, each file inherited is
    added to it (no report may replace one); ``spent``: the characters of the files that inherit it.
    """
    import mergedeep  # type: ignore[import-untyped]  # MkDocs' own merge of inherited settings
    import yaml
    from mkdocs.exceptions import ConfigurationError
    from mkdocs.utils.yaml import get_yaml_loader, yaml_load

    from rulebook.site.setting_paths import (
        check_control_characters,
        check_generator_writes,
        check_plugin_caches,
        check_reworked_kinds,
        check_setting_paths,
        check_snippet_files,
        check_text_lists,
        check_theme_icons,
    )

    text = _settings_text(path, root, spent)
    remember_environment_values(text)
    _check_expansion(path, text)
    try:
        # text, not a file: MkDocs leaves INHERIT to us. PyYAML's full loader, as MkDocs' but for the tags that call
        # code (`!!python/object/apply:os.system [...]` ran a command on `rulebook lint`); `!!python/name:` (Material's
        # emoji index) is kept
        loaded = yaml_load(text, loader=get_yaml_loader(loader=_settings_loader()))
    except RecursionError as error:  # Python's "maximum recursion depth exceeded", unplaced
        raise SiteBuildError(
            f"cannot read {path}: its values nest more than {MAX_SETTINGS_DEPTH} deep (lists or mappings within "
            "each other)"
        ) from error
    except (ValueError, AttributeError, KeyError, IndexError, TypeError) as error:  # a value YAML's types refuse
        # (`2001-02-30`, `!!timestamp "x"`, `!!int ""`), in Python's words; long numbers are refused before
        said = str(error) if isinstance(error, ValueError) else "a tagged value (`!!...`) YAML cannot make"
        raise SiteBuildError(f"cannot read {path}: a value it holds cannot be read ({said})") from error
    except (OSError, UnicodeDecodeError, yaml.YAMLError, ConfigurationError) as error:
        raise SiteBuildError(_placed(path, error) or f"cannot read {path}: {error}") from error
    if loaded is None:
        return {}
    if not isinstance(loaded, dict):
        raise SiteBuildError(f"{path} must hold a mapping of MkDocs settings")
    if root is not None:
        check_reworked_kinds(path, text, loaded)
        check_text_lists(path, text, loaded)
        check_setting_paths(path, text, loaded, root)
        check_plugin_caches(path, text, loaded)
        check_generator_writes(path, text, loaded)
        check_snippet_files(path, text, loaded, root)
        check_control_characters(path, text, loaded)  # after the paths', which say more of a path
    parent = _inherited_file(path, text, loaded.pop("INHERIT", None), len(inherited))
    settings = loaded
    if parent is not None:
        if read is not None:
            read.append(parent)
        base = read_settings(parent, root=root, inherited=(*inherited, path), read=read, spent=spent + len(text))
        settings = dict(mergedeep.merge(base, loaded))
    if root is not None and not inherited:  # the project's file, with what it inherits
        check_theme_icons(path, text, settings, root, theme_icon_folders())
    return settings


def _placed(path: Path, error: BaseException) -> str | None:
    """A YAML error of the settings (MkDocs wraps it) at its file, line and column, in YAML's words without its
    quote of the text; None for another."""
    import yaml

    marked = error if isinstance(error, yaml.MarkedYAMLError) else error.__context__
    if not isinstance(marked, yaml.MarkedYAMLError) or marked.problem_mark is None:
        return None
    mark = marked.problem_mark
    said = "; ".join(part for part in (marked.context, marked.problem) if part)
    return f"{path}:{mark.line + 1}:{mark.column + 1}: {said}"


def named_settings(
    path: Path, root: Path, inherited: int = 0, read: list[Path] | None = None, spent: int = 0
) -> dict[str, Any]:
    """What a settings file the build cannot load (a value of the wrong kind, a plugin not installed) still says,
    read as plain YAML, ``INHERIT`` followed inside ``root`` as far as :data:`MAX_INHERITED` files: the folders it
    names, which no report may go into while it is mended (``lint -o overrides/main.html`` was written, and every
    page was the lint report once it was). A :class:`~rulebook.errors.UserError` where that reading could name a
    folder otherwise than the build: a tagged value (``!ENV``, ``!!python/name:``: the build resolves
    them), a file it inherits that cannot be read, or no YAML at all (the forty-first probe). ``read``: given, each
    file inherited is added to it."""
    import yaml

    class Plain(yaml.SafeLoader):
        """YAML's own values; a tag refused."""

    def tagged(loader: yaml.SafeLoader, suffix: str, node: yaml.Node) -> None:
        raise SiteBuildError(f"cannot read {path}: it holds a tagged value (line {node.start_mark.line + 1})")

    Plain.add_multi_constructor("", tagged)
    Plain.add_multi_constructor("!", tagged)
    text = _settings_text(path, root, spent)
    _check_expansion(path, text)
    try:
        loaded = yaml.load(text, Loader=Plain)  # a safe loader, every tag refused
    except (yaml.YAMLError, RecursionError, ValueError) as error:
        raise SiteBuildError(f"cannot read {path}: {error}") from error
    if not isinstance(loaded, dict):
        return {}
    parent = _inherited_file(path, text, loaded.pop("INHERIT", None), inherited)
    if parent is None:
        return loaded
    import mergedeep  # MkDocs' own merge, as read_settings merges

    if read is not None:
        read.append(parent)
    return dict(mergedeep.merge(named_settings(parent, root, inherited + 1, read, spent + len(text)), loaded))


def _settings_text(path: Path, root: Path | None, spent: int) -> str:
    """A settings file's text, at most :data:`MAX_SETTINGS_BYTES` with the files inheriting it (``spent``
    characters): a chain of ten files of 900 KB each was read in 73 s (the forty-sixth probe)."""
    text = read_input_text(path, root=root, limit=MAX_SETTINGS_BYTES, kind="configuration")
    if spent and spent + len(text) > MAX_SETTINGS_BYTES:
        raise SiteBuildError(
            f"{path}: the settings and the files they inherit (`INHERIT`) hold more than {MAX_SETTINGS_BYTES:,} "
            "characters together, more than a site's settings need"
        )
    return text


def _inherited_file(path: Path, text: str, named: object, inherited: int) -> Path | None:
    """The file a settings file's ``INHERIT`` names (``named``), beside it, or None without one; ``inherited``: how
    many files inherit ``path``. Refused in one wording for the build's reading and the plain one: ``INHERIT`` not
    written as text (told at its line), or a chain past :data:`MAX_INHERITED` files (a cycle never ends)."""
    if named is None:
        return None
    if not isinstance(named, str):
        from rulebook.site.setting_paths import setting_line

        line = setting_line(text, ("INHERIT",))
        raise SiteBuildError(
            f"{f'{path}:{line}' if line else path}: `INHERIT` names one file of settings: write its path as text"
        )
    if inherited >= MAX_INHERITED:
        raise SiteBuildError(f"{path}: `INHERIT` makes a chain of more than {MAX_INHERITED} files (or a cycle)")
    return Path(os.path.normpath(path.parent / named))


def theme_icon_folders() -> list[Path]:
    """The folders of icons of the themes installed (Material's for MkDocs, Zensical's): ``.icons`` of each."""
    import importlib.util

    folders = []
    for package in ("material", "zensical"):
        spec = importlib.util.find_spec(package)
        if spec is not None and spec.origin is not None:
            folders.append(Path(spec.origin).parent / "templates" / ".icons")
    return folders


def _load_config(run: SiteRun, config_file: Path, docs: Path, site_dir: Path, scripts: tuple[str, ...]) -> MkDocsConfig:
    """One MkDocs site's loaded configuration, with the live-reload ``scripts`` and our HTML handed over
    (relative paths in the settings resolve from ``config_file``'s folder)."""
    from mkdocs.config import load_config

    from rulebook.site.setting_paths import PLUGIN_CACHE

    # MkDocs' validation changes the settings it is given in place: each build gets its own copy.
    config = load_config(
        io.StringIO("{}"),
        config_file_path=str(config_file),
        **copy.deepcopy({**run.settings, "docs_dir": str(docs), "site_dir": str(site_dir), "nav": run.nav}),
    )
    config.extra_javascript.extend(scripts)
    for name, plugin in config.plugins.items():  # each plugin's cache the build's own (`setting_paths.PLUGIN_CACHE`)
        options = getattr(plugin, "config", None)  # a hook is a module, with no options
        if isinstance(options, MutableMapping) and PLUGIN_CACHE in options:
            options[PLUGIN_CACHE] = str(docs.parent / "plugin-caches" / name.replace("/", "-"))
    config.plugins["rulebook/html-blocks"] = _html_blocks()
    return config


_TRACE_LINE = re.compile(r'^\s*(?:File "|Traceback \(most recent call last\)|\^+\s*$)')


def _without_trace(message: str) -> str:
    """MkDocs' message on one line, without the Python traceback it quotes of an extension it could not load (an
    option the extension does not take): the lines of its frames left out, its first line and the error kept."""
    lines = message.splitlines()
    if not any(_TRACE_LINE.match(line) for line in lines):
        return " ".join(message.split())
    kept, in_frame = [], False
    for line in lines:
        if _TRACE_LINE.match(line):
            in_frame = line.lstrip().startswith("File ")
            continue
        if in_frame and line.startswith("    "):  # the frame's source line
            continue
        in_frame = False
        kept.append(line)
    return " ".join(" ".join(kept).split())


# -- the HTML hand-over ----------------------------------------------------------------------------------------

_HTML_BLOCK = re.compile(r'^<div class="rb-body[^"]*" markdown="0">\n', re.MULTILINE)
_DIV = re.compile(r"<div\b|</div>")


def hand_over_html(markdown: str) -> tuple[str, dict[str, str]]:
    """The page's raw HTML blocks (``<div class="rb-body" markdown="0">``), each replaced by a token.

    Our pages are Markdown headings around HTML we render ourselves. Python-Markdown would parse
    every tag of that HTML again (half of MkDocs' time on a long book); the blocks are handed to
    MkDocs' output instead, where each token's paragraph is replaced by its block (the page's
    text is the same, and its search entry is made from it). The pages stay whole Markdown pages (HTML
    inline) on disk: the blocks are taken out as MkDocs reads each page, so another generator is given the
    pages as made.
    """
    blocks: dict[str, str] = {}
    parts: list[str] = []
    position = 0
    for start in _HTML_BLOCK.finditer(markdown):
        if start.start() < position:
            continue  # inside a block already taken
        depth, end = 0, None
        for tag in _DIV.finditer(markdown, start.start()):
            depth += 1 if tag.group() == "<div" else -1
            if depth == 0:
                end = tag.end()
                break
        if end is None:
            break
        token = f"RBHTML{len(blocks):05d}"
        blocks[token] = markdown[start.start() : end].replace(' markdown="0"', "", 1)
        parts += [markdown[position : start.start()], f"\n{token}\n"]
        position = end
    parts.append(markdown[position:])
    return "".join(parts), blocks


def _html_blocks() -> BasePlugin[Any]:
    """Takes each page's HTML blocks out before Python-Markdown (:func:`hand_over_html`), and puts them back in
    place of their tokens once it is done.

    Material's search indexes a page from its content, parsing every tag: it is given each block
    as text in paragraphs (what a search needs), and the page written out gets the whole block.
    Added to the loaded configuration by the build, never named in ``mkdocs.yml``: it is how the
    build hands MkDocs the HTML it rendered, not a plugin of the site. It reads a page's Markdown before any
    other plugin does (as if the page had been written with its tokens). Each page and theme page written out has
    its logo's tooltip said as its label (:func:`~rulebook.site.escaping.logo_tooltip_as_label`).
    """
    from mkdocs.plugins import BasePlugin, event_priority

    blocks: dict[str, dict[str, str]] = {}

    class HtmlBlocks(BasePlugin):  # type: ignore[type-arg,no-untyped-call]
        @event_priority(100)
        def on_page_markdown(self, markdown: str, page: Any, **kwargs: Any) -> str:
            handed, blocks[page.file.src_uri] = hand_over_html(markdown)
            return handed

        def on_page_content(self, html: str, page: Any, **kwargs: Any) -> str:
            found = blocks.get(page.file.src_uri, {})
            if not found:
                return html
            return _TOKEN.sub(lambda match: _searchable(match.group(1), found.get(match.group(1), "")), html)

        def on_post_page(self, output: str, page: Any, **kwargs: Any) -> str:
            found = blocks.get(page.file.src_uri, {})
            if found:
                output = _SEARCHABLE.sub(lambda match: found.get(match.group(1), match.group()), output)
            return logo_tooltip_as_label(output)

        def on_post_template(self, output_content: str, template_name: str, **kwargs: Any) -> str:
            return logo_tooltip_as_label(output_content) if template_name.endswith(".html") else output_content

    return HtmlBlocks()


_TOKEN = re.compile(r"<p>(RBHTML\d{5})</p>")
_SEARCHABLE = re.compile(r"<!--(RBHTML\d{5})-->.*?<!--/RBHTML\d{5}-->", re.DOTALL)
_INLINE_TAGS = re.compile(r"</?(?:a|span|strong|em|br|img)\b[^>]*>")


def _searchable(token: str, block: str) -> str:
    """A block as search needs it: its text, in its paragraphs and cells, without links or spans."""
    return f"<!--{token}-->{_INLINE_TAGS.sub('', block)}<!--/{token}-->"


# -- what MkDocs says, and its dates ---------------------------------------------------------------------------


class _Collect(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.messages: list[str] = []
        self.errors: list[str] = []
        """The messages logged as errors (a setting MkDocs refuses, and why)."""

    def emit(self, record: logging.LogRecord) -> None:
        self.messages.append(masked(record.getMessage()))
        if record.levelno >= logging.ERROR:
            self.errors.append(masked(record.getMessage()))


@contextlib.contextmanager
def _mkdocs_logging() -> Iterator[_Collect]:
    """MkDocs' warnings collected (not printed) while it works."""
    logger = logging.getLogger("mkdocs")
    handler = _Collect()
    previous = (logger.level, logger.propagate)
    logger.addHandler(handler)
    logger.setLevel(logging.WARNING)
    logger.propagate = False
    try:
        yield handler
    finally:
        logger.removeHandler(handler)
        logger.setLevel(previous[0])
        logger.propagate = previous[1]


@contextlib.contextmanager
def _build_date() -> Iterator[None]:
    """MkDocs dates the sitemap with SOURCE_DATE_EPOCH when set: fix it, so builds are byte-identical."""
    previous = os.environ.get("SOURCE_DATE_EPOCH")
    source_date()  # refused in plain words if it is no date
    os.environ["SOURCE_DATE_EPOCH"] = previous or "0"
    try:
        yield
    finally:
        if previous is None:
            del os.environ["SOURCE_DATE_EPOCH"]


@contextlib.contextmanager
def _mkdocs_errors(what: str, collected: _Collect | None = None) -> Iterator[None]:
    """MkDocs' errors as :class:`~rulebook.errors.SiteBuildError`: MkDocs could not build ``what``, with what it
    logged as errors (``collected``: "Config value 'repo_url': Expected a string", where it said only "Aborted with
    a configuration error!"); a template the theme lacks, or a theme's template that fails on a setting's value
    (``theme.features: 5``), told as the settings' fault, not as a failed write or a bug of the compiler's. Values
    ``mkdocs.yml`` takes from the environment are masked (:mod:`rulebook.masked`)."""
    from jinja2 import TemplateNotFound
    from mkdocs.exceptions import MkDocsException

    try:
        yield
    except MkDocsException as error:
        said = [_without_trace(message) for message in (collected.errors if collected is not None else ())]
        raise SiteBuildError(masked(f"MkDocs could not build {what}: {'; '.join(said) or error}")) from error
    except TemplateNotFound as error:
        raise SiteBuildError(
            masked(
                f"MkDocs could not build {what}: the theme has no template `{error.name}`: a setting of mkdocs.yml "
                "names what the theme lacks (`theme.language`, an icon)"
            )
        ) from error
    except (UserError, MemoryError, RecursionError):
        raise
    except Exception as error:
        place = _theirs(error)
        if place is None:
            raise  # raised in the compiler's own code: a bug of ours, said as one
        kind, where = place
        raised = f"{type(error).__name__}: {error}"
        if isinstance(error, OSError) and error.errno in _WRITE_FAULTS:
            raise error  # no room, a disk read-only: the release says which file it could not write
        if isinstance(error, OSError) and kind == "generator" and _fetching(error):
            raise SiteBuildError(
                masked(
                    f"MkDocs could not build {what}: a plugin or extension of mkdocs.yml failed to read or fetch "
                    f"what it needs ({raised}, in {where}): the build has no network, or that file is missing"
                )
            ) from error
        raise SiteBuildError(
            masked(
                f"MkDocs could not build {what}: a hook of mkdocs.yml failed at {where} ({raised})"
                if kind == "hook"
                else f"MkDocs could not build {what}: the theme's template {where} failed on a setting of mkdocs.yml "
                f"({raised}): check the kinds of its values (a list where the theme takes a list, text where it takes "
                "text)"
                if kind == "template"
                else f"MkDocs could not build {what} with the settings of mkdocs.yml ({raised}, in {where}): check "
                "the kinds of its values (a list where MkDocs takes a list, text where it takes text)"
            )
        ) from error


_WRITE_FAULTS = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EROFS, errno.EIO, errno.EFBIG})
"""Errors of a disk, whoever's code met them: told as a write that failed, never as a plugin's or the settings'."""


def _settings_loader() -> type:
    """PyYAML's full loader, which constructs no object by calling code (``!!python/object/apply``, ``/new``), with
    ``!!python/name:`` importing what it names, as MkDocs' loader does (Material's
    ``emoji_index: !!python/name:material.extensions.emoji.twemoji``); what the import prints is no part of a
    command's output (`lint --format json`'s report stopped parsing), and a module that cannot be imported (a
    syntax error in it) is a fault of the settings at its place. ``!!python/module:`` is refused at its place: a
    module is no setting's value, and the build could not copy the settings holding one (an internal error)."""
    import contextlib
    import inspect
    import io

    import yaml

    class Loader(yaml.FullLoader):
        """The settings' loader."""

    def name(loader: yaml.FullLoader, suffix: str, node: yaml.Node) -> object:
        try:
            with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
                found = loader.find_python_name(suffix, node.start_mark, unsafe=True)
        except yaml.YAMLError:
            raise
        except (Exception, SystemExit) as error:  # the module's own code failed, or exited, as it was imported
            said = f"`{suffix}` cannot be imported ({type(error).__name__}: {error})"
            raise yaml.constructor.ConstructorError(None, None, said, node.start_mark) from None
        if not (inspect.isroutine(found) or inspect.isclass(found)):  # what the extensions take by name
            said = f"`!!python/name:{suffix}` names no function or class, the values extensions take by name"
            raise yaml.constructor.ConstructorError(None, None, said, node.start_mark)
        try:  # each build copies the settings: `ctypes.memmove`'s pointers cannot be (an internal error, `serve` ended)
            copy.deepcopy(found)
        except Exception as error:
            said = f"`!!python/name:{suffix}` names a value the settings cannot hold ({type(error).__name__}: {error})"
            raise yaml.constructor.ConstructorError(None, None, said, node.start_mark) from None
        return found

    def module(loader: yaml.FullLoader, suffix: str, node: yaml.Node) -> object:
        said = f"`!!python/module:{suffix}` names a module, which is no setting's value"
        raise yaml.constructor.ConstructorError(None, None, said, node.start_mark)

    def refused(loader: yaml.FullLoader, node: yaml.Node) -> object:
        shown = node.tag.replace(_YAML_TAG, "!!")
        said = f"the tag `{shown}` makes a value the settings do not take: write it in plain YAML (a list, a mapping)"
        raise yaml.constructor.ConstructorError(None, None, said, node.start_mark)

    Loader.add_multi_constructor(f"{_YAML_TAG}python/name:", name)
    Loader.add_multi_constructor(f"{_YAML_TAG}python/module:", module)
    for tag in yaml.FullLoader.yaml_constructors:
        if tag is not None and tag.removeprefix(_YAML_TAG) not in _PLAIN_TAGS:
            Loader.add_constructor(tag, refused)
    return Loader


_YAML_TAG = "tag:yaml.org,2002:"
_PLAIN_TAGS = frozenset({"null", "bool", "int", "float", "str", "seq", "map", "timestamp"})
"""The values YAML itself makes, which the settings may hold besides ``!!python/name:`` and MkDocs' ``!ENV`` (its
``!relative`` is not read: no tag of a path is): a ``!!python/tuple`` or a ``!!set`` (the full loader's) went past
every check of what the settings hold, which reads lists, and MkDocs and its theme took them as lists
(``theme.static_templates: !!python/tuple [/abs/.git/config]`` wrote a Git command there; control characters reached
every page: the forty-sixth probe)."""


def _fetching(error: OSError) -> bool:
    """Whether ``error`` is a failure to fetch over the network (no name resolution, no connection, a timeout; a
    ``requests`` or ``urllib`` error), not to write or read a file (``No space left on device`` was told as a plugin
    that could not fetch)."""
    import socket

    module = type(error).__module__.split(".")[0]
    return module in ("requests", "urllib3", "urllib") or isinstance(
        error, ConnectionError | TimeoutError | socket.gaierror
    )


_OURS = str(Path(__file__).resolve().parents[1])
"""The compiler's own package: an error raised in it is a bug of ours, whatever called it."""
_PYTHON = (os.path.dirname(os.__file__), "<frozen ")
"""Python's own library, in which a third party's call fails on a value it was given (``os.path.isabs(5)``)."""


def _theirs(error: BaseException) -> tuple[str, str] | None:
    """Where outside the compiler ``error`` was raised, as ``(kind, place)``: a theme's ``template``
    (``header.html:5``), a project's ``hook`` (``hooks.py:2``) or the ``generator``'s code; None when the last frame
    outside Python's own library is the compiler's."""
    import traceback

    frames = [f for f in traceback.extract_tb(error.__traceback__) if not f.filename.startswith(_PYTHON)]
    if not frames or str(Path(frames[-1].filename).resolve()).startswith(_OURS + os.sep):
        return None
    last = frames[-1]
    templates = [f for f in frames if f.filename.endswith(".html")]
    if templates:  # raised while a theme's template ran (in Jinja's own code, a filter): that template's
        return "template", f"`{Path(templates[-1].filename).name}:{templates[-1].lineno}`"
    installed = "site-packages" in Path(last.filename).parts or "dist-packages" in Path(last.filename).parts
    if not installed:
        return "hook", f"`{Path(last.filename).name}:{last.lineno}`"
    return "generator", f"`{Path(last.filename).name}:{last.lineno}`"


# -- the live site of `serve` ----------------------------------------------------------------------------------


class MkDocsLiveSite:
    """One MkDocs site kept loaded between edits (configuration, theme, navigation, search index): its pages
    rendered again one by one with MkDocs' own page pipeline (``_populate_page``, ``_build_page``) into the served
    folder. The navigation is built again only when the site's pages or their titles change; then every page of
    the site is rendered again.

    Opened over a site a full build has just written into ``site_dir`` (from the same ``run``):
    nothing is rendered until :meth:`render` is asked to, and the search index starts from the
    one the build wrote. The pages are kept in memory (MkDocs' generated files); ``docs`` is
    an empty folder MkDocs insists on. Pages are written atomically, so the server never sends half a page.
    """

    def __init__(
        self, run: SiteRun, *, config_file: Path, docs: Path, site_dir: Path, scripts: tuple[str, ...] = ()
    ) -> None:
        docs.mkdir(parents=True, exist_ok=True)
        self.site_dir = site_dir
        with _mkdocs_logging(), _mkdocs_errors("the page"):  # what MkDocs says of the settings, the build said already
            _own_plugins()
            config = _load_config(run, config_file, docs, site_dir, scripts)
            self._config = config.plugins.on_config(config)
            self._config.plugins.on_pre_build(config=self._config)
            self._env = self._config.theme.get_env()
        self._search = next((p for p in self._config.plugins.values() if hasattr(p, "search_index")), None)
        self._entries = _search_entries(site_dir / "search" / "search_index.json")
        self._run = run
        self._files: dict[str, File] = {}
        self._navigate(run)

    @property
    def run(self) -> SiteRun:
        return self._run

    def warm(self) -> None:
        """Render one page to nowhere: the theme's templates are compiled before the first edit."""
        if self._run.pages:
            file = self._files[self._run.pages[0].path]
            self._render(file, keep=False)

    def render(self, change: RunChange, first: Sequence[str] = ()) -> Iterator[str]:
        """Render the changed pages again (every page when the site's shape changed), the pages at the
        URLs in ``first`` before the others; yields each page's URL once it is written.

        A change of the site's MkDocs configuration needs a new site.
        """
        if change.run.settings != self._run.settings:
            raise SiteBuildError("the site's MkDocs configuration changed: it must be built again")
        if change.whole:
            removed = self._navigate(change.run)
        else:
            removed = []
            self._run = change.run
            for page in change.pages:
                self._files[page.path].content_string = page.markdown
        order = {url: index for index, url in enumerate(first)}
        files = [self._files[page.path] for page in change.pages]
        files.sort(key=lambda file: order.get(_url(file), len(order)))
        for file in files:
            if self._render(file):
                yield _url(file)
        for url in removed:
            self._remove(url)
        if change.whole:
            self._render_theme_pages()
            urls = [_url(file) for file in self._documents]
            self._entries = {url: self._entries[url] for url in urls if url in self._entries}
        self._write_search_index()

    def _navigate(self, run: SiteRun) -> list[str]:
        """The navigation built again from ``run``; the URLs of the pages it no longer has."""
        from mkdocs.structure.files import File, Files, _file_sort_key
        from mkdocs.structure.nav import get_navigation

        config = self._config
        before = {_url(file) for file in self._files.values()}
        pages = sorted(run.pages, key=lambda page: _file_sort_key(page.path))  # as MkDocs lists a docs folder
        with _build_date(), _mkdocs_errors("the page"):
            config.nav = run.nav
            files = Files([File.generated(config, page.path, content=page.markdown) for page in pages])
            files = config.plugins.on_files(files, config=config)
            nav = get_navigation(files, config)
            self._nav = config.plugins.on_nav(nav, config=config, files=files)
            self._env = config.plugins.on_env(self._env, config=config, files=files)
        self._run = run
        self._files = {file.src_uri: file for file in files.documentation_pages()}
        self._documents = files.documentation_pages()
        self._all = files
        return sorted(before - {_url(file) for file in self._files.values()})

    def _render(self, file: File, *, keep: bool = True) -> bool:
        """Render a page; whether it was written (a page that comes out the same is left as it was)."""
        from mkdocs.commands.build import _build_page, _populate_page

        assert file.page is not None
        target = file.abs_dest_path
        written = f"{target}.rulebook-new"
        file.abs_dest_path = written  # MkDocs writes where this says: the page is moved into place whole
        if self._search is not None:
            self._search.search_index.entries = []
        try:
            with _mkdocs_logging(), _build_date(), _mkdocs_errors("the page"):
                _populate_page(file.page, self._config, self._all)
                _build_page(file.page, self._config, self._documents, self._nav, self._env)
        finally:
            file.abs_dest_path = target
        if keep and self._search is not None:
            self._entries[_url(file)] = self._search.search_index.entries
        if keep and os.path.exists(written) and not _same(written, target):
            os.replace(written, target)
            return True
        with contextlib.suppress(FileNotFoundError):
            os.remove(written)
        return False

    def _render_theme_pages(self) -> None:
        """The theme's own pages that show the navigation or list the pages (``404.html``, the sitemap)."""
        from mkdocs.commands.build import _build_theme_template

        with _mkdocs_logging(), _build_date(), _mkdocs_errors("the page"):
            for template in self._config.theme.static_templates:
                _build_theme_template(template, self._env, self._all, self._config, self._nav)

    def _remove(self, url: str) -> None:
        page = self.site_dir / url / "index.html" if url.endswith("/") else self.site_dir / url
        with contextlib.suppress(FileNotFoundError):
            page.unlink()
        with contextlib.suppress(OSError):
            page.parent.rmdir()  # only when empty: a folder may hold another site (a translation's)
        self._entries.pop(url, None)

    def _write_search_index(self) -> None:
        if self._search is None:
            return
        index = self._search.search_index
        index.entries = [entry for entries in self._entries.values() for entry in entries]
        write_changed(self.site_dir / "search" / "search_index.json", index.generate_search_index(None).encode("utf-8"))


def _same(one: str, other: str) -> bool:
    try:
        return Path(one).read_bytes() == Path(other).read_bytes()
    except OSError:
        return False


def _url(file: File) -> str:
    """A page's URL from its site's root, as MkDocs gives it to the page (``""`` for the home page)."""
    assert file.page is not None
    return file.page.url


def _own_plugins() -> None:
    """The next site loaded gets plugins of its own.

    MkDocs makes one instance of a plugin with start-up hooks (Material's search) for every site it
    loads, reconfigured by each: a site kept loaded needs its own (its search language and index).
    """
    _plugins_option().plugin_cache.clear()


def _plugins_option() -> Plugins:
    """MkDocs' ``plugins`` option, whose cache of plugin instances every loaded configuration shares."""
    from mkdocs.config.config_options import Plugins
    from mkdocs.config.defaults import MkDocsConfig

    option = dict(MkDocsConfig._schema)["plugins"]
    assert isinstance(option, Plugins)
    return option


def _search_entries(path: Path) -> dict[str, list[dict[str, Any]]]:
    """The search index a build wrote, its entries grouped by page URL (in their order)."""
    try:
        docs = json.loads(path.read_text(encoding="utf-8"))["docs"]
    except (OSError, ValueError, KeyError):
        return {}
    entries: dict[str, list[dict[str, Any]]] = {}
    for entry in docs:
        entries.setdefault(entry["location"].partition("#")[0], []).append(entry)
    return entries
