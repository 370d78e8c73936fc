"""Build a site with Zensical, mkdocs-material's successor: a command run on a project it can read.

Zensical has no Python API to build a site in-process: it runs as a command, on a configuration
file (``mkdocs.yml``) whose folder must hold the pages (``docs/``) and the built site (``site/``),
and it keeps its cache (``.cache/``) in that folder too. So each site of a book gets a project
folder of its own in the build's cache (:attr:`rulebook.publish.Release.cache`: in the user's cache
folder, never in the project, kept from one build to the next and never published): the effective
configuration and the pages are written there, ``zensical build --strict`` runs on it, what it says is
turned into our warnings, and the built site is moved into the release.
"""

from __future__ import annotations

import copy
import errno
import importlib.util
import os
import re
import shutil
import stat
import subprocess
import sys
from pathlib import Path
from typing import Any

from rulebook import state
from rulebook.errors import SiteBuildError
from rulebook.fileio import write_atomic
from rulebook.site.escaping import logo_tooltip_as_label
from rulebook.site.generator import GeneratorMissing, SiteRun

CONFIGURATION = "mkdocs.yml"
"""The configuration file Zensical reads, in the project folder."""
CACHE = ".cache"
"""The folder Zensical keeps its cache in, in the project folder."""
EXTRA = "rulebook-compiler[zensical]"
"""What installs Zensical beside the compiler."""


class Zensical:
    """The site generator Zensical: a command, its projects kept in the user's cache folder (its cache warm)."""

    title = "Zensical"
    resolves_html_links = True
    cached = True

    def require(self) -> None:
        """Refuse, in plain words, a build with Zensical where it is not installed."""
        if importlib.util.find_spec("zensical") is None:
            raise GeneratorMissing(
                f"the site generator `zensical` is not installed: install it with `pip install '{EXTRA}'`, "
                "or build with `--generator mkdocs`"
            )

    def check_settings(self, settings: dict[str, Any], *, config_file: Path) -> None:
        """Zensical checks the settings as it builds, in its own process; what the build reads of them first (the
        YAML, the paths they name) the lint has read."""

    def prepare(self, project: Path) -> Path:
        """The project folder of one site (in a folder the build made plain:
        :meth:`rulebook.publish.Release.cache_folder`), emptied of a former build's pages, site and configuration
        (its cache is kept); the folder its pages go into.
        Nothing there is followed: a link, file or pipe in place of the project folder or of its cache is deleted
        and a folder made (:meth:`rulebook.state.Folder.plain`), and the pages, site and configuration are deleted
        as entries, a link among them never a way elsewhere."""
        with state.Folder.open(project.parent) as parent, parent.plain(project.name) as folder:
            for name in ("docs", "site", CONFIGURATION):
                folder.remove(name)
            with folder.plain(CACHE):
                pass  # Zensical's cache, kept where it is a plain folder
        return project / "docs"

    def build(
        self, project: Path, run: SiteRun, site_dir: Path, *, config_file: Path, scripts: tuple[str, ...]
    ) -> tuple[str, ...]:
        """Run ``zensical build --strict`` on the project folder, then move the built site into ``site_dir``.

        What Zensical warned about comes back as our warnings; under ``--strict`` a warning stops the build,
        which is then refused with those warnings (the last good site is kept).
        """
        _write_configuration(project, configuration(run.settings, config_file, run.nav, scripts))
        done = subprocess.run(  # -P: the working folder is not put first on Zensical's import path
            [sys.executable, "-P", "-m", "zensical", "build", "--strict", "--config-file", CONFIGURATION],
            cwd=project,
            capture_output=True,
            text=True,
            encoding="utf-8",
            errors="replace",
            env={**os.environ, "NO_COLOR": "1", "CLICOLOR": "0"},
            check=False,
        )
        warnings = said(done.stdout + "\n" + done.stderr)
        if done.returncode != 0 or not (project / "site").is_dir():
            reason = "; ".join(warnings) or _reason(done.stderr) or f"exit status {done.returncode}"
            raise SiteBuildError(f"Zensical could not build the site: {reason}")
        _logo_tooltips_as_labels(project / "site")
        site_dir.mkdir(parents=True, exist_ok=True)
        for entry in sorted((project / "site").iterdir()):
            _move(entry, site_dir / entry.name)
        return warnings


def _move(entry: Path, target: Path) -> None:
    """Move an entry of the site Zensical built into the release: a rename, or where the cache is on another disk a
    copy (links copied as links, as :func:`shutil.move` does), then the entry deleted as the build deletes
    everything (:func:`rulebook.state.remove`: never across into another file system)."""
    try:
        os.rename(entry, target)
        return
    except OSError as error:
        if error.errno != errno.EXDEV:
            raise
    if entry.is_dir() and not entry.is_symlink():
        try:
            shutil.copytree(entry, target, symlinks=True, copy_function=_copy_or_stop)
        except _CopyFailed as failed:
            raise failed.error from None
        except shutil.Error as error:  # what copytree collects of the rest (a folder's times): the first, plainly
            _source, copied, reason = error.args[0][0]
            raise OSError(errno.EIO, reason, copied) from None
    else:
        shutil.copy2(entry, target, follow_symlinks=False)
    state.remove(entry)


