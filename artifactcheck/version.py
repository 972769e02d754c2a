"""The package version: one place, read by ``pyproject.toml`` and by reports."""

__version__ = "0.1.0"
