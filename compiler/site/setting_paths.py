"""The folders and files a project's ``mkdocs.yml`` names stay inside the project.

``mkdocs.yml`` is the maintainers' to choose a look with, not a way out of the project: the site generator
copies a theme's ``custom_dir`` into the published site whole (``custom_dir: /etc`` published ``/etc``), reads
an ``INHERIT``'ed file, runs ``hooks`` and watches ``watch``. So each path setting is checked as written (no
``..`` or absolute path leading out) and as it resolves (no link inside the project leading out) before the
generator is given it, and a setting that leaves the project is a plain error naming the file, its line and the
key. ``docs_dir`` and ``site_dir`` are checked too, though the build sets both itself: what the file says should
be true of it.
"""

from __future__ import annotations

import os
import re
import stat
from pathlib import Path
from typing import Any

from rulebook.characters import BIDI_CONTROLS, character_class
from rulebook.errors import SiteBuildError, quoted
from rulebook.fileio import GIT_FOLDER, git_ignored, ignored_said, inside_git
from rulebook.inputs import link_refusal, named_refusal
from rulebook.report.escaping import visible

_READ = (("INHERIT",), ("theme", "custom_dir"), ("hooks",))
"""The path settings whose files the build reads, publishes or runs: none may be a file Git ignores (a CI step's
``ci-out/credentials.txt`` was published from a ``custom_dir`` the configuration named)."""
PATH_SETTINGS = (("INHERIT",), ("docs_dir",), ("site_dir",), ("theme", "custom_dir"), ("hooks",), ("watch",))
"""The settings of ``mkdocs.yml`` that name a folder or a file, each as its keys from the top (``hooks`` and
``watch`` hold lists of paths)."""


def check_setting_paths(path: Path, text: str, settings: dict[str, Any], root: Path) -> None:
    """Refuse (:class:`SiteBuildError`) a path setting of ``settings``, read from ``path`` (its ``text``), that
    leads out of ``root``, the project. A relative path is read from ``root`` (where MkDocs reads the project's
    paths from), but ``INHERIT``, which is read from the folder of the file that says it."""
    for keys in PATH_SETTINGS:
        value = _setting(settings, keys)
        base = path.parent if keys == ("INHERIT",) else root
        for item in value if isinstance(value, list) else [value]:
            if item is None:
                continue
            if not isinstance(item, str):  # `custom_dir: 5` was an internal error (Zensical's adapter read it)
                line = setting_line(text, keys)
                raise SiteBuildError(
                    f"{f'{path}:{line}' if line else path}: `{'.'.join(keys)}` names a file or folder: write its "
                    "path as text"
                )
            problem = outside(base / item, root) or _linked(base / item, root)
            if problem is None and keys == ("theme", "custom_dir"):
                problem = _link_out(base / item, root) or _ignored_inside(base / item, root)
            if problem is None and keys in _READ and git_ignored([base / item], root):  # `custom_dir: ci-out`
                problem = f"which is {ignored_said()}"
            tail = f"the folders and files {path.name} names stay inside the project"
            if problem is None and keys == ("theme", "custom_dir"):
                problem, tail = _special_inside(base / item), "take it out, or make it a file"
            if problem:
                line = setting_line(text, keys)
                place = f"{path}:{line}" if line else str(path)
                raise SiteBuildError(f"{place}: `{'.'.join(keys)}` names {quoted(item)}, {problem}: {tail}")


PLUGIN_CACHE = "cache_dir"
"""The setting of a plugin's cache folder (Material's ``privacy``, ``optimize``, ``social``, ``projects``), which
the build gives each plugin itself: a folder of its own scratch folder (:func:`plugin_caches`)."""


REWORKED = (("plugins", "search"), ("markdown_extensions", "toc"))
"""The plugin and the Markdown extension whose options the build sets for a translation's site (its search
language, its permalinks' title), each under the setting that lists it."""
_LISTED = "a list of names (each alone, or a one-key mapping of it to its options), or a mapping of names to options"


def listed(value: Any) -> list[Any]:
    """A setting MkDocs takes as a list or as a mapping of names to options (``plugins``, ``markdown_extensions``),
    as a list: each name alone, or a one-key mapping of it to its options (nothing for a value of another kind,
    which :func:`check_reworked_kinds` refuses)."""
    if isinstance(value, dict):
        return [name if options is None else {name: options} for name, options in value.items()]
    return list(value) if isinstance(value, list) else []


