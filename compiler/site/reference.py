"""The quick reference: every test and roll of the rule data, its roll tables, sequences, characteristics profile and
army composition, in the page's language, each linked to its rule and its terms to their definitions.

Pure: the rule data and a :class:`ReferenceView` (the page's words, and how its site names and links terms and
sections) in, the template's context out. The original's site and each translation's make the same page, each
through its own view. A sentence is a list of parts: ``{"text": ...}``, or a term ``{"term", "name", "href"}``
(``href`` None: this site does not define it), which the template writes as a link with its card.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from rulebook.facts.values import VALUE_KINDS

Part = dict[str, Any]
"""A piece of a sentence: text, or a term."""


@dataclass(frozen=True, slots=True)
class ReferenceView:
    """What the quick reference of one site takes: the rule data, and how this site says and links things."""

    data: Mapping[str, Any]
    """The book's rule data (the site summary)."""
    words: Mapping[str, str]
    """The site's words (``strings.toml``) in the page's language."""
    term: Callable[[str], Part]
    """A term as this site names it and where its definition is (``{"term", "name", "href"}``)."""
    section: Callable[[str | None], Part | None]
    """A section of the rules as this site titles it and where it is (``{"title", "href"}``), or None."""
    uses: Callable[[str], Iterable[str]]
    """The terms a term's definition uses (which characteristic a test is taken against)."""
    characteristic: Callable[[Mapping[str, Any]], tuple[str, str]]
    """A profile row's abbreviation and definition in the page's language."""
    steps: Callable[[Mapping[str, Any]], list[str]]
    """A sequence's steps as the page's language writes them (the rule data's, in the original's)."""
    said: Callable[[str], str | None] = lambda name: None
    """The sentence of the book that states a value, by the value's name (None: the page has none)."""
    profile: tuple[str | None, tuple[str, ...]] = (None, ())
    """The profile table's title and its three headers as the book writes them (None, (): the page's words)."""


def reference_context(view: ReferenceView) -> dict[str, Any] | None:
    """Everything the quick reference shows, each part only when the book has it; None when it has none."""
    data = view.data
    parts = {
        "tests": tests_and_rolls(view),
        "roll_tables": [_roll_table(view, table) for table in data["roll_tables"]],
        "sequences": [_sequence(view, sequence) for sequence in data["sequences"]],
        "values": _values(view),
        "profile": _profile(view),
        "army": _army(view),
    }
    if not any(parts.values()):
        return None
    return parts


# -- sentences ----------------------------------------------------------------------------------------------------

_SLOT = re.compile(r"\{(\w+)\}")


def sentence(words: Mapping[str, str], key: str, default: str, **slots: Part | str | list[Part]) -> list[Part]:
    """The site's sentence ``key`` with its ``{slots}`` filled: text, a term, or parts (the words are text: a brace
    that names no slot stays as written)."""
    found: list[Part] = []
    template = words.get(key, default)
    position = 0
    for match in _SLOT.finditer(template):
        if match.group(1) not in slots:
            continue
        found.append({"text": template[position : match.start()]})
        value = slots[match.group(1)]
        found += value if isinstance(value, list) else [{"text": value} if isinstance(value, str) else value]
        position = match.end()
    found.append({"text": template[position:]})
    return [part for part in found if part.get("text") != ""]


def _joined(parts: list[list[Part]], separator: str = ", ") -> list[Part]:
    out: list[Part] = []
    for index, each in enumerate(part for part in parts if part):
        out += ([{"text": separator}] if index else []) + each
    return out


def _target(view: ReferenceView, test: Mapping[str, Any]) -> Part | str:
    """What a test is taken against: its number, else the one characteristic its term uses, else the value tested."""
    if test.get("target") is not None:
        return str(test["target"])
    profile = {row["term"]: row for row in (view.data.get("characteristics") or {}).get("profile", [])}
    tested = [profile[name] for name in view.uses(test["term"]) if name in profile]
    if len(tested) == 1:
        return {**view.term(tested[0]["term"]), "name": view.characteristic(tested[0])[0]}
    return view.words.get("ref_tested", "the value tested")


def _passes(view: ReferenceView, how: str, target: Part | str) -> list[Part]:
    defaults = {
        "at_most": "pass at or below {target}",
        "at_least": "pass on {target} or more",
        "above": "pass above {target}",
        "below": "pass below {target}",
    }
    return sentence(view.words, f"ref_pass_{how}", defaults.get(how, "{target}"), target=target)


