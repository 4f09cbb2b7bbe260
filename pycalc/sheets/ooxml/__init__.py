"""The one layer that reaches past openpyxl's public interface or edits a saved file's bytes.

Everything else in pycalc reads and writes cells, sheets and books through openpyxl's public
interface or through the functions here; ``tests/test_ooxml.py`` checks each trick on a saved file and
that no module outside this package touches an openpyxl object's private attribute. The pin of
openpyxl in ``pyproject.toml`` is the range those tests pass on (they pass on 3.1.0, 3.1.2 and 3.1.5:
the attributes, private modules and writer internals named below are 3.1's; the committed workbooks
name 3.1.5 in docProps/app.xml).

- ``cells``: the stored value, style array and comment of a cell, a sheet's cells by place, a book's
  style lists and its sheets (openpyxl's ``_value``, ``_style``, ``_cells``, ``_fonts`` ...): read and
  written without openpyxl's checks and proxies, for the some 120,000 cells of a build.
- ``styles``: a book's style lists that find a style object taken before by identity (``share_styles``).
- ``fast_cells``: openpyxl's cell look-up, style assignment, merged-cell borders and sheet edges,
  swapped for versions that do the same with less work while a book is built.
- ``shared_formulas``: each run of formulas filled down a column stored once, as a shared formula
  (``<f t="shared">``), as Excel and LibreOffice store them.
- ``writer``: saving a book: each row written as one string (``write_plain_rows``), the .xlsm's sheets
  written down while the .xlsx is saved (``BothFilesWriter``), parts kept in memory (``PartsArchive``).
- ``saved_xml``: edits and reads of a saved file's XML by pattern (the modification stamp, the order of
  print titles, formula cells' cached values, the cells kept inputs read) where parsing the whole part
  would cost more and the builder's own output has one known shape.

Each function keeps the saved bytes those of openpyxl's own code (the tests compare them).
"""
