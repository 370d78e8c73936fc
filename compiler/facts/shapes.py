"""The parts of ``rules.json`` the declarations make: mechanics, values, characteristics, army.

Typed dicts, so the engine and the site keep reading plain JSON while the compiler
is checked against the shape. ``compiler/schema/rules.schema.json`` is the contract;
``tests/test_data.py`` keeps these types and the schema in step. Keys that are Python
keywords (``pass``, ``from``) force the functional form of ``TypedDict``.
"""

from __future__ import annotations

from typing import Literal, TypedDict

Rounding = Literal["up", "down"]
Pass = Literal["at_least", "at_most", "above", "below"]
"""How a roll compares with what it is rolled against (``at-least`` in the source)."""
ValueKind = Literal["count", "turns", "points", "distance", "minimum", "maximum"]
"""What a declared value is: a count, a number of turns, points, a distance, or a characteristic's bound."""
Reroll = Literal["failures", "successes"] | list[int]
"""Which dice of a roll are rolled again (once): the failed ones, the successful ones, or those showing these
results."""


class DiceCount(TypedDict):
    """A roll as numbers: ``count`` dice with ``sides`` sides, added up."""

    count: int
    sides: int


class Place(TypedDict):
    """Where an annotation stands, and the source line without annotations."""

    file: str
    line: int
    column: int
    text: str


Test = TypedDict(
    "Test",
    {
        "term": str,
        "roll": str,
        "dice": DiceCount,
        "pass": Pass,
        "always_fails": list[int],
        "always_passes": list[int],
        "target": int | None,
        "section": str,
    },
)
"""A test named after its term: the roll passes at most (at least, above, below) the tested value or ``target``."""


class DerivedDie(TypedDict):
    """A die made from another (a D3 is a D6 halved)."""

    roll: str
    divide: int
    round: Rounding
    section: str


class Rerolls(TypedDict):
    """The reroll limit."""

    max: int
    term: str | None


class Modifiers(TypedDict):
    """The order characteristic modifiers apply in."""

    term: str
    order: list[Literal["set", "multiply", "add"]]
    round: Rounding


class Repeat(TypedDict):
    """A roll on a roll table, repeated a rolled number of times."""

    times: str
    table: str
    board: str | None
    section: str


class Contest(TypedDict):
    """Both players roll and the higher wins."""

    roll: str
    dice: DiceCount
    bonus: str | None
    ties: Literal["first", "second"]
    section: str


Reading = TypedDict("Reading", {"reading": str, "pass": Pass | None, "against": str | None, "place": Place})
"""Another reading of a roll, where the text says otherwise (an example)."""

Roll = TypedDict(
    "Roll",
    {
        "term": str,
        "roll": str,
        "dice": DiceCount,
        "pass": Pass,
        "against": str,
        "each": str | None,
        "step": int | None,
        "instead_of": str | None,
        "cancels": str | None,
        "threshold": int | None,
        "fail_adds": str | None,
        "always_passes": list[int],
        "always_fails": list[int],
        "critical": list[int],
        "critical_skips": list[str],
        "critical_adds": int,
        "reroll": Reroll | None,
        "section": str,
        "place": Place,
        "readings": list[Reading],
    },
)
"""A roll of a chain (to hit, to injure, a save), rolled against names the player gives.

``always_passes`` and ``always_fails``: results (natural rolls) that pass or fail whatever the target;
``critical``: results that are critical successes, which pass the steps ``critical_skips`` names without
rolling them and give ``critical_adds`` more successes; ``reroll``: the dice rolled again, once."""


class Mechanics(TypedDict):
    """``mechanics``: what the ``<mechanic>`` annotations make, but the army's rules."""

    tests: dict[str, Test]
    dice: dict[str, DerivedDie]
    rerolls: Rerolls | None
    modifiers: Modifiers | None
    repeats: dict[str, Repeat]
    contests: dict[str, Contest]
    rolls: dict[str, Roll]


Leader = TypedDict("Leader", {"name": str, "count": int, "from": list[str], "term": str | None, "section": str})
"""The leader an army names (``name``: the book's word for it): ``count`` of them, from these categories."""


class ArmyRules(TypedDict):
    """``army_composition.rules``: the army-composition rules the prose states."""

    count_together: list[str]
    leader: Leader | None
    marked: dict[str, int]
    whole_points: Rounding | None
    slash_prices: list[str]


class ArmyRulesPart(TypedDict, total=False):
    """What one army-composition annotation states (it may state several rules)."""

    count_together: list[str]
    leader: Leader
    marked: dict[str, int]
    whole_points: Rounding
    slash_prices: list[str]


class DeclaredValue(TypedDict):
    """A number the book states and declares (``<value name="..." kind="..." term="...">``)."""

    value: int
    kind: ValueKind
    term: str | None
    """The term of the book it is about."""
    section: str
    """Where it is stated."""


class ProfileRow(TypedDict):
    """A row of the characteristics profile, as the table gives it."""

    abbreviation: str
    term: str
    name: str
    definition: str


class Characteristic(ProfileRow):
    """A characteristic of the profile with its range."""

    min: int | None
    max: int | None


class Characteristics(TypedDict):
    """The characteristics profile and the range of every characteristic."""

    min: int | None
    max: int | None
    profile: list[Characteristic]


class Category(TypedDict):
    """A category of the army list with its limits."""

    terms: list[str]
    name: str
    min_percent: int | None
    max_percent: int | None
    duplicate_limit: int | None


class DuplicateLimit(TypedDict):
    """A variant's duplicate limit for a category: fixed, or a multiple of a 0-X choice's X."""

    terms: list[str]
    name: str
    limit: int | None
    multiplier: Literal["1/2", "2"] | None
    rounding: Rounding | None


class Variant(TypedDict):
    """An army size the book names, for armies of at most ``max_points`` or at least ``min_points``."""

    id: str
    """The declaration's name: the variant's term."""
    term: str
    section: str
    max_points: int | None
    min_points: int | None
    least_entries: int | None
    """The fewest entries an army of this size has, where it changes the standard one."""
    duplicate_limits: list[DuplicateLimit]


class ArmyComposition(TypedDict):
    """The book's army composition rules, as its declarations name them."""

    term: str | None
    """The term of the standard army's declaration (violations cite it)."""
    section: str | None
    points_below_limit: int | None
    """How far below the point limit an army may fall."""
    least_entries: int | None
    """The fewest entries an army has, the ``not_counted`` categories excluded."""
    not_counted: list[str]
    """Categories whose entries do not count toward ``least_entries``."""
    categories: list[Category]
    variants: list[Variant]
    rules: ArmyRules
