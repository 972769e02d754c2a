"""The one thing pyproject.toml cannot say: the optional C loop of the PDF layout reader.

`optional=True`: a machine without a C compiler (or Python's headers) still installs the
package; the reader then keeps its ctypes loop (same results, ~0.4 ms a page slower).
scripts/setup.sh installs the compiler, so the README's path always builds it.
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "artifactcheck.extractors.render._pdfium_loops",
            ["artifactcheck/extractors/render/_pdfium_loops.c"],
            optional=True,
        )
    ]
)
