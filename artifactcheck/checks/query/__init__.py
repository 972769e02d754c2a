"""Tree-query checks (mechanism ``tree_query``): what is selected and how often
(``selection.py``), outline and heading structure (``outline.py``), whole-structure
comparison (``structure.py``), and grid checks over sheets and tables (``tables.py``,
on the grid model of ``grid.py``)."""
