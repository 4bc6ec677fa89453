"""A shared kernel (``azgames.core.jit.njit_shared``) is compiled once for every
caller only if every caller passes it the same argument types. numba types
a literal ``0`` or ``True`` as a type of its own, so a call that passes one
compiles the kernel again (Azimuth's mask compiled three times, seconds of a
first run). This reads the games' and the search's sources and refuses such
calls."""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("azacru_env", "azimuth_env", "azure_env", "agents")
SOURCES = sorted(p for package in PACKAGES for p in (ROOT / package).rglob("*.py"))


def module_of(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


@cache
def tree(path: Path) -> ast.Module:
    return ast.parse(path.read_text())


@cache
def shared() -> frozenset[tuple[str, str]]:
    """(module, function) of every ``@njit_shared`` function."""
    return frozenset(
        (module_of(p), node.name)
        for p in SOURCES
        for node in ast.walk(tree(p))
        if isinstance(node, ast.FunctionDef)
        and any(isinstance(d, ast.Name) and d.id == "njit_shared" for d in node.decorator_list)
    )


def names(module: str, source: ast.Module) -> dict[str, tuple[str, str | None]]:
    """What each top-level name of ``module`` refers to: (module, function),
    or (module, None) for a module imported under that name."""
    package = module.rsplit(".", 1)[0] if "." in module else module
    found: dict[str, tuple[str, str | None]] = {}
    for node in source.body:
        if isinstance(node, ast.FunctionDef):
            found[node.name] = (module, node.name)
        elif isinstance(node, ast.ImportFrom):
            base = package
            for _ in range(node.level - 1):
                base = base.rsplit(".", 1)[0]
            origin = (f"{base}.{node.module}" if node.module else base) if node.level else node.module
            for alias in node.names:
                found[alias.asname or alias.name] = (origin, alias.name)
    return found


def literal_calls(module: str, source: ast.Module, kernels: frozenset) -> list[str]:
    """``name(line): argument`` for each call of a shared kernel with a bare literal argument."""
    scope = names(module, source)
    found = []
    for node in ast.walk(source):
        if not isinstance(node, ast.Call):
            continue
        if isinstance(node.func, ast.Name):
            target = scope.get(node.func.id)
        elif isinstance(node.func, ast.Attribute) and isinstance(node.func.value, ast.Name):  # K.play
            origin = scope.get(node.func.value.id)
            target = (f"{origin[0]}.{origin[1]}", node.func.attr) if origin else None
        else:
            target = None
        if target not in kernels:
            continue
        for arg in node.args:
            literal = arg.operand if isinstance(arg, ast.UnaryOp) else arg  # -1 too
            if isinstance(literal, ast.Constant) and isinstance(literal.value, (bool, int)):
                found.append(f"{target[1]}(line {node.lineno}): {ast.unparse(arg)}")
    return found


def test_the_games_share_their_large_kernels():
    assert {
        ("azimuth_env.kernels", "write_planes"),
        ("azimuth_env.coop.kernels", "observe_as"),
        ("azure_env.kernels", "take_step"),
    } <= shared()


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_shared_kernel_is_called_with_a_literal(path):
    calls = literal_calls(module_of(path), tree(path), shared())
    assert calls == [], "pass np.int64(...) or np.bool_(...): one compile for every caller"


def test_a_literal_argument_to_a_shared_kernel_is_found():
    source = ast.parse(
        "from . import kernels as K\nfrom .kernels import play\n"
        "def f(s):\n    play(s, 0, np.int64(1))\n    K.write_mask(s, -1, True)\n    K.other(s, 0)\n"
    )
    kernels = frozenset({("game.kernels", "play"), ("game.kernels", "write_mask")})
    assert literal_calls("game.search", source, kernels) == [
        "play(line 4): 0",
        "write_mask(line 5): -1",
        "write_mask(line 5): True",
    ]
