"""Recall: a mutated copy of the French seed, where every mutation must be found at its line, and nothing else.

Each mutation class the issue names is here at least twice in different sections: a number and a
number word changed, a comparison and a sign changed, a sentence deleted (also a whole paragraph at a
section's end) and one added, each kind of conversion debris injected, and a table row inside a list
item changed. Line numbers do not move: a deleted line is left empty, an added sentence joins a
paragraph. ``docs/translation.md`` states the recall measured here.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import pytest

from rulebook.markdown_source import parse_markdown_string
from rulebook.model import Book
from rulebook.recipe.reading import read_book
from rulebook.translate.compare import Comparison, compare_books
from rulebook.translate.terminology import load_terminology

from .conftest import BUNDLED_BOOK, ROOT

FRENCH = ROOT / "rulebook_src" / "fr" / "rulebook.md"
TERMS = ROOT / "rulebook_src" / "fr" / "terms.toml"


@dataclass(frozen=True)
class Mutation:
    """A change to one line of the French seed, and the finding it must give."""

    name: str
    line: int
    before: str
    after: str
    kind: str
    found_at: int | None = None
    """The line the finding must point at, if not the mutated one (a deleted line points where it belonged)."""
    count: int = 1

    @property
    def expected(self) -> tuple[str, int]:
        return self.kind, self.found_at or self.line


MUTATIONS = [
    Mutation("number", 99, "contient au moins 5 figurines", "contient au moins 6 figurines", "numbers-differ"),
    Mutation("number", 124, "se joue en 6 Tours de Jeu", "se joue en 8 Tours de Jeu", "numbers-differ"),
    Mutation("number", 359, "regroupées en 5 Catégories", "regroupées en 6 Catégories", "numbers-differ"),
    Mutation("number word", 87, "composée de deux éléments", "composée de trois éléments", "numbers-differ"),
    Mutation("number word", 115, "possède quatre arcs de vision", "possède cinq arcs de vision", "numbers-differ"),
    Mutation(
        "comparison", 103, "rangs de 10 figurines au moins", "rangs de plus de 10 figurines", "comparison-differs"
    ),
    Mutation("comparison", 395, "1500 points ou moins", "1500 points ou plus", "comparison-differs"),
    Mutation("comparison", 480, 'placés au moins à 6"', 'placés à moins de 6"', "comparison-differs"),
    Mutation("sign", 285, "lui donnant +1 en Force", "lui donnant -1 en Force", "sign-differs"),
    Mutation("sign", 303, "comme -1 ou +3", "comme -1 ou -3", "sign-differs"),
    Mutation(
        "deleted sentence",
        143,
        "Chaque joueur décide de l'ordre dans lequel ses propres effets sont résolus. ",
        "",
        "missing-sentence",
    ),
    Mutation(
        "deleted sentence (a paragraph at the section's end)",
        209,
        "Les joueurs sont autorisés à mesurer n'importe quelle distance à tout moment.",
        "",
        "missing-sentence",
        found_at=207,
    ),
    Mutation(
        "deleted paragraph at the section's end",
        538,
        "Les sorts qui ne sont pas générés en suivant ces règles, comme les sorts prédéterminés ou les Objets de Sort, "
        "sont ignorés pour la duplication des sorts. De tels sorts peuvent ainsi être présents plus d'une fois dans "
        "une même armée.",
        "",
        "missing-sentence",
        found_at=536,
        count=2,
    ),
    Mutation(
        "added sentence",
        137,
        "en train de jouer son tour.",
        "en train de jouer son tour. Il peut alors déplacer chacune de ses unités une seule fois.",
        "added-sentence",
    ),
    Mutation(
        "added sentence",
        461,
        "conflit massif entre des armées épiques.",
        "conflit massif entre des armées épiques. Une partie de 3000 points dure environ trois heures.",
        "added-sentence",
    ),
    Mutation("LaTeX", 471, 'sections de 24" par 24"', "sections de $24''$ par 24\"", "conversion-debris"),
    Mutation("stray backslash", 263, "un tiret « - »", "un tiret « \\– »", "conversion-debris"),
    Mutation("word split at a line end", 235, "temporairement", "temporai-rement", "conversion-debris"),
    Mutation(
        "lost apostrophe", 239, "moitié du socle d'une figurine", "moitié du socle dune figurine", "conversion-debris"
    ),
    Mutation(
        "emphasis glued to the next sentence",
        371,
        "Parfois, certaines unités peuvent être déplacées d'une Catégorie à une autre. Par exemple",
        "*Parfois, certaines unités peuvent être déplacées d'une Catégorie à une autre.*Par exemple",
        "conversion-debris",
    ),
    Mutation(
        "full stop lost",
        442,
        "ont été déclarées. Pour les Objets",
        "ont été déclarées Pour les Objets",
        "conversion-debris",
    ),
    Mutation("broken decimal", 205, "Il vaut 2,54 cm exactement.", "Il vaut 2, 54 cm exactement.", "conversion-debris"),
    Mutation("punctuation spacing", 299, "dans un ordre précis :", "dans un ordre précis:", "punctuation-spacing"),
    Mutation("another script", 111, "Le centre d'une unité", "Le \u0441entre d'une unité", "other-script"),
    Mutation("doubled word", 179, "tenez le Gabarit", "tenez le le Gabarit", "doubled-word"),
    Mutation("table row inside a list item", 362, "Base\tmin. 25 %\tmax. 4", "Base\tmin. 25 %\tmax. 5", "table-row"),
]


def mutated_text() -> str:
    lines = FRENCH.read_text(encoding="utf-8").split("\n")
    for mutation in MUTATIONS:
        line = lines[mutation.line - 1]
        assert mutation.before in line, f"{mutation.name}: line {mutation.line} does not say {mutation.before!r}"
        lines[mutation.line - 1] = line.replace(mutation.before, mutation.after, 1)
    return "\n".join(lines)


@cache
def comparisons() -> tuple[Comparison, Comparison]:
    english = read_book([BUNDLED_BOOK], ROOT).book
    terms = load_terminology(TERMS)
    seed = read_book([FRENCH], ROOT, language="fr", source_format="plain-markdown").book
    changed = parse_markdown_string(mutated_text(), str(FRENCH.relative_to(ROOT)), language="fr").document
    assert changed is not None
    return compare_books(english, seed, terms=terms), compare_books(english, Book((changed,)), terms=terms)


def places(comparison: Comparison) -> Counter[tuple[str, int]]:
    return Counter((f.kind, f.place.line) for f in comparison.findings if f.place is not None)


from collections import Counter  # noqa: E402


@pytest.mark.parametrize("mutation", MUTATIONS, ids=lambda m: f"{m.name} (line {m.line})")
def test_each_mutation_is_found_at_its_line(mutation: Mutation) -> None:
    seed, changed = comparisons()
    new = places(changed) - places(seed)
    assert new[mutation.expected] >= mutation.count, sorted(new)


def test_nothing_else_new_appears() -> None:
    seed, changed = comparisons()
    expected = Counter({m.expected: m.count for m in MUTATIONS})
    for mutation in MUTATIONS:
        expected[mutation.expected] = max(expected[mutation.expected], mutation.count)
    unexpected = places(changed) - places(seed) - expected
    assert not unexpected, sorted(unexpected.elements())
