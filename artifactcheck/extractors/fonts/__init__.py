"""Text measured with real font files (Office fonts through their metric-compatible twins):
cell overflow in sheets and text fit in shapes. See ``metrics.py``."""
