"""`@record`: the immutable values that flow between the stages, made cheaply.

A record is a frozen, slotted dataclass with field-wise equality, hashing and repr: what
`@dataclass(frozen=True, slots=True)` gives. The difference is the cost at import. The standard
decorator compiles six methods per class from generated source (`__init__`, `__setattr__`,
`__delattr__`, `__eq__`, `__hash__`, `__repr__`); with ~60 classes imported by every run, that
was about a quarter of a small `analyze`'s wall time (~35 ms of ~140 ms). Here:
- `dataclasses` still reads the fields and makes the slots, but compiles nothing;
- equality, hashing, repr and the frozen guards are shared functions: ==, hash() and repr() read
  one per-class `operator.attrgetter`, which builds the field tuple in C;
- `__init__` is compiled from source like the standard one (assigning through
  `object.__setattr__`, as a frozen dataclass does), but on the class's first instantiation:
  a run compiles the constructors of the classes it builds, not of all it imports;
- pickling (the library cache, spawned workers) stores the class and the field values, and
  rebuilds through `__init__`.

Semantics kept (tests/test_values.py checks them against a standard dataclass): equality only
between instances of the very same class, over the fields with `compare=True`, in field order;
the hash of those same fields; `Name(field=value, ...)` over the fields with `repr=True`;
`FrozenInstanceError` on assignment or deletion; defaults and `default_factory`. `fields`,
`replace`, `is_dataclass` and `__match_args__` work as before: it is a dataclass.
"""

from __future__ import annotations

import inspect  # already imported by dataclasses
from collections.abc import Callable
from dataclasses import MISSING, Field, FrozenInstanceError, dataclass, field, fields
from operator import attrgetter
from typing import Any, TypeVar, dataclass_transform

T = TypeVar("T")

# Class attributes holding the per-class readers (slotted instances read them through their type).
_KEY = "_record_key"
_SHOWN = "_record_shown"
_VALUES = "_record_values"


@dataclass_transform(frozen_default=True, field_specifiers=(field,))
def record(cls: type[T]) -> type[T]:
    """Make `cls` a frozen, slotted dataclass whose methods cost nothing to create."""
    if not cls.__doc__:  # else dataclasses derives one from inspect.signature (a tokenizer run, ~2 ms)
        cls.__doc__ = f"{cls.__name__}({', '.join(inspect.get_annotations(cls))})"
    made = dataclass(init=False, repr=False, eq=False, slots=True)(cls)
    declared: tuple[Field[Any], ...] = fields(made)  # type: ignore[arg-type]  # a dataclass from the line above
    setattr(made, _KEY, _reader([f.name for f in declared if f.compare]))
    setattr(made, _SHOWN, tuple(f.name for f in declared if f.repr))
    setattr(made, _VALUES, _reader([f.name for f in declared]))
    made.__init__ = _first_init(made, declared)  # type: ignore[method-assign]
    made.__eq__ = _equal  # type: ignore[method-assign]
    made.__hash__ = _hash  # type: ignore[method-assign]
    made.__repr__ = _repr  # type: ignore[method-assign]
    made.__setattr__ = _refuse_assignment  # type: ignore[method-assign]
    made.__delattr__ = _refuse_deletion  # type: ignore[method-assign]
    made.__reduce__ = _reduce  # type: ignore[method-assign]
    return made


def _first_init(cls: type, declared: tuple[Field[Any], ...]) -> Callable[..., None]:
    """An `__init__` that compiles the real one, puts it on the class and runs it."""

    def first(self: Any, *args: Any, **kwargs: Any) -> None:
        real = _compiled_init(cls, declared)
        cls.__init__ = real  # type: ignore[misc]
        real(self, *args, **kwargs)

    first.__qualname__ = f"{cls.__qualname__}.__init__"
    return first


def _compiled_init(cls: type, declared: tuple[Field[Any], ...]) -> Callable[..., None]:
    """`def __init__(self, a, b=<default>, c=<factory sentinel>)` assigning each field once."""
    names: dict[str, Any] = {"_set": object.__setattr__, "_missing": MISSING}
    parameters, body = [], []
    for item in declared:
        name = item.name
        if item.default is not MISSING:
            names[f"_default_{name}"] = item.default
            parameters.append(f"{name}=_default_{name}")
        elif item.default_factory is not MISSING:
            names[f"_factory_{name}"] = item.default_factory
            parameters.append(f"{name}=_missing")
            body.append(f" if {name} is _missing: {name} = _factory_{name}()")
        else:
            parameters.append(name)
        body.append(f" _set(self, {name!r}, {name})")
    source = f"def __init__(self, {', '.join(parameters)}):\n" + "\n".join(body or [" pass"]) + "\n"
    exec(source, names)  # our own source, built from field names: what dataclasses does too
    made: Callable[..., None] = names["__init__"]
    made.__qualname__ = f"{cls.__qualname__}.__init__"
    return made


def _reader(names: list[str]) -> Callable[[Any], tuple[Any, ...]]:
    """A function giving an instance's compared fields as a tuple (attrgetter gives a bare value
    for one name and refuses none, so those two cases are wrapped)."""
    if not names:
        return lambda _instance: ()
    if len(names) == 1:
        single = attrgetter(names[0])
        return lambda instance: (single(instance),)
    return attrgetter(*names)


def _equal(self: Any, other: Any) -> Any:
    if other.__class__ is not self.__class__:
        return NotImplemented
    key = getattr(self.__class__, _KEY)
    return key(self) == key(other)


def _hash(self: Any) -> int:
    return hash(getattr(self.__class__, _KEY)(self))


def _repr(self: Any) -> str:
    shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in getattr(self.__class__, _SHOWN))
    return f"{self.__class__.__qualname__}({shown})"


def _reduce(self: Any) -> tuple[type, tuple[Any, ...]]:
    """Pickled as its class and field values, rebuilt by `__init__` (slot state would be set
    through `__setattr__`, which refuses)."""
    return self.__class__, getattr(self.__class__, _VALUES)(self)


def _refuse_assignment(self: Any, name: str, value: Any) -> None:
    raise FrozenInstanceError(f"cannot assign to field {name!r}")


def _refuse_deletion(self: Any, name: str) -> None:
    raise FrozenInstanceError(f"cannot delete field {name!r}")
