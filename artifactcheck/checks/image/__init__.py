"""Image checks: identity with a reference picture (``match.py``) and where a crop sits
in its original (``locate.py``)."""