def check_reworked_kinds(path: Path, text: str, settings: dict[str, Any]) -> None:
    """Refuse (:class:`SiteBuildError`, at its line) a value of ``settings`` the build adds the site's own to, of a
    kind that cannot take them: ``extra: 5`` was an internal error in the lint, the build and ``serve`` (which
    ended), and a translation's ``theme.palette: 5``, ``plugins: [{search: [1]}]`` or an offline site's
    ``extra.polyfills: 5`` in the build alone (the thirty-ninth probe), and with Zensical ``extra_javascript: 5``
    (a string was split into a script a character, the fortieth). MkDocs checks the rest."""

    def refuse(keys: tuple[str, ...], expected: str) -> None:
        line = setting_line(text, keys)
        raise SiteBuildError(
            f"{f'{path}:{line}' if line else path}: `{'.'.join(keys)}` must be {expected}: the build adds the "
            "site's own to it"
        )

    scripts = settings.get("extra_javascript")  # the live-reload script added (Zensical's configuration)
    if scripts is not None and not isinstance(scripts, list):
        refuse(("extra_javascript",), "a list of scripts")
    extra = settings.get("extra")
    if extra is not None and not isinstance(extra, dict):
        refuse(("extra",), "a mapping of names to values")
    if isinstance(extra, dict) and extra.get("polyfills") is not None and not isinstance(extra["polyfills"], list):
        refuse(("extra", "polyfills"), "a list of scripts")
    theme = settings.get("theme")
    if theme is not None and not isinstance(theme, (dict, str)):
        refuse(("theme",), "a mapping of the theme's settings, or the theme's name")
    palette = theme.get("palette") if isinstance(theme, dict) else None
    if palette is not None and not (
        isinstance(palette, dict) or (isinstance(palette, list) and all(isinstance(entry, dict) for entry in palette))
    ):
        refuse(("theme", "palette"), "a mapping, or a list of mappings (one a colour scheme)")
    for key, name in REWORKED:
        listed = settings.get(key)
        if listed is None:
            continue
        if not isinstance(listed, (list, dict)):
            refuse((key,), _LISTED)
        entries = [listed] if isinstance(listed, dict) else [item for item in listed if isinstance(item, dict)]
        if any(name in entry and not isinstance(entry[name], (dict, type(None))) for entry in entries):
            refuse((key,), f"{_LISTED}; the options of `{name}` a mapping")


TEXT_LISTS = ("extra_css", "extra_templates")
"""Settings MkDocs checks only as lists: their entries, each a file's name, must be text too."""


def check_text_lists(path: Path, text: str, settings: dict[str, Any]) -> None:
    """Refuse (:class:`SiteBuildError`, at its line) an entry of a :data:`TEXT_LISTS` setting that is not text:
    MkDocs checks only the list, and ``extra_css: [5]`` passed the lint and stopped the build in Python's words
    (``argument of type 'int' is not iterable``; the forty-third probe's note)."""
    for key in TEXT_LISTS:
        entries = settings.get(key)
        if isinstance(entries, list) and not all(isinstance(entry, str) for entry in entries):
            line = setting_line(text, (key,))
            raise SiteBuildError(f"{f'{path}:{line}' if line else path}: `{key}` must be a list of file names (text)")


_CONTROLS = re.compile(
    character_class(code for code in (*range(0x20), 0x7F, *range(0x80, 0xA0), *BIDI_CONTROLS) if code not in (9, 10))
)
"""The characters no setting may hold: the C0 controls but the tab and the line break, DEL, the C1 controls and the
bidirectional controls."""


def check_control_characters(path: Path, text: str, settings: dict[str, Any]) -> None:
    """Refuse (:class:`SiteBuildError`, at its line) a string of ``settings``, a value or a key at any depth, holding
    a character of :data:`_CONTROLS`: ``extra_css: ["a\\0.css"]`` passed the lint, and the build wrote a raw NUL into
    every page's ``<head>`` (the forty-fifth probe)."""
    pending: list[tuple[tuple[str, ...], Any]] = [((), settings)]
    while pending:
        keys, value = pending.pop()
        if isinstance(value, dict):
            for key, item in value.items():
                if isinstance(key, str) and (found := _CONTROLS.search(key)):
                    _refuse_control(path, text, (*keys, key), found.group())
                pending.append(((*keys, str(key)), item))
        elif isinstance(value, list):
            pending += [(keys, item) for item in value]
        elif isinstance(value, str) and (found := _CONTROLS.search(value)):
            _refuse_control(path, text, keys, found.group())


