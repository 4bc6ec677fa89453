"""``infos="numeric"``: every agent's info holds the same keys, of the same
shapes and number types, from reset to the end (what TorchRL and Tianshou
batch), the full infos staying in ``env.game_infos``; the default is the
full infos, unchanged."""

import json

import numpy as np
import pytest

import azgames
from tests.players import most

GAMES = [e.name for e in azgames.list_games()]
KEYS = {"score": float, "scores": list, "won": int, "winners": list, "turns": int, "illegal_action": int}


def layout(info: dict) -> dict:
    """The keys, types and lengths of a numeric info."""
    return {k: (type(v), len(v) if isinstance(v, list) else None) for k, v in info.items()}


def play_out(env, seed: int) -> list[dict]:
    """Play random legal actions to the end; every infos seen on the way."""
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    seen = [dict(env.infos)]
    while not (env.terminations[env.agent_selection] or env.truncations[env.agent_selection]):
        env.step(int(rng.choice(env.legal_actions())))
        seen.append(dict(env.infos))
    return seen


@pytest.mark.parametrize("game", GAMES)
def test_numeric_infos_keep_their_shape_and_report_the_end(game):
    # Cut long games short where the game has a turn limit (the co-op ends by its rounds).
    takes_limit = any(o.name == "max_turns" for o in azgames.core.registry.rules_type(game).OPTIONS)
    short = {"max_turns": 30} if takes_limit else {}
    env = azgames.make(game, num_players=most(game, 3), infos="numeric", **short)
    agents = env.possible_agents
    seen = play_out(env, seed=4)
    want = {k: (t, len(agents) if t is list else None) for k, t in KEYS.items()}
    for infos in seen:
        assert set(infos) == set(agents)
        assert all(layout(info) == want for info in infos.values())
    assert seen[0][agents[0]]["winners"] == [0] * len(agents)  # zeros until the end
    full = env.game_infos[agents[0]]  # the game's own infos, as with infos="full"
    final = env.infos
    assert final[agents[0]]["winners"] == [int(a in full["winners"]) for a in agents]
    assert [final[a]["won"] for a in agents] == final[agents[0]]["winners"]
    assert final[agents[0]]["scores"] == [float(full["scores"][a]) for a in agents]
    assert final[agents[0]]["turns"] == full["turns"]


@pytest.mark.parametrize("game", GAMES)
def test_the_default_infos_are_the_games_own(game):
    env = azgames.make(game)
    play_out(env, seed=1)
    assert env.infos is env.game_infos and isinstance(env.infos[env.possible_agents[0]]["winners"], list)
    assert env.info_format == "full"


def test_a_penalized_illegal_action_is_flagged_for_its_agent():
    env = azgames.make("azacru", infos="numeric", illegal_action="penalize")
    env.reset(seed=0)
    mover = env.agent_selection
    env.step(int(np.flatnonzero(env.observe(mover)["action_mask"] == 0)[0]))
    assert {a: i["illegal_action"] for a, i in env.infos.items()} == {"player_0": 1, "player_1": 0}
    assert env.game_infos[mover]["illegal_action"]["agent"] == mover
    assert env.rewards[mover] == -1.0


def test_clones_and_records_keep_both_infos():
    env = azgames.make("azure", infos="numeric")
    play_out(env, seed=2)
    twin = env.clone()
    assert twin.infos == env.infos and twin.infos is not env.infos
    assert twin.game_infos == env.game_infos
    # A record keeps the game's own results, whatever the env showed its clients
    # (a record has results when its game ended, not when it was cut short).
    ended = azgames.make("azacru", infos="numeric", max_turns=1000)
    play_out(ended, seed=0)
    assert any(ended.terminations.values())
    record = json.loads(json.dumps(ended.to_record()))
    assert record["result"] == json.loads(json.dumps({a: ended.game_infos[a] for a in ended.agents}))


def test_an_unknown_info_format_is_refused():
    with pytest.raises(ValueError, match="infos"):
        azgames.make("azacru", infos="arrays")
