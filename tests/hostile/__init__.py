"""Hostile input: every class of input a careless user or a hostile contributor can give, refused or inert."""
