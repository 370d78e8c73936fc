"""Comparing a translation with its original: what is missing, what says otherwise, what the conversion broke.

Reported by ``rulebook compare`` (``compiler/translate/``) with the place in the translation as the
primary span and the same place in the original as the counterpart.
"""

from __future__ import annotations

from rulebook.diagnostics import Rule, Severity

MISSING_SECTION = Rule(
    "RB601",
    "missing-section",
    Severity.WARNING,
    "a section of the original has no counterpart in the translation",
    """
## What it does
Aligns the sections of both books (by their numbering, the numbers they
state, their length and title cognates) and reports each section of the
original that no section of the translation pairs with.

## Why is this bad?
A reader of the translation misses the whole rule. Often a chapter is
simply not translated yet; sometimes the translation merged the section
into another one, which the alignment shows as a missing section and a
long neighbour.

## Example
The English *Deployment Phase* chapter has no French chapter: the French
edition stops after the pre-game sequence.
""",
)

EXTRA_SECTION = Rule(
    "RB602",
    "extra-section",
    Severity.INFO,
    "a section of the translation has no counterpart in the original",
    """
## What it does
Reports each numbered section of the translation that no section of the
original pairs with. Unnumbered sub-headings inside a paired section are
compared with their parent's text instead (the translation often makes a
heading of a table cell or a titled note).

## Why is this bad?
Usually nothing is wrong: translators add a foreword or a note on measures.
But a section the original does not have is a rule the original does not
make, and it should be read once by someone who knows both.

## Example
The French *Note des traducteurs* (1.2) has no English original.
""",
)

MISSING_SENTENCE = Rule(
    "RB603",
    "missing-sentence",
    Severity.WARNING,
    "a sentence of the original has no counterpart in the translated section",
    """
## What it does
Aligns the sentences of each pair of aligned sections (a length-based
dynamic programme in the manner of Gale and Church, anchored by the
numbers, the terms and the punctuation both sentences contain) and
reports each sentence of the original left without a counterpart.

## Why is this bad?
A sentence that is not translated is a rule the translation's readers do
not know: a paragraph missing at the end of a section goes unnoticed by
anyone reading the translation alone.

## Example
The English *Generating Spells* ends with "Spells that are not generated
using these rules ... are ignored for the purpose of duplicated spells.";
the French section stops before it.
""",
)

ADDED_SENTENCE = Rule(
    "RB604",
    "added-sentence",
    Severity.WARNING,
    "a sentence of the translation has no counterpart in the original section",
    """
## What it does
The other side of `missing-sentence`: reports each sentence of a
translated section that no sentence of the original section aligns with.

## Why is this bad?
The translation states something the original does not: an added
example, a caption, or a rule of the translator's own making.

## Example
A French sentence added to *Rangs complets* that the English *Full Ranks*
does not have.
""",
)

NUMBERS_DIFFER = Rule(
    "RB611",
    "numbers-differ",
    Severity.ERROR,
    "aligned sentences state different quantities",
    """
## What it does
Reads the quantities of each pair of aligned sentences as typed facts
(value, measure, comparison, sign; numbers written as digits or words in
either language, halves and doubles, fractions, ordinals, dice, inches,
percentages, slash prices) and reports a value one sentence states and
the other does not. Numbers that are not quantities are left out: those
inside proper names ("The 3rd Age"), section titles, pointers ("figure 1",
"table 2", "paragraphe 2.2.5"), step numbers and metric conversions.

## Why is this bad?
A number that changed in translation changes the rule: a line that needs
5 fighters in one language and 6 in the other.

## Example
```text
EN: A full line is at least 5 fighters wide.
FR: Une ligne complète compte au moins 6 combattants.
```
""",
)

COMPARISON_DIFFERS = Rule(
    "RB612",
    "comparison-differs",
    Severity.ERROR,
    "aligned sentences compare the same value differently",
    """
## What it does
For each value both aligned sentences state with a comparison ("more
than", "at least", "within", "up to", "or more"; "plus de", "au moins",
"à moins de", "jusqu'à", "ou plus"), reports when the comparisons differ:
strictly more against at least, within against beyond.

## Why is this bad?
The numbers agree, so a number check passes, but the rule does not: a
fighter kept *more than* 1" away may not stand at exactly 1"; one kept *at
least* 1" away may.

## Example
```text
EN: ... must be separated by more than 1" from any other crews ...
FR: ... laisser un espace d'au moins 1" entre elles ...
```
""",
)

SIGN_DIFFERS = Rule(
    "RB613",
    "sign-differs",
    Severity.ERROR,
    "aligned sentences give the same modifier different signs",
    """
## What it does
Compares the signs of the values both aligned sentences state: a
modifier written `-1` on one side and `1` or `+1` on the other.

## Why is this bad?
`-1` and `+1` are opposite rules; a sign lost in conversion (a minus
read as a dash) silently turns a penalty into a bonus.

## Example
```text
EN: Addition and Subtraction (such as 1 or +3).
FR: Additions et soustractions, comme -1 ou +3.
```
Here the original lost its minus sign.
""",
)

