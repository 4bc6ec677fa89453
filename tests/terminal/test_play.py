"""One game in the terminal: humans typing through an injected input
function (prefixes, refusals, undo, quit, end of input), and the agents'
turns printed one line and one board per turn."""

from __future__ import annotations

import io
import re

import numpy as np
import pytest

import azgames
from azgames.agents import make_agent
from azgames.terminal import Console, legal_moves, play_in_terminal
from azgames.terminal.history import positions

GAMES = [e.name for e in azgames.list_games()]


def script(*lines: str):
    """An input function typing ``lines`` in turn, then the end of input."""
    queue = list(lines)

    def typed(prompt: str) -> str:
        if not queue:
            raise EOFError
        return queue.pop(0)

    return typed


def play(game: str, names: list[str], typed, seed: int = 0, **kwargs):
    """Play ``names`` (``"human"`` or an agent) through the terminal; returns
    (the env, the result, what was printed)."""
    env = azgames.make(game, num_players=len(names))
    seats = {
        a: None if n == "human" else make_agent(n, seed=i, game=game)
        for i, (a, n) in enumerate(zip(env.possible_agents, names))
    }
    out = io.StringIO()
    result = play_in_terminal(
        env,
        seats,
        dict(zip(env.possible_agents, names)),
        seed=seed,
        console=Console(typed, out),
        out=out,
        **kwargs,
    )
    return env, result, out.getvalue()


def test_prefixes_refusals_and_help_at_the_keyboard_then_quit():
    env, result, printed = play(
        "azacru", ["human", "greedy"], script("e1", "a3-b3:NE", "zz", "", "moves", "help", "e1-e2", "quit")
    )
    assert result is None  # the human stopped the game
    assert "'e1' could be e1-e2:N, e1-d2:NW, e1-f2:NE: type more of the move" in printed
    assert "a3-b3:NE is not legal: a piece may only twist after crossing a border" in printed
    assert "'zz' is not a move" in printed
    # On the human's first turn, on moves, and on its second turn.
    assert printed.count("legal moves (16): a3-b3:E, ") == 3
    rules = env.unwrapped.rules
    assert printed.count(rules.legend()) == 2  # the first time, and with help
    assert "turn 1: player_0 (human) plays e1-e2:N" in printed
    assert env.unwrapped._history[0] == legal_moves_at_start("azacru")["e1-e2:N"]
    assert printed.rstrip().endswith("player_0 stopped the game (quit) after 2 turns, before its end")


def legal_moves_at_start(game: str) -> dict[str, int]:
    env = azgames.make(game, num_players=2)
    env.reset(seed=0)
    return legal_moves(env)


def test_undo_takes_back_the_humans_move_and_the_replies():
    env, result, printed = play(
        "azacru", ["human", "greedy"], script("undo", "e1-e2", "undo", "i9-i8"), boards=False
    )
    assert result is None  # the input ran out
    assert "nothing to undo: you have not moved yet" in printed
    reply = re.search(r"^turn 2: player_1 \(greedy\) plays (\S+)$", printed, re.M).group(1)
    assert f"took back: player_0 e1-e2:N; player_1 {reply}" in printed
    # The game goes on from the start: the record holds the new move only.
    record = env.unwrapped.to_record()
    assert record["moves"][0] == "i9-i8:S" and len(record["moves"]) == 2
    reloaded = azgames.core.records.from_record(record)  # replays and checks the final position
    assert reloaded.unwrapped._history == env.unwrapped._history
    assert "stopped the game (end of input)" in printed


def test_undo_inside_an_azure_turn_takes_back_one_step_and_the_turn_line_shows_what_stayed():
    # hunter_0 moves first; at seed 0 it may step N, S, W or stop.
    env, result, printed = play("azure", ["greedy", "human"], script("W", "undo", "n", "st"), boards=False)
    assert "took back: hunter_0 W" in printed
    assert "turn 1: hunter_0 (human) plays N stop" in printed
    assert result is None


def test_several_humans_share_the_keyboard():
    prompts = []
    typed = script("e1-e2", "e9-e8", "i9-i8", "undo")

    def keyboard(prompt):
        prompts.append(prompt)
        return typed(prompt)

    env, result, printed = play("azacru", ["human", "human"], keyboard, boards=False)
    assert prompts[:4] == ["player_0> ", "player_1> ", "player_0> ", "player_1> "]
    # player_1's undo takes back its own last move and player_0's reply.
    assert "took back: player_1 e9-e8:S; player_0 i9-i8:S" in printed
    assert env.unwrapped.to_record()["moves"] == ["e1-e2:N"]
    assert prompts[4] == "player_1> "


