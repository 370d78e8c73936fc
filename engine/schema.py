"""Checking ``rules.json`` against the engine's schema: once per content, with the validator compiled once.

Compiling the schema with fastjsonschema takes about 0.27 s (generating the code, then Python
compiling it) and checking the main book's data about 0.08 s: more than a whole engine question
may take. Both results are remembered in the user's cache folder, ``$XDG_CACHE_HOME/rulebook/``
(``~/.cache/rulebook/`` by default; black keeps its cache the same way):

- ``valid-rules.txt``: the BLAKE2b digest of the schema and the data of the 64 newest ``rules.json``
  found valid, one a line. The same bytes are not checked twice; "invalid" is never remembered,
  so an error message is always made afresh.
- ``validator-KEY.marshal``: the validator compiled to Python bytecode, keyed by the schema,
  the fastjsonschema version and the Python version; loading it takes about 10 ms.

Files are written whole under a temporary name and renamed. When the folder cannot be read or
written, the data is simply checked again; deleting it at any time loses nothing.
"""

from __future__ import annotations

import contextlib
import json
import marshal
import os
import sys
from collections.abc import Callable
from pathlib import Path
from types import CodeType
from typing import Any

from engine.errors import RulesError

try:  # hashlib's own BLAKE2, without loading OpenSSL as `import hashlib` does (4 ms of a 50 ms question)
    from _blake2 import blake2b
except ImportError:  # pragma: no cover - a Python without CPython's module
    from hashlib import blake2b


def _schema_path() -> Path:
    """The schema the engine reads: the contract, shipped as data of the compiler's package (no code of it is
    imported), the same one ``rulebook build`` publishes beside every ``rules.json``. The two packages are
    installed side by side; ``importlib.resources`` (5 ms of start-up) only finds it where they are not."""
    beside = Path(__file__).parent.parent / "compiler" / "schema" / "rules.schema.json"
    if beside.is_file():
        return beside
    from importlib import resources

    return Path(str(resources.files("compiler").joinpath("schema/rules.schema.json")))


SCHEMA_PATH = _schema_path()
REMEMBERED = 64
"""How many valid ``rules.json`` contents the cache keeps (a build makes one)."""
_VERSION = b"rulebook valid rules.json 2\n"


def check_schema(raw: bytes, data: Any, schema: bytes, path: Path) -> None:
    """Refuse data that does not follow ``schema``, saying where; a known-valid content is not checked again."""
    folder = cache_folder()
    if folder is not None and _digest(raw, schema) in _remembered(folder):
        return
    _validate(data, schema, folder, path)
    remember_valid(raw, schema)


def remember_valid(raw: bytes, schema: bytes) -> None:
    """Remember that ``raw`` follows ``schema``: for the engine once it has checked, or for a build that has
    (it checks the data it writes against the same schema), so that the first question after it is quick."""
    folder = cache_folder()
    if folder is not None:
        digest = _digest(raw, schema)
        kept = [digest, *(d for d in _remembered(folder) if d != digest)][:REMEMBERED]
        _write(folder / "valid-rules.txt", ("\n".join(kept) + "\n").encode("ascii"))


def _digest(raw: bytes, schema: bytes) -> str:
    return blake2b(_VERSION + blake2b(schema).digest() + raw, digest_size=32).hexdigest()


def cache_folder() -> Path | None:
    """Where verdicts and the compiled validator are kept, or None when the user has no cache folder."""
    base = os.environ.get("XDG_CACHE_HOME", "")
    if not os.path.isabs(base):  # the XDG spec: a relative value is ignored
        try:
            base = str(Path.home() / ".cache")
        except RuntimeError:
            return None
    return Path(base) / "rulebook"


def _validate(data: Any, schema: bytes, folder: Path | None, path: Path) -> None:
    import fastjsonschema

    try:
        _validator(schema, folder)(data)
    except fastjsonschema.JsonSchemaValueException as error:
        where = "$" + (error.name or "data")[len("data") :]
        raise RulesError(f"{path} does not follow its schema at {where}: {error.message}") from error
    except RecursionError:
        raise RulesError(f"{path} nests too deeply to be rule data") from None


def _validator(schema: bytes, folder: Path | None) -> Callable[[Any], Any]:
    """The schema's validator, from the cache folder when it was compiled before."""
    import fastjsonschema

    key = blake2b(schema + fastjsonschema.VERSION.encode() + sys.version.encode(), digest_size=12).hexdigest()
    cached = folder / f"validator-{key}.marshal" if folder is not None else None
    code = _load_code(cached) if cached is not None else None
    if code is None:
        definition = json.loads(schema)
        # fastjsonschema reads draft-07; every keyword the schema uses means the same in draft 2020-12.
        definition["$schema"] = "http://json-schema.org/draft-07/schema#"
        definition.pop("$id", None)  # so the generated code's entry point is called `validate`
        code = compile(fastjsonschema.compile_to_code(definition), "<rules.schema.json>", "exec")
        if cached is not None:
            _write(cached, marshal.dumps(code))
            for older in cached.parent.glob("validator-*.marshal"):  # another schema's, or another Python's
                if older != cached:
                    with contextlib.suppress(OSError):
                        older.unlink()
    namespace: dict[str, Any] = {}
    exec(code, namespace)
    return namespace["validate"]  # type: ignore[no-any-return]


def _load_code(path: Path) -> CodeType | None:
    try:
        code = marshal.loads(path.read_bytes())
    except (OSError, ValueError, EOFError, TypeError):
        return None
    return code if isinstance(code, CodeType) else None


def _remembered(folder: Path) -> list[str]:
    try:
        return (folder / "valid-rules.txt").read_text(encoding="ascii").split()
    except (OSError, UnicodeDecodeError):
        return []


def _write(path: Path, content: bytes) -> None:
    """Write a cache file whole (a temporary name, then a rename); a cache that cannot be written is skipped."""
    temporary = path.with_name(f".{path.name}.{os.getpid()}")
    try:
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        temporary.write_bytes(content)
        os.replace(temporary, path)
    except OSError:
        with contextlib.suppress(OSError):
            temporary.unlink(missing_ok=True)
