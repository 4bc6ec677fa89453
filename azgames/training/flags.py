"""Command-line flags built from the trainers' typed configs.

A trainer's settings are one dataclass (:mod:`.config`); each field that
the command line offers is an :func:`option`: its type, default and help
are written there once. :func:`add_flags` gives ``train`` a flag for each
(``--min-spread`` for ``search.min_spread``), its help naming the default
of every trainer that has it; :func:`build` turns the flags given into a
config, checking each against its field (range, parser), so that a config
and its command line cannot drift.
"""

from __future__ import annotations

import argparse
import dataclasses
import functools
import math
import numbers
import types
import typing
from dataclasses import MISSING, dataclass
from typing import Any


def option(
    default: Any = MISSING,
    *,
    help: str,
    default_factory: Any = MISSING,
    flag: str | None = None,
    range: tuple[float | None, float | None] | None = None,
    above: float | None = None,
    parse: Any = None,
    metavar: str | None = None,
    choices: tuple[str, ...] | None = None,
    nargs: str | None = None,
) -> Any:
    """A config field offered on the command line as ``--flag`` (the
    field's name with dashes unless given). ``range``: the least and most
    it may be (either None: unbounded); ``above``: a bound it must exceed;
    ``parse``: turns the flag's text into the field's value, raising
    ValueError with the reason (``--conv 32x2``)."""
    metadata = {
        "help": help,
        "flag": flag,
        "range": range,
        "above": above,
        "parse": parse,
        "metavar": metavar,
        "choices": choices,
        "nargs": nargs,
    }
    return dataclasses.field(default=default, default_factory=default_factory, metadata=metadata)


@dataclass(frozen=True)
class Flag:
    dest: str  # the argparse attribute
    flag: str  # "--min-spread"
    path: tuple[str, ...]  # where in the config: ("search", "min_spread")
    hint: Any  # the field's type
    field: dataclasses.Field
    default: Any


@functools.cache
def flags_of(cls: type, path: tuple[str, ...] = ()) -> dict[str, Flag]:
    """Every flag of config class ``cls``, by its argparse attribute; a
    field whose type is a dataclass gives its own fields' flags."""
    hints = typing.get_type_hints(cls)
    found: dict[str, Flag] = {}
    for f in dataclasses.fields(cls):
        hint = hints[f.name]
        if isinstance(hint, type) and dataclasses.is_dataclass(hint):
            found.update(flags_of(hint, (*path, f.name)))
            continue
        if "help" not in f.metadata:
            continue
        flag = f.metadata.get("flag") or "--" + f.name.replace("_", "-")
        factory: Any = f.default_factory
        default = f.default if f.default is not MISSING else factory()
        dest = flag.lstrip("-").replace("-", "_")
        found[dest] = Flag(dest, flag, (*path, f.name), hint, f, default)
    return found


def _base(hint: Any) -> Any:
    """``X`` of ``X | None``."""
    if isinstance(hint, types.UnionType) or typing.get_origin(hint) is typing.Union:
        (base,) = [a for a in typing.get_args(hint) if a is not type(None)]
        return base
    return hint


def shown(value: Any) -> str:
    """A default as the help shows it."""
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "on" if value else "off"
    if isinstance(value, (tuple, list)):
        return " ".join(map(str, value))
    if isinstance(value, dict):
        return ",".join(f"{k}={v}" for k, v in value.items())
    if isinstance(value, int):
        return f"{value:,}"
    return f"{value:g}" if isinstance(value, float) else str(value)