def shortest_beginning(env, move: str) -> str:
    """The shortest beginning of ``move`` that fits no other legal move and
    that the game's parser does not read as a move of its own."""
    moves = legal_moves(env)
    for n in range(1, len(move)):
        short = move[:n].casefold()
        if sum(m.casefold().startswith(short) for m in moves) > 1 or short in (
            "undo",
            "quit",
            "help",
            "moves",
        ):
            continue
        try:
            env.unwrapped.str_to_action(move[:n])
        except ValueError:
            return move[:n]
    return move


@pytest.mark.parametrize("game", GAMES)
def test_a_whole_game_with_a_human_seat(game):
    """The human types a random legal move's shortest beginning each time."""
    env = azgames.make(game, num_players=2)
    human = env.possible_agents[1]
    seats = {env.possible_agents[0]: make_agent("random", seed=0, game=game), human: None}
    labels = {env.possible_agents[0]: "random", human: "human"}
    rng = np.random.default_rng(1)
    meant, texts = [], []

    def typed(prompt):
        assert prompt == f"{human}> "
        moves = list(legal_moves(env))
        meant.append(moves[rng.integers(len(moves))])
        texts.append(shortest_beginning(env, meant[-1]))
        return texts[-1]

    out = io.StringIO()
    result = play_in_terminal(env, seats, labels, seed=3, console=Console(typed, out), out=out)
    assert result is not None and result["turns"] == env.infos[human]["turns"]
    printed = out.getvalue()
    assert "is not legal" not in printed and "could be" not in printed
    record = env.unwrapped.to_record()
    movers = [p.last.agent for p in positions(azgames.core.records.from_record(record))[1:]]
    assert [m for m, a in zip(record["moves"], movers) if a == human] == meant
    # Beginnings were typed, where a move is longer than one letter (not Connect Four's columns).
    assert any(len(t) < len(m) for t, m in zip(texts, meant)) or all(len(m) == 1 for m in meant)


def test_agents_turns_print_one_line_and_one_board_each():
    env, result, printed = play("azure", ["greedy", "random"], script(), seed=0)
    lines = [ln for ln in printed.splitlines() if re.match(r"^turn \d+: ", ln)]
    assert [int(re.match(r"^turn (\d+):", ln).group(1)) for ln in lines] == list(
        range(1, result["turns"] + 1)
    )
    boards = re.findall(r"^\s+a\s+b\s+c\s+d\s+e\s+f\s*$", printed, re.M)
    assert len(boards) == len(lines) + 1  # and the start
    moves = [m for ln in lines for m in ln.split(" plays ", 1)[1].split()]
    assert moves == env.unwrapped.to_record()["moves"]
    assert len(moves) > len(lines)  # an Azure turn is several steps


def test_a_turn_with_many_moves_shows_a_few_lines_of_them_and_moves_lists_them_all():
    """Azimuth's third turn offers about 190 placements: listed whole, they
    would push the board off the screen."""
    env = azgames.make("azimuth", num_players=2)
    env.reset(seed=0)
    greedy = make_agent("greedy", seed=0, game="azimuth")
    while len(legal_moves(env)) < 100:
        env.step(greedy.act(env))
    count = len(legal_moves(env))
    out = io.StringIO()
    console = Console(script("moves"), out)
    console.show_moves(env)
    short = out.getvalue().splitlines()
    assert len(short) == 3
    assert short[0].startswith(f"legal moves ({count}), the first: ")
    assert short[-1] == "  ... (type moves to list them all, or the beginning of one)"
    out.seek(0), out.truncate()
    console.show_moves(env, every=True)
    listed = out.getvalue()
    assert all(len(line) <= 100 for line in listed.splitlines())
    assert [m.strip() for m in listed.split(": ", 1)[1].replace("\n", "").split(",")] == list(
        legal_moves(env)
    )
    assert listed.startswith(f"legal moves ({count}): ")


def test_the_total_of_a_compile_comes_before_the_prompt_not_in_what_the_user_types(monkeypatch):
    from azgames.core import compile_notice

    settled = []
    monkeypatch.setattr(compile_notice, "settle", lambda: settled.append(len(prompts)))
    prompts: list[str] = []

    def keyboard(prompt):
        prompts.append(prompt)
        raise EOFError

    play("azacru", ["human", "greedy"], keyboard, boards=False)
    assert settled == [0]  # once, before the first prompt
