"""``ModelSpelling``: ``BaseModel``'s method names on a slotted pydantic dataclass.

``Node`` and ``Box`` are pydantic dataclasses with slots, not ``BaseModel``s (no dict,
fields-set or private attributes per object: design/tree.md), and every caller and test
was written against ``model_dump``, ``model_validate``...: this mixin gives both classes
those names, through one cached ``TypeAdapter`` per class. ``model_copy`` stays each
class's own (a box has no navigation state to carry)."""

from __future__ import annotations

from typing import Any, Literal, Self, cast

from pydantic import TypeAdapter
from pydantic.fields import FieldInfo

_new = object.__new__
_set = object.__setattr__


class ModelSpelling:
    __slots__ = ()

    @classmethod
    def model_construct(cls, **values: Any) -> Self:
        """An instance from trusted values, unvalidated (defaults filled, ``__post_init__``
        run) - as ``BaseModel.model_construct`` (which runs ``model_post_init``)."""
        new = _new(cls)
        fields: dict[str, FieldInfo] = cls.__pydantic_fields__  # type: ignore[attr-defined]  # pydantic's dataclass sets it
        for name, info in fields.items():
            _set(new, name, values[name] if name in values else info.get_default(call_default_factory=True))
        post_init = getattr(new, "__post_init__", None)
        if post_init is not None:
            post_init()
        return new

    def model_dump(self, *, mode: Literal["python", "json"] = "python", **options: Any) -> dict[str, Any]:
        """As a dict (``exclude_none``, ``include``, ``exclude``... as pydantic's)."""
        return cast(dict[str, Any], _adapter(type(self)).dump_python(self, mode=mode, **options))

    def model_dump_json(self, *, indent: int | None = None, **options: Any) -> str:
        return _adapter(type(self)).dump_json(self, indent=indent, **options).decode()

    @classmethod
    def model_validate(cls, value: Any) -> Self:
        return cast(Self, _adapter(cls).validate_python(value))

    @classmethod
    def model_validate_json(cls, data: str | bytes) -> Self:
        return cast(Self, _adapter(cls).validate_json(data))


_ADAPTERS: dict[type, TypeAdapter[Any]] = {}  # built on first use: a TypeAdapter costs ms


def _adapter(cls: type) -> TypeAdapter[Any]:
    adapter = _ADAPTERS.get(cls)
    if adapter is None:  # two threads may both build one: equal adapters, the last kept
        adapter = _ADAPTERS[cls] = TypeAdapter(cls)
    return adapter
