"""``_keys_and_lengths`` reads the key string and key lengths from numpy lookup arrays
when it can; it must give exactly what the translate tables give, for any text."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from artifactcheck.extractors.render import align

# Letters of several scripts, ligatures and other characters NFKC expands (fallback),
# folded quotes and dashes, invisibles and whitespace (no key), lone surrogates and an
# astral character (fallback).
_POOL = "\u2116aZ09 \t\n.-'\"\u0430\u042f\u0451\u05d0\u0627\u4e2d\ufb01\u2460\u00bd\u2019\u201c\u2013\u00ad\u200b\u00a0\u3000\ud83d\ude00\U0001f600"


@given(st.text(alphabet=_POOL, max_size=80))
def test_the_arrays_give_what_translate_gives(text: str) -> None:
    align._learn(text)
    keys, lengths = align._keys_and_lengths(text)
    assert keys == text.translate(align._KEY_TABLE)
    expected = align._key_lengths(text)
    assert lengths.dtype == expected.dtype
    assert lengths.tolist() == expected.tolist()


def test_a_russian_line_with_a_numero_sign_keys_as_translate_does() -> None:
    text = "Приложение № 2 – \u00abцена\u00bb\u00ad"  # "№" has two key characters: "no"
    align._learn(text)
    keys, lengths = align._keys_and_lengths(text)
    assert keys == text.translate(align._KEY_TABLE) == 'приложениеno2-"цена"'
    assert lengths.tolist() == [len(align.normalize_char(c)) for c in text]
