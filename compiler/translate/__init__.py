"""Translations: reading them against the original, aligning, comparing, terminology."""
