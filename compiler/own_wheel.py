"""The compiler's own wheel, made again from the installed package, for a project's CI to install.

The compiler is not on PyPI (a package of its name there would not be ours), so the workflow
``rulebook init`` writes installs the very compiler that made the project: ``init`` puts its wheel
in the project's ``tools/``, to be committed. The wheel is made from what is installed: the
package's files (its ``rulebook/`` folder, the guides included) and its metadata, the same
files a wheel built from the repository holds; ``RECORD`` is written anew with every file's
hash. From a source checkout (an editable install) the package's folder is the repository's
``compiler/`` and the guides its ``docs/``. The archive is the same bytes on every run: sorted
names, one fixed time, fixed permissions.
"""

from __future__ import annotations

import base64
import hashlib
import io
import zipfile
from collections.abc import Iterator
from importlib import metadata, resources
from importlib.resources.abc import Traversable

from rulebook.errors import UserError
from rulebook.guides import DISTRIBUTION, guides_folder

PACKAGE = "rulebook"
WHEEL = "Wheel-Version: 1.0\nGenerator: rulebook init\nRoot-Is-Purelib: true\nTag: py3-none-any\n"
"""The wheel's ``WHEEL`` file: pure Python, any Python 3, any platform."""
_KEPT_METADATA = ("METADATA", "entry_points.txt", "top_level.txt")
_TIME = (1980, 1, 1, 0, 0, 0)
"""The time every member carries (the earliest a zip can hold): the archive does not depend on when it was made."""


def wheel_name() -> str:
    """The wheel's file name: ``rulebook_compiler-0.1.0-py3-none-any.whl``."""
    return f"{_stem()}-py3-none-any.whl"


def own_wheel() -> bytes:
    """The installed compiler as a wheel, the same bytes every time."""
    members = dict(_package_files())
    info = f"{_stem()}.dist-info"
    members |= {f"{info}/{name}": data for name, data in _metadata_files()}
    members[f"{info}/WHEEL"] = WHEEL.encode("utf-8")
    record = f"{info}/RECORD"
    lines = [f"{name},sha256={_digest(data)},{len(data)}" for name, data in sorted(members.items())]
    members[record] = ("\n".join([*lines, f"{record},,"]) + "\n").encode("utf-8")
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name in sorted(members):
            entry = zipfile.ZipInfo(name, _TIME)
            entry.external_attr = 0o644 << 16
            entry.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(entry, members[name])
    return buffer.getvalue()


def _stem() -> str:
    """The distribution's name and version as wheel file names write them: ``rulebook_compiler-0.1.0``."""
    installed = _installed().metadata
    return f"{installed['Name'].replace('-', '_').lower()}-{installed['Version']}"


def _package_files() -> Iterator[tuple[str, bytes]]:
    """Every file of the package as the wheel names it (``rulebook/...``), compiled files left out."""
    package = resources.files(PACKAGE)
    yield from _walk(package, PACKAGE)
    if not (package / "docs").is_dir():  # a source checkout: the guides are the repository's docs/
        for guide in guides_folder().iterdir():
            if guide.name.endswith(".md") and guide.is_file():
                yield f"{PACKAGE}/docs/{guide.name}", guide.read_bytes()


def _walk(folder: Traversable, prefix: str) -> Iterator[tuple[str, bytes]]:
    for entry in sorted(folder.iterdir(), key=lambda e: e.name):
        name = f"{prefix}/{entry.name}"
        if entry.name == "__pycache__" or entry.name.endswith((".pyc", ".pyo")):
            continue
        if entry.is_dir():
            yield from _walk(entry, name)
        elif entry.is_file():
            yield name, entry.read_bytes()


def _metadata_files() -> Iterator[tuple[str, bytes]]:
    """The installed distribution's own metadata: its description, commands, top-level name and licences."""
    distribution = _installed()
    for name in _KEPT_METADATA:
        text = distribution.read_text(name)
        if text is not None:
            yield name, text.encode("utf-8")
    for licence in distribution.metadata.get_all("License-File") or ():
        text = distribution.read_text(f"licenses/{licence}")
        if text is not None:
            yield f"licenses/{licence}", text.encode("utf-8")


def _installed() -> metadata.Distribution:
    """The installed distribution (a ``.dist-info``: not a source tree's ``.egg-info`` that may stand before it)."""
    for distribution in metadata.distributions(name=DISTRIBUTION):
        if distribution.read_text("METADATA") is not None:
            return distribution
    raise UserError(f"the rulebook compiler is not installed as a package ({DISTRIBUTION}): no wheel can be made")


def _digest(data: bytes) -> str:
    """A file's hash as ``RECORD`` writes it: urlsafe base64 of SHA-256, without padding."""
    return base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode("ascii")
