"""The terms of the rule data: names, definitions, places, uses and translations; and the site's anchors."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Collection, Iterable, Mapping

from rulebook.data.content import content_json
from rulebook.data.shapes import DefinedAt, TermData, TermSummary, TermTranslation
from rulebook.graph import TermGraph
from rulebook.model import Definition, Reference
from rulebook.names import is_identifier

Translations = Mapping[str, Mapping[str, Mapping[str, str]]]
"""Per term id, per language code: the translated ``name`` and, where aligned, ``text``."""


def term_names(terms: TermGraph, outside: Collection[str] = ()) -> list[str]:
    """Every term defined or referred to, sorted; but the names another book defines (``outside``)."""
    # Empty and invalid names are lint errors, and not terms: they stay out of the data.
    names = set(terms.defined_terms()) | set(terms.referenced_names())
    return sorted(n for n in names if is_identifier(n) and (n not in outside or terms.is_defined(n)))


def term_summary(name: str, terms: TermGraph) -> TermSummary:
    """What the site needs of a term: the same name, and definition text, as :func:`term_data` gives."""
    definition = terms.definition(name)
    entry: TermSummary = {
        "name": display_name(name, _forms(terms.references_to(name))),
        "defined": definition is not None,
    }
    if definition is not None:
        entry["definition"] = {"text": definition.plain_text()}
    return entry


def term_data(
    name: str, terms: TermGraph, read_first: list[str], translations: Translations, used_elsewhere: bool = False
) -> TermData:
    """A term's entry; ``used_elsewhere``: other books of the family refer to it (it is not unused)."""
    definition = terms.definition(name)
    references = terms.references_to(name)
    forms = _forms(references)
    entry: TermData = {
        "id": name,
        "name": display_name(name, forms),
        "surface_forms": sorted(forms),
        "defined": definition is not None,
        "dangling": definition is None,
        "unused": definition is not None and not used_elsewhere and not any(r.definition != name for r in references),
        "uses": terms.terms_used_by(name),
        "used_by_terms": terms.terms_using(name),
        "used_in_sections": terms.sections_using(name),
        "read_first": read_first,
        "reference_count": len(references),
        "translations": {language: _translation(names) for language, names in translations.get(name, {}).items()},
    }
    if definition is not None:
        entry["definition"] = {"text": definition.plain_text(), "content": content_json(definition.children)}
        entry["defined_at"] = _defined_at(definition, terms)
        entry["parent"] = definition.parent
        entry["nested"] = sorted({node.name for node in definition.children if isinstance(node, Definition)})
    return entry


def _translation(names: Mapping[str, str]) -> TermTranslation:
    entry: TermTranslation = {"name": names["name"]}
    if "text" in names:
        entry["text"] = names["text"]
    return entry


def _forms(references: Iterable[Reference]) -> Counter[str]:
    return Counter(" ".join(r.text.split()) for r in references if r.text.strip())


def display_name(name: str, forms: Counter[str]) -> str:
    """The name a reader knows a term by (the site, ``rules.json`` and the translation findings show it), as the
    book writes it: of its capitalised forms, the one that spells the term's id
    (``Line of Sight``, ``Rank-and-File`` rather than ``R&F``), else the most used; in the singular where the
    book writes it so or the id says it (``Model``, not ``Models``); else the id in sentence case."""
    written: Counter[str] = Counter()
    for form, count in forms.items():
        written[form.strip(_AROUND)] += count
    lower = {form.casefold() for form in written}
    singular = {form: _singular(form, name, lower) for form in written if form[:1] and not form[:1].islower()}
    if not singular:
        return name.replace("_", " ").capitalize()
    spelled = [form for form in singular if _key(singular[form]) == name]
    if not spelled:  # the capitalised forms are other words (`[[fighter|The Brave]]`): the id as the book spells it
        named: Counter[str] = Counter()
        for form, count in written.items():
            if form[:1].islower() and _key(_singular(form, name, lower)) == name:
                named[_singular(form, name, lower)] += count
        if named:
            best = max(named, key=lambda form: (named[form], -len(form), form))
            return best[:1].upper() + best[1:]
    groups: Counter[str] = Counter()
    for form in singular:
        groups[_key(singular[form])] += written[form]
    commonest = max(groups, key=lambda key: (groups[key], -len(key), key))  # ties: the shorter name
    chosen = spelled or [form for form in singular if _key(singular[form]) == commonest]
    best = max(chosen, key=lambda form: (written[form], -len(form), form))
    return singular[best]


_AROUND = " ()[]“”\"'‘’«».,;:"
"""Punctuation around a term's use that is not its name (``(R&F)``)."""


def _key(form: str) -> str:
    """A form as a term id would spell it: ``Drift-Die`` -> ``drift_die``."""
    return "_".join(re.findall(r"[a-z0-9]+", form.casefold()))


def _singular(form: str, name: str, lower: set[str]) -> str:
    """The form in the singular when the book also writes it so, or the id spells that (else the form)."""
    for ending, replacement in (("ies", "y"), ("s", "")):
        if form.endswith(ending) and not form.endswith("ss"):
            candidate = form[: -len(ending)] + replacement
            if candidate.casefold() in lower or _key(candidate) == name:
                return candidate
    return form


def _defined_at(definition: Definition, terms: TermGraph) -> DefinedAt:
    span = definition.span
    path = section_path(terms, definition.section_id)
    return {
        "file": span.path,
        "line": span.line,
        "column": span.column,
        "section": definition.section_id,
        "section_path": path,
        "anchor": term_anchor(definition.name, path[0] if path else definition.section_id),
    }


def section_path(terms: TermGraph, section_id: str) -> list[str]:
    """Section ids from the chapter down to ``section_id``."""
    return [section.id for section in terms.section_chain(section_id)]


def section_anchor(section_id: str, chapter_id: str) -> str:
    """Where a section is on the site: its chapter's page, at its id."""
    return f"{chapter_id}/#{section_id}"


def term_anchor(name: str, chapter_id: str) -> str:
    return f"{chapter_id}/#term-{name}"
