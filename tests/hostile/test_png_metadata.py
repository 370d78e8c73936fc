"""A PNG's compressed metadata is counted as it inflates: a 1 x 1 picture whose colour profile (``iCCP``) inflates to
1 GiB, 1 MB of file, passed the lint, then took Typst past its 2 GB and was left out of the PDF (the eighteenth probe
of issue 32). Each stream is inflated a megabyte at a time, counted and dropped, only as far as the limit."""

from __future__ import annotations

import base64
import struct
import zlib
from pathlib import Path

import pytest

import rulebook.picture_size
from rulebook.picture_size import MAX_METADATA_BYTES, too_much_metadata
from rulebook.pictures import Refusal, published_picture
from rulebook.svg_pictures import UnsafeSvg, sanitised_svg


def _chunk(kind: bytes, body: bytes) -> bytes:
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))


def _zeros(size: int) -> bytes:
    """``size`` zero bytes, deflated a megabyte at a time."""
    packer = zlib.compressobj(9)
    block = bytes(1024 * 1024)
    return b"".join(packer.compress(block) for _ in range(size // len(block))) + packer.flush()


def _png(metadata: bytes) -> bytes:
    """A 1 x 1 RGB PNG with ``metadata`` chunks before its image data."""
    header = _chunk(b"IHDR", struct.pack(">II5B", 1, 1, 8, 2, 0, 0, 0))
    pixels = _chunk(b"IDAT", zlib.compress(b"\x00\x00\x00\x00"))
    return b"\x89PNG\r\n\x1a\n" + header + metadata + pixels + _chunk(b"IEND", b"")


BOMB = _zeros(256 * 1024 * 1024)
METADATA = {
    "iCCP": b"ICC profile\x00\x00" + BOMB,
    "zTXt": b"Comment\x00\x00" + BOMB,
    "iTXt": b"XML:com.adobe.xmp\x00\x01\x00en\x00\x00" + BOMB,
}


_INFLATER = zlib.decompressobj


class _CountingInflater:
    """A zlib inflater counting the bytes it gives."""

    given = 0

    def __init__(self) -> None:
        self.inflater = _INFLATER()

    def decompress(self, data: bytes, most: int) -> bytes:
        out = self.inflater.decompress(data, most)
        _CountingInflater.given += len(out)
        return out

    @property
    def unconsumed_tail(self) -> bytes:
        return self.inflater.unconsumed_tail

    @property
    def eof(self) -> bool:
        return self.inflater.eof


@pytest.mark.parametrize("kind", METADATA)
def test_metadata_inflating_past_the_limit_is_refused_counted_to_the_limit(
    kind: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(rulebook.picture_size.zlib, "decompressobj", _CountingInflater)
    _CountingInflater.given = 0
    picture = tmp_path / "bomb.png"
    picture.write_bytes(_png(_chunk(kind.encode(), METADATA[kind])))
    refused = published_picture(picture)
    assert isinstance(refused, Refusal)
    assert refused.reason.startswith(f"it is a PNG whose compressed metadata (its `{kind}` chunk")
    assert "more than 16 MB" in refused.reason
    assert _CountingInflater.given <= MAX_METADATA_BYTES + 2 * 1024 * 1024  # never the 256 MiB


def test_a_picture_an_svg_carries_is_counted_too() -> None:
    carried = base64.b64encode(_png(_chunk(b"iCCP", METADATA["iCCP"]))).decode()
    svg = (
        f'<svg xmlns="http://www.w3.org/2000/svg"><image width="1" height="1" href="data:image/png;base64,{carried}"/>'
    )
    with pytest.raises(UnsafeSvg) as refused:
        sanitised_svg(f"{svg}</svg>".encode())
    assert str(refused.value).startswith("a picture it carries is refused: it is a PNG whose compressed metadata")


def test_a_colour_profile_and_texts_of_a_camera_pass(tmp_path: Path) -> None:
    """A profile of a megabyte, texts of a few: as an editor writes them; several together under the limit."""
    profile = b"ICC profile\x00\x00" + zlib.compress(bytes(range(256)) * 4096)
    texts = _chunk(b"zTXt", b"Comment\x00\x00" + zlib.compress(b"x" * 5_000_000)) * 2
    data = _png(_chunk(b"iCCP", profile) + texts)
    assert too_much_metadata(data) is None
    picture = tmp_path / "camera.png"
    picture.write_bytes(data)
    assert published_picture(picture) == data