def _refuse_control(path: Path, text: str, keys: tuple[str, ...], character: str) -> None:
    """Refuse the setting ``keys`` holding the control ``character``, at the line of its nearest key found."""
    line = nearest_setting_line(text, keys)
    kind = "a bidirectional control" if ord(character) in BIDI_CONTROLS else "a control character"
    place = f"{path}:{line}" if line else str(path)
    raise SiteBuildError(
        f"{place}: `{visible('.'.join(keys))}` holds {kind} (U+{ord(character):04X}), which would be written raw "
        "into the site's pages: write it in plain characters"
    )


def check_plugin_caches(path: Path, text: str, settings: dict[str, Any]) -> None:
    """Refuse (:class:`SiteBuildError`) a plugin's ``cache_dir`` in ``settings``, read from ``path`` (its
    ``text``): Material's ``privacy`` plugin publishes a file it finds in its cache as an external asset it
    downloaded (``cache_dir: /proc`` with ``extra_css: [https://self/environ]`` published the build's environment,
    a CI's tokens in it), and follows links committed there; the cache is the build's, never the working tree's."""
    for name, options in _plugin_options(settings.get("plugins")):
        if isinstance(options, dict) and PLUGIN_CACHE in options:
            line = setting_line(text, ("plugins",))
            raise SiteBuildError(
                f"{f'{path}:{line}' if line else path}: `plugins` gives `{name}` a `{PLUGIN_CACHE}`: the build keeps "
                "each plugin's cache itself, in a folder of its own (a cache in the working tree holds what a pull "
                "request committed there, and the plugin publishes it as downloaded); remove the setting"
            )


def check_generator_writes(path: Path, text: str, settings: dict[str, Any]) -> None:
    """Refuse (:class:`SiteBuildError`) a value of a plugin's options or of the theme's that names a place no
    relative path inside the site reaches: an absolute path (``~`` too) or one with a ``..`` part. The generator
    joins such values to the site or docs folder and writes there (``tags: {export_file: ../../.git/config}``
    replaced Git's configuration; ``theme.static_templates: [/abs/.git/config]`` wrote a ``core.fsmonitor`` command
    into it, which ``deploy``'s own ``git status`` then ran). An address (``https://...``) is not a path."""
    theme = settings.get("theme")
    places: list[tuple[str, Any]] = [
        (f"plugins.{name}", options) for name, options in _plugin_options(settings.get("plugins"))
    ]
    if isinstance(theme, dict):
        places += [(f"theme.{key}", value) for key, value in theme.items() if ("theme", key) not in PATH_SETTINGS]
    places.append(("extra_templates", settings.get("extra_templates")))  # rendered into the site by name
    for key, value in places:
        for where, item in _strings(key, value):
            if _leaves(item):
                line = _nearest_line(text, where)
                raise SiteBuildError(
                    f"{f'{path}:{line}' if line else path}: `{where}` names {quoted(item)}, a place outside the site "
                    "(an absolute path, or `..`): the site generator writes and reads only inside the site's folders; "
                    "write a path relative to them"
                )


def _nearest_line(text: str, where: str) -> int | None:
    """The line of the setting ``where`` (``theme.icon.logo``), or of the nearest setting around it that a line names
    (a plugin's options are items of the ``plugins`` list: its line)."""
    return nearest_setting_line(text, tuple(where.split(".")))


def nearest_setting_line(text: str, keys: tuple[str, ...]) -> int | None:
    """The line of ``text`` (YAML) where the setting ``keys`` is, or of the deepest setting on its way found there (a
    number among ``keys`` is an item of a list); None when not even the first is. The text is read once: each setting
    on the way read it again (a control character 95 lists deep in 150 KB: 62 s; the forty-sixth probe)."""
    import yaml

    node = _composed(text)
    if node is None:
        return None
    line = None
    for key in keys:
        if isinstance(node, yaml.MappingNode):
            found = [(name, value) for name, value in node.value if getattr(name, "value", None) == key]
            if not found:
                return line
            name, node = found[-1]
            line = name.start_mark.line + 1
        elif isinstance(node, yaml.SequenceNode) and key.isdigit() and int(key) < len(node.value):
            node = node.value[int(key)]
            line = node.start_mark.line + 1
        else:
            return line
    return line


