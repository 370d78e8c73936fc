"""Comparing two editions of a book: what a later edition added, removed and changed.

Reported by ``rulebook diff`` (:mod:`rulebook.diff`) with the place in the new edition as the
primary span and the same place in the old edition as the counterpart (a removal has only the
old place). These are findings for the rules team, not problems: ``diff`` exits 0 whatever
it finds; severities say what a reader of the new edition must not miss.
"""

from __future__ import annotations

from rulebook.diagnostics import Rule, Severity

SECTION_ADDED = Rule(
    "RB701",
    "section-added",
    Severity.INFO,
    "the new edition has a section the old one does not",
    """
## What it does
Matches the sections of both editions by title (case, separators and
plurals folded: "Turn" is "Turns"), never by position, and reports each
section of the new edition that no old section matches.

## Why is this bad?
Nothing is wrong: a new section is new rules, which the change notes and
the translators must pick up.

## Example
The later *Turns* edition adds *One Use Only*.
""",
)

SECTION_REMOVED = Rule(
    "RB702",
    "section-removed",
    Severity.WARNING,
    "a section of the old edition is gone from the new one",
    """
## What it does
Reports each old section, within the part of the book the new edition
covers, that no section of the new edition matches by title. When the new
edition covers only some chapters, the others are not reported.

## Why is this bad?
A rule that players know disappeared; or it was renamed, which the diff
cannot tell from a removal and an addition: read both.

## Example
An old *Close Combat* section with no section of that title in the new
edition.
""",
)

TEXT_CHANGED = Rule(
    "RB703",
    "text-changed",
    Severity.INFO,
    "a sentence of a section was added, removed, moved or reworded",
    """
## What it does
Pairs the sentences of each matched section in order (a sentence removed
here and added, alike, elsewhere is one sentence moved) and reports each
sentence whose words changed, with the words before and now.

## Why is this bad?
Rewording can change a rule; it is also what the translations must follow.

## Example
"Each Player Turn consists of four Phases" became "five phases".
""",
)

NUMBER_CHANGED = Rule(
    "RB704",
    "number-changed",
    Severity.WARNING,
    "a number a section states changed",
    """
## What it does
Reads the numbers of each matched section (digits and number words: "four"
is 4) and reports those the old edition states and the new one does not,
and the reverse.

## Why is this bad?
A changed number is a changed rule: a range, a count of phases, a test's
target.

## Example
The player turn had four phases and has five.
""",
)

STEP_ADDED = Rule(
    "RB705",
    "step-added",
    Severity.WARNING,
    "a sequence gained a step",
    """
## What it does
Compares the ordered steps of each matched section (a numbered list, or
`1 - Rally Phase` lines in the plain-text export) and reports each step
of the new edition the old sequence does not have.

## Why is this bad?
Players play the sequence in order: a new step changes every turn.

## Example
The player turn gains a *Rally Phase*.
""",
)

STEP_REMOVED = Rule(
    "RB706",
    "step-removed",
    Severity.WARNING,
    "a sequence lost a step",
    """
## What it does
Reports each step of an old sequence that the new sequence does not have
and that no new step replaces in the same place.

## Why is this bad?
Players who know the old sequence will still play the step.

## Example
A *Remaining Moves* step that the new movement phase leaves out.
""",
)

STEP_RENAMED = Rule(
    "RB707",
    "step-renamed",
    Severity.WARNING,
    "a step of a sequence has a new name in the same place",
    """
## What it does
Reports a step of an old sequence replaced, in the same place, by a step
with another name.

## Why is this bad?
Every rule that names the step by its old name must follow.

## Example
The *Close Combat Phase* became the *Melee Phase*.
""",
)

TERM_ADDED = Rule(
    "RB708",
    "term-added",
    Severity.INFO,
    "the new edition defines a term the old one does not",
    """
## What it does
Compares the defined terms of both editions (when both mark terms) and
reports each new term that is not a renamed old one.

## Why is this bad?
Nothing is wrong: the glossary and the terminology of the translations
gain an entry.

## Example
A new term `melee_phase` defined in the new edition.
""",
)

TERM_REMOVED = Rule(
    "RB709",
    "term-removed",
    Severity.WARNING,
    "a term of the old edition is no longer defined",
    """
## What it does
Reports each term the old edition defines that the new one neither defines
nor renamed.

## Why is this bad?
References to it, in the book, in army books and in translations, now
point at nothing.

## Example
`close_combat_phase` defined in the old edition and in no form in the new.
""",
)

TERM_RENAMED = Rule(
    "RB710",
    "term-renamed",
    Severity.WARNING,
    "a term has a new name with the same definition",
    """
## What it does
Pairs a term removed with a term added whose definitions are alike (at
least 80% of their text) and reports them as one renamed term.

## Why is this bad?
Every reference to the old name must follow, and the translations'
terminology too.

## Example
`brawl` renamed `melee`, its definition unchanged.
""",
)