def add_flags(parser: argparse.ArgumentParser, configs: dict[str, type]) -> None:
    """A flag for every field offered by any of ``configs`` (by the name of
    what trains with it: ``{"ppo": ..., "alphazero": ..., "rllib": ...}``):
    its help names who has it where not all do, and each one's default."""
    owners: dict[str, list[tuple[str, Flag]]] = {}
    having: dict[str, int] = {}  # how many of ``configs`` offer it
    for name, cls in configs.items():
        # A config that extends another of them (Ray's AlphaZero) is told by that one.
        bases = [other for other, base in configs.items() if base is not cls and issubclass(cls, base)]
        for dest, flag in flags_of(cls).items():
            having[dest] = having.get(dest, 0) + 1
            if not any(owner in bases for owner, _ in owners.get(dest, [])):
                owners.setdefault(dest, []).append((name, flag))
    for owned in owners.values():
        flag = owned[0][1]
        meta = flag.field.metadata
        base = _base(flag.hint)
        kind: dict[str, Any] = {}
        if base is bool:
            kind["action"] = argparse.BooleanOptionalAction
        elif typing.get_origin(base) is tuple:
            kind.update(nargs="+", type=typing.get_args(base)[0])
        elif meta.get("parse") is not None:
            kind["type"] = str
            if meta.get("nargs"):
                kind["nargs"] = meta["nargs"]
        else:
            kind["type"] = base
        if meta.get("metavar"):
            kind["metavar"] = meta.get("metavar")
        if meta.get("choices"):
            kind["choices"] = meta.get("choices")
        who = [name for name, _ in owned]
        prefix = "" if having[flag.dest] == len(configs) else "/".join(who) + ": "
        defaults = {name: shown(f.default) for name, f in owned}
        if len(set(defaults.values())) == 1:
            default = f"default: {next(iter(defaults.values()))}"
        else:
            default = "default: " + "; ".join(f"{name} {d}" for name, d in defaults.items())
        helps = {name: f.field.metadata["help"] for name, f in owned}
        if len(set(helps.values())) == 1:
            text = prefix + next(iter(helps.values()))
        else:  # the same flag in each trainer's own unit: "ppo: updates; alphazero: rounds between ..."
            words = [h.split(" ") for h in helps.values()]
            common = 0
            while common < min(map(len, words)) - 1 and len({w[-1 - common] for w in words}) == 1:
                common += 1
            own = "; ".join(f"{name}: {' '.join(w[: len(w) - common])}" for name, w in zip(helps, words))
            text = own + (" " + " ".join(words[0][len(words[0]) - common :]) if common else "")
        parser.add_argument(flag.flag, dest=flag.dest, default=None, help=f"{text} ({default})", **kind)


def owner_of(dest: str, configs: dict[str, type]) -> list[str]:
    """Which of ``configs`` offer the flag ``dest``."""
    return [name for name, cls in configs.items() if dest in flags_of(cls)]


def checked(flag: Flag, value: Any) -> Any:
    """``value`` given to ``flag`` as its field holds it; ValueError of the
    reason otherwise (the caller names the flag and the value)."""
    meta = flag.field.metadata
    parse = meta.get("parse")
    if parse is not None:
        return parse(value)
    if isinstance(value, list):
        return tuple(value)
    if isinstance(value, numbers.Real) and not isinstance(value, bool):
        low, high = meta.get("range") or (None, None)
        above = meta.get("above")
        if (
            not math.isfinite(value)
            or (low is not None and value < low)
            or (high is not None and value > high)
            or (above is not None and value <= above)
        ):
            raise ValueError(f"give {_wanted(low, high, above, isinstance(value, int))}")
    return value


def _wanted(low: Any, high: Any, above: Any, whole: bool) -> str:
    what = "a whole number" if whole else "a number"
    if above is not None:
        return f"{what} above {above:g}" + (f" and at most {high:g}" if high is not None else "")
    if low is not None and high is not None:
        return f"{what} from {shown(low)} to {shown(high)}"
    if low is not None:
        return f"{what} >= {shown(low)}"
    return f"{what} <= {shown(high)}" if high is not None else what


def build(cls: type, given: dict[str, Any], fixed: dict[str, Any]) -> Any:
    """A ``cls`` of the flags ``given`` (by argparse attribute; each already
    :func:`checked`) and the ``fixed`` fields; the others keep their defaults."""
    values: dict[str, Any] = dict(fixed)
    nested: dict[str, dict[str, Any]] = {}
    for dest, value in given.items():
        path = flags_of(cls)[dest].path
        if len(path) == 1:
            values[path[0]] = value
        else:
            nested.setdefault(path[0], {})[path[1]] = value
    hints = typing.get_type_hints(cls)
    for name, fields in nested.items():
        values[name] = hints[name](**fields)
    return cls(**values)


