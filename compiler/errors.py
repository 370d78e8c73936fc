"""Errors a user can do something about: reported in plain words with exit status 2, never a traceback.

Kept apart from the modules that raise them, so the command line names them without importing
the site builder or the translation tools at start-up.
"""


class UserError(Exception):
    """A problem with the input or the setup; the message says what, in plain words."""


class InvalidRuleData(UserError):
    """The compiled data does not validate against its schema (a compiler bug): nothing is written."""


class SiteBuildError(UserError):
    """MkDocs could not build the site; the message says why. The last good site is kept."""


class TerminologyError(UserError):
    """A terminology or waivers file cannot be used; the message says why."""