def _results(view: ReferenceView, entry: Mapping[str, Any]) -> list[list[Part]]:
    found = []
    for key, default in (
        ("always_fails", "a roll of {results} always fails"),
        ("always_passes", "a roll of {results} always passes"),
    ):
        if entry.get(key):
            found.append(sentence(view.words, f"ref_{key}", default, results=", ".join(map(str, entry[key]))))
    return found


def _named(view: ReferenceView, name: str | None) -> Part | str:
    """A name the rule data gives (a term's id, or words such as ``6 - cover``): the term where it is one."""
    if not name:
        return ""
    if name in view.data["terms"]:
        return view.term(name)
    return name.replace("_", " ")


def tests_and_rolls(view: ReferenceView) -> list[dict[str, Any]]:
    """Every test and roll of the rule data, one sentence each: its dice, when it passes, what else it says; then the
    contests, the dice made from others, the repeated rolls, the reroll limit and the modifiers' order."""
    mechanics = view.data.get("mechanics") or {}
    tests = sorted((mechanics.get("tests") or {}).values(), key=lambda t: str(view.term(t["term"])["name"]))
    rolls = sorted((mechanics.get("rolls") or {}).values(), key=lambda r: (r.get("step") is None, r.get("step") or 0))
    found = [_test(view, test) for test in tests] + [_roll(view, roll) for roll in rolls]
    found += [_contest(view, name, contest) for name, contest in sorted((mechanics.get("contests") or {}).items())]
    found += [_derived(view, name, die) for name, die in sorted((mechanics.get("dice") or {}).items())]
    found += _repeats(view, mechanics.get("repeats") or {})
    if mechanics.get("rerolls"):
        found.append(_rerolls(view, mechanics["rerolls"]))
    if mechanics.get("modifiers"):
        found.append(_modifiers(view, mechanics["modifiers"]))
    return found


def _test(view: ReferenceView, test: Mapping[str, Any]) -> dict[str, Any]:
    said = [
        sentence(view.words, "ref_roll", "roll {dice}", dice=test["roll"]),
        _passes(view, test["pass"], _target(view, test)),
    ]
    return _entry(view, test["term"], test.get("section"), [*said, *_results(view, test)])


def _roll(view: ReferenceView, roll: Mapping[str, Any]) -> dict[str, Any]:
    words, each = view.words, _named(view, roll.get("each"))
    if each:
        rolled = sentence(words, "ref_roll_each", "roll {dice} for each {each}", dice=roll["roll"], each=each)
    else:
        rolled = sentence(words, "ref_roll", "roll {dice}", dice=roll["roll"])
    said = [rolled, _passes(view, roll["pass"], _named(view, roll.get("against"))), *_results(view, roll)]
    for key, default in (
        ("cancels", "each success cancels one {term}"),
        ("instead_of", "may be rolled instead of {term}"),
    ):
        if roll.get(key):
            said.append(sentence(words, f"ref_{key}", default, term=_named(view, roll[key])))
    if roll.get("fail_adds"):
        said.append(sentence(words, "ref_fail_adds", "a failure adds {dice}", dice=roll["fail_adds"]))
    return _entry(view, roll["term"], roll.get("section"), said)


def _contest(view: ReferenceView, name: str, contest: Mapping[str, Any]) -> dict[str, Any]:
    ties = view.words.get(f"ref_{contest['ties']}", contest["ties"])
    default = "each player rolls {dice}, the higher wins; a tie goes to the {ties} player"
    said = [sentence(view.words, "ref_contest", default, dice=contest["roll"], ties=ties)]
    if contest.get("bonus"):
        said.append(sentence(view.words, "ref_bonus", "adding {bonus}", bonus=_named(view, contest["bonus"])))
    return _entry(view, None, contest.get("section"), said, title=_title(view, contest.get("section"), name))


def _derived(view: ReferenceView, name: str, die: Mapping[str, Any]) -> dict[str, Any]:
    round_ = view.words.get(f"ref_{die['round']}", die["round"])
    default = "roll {dice}, divide by {divide} and round {round}"
    said = sentence(view.words, "ref_derived", default, dice=die["roll"], divide=str(die["divide"]), round=round_)
    return _entry(view, None, die.get("section"), [said], title=name)


