"""Image checks: identity with a reference picture (``match.py``), where a crop sits in
its original (``locate.py``), and image edits compared with a reference — similarity,
brightness / contrast / saturation / sharpness changes, mirrors and rotations, mode,
pixel and file size (``edits.py`` over the pixel measures of ``measure.py``); what the
picture shows — its background colour (``background.py``), where its ink lies
(``ink.py``), where a shape of one colour is (``blob.py``), over the masks of
``pixels.py``."""
