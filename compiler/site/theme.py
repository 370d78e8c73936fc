"""The site's look and words: templates, assets and strings shipped in the package, overridable per project.

A project overrides any file by putting one of the same name in its own
``site_templates/`` folder (as MkDocs' ``theme.custom_dir``): a template, an asset, or
words in ``strings.toml`` (merged over the defaults, language by language). An
overriding template can extend the one it replaces as ``rulebook/NAME``.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Mapping, MutableMapping
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from types import TracebackType
from typing import Any

from jinja2 import (
    BaseLoader,
    ChoiceLoader,
    Environment,
    FileSystemLoader,
    PrefixLoader,
    StrictUndefined,
    Template,
    TemplateNotFound,
    TemplateSyntaxError,
    pass_eval_context,
)
from jinja2.exceptions import SecurityError
from jinja2.filters import do_tojson, do_urlize
from jinja2.loaders import split_template_path
from jinja2.nodes import EvalContext
from jinja2.sandbox import SandboxedEnvironment
from markupsafe import Markup

from rulebook.errors import UserError, quoted
from rulebook.inputs import MAX_DATA_BYTES, UnreadableInput, present, read_input, read_input_text
from rulebook.project import OVERRIDES
from rulebook.report.escaping import visible, visible_in_text
from rulebook.site.escaping import (
    escaped_by_filter,
    force_escaped_by_filter,
    html_text,
    json_in_page,
    markdown_text,
    template_text,
)
from rulebook.site.setting_paths import listed
from rulebook.site.words_file import STRINGS_FILE, read_strings

PACKAGE_FOLDER = Path(str(resources.files("rulebook.site").joinpath("templates")))
"""The default templates, assets and words, installed with the package."""


LANGUAGE_NAME = "language_name"
"""The site's word for the language it is in (the language switcher's label)."""


@dataclass(frozen=True, slots=True)
class Theme:
    """Where a site's templates, assets and words come from: the project's overrides, then the defaults."""

    overrides: Path | None = None
    """The project's ``site_templates/`` folder (``None``: the defaults only)."""

    @classmethod
    def for_project(cls, root: Path) -> Theme:
        folder = root / OVERRIDES
        return cls(folder if folder.is_dir() else None)

    @property
    def folders(self) -> tuple[Path, ...]:
        """Where files are looked for, first match wins."""
        return (self.overrides, PACKAGE_FOLDER) if self.overrides is not None else (PACKAGE_FOLDER,)

    def environment(self) -> Environment:
        """The jinja2 environment of the site's templates (HTML escaping on, undefined names refused).

        Text in a Markdown line goes through the ``markdown_text`` filter, text MkDocs and Material write
        unescaped (a page's title in its front matter) through ``html_text`` (:mod:`rulebook.site.escaping`).
        """
        own = [_ProjectTemplates(self.overrides)] if self.overrides is not None else []
        loader = ChoiceLoader(
            [
                *own,
                FileSystemLoader(str(PACKAGE_FOLDER)),
                PrefixLoader({"rulebook": FileSystemLoader(str(PACKAGE_FOLDER))}),
            ]
        )
        env = _Environment(
            self.overrides,
            loader=loader,
            autoescape=True,
            undefined=StrictUndefined,
            keep_trailing_newline=True,
            trim_blocks=True,
            lstrip_blocks=True,
            finalize=_shown,
        )
        env.filters["markdown_text"] = markdown_text
        env.filters["html_text"] = html_text
        # jinja2's escaping filters make markup of text: written as unfiltered text is (``_shown``), they would
        # keep the braces and brackets a Markdown line reads as an attribute list or a link.
        env.filters["e"] = env.filters["escape"] = escaped_by_filter
        env.filters["forceescape"] = force_escaped_by_filter
        env.filters["urlize"] = _urlize
        env.filters["tojson"] = _tojson
        return env

    def strings(self, language: str, native_name: str | None = None) -> dict[str, str]:
        """The site's own words in a language: the project's over the defaults, English where missing; its name
        (``language_name``) ``native_name`` where no table names it in that language (a translation into Latin, of a
        language file's, was "English" in the language switcher)."""
        tables = [
            read_strings(folder / STRINGS_FILE, root=folder.parent if folder == self.overrides else None)
            for folder in reversed(self.folders)
        ]
        words: dict[str, str] = {}
        for wanted in dict.fromkeys(("en", language)):
            for table in tables:
                words |= table.get(wanted, {})
        if native_name is not None and not any(LANGUAGE_NAME in table.get(language, {}) for table in tables):
            words[LANGUAGE_NAME] = native_name
        return words

    def assets(self) -> dict[str, bytes]:
        """Every asset's content by its path under ``assets/``: the project's replace the defaults of the same name.

        The project's are read as every file of the project is (:func:`~rulebook.inputs.read_input`): an
        ``assets`` folder committed as a link out of the project, a link among its files leading out of it, or a
        pipe or a device among them, is refused in plain words, never published nor passed over; a link to a file
        of the project is read as that file. A link to a folder among them is refused: its files would be left out
        (a link among the assets was left out in silence, the shipped stylesheet published for the project's).
        """
        found: dict[str, bytes] = {}
        for folder in reversed(self.folders):
            base = folder / "assets"
            if not base.is_dir():
                continue
            root = folder.parent if folder == self.overrides else None
            for path in sorted(base.rglob("*")):
                if path.is_symlink() and path.is_dir():
                    raise UnreadableInput(path, "it is a link to a folder: put the files themselves among the assets")
                if not path.is_dir():
                    content = read_input(path, root=root, limit=MAX_DATA_BYTES, kind="site file")
                    found[path.relative_to(base).as_posix()] = content
        return dict(sorted(found.items()))


