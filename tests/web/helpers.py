"""Shared by the web tests: games played outside the app, to compare with it."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET

import numpy as np

import azgames


def random_game(game: str, plies: int, seed: int = 0, **options):
    """An env of ``game`` after up to ``plies`` random legal moves (seeded),
    and its picture's SVG at every ply on the way (index = ply)."""
    env = azgames.make(game, render_mode="ansi", **options)
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    raw = env.unwrapped
    svgs = [env.picture().svg()]
    for _ in range(plies):
        legal = raw.legal_actions()
        if not legal:
            break
        env.step(int(rng.choice(legal)))
        svgs.append(env.picture().svg())
    return env, svgs


def record_text(env) -> str:
    return json.dumps(env.unwrapped.to_record())


def canonical_svg(svg: str) -> str:
    """The SVG as canonical XML: the same picture however it was serialised."""
    return ET.canonicalize(xml_data=svg)
