"""Checking ``rules.json`` against the engine's schema: once per content, the verdict remembered.

Compiling the schema takes about 0.27 s and checking the main book's data about 0.08 s, more than
a whole engine question may take. A ``rules.json`` found valid is remembered by the SHA-256 of the
schema and the data, in ``$XDG_CACHE_HOME/rulebook/valid-rules.txt`` (``~/.cache`` by default, as
black keeps its cache): the same bytes are not checked twice. Only "valid" is remembered, never
"invalid", so an error message is always made afresh. The file holds the 64 newest digests, one a
line; it is written whole under a temporary name and renamed, and when it cannot be read or
written the data is simply checked again. Delete it at any time.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
from pathlib import Path
from typing import Any

import compiler
from engine.errors import RulesError

SCHEMA_PATH = Path(compiler.__file__).parent / "schema" / "rules.schema.json"
"""The schema the engine reads: the one ``rulebook build`` publishes beside every ``rules.json``."""
REMEMBERED = 64
"""How many valid ``rules.json`` contents the cache keeps (a build makes one)."""
_VERSION = b"rulebook valid rules.json 1\n"


def check_schema(raw: bytes, data: Any, schema: bytes, path: Path) -> None:
    """Refuse data that does not follow ``schema``, saying where; a known-valid content is not checked again."""
    digest = hashlib.sha256(_VERSION + hashlib.sha256(schema).digest() + raw).hexdigest()
    cache = cache_file()
    if cache is not None and digest in _remembered(cache):
        return
    _validate(data, schema, path)
    if cache is not None:
        _remember(cache, digest)


def cache_file() -> Path | None:
    """Where verdicts are remembered, or None when the user has no cache folder."""
    base = os.environ.get("XDG_CACHE_HOME", "")
    if not os.path.isabs(base):  # the XDG spec: a relative value is ignored
        try:
            base = str(Path.home() / ".cache")
        except RuntimeError:
            return None
    return Path(base) / "rulebook" / "valid-rules.txt"


def _validate(data: Any, schema_bytes: bytes, path: Path) -> None:
    import fastjsonschema

    schema = json.loads(schema_bytes)
    # fastjsonschema reads draft-07; every keyword the schema uses means the same in draft 2020-12.
    schema["$schema"] = "http://json-schema.org/draft-07/schema#"
    try:
        fastjsonschema.compile(schema)(data)
    except fastjsonschema.JsonSchemaValueException as error:
        where = "$" + (error.name or "data")[len("data") :]
        raise RulesError(f"{path} does not follow its schema at {where}: {error.message}") from error
    except RecursionError:
        raise RulesError(f"{path} nests too deeply to be rule data") from None


def _remembered(cache: Path) -> list[str]:
    try:
        return cache.read_text(encoding="ascii").split()
    except (OSError, UnicodeDecodeError):
        return []


def _remember(cache: Path, digest: str) -> None:
    kept = [digest, *(d for d in _remembered(cache) if d != digest)][:REMEMBERED]
    temporary = cache.with_name(f".{cache.name}.{os.getpid()}")
    try:
        cache.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        temporary.write_text("\n".join(kept) + "\n", encoding="ascii")
        os.replace(temporary, cache)
    except OSError:
        with contextlib.suppress(OSError):
            temporary.unlink(missing_ok=True)