class _Environment(SandboxedEnvironment):
    """The templates' environment, knowing which of them are the project's: a fault in one of those is the
    project's, told as a plain message naming its file and line (:class:`_Template`).

    Jinja's sandbox, as for templates a pull request may change: no attribute of Python's own (``__class__``), a
    ``range`` of at most 100,000, and ``*`` and ``**`` answered by :meth:`call_binop`, bounded, never folded while
    the template compiles (a 24-byte ``{{ "x" * 10000000000 }}`` took 23 GB to compile); no ``lipsum``, Jinja's
    placeholder text, which nothing of ours uses and no bound held (48 bytes of ``lipsum(3000, ...)`` made a home
    page of 44 MB in 14 s)."""

    intercepted_binops = frozenset({"*", "**", "%"})

    def __init__(self, overrides: Path | None, **options: Any) -> None:
        super().__init__(**options)
        self.globals.pop("lipsum", None)
        self.overrides = overrides

    def call_binop(self, context: Any, operator: str, left: Any, right: Any) -> Any:
        """``left * right`` or ``left ** right``, refused past :data:`LONGEST_PRODUCT` characters, items or digits."""
        if operator == "*" and isinstance(left, int | float) and isinstance(right, str | list | tuple):
            left, right = right, left
        repeated = operator == "*" and isinstance(left, str | list | tuple) and isinstance(right, int)
        if repeated and len(left) * right > LONGEST_PRODUCT:
            raise SecurityError(f"a repetition of more than {LONGEST_PRODUCT:,} characters or items")
        sizes = (
            [size for found in _WIDTH.findall(left) for size in found]
            if operator == "%" and isinstance(left, str)
            else []
        )
        if any(size == "*" or (size and int(size) > LONGEST_PRODUCT) for size in sizes):
            raise SecurityError(f"a format wider than {LONGEST_PRODUCT:,} characters, or of a width given later")
        powered = operator == "**" and isinstance(left, int) and isinstance(right, int) and right > 0
        if powered and abs(left) > 1 and right * abs(left).bit_length() > LONGEST_PRODUCT * 3:
            raise SecurityError(f"a power of more than {LONGEST_PRODUCT:,} digits")
        return super().call_binop(context, operator, left, right)


LONGEST_PRODUCT = 10_000_000
"""The most characters, items or digits a template's ``*``, ``**`` or ``%`` may make."""
_WIDTH = re.compile(r"%(?:\([^)]*\))?[-+ #0]*(\d+|\*)?(?:\.(\d+|\*))?")
"""A ``%`` format's width and precision (``%(a)9s``, ``%*s``, ``%.9d`` too)."""