def _repeats(view: ReferenceView, repeats: Mapping[str, Mapping[str, Any]]) -> list[dict[str, Any]]:
    """The repeated rolls, one line per table they roll on: the rule, then each board's own (``Charting the
    Shoals: roll 2D3 times on its table; on a 36x48 board, roll D3 times on its table``), never two lines
    of one title."""
    by_table: dict[tuple[str, str], list[tuple[str, Mapping[str, Any]]]] = {}
    for name, repeat in sorted(repeats.items()):
        by_table.setdefault((str(repeat.get("table")), str(repeat.get("section"))), []).append((name, repeat))
    found = []
    for group in by_table.values():
        group.sort(key=lambda entry: (entry[1].get("board") is not None, entry[0]))  # the rule before its variants
        said = []
        for _, repeat in group:
            rolled = sentence(view.words, "ref_repeat", "roll {times} times on its table", times=repeat["times"])
            board = repeat.get("board")
            on = sentence(view.words, "ref_board", "on a {board} board", board=board) if board else []
            said.append(_joined([on, rolled]))
        name, first = group[0]
        found.append(_entry(view, None, first.get("section"), said, title=_title(view, first.get("section"), name)))
    return found


def _title(view: ReferenceView, section: str | None, name: str) -> str:
    """What a line without a term is called: its section's title, else its name in the rule data."""
    place = view.section(section)
    return str(place["title"]) if place else name


def _rerolls(view: ReferenceView, rerolls: Mapping[str, Any]) -> dict[str, Any]:
    once = rerolls["max"] == 1
    key = "ref_reroll_once" if once else "ref_reroll_times"
    default = "a die is rerolled at most once" if once else "a die is rerolled at most {max} times"
    said = [sentence(view.words, key, default, max=str(rerolls["max"]))]
    return _entry(view, rerolls.get("term"), None, said, title=view.words.get("ref_rerolls_name", "Rerolls"))


def _modifiers(view: ReferenceView, modifiers: Mapping[str, Any]) -> dict[str, Any]:
    order = ", ".join(view.words.get(f"ref_{step}", step) for step in modifiers["order"])
    round_ = view.words.get(f"ref_{modifiers['round']}", modifiers["round"])
    default = "in this order: {order}; fractions round {round}"
    said = [sentence(view.words, "ref_modifiers", default, order=order, round=round_)]
    return _entry(view, modifiers.get("term"), None, said, title=view.words.get("ref_modifiers_name", "Modifiers"))


def _entry(
    view: ReferenceView, term: str | None, section: str | None, said: list[list[Part]], title: str | None = None
) -> dict[str, Any]:
    """A line of the quick reference: its name (a term, else a title), what it says, and its place in the rules."""
    name = view.term(term) if term else {"text": (title or "").replace("_", " ")}
    place = view.section(section)
    if place is None and term:
        href = view.term(term).get("href")
        place = {"title": "", "href": href} if href else None
    parts = _joined(said, view.words.get("ref_and", "; "))
    return {"id": term or title, "name": name, "parts": parts, "rules": place["href"] if place else None}


# -- tables, sequences, profile, army --------------------------------------------------------------------------


def _result(view: ReferenceView, band: Mapping[str, Any]) -> Part:
    return view.term(band["term"]) if band.get("term") else {"text": band["result"]}


def _roll_table(view: ReferenceView, table: Mapping[str, Any]) -> dict[str, Any]:
    place = view.section(table.get("section"))
    return {
        "id": table["id"],
        "title": table.get("title") or (place["title"] if place else table["id"].replace("_", " ").capitalize()),
        "rules": place["href"] if place else None,
        "die": table["die"],
        "bands": [
            {"roll": f"{b['min']}" if b["min"] == b["max"] else f"{b['min']}–{b['max']}", "result": _result(view, b)}
            for b in table["bands"]
        ],
    }


def _sequence(view: ReferenceView, sequence: Mapping[str, Any]) -> dict[str, Any]:
    place = view.section(sequence.get("section"))
    steps = []
    for step, text in zip(sequence["steps"], view.steps(sequence), strict=True):
        target = view.section(step["section"]) if step.get("resolved") else None
        href = target["href"] if target else None
        steps.append({"title": step.get("title"), "text": text, "href": href})
    title = sequence.get("title") or (
        place["title"] if place else sequence["id"].replace("_", " ").replace("-", " ").capitalize()
    )
    return {"id": sequence["id"], "title": title, "rules": place["href"] if place else None, "steps": steps}


def _values(view: ReferenceView) -> list[dict[str, Any]]:
    """Every number the book declares, by its own name: the number, what it is, the term it is about."""
    found = []
    for name, value in sorted((view.data.get("values") or {}).items()):
        kind = view.words.get(f"ref_value_{value['kind']}", VALUE_KINDS.get(value["kind"], value["kind"]))
        term = view.term(value["term"]) if value.get("term") else None
        found.append({"id": name, "value": str(value["value"]), "kind": kind, "term": term, "said": view.said(name)})
    return found