def _strings(key: str, value: Any) -> list[tuple[str, str]]:
    """Every text in ``value`` (nested lists and mappings), with where it is, as ``key.inner.0``."""
    if isinstance(value, str):
        return [(key, value)]
    if isinstance(value, dict):
        return [found for inner, item in value.items() for found in _strings(f"{key}.{inner}", item)]
    if isinstance(value, list):
        return [found for number, item in enumerate(value) for found in _strings(f"{key}.{number}", item)]
    return []


_ADDRESS = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*://")


def _leaves(value: str) -> bool:
    """Whether a setting's text, read as a path, leads out of the folder it is joined to."""
    if _ADDRESS.match(value):
        return False
    if value.startswith(("/", "\\", "~")) or re.match(r"[A-Za-z]:[\\/]", value):
        return True
    return ".." in re.split(r"[\\/]", value)


SNIPPETS = "pymdownx.snippets"
"""The Markdown extension that writes files into pages: ``auto_append`` on every page, from ``base_path``."""


def check_snippet_files(path: Path, text: str, settings: dict[str, Any], root: Path) -> None:
    """Refuse (:class:`SiteBuildError`) a file :data:`SNIPPETS` would write into every page that the project does
    not publish: ``auto_append: [".git/config"]`` put the CI's token on every page, and ``base_path: ["/"]`` with
    ``auto_append: ["/proc/self/environ"]`` the build's environment. Each ``base_path`` (the folder the build runs
    in when none is given) and each ``auto_append`` inside it is held to the rule of the configuration's files
    (:func:`~rulebook.inputs.named_refusal`: inside the project, nothing hidden, no Git folder), and
    ``restrict_base_path`` may not be turned off (a snippet named ``../x`` then leaves the base)."""
    for name, options in _plugin_options(settings.get("markdown_extensions")):
        if name != SNIPPETS or not isinstance(options, dict):
            continue
        line = setting_line(text, ("markdown_extensions",))
        place = f"{path}:{line}" if line else str(path)
        if options.get("restrict_base_path", True) is not True:
            raise SiteBuildError(
                f"{place}: `{SNIPPETS}` may not turn `restrict_base_path` off: snippets stay in the project"
            )
        if "base_path" not in options and not options.get("auto_append"):
            continue  # only what a page names, from the folder the build runs in
        bases = options.get("base_path", ["."])
        bases = [bases] if isinstance(bases, str) else bases
        appended = options.get("auto_append", [])
        appended = [appended] if isinstance(appended, str) else appended
        for base in bases if isinstance(bases, list) else []:
            for named in [".", *(appended if isinstance(appended, list) else [])]:
                if not isinstance(base, str) or not isinstance(named, str):
                    raise SiteBuildError(f"{place}: `{SNIPPETS}` names files and folders: write each path as text")
                where = Path(os.path.abspath(Path.cwd() / base / named))
                refused = named_refusal(where, root) or _linked(where, root)
                if not refused and named != "." and git_ignored([where], root):  # a CI step's file, on every page
                    refused = f"which is {ignored_said()}"
                if refused:
                    shown = base if named == "." else f"{base}/{named}"
                    raise SiteBuildError(
                        f"{place}: `{SNIPPETS}` names {quoted(shown)}, {refused}: the files it writes into every page "
                        "stay inside the project"
                    )