class _Template(Template):
    """A template whose rendering fails in a template of the project (``{{ nosuch }}``, ``{{ 1/0 }}``, an
    ``{% include %}`` of itself) stops with a plain message naming that template's file and line: an internal
    error said the project's own template was a bug of the compiler's."""

    def render(self, *args: Any, **kwargs: Any) -> str:
        try:
            return super().render(*args, **kwargs)
        except UserError:
            raise
        except Exception as error:
            overrides = getattr(self.environment, "overrides", None)
            place = _project_place(error.__traceback__, overrides) if overrides is not None else None
            if place is None:
                raise
            raise UserError(f"{place}: the project's template failed: {_fault(error)}") from None


_Environment.template_class = _Template


def _project_place(trace: TracebackType | None, overrides: Path) -> str | None:
    """The innermost place of the traceback in a template of the project's ``overrides`` folder, as
    ``FILE:LINE`` (jinja2 puts each template's own file and line in the traceback it raises)."""
    place = None
    folder = os.path.join(os.path.abspath(overrides), "")
    while trace is not None:
        name = trace.tb_frame.f_code.co_filename
        if os.path.abspath(name).startswith(folder):
            place = f"{visible(name)}:{trace.tb_lineno}"
        trace = trace.tb_next
    return place


def _fault(error: BaseException) -> str:
    """What went wrong, in one short line."""
    if isinstance(error, RecursionError):
        return "it includes or calls itself without end"
    return quoted(f"{type(error).__name__}: {error}")


def check_template(environment: Environment, name: str) -> None:
    """Read the project's template ``name`` as the build reads it and parse it, working nothing out (compiling
    folds constants: `{{ "x"|center(1000000000) }}` took the lint 4.9 GB); a syntax error or a nesting too deep is
    a :class:`UserError` naming its file and line."""
    assert environment.loader is not None
    source, filename, _ = environment.loader.get_source(environment, name)
    try:
        environment.parse(source, name, filename)
    except RecursionError:
        raise UserError(f"{visible(filename or name)}: the project's template nests too deeply to be read") from None
    except TemplateSyntaxError as error:
        where = error.filename or filename or name
        raise UserError(
            f"{visible(where)}:{error.lineno}: the project's template cannot be read: {quoted(error.message or '')}"
        ) from None


class _ProjectTemplates(BaseLoader):
    """The project's own templates (``site_templates/``), each read as every input of the project is
    (:func:`~rulebook.inputs.read_input`): a template that is a link out of the project, a pipe or a
    device is refused in plain words, never rendered into the site nor passed over for the default."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder

    def get_source(self, environment: Environment, template: str) -> tuple[str, str, Callable[[], bool]]:
        path = self.folder.joinpath(*split_template_path(template))
        if not present(path):
            raise TemplateNotFound(template)
        text = read_input_text(path, root=self.folder.parent, limit=MAX_DATA_BYTES, kind="template")
        changed = _changed_at(path)
        return text, str(path), lambda: _changed_at(path) == changed

    def load(self, environment: Environment, name: str, globals: MutableMapping[str, Any] | None = None) -> Template:
        """The project's template ``name``; one jinja2 cannot read is a plain message naming its file and line."""
        try:
            return super().load(environment, name, globals)
        except (RecursionError, SyntaxError):  # 300 nested `{% if %}`; `a.b.c...` past Python's own nesting
            where = str(self.folder.joinpath(*split_template_path(name)))
            raise UserError(f"{visible(where)}: the project's template nests too deeply to be read") from None
        except TemplateSyntaxError as error:
            where = error.filename or str(self.folder.joinpath(*split_template_path(name)))
            raise UserError(
                f"{visible(where)}:{error.lineno}: the project's template cannot be read: {quoted(error.message or '')}"
            ) from None


def _changed_at(path: Path) -> float | None:
    try:
        return path.stat().st_mtime
    except OSError:
        return None


OVERRIDES_FOLDER = PACKAGE_FOLDER / "overrides"
"""Two of Material's templates in the site's words: the 404 page and the footer's credit line."""
CHROME_WORDS = ("not_found", "not_found_text", "home", "made_with")
"""The site's words the overriding templates show (``config.extra.rulebook_words``)."""


