"""`failure_if` conditions: `status != 200`, `a >= 3 and b == 'x' or c < 1`, over a line's typed captures.

A line of a pattern with a condition fails only when its captures satisfy it. The language is
small on purpose: comparisons of a field with a number, a quoted string, another field or a sum of
products of fields and numbers (`measured < expected - expected*rtol`: a gate that states its
reference and tolerance, not its floor), joined by `and` (binding tighter) and `or`; a missing field
makes a comparison false.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Mapping
from typing import Any

from ..model import FieldValue
from ..model.lazyre import lazy_re
from ..model.values import record


@record
class Condition:
    """`a op b [and|or ...]` over an event's fields; see `parse_condition`."""

    text: str
    clauses: tuple[tuple[tuple[str, str, str], ...], ...]  # OR of ANDs of (left, op, right)

    def holds(self, fields: Mapping[str, FieldValue]) -> bool:
        return any(all(_atom_holds(atom, fields) for atom in ands) for ands in self.clauses)

    @property
    def fields(self) -> frozenset[str]:
        """The fields the condition reads."""
        operands = (operand for ands in self.clauses for atom in ands for operand in (atom[0], atom[2]))
        return frozenset(name for operand in operands if operand[:1] != "'" for name in _NAME.findall(operand))


_OPERATORS: dict[str, Callable[[Any, Any], bool]] = {
    "<=": operator.le, ">=": operator.ge, "!=": operator.ne,
    "==": operator.eq, "<": operator.lt, ">": operator.gt,
}  # fmt: skip
_ATOM = lazy_re(r"^\s*([\w.']+)\s*(<=|>=|!=|==|<|>)\s*([\w.'-]+(?:\s*[*+-]\s*[\w.]+)*)\s*$")
_NAME = lazy_re(r"(?<![\w.])[A-Za-z_]\w*")
_TOKEN = lazy_re(r"[\w.]+|[*+-]")


def parse_condition(text: str) -> Condition:
    clauses = []
    for disjunct in text.split(" or "):
        atoms = []
        for conjunct in disjunct.split(" and "):
            found = _ATOM.match(conjunct)
            if not found:
                raise ValueError(f"'{conjunct.strip()}' is not of the form `field op value`")
            atoms.append((found.group(1), found.group(2), found.group(3)))
        clauses.append(tuple(atoms))
    return Condition(text, tuple(clauses))


def is_identifier(operand: str) -> bool:
    return operand[0].isalpha() or operand[0] == "_"


def _operand(operand: str, fields: Mapping[str, FieldValue]) -> Any:
    if operand.startswith("'"):
        return operand.strip("'")
    if is_identifier(operand) and not any(sign in operand for sign in "*+-"):
        return fields.get(operand)
    try:
        return float(operand)  # a number, signed or with an exponent (`-15`, `1e-5`)
    except ValueError:
        return _arithmetic(operand, fields)


def _arithmetic(expression: str, fields: Mapping[str, FieldValue]) -> float | None:
    """A sum of products of fields and numbers (`expected - expected*rtol`); None when a field is
    missing or not a number."""
    total, sign, product = 0.0, 1.0, 1.0
    for token in _TOKEN.findall(expression):
        if token in "+-":
            total, sign, product = total + sign * product, (1.0 if token == "+" else -1.0), 1.0
        elif token != "*":
            value = fields.get(token) if is_identifier(token) else float(token)
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                return None
            product *= value
    return total + sign * product


def _atom_holds(atom: tuple[str, str, str], fields: Mapping[str, FieldValue]) -> bool:
    left, op, right = (_operand(atom[0], fields), atom[1], _operand(atom[2], fields))
    if left is None or right is None:
        return False
    try:
        return _OPERATORS[op](left, right)
    except TypeError:
        return False
