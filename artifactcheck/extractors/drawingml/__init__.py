"""DrawingML shared by .pptx, .xlsx and .docx: theme and scheme colours with their
transforms (``color.py``) and chart parts (``chart.py``). Pure functions over parsed XML."""
