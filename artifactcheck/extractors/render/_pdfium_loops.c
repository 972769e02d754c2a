/* The per-character pdfium calls of the PDF layout reader, looped in C.
 *
 * layout.py asks pdfium about every drawn character: its loose box, its text object and
 * (for whitespace) whether pdfium generated it. Driven from Python, each call costs
 * ~0.26 us of ctypes (0.17 s of a 400-page document's 0.7 s read); here the same calls
 * in the same order cost a few nanoseconds. The functions are pdfium's own, passed in as
 * addresses (pypdfium2 loads libpdfium; this module links against nothing), so the
 * values are the ones the Python loop would read, bit for bit.
 *
 * Called through ctypes with buffers the caller allocated: `idx` holds `n` character
 * indices of the text page `tp` (each checked by the caller: 0 <= idx < CountChars), and
 * `out` has room for `n` results (four floats each for boxes). Nothing here keeps a
 * pointer past the call or touches Python objects, so the GIL is irrelevant to it.
 *
 * It is also a (method-less) Python extension module so that setuptools builds and
 * installs it like any other; when it is missing (no compiler at install: the build is
 * optional), layout.py keeps its ctypes loop.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>

typedef int (*char_box_fn)(void *textpage, int index, float *rect);
typedef void *(*char_pointer_fn)(void *textpage, int index);
typedef int (*char_int_fn)(void *textpage, int index);

/* FPDFText_GetLooseCharBox(tp, i, FS_RECTF*) for each index: rect k at out + 4k. */
void loose_boxes(char_box_fn fn, void *tp, const int64_t *idx, int64_t n, float *out)
{
    for (int64_t k = 0; k < n; k++) {
        fn(tp, (int)idx[k], out + 4 * k);
    }
}

/* FPDFText_GetTextObject(tp, i) for each index, as an address (0: none). */
void text_objects(char_pointer_fn fn, void *tp, const int64_t *idx, int64_t n, uint64_t *out)
{
    for (int64_t k = 0; k < n; k++) {
        out[k] = (uint64_t)(uintptr_t)fn(tp, (int)idx[k]);
    }
}

/* An int-valued per-character call (FPDFText_IsGenerated) for each index. */
void char_ints(char_int_fn fn, void *tp, const int64_t *idx, int64_t n, int64_t *out)
{
    for (int64_t k = 0; k < n; k++) {
        out[k] = fn(tp, (int)idx[k]);
    }
}

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT,
    "_pdfium_loops",
    "pdfium's per-character calls looped in C; called through ctypes (see layout.py).",
    -1,
    NULL,
};

PyMODINIT_FUNC PyInit__pdfium_loops(void)
{
    return PyModule_Create(&module);
}
