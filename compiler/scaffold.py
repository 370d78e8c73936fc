"""``rulebook init`` and ``new-book``: a working project to start from, and more books in it.

The starting files ship with the package (``compiler/starter/``): a small book in the XML
format, the configuration with comments, a ``.gitignore`` for what the build makes, a
pre-commit configuration and a GitHub Actions workflow, with the compiler's own wheel in ``tools/``
for that workflow to install (:mod:`rulebook.own_wheel`). Nothing existing is ever replaced: in a folder
that has its own ``.gitignore``, workflow or wheel, those are kept and the others made.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from xml.sax.saxutils import escape

from rulebook.config_file import CONFIG_FILE, find_config
from rulebook.dtd import dtd_text
from rulebook.errors import NOT_UTF8, UserError, quoted, shorten
from rulebook.fileio import check_written_place, path_problem
from rulebook.own_wheel import own_wheel, wheel_name
from rulebook.project import Project, book_name_problem
from rulebook.site.page_table import LONGEST_TITLE
from rulebook.source import Span


class ScaffoldError(UserError):
    """A project cannot be made here; the message says why."""


@dataclass(frozen=True, slots=True)
class Made:
    """The files a command made, relative to the project's root."""

    root: Path
    files: tuple[str, ...]
    kept: tuple[str, ...] = ()
    """Optional files that existed already and were left as they are."""
    enclosing: Path | None = None
    """The configuration of a project the new one stands inside (its commands no longer reach the outer one)."""


def _starter(name: str) -> str:
    return resources.files("rulebook").joinpath(f"starter/{name}").read_text(encoding="utf-8")


def init_project(folder: Path, title: str | None = None, source_format: str = "xml") -> Made:
    """A new project in ``folder`` (made if missing): refused if a project is configured there already.

    ``source_format``: ``xml`` (the book and the DTD, the title in the configuration) or ``markdown`` (the same
    book in the Markdown dialect, its title in its front matter: one home for it, the configuration names none)."""
    problem = path_problem(os.path.abspath(folder))
    if problem is not None:  # a name of 300 characters: an internal error, `File name too long`
        raise ScaffoldError(f"`{shorten(str(folder), 80)}` {problem}: nothing was made")
    folder = folder.resolve()
    if os.path.lexists(folder) and not folder.is_dir():  # a file or a pipe: it said "rulebook.toml: file exists"
        raise ScaffoldError(f"`{folder}` is there already, and is not a folder: nothing was made")
    existing = find_config(folder, anyone=True)
    if existing is not None and existing.parent == folder and not existing.is_file():  # a pipe, a dangling link
        raise ScaffoldError(f"`{existing}` is there already, and is no configuration: nothing was made")
    if existing is not None and existing.parent == folder:
        raise ScaffoldError(
            f"`{existing}` already configures a rulebook project here: nothing was made "
            "(to add a book to it, `rulebook new-book NAME`)"
        )
    if existing is not None:
        from rulebook.recipe.kept import projects_around

        _check_place(folder, lambda: projects_around(folder / CONFIG_FILE))
    title = _checked_title(title or _title_of(folder))
    markdown = source_format == "markdown"
    book = "rules/book.md" if markdown else "rules/book.xml"
    config = _starter("rulebook.toml")
    if markdown:  # the front matter's `title:` is the title: a second one here would silently replace it
        config = config.replace(
            "title = \"{title}\"                     # what readers see: the site's name and the home page's title\n",
            f"# The title readers see (the site's name, the home page's title) is {book}'s front matter `title:`;\n"
            "# a `title = ...` here would replace it.\n",
        )
    files: dict[str, str | bytes] = {
        CONFIG_FILE: config.replace('"{title}"', json.dumps(title, ensure_ascii=False))
        .replace("{title}", title)
        .replace('"rules/book.xml"', json.dumps(book)),
        **({book: _in_markdown(_starter("book.xml"), title)} if markdown else {book: _starter("book.xml")}),
        **({} if markdown else {"rules/rulebook.dtd": dtd_text()}),
    }
    extras: dict[str, str | bytes] = {
        ".gitignore": _starter("gitignore.txt"),
        ".pre-commit-config.yaml": _starter("pre-commit-config.yaml"),
        ".github/workflows/rulebook.yml": _starter("workflow.yml"),
        f"tools/{wheel_name()}": own_wheel(),  # what the workflow installs: the compiler is not on PyPI
    }
    taken = sorted(name for name in files if os.path.lexists(folder / name))  # a dangling link is there too
    if taken:
        raise ScaffoldError(
            f"`{folder / taken[0]}` exists already: nothing was made (init starts a new project; "
            "to add a book to this one, `rulebook new-book NAME`; or choose another folder: `rulebook init DIR`)"
        )
    kept = tuple(sorted(name for name in extras if os.path.lexists(folder / name)))
    files |= {name: text for name, text in extras.items() if name not in kept}
    _write_all(folder, files)
    return Made(folder, tuple(files), kept, existing)


