"""What each engine question reads, and how a book declares it: the contract between a book and the engine.

A leaf module (it imports nothing), so the compiler's lint can check a book against it (rule
``unbound-mechanic``) without depending on the engine, and the engine can tell a book that declares nothing
for a question what to declare, in the syntax of the book's format. The engine knows no game's words: every
name it reads is the book's own, found by what the book declares it to be.
"""

DECLARATIONS: dict[str, dict[str, str]] = {
    "turn structure": {
        "what": "no turn structure",
        "xml": 'mark the sequence of a turn\'s phases: <sequence kind="turn">',
        "markdown": 'put <!-- rulebook: sequence kind="turn" --> on the line before the list of a turn\'s phases',
    },
    "setup": {
        "what": "no setup sequence",
        "xml": 'mark the steps that set up a game: <sequence kind="setup">',
        "markdown": 'put <!-- rulebook: sequence kind="setup" --> on the line before the list of the steps that set '
        "up a game",
    },
    "test": {
        "what": "no test",
        "xml": 'annotate the test in its definition: <mechanic name="TERM" roll="2D6" pass="at-most"/>',
        "markdown": 'annotate the test where the text states it: <!-- rulebook: mechanic name="TERM" roll="2D6" '
        'pass="at-most" -->',
    },
    "rerolls": {
        "what": "no reroll rule",
        "xml": 'annotate the rule: <mechanic name="TERM" max="1"/>',
        "markdown": 'annotate the rule: <!-- rulebook: mechanic name="TERM" max="1" -->',
    },
    "roll table": {
        "what": "no roll table",
        "xml": 'mark a table, list or sequence the rules roll on: <table roll="D6" id="NAME" title="...">',
        "markdown": 'put <!-- rulebook: table roll="D6" id="NAME" --> (or list) on the line before a table or list '
        "the rules roll on",
    },
    "modifier order": {
        "what": "no order of modifiers",
        "xml": 'annotate the rule that orders modifiers: <mechanic name="TERM" order="set multiply add" round="up"/>',
        "markdown": 'annotate the rule that orders modifiers: <!-- rulebook: mechanic name="TERM" order="set multiply '
        'add" round="up" -->',
    },
    "chain": {
        "what": "no chain of rolls",
        "xml": 'annotate each roll of the chain in its definition, one a step: <mechanic name="TERM" roll="D6" '
        'pass="at-least" against="NAME" step="1"/>',
        "markdown": "annotate each roll of the chain where the text states it, one a step: <!-- rulebook: mechanic "
        'name="TERM" roll="D6" pass="at-least" against="NAME" step="1" -->',
    },
    "standard army": {
        "what": "no army composition",
        "xml": 'declare the standard army: <mechanic name="TERM" categories="TABLE"/>, with <table id="TABLE" '
        'kind="categories">',
        "markdown": "declare the army in an XML source: a Markdown book has no tables of categories yet",
    },
}
"""Each declaration a question reads: what a book that lacks it is told, and how to declare it in each format."""

QUESTIONS: dict[str, tuple[str, ...]] = {
    "turns": ("turn structure",),
    "pregame": ("setup",),
    "odds test": ("test",),
    "odds reroll": ("rerolls",),
    "odds table": ("roll table",),
    "modify": ("modifier order",),
    "chain": ("chain",),
    "army": ("standard army",),
}
"""The declarations each engine question reads (the others it may read are optional: a range, rerolls)."""

COMPANIONS: dict[str, tuple[str, str]] = {
    "turns value": ("turn structure", "turns"),
    "army size": ("standard army", "army"),
}
"""A declaration the engine reads only beside another: (the other, the question that reads both)."""
