"""Languages as data (one TOML file per language) and what is read with them: numbers, quantities, phrases."""