def _check_place(
    folder: Path, around: Callable[[], Iterable[Project]], whose: str = "of the project around it"
) -> None:
    """Refuse a new project or book in a folder a project reads (its theme's ``custom_dir``, a pictures folder: the
    next build published the new project's configuration and wheel as theme files, the forty-first probe's note) or
    publishes into (its site): nothing is made. ``around``: the projects asked; one whose configuration cannot be
    used asks nothing here (its own build stops on it)."""
    from rulebook.errors import UserError
    from rulebook.recipe.kept import read_folders

    try:
        asked = [(project, read_folders(project)) for project in around()]
    except UserError:
        return
    for project, read in asked:
        for place, what in [(project.site_folder, "where its build publishes the site"), *read]:
            if any(folder.is_relative_to(seen) for seen in (os.path.abspath(place), os.path.realpath(place))):
                shown = os.path.relpath(place, project.root)
                raise ScaffoldError(
                    f"`{folder}` is inside `{shown}` {whose} (`{project.config_file}`), {what}: its build would take "
                    "the new files for its own; nothing was made (choose a folder outside it)"
                )


def _in_markdown(xml: str, title: str) -> str:
    """A starter book in the Markdown dialect: the XML one converted (one book to keep, not two), titled in its
    front matter."""
    from dataclasses import replace

    from rulebook.convert import convert_document
    from rulebook.xml_source import parse_xml_string

    document = parse_xml_string(xml, "book.xml").document
    assert document is not None, "the starter books are well-formed (tests/test_scaffold.py builds them)"
    return convert_document(replace(document, title=title), "markdown")


def project_format(project: Project) -> str:
    """The format a new book of the project is written in by default: its main book's (``markdown`` for the
    dialect and plain Markdown, else ``xml``)."""
    from rulebook.readers.formats import format_of

    main = project.main
    found = format_of(main.sources[0], main.format) if main.sources else None
    return "markdown" if found is not None and found.name in ("markdown", "plain-markdown") else "xml"


def add_book(
    project: Project,
    name: str,
    title: str | None = None,
    uses: Sequence[str] = (),
    source_format: str | None = None,
) -> Made:
    """A second (third...) book: its table in the configuration and a small source to start from; ``uses``: the
    books it builds on (its references resolve in them too, and the starter refers to a term of the first).

    ``source_format``: ``xml`` or ``markdown`` (None: the project's, :func:`project_format`). A Markdown book's
    title is its front matter's, and its table names none; an XML book's is in its table."""
    if project.config_file is None:
        raise ScaffoldError("there is no project here: run `rulebook init` first")
    problem = book_name_problem(name, frozenset(t.language for b in project.books for t in b.translations))
    if problem is not None:
        raise ScaffoldError(f"a book cannot be called {quoted(name)}: {problem}; choose another name")
    if any(book.name == name for book in project.books):
        raise ScaffoldError(f"the project has a book called `{name}` already")
    chapter = _main_chapter(project, name)
    if chapter is not None:
        raise ScaffoldError(
            f"a book cannot be called {quoted(name)}: the main book has a chapter of that id ({chapter}), whose page "
            f"is the site's `{name}/`, where this book would be built; choose another name"
        )
    for used in uses:
        if used not in project.names:
            raise ScaffoldError(
                f"--uses names no book of the project: {quoted(used)} (the books: {', '.join(sorted(project.names))})"
            )
    markdown = (source_format or project_format(project)) == "markdown"
    source = f"rules/{name}/book.md" if markdown else f"rules/{name}/book.xml"
    if (project.root / source).exists():
        raise ScaffoldError(f"`{project.root / source}` exists already: nothing was made")
    _check_place((project.root / source).parent, lambda: [project], "of the project")
    title = _checked_title(title or name.replace("-", " ").replace("_", " ").capitalize())
    prefix = "" if project.config_file.name == CONFIG_FILE else "tool.rulebook."
    table = f"\n[{prefix}books.{name}]\n"
    table += "" if markdown else f"title = {json.dumps(title, ensure_ascii=False)}\n"
    table += f'sources = ["{source}"]\n'
    table += f"uses = {json.dumps(list(dict.fromkeys(uses)))}\n" if uses else ""
    _check_appendable(project.config_file, table, name, source)
    xml = _new_book_xml(project, uses[0] if uses else None)
    files: dict[str, str | bytes] = {source: _in_markdown(xml, title) if markdown else xml}
    dtd = project.root / "rules" / "rulebook.dtd"  # what the XML starter's DOCTYPE names
    if not markdown and not dtd.exists():
        files["rules/rulebook.dtd"] = dtd_text()
    _write_all(project.root, files)
    with project.config_file.open("a", encoding="utf-8") as config:
        config.write(table)
    return Made(project.root, (source, project.config_file.name, *list(files)[1:]))