class _CopyFailed(Exception):
    """A file's copy failed (:func:`_copy_or_stop`): the copy stops there, its error told as the system said it."""

    def __init__(self, error: OSError) -> None:
        super().__init__(error)
        self.error = error


def _copy_or_stop(source: str, target: str) -> object:
    """:func:`shutil.copy2`, stopping :func:`shutil.copytree` at the first file it cannot copy: copytree went on past
    a full disk and then raised every file's error as one list, which reached the user in Python's notation (the
    fortieth probe)."""
    try:
        return shutil.copy2(source, target)
    except OSError as error:  # named by the file written, not the one read (copy2 names both: the cache's first)
        raise _CopyFailed(OSError(error.errno, error.strerror, error.filename2 or target)) from error


def _logo_tooltips_as_labels(site: Path) -> None:
    """Each HTML page Zensical wrote, its logo's tooltip said as its label (as the MkDocs build's are:
    :func:`~rulebook.site.escaping.logo_tooltip_as_label`); links in the site it wrote are not followed."""
    for folder, _folders, names in os.walk(site):
        for name in sorted(names):
            path = Path(folder) / name
            if name.endswith(".html") and stat.S_ISREG(path.lstat().st_mode):
                page = path.read_text(encoding="utf-8")
                fixed = logo_tooltip_as_label(page)
                if fixed != page:
                    write_atomic(path, fixed)


def configuration(
    settings: dict[str, Any], project_file: Path, nav: list[Any], scripts: tuple[str, ...]
) -> dict[str, Any]:
    """The configuration Zensical builds a site with: MkDocs' for the same site, with the pages in ``docs/``
    and the site in ``site/`` beside it, Material's classic look, and paths made absolute (the configuration
    file is not in the project's folder)."""
    config = copy.deepcopy(settings)
    config.update(docs_dir="docs", site_dir="site", nav=nav)
    config["extra_javascript"] = [*(config.get("extra_javascript") or []), *scripts]
    theme = config.get("theme") or {}
    theme = dict(theme) if isinstance(theme, dict) else {"name": theme}
    theme.setdefault("variant", "classic")  # Material's look, not Zensical's new one
    if theme.get("custom_dir") and not Path(theme["custom_dir"]).is_absolute():
        theme["custom_dir"] = str(project_file.parent / theme["custom_dir"])
    config["theme"] = theme
    return config


def _write_configuration(project: Path, config: dict[str, Any]) -> None:
    import yaml

    try:
        text = yaml.safe_dump(config, allow_unicode=True, sort_keys=True)
    except yaml.YAMLError as error:
        raise SiteBuildError(f"the MkDocs settings cannot be given to Zensical: {error}") from error
    with state.Folder.open(project) as folder:
        folder.write_file(CONFIGURATION, text.encode("utf-8"))


_COLOUR = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
_WARNING = re.compile(r"^\s*(?:Warning|Error):\s*(.+)$")
_PLACE = re.compile(r"\[\s*+([^\[\]]+:\d+:\d+)\s*\]")


def said(output: str) -> tuple[str, ...]:
    """Zensical's warnings and errors, one line each: ``page.md:4:84: anchor does not exist``.

    Zensical draws each of them as a box: its message, then the place (``╭─[ page.md:4:84 ]``) and the
    source line; colour codes are taken out first.
    """
    found: list[str] = []
    message: str | None = None
    for line in _COLOUR.sub("", output).splitlines():
        warning = _WARNING.match(line)
        if warning:
            if message is not None:
                found.append(message)
            message = warning.group(1).strip()
            continue
        place = _PLACE.search(line)
        if message is not None and place:
            found.append(f"{place.group(1)}: {message}")
            message = None
    if message is not None:
        found.append(message)
    return tuple(found)


def _reason(text: str) -> str:
    """What Zensical's error output says went wrong: the error a traceback in it ends with (its last line was a
    frame of the second traceback, ``File "<frozen importlib._bootstrap>", line 1140``, for an extension
    ``mkdocs.yml`` named that is not installed), else its last line."""
    lines = [line.rstrip() for line in _COLOUR.sub("", text).splitlines() if line.strip()]
    errors = [line for line in lines if _ERROR_LINE.match(line)]
    if errors:
        error = errors[-1]
        while (inner := _WRAPPED.match(error)) is not None:  # Zensical's Rust side wraps Python's error
            error = inner.group(1)
        module = _NO_MODULE.match(error)
        if module is not None:
            return (
                f"{error}: `mkdocs.yml` names `{module.group(1)}` (a Markdown extension, or a module one imports) "
                "and no package installed provides it"
            )
        return error
    return lines[-1].strip() if lines else ""


_ERROR_LINE = re.compile(r"[A-Za-z_][\w.]*(?:Error|Exception|Interrupt|Exit)\b: ")
"""A traceback's last line: the error's name, unindented, and its message."""
_WRAPPED = re.compile(r"RuntimeError: Python error: (.+)")
_NO_MODULE = re.compile(r"ModuleNotFoundError: No module named '([^']*)'")
