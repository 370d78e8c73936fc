"""One module per lint rule: its documentation, its ``RULE`` and (for book rules) ``check``."""