def chrome_options(raw: Mapping[str, Any], words: Mapping[str, str], language: str | None = None) -> dict[str, Any]:
    """MkDocs settings over the project's ``mkdocs.yml`` that put the site's words into Material's chrome.

    Every site gets our 404 page and footer (unless the project has its own ``custom_dir``); a
    translation's site also gets its language, the names of the palette switch, the title of the
    headings' permalinks and, if its words give one, its licence line (``copyright``).
    """
    theme = raw.get("theme") or {}
    theme = dict(theme) if isinstance(theme, dict) else {"name": theme}
    theme.setdefault("custom_dir", str(OVERRIDES_FOLDER))
    extra = dict(raw.get("extra") or {})  # a mapping: `setting_paths.check_reworked_kinds`
    extra["rulebook_words"] = {key: str(html_text(words[key], quotes=False)) for key in CHROME_WORDS if key in words}
    options: dict[str, Any] = {"theme": theme, "extra": extra}
    if language is None:
        return options
    theme_said, extra_said = theme_language(language)
    theme.update(theme_said)
    extra.pop("rulebook_language", None)  # the original's, where the theme has no words for it
    extra.update(extra_said)
    palette = theme.get("palette")  # one scheme, or a list of schemes
    if palette is not None:
        theme["palette"] = (
            _palette(palette, words) if isinstance(palette, dict) else [_palette(p, words) for p in palette]
        )
    options["markdown_extensions"] = [
        _permalink_title(entry, words) for entry in listed(raw.get("markdown_extensions"))
    ]
    if words.get("copyright"):
        options["copyright"] = str(html_text(words["copyright"]))
    return options


def theme_language(language: str) -> tuple[dict[str, str], dict[str, str]]:
    """The theme's and the pages' settings (``theme``, ``extra``) for a site in ``language``: Material's buttons in
    English where it has no words of its own for it, the page in its language (our partials/language.html)."""
    if theme_speaks(language):
        return {"language": language}, {}
    return {"language": "en"}, {"rulebook_language": language}


def theme_speaks(language: str) -> bool:
    """Whether Material has words of its own for ``language`` (Zensical carries the same templates); a language a
    team adds (``language_file``) may have none: Material stopped the build, not finding them."""
    import importlib.util

    for package in ("material", "zensical"):
        spec = importlib.util.find_spec(package)
        folder = Path(spec.origin).parent / "templates" / "partials" / "languages" if spec and spec.origin else None
        if folder is not None and folder.is_dir():
            return (folder / f"{language}.html").is_file()
    return True


def _palette(entry: Any, words: Mapping[str, str]) -> Any:
    """A palette's switch, named in the site's words (it leads to the other scheme)."""
    if not isinstance(entry, dict) or not isinstance(entry.get("toggle"), dict):
        return entry
    key = "to_light" if entry.get("scheme") == "slate" else "to_dark"
    name = str(html_text(words[key])) if key in words else entry["toggle"].get("name", "")  # mkdocs.yml's: as written
    return {**entry, "toggle": {**entry["toggle"], "name": name}}


def _permalink_title(entry: Any, words: Mapping[str, str]) -> Any:
    if isinstance(entry, dict) and "toc" in entry and "heading_permalink" in words:
        # Python-Markdown escapes the attribute itself: only the controls are ours to show.
        return {"toc": {**(entry["toc"] or {}), "permalink_title": visible(words["heading_permalink"])}}
    return entry


@pass_eval_context
def _urlize(context: EvalContext, value: object, *args: Any, **kwargs: Any) -> str:
    """jinja2's ``urlize`` of the text as :func:`~rulebook.site.escaping.escaped_by_filter` writes it."""
    return do_urlize(context, escaped_by_filter(value), *args, **kwargs)


@pass_eval_context
def _tojson(context: EvalContext, value: object, indent: int | None = None) -> Markup:
    """jinja2's ``tojson``, its strings' braces and brackets escaped (:func:`~rulebook.site.escaping.json_in_page`)."""
    return json_in_page(do_tojson(context, value, indent))


def _shown(value: object) -> object:
    """Every value a template writes, control characters from a source shown as pictures (``␛``): a page or
    report opened in a terminal never drives it, and a bidirectional override never reorders what is read. Text
    no filter made markup is written by :func:`~rulebook.site.escaping.template_text`, text in HTML and in a
    Markdown line alike (a project's own template may put it in a heading without ``markdown_text``)."""
    if isinstance(value, Markup):
        return Markup(visible_in_text(str(value)))
    if hasattr(value, "__html__"):  # markup of another kind: written as it says, as jinja2 writes it
        return value
    # Text, and any other value as its text: a list, tuple or mapping holding a title (``{{ [book.title] }}``) was
    # written with its braces and brackets as they were.
    return template_text(str(value))
