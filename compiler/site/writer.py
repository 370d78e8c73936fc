"""Write the site: pages and assets into a fresh MkDocs project, built with mkdocs-material.

The only module of the site that touches the disk. Everything is made in a
temporary folder beside the output; the finished site replaces the old one in
two renames, so a failed build leaves the last good site in place.
"""

from __future__ import annotations

import logging
import os
import shutil
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from jinja2 import Environment, FileSystemLoader, StrictUndefined

from compiler.errors import SiteBuildError
from compiler.site.pages import Page, SiteInput, SitePlan, build_pages, neighbourhoods
from compiler.site.svg import sprite


@dataclass(frozen=True, slots=True)
class SiteResult:
    pages: int
    warnings: tuple[str, ...]
    """What MkDocs warned about (broken links and anchors would show here)."""


def template_environment(templates: Path) -> Environment:
    return Environment(
        loader=FileSystemLoader(templates),
        autoescape=True,
        undefined=StrictUndefined,
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
    )


def build_site(
    site: SiteInput,
    *,
    project: Path,
    output: Path,
    extra_files: dict[str, str],
    image_folder: Path | None = None,
    extra_javascript: tuple[str, ...] = (),
    late_files: Callable[[], dict[str, str]] | None = None,
) -> SiteResult:
    """Build the whole site into ``output`` (replaced only when the build succeeds).

    ``extra_javascript`` names scripts among ``extra_files`` to add to every page (live reload).
    ``late_files`` gives files to add to the finished site, asked for only once MkDocs is done (they
    may still be in the making, and may refuse the build, in which case the old site stays).
    """
    env = template_environment(project / "site_templates")
    plan = SitePlan(site)
    pages, nav = build_pages(plan, env)
    output.parent.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix=f".{output.name}-build-", dir=output.parent))
    try:
        docs = work / "docs"
        _write_docs(docs, pages, site, project, extra_files, image_folder)
        warnings = _run_mkdocs(project / "mkdocs.yml", docs, work / "site", nav, extra_javascript)
        # Written straight into the built site: MkDocs would only copy them once more.
        for name, text in graph_files(plan).items():
            _write(work / "site" / name, text)
        for name, text in (late_files() if late_files is not None else {}).items():
            _write(work / "site" / name, text)
        _replace(work / "site", output)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return SiteResult(len(pages), warnings)


def _write_docs(
    docs: Path, pages: list[Page], site: SiteInput, project: Path, extra: dict[str, str], images: Path | None
) -> None:
    for page in pages:
        _write(docs / page.path, page.markdown)
    shutil.copytree(project / "site_templates" / "assets", docs / "assets")
    for name, text in extra.items():
        _write(docs / name, text)
    if images is not None:
        for file in sorted(site.images):
            (docs / "images" / file).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(images / file, docs / "images" / file)


def graph_files(plan: SitePlan) -> dict[str, str]:
    """The term-neighbourhood pictures: one SVG per initial letter."""
    groups = neighbourhoods(plan)
    return {f"graph/{file}.svg": sprite(items) for file, items in sorted(groups.items())}


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


class _Collect(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.messages.append(record.getMessage())


@contextmanager
def _mkdocs_logging() -> Iterator[_Collect]:
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


@contextmanager
def _build_date() -> Iterator[None]:
    """MkDocs dates the sitemap with SOURCE_DATE_EPOCH when set: fix it, so builds are byte-identical."""
    previous = os.environ.get("SOURCE_DATE_EPOCH")
    os.environ["SOURCE_DATE_EPOCH"] = previous or "0"
    try:
        yield
    finally:
        if previous is None:
            del os.environ["SOURCE_DATE_EPOCH"]


def _run_mkdocs(
    config_file: Path, docs: Path, site_dir: Path, nav: list[object], scripts: tuple[str, ...]
) -> tuple[str, ...]:
    from mkdocs.commands.build import build
    from mkdocs.config import load_config
    from mkdocs.exceptions import MkDocsException

    with _mkdocs_logging() as collected, _build_date():
        try:
            config = load_config(config_file=str(config_file), docs_dir=str(docs), site_dir=str(site_dir), nav=nav)
            config.extra_javascript.extend(scripts)
            build(config)
        except MkDocsException as error:
            raise SiteBuildError(f"MkDocs could not build the site: {error}") from error
    return tuple(collected.messages)


def _replace(new: Path, output: Path) -> None:
    """Put ``new`` where ``output`` is, in two renames (the old site is removed only afterwards)."""
    old = None
    if output.exists():
        old = output.with_name(f".{output.name}-old-{os.getpid()}")
        output.rename(old)
    try:
        new.rename(output)
    except OSError:
        if old is not None:
            old.rename(output)
        raise
    if old is not None:
        shutil.rmtree(old, ignore_errors=True)
