"""What the engine implements, by term: the contract between the book and the engine.

A leaf module (it imports nothing), so the compiler's lint can check a book against it
(rule ``unbound-mechanic``) without depending on the engine itself.
"""

BINDINGS: dict[str, tuple[str, ...]] = {
    "odds test": ("characteristic_test", "leadership_test"),
    "odds reroll": ("reroll_dice",),
    "turns": ("game_turn", "player_turn"),
    "army": ("army_list", "category", "choice_0x", "point_cost"),
    "modify": ("priority_of_modifiers",),
    "pregame": ("deployment_zone", "undeployed_unit_number"),
}
"""The terms each engine command implements; the rule data must define them."""
