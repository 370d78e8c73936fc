"""``rulebook convert``: a rulebook turned from XML into the Markdown dialect, or back, losslessly for the model.

The source is read by its format's reader (:mod:`rulebook.readers.formats`), and its document written by the
other format's writer (:mod:`rulebook.convert.markdown_writer`, :mod:`rulebook.convert.xml_writer`): read
back, the result gives the same model, but for white space in text and the places of nodes. The source's
comments and suppressions, which the model does not hold, are carried by :mod:`rulebook.convert.marks`.
"""

from __future__ import annotations

from collections.abc import Sequence

from rulebook.convert.failure import ConversionError
from rulebook.convert.marks import Converted, Mark, NotCarried, carry_marks
from rulebook.model import Document
from rulebook.source import SourceText, Span

__all__ = ["TARGETS", "ConversionError", "Converted", "Mark", "NotCarried", "convert_document", "convert_source"]

TARGETS = {"markdown": ".md", "xml": ".xml"}
"""The formats a rulebook converts into, with their files' suffix."""


def convert_document(document: Document, target: str) -> str:
    """The document written in ``target`` (``markdown`` or ``xml``)."""
    if target == "markdown":
        from rulebook.convert.markdown_writer import write_markdown

        return write_markdown(document)
    from rulebook.convert.xml_writer import write_xml

    return write_xml(document)


def convert_source(
    document: Document,
    source: SourceText,
    target: str,
    findings: Sequence[tuple[Span, str]] = (),
    *,
    markdown_source: bool,
) -> Converted:
    """The document read from ``source`` (Markdown, plain or the dialect, or not) written in ``target``, with the
    source's comments and suppressions where they stood (:mod:`rulebook.convert.marks`), and those not carried;
    ``findings``: the places and codes of the lint's findings of the source, before suppression."""
    written = convert_document(document, target)
    if target == "markdown":
        from rulebook.readers.markdown import parse_dialect

        return carry_marks(
            source, document, written, parse_dialect, findings, markdown_source=markdown_source, to_markdown=True
        )
    from rulebook.xml_source import parse_xml_string

    return carry_marks(
        source, document, written, parse_xml_string, findings, markdown_source=markdown_source, to_markdown=False
    )
