"""Terms for sources without markup: found in headings (or given), defined there, linked in the text.

A rulebook written in plain Markdown marks no terms. Here each section heading below the top level
(or each name given by configuration) becomes a term: the section's first paragraph is its
definition. Then every place the text uses a term (case and plural tolerant, longest match first:
"Defense Roll" before "Defense") becomes a reference, never inside a heading or an existing link.
A passage is left alone when its section's title is listed in ``skip``.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Generic, TypeVar

from rulebook.model import (
    Content,
    Definition,
    Document,
    ItemList,
    LineBreak,
    Node,
    Reference,
    Section,
    Table,
    annotated_in,
    map_children,
    take_back,
)
from rulebook.names import singular, slugify
from rulebook.source import SourceText


@dataclass(frozen=True, slots=True)
class Term:
    id: str
    name: str
    """The name as the heading writes it."""


def term_id(name: str) -> str:
    words = slugify(name).split("-")
    words[-1] = singular(words[-1])
    return "_".join(w for w in words if w)


def heading_terms(document: Document, *, min_level: int = 2, names: tuple[str, ...] = ()) -> list[Term]:
    """Terms from the given names, else from the headings at ``min_level`` and below that the text uses or a
    mechanic annotation names: a heading the text never says ("Using Cover" without an annotation, "Examples")
    names a section, not a term."""
    if names:
        return [Term(term_id(n), n) for n in names]
    annotated = {m.name for m in document.mechanics}
    headed = [s for s in document.sections if s.level >= min_level and s.title]
    said = _said_titles(headed)
    seen: dict[str, Term] = {}
    for section in headed:
        if term_id(section.title) in annotated or id(section) in said:
            seen.setdefault(term_id(section.title), Term(term_id(section.title), section.title))
    return list(seen.values())


T = TypeVar("T")

MAX_TITLE_TOKENS = 24
"""The most words and signs a heading may have to name a term (a longer one names a section): it bounds the
phrases the text is searched for at each of its words, so that the search stays linear."""


def _said_titles(sections: list[Section]) -> set[int]:
    """The sections (by ``id``) whose title (or its singular) the book's text says anywhere but in the heading
    itself (as :class:`_Phrases` finds a phrase said). Read once, in time linear in the text."""
    said: set[int] = set()
    for source in {id(s.source): s.source for s in sections}.values():
        tree: _Phrases[Section] = _Phrases()
        for section in (s for s in sections if s.source is source):
            title = "".join(c for c in section.title if unicodedata.category(c)[0] != "C").strip()  # as read
            for form in {title, _singular_phrase(title)} if title else ():
                tree.add(form, section)
        text = source.text
        tokens = list(_tokens(text))
        for index, (_, _, start, _) in enumerate(tokens):
            for node, _ in tree.ends(text, tokens, index):
                node.held = _heard(node.held, start, said)
    return said


_TOKEN = re.compile(r"\w+|[^\w\s]")
"""A word, or one sign: what a title and the text are compared by."""
_WORD = re.compile(r"\w")
_WORD_PART = re.compile(r"[\w-]")
"""What may not touch a said title on either side."""
_SUFFIXES = ("s", "es", "x")
"""What a use of a title may end with besides it (its plural: "Sprints", "Boxes")."""


_SAME_LETTERS = str.maketrans({"ς": "σ", "ſ": "s", "ı": "i"})
"""Letters a pattern that ignores case takes for the same besides their lower case (``re``'s extra cases):
final sigma, long s, dotless i. Unlike ``casefold``, "Maße" is not "MASSE", as no pattern ever took it."""


def _tokens(text: str) -> Iterator[tuple[str, bool, int, int]]:
    """The words and signs of ``text``: each in lower case (:data:`_SAME_LETTERS` made one), whether it follows
    the one before with no white space between, and where it starts and ends."""
    for match in _TOKEN.finditer(text):
        glued = match.start() > 0 and not text[match.start() - 1].isspace()
        yield match.group().lower().translate(_SAME_LETTERS), glued, match.start(), match.end()


class _Phrases(Generic[T]):
    """Phrases (titles, a term's forms) as a tree of their tokens: a path from the root spells a phrase, and its
    last node holds what the phrase stands for. A phrase is said in a text where its tokens stand, case aside,
    any run of white space for one, the last maybe with a plural ending, between neither a letter nor a hyphen:
    what a pattern ignoring case, ``\\s+`` between the words and ``(?:s|es|x)?`` at the end found. Walked from each
    token of the text for at most :data:`MAX_TITLE_TOKENS` steps, the search is linear in the text, where a
    pattern of every phrase was tried at each place of it (each title through the whole text, every form in one
    alternation: 20,000 of either took minutes)."""

    __slots__ = ("held", "next")

    def __init__(self) -> None:
        self.next: dict[tuple[str, bool], _Phrases[T]] = {}
        self.held: list[T] = []

    def add(self, phrase: str, item: T) -> None:
        """Hold ``item`` at the end of ``phrase`` (a phrase of more than :data:`MAX_TITLE_TOKENS` tokens is never
        said: it names a section, it is no term)."""
        steps = [(token, glued and index > 0) for index, (token, glued, _, _) in enumerate(_tokens(phrase))]
        if not steps or len(steps) > MAX_TITLE_TOKENS:
            return
        node = self
        for step in steps:
            node = node.next.setdefault(step, _Phrases())
        node.held.append(item)

    def ends(
        self, text: str, tokens: list[tuple[str, bool, int, int]], index: int
    ) -> Iterator[tuple[_Phrases[T], int]]:
        """Each phrase ``text`` says from its token ``index`` (``tokens``: :func:`_tokens` of it): its node, and
        where the use ends (its plural ending included)."""
        start = tokens[index][2]
        if start > 0 and _WORD_PART.match(text, start - 1):
            return  # a use may not start after a letter or a hyphen
        node = self
        for step in range(index, min(index + MAX_TITLE_TOKENS, len(tokens))):
            token, glued, _, _ = tokens[step]
            glued = glued and step > index
            for cut, end in _endings(text, tokens, step):
                found = node.next.get((cut, glued))
                if found is not None and found.held:
                    yield found, end
            following = node.next.get((token, glued))
            if following is None:
                return
            node = following


def _endings(text: str, tokens: list[tuple[str, bool, int, int]], step: int) -> Iterator[tuple[str, int]]:
    """The ways the token ``step`` can end a phrase: as it is, or without a plural ending it has, where nothing
    that continues a word follows; a sign also with a plural ending of its own after it (``(Optional)s``). Each
    with where the use ends."""
    token, _, _, end = tokens[step]
    if _ends_use(text, end):
        yield token, end
        for suffix in _SUFFIXES:
            if token.endswith(suffix) and len(token) > len(suffix):
                yield token[: -len(suffix)], end
    if step + 1 < len(tokens) and not _WORD.match(token):
        suffix, glued, _, after = tokens[step + 1]
        if glued and suffix in _SUFFIXES and _ends_use(text, after):
            yield token, after


def _ends_use(text: str, end: int) -> bool:
    """Whether a use of a phrase may end at ``end`` of the text (no letter or hyphen follows)."""
    return end == len(text) or not _WORD_PART.match(text, end)


def _heard(waiting: list[Section], start: int, said: set[int]) -> list[Section]:
    """A phrase said at ``start``: each section waiting for it is said, unless that is its own heading; the
    sections still waiting."""
    still = []
    for section in waiting:
        if section.offset <= start < _heading_end(section):
            still.append(section)
        else:
            said.add(id(section))
    return still


def _heading_end(section: Section) -> int:
    """Where a section's heading line ends in its source, whatever ends it (a search for ``\n`` found none in a
    source whose lines end in ``\r`` alone, so the heading's own title was taken for the text saying it: every
    heading became a term)."""
    return max(section.source.line_around(section.offset)[1], section.offset + len(section.title))


_EMPHASIS = re.compile(r"(\*\*|__|\*|_)(?=\S)([^*_\n]{1,60}?)(?<=\S)\1(?![\w*])")


def emphasis_terms(document: Document) -> list[Term]:
    """Terms from the words the source emphasises (``**Hit**``, ``*Hit*``), in order of first use."""
    if not document.sections:
        return []
    seen: dict[str, Term] = {}
    for match in _EMPHASIS.finditer(document.sections[0].source.text):
        name = " ".join(match.group(2).split())
        if len(name.split()) <= 4 and name[-1] not in ".:;!?":
            seen.setdefault(term_id(name), Term(term_id(name), name))
    return list(seen.values())


def link_document(document: Document, terms: list[Term], *, skip: tuple[str, ...] = ()) -> Document:
    """The document with its terms defined and linked wherever the text uses them.

    A term named by a section's heading is defined by that section's first paragraph; any other
    (given by configuration, or emphasised in the text) by the first paragraph that uses it.
    """
    if not document.sections or not terms:
        return document
    forms = {_singular_phrase(t.name): term_id(_singular_phrase(t.name)) for t in terms}
    titles = {s.title.lower() for s in document.sections}
    linker = _Linker(forms, document.sections[0].source, {t.name.lower(): t for t in terms}, skip)
    linker.first_use = {t.id for t in terms if t.name.lower() not in titles}
    return _relinked(document, linker)


def link_references(document: Document, forms: Mapping[str, str], *, skip: tuple[str, ...] = ()) -> Document:
    """The document with every use of a known form linked to its term id, defining nothing.

    For a translation: ``forms`` maps each translated term ("unité", "rang complet") to the
    original's term id, so the translated text links to the original's definitions. A form mapped
    to ``""`` is matched and left as text: "unité de mesure" is no use of "unité".
    """
    if not document.sections or not forms:
        return document
    return _relinked(document, _Linker(forms, document.sections[0].source, {}, skip))


def _relinked(document: Document, linker: _Linker) -> Document:
    ends = _Ends([s.offset for s in document.body], None)
    body = tuple(linker.section(s, ends.after(index, linker.cursor)) for index, s in enumerate(document.body))
    sections = tuple(sorted(_flatten(body), key=lambda s: s.offset))
    return replace(  # what linking does not touch (links, values, the title...) kept as read
        document,
        body=body,
        sections=sections,
        definitions=tuple(sorted(linker.definitions, key=lambda d: d.offset)),
        references=tuple(sorted(linker.references, key=lambda r: r.offset)),
        annotated=annotated_in(body),
    )


class _Linker:
    def __init__(
        self, forms: Mapping[str, str], source: SourceText, by_title: dict[str, Term], skip: tuple[str, ...]
    ) -> None:
        self.source = source
        self.by_title = by_title
        self.skip = {s.lower() for s in skip}
        longest_first = sorted(forms, key=_longest_first)
        self.forms: _Phrases[str] = _Phrases()
        for form in longest_first:
            self.forms.add(form, form)
        self.ids = {" ".join(f.lower().split()): forms[f] for f in reversed(longest_first)}
        self.definitions: list[Definition] = []
        self.references: list[Reference] = []
        self.cursor = 0
        self.lost = False
        """Whether a text since the last place known (a paragraph's, an item's, a cell's) was not found: the texts after
        it are not looked for (each search reads to where its paragraph ends: one for each was quadratic)."""
        self.first_use: set[str] = set()
        """Terms no heading names: the first paragraph that uses one defines it."""

    def section(self, section: Section, end: int | None) -> Section:
        """The section linked; its texts looked for in the source before ``end`` (where the next section starts)."""
        self._known_place(section.offset)
        term = self.by_title.get(section.title.lower())
        skipped = section.title.lower() in self.skip
        children: list[Node] = []
        defined = False
        ends = _Ends([getattr(node, "offset", None) for node in section.children], end)
        for index, node in enumerate(section.children):
            if isinstance(node, LineBreak):  # where a paragraph starts
                self._known_place(node.offset)
            limit = ends.after(index, self.cursor)
            if isinstance(node, Section):
                children.append(self.section(node, limit))
            elif isinstance(node, ItemList | Table) and not skipped:
                # The text of each item or cell (a profile's row names its characteristic); declared, the list or
                # table stays so: annotated_in finds it.
                children.append(self._link_parts(node, section.id, limit))
            elif isinstance(node, str) and node.strip() and not skipped:
                # Only the first paragraph is the definition; the rest of the section uses the term.
                first_uses = self._first_uses_in(node)
                defines = term.id if term is not None and not defined else (first_uses.pop(0) if first_uses else None)
                start = self._find(node, limit)  # before linking moves the cursor past the paragraph
                parts = self._link(node, section.id, defines, limit)
                parts = self._define_in_place(parts, set(first_uses), section.id)
                if defines is not None:
                    definition = Definition(defines, tuple(parts), section.id, None, self.source, start)
                    self.definitions.append(definition)
                    children.append(definition)
                    defined = defined or term is not None
                else:
                    children.extend(parts)
            else:
                children.append(node)
        if term is not None and not defined:
            children = self._define_by_first_block(term, section, children)
        return section._replace(children=tuple(children))

    def _first_uses_in(self, text: str) -> list[str]:
        """The terms of ``first_use`` this paragraph uses, in order: it defines them."""
        found: list[str] = []
        if not self.first_use:
            return found
        for _, _, written in self._uses(text):
            name = self._id_of(written)
            if name in self.first_use:
                self.first_use.discard(name)
                found.append(name)
        return found

    def _define_in_place(self, parts: Content, names: set[str], section_id: str) -> Content:
        """The first use of each of ``names`` in a paragraph another term's definition holds: a definition
        of its own, nested where it stands."""
        if not names:
            return parts
        out: list[Node] = []
        defining: list[Reference] = []
        for part in parts:
            if isinstance(part, Reference) and part.name in names:
                names.discard(part.name)
                defining.append(part)
                definition = Definition(part.name, (part.text,), section_id, None, self.source, part.offset)
                self.definitions.append(definition)
                out.append(definition)
            else:
                out.append(part)
        take_back(self.references, defining)  # the uses became the definitions
        return tuple(out)

    def _define_by_first_block(self, term: Term, section: Section, children: list[Node]) -> list[Node]:
        """A section that opens with a list or a subsection: its first block (or nothing) defines it."""
        index = next((i for i, n in enumerate(children) if not isinstance(n, Section | str)), None)
        content: Content = (children[index],) if index is not None else ()
        offset = getattr(children[index], "offset", section.offset) if index is not None else section.offset
        definition = Definition(term.id, content, section.id, None, self.source, offset)
        self.definitions.append(definition)
        if index is None:
            return [definition, *children]
        return [*children[:index], definition, *children[index + 1 :]]

    def _link_parts(self, node: ItemList | Table, section_id: str, end: int | None) -> Node:
        """The list or table with the text of each item or cell linked, looked for from its place to the next's."""
        if isinstance(node, ItemList):
            places = [item.offset for item in node.items]
        else:
            places = [
                cell.offset for row in ((node.columns,) if node.columns else ()) + node.rows for cell in row.cells
            ]
        ends = _Ends(places, end)
        index = iter(range(len(places)))

        def linked(content: Content) -> Content:
            at = next(index)
            self._known_place(places[at])
            return self._link_all(content, section_id, ends.after(at, self.cursor))

        return map_children(node, linked)

    def _link_all(self, content: Content, section_id: str, end: int | None) -> Content:
        linked: list[Node] = []
        for node in content:
            linked.extend(
                self._link(node, section_id, None, end) if isinstance(node, str) and node.strip() else (node,)
            )
        return tuple(linked)

    def _link(self, text: str, section_id: str, definition: str | None, end: int | None) -> Content:
        start = self._find(text, end)
        parts: list[Node] = []
        position = 0
        for begin, end, written in self._uses(text):
            name = self._id_of(written)
            if not name:
                continue  # a phrase that is no use of a term
            parts.append(text[position:begin])
            reference = Reference(name, written, None, section_id, definition, self.source, start + begin)
            self.references.append(reference)
            parts.append(reference)
            position = end
        parts.append(text[position:])
        self.cursor = start + len(text)
        return tuple(p for p in parts if p != "")

    def _uses(self, text: str) -> Iterator[tuple[int, int, str]]:
        """Where ``text`` uses a form, as written: at the first place one is said, the longest said there (then
        the first in alphabetical order), and on from where it ends (what one pattern of every form found)."""
        tokens = list(_tokens(text))
        after = 0
        for index, (_, _, start, _) in enumerate(tokens):
            if start < after:
                continue
            said = [(form, end) for node, end in self.forms.ends(text, tokens, index) for form in node.held]
            if said:
                _, end = min(said, key=lambda found: _longest_first(found[0]))
                yield start, end, text[start:end]
                after = end

    def _id_of(self, written: str) -> str:
        """The term a match names: the form as written, else without the plural ending it matched with."""
        lowered = " ".join(written.lower().split())
        for ending in ("", "s", "x", "es"):
            if lowered.endswith(ending) and lowered[: len(lowered) - len(ending)] in self.ids:
                return self.ids[lowered[: len(lowered) - len(ending)]]
        return term_id(written)

    def _known_place(self, offset: int) -> None:
        """The source's place of what comes next (a section, paragraph, item or cell): texts are looked for from it."""
        if offset > self.cursor:
            self.cursor, self.lost = offset, False

    def _find(self, text: str, end: int | None) -> int:
        """Where a text run stands in the source, searching forward (runs come in order) up to ``end`` (where
        what follows it stands); at the cursor if it is not found, as are the runs after it up to the next known
        place."""
        probe = text.strip()[:40]
        found = -1 if self.lost or not probe else self.source.text.find(probe, self.cursor, end)
        if found == -1:
            self.lost = True
            return self.cursor
        return found - (len(text) - len(text.lstrip()))


def _singular_phrase(name: str) -> str:
    """ "Defense Rolls" -> "Defense Roll": the text says both."""
    words = name.split()
    return " ".join([*words[:-1], _singular_word(words[-1])]) if words else name


def _singular_word(word: str) -> str:
    lowered = singular(word.lower())
    return word[: len(lowered)] if word.lower().startswith(lowered) else lowered


def _longest_first(form: str) -> tuple[int, str]:
    """The order forms are tried in where several are said at one place: the longest ("Defense Roll" before
    "Defense"), then alphabetical."""
    return -len(form), form


def _flatten(sections: tuple[Section, ...]) -> list[Section]:
    found: list[Section] = []
    for section in sections:
        found.append(section)
        found += _flatten(tuple(n for n in section.children if isinstance(n, Section)))
    return found


class _Ends:
    """Where the search for the text of each of some nodes ends: at the first node after it placed past the cursor
    (the text stands before it), else at ``last``. One walk forward over the places, as the cursor only grows."""

    def __init__(self, places: Sequence[int | None], last: int | None) -> None:
        self.places = places
        self.last = last
        self.next = 0

    def after(self, index: int, cursor: int) -> int | None:
        self.next = max(self.next, index + 1)
        while self.next < len(self.places):
            place = self.places[self.next]
            if place is not None and place > cursor:
                return place
            self.next += 1
        return self.last
