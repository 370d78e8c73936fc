"""The print edition: each book and translation as a typeset PDF, from the same model as the site.

Two halves, as the site has: a pure stage (:mod:`rulebook.pdf.edition` decides what the PDF holds,
:mod:`rulebook.pdf.typeset` writes it as Typst source, every text escaped by :mod:`rulebook.pdf.escaping`)
and one adapter, :mod:`rulebook.pdf.typst_run`, the only module that runs Typst: it lays the
source, the template and the pictures out in a scratch folder and has them compiled into PDF bytes by
:mod:`rulebook.pdf.typst_child` (the only module that imports Typst), a process of its own with limits.
"""
