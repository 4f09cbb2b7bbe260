"""Fold what a formula decides from literals alone: ``IF(FALSE,a,b)`` is ``b``, ``AND(x,FALSE)`` is
``FALSE``, ``OR(FALSE,x)`` is ``OR(x)``, ``NOT(TRUE)`` is ``FALSE``, ``0+0+2`` is ``2``, ``1<>0`` is ``TRUE``.

The Encounter log copies the calculator's formulas onto every row with each input the row does not
set replaced by its default (a literal): most of what the calculator decides from its pickers is then
decided already, and the row need not carry it. A formula with nothing to fold comes back unchanged,
character for character. An error inside a folded-away part no longer shows (``AND(FALSE,#N/A)`` is
FALSE): the parts folded away are table look-ups by fixed ids, which do not fail.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction

PIECE = re.compile(
    r"\"(?:[^\"]|\"\")*\"|'(?:[^']|'')*'|\{[^}]*\}|[A-Za-z_][A-Za-z0-9_.]*\(|[(),]|[^\"'{(),A-Za-z_]+|[A-Za-z_][A-Za-z0-9_.]*"
)
ATOM = re.compile(r"\s*(?:\"(?:[^\"]|\"\")*\"|[$A-Za-z0-9_.]+(?::[$A-Za-z0-9_.]+)?)\s*")
NUMBER_SUM = re.compile(r"\s*-?\s*\d+(?:\.\d+)?(?:\s*[-+]\s*\d+(?:\.\d+)?)*\s*")
COMPARISON = re.compile(
    r'\s*(-?\d+(?:\.\d+)?|"(?:[^"]|"")*")\s*(<>|<=|>=|=|<|>)\s*(-?\d+(?:\.\d+)?|"(?:[^"]|"")*")\s*'
)
BOOLEANS = {"TRUE": True, "FALSE": False}


@dataclass
class Call:
    name: str  # upper case, without the "("
    args: list[list[Node]]


@dataclass
class Group:  # ( ... ) that is not a call
    inner: list[Node]


Node = str | Call | Group


def parse(formula: str) -> list[Node]:
    pieces = PIECE.findall(formula)
    if "".join(pieces) != formula:
        raise ValueError(f"cannot read the formula {formula[:60]!r}")
    nodes, at = sequence(pieces, 0)
    if at != len(pieces):
        raise ValueError(f"unbalanced parentheses in {formula[:60]!r}")
    return nodes


def sequence(pieces: list[str], at: int, in_call: bool = False) -> tuple[list[Node], int]:
    """Nodes up to an unmatched ")" (or, in a call's argument, a "," at its level)."""
    nodes: list[Node] = []
    while at < len(pieces):
        piece = pieces[at]
        if piece == ")" or (piece == "," and in_call):
            return nodes, at
        if piece.endswith("(") and piece != "(":
            args: list[list[Node]] = []
            at += 1
            while True:
                arg, at = sequence(pieces, at, in_call=True)
                args.append(arg)
                if at >= len(pieces):
                    raise ValueError("a call is not closed")
                at += 1
                if pieces[at - 1] == ")":
                    break
            nodes.append(Call(piece[:-1], args))
            continue
        if piece == "(":
            inner, at = sequence(pieces, at + 1)
            if at >= len(pieces):
                raise ValueError("a parenthesis is not closed")
            nodes.append(Group(inner))
            at += 1
            continue
        nodes.append(piece)
        at += 1
    return nodes, at


def text(nodes: list[Node]) -> str:
    out = []
    for node in nodes:
        if isinstance(node, Call):
            out.append(f"{node.name}({','.join(text(arg) for arg in node.args)})")
        elif isinstance(node, Group):
            out.append(f"({text(node.inner)})")
        else:
            out.append(node)
    return "".join(out)


def boolean(nodes: list[Node]) -> bool | None:
    """The literal TRUE or FALSE these nodes are, or None."""
    return BOOLEANS.get(text(nodes).strip()) if len(nodes) == 1 and isinstance(nodes[0], str) else None


def atomic(nodes: list[Node]) -> bool:
    """One operand: a call, a parenthesis, a literal, a name or a reference (safe beside an operator)."""
    if len(nodes) == 1 and isinstance(nodes[0], Call | Group):
        return True
    return len(nodes) == 1 and ATOM.fullmatch(nodes[0]) is not None  # type: ignore[arg-type]


def operand(nodes: list[Node]) -> Node:
    """What replaces a call folded to one of its arguments: the argument, parenthesized unless it is
    one operand already (``IF(TRUE,a+b,0)*2`` is ``(a+b)*2``)."""
    return nodes[0] if atomic(nodes) else Group(nodes)


def literal_comparison(nodes: list[Node]) -> list[Node]:
    """``1<>0`` as ``TRUE``, ``"a"="A"`` as ``TRUE`` (text compares without case); else as it is."""
    found = COMPARISON.fullmatch(nodes[0]) if len(nodes) == 1 and isinstance(nodes[0], str) else None
    if found is None:
        return nodes
    left, operator, right = found.group(1, 2, 3)
    if left.startswith('"') != right.startswith('"'):
        return nodes  # text against a number: not folded
    key = (lambda t: t[1:-1].replace('""', '"').casefold()) if left.startswith('"') else Fraction
    a, b = key(left), key(right)
    holds = {"=": a == b, "<>": a != b, "<": a < b, ">": a > b, "<=": a <= b, ">=": a >= b}[operator]
    return ["TRUE" if holds else "FALSE"]


def literal_sum(nodes: list[Node]) -> list[Node]:
    """``0+0+2-1`` as ``1``; anything else as it is."""
    if len(nodes) != 1 or not isinstance(nodes[0], str) or NUMBER_SUM.fullmatch(nodes[0]) is None:
        return nodes
    plain = nodes[0].replace(" ", "")
    if re.fullmatch(r"-?\d+(?:\.\d+)?", plain):
        return nodes
    terms = re.findall(r"[-+]?\d+(?:\.\d+)?", plain)
    total = sum(Fraction(term) for term in terms)
    return [str(total.numerator) if total.denominator == 1 else format(float(total), "g")]


def fold_call(call: Call) -> Node:
    args = call.args
    if call.name == "IF" and len(args) in (2, 3):
        chosen = boolean(args[0])
        if chosen is True and text(args[1]).strip():
            return operand(args[1])
        if chosen is False:
            if len(args) == 2:
                return "FALSE"
            if text(args[2]).strip():
                return operand(args[2])
    if call.name in ("AND", "OR") and args:
        stop = call.name == "OR"  # the literal that decides: TRUE decides an OR, FALSE an AND
        if any(boolean(arg) is stop for arg in args):
            return "TRUE" if stop else "FALSE"
        kept = [arg for arg in args if boolean(arg) is None]
        if not kept:
            return "FALSE" if stop else "TRUE"
        return Call(call.name, kept)
    if call.name == "NOT" and len(args) == 1 and boolean(args[0]) is not None:
        return "FALSE" if boolean(args[0]) else "TRUE"
    return call


def fold_nodes(nodes: list[Node]) -> list[Node]:
    folded: list[Node] = []
    for node in nodes:
        if isinstance(node, Call):
            node = fold_call(Call(node.name, [fold_nodes(arg) for arg in node.args]))
        elif isinstance(node, Group):
            inner = fold_nodes(node.inner)
            folded_inside = text(inner) != text(node.inner)  # (0) left by a fold is 0; a written (0) stays
            node = inner[0] if folded_inside and atomic(inner) and isinstance(inner[0], str) else Group(inner)
        if isinstance(node, str) and folded and isinstance(folded[-1], str):
            folded[-1] += node  # the operators and operands between calls, as one piece
        else:
            folded.append(node)
    return literal_comparison(literal_sum(folded))


def fold(formula: str) -> str:
    """The formula with what its literals decide folded (unchanged when nothing folds)."""
    folded = text(fold_nodes(parse(formula)))
    return formula if folded == formula else folded


def is_literal(formula: str) -> bool:
    """A formula that is one literal: TRUE, FALSE, a number or a text."""
    return re.fullmatch(r"TRUE|FALSE|-?\d+(?:\.\d+)?|\"(?:[^\"]|\"\")*\"", formula.strip()) is not None
