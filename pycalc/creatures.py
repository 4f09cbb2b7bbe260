"""The creature library: a roster line that names a creature takes its numbers from the Creatures
sheet where the line leaves them empty (the model of the sheet; :mod:`pycalc.encounter` applies it).

A line's kind is the Kind typed, else its name without a last word of digits ("Goblin 3" is a
"Goblin"); the first library line of that name (any case, spaces trimmed) is its creature. A number
typed on the roster line is used as typed; an empty one takes the creature's (the damage dice as a
whole: the library's dice only when the line's three dice cells are all empty).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

DIGITS = "0123456789"
NO_CREATURE = "no such creature"  # the roster's From Creatures for a Kind typed that the library lacks


@dataclass(frozen=True)
class LibraryLine:
    """A line of the Creatures sheet as the GM typed it (empty cells left out of ``values``)."""

    name: str
    values: Mapping[str, object] = field(default_factory=dict)  # stat id (dex, max_hp, ...) -> value


def words(text: str) -> list[str]:
    """The words of a cell as TRIM leaves them."""
    return [w for w in text.split(" ") if w]


def kind_of(name: str, kind: str) -> str:
    """The creature a roster line names: the Kind typed, else the name without a last word of digits."""
    if words(kind):
        return " ".join(words(kind))
    found = words(name)
    if found and all(c in DIGITS for c in found[-1]):
        found = found[:-1]
    return " ".join(found)


def creature_for(library: Sequence[LibraryLine], name: str, kind: str) -> LibraryLine | None:
    """The first library line named as the roster line's kind (any case), or None."""
    if not words(name):
        return None
    wanted = kind_of(name, kind).lower()
    if not wanted:
        return None
    return next((line for line in library if line.name.lower() == wanted), None)


def from_creatures(library: Sequence[LibraryLine], name: str, kind: str) -> str:
    """What the roster's From Creatures column says: the creature used, a Kind typed that the library
    lacks, or nothing."""
    found = creature_for(library, name, kind)
    if found is not None:
        return found.name
    return f"{NO_CREATURE}: {' '.join(words(kind))}" if words(name) and words(kind) else ""


def filled(typed: object, library_value: object) -> object:
    """A roster cell's value in use: the typed one, else the library's (None: both empty)."""
    return library_value if typed is None or typed == "" else typed


def with_creature(
    library: Sequence[LibraryLine],
    name: str,
    kind: str,
    dex: object,
    max_hp: object,
    stats: Mapping[str, object],
) -> tuple[object, object, dict[str, object]]:
    """A roster line's DEX modifier, maximum HP and stats in use: each typed, else its creature's."""
    found = creature_for(library, name, kind)
    lib = found.values if found is not None else {}
    used = {key: filled(stats.get(key), lib.get(key)) for key in {*stats, *lib} - {"dex", "max_hp"}}
    return filled(dex, lib.get("dex")), filled(max_hp, lib.get("max_hp")), used