def snippet_places(settings: dict[str, Any], root: Path) -> list[tuple[Path, str]]:
    """The folders :data:`SNIPPETS` reads files from (its ``base_path``, as written) and the files it writes into
    every page (``auto_append``, in each base, the project's root when none is written), with what each is: no
    report may be written there (``lint -o snips/abbr.md`` put a source's quoted line on every page)."""
    found: list[tuple[Path, str]] = []
    for name, options in _plugin_options(settings.get("markdown_extensions")):
        if name != SNIPPETS or not isinstance(options, dict):
            continue
        bases = options.get("base_path", ["."])
        bases = [bases] if isinstance(bases, str) else bases if isinstance(bases, list) else []
        appended = options.get("auto_append", [])
        appended = [appended] if isinstance(appended, str) else appended if isinstance(appended, list) else []
        for base in (base for base in bases if isinstance(base, str)):
            folder = Path(os.path.normpath(root / base))
            if "base_path" in options and folder != Path(os.path.normpath(root)):  # the root: its files are named
                found.append((folder, f"a folder `{SNIPPETS}` reads snippets from"))
            found += [
                (folder / item, f"a file `{SNIPPETS}` adds to every page") for item in appended if isinstance(item, str)
            ]
    return found


def _plugin_options(plugins: Any) -> list[tuple[str, Any]]:
    """Each plugin ``plugins`` names, with its options, in either form MkDocs takes (a list of names and one-key
    mappings, or a mapping)."""
    if isinstance(plugins, dict):
        return [(str(name), options) for name, options in plugins.items()]
    if not isinstance(plugins, list):
        return []
    found: list[tuple[str, Any]] = []
    for entry in plugins:
        if isinstance(entry, dict):
            found += [(str(name), options) for name, options in entry.items()]
    return found


def outside(path: Path, root: Path) -> str | None:
    """How ``path`` leads out of ``root``, as written or as it resolves, or None when it stays inside."""
    base = Path(os.path.abspath(root))
    try:
        written, resolved = Path(os.path.normpath(os.path.abspath(path))), Path(os.path.realpath(path))
        if not written.is_relative_to(base):
            return "which is outside the project"
        if not resolved.is_relative_to(os.path.realpath(base)):
            return "which is a link to a place outside the project"
    except (OSError, ValueError) as error:  # a NUL in the name, a name too long
        return f"which no system can open ({error})"
    if inside_git(written, resolved):  # `custom_dir: .git` published `config`, a CI's token in it
        return f"which is inside `{GIT_FOLDER}`, Git's own folder"
    return None


def _linked(path: Path, root: Path) -> str | None:
    """How ``path``, reached through a link, leads where no link of the project is followed
    (:func:`~rulebook.inputs.link_refusal`), or None."""
    refused = link_refusal(path, root)
    return f"which cannot be read: {refused}" if refused else None  # `custom_dir: look`, `look -> .secrets`


def _link_out(folder: Path, root: Path) -> str | None:
    """How a link in ``folder`` (a theme's, whose every file the generator publishes, links followed) leads where
    no link of the project is followed (:func:`~rulebook.inputs.link_refusal`: out of the project, to a hidden file
    of it, into a Git folder), or None: ``overrides/leak.txt -> /etc/hostname`` and ``overrides/env.txt -> ../.env``
    published those files."""
    for place, folders, files in os.walk(folder):  # links to folders are not walked into, but checked here
        for name in sorted(folders + files):
            entry = Path(place) / name
            problem = link_refusal(entry, root) if entry.is_symlink() else None
            if problem:
                return f"which holds `{entry.relative_to(folder)}`, {problem.removeprefix('it is ')}"
    return None


def _special_inside(folder: Path) -> str | None:
    """How a theme's folder holds an entry that is, or leads to, neither a file nor a folder (a named pipe, a device,
    a socket), or None: the generator skipped one without a word, and the override it was meant to be never
    applied."""
    for place, folders, files in os.walk(folder):
        for name in sorted(folders + files):
            entry = Path(place) / name
            try:
                mode = os.stat(entry).st_mode  # through a link too: `main.html -> ../fifos/p.fifo` was skipped alike
            except (OSError, ValueError):
                continue  # a link leading nowhere: the generator says so
            if not stat.S_ISREG(mode) and not stat.S_ISDIR(mode):
                return (
                    f"which holds `{entry.relative_to(folder)}`, neither a file nor a folder (a named pipe, a device "
                    "or a socket), which the theme skipped without a word"
                )
    return None