def config_from_flags(cls: type, argv: list[str] | tuple[str, ...], **fixed: Any) -> Any:
    """A ``cls`` of command-line flags (a recipe's, say), each checked, and
    the ``fixed`` fields; ValueError naming a bad flag."""
    parser = argparse.ArgumentParser(prog=cls.__name__, exit_on_error=False)
    add_flags(parser, {"config": cls})
    try:
        args = parser.parse_args(list(argv))
    except argparse.ArgumentError as e:
        raise ValueError(str(e)) from None
    given = {}
    for dest, flag in flags_of(cls).items():
        value = getattr(args, dest)
        if value is not None:
            try:
                given[dest] = checked(flag, value)
            except ValueError as e:
                raise ValueError(f"{flag.flag} {value}: {e}") from None
    return build(cls, given, fixed)


def config_from_record(cls: type, record: Any, where: str) -> Any:
    """The ``cls`` a run wrote as ``dataclasses.asdict`` (a resume point's
    config), every field checked as its flag would be, or for its type;
    ValueError naming the field otherwise."""
    if not isinstance(record, dict):
        raise ValueError(f"{where}: its config is not a JSON object")
    hints = typing.get_type_hints(cls)
    flags = {flag.path[-1]: flag for flag in flags_of(cls).values() if len(flag.path) == 1}
    values: dict[str, Any] = {}
    for f in dataclasses.fields(cls):
        if f.name not in record:
            raise ValueError(f"{where}: its config lacks {f.name!r}")
        value, hint = record[f.name], hints[f.name]
        try:
            if isinstance(hint, type) and dataclasses.is_dataclass(hint):
                values[f.name] = config_from_record(hint, value, f"{where}: {f.name}")
            elif f.name in flags and value is not None and flags[f.name].field.metadata.get("parse"):
                values[f.name] = checked(flags[f.name], _as_flag_text(value))
            elif f.name in flags and value is not None:
                values[f.name] = checked(flags[f.name], _typed(value, _base(hint)))
            else:
                values[f.name] = _typed(value, _base(hint))
        except ValueError as e:
            raise ValueError(f"{where}: its config's {f.name}: {e}") from None
        except (TypeError, AttributeError):  # a parser given a value of another type
            raise ValueError(f"{where}: its config's {f.name} is of the wrong type") from None
    return cls(**values)


def _as_flag_text(value: Any) -> Any:
    """A parsed field's value as its flag's text: a conv trunk is
    ``CHANNELSxBLOCKS``, a league's mix ``name=weight,...``; a list stays."""
    if isinstance(value, dict) and set(value) == {"channels", "blocks"}:
        return f"{value['channels']}x{value['blocks']}"
    if isinstance(value, dict):
        return ",".join(f"{k}={v}" for k, v in value.items())
    return value


def _typed(value: Any, hint: Any) -> Any:
    """``value`` (from JSON) if it is of type ``hint``'s kind; ValueError otherwise."""
    origin = typing.get_origin(hint) or hint
    if value is None:
        return value
    if origin is float and isinstance(value, int) and not isinstance(value, bool):
        value = float(value)
    if origin is tuple and isinstance(value, list):
        value = tuple(value)
    if origin in (int, float) and (isinstance(value, bool) or not isinstance(value, origin)):
        raise ValueError(f"not of type {origin.__name__}")
    if isinstance(origin, type) and not isinstance(value, origin):
        raise ValueError(f"not of type {origin.__name__}")
    return value


__all__ = [
    "Flag",
    "add_flags",
    "build",
    "checked",
    "config_from_flags",
    "config_from_record",
    "flags_of",
    "option",
    "owner_of",
    "shown",
]
