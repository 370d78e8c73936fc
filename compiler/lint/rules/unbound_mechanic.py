"""The `unbound-mechanic` check (RB503); its documentation is in :mod:`rulebook.catalog.mechanics`.

A declaration the engine reads only beside another (``COMPANIONS`` in :mod:`rulebook.engine.bindings`), or a
roll of a chain that names a roll the chain does not have where it should (a later step for a critical, an earlier
one for what a save cancels, its own step for an alternative), or a step that mixes saves with rolls that must
succeed, is reported where it stands.
"""

from __future__ import annotations

from collections.abc import Iterator

from rulebook.catalog.mechanics import UNBOUND_MECHANIC
from rulebook.diagnostics import Diagnostic
from rulebook.engine.bindings import COMPANIONS, DECLARATIONS
from rulebook.facts.shapes import Roll
from rulebook.lint.base import LintInput
from rulebook.model import ItemList, Mechanic

RULE = UNBOUND_MECHANIC


def check(lint: LintInput) -> Iterator[Diagnostic]:
    yield from _turns_without_structure(lint)
    yield from _sizes_without_army(lint)
    yield from _chain_names(lint)


def _companion(declaration: str, markdown: bool) -> tuple[str, str]:
    """For a declaration the engine reads only beside another: what the book lacks (``no turn structure``), and
    the help (the question that reads both, and how to declare the other in the source's format)."""
    other, question = COMPANIONS[declaration]
    entry = DECLARATIONS[other]
    return entry["what"], f"`engine {question}` reads it with the {other}: {entry['markdown' if markdown else 'xml']}"


def _turns_without_structure(lint: LintInput) -> Iterator[Diagnostic]:
    if any(isinstance(a.node, ItemList) and a.node.kind == "turn" for a in lint.book.annotated):
        return
    counted = {name for name, value in lint.rule_facts.values.items() if value["kind"] == "turns"}
    for value in lint.book.values:
        if value.name in counted:
            lack, help = _companion("turns value", value.span.path.endswith(".md"))
            yield RULE.diagnostic(
                f"value `{value.name}` counts turns, but the book declares {lack}",
                value.span,
                target=value.name,
                help=help,
                section_id=value.section_id,
            )


def _sizes_without_army(lint: LintInput) -> Iterator[Diagnostic]:
    if lint.rule_facts.army_composition["term"] is not None:
        return
    sizes = {variant["term"] for variant in lint.rule_facts.army_composition["variants"]}
    for mechanic in lint.book.mechanics:
        attributes = dict(mechanic.attributes)
        if mechanic.name in sizes and ("most-points" in attributes or "least-points" in attributes):
            lack, help = _companion("army size", mechanic.span.path.endswith(".md"))
            yield _at(mechanic, f"army size `{mechanic.name}` is declared, but the book declares {lack}", help)


def _chain_names(lint: LintInput) -> Iterator[Diagnostic]:
    """A roll of the chain that names, for a critical, for what it cancels or as an alternative, a roll the chain
    does not have there."""
    rolls = lint.rule_facts.mechanics["rolls"]
    for mechanic in lint.book.mechanics:
        roll = rolls.get(mechanic.name)
        if roll is None or roll["place"]["line"] != mechanic.span.line or roll["place"]["file"] != mechanic.span.path:
            continue  # not the annotation the roll was read from (a reading of it, another kind)
        yield from _without_companion(mechanic, roll)
        later = {name for name, other in rolls.items() if _later(other["step"], roll["step"])}
        for skipped in roll["critical_skips"]:
            if skipped not in later:
                yield _at(
                    mechanic,
                    f"roll `{mechanic.name}` passes `{skipped}` on a critical, which is no later step of the chain",
                    "name the rolls of the steps after this one that a critical success passes",
                )
        earlier = {name for name, other in rolls.items() if _later(roll["step"], other["step"])}
        if roll["cancels"] is not None and roll["cancels"] not in earlier:
            yield _at(
                mechanic,
                f"roll `{mechanic.name}` cancels `{roll['cancels']}`, which is no earlier step of the chain",
                "name the roll of an earlier step whose successes this one saves",
            )
        same = {name for name, other in rolls.items() if other["step"] == roll["step"] and name != mechanic.name}
        saves = sorted(name for name in same if rolls[name]["cancels"] is not None)
        if roll["step"] is not None and roll["cancels"] is None and saves:
            yield _at(
                mechanic,
                f"roll `{mechanic.name}` must succeed, but `{saves[0]}` of its step is a save",
                "a step's rolls are all saves (each `cancels` a roll of an earlier step) or none: give each its step",
            )
        if roll["instead_of"] is not None and roll["instead_of"] not in same:
            yield _at(
                mechanic,
                f"roll `{mechanic.name}` is taken instead of `{roll['instead_of']}`, which is no roll of its step",
                "name a roll of the same step (the defender chooses between them)",
            )


def _without_companion(mechanic: Mechanic, roll: Roll) -> Iterator[Diagnostic]:
    """An attribute of a roll the engine reads only beside another, given without it."""
    if not roll["critical"] and (roll["critical_adds"] or roll["critical_skips"]):
        given = "critical-adds" if roll["critical_adds"] else "critical-skips"
        yield _at(
            mechanic,
            f"roll `{mechanic.name}` says what a critical does (`{given}`), but no result is `critical`",
            'name the results that are critical: critical="6"',
        )
    if roll["fail_adds"] is not None and roll["threshold"] is None:
        yield _at(
            mechanic,
            f"roll `{mechanic.name}` adds to the loss on a failure (`fail-adds`), but has no `threshold`",
            'give the loss past which the roll is taken: threshold="N"',
        )
    if roll["threshold"] is not None and roll["step"] is not None:
        yield _at(
            mechanic,
            f"roll `{mechanic.name}` has a `step` and a `threshold`: the threshold is never read",
            "a roll with a threshold is taken on what the chain lost, after it: remove `step`, or `threshold`",
        )


def _later(step: int | None, than: int | None) -> bool:
    return step is not None and than is not None and step > than


def _at(mechanic: Mechanic, message: str, help: str) -> Diagnostic:
    return RULE.diagnostic(message, mechanic.span, target=mechanic.name, help=help, section_id=mechanic.section_id)
