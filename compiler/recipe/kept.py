"""What no output, report or export may replace or go into: the files a project's build reads and the folders it
reads files from, its own and those of every project around the place written (one home for every writer: the
build's output, ``lint -o``, ``graph -o``, exports, ``convert -o``, baselines, waivers and status marks)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from rulebook.project import Input, Project


def kept_files(
    project: Project, target: Path, *, writing: Input | None = None, output: bool = False
) -> tuple[list[Path], list[tuple[Path, str]]]:
    """What an output, a report or an export at ``target`` may neither replace nor go into: the files the build of
    ``project`` reads (:meth:`~rulebook.project.Project.inputs`) and the folders it reads files from
    (:func:`read_folders`); when ``target`` lies in another project (a configuration above it), that project's too:
    ``lint -o ../other/site_templates/index.md.j2``, refused in one's own project, became the other's home page
    (the thirty-ninth probe), and from a project inside another, into a folder the outer one's build reads (the
    fortieth). A configuration there that cannot be read, or is another user's, refuses the place. ``writing``: the
    file a command writes in its own role (:meth:`~rulebook.project.Project.inputs`); ``output``: ``target`` is a
    build's output, made only once the settings are loaded (:func:`read_folders`)."""
    from rulebook.errors import UserError
    from rulebook.fileio import OutputError

    protected, read = list(project.inputs(writing=writing)), read_folders(project, now=not output)
    try:
        for other in projects_around(target, project):
            protected += other.inputs()
            read += read_folders(other)  # its build is not this one: it stops on nothing here
    except UserError as error:
        raise OutputError(
            f"cannot write `{target}`: it is inside another project, whose configuration cannot be used ({error})"
        ) from None
    return protected, read


def projects_around(target: Path, project: Project | None = None) -> Iterator[Project]:
    """Every project whose folder holds ``target`` (a configuration above it) as written or where links lead it, the
    nearest first, each once, but ``project``; a :class:`~rulebook.errors.UserError` for one whose configuration
    cannot be used (another user's too). Above the written place alone, ``lint -o ../via/main.html`` with ``via`` a
    link (outside every project, or committed in a third) to another project's theme folder was written there (the
    forty-fourth probe)."""
    import os

    from rulebook.config_file import find_config
    from rulebook.project import load_project

    written = Path(os.path.abspath(target)).parent
    while not os.path.isdir(written) and written != written.parent:  # the nearest folder that is there
        written = written.parent
    own = {os.path.realpath(project.root), os.path.realpath(project.config_file or project.root)} if project else set()
    seen: set[str] = set()
    for place in dict.fromkeys((written, Path(os.path.realpath(written)))):
        while (found := find_config(place, anyone=True)) is not None:  # every project around, the nearest first
            if not {os.path.realpath(found.parent), os.path.realpath(found)} & (own | seen):
                seen.add(os.path.realpath(found))
                find_config(found.parent)  # another user's is refused
                yield load_project(config_file=found)
            if found.parent == found.parent.parent:
                break
            place = found.parent.parent  # a project inside another: the outer one's folders too


def read_folders(project: Project, *, now: bool = True) -> list[tuple[Path, str]]:
    """Each folder the build reads files from, whether it exists or not, with what it is: no output may be one, hold
    one or lie inside one (:func:`rulebook.publish.check_output`), no report, export or converted source be written
    inside one (:func:`rulebook.fileio.check_report_file`): the pictures folder beside each source and
    translation, the project's templates (``site_templates/``), the folders ``mkdocs.yml`` names (the theme's
    ``custom_dir``, ``docs_dir``), the ``hooks`` it runs and the files it inherits (``INHERIT``, in turn: files,
    held to the same rule; an empty one took a report, and the next build read its keys as settings, the
    forty-fifth probe). ``-o images`` beside a
    source at the project's root, ``-o site_templates`` and ``-o overrides`` (the ``custom_dir``) were built into
    while empty, and the next build deleted the picture or ``strings.toml`` added there. Settings that cannot be
    read for the folders they name (:func:`~rulebook.site.writer.settings_naming_folders`) refuse a file written
    ``now`` (a report, an export); a build's output waits for the build, which stops on them first."""
    from rulebook.assets import IMAGES_FOLDER
    from rulebook.errors import UserError
    from rulebook.project import OVERRIDES, SITE_SETTINGS

    root = project.root
    found = [(root / OVERRIDES, "the project's templates folder")]
    for book in project.books:
        for source in (*book.sources, *(translation.source for translation in book.translations)):
            place = (source if source.is_absolute() else root / source).parent / IMAGES_FOLDER
            found.append((place, f"the pictures folder of `{source.name}`"))
    mkdocs_file = root / SITE_SETTINGS
    if _may_name_folders(mkdocs_file, root):
        from rulebook.fileio import OutputError, path_problem
        from rulebook.site.setting_paths import snippet_places
        from rulebook.site.writer import mkdocs_settings, settings_naming_folders

        inherited: list[Path] = []
        try:  # an output: the settings as the build loads them, which it stops on first when it cannot
            if now:
                settings = settings_naming_folders(mkdocs_file, inherited)
            else:
                settings = mkdocs_settings(mkdocs_file, inherited=inherited)
        except (UserError, OSError) as error:
            if not now:
                return list(dict.fromkeys(found))
            raise OutputError(
                f"{error}: the folders it names, where no report or export may go, are not known; mend it first"
            ) from None
        theme = settings.get("theme")
        named = {"theme.custom_dir": theme.get("custom_dir") if isinstance(theme, dict) else None}
        named["docs_dir"] = settings.get("docs_dir")
        found += [
            (root / value, f"the folder `mkdocs.yml` names as `{key}`")
            for key, value in named.items()
            if isinstance(value, str) and path_problem(value) is None  # `a\0b` names no place (the build says so)
        ]
        hooks = settings.get("hooks")
        found += [
            (root / hook, "a file `mkdocs.yml` names as `hooks`")
            for hook in (hooks if isinstance(hooks, list) else [])
            if isinstance(hook, str) and path_problem(hook) is None
        ]
        found += snippet_places(settings, root)
        found += [(path, "a file `mkdocs.yml` inherits (`INHERIT`)") for path in inherited]
    return list(dict.fromkeys(found))


def _folder_setting_words() -> tuple[str, ...]:
    """What a ``mkdocs.yml`` naming a folder the build reads must hold as text: a path setting's key
    (:data:`~rulebook.site.setting_paths.PATH_SETTINGS`, ``INHERIT`` among them), the snippets extension's name, or
    an escape that may spell one (``"custom\\u005fdir"``)."""
    from rulebook.site.setting_paths import PATH_SETTINGS, SNIPPETS

    return (*{keys[-1] for keys in PATH_SETTINGS}, SNIPPETS, "\\")


def _may_name_folders(path: Path, root: Path) -> bool:
    """Whether the site's settings may name a folder the build reads: only then are they read as YAML, whose
    reader costs the lint's start-up a quarter of a second (a lint with ``-o`` and a configured output)."""
    from rulebook.inputs import UnreadableInput, present, read_input_text

    if not present(path):
        return False
    try:
        text = read_input_text(path, root=root, kind="site settings")
    except UnreadableInput:
        return True  # the folders it names are not known: read for them, it refuses a report as a broken one does
    return any(word in text for word in _folder_setting_words())
