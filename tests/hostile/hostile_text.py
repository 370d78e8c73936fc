"""A project whose every text a page shows is hostile: titles, terms, captions, cells, the configuration's values,
the French headings, the site's words. Each text carries Markdown (emphasis, a ``javascript:`` link), HTML, the
control characters its format allows and, last, an attribute list (``{... onfocus=...}``, which Python-Markdown's
``attr_list`` would make attributes of a heading).

What a page may show of them is :data:`SHOWN`: the payload as text, controls as pictures.
"""

from __future__ import annotations

import tomllib
from pathlib import Path

from rulebook.site.theme import PACKAGE_FOLDER

ATTRIBUTES = "{tabindex=0 autofocus onfocus=alert(3)}"
"""An attribute list: a heading ending in it gets the attributes, and Chromium runs the handler on load."""
MARKUP = (
    "*em* _u_ `c` [a](javascript:alert(1)) ![i](x) </title></textarea></script><img src=x onerror=alert(2)> &amp; #"
)
"""Markdown and HTML, the picture after the end tags that close a page's elements of raw text (a ``<title>``)."""
PAYLOAD = f"{MARKUP} \u0085\u202e\u2066\u200f\u061c {ATTRIBUTES}"
"""What an XML or Markdown source can hold (XML 1.0 allows the C1 and bidirectional controls: the overrides,
isolates and marks)."""
CONFIGURED = f"{MARKUP} \x1b[31m\x07\u202e\u200e {ATTRIBUTES}"
"""What a configuration value can hold (TOML escapes any control character)."""
CONTROLS = "\x1b\x07\x85\u202e\u2066\u200e\u200f\u061c"
"""The control characters the payloads hold: none may reach a page."""


def xml(text: str) -> str:
    """``text`` in an XML attribute or element."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace('"', "&quot;")


def toml(text: str) -> str:
    """``text`` as a TOML basic string."""
    escaped = "".join(c if c.isprintable() and c not in '"\\' else f"\\u{ord(c):04x}" for c in text)
    return f'"{escaped}"'


BOOK = f"""<?xml version="1.0" encoding="UTF-8"?>
<document>
<chapter id="moving" title="Moving {xml(PAYLOAD)}">
<section id="marching" title="March {xml(PAYLOAD)}">
<definition name="march">To march is to <reference name="march">move {xml(PAYLOAD)}</reference> with
<reference name="weather">weather</reference>.</definition>
<definition name="weather">Weather {xml(PAYLOAD)} is what falls: <reference name="march">march</reference>.</definition>
<table title="Weather {xml(PAYLOAD)}" roll="D6">
<row><header>1-3</header><cell>Rain {xml(PAYLOAD)}</cell></row>
<row><header>4-6</header><cell>Sun</cell></row>
</table>
<figure id="fig_one"><image source="missing.png"/><caption title="Figure {xml(PAYLOAD)}">Caption {xml(PAYLOAD)}</caption></figure>
<note title="Note {xml(PAYLOAD)}">Mind the <reference name="march">march</reference> and a <reference name="nowhere">{xml(PAYLOAD)}</reference>.</note>
<list><item title="Item {xml(PAYLOAD)}">Step {xml(PAYLOAD)}</item></list>
</section>
<section id="pace" title="Pace">A unit keeps its pace for 2 turns.</section>
</chapter>
<chapter id="afterwards" title="Later {xml(PAYLOAD)}">
<section id="later_one" title="Later one {xml(PAYLOAD)}">Text with a <reference name="weather">weather</reference>.</section>
</chapter>
</document>
"""
FRENCH = f"""# 1 Mouvement {PAYLOAD}

## 1.1 Marche {PAYLOAD}

Marcher, c'est se déplacer {PAYLOAD}. La météo {PAYLOAD} tombe.

## 1.2 Allure {PAYLOAD}

Une unité garde son allure pendant 2 tours.
"""
LATER = f"""Moving {PAYLOAD}

(Rule)
Description: To march is to move {PAYLOAD}, now faster.

March {PAYLOAD}

To march is to move {PAYLOAD}.

Pace

A unit keeps its pace for 3 turns.
"""
"""The later edition: its titles with the payload are too long to be headings of a plain-text export; `Pace` is
one, and changed (the French translation of it is out of date: the translated site's banner)."""
PLAIN = f"""# Plain chapter {PAYLOAD}

## Hit {PAYLOAD}

A hit {PAYLOAD} leads to a wound.

## Wound {PAYLOAD}

A wound follows a hit.
"""
"""A Markdown book without markup (``plain-markdown``): its terms are its headings."""
DIALECT = "<!-- rulebook -->\n" + PLAIN.replace("Plain chapter", "Dialect chapter")
"""The same in the Markdown dialect: its headings' emphasis and attribute blocks are the dialect's to read."""
CONFIG = f"""title = {toml("Game " + CONFIGURED)}
edition = {toml("Edition " + CONFIGURED)}
description = {toml("Description " + CONFIGURED + ' "><script>alert(4)</script>')}
copyright = {toml("Copyright " + CONFIGURED + "<script>alert(5)</script>")}
sources = ["rules/book.xml"]

[translations.fr]
source = "rules/fr/book.md"
format = "plain-markdown"
terms = "rules/fr/terms.toml"

[books.plain]
title = {toml("Plain " + CONFIGURED)}
sources = ["rules/plain.md"]
format = "plain-markdown"

[books.dialect]
title = {toml("Dialect " + CONFIGURED)}
sources = ["rules/dialect.md"]

[books.later]
title = {toml("Later " + CONFIGURED)}
sources = ["rules/later.txt"]
changes_from = "main"
"""
TERMS = f"""[march]
preferred = {toml("marcher")}

[weather]
preferred = {toml("météo")}
"""


MKDOCS = """markdown_extensions:
  - attr_list
  - md_in_html
  - admonition
  - fenced_code
  - tables
  - toc:
      permalink: true
"""
"""The project's MkDocs settings: the shipped extensions, with ``md_in_html`` and ``tables`` on."""


def hostile_words() -> str:
    """Every word of the site's (``strings.toml``), in every language, with the payload at its end."""
    defaults = tomllib.loads((PACKAGE_FOLDER / "strings.toml").read_text(encoding="utf-8"))
    lines = []
    for language, words in defaults.items():
        lines.append(f"[{language}]")
        lines += [f"{key} = {toml(value + ' ' + CONFIGURED)}" for key, value in words.items()]
        lines.append(f"copyright = {toml('Droits ' + CONFIGURED)}")
    return "\n".join(lines) + "\n"


def make_project(folder: Path) -> Path:
    """The hostile project in ``folder``; returns it."""
    files = {
        "rulebook.toml": CONFIG,
        "mkdocs.yml": MKDOCS,
        "rules/book.xml": BOOK,
        "rules/fr/book.md": FRENCH,
        "rules/fr/terms.toml": TERMS,
        "rules/later.txt": LATER,
        "rules/plain.md": PLAIN,
        "rules/dialect.md": DIALECT,
        "site_templates/strings.toml": hostile_words(),
    }
    for name, text in files.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(text, encoding="utf-8")
    return folder
