""" "Did you mean": close names for a misspelt one.

A name matches a candidate when they are the same after folding case,
spaces, hyphens and plurals (``Sight Line`` ~ ``sight_line``,
``reserve_crews_count`` ~ ``reserve_crew_count``), or when one edit
turns one into the other (``sight_lnie`` ~ ``sight_line``: a swap of
neighbours counts as one edit). When none is that close, a candidate whose
folded form is one edit from the name's (``scavangers`` ~ ``scavenger``), else
one of the same stem (``measure`` ~ ``measuring``).

Edit candidates come from a deletion index: two names one edit apart (a swap
included) become the same when one letter is taken out of each, or out of the
longer one, so each candidate is filed under itself and its forms with one
letter taken out (a hash of each, made from the name's prefix hashes in one
pass), and a lookup probes the name's own forms: a few names a probe, however
many names share a prefix (a filing by halves put every ``term_N`` of a book in
one bucket). Names of one stem are found the same way, by prefix hashes. Books
with tens of thousands of terms stay fast.
"""

from __future__ import annotations

import bisect
from collections import defaultdict
from collections.abc import Iterable

from rulebook.names import normalise

MAX_SUGGESTIONS = 3
STEM_SCAN = 200
"""How many names longer than a name and sharing its stem are looked at, in order (a book of thousands of ``term_N``
and a misspelt ``term_`` would otherwise look at each of them for each misspelling)."""
STEM = 5
"""The fewest letters two names share at their start to be words of one stem (``measure``, ``measuring``)."""


def _same_stem(a: str, b: str) -> bool:
    """Whether ``a`` and ``b`` differ only past a shared start of :data:`STEM` letters or more that leaves at most
    one letter of the shorter one (``measur``: ``measure``, ``measuring``; not ``station`` and ``stature``)."""
    a, b = a.casefold(), b.casefold()
    shared = 0
    while shared < min(len(a), len(b)) and a[shared] == b[shared]:
        shared += 1
    return a != b and shared >= STEM and shared >= min(len(a), len(b)) - 1


def one_edit_apart(a: str, b: str) -> bool:
    """Whether one insertion, deletion, substitution or swap of neighbours turns ``a`` into ``b``."""
    if abs(len(a) - len(b)) > 1 or a == b:
        return False
    start = 0
    limit = min(len(a), len(b))
    while start < limit and a[start] == b[start]:
        start += 1
    if len(a) == len(b):
        rest = start + 1
        if a[rest:] == b[rest:]:
            return True
        return a[start + 2 :] == b[start + 2 :] and a[start : start + 2] == b[start : start + 2][::-1]
    if len(a) > len(b):
        return a[start + 1 :] == b[start:]
    return a[start:] == b[start + 1 :]


_MODULUS = (1 << 61) - 1
_BASE = 1_000_003


def _prefix_hashes(text: str) -> tuple[list[int], list[int]]:
    """The hashes of each prefix of ``text`` and the powers of the base: a part's hash in constant time."""
    prefix, powers = [0], [1]
    for character in text:
        prefix.append((prefix[-1] * _BASE + ord(character)) % _MODULUS)
        powers.append(powers[-1] * _BASE % _MODULUS)
    return prefix, powers


def _deletion_keys(name: str) -> set[tuple[int, int]]:
    """The name and its forms with one letter taken out, each as (length, hash): two names one edit apart share one."""
    prefix, powers = _prefix_hashes(name)
    size = len(name)
    keys = {(size, prefix[size])}
    for index in range(size):
        after = size - index - 1
        tail = (prefix[size] - prefix[index + 1] * powers[after]) % _MODULUS
        keys.add((size - 1, (prefix[index] * powers[after] + tail) % _MODULUS))
    return keys


class Suggester:
    """Finds the candidates closest to a name."""

    def __init__(self, candidates: Iterable[str]) -> None:
        self._candidates = sorted(set(candidates))
        self._by_form: dict[str, list[str]] | None = None
        self._by_deletion: dict[tuple[int, int], list[str]] | None = None
        self._by_stem: dict[tuple[int, int], list[str]] | None = None
        self._folded: list[tuple[str, str]] | None = None
        self._forms: Suggester | None = None
        """The candidates' normalised forms, as candidates of their own (a plural of a misspelt name)."""

    def suggest(self, name: str) -> tuple[str, ...]:
        """Up to three candidates, best first: same normalised form, then one edit away."""
        same = self.same_form(name)
        near = self._one_edit(name)
        if near:  # most names have none: no sort then
            same = same + sorted(near.difference(same))
        return tuple((same or self._farther(name))[:MAX_SUGGESTIONS])

    def _farther(self, name: str) -> list[str]:
        """When nothing is that close: candidates whose form is one edit from the name's (``scavangers``, the plural
        of a misspelt ``scavenger``), else that share its stem (``measure`` ~ ``measuring``)."""
        if self._forms is None:
            self._forms = Suggester(self._form_index())
        index = self._form_index()
        found = sorted(c for form in self._forms._one_edit(normalise(name)) for c in index[form] if c != name)
        return found or sorted(c for c in self._of_stem(name) if _same_stem(name, c))

    def _of_stem(self, name: str) -> set[str]:
        """The candidates that may share the name's stem (:func:`_same_stem` decides): those no longer than it whose
        letters but the last start it, and the first :data:`STEM_SCAN` longer ones its letters but the last start."""
        folded = name.casefold()
        if len(folded) < STEM:
            return set()
        if self._by_stem is None or self._folded is None:
            index: dict[tuple[int, int], list[str]] = defaultdict(list)
            for candidate in self._candidates:
                written = candidate.casefold()
                if len(written) >= STEM:
                    index[(len(written) - 1, _prefix_hashes(written[:-1])[0][-1])].append(candidate)
            self._by_stem = index
            self._folded = sorted((c.casefold(), c) for c in self._candidates if len(c.casefold()) > STEM)
        prefix, _ = _prefix_hashes(folded)
        found = {
            c for length in range(STEM - 1, len(folded) + 1) for c in self._by_stem.get((length, prefix[length]), ())
        }
        start = folded[:-1]
        at = bisect.bisect_left(self._folded, (start, ""))
        for written, candidate in self._folded[at : at + STEM_SCAN]:
            if not written.startswith(start):
                break
            found.add(candidate)
        return found

    def same_form(self, name: str) -> list[str]:
        """Candidates that differ from ``name`` only in case, separators or plural."""
        found = self._form_index().get(normalise(name))
        return [c for c in found if c != name] if found else []

    def _form_index(self) -> dict[str, list[str]]:
        if self._by_form is None:
            index: dict[str, list[str]] = defaultdict(list)
            for candidate in self._candidates:
                index[normalise(candidate)].append(candidate)
            self._by_form = index
        return self._by_form

    def _one_edit(self, name: str) -> set[str]:
        if self._by_deletion is None:
            index: dict[tuple[int, int], list[str]] = defaultdict(list)
            for candidate in self._candidates:
                for key in _deletion_keys(candidate):
                    index[key].append(candidate)
            self._by_deletion = index
        found = {c for key in _deletion_keys(name) for c in self._by_deletion.get(key, ())}
        return {c for c in found if c != name and one_edit_apart(name, c)}
