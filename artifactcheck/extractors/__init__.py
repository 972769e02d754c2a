"""Extractors: the only code that knows OOXML or Google API shapes. Each turns one source
into a :class:`~artifactcheck.model.Document`."""
