"""OCR-localised text checks (``located_text.py``) over tesseract word boxes (``engine.py``)."""
