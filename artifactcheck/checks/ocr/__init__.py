"""OCR-localised text checks (``located_text.py``) over tesseract word boxes (the engine is
``extractors/ocr/engine.py``, shared with ``load(..., ocr=True)``)."""