def _ignored_inside(folder: Path, root: Path) -> str | None:
    """How a folder the generator publishes whole (a theme's ``custom_dir``) holds a file Git ignores, or None
    (``ci-out/*`` with ``!ci-out/.gitkeep``: a CI step's ``ci-out/main.html`` became every page's template)."""
    files = [Path(place, name) for place, _, names in os.walk(folder) for name in names]
    named = next((path for path in files if not str(path.relative_to(folder)).isprintable()), None)
    if named is not None:  # a folder `404.html\n..`: published as it is, and a path Git reads as two
        return f"which holds {visible(repr(str(named.relative_to(folder))))}, a name a page cannot show as it is"
    ignored = sorted(git_ignored(files, root))
    if not ignored:
        return None
    return f"which holds `{ignored[0].relative_to(os.path.abspath(folder))}`, {ignored_said()}"


def _composed(text: str) -> Any:
    """The YAML ``text`` as nodes, with their lines (libyaml's reader where there is one: ten times Python's); None
    where it is no YAML."""
    import yaml

    try:
        return yaml.compose(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    except (yaml.YAMLError, RecursionError):
        return None


def setting_line(text: str, keys: tuple[str, ...]) -> int | None:
    """The line of ``text`` (YAML) where the setting ``keys`` is, or None when it is not found there."""
    import yaml

    node = _composed(text)
    if node is None:
        return None
    line = None
    for key in keys:
        if not isinstance(node, yaml.MappingNode):
            return None
        found = [(name, value) for name, value in node.value if getattr(name, "value", None) == key]
        if not found:
            return None
        name, node = found[-1]
        line = name.start_mark.line + 1
    return line


def _setting(settings: dict[str, Any], keys: tuple[str, ...]) -> Any:
    value: Any = settings
    for key in keys:
        value = value.get(key) if isinstance(value, dict) else None
    return value


ICON_SETTINGS = (
    ("theme", "icon"),
    ("theme", "palette", "toggle", "icon"),
    ("extra", "social", "icon"),
    ("extra", "analytics", "feedback", "ratings", "icon"),
)
"""The settings naming the theme's icons (``material/library``: a file ``.icons/material/library.svg`` of the
theme's templates or of its ``custom_dir``), as keys from the top; a list on the way holds one such setting per
item, and ``theme.icon`` a mapping of them (``admonition.note``)."""


def check_theme_icons(path: Path, text: str, settings: dict[str, Any], root: Path, folders: list[Path]) -> None:
    """Refuse (:class:`SiteBuildError`) an icon that ``settings`` (the project's ``path``, its ``text``) name and no
    folder of ``folders`` (each theme's ``.icons``) nor the ``custom_dir``'s holds: the theme stopped the build on it
    with a template's name, and no file, line or key (its message showed an ``!ENV`` value, a secret, in the log)."""
    custom = _setting(settings, ("theme", "custom_dir"))
    if isinstance(custom, str):
        folders = [root / custom / ".icons", *folders]
    for keys, name in _icons(settings, ICON_SETTINGS):
        parts = name.split("/")
        if name and not {"", ".", ".."} & set(parts) and any((folder / f"{name}.svg").is_file() for folder in folders):
            continue
        line = setting_line(text, keys) or setting_line(text, keys[:2])
        shown = "an icon" if "!ENV" in text else f"the icon {quoted(name)}, which"  # an environment's value unshown
        raise SiteBuildError(
            f"{path}:{line or 1}: `{'.'.join(keys)}` names {shown} the theme does not have: name one of "
            "https://squidfunk.github.io/mkdocs-material/reference/icons-emojis/ (`material/library`), or put "
            "its SVG in the theme's `custom_dir`, under `.icons/`"
        )


def _icons(settings: Any, settings_keys: tuple[tuple[str, ...], ...]) -> list[tuple[tuple[str, ...], str]]:
    """Each icon name the settings give, with the keys it is under."""
    found: list[tuple[tuple[str, ...], str]] = []

    def walk(value: Any, keys: tuple[str, ...], rest: tuple[str, ...]) -> None:
        if isinstance(value, list):
            for item in value:
                walk(item, keys, rest)
        elif not rest:
            if isinstance(value, dict):  # theme.icon: a mapping of icons, at any depth
                for key, item in value.items():
                    walk(item, (*keys, str(key)), ())
            elif isinstance(value, str):
                found.append((keys, value))
        elif isinstance(value, dict) and rest[0] in value:
            walk(value[rest[0]], (*keys, rest[0]), rest[1:])

    for keys in settings_keys:
        walk(settings, (), keys)
    return found
