"""``rulebook convert``: a rulebook turned from XML into the Markdown dialect, or back, losslessly for the model.

The source is read by its format's reader (:mod:`rulebook.readers.formats`), and its document written by the
other format's writer (:mod:`rulebook.convert.markdown_writer`, :mod:`rulebook.convert.xml_writer`): read
back, the result gives the same model, but for white space in text and the places of nodes.
"""

from __future__ import annotations

from rulebook.convert.failure import ConversionError
from rulebook.model import Document

__all__ = ["TARGETS", "ConversionError", "convert_document"]

TARGETS = {"markdown": ".md", "xml": ".xml"}
"""The formats a rulebook converts into, with their files' suffix."""


def convert_document(document: Document, target: str) -> str:
    """The document written in ``target`` (``markdown`` or ``xml``)."""
    if target == "markdown":
        from rulebook.convert.markdown_writer import write_markdown

        return write_markdown(document)
    from rulebook.convert.xml_writer import write_xml

    return write_xml(document)
