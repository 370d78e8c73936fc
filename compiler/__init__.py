"""The rulebook compiler: read, check, link and publish tabletop rulebooks."""

__version__ = "0.1.0"
