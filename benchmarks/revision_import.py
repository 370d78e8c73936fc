"""How to run an exported revision of the compiler as ``python -m ...`` beside this environment's install.

Before the package took its own import name, the folder ``compiler/`` was imported as ``compiler`` (and the
engine as the top-level ``engine``). Since, ``compiler/`` is the package ``rulebook``, which only an install
maps: for a checkout on ``PYTHONPATH``, a folder holding a link ``rulebook -> <checkout>/compiler`` is put
first on the path instead, so that the revision's own code runs, not the installed one.
"""

from __future__ import annotations

from pathlib import Path


def runnable(checkout: Path) -> tuple[str, str]:
    """``(PYTHONPATH, module)`` that run ``checkout``'s own command line with ``python -m module``."""
    if not (checkout / "compiler" / "engine").is_dir():  # before the import name: `python -m compiler`
        return str(checkout), "compiler"
    folder = checkout / ".import-path"
    folder.mkdir(exist_ok=True)
    link = folder / "rulebook"
    if not link.is_symlink():
        link.symlink_to(checkout.resolve() / "compiler", target_is_directory=True)
    return str(folder), "rulebook"