TABLE_ROW = Rule(
    "RB614",
    "table-row",
    Severity.ERROR,
    "a table row is missing from the translation, or states other numbers",
    """
## What it does
Compares the tables of each pair of aligned sections, wherever they stand
(inside notes, definitions and list items too). Rows are matched by key,
not position: the terms the original's key cell refers to, found through
the terminology (*Core* is *Base*), else the same key text, else the same
key numbers. Reports a row the translated table lacks, and a matched row
whose values state other numbers.

## Why is this bad?
Tables hold the numbers players look up most: a duplicate limit or a
points share that differs is a different army.

## Example
```text
EN: Core    at least 25%    max 4
FR: Base    min. 25 %       max. 3
```
""",
)

TERM_MISSING = Rule(
    "RB621",
    "term-missing",
    Severity.WARNING,
    "a translated section renders a term by a related term instead of the agreed one",
    """
## What it does
For each term the original section refers to and the terminology
(`terms.toml`) lists, looks for its preferred French rendering or an
accepted variant anywhere in the aligned French section. When none is
there, reports the sentence aligned with the term's first use if that
sentence renders a *related* term instead: one the term's definition
refers to, or whose definition refers to the term.

## Why is this bad?
Game terms are rules: a translation that says *portée* (range) where the
original says Reach points the reader at another rule. A pronoun or
a paraphrase is a translator's choice and is not reported; a neighbouring
term standing for this one is a terminology slip.

## Example
`reach` is « allonge »; a French sentence that says « la moitié de la
portée » (`range`) renders it by a related term.
""",
)

TERM_FORBIDDEN = Rule(
    "RB622",
    "term-forbidden",
    Severity.ERROR,
    "a translated sentence uses a rendering the terminology forbids",
    """
## What it does
Reports each use, in a section aligned with one that refers to the term,
of a variant the terminology lists as `forbidden` for it.

## Why is this bad?
Forbidden variants are renderings known to be wrong or from an older
translation; players learn the wrong word from them.

## Example
```toml
[model]
preferred = "figurine"
forbidden = ["modèle"]
```
""",
)

LOST_REFERENCE = Rule(
    "RB631",
    "lost-reference",
    Severity.WARNING,
    "a cross-reference was lost in conversion (`??`)",
    """
## What it does
Reports each sentence of the translation where the PDF conversion left
`??` in place of a chapter, section or page number.

## Why is this bad?
The reader is sent to "chapter ??": the pointer the original gives is
gone.

## Example
```text
FR: Voir le chapitre ?? à la page ?? pour plus de détails.
EN: ... see Troop Types section for details.
```
""",
)

CONVERSION_DEBRIS = Rule(
    "RB632",
    "conversion-debris",
    Severity.WARNING,
    "text the conversion from PDF left broken",
    """
## What it does
Scans the translation for what a PDF conversion leaves behind: LaTeX
fragments (`$...$`, `\\mathbf`, `\\star`), escaped Markdown read as text
(`\\*`), words split by a line-end hyphen ("exception-nellement"), elisions
that lost their apostrophe ("dêtre"), emphasis glued to the next sentence
(`*...*Placez`), a sentence end without its full stop (a lowercase word,
then a word that only ever starts sentences), broken decimals ("1, 20 m"),
dotless i, soft hyphens, ligatures and replacement characters. Words are
checked against a word list built from the translation itself.

## Why is this bad?
The reader sees `$\\mathbf{1}''$` instead of 1", or a word cut in two;
search and term links miss the broken words.

## Example
```text
un espace d'au moins  $\\mathbf{1}''$  entre elles
```
""",
)

OTHER_SCRIPT = Rule(
    "RB633",
    "other-script",
    Severity.WARNING,
    "a letter from another script that looks Latin",
    """
## What it does
Reports Greek and Cyrillic letters in the translation: a conversion (or an
OCR) sometimes reads a Latin A as a Greek Alpha.

## Why is this bad?
The word looks right but is another word to every search, index and spell
checker: "Αttaques" is not found when searching "Attaques".

## Example
Line 248 of the French seed writes the A of *Attaques* as a Greek capital
alpha.
""",
)

DOUBLED_WORD = Rule(
    "RB634",
    "doubled-word",
    Severity.WARNING,
    "a word written twice in a row",
    """
## What it does
Reports a word repeated in a row ("sur sur"), except repetitions a correct
French sentence makes ("vous vous", "nous nous").

## Why is this bad?
A slip a reader stumbles on, often where a line was joined twice.

## Example
```text
se mettre d'accord sur sur un ou plusieurs Objectifs Secondaires
```
""",
)

PUNCTUATION_SPACING = Rule(
    "RB635",
    "punctuation-spacing",
    Severity.INFO,
    "French punctuation without its space before `! ? ; :`",
    """
## What it does
French typography puts a (narrow no-break) space before `!`, `?`, `;` and
`:`. Reports each such mark glued to the word before it in a French
translation (not in addresses such as `http://`, nor between digits).

## Why is this bad?
Only typography, hence the info severity; but it is what a French reader
notices first, and a conversion from PDF often loses those spaces.

## Example
```text
un symbole « Touché! »
```
Write `Touché !` (with U+202F, or a plain space).
""",
)
