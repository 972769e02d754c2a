"""Comparison with a reference (gold) artifact: the agent's file against the file the task
author made, aspect by aspect, with every difference located (``Sheet1!B3``, ``slide 3
shape 'Title 1'``, ``paragraph 12``) and both values shown as evidence.

``diff`` holds the one result shape every comparison check shares; ``reference`` loads
the gold file (any format :func:`artifactcheck.load` reads) inside the rubric's folders.
"""
