""" "Did you mean": close names for a misspelt one.

A name matches a candidate when they are the same after folding case,
spaces, hyphens and plurals (``Sight Line`` ~ ``sight_line``,
``reserve_crews_count`` ~ ``reserve_crew_count``), or when one edit
turns one into the other (``sight_lnie`` ~ ``sight_line``: a swap of
neighbours counts as one edit). When none is that close, a candidate whose
folded form is one edit from the name's (``scavangers`` ~ ``scavenger``), else
one of the same stem (``measure`` ~ ``measuring``).

Edit candidates come from a pigeonhole index: one edit leaves either the
first or the second half of a name intact, so each candidate is filed under
its halves and a lookup costs six dictionary probes instead of a pass over
every name. Books with tens of thousands of terms stay fast.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable

from rulebook.names import normalise

MAX_SUGGESTIONS = 3
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


class Suggester:
    """Finds the candidates closest to a name."""

    def __init__(self, candidates: Iterable[str]) -> None:
        self._candidates = sorted(set(candidates))
        self._by_form: dict[str, list[str]] | None = None
        self._by_half: dict[tuple[int, bool, str], list[str]] | None = None
        self._by_stem: dict[str, list[str]] | None = None
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
        return found or sorted(c for c in self._stem_index().get(name[:STEM].casefold(), ()) if _same_stem(name, c))

    def _stem_index(self) -> dict[str, list[str]]:
        if self._by_stem is None:
            index: dict[str, list[str]] = defaultdict(list)
            for candidate in self._candidates:
                if len(candidate) >= STEM:
                    index[candidate[:STEM].casefold()].append(candidate)
            self._by_stem = index
        return self._by_stem

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
        index = self._half_index()
        found: set[str] = set()
        size = len(name)
        for length in (size - 1, size, size + 1):
            half = length // 2
            found.update(index.get((length, True, name[:half]), ()))
            tail = length - half
            found.update(index.get((length, False, name[size - tail :] if tail else ""), ()))
        half = size // 2
        if 0 < half < size:  # a swap across the middle changes both halves
            found.update(index.get((size, True, name[: half - 1] + name[half]), ()))
        return {c for c in found if c != name and one_edit_apart(name, c)}

    def _half_index(self) -> dict[tuple[int, bool, str], list[str]]:
        if self._by_half is None:
            index: dict[tuple[int, bool, str], list[str]] = defaultdict(list)
            for candidate in self._candidates:
                length = len(candidate)
                half = length // 2
                index[(length, True, candidate[:half])].append(candidate)
                index[(length, False, candidate[half:])].append(candidate)
            self._by_half = index
        return self._by_half