def _check_appendable(config_file: Path, table: str, name: str, source: str) -> None:
    """Refuse, before anything is written, a book's table the configuration cannot take at its end: ``books = {}``
    (an inline table) made ``[books.NAME]`` a second definition, the configuration (and ``pyproject.toml`` for every
    other tool) no longer TOML, with exit 0."""
    import tomllib

    from rulebook.config_file import read_config

    try:
        tomllib.loads(read_config(config_file) + table)
    except tomllib.TOMLDecodeError as error:
        raise ScaffoldError(
            f"`{config_file}` cannot take the new book's table `[books.{name}]` at its end ({error}): it writes "
            f'`books` as an inline table; add the book there yourself (`{name} = {{ sources = ["{source}"] }}`): '
            "nothing was made"
        ) from error


def _new_book_xml(project: Project, used: str | None) -> str:
    """The new book's starter in XML: with a book it uses, a sentence that refers to one of that book's terms
    (``main:term``), so that the family's link shows working from the start."""
    starter = _starter("new-book.xml")
    found = _first_term(project, used) if used is not None else None
    if found is None:
        return starter
    title, term = found
    section = (
        '    <section id="builds_on" title="Builds On">\n'
        f"      This book builds on {escape(title)}: a word such as "
        f'<reference name="{used}:{term}">{escape(term.replace("_", " "))}</reference> links to its definition '
        "there.\n    </section>\n"
    )
    end = "  </chapter>\n"
    assert starter.count(end) == 1, "the new book's starter has one chapter"
    return starter.replace(end, section + end)


def _main_chapter(project: Project, name: str) -> Span | None:
    """Where the main book has a chapter whose id is ``name`` (its page is the site's folder a book of that name
    would take: the build then stops at that chapter, ``reserved-name``), if it reads and has one."""
    from rulebook.recipe.reading import read_configured

    try:
        read = read_configured(project, project.books[0], outline=True)
    except UserError:
        return None
    chapters = (chapter for document in read.book.documents for chapter in document.body)
    return next((chapter.span for chapter in chapters if chapter.id.lower() == name), None)


def _first_term(project: Project, name: str) -> tuple[str, str] | None:
    """The title of the book ``name`` and the first term it defines, if it reads and defines one (a book that
    does not read gets no sentence: the lint says why)."""
    from rulebook.recipe.reading import read_configured, titled

    book = next(b for b in project.books if b.name == name)
    try:
        read = read_configured(project, book, outline=True)
    except UserError:
        return None
    terms = (d.name for document in read.book.documents for d in document.definitions)
    term = next(terms, None)
    return None if term is None or read.fatal else (titled(book, read).display_title, term)