def _profile(view: ReferenceView) -> dict[str, Any] | None:
    characteristics = view.data.get("characteristics") or {}
    if not characteristics.get("profile"):
        return None
    rows = []
    for row in characteristics["profile"]:
        abbreviation, definition = view.characteristic(row)
        rows.append({"abbreviation": abbreviation, "name": view.term(row["term"]), "definition": definition})
    bounds = characteristics.get("min"), characteristics.get("max")
    values = (view.data.get("values") or {}).items()
    said = next(([{"text": t}] for n, v in values if v.get("kind") == "minimum" and (t := view.said(n))), None)
    if said is None and None not in bounds:
        said = sentence(
            view.words,
            "ref_range",
            "Characteristics range from {min} to {max}.",
            min=str(bounds[0]),
            max=str(bounds[1]),
        )
    title, headers = view.profile
    return {"rows": rows, "range": said, "title": title, "headers": headers if len(headers) == 3 else None}


def _names(view: ReferenceView, entry: Mapping[str, Any]) -> list[Part]:
    """A category as the page names it: its terms, joined (``Captains + Mates``), else its own name."""
    terms = entry.get("terms") or []
    if not terms:
        return [{"text": entry["name"]}]
    return _joined([[view.term(term)] for term in terms], " + ")


def _army(view: ReferenceView) -> dict[str, Any] | None:
    army = view.data.get("army_composition") or {}
    categories = [_category(view, category) for category in army.get("categories") or []]
    variants = [
        _variant(view, variant)
        for variant in army.get("variants") or []
        if variant.get("duplicate_limits") or variant.get("max_points") or variant.get("min_points")
    ]
    below = army.get("points_below_limit")
    least = _least_entries(view, army.get("least_entries"), army.get("not_counted") or [])
    if not categories and not variants and below is None and least is None:
        return None
    default = "An army may fall below its point limit by at most {points} points."
    said = sentence(view.words, "ref_below_limit", default, points=str(below)) if below is not None else None
    return {"categories": categories, "variants": variants, "below": said, "least": least}


def _least_entries(view: ReferenceView, least: int | None, not_counted: list[str]) -> list[Part] | None:
    """The fewest entries an army (or an army size) has, and the categories that do not count."""
    if not least:
        return None
    if not_counted:
        default = "An army has at least {n} entries, not counting {categories}."
        categories = " / ".join(not_counted)
        return sentence(view.words, "ref_least_entries_but", default, n=str(least), categories=categories)
    return sentence(view.words, "ref_least_entries", "An army has at least {n} entries.", n=str(least))


def _category(view: ReferenceView, category: Mapping[str, Any]) -> dict[str, Any]:
    """A category's row: its points (at least or at most a share of the army) and its duplicate limit."""
    if category.get("min_percent"):
        points = sentence(view.words, "ref_at_least_percent", "at least {n}%", n=str(category["min_percent"]))
    elif category.get("max_percent"):
        points = sentence(view.words, "ref_at_most_percent", "at most {n}%", n=str(category["max_percent"]))
    else:
        points = [{"text": "–"}]
    limit = category.get("duplicate_limit")
    return {"name": _names(view, category), "points": points, "duplicates": "–" if limit is None else str(limit)}


def _variant(view: ReferenceView, variant: Mapping[str, Any]) -> dict[str, Any]:
    """An army size with its own duplicate limits (up to or from a number of points)."""
    name = _named(view, variant.get("term") or variant["id"])
    if variant.get("max_points") is not None or variant.get("min_points") is not None:
        most = variant.get("max_points") is not None
        key = "ref_variant_max" if most else "ref_variant_min"
        default = "{name}: {points} points or less" if most else "{name}: {points} points or more"
        points = str(variant["max_points"] if most else variant["min_points"])
        title = sentence(view.words, key, default, name=name, points=points)
    else:
        title = [name if isinstance(name, dict) else {"text": name}]
    limits = [{"name": _names(view, limit), "limit": _limit(view, limit)} for limit in variant["duplicate_limits"]]
    least = None
    if variant.get("least_entries"):
        default = "At least {n} entries."
        least = sentence(view.words, "ref_variant_least_entries", default, n=str(variant["least_entries"]))
    return {"id": variant["id"], "title": title, "limits": limits, "least": least}


def _limit(view: ReferenceView, limit: Mapping[str, Any]) -> str:
    if limit.get("limit") is not None:
        return str(limit["limit"])
    if limit.get("multiplier") == "1/2":
        return view.words.get("ref_half", "half, rounded {round}").replace(
            "{round}", view.words.get(f"ref_{limit.get('rounding') or 'up'}", "up")
        )
    return f"×{limit.get('multiplier')}"
