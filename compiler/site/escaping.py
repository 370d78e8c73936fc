"""Text from the sources and the configuration, made safe for each context a page puts it in.

A page is Markdown (headings, for the table of contents and search) around HTML we render
ourselves, inside MkDocs' and Material's own HTML (the site's name, the navigation, the footer).
Each context reads different characters as markup:

- **HTML** (the blocks of :mod:`rulebook.site.html`, the templates' HTML): ``&``, ``<``, ``>`` and
  quotes; the templates escape them (jinja2's autoescape), and so does :func:`html_text` for the
  values MkDocs and Material write into their templates without escaping (site name, copyright
  line, description, page and navigation titles).
- **Markdown** (a heading's text): besides the HTML characters, the backslash, emphasis, code,
  links and images, ``#``, and the braces of an attribute list (``attr_list``: a title ending in
  ``{onfocus=...}`` would give the heading that attribute). :func:`markdown_text` escapes them.

In every context, the control characters (ESC, BEL, the C1 controls) and the bidirectional
controls (U+202A-202E, U+2066-2069, and the marks U+200E, U+200F, U+061C) are shown as visible
pictures, as the terminal reports show them (:mod:`rulebook.report.escaping` holds the mapping): a
page never carries a character that drives a terminal or reorders what a reader sees.
"""

from __future__ import annotations

import html
import html.entities
import re

from markupsafe import Markup, escape

from rulebook.report.escaping import visible, visible_in_text

_BACKSLASHED = re.compile(r"([\\`*_{}\[\]()#+\-.!])")
"""What Python-Markdown reads as markup in a line and lets a backslash escape (its ``ESCAPED_CHARS``):
the backslash, code, emphasis, attribute lists, links and images, headings and list markers.
``<``, ``>`` and ``&`` are HTML's: :func:`markdown_text` escapes them as HTML (a backslash before
``&gt;`` would show)."""
_SPACES = re.compile(r"[^\S\u00a0\u202f]+")
"""A run of white space, line ends included (a heading is one line), but for the spaces that must not break."""
_ENTITIES = {ord("|"): "&#124;"}
"""What an extension reads as markup but Python-Markdown does not let a backslash escape unless the
extension is on (``tables``): written as a character reference, which every configuration shows."""


def markdown_text(text: str) -> Markup:
    """``text`` as literal text in a Markdown line (a heading): one line, every character Markdown, its
    ``attr_list`` and ``md_in_html`` extensions or HTML could read as markup escaped, controls as pictures.

    Markdown shows it as ``text``, and the heading's anchor (``toc``) is made from the same words.
    """
    line = _SPACES.sub(" ", visible_in_text(text)).strip(" ")
    return Markup(str(escape(_BACKSLASHED.sub(r"\\\1", line))).translate(_ENTITIES))


def html_text(text: str, *, quotes: bool = True) -> Markup:
    """``text`` as literal text in HTML, in an element or an attribute, controls as pictures: for the values
    MkDocs and Material write into their pages unescaped (site name, copyright, description, titles).

    ``quotes=False``: for text only ever written between tags, where quotes are text (``n'existe``).
    """
    if quotes:
        return escape(visible(text))
    return Markup(html.escape(visible(text), quote=False))


_THEME_MARKUP = {ord("<"): "&lt;", ord(">"): "&gt;", ord('"'): "&quot;"}
"""What could open markup in the theme's HTML or end one of its attributes (all double-quoted)."""
_REFERENCE_START = re.compile(
    "&(?=#|" + "|".join(re.escape(name) for name in sorted(html.entities.html5, key=len, reverse=True)) + ")"
)
"""An ``&`` that starts a character reference: a number (``&#60;``), or a name HTML knows, with its ``;`` or, for
the names HTML reads without it, as the start of a word (``&amp;``, ``&copy``, ``&ltb``). Another ``&`` is text to a
browser (``R&D``, ``AT&T``, ``B&B;``), and escaped the theme's ``|e`` showed ``R&amp;D`` in a logo's tooltip and
read "AT&amp;T" to a screen reader."""


def theme_text(text: str) -> str:
    """``text`` for the values the theme writes both as they are and through its ``|e`` (the site's name, the
    navigation's titles: a logo's tooltip, the footer's labels): controls as pictures, and ``<``, ``>``, ``"`` and an
    ``&`` that may start a character reference as references, which is all that is markup there. Any other ``&``
    and ``'`` stay themselves: escaped, the theme's ``|e`` showed their references to every reader ("Guns &amp;
    Glory" as the logo's tooltip)."""
    return _REFERENCE_START.sub("&amp;", visible(text)).translate(_THEME_MARKUP)


_LOGO_TOOLTIP = re.compile(r'( title=")[^"<>]*(" class="md-(?:header|nav)__button md-logo" aria-label=")([^"<>]*)(")')
"""The theme's logo link (in the header and in the navigation's title): its tooltip, written through ``|e``, then its
label, written as it is; both hold the site's name as :func:`theme_text` made it."""


def logo_tooltip_as_label(page: str) -> str:
    """A page the theme wrote, its logo's tooltip made the same text as the logo's label: the one place the theme
    writes the site's name through ``|e``, where :func:`theme_text`'s ``&amp;`` (before a name that a reference could
    start with: a title holding ``&amp`` as typed) showed as ``&amp;amp``. The label is the site's name as
    :func:`theme_text` made it (no ``"``, ``<`` or ``>``), so it is safe in the tooltip's quotes too."""
    return _LOGO_TOOLTIP.sub(r"\1\3\2\3\4", page)


_MARKDOWN_OPENERS = {ord("{"): "&#123;", ord("}"): "&#125;", ord("["): "&#91;", ord("]"): "&#93;"}
"""What a Markdown line reads as the start or end of an attribute list, a link or an image, as character references:
HTML shows them as the characters, Markdown reads them as text."""


def template_text(text: str) -> Markup:
    """``text`` as a template writes it when no filter said how (``{{ chapter.title }}``): escaped for HTML, controls
    as pictures, and the braces and brackets as character references, so that it is text in HTML and in a Markdown
    line alike. A project's own template that puts a title in a heading without :func:`markdown_text`
    (``# {{ book.title }}``) then gives it no attribute list (``{onfocus=...}``) and no link
    (``[a](javascript:...)``)."""
    return Markup(str(escape(visible_in_text(text))).translate(_MARKDOWN_OPENERS))


def escaped_by_filter(value: object) -> Markup:
    """The ``e`` and ``escape`` filters of the site's templates: jinja2's made markup of a text with its braces and
    brackets as they were, which a Markdown line read (``# {{ book.title|e }}``: ``*a*{onclick=...}`` became an
    ``<em onclick>``); text is now written as :func:`template_text` writes it, markup left as it is."""
    return value if isinstance(value, Markup) else template_text(str(value))


def force_escaped_by_filter(value: object) -> Markup:
    """The ``forceescape`` filter: markup escaped too (as jinja2's), written as :func:`template_text` writes text."""
    return template_text(str(value))


_JSON_STRING = re.compile(r'"(?:[^"\\]|\\.)*"')
_JSON_OPENERS = {ord("{"): "\\u007b", ord("}"): "\\u007d", ord("["): "\\u005b", ord("]"): "\\u005d"}


def json_in_page(dumped: Markup) -> Markup:
    """JSON the ``tojson`` filter made, its strings' braces and brackets as JSON's escapes (the same value to a
    script), so that a Markdown line makes no attribute list or link of them (``{{ title|tojson }}``)."""
    return Markup(_JSON_STRING.sub(lambda found: found.group().translate(_JSON_OPENERS), str(dumped)))
