"""A replay in the page: the record's actions and a checkpoint env now and
then, any ply rebuilt from the checkpoint before it; memory in proportion
to the plies, and every ply the same however it is reached."""

from __future__ import annotations

import gc
import json
import tracemalloc

import numpy as np
import pytest

import azgames
import azgames.web.session as session_module
from azgames.web.session import Session

from .helpers import random_game, record_text


def stop_record(plies: int) -> str:
    """An Azure Attack record of ``plies`` plies: every turn ends at once
    ("stop") until the turn limit."""
    env = azgames.make("azure", num_players=2, max_turns=plies)
    env.reset(seed=0)
    raw = env.unwrapped
    while legal := raw.legal_actions():
        env.step(next(a for a in legal if raw.action_to_str(a) == "stop"))
    assert len(raw.history) == plies
    return record_text(env)


def loaded(text: str) -> Session:
    session = Session()
    view = session.handle({"type": "load", "text": text})[0]
    assert view["mode"] == "replay"
    return session


def test_a_long_replay_takes_memory_in_proportion_to_its_plies():
    plies = 4000
    text = stop_record(plies)
    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        session = loaded(text)
        for ply in (0, 1, 2999, plies // 2, plies):  # seeking keeps no more than the ply shown
            session.handle({"type": "seek", "ply": ply})
        gc.collect()
        kept, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert session.replay.plies == plies
    # One env per ply kept about 30 kB a ply here (each env holds its history).
    assert (kept - before) / plies < 1024, f"{(kept - before) / plies:.0f} bytes a ply kept"
    assert (peak - before) / plies < 2048, f"{(peak - before) / plies:.0f} bytes a ply at the peak"


@pytest.mark.parametrize("game, plies", [("azure", 80), ("azacru", 45)])
@pytest.mark.parametrize("every, most", [(5, 64), (5, 3)])  # checkpoints every 5 plies; or 3, further apart
def test_seeking_any_ply_shows_what_stepping_there_shows(monkeypatch, game, plies, every, most):
    monkeypatch.setattr(session_module, "CHECKPOINT_EVERY", every)
    monkeypatch.setattr(session_module, "MAX_CHECKPOINTS", most)
    env, svgs = random_game(game, plies, seed=7)
    plies = len(svgs) - 1
    session = loaded(record_text(env))
    spacing = session.replay.every
    assert spacing == max(every, -(-plies // most))
    assert len(session.replay.checkpoints) == plies // spacing + 1 <= most + 1
    stepped = []
    for ply in range(plies + 1):  # one ply on at a time, as the page's "next" does
        stepped.append(session.handle({"type": "seek", "ply": ply})[0])
        assert stepped[-1]["svg"] == svgs[ply]
    for ply in np.random.default_rng(0).permutation(plies + 1).tolist():  # jumps, back and forth
        assert session.handle({"type": "seek", "ply": ply})[0] == stepped[ply]
    assert session.handle({"type": "save"})[0]["record"]["actions"] == env.unwrapped.to_record()["actions"]


def test_play_from_a_ply_between_checkpoints_then_save(monkeypatch):
    monkeypatch.setattr(session_module, "CHECKPOINT_EVERY", 4)
    env, svgs = random_game("azacru", 20, seed=3)
    record = env.unwrapped.to_record()
    session = loaded(json.dumps(record))
    session.handle({"type": "seek", "ply": 11})
    view = session.handle({"type": "play_from_here", "seats": ["human", "human"]})[0]
    assert (view["mode"], view["ply"], view["svg"]) == ("play", 11, svgs[11])
    assert session.replay is None  # the record's checkpoints go with the replay
    move = view["legal"][0]
    view = session.handle({"type": "choose", "action": move["action"]})[0]
    saved = session.handle({"type": "save"})[0]["record"]
    assert saved["actions"] == record["actions"][:11] + [move["action"]]
    session.handle({"type": "undo"})
    assert session.handle({"type": "save"})[0]["record"]["actions"] == record["actions"][:11]


def test_a_loaded_record_names_its_game_for_the_form_and_plays_on_as_that_game():
    """The page sets its New game form from the replay's first state (game,
    players, options), then sends the form's seats with "play from here": a
    3-player Azimuth record with its own turn limit plays on as just that."""
    env, svgs = random_game("azimuth", 9, seed=2, num_players=3, max_turns=120)
    record = env.unwrapped.to_record()
    session = Session()
    view = session.handle({"type": "load", "text": json.dumps(record)})[0]
    assert (view["game"], view["num_players"]) == ("azimuth", 3)
    assert view["options"] == record["options"] and view["options"]["max_turns"] == 120
    session.handle({"type": "seek", "ply": 5})
    seats = ["human", "random", "human"]  # one per player, as the form now has them
    view = session.handle({"type": "play_from_here", "seats": seats})[0]
    assert (view["mode"], view["game"], view["num_players"], view["ply"]) == ("play", "azimuth", 3, 5)
    assert view["seats"] == seats and view["options"]["max_turns"] == 120 and view["svg"] == svgs[5]
