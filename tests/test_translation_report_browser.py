"""The translation report in a real browser: its filter by kind and severity, and its line links, work offline."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from rulebook.cli import main

from .conftest import BUNDLED_BOOK, ROOT, serve

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def report_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    folder = tmp_path_factory.mktemp("report")
    out = folder / "report.html"
    import contextlib
    import io

    buffer = io.StringIO()
    with contextlib.redirect_stdout(buffer):
        main(["compare", str(BUNDLED_BOOK), str(ROOT / "rulebook_src" / "fr" / "rulebook.md"), "--format", "html"])
    out.write_text(buffer.getvalue(), encoding="utf-8")
    with serve(folder) as url:
        yield url + "report.html"


@pytest.fixture
def page(chromium: Any, report_url: str) -> Iterator[Any]:
    context = chromium.new_context(viewport={"width": 1280, "height": 900})
    tab = context.new_page()
    outside: list[str] = []
    errors: list[str] = []
    tab.on("request", lambda request: outside.append(request.url) if "127.0.0.1" not in request.url else None)
    tab.on("pageerror", lambda error: errors.append(str(error)))
    tab.goto(report_url)
    yield tab
    assert not outside and not errors
    context.close()


def visible(page: Any, selector: str) -> int:
    return int(page.locator(selector).evaluate_all("els => els.filter(e => e.offsetParent !== null).length"))


def test_the_filter_hides_a_kind_and_rows_without_findings(page: Any) -> None:
    spacing = '.rb-finding[data-kind="punctuation-spacing"]'
    assert visible(page, spacing) == 14
    page.locator('.rb-filter input[value="punctuation-spacing"]').uncheck()
    assert visible(page, spacing) == 0
    assert visible(page, '.rb-finding[data-kind="comparison-differs"]') == 4  # the seed's four
    rows = visible(page, "tr.rb-row")
    page.locator('.rb-filter input[name="only"]').check()
    assert 0 < visible(page, "tr.rb-row") < rows
    page.locator('.rb-filter input[value="error"]').uncheck()
    assert visible(page, '.rb-finding[data-severity="error"]') == 0


def test_a_line_number_opens_the_source_at_that_line(page: Any) -> None:
    link = page.locator("tr.rb-row a.rb-line", has_text="233").first
    link.click()
    line = page.locator("#src-fr-233")
    assert line.is_visible() and "rb-target" in (line.get_attribute("class") or "")
    assert "au moins" in line.inner_text()


def test_the_index_of_findings_jumps_to_both_texts_without_javascript(chromium: Any, report_url: str) -> None:
    context = chromium.new_context(viewport={"width": 1280, "height": 900}, java_script_enabled=False)
    tab = context.new_page()
    tab.goto(report_url)
    entry = tab.locator(".rb-index li", has_text="comparison-differs").first
    entry.locator("a").first.click()
    target = tab.locator(".rb-finding:target")
    assert target.count() == 1 and "comparison-differs" in target.inner_text()
    row = target.locator("xpath=ancestor::tr[1]/preceding-sibling::tr[1]")
    assert "au moins" in row.inner_text() and "more than" in row.inner_text()  # both sentences, side by side
    entry.locator("small a").first.click()  # the translation's line, in its source
    assert tab.locator("#src-fr-233").is_visible()
    context.close()
