"""The bundled engine: the game's mechanics, computed from the compiled rule data (``rules.json``).

It reads nothing else: no XML, and no constant of its own for anything the book says. Every
result names the rules (term ids and site anchors) it used. Probabilities are exact fractions.
"""
