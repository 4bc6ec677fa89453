"""A game lives in its own package: outside it, only its registration line
names it (``azgames/core/registry.py``). The apps and agents read what they need
from the game's declarations (``Rules.OPTIONS``, ``sides``, ``baselines``,
``search_hooks``), so a new game touches no app.

Code is read as Python (``ast``): docstrings and comments may name a game as
an example; string literals and identifiers may not, except on a line that
names a peer library (the ``bench`` app times PettingZoo's and OpenSpiel's
own Connect Four as its yardstick). CONTRIBUTING.md's "add a game"
checklist relies on this test."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import azgames

ROOT = Path(__file__).resolve().parents[1]
#: A line naming one of these is about the peer's game, not ours.
PEERS = re.compile(r"pettingzoo|openspiel|pyspiel", re.IGNORECASE)
#: Where the apps and the agents live: the code that must not name a game.
SHARED = [ROOT / "azgames", ROOT / "agents"]
REGISTRY = ROOT / "azgames" / "core" / "registry.py"


def game_words() -> re.Pattern:
    names = set()
    for entry in azgames.list_games():
        names.add(entry.name)
        names.update(entry.module.split("."))
    names.discard("coop")  # the co-op package's last part is a common word, not a name
    return re.compile(r"(?<![A-Za-z])(" + "|".join(sorted(names, key=len, reverse=True)) + r")(?![a-z])")


def docstring_nodes(tree: ast.AST) -> set[int]:
    """The string constants that are docstrings (of the module, a class or a function)."""
    ids = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            if (
                body
                and isinstance(body[0], ast.Expr)
                and isinstance(body[0].value, ast.Constant)
                and isinstance(body[0].value.value, str)
            ):
                ids.add(id(body[0].value))
    return ids


def mentions(path: Path, words: re.Pattern) -> list[str]:
    source = path.read_text()
    tree = ast.parse(source)
    docs = docstring_nodes(tree)
    found = []
    for node in ast.walk(tree):
        if path == REGISTRY and isinstance(node, ast.Call) and getattr(node.func, "id", None) == "register":
            continue  # the registration lines: the one place a game is named
        texts = []
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docs:
            texts.append(node.value)
        elif isinstance(node, ast.Name):
            texts.append(node.id)
        elif isinstance(node, ast.Attribute):
            texts.append(node.attr)
        elif isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            texts.append(node.name)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            texts.extend(a.name for a in node.names)
            texts.append(getattr(node, "module", None) or "")
        line = source.splitlines()[node.lineno - 1] if hasattr(node, "lineno") else ""
        for text in texts:
            if words.search(text) and not PEERS.search(line):
                shown = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path.name
                found.append(f"{shown}:{getattr(node, 'lineno', '?')}: {text[:60]!r}")
    # Registration calls are skipped above, but their string arguments are
    # walked on their own: drop those on the registration lines.
    if path == REGISTRY:
        lines = source.splitlines()
        found = [
            f for f in found if not lines[int(f.split(":")[1]) - 1].lstrip().startswith(("register(", '"'))
        ]
    return found


def test_no_game_is_named_outside_its_own_package():
    words = game_words()
    found = [
        hit for folder in SHARED for path in sorted(folder.rglob("*.py")) for hit in mentions(path, words)
    ]
    assert not found, "game names outside their packages:\n" + "\n".join(found)


def test_the_check_catches_a_game_named_in_an_app(tmp_path):
    app = tmp_path / "app.py"
    first = azgames.list_games()[0].name
    app.write_text(f'"""Docstrings may name {first}."""\nGAME = "{first}"\n')
    assert len(mentions(app, game_words())) == 1
