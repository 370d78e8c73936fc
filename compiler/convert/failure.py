"""What a conversion cannot do: the value both writers raise."""

from __future__ import annotations

from rulebook.errors import UserError
from rulebook.source import Span


class ConversionError(UserError):
    """What the other format cannot say, and where the source says it."""

    def __init__(self, message: str, span: Span | None) -> None:
        super().__init__(f"{span}: {message}" if span is not None else message)
        self.span = span