def _write_all(folder: Path, files: Mapping[str, str | bytes]) -> None:
    """Every file, or none: a failure part of the way removes the files and folders made so far. None is
    written inside ``.git`` or through a folder of the project that is a link (:func:`check_written_place`)."""
    for name in files:
        check_written_place(folder / name, root=folder)
    encoded = {name: text.encode("utf-8") if isinstance(text, str) else text for name, text in files.items()}
    made: list[Path] = []  # the text is encoded before any file is made: a failure there leaves nothing behind
    try:
        for name, text in encoded.items():
            path = folder / name
            missing = [p for p in (path.parent, *path.parent.parents) if not p.exists()]
            path.parent.mkdir(parents=True, exist_ok=True)
            made += reversed(missing)
            with path.open("xb") as stream:  # never replaces a file
                made.append(path)
                stream.write(text)
    except OSError as error:
        for undone in reversed(made):
            with contextlib.suppress(OSError):
                undone.rmdir() if undone.is_dir() else undone.unlink()
        raise ScaffoldError(
            f"cannot write `{path}`: {(error.strerror or str(error)).lower()}; nothing was made"
        ) from error


def git_warnings(made: Made) -> list[str]:
    """What keeps the workflow a project was made with from running on GitHub, if it is in a Git repository: a
    ``.gitignore`` of the repository's that leaves the wheel out, or a project below the repository's root (GitHub
    runs only the workflows at the root's ``.github/workflows``)."""
    import subprocess

    from rulebook.fileio import git_environment

    def git(*args: str) -> subprocess.CompletedProcess[str] | None:
        try:
            return subprocess.run(
                ["git", *args],
                cwd=made.root,
                capture_output=True,
                encoding="utf-8",
                errors="surrogateescape",  # a repository in a folder named in bytes that are not UTF-8
                check=False,
                env=git_environment(),  # never a bare repository a pull request committed
            )
        except OSError:  # no Git here: nothing to say
            return None

    top = git("rev-parse", "--show-toplevel")
    if top is None or top.returncode != 0:
        return []
    warnings = []
    wheels = [name for name in made.files if name.startswith("tools/")]
    ignored = git("check-ignore", "--no-index", *wheels) if wheels else None
    if ignored is not None and ignored.stdout.strip():
        warnings.append(
            f"the repository's .gitignore leaves out {ignored.stdout.split()[0]}, which the workflow installs: "
            "commit it all the same (`git add -f`)"
        )
    root = Path(top.stdout.strip()).resolve()
    if ".github/workflows/rulebook.yml" in made.files and root != made.root:
        below = made.root.relative_to(root).as_posix()
        warnings.append(
            f"the project is below the repository's root ({root}): GitHub runs only the workflows in the root's "
            ".github/workflows; move rulebook.yml there, give its build job "
            f"`defaults: {{run: {{working-directory: {below}}}}}` and upload `{below}/site/`"
        )
    return warnings


def _checked_title(title: str) -> str:
    """A title fit for the configuration: one line of text (it also stands in a comment there), holding nothing a page
    or a terminal shows as a picture (a control or bidirectional character, a line separator: :func:`visible`; a
    right-to-left override was written raw into the configuration, and every page showed it as ``�``), in UTF-8 (a
    folder's name or an argument holding bytes that are not, read as lone surrogates, cannot be written into a file)."""
    from rulebook.report.escaping import visible

    if not title.strip():
        raise ScaffoldError("the title is blank: give one with --title; nothing was made")
    if visible(title) != title:
        raise ScaffoldError(
            "a title is one line of text, without control or bidirectional characters (a page shows each as a picture)"
        )
    if len(title) > LONGEST_TITLE:  # the configuration's own bound: a project every later command refused
        raise ScaffoldError(
            f"the title has {len(title):,} characters, more than the {LONGEST_TITLE} a title may have (it is on every "
            "page): give a shorter one with --title; nothing was made"
        )
    if NOT_UTF8.search(title):
        raise ScaffoldError(
            f"the title {quoted(title)} holds bytes that are not UTF-8 text (a folder's name or a --title "
            "given so): give one in UTF-8 with --title; nothing was made"
        )
    return title


def _title_of(folder: Path) -> str:
    words = re.split(r"[-_\s]+", folder.name.strip())
    return " ".join(word.capitalize() for word in words if word) or "Rulebook"
