"""One loader for policy files: every bad file is refused with one line.

``NumpyPolicy.load`` reads a ``.npz`` within a size limit and without
pickles, and checks everything before the policy plays: a ValueError of one
line naming the file and what is wrong, raised by the suite (never a
traceback from inside numpy, zipfile or json) and never quoting the file.
The tables below are the bad files; each runs through the same loader.
"""

import io
import json
import os
import pickle
import zipfile
from pathlib import Path

import numpy as np
import pytest

from azgames.agents import make_agent
from azgames.agents import policy as policy_module
from azgames.agents.policy import NumpyPolicy, PolicyAgent, shipped_policy_path
from azgames.core.inputs import client_request

SHIPPED = sorted((Path(policy_module.__file__).parent / "policies").glob("*.npz"))
#: Written into every bad file: no message may quote it.
CANARY = "CANARY-7f3a-do-not-echo"

# A small valid policy: Azure Attack, 2 players (obs (21, 12, 6) = 1512 inputs, 5 actions).
OBS, INPUTS, ACTIONS, HIDDEN = [21, 12, 6], 1512, 5, 8


def good_meta() -> dict:
    return {
        "game": "azure",
        "num_players": 2,
        "obs_shape": list(OBS),
        "options": {},
        "hidden": [HIDDEN],
        "activation": "tanh",
        "note": CANARY,
    }


def good_arrays() -> dict:
    rng = np.random.default_rng(0)
    shapes = {
        "trunk_0_w": (INPUTS, HIDDEN),
        "trunk_0_b": (HIDDEN,),
        "policy_w": (HIDDEN, ACTIONS),
        "policy_b": (ACTIONS,),
        "value_w": (HIDDEN, 1),
        "value_b": (1,),
    }
    return {k: rng.normal(0, 0.1, s).astype(np.float16) for k, s in shapes.items()}


def write_npz(path: Path, arrays: dict, meta="good") -> Path:
    """An npz of ``arrays`` and ``meta`` (a dict as JSON, an array as given, None: no meta)."""
    items = dict(arrays)
    if isinstance(meta, dict):
        items["meta"] = np.array(json.dumps(meta))
    elif meta is not None:
        items["meta"] = np.asarray(meta)
    np.savez(path, **items)
    return path


def good_file(path: Path) -> Path:
    return write_npz(path, good_arrays(), good_meta())


def npy_member(name: str, header_shape, dtype, data: bytes) -> tuple[str, bytes]:
    """A raw ``.npy`` member whose header may claim more than its data."""
    out = io.BytesIO()
    np.lib.format.write_array_header_1_0(
        out,
        {
            "descr": np.lib.format.dtype_to_descr(np.dtype(dtype)),
            "fortran_order": False,
            "shape": header_shape,
        },
    )
    return name + ".npy", out.getvalue() + data


def write_zip(path: Path, members: list[tuple[str, bytes]]) -> Path:
    with zipfile.ZipFile(path, "w") as z:
        for name, data in members:
            z.writestr(name, data)
    return path


# ------------------------------------------------------------------ bad files: the bytes are wrong
def _missing(tmp):
    return tmp / "missing.npz"


def _folder(tmp):
    (tmp / "folder.npz").mkdir()
    return tmp / "folder.npz"


def _fifo(tmp):
    if not hasattr(os, "mkfifo"):
        pytest.skip("no FIFOs here")
    os.mkfifo(tmp / "fifo.npz")
    return tmp / "fifo.npz"


def _device(tmp):
    if not Path("/dev/null").exists():
        pytest.skip("no /dev/null here")
    return Path("/dev/null")


def _too_large(tmp):
    path = tmp / "huge.npz"
    with path.open("wb") as f:  # sparse: no disk used
        f.truncate(policy_module.MAX_FILE_BYTES + 1)
    return path


def _empty(tmp):
    (tmp / "empty.npz").write_bytes(b"")
    return tmp / "empty.npz"


def _truncated(tmp):
    data = good_file(tmp / "whole.npz").read_bytes()
    (tmp / "truncated.npz").write_bytes(data[: len(data) // 2])
    return tmp / "truncated.npz"


def _bit_flipped(tmp):
    data = bytearray(good_file(tmp / "whole.npz").read_bytes())  # uncompressed: the middle is trunk_0_w
    data[len(data) // 2] ^= 0xFF
    (tmp / "flipped.npz").write_bytes(bytes(data))
    return tmp / "flipped.npz"


def _npy(tmp):
    np.save(tmp / "weights.npy", good_arrays()["trunk_0_w"])
    return tmp / "weights.npy"


def _text(tmp):
    (tmp / "text.npz").write_text(f"not a policy {CANARY}\n" * 50)
    return tmp / "text.npz"


def _pickle(tmp):
    (tmp / "pickle.npz").write_bytes(pickle.dumps({"meta": CANARY}))
    return tmp / "pickle.npz"


def _object_array(tmp):
    arrays = good_arrays()
    arrays["value_b"] = np.array([CANARY], dtype=object)
    return write_npz(tmp / "objects.npz", arrays, good_meta())


def _header_claims_a_terabyte(tmp):
    members = [npy_member(k, v.shape, v.dtype, v.tobytes()) for k, v in good_arrays().items()]
    members[0] = npy_member("trunk_0_w", (10**6, 10**6), np.float32, b"\0" * 16)
    members.append(("meta.npy", _meta_member()))
    return write_zip(tmp / "liar.npz", members)


def _meta_member() -> bytes:
    out = io.BytesIO()
    np.lib.format.write_array(out, np.array(json.dumps(good_meta())))
    return out.getvalue()


def _not_npy_member(tmp):
    members = [npy_member(k, v.shape, v.dtype, v.tobytes()) for k, v in good_arrays().items()]
    members[0] = ("trunk_0_w.npy", f"raw bytes {CANARY}".encode())
    members.append(("meta.npy", _meta_member()))
    return write_zip(tmp / "raw.npz", members)


def _meta_of_zero_width(tmp):
    members = [npy_member(k, v.shape, v.dtype, v.tobytes()) for k, v in good_arrays().items()]
    members.append(npy_member("meta", (), "<U0", b""))
    return write_zip(tmp / "zero.npz", members)


def _negative_shape(tmp):
    members = [npy_member(k, v.shape, v.dtype, v.tobytes()) for k, v in good_arrays().items()]
    members[1] = npy_member("trunk_0_b", (-8,), np.float16, b"\0" * 16)
    members.append(("meta.npy", _meta_member()))
    return write_zip(tmp / "negative.npz", members)


FILE_CASES = [
    ("missing", _missing, r"^no policy file at '.*missing\.npz'$"),
    ("folder", _folder, r"folder\.npz' is a folder"),
    ("fifo", _fifo, r"fifo\.npz' is a FIFO"),
    ("device", _device, r"'/dev/null' is a device"),
    ("too large", _too_large, r"huge\.npz' is larger than [0-9,]+ bytes"),
    ("empty", _empty, r"empty\.npz' is empty$"),
    ("truncated", _truncated, r"truncated\.npz' is truncated or corrupt"),
    ("bit flipped", _bit_flipped, r"flipped\.npz': the array 'trunk_0_w' is truncated or corrupt"),
    (".npy", _npy, r"weights\.npy' is a \.npy array, not an \.npz policy archive"),
    ("text", _text, r"text\.npz' is not an \.npz archive"),
    ("pickle", _pickle, r"pickle\.npz' is not an \.npz archive"),
    ("object array", _object_array, r"the array 'value_b' holds Python objects"),
    (
        "header claims more than stored",
        _header_claims_a_terabyte,
        r"liar\.npz': the array 'trunk_0_w' is truncated or corrupt",
    ),
    ("member not .npy", _not_npy_member, r"raw\.npz': the array 'trunk_0_w' is truncated or corrupt"),
    ("meta of zero width", _meta_of_zero_width, r"zero\.npz': the array 'meta' is truncated or corrupt"),
    ("negative shape", _negative_shape, r"negative\.npz': the array 'trunk_0_b' is truncated or corrupt"),
]


# ------------------------------------------------------------------ bad files: the network is wrong
def without(*keys):
    def change(arrays, meta):
        for k in keys:
            arrays.pop(k)

    return change


def set_array(key, value):
    def change(arrays, meta):
        arrays[key] = value(arrays[key]) if callable(value) else value

    return change


def set_meta(key, value):
    def change(arrays, meta):
        meta[key] = value

    return change


def drop_meta(key):
    def change(arrays, meta):
        del meta[key]

    return change


def reshape_first_layer(obs_shape):
    def change(arrays, meta):
        meta["obs_shape"] = obs_shape
        arrays["trunk_0_w"] = np.zeros((int(np.prod(obs_shape)), HIDDEN), np.float16)

    return change


def add_trunk_layer(k, shape_w, shape_b):
    def change(arrays, meta):
        arrays[f"trunk_{k}_w"] = np.zeros(shape_w, np.float16)
        arrays[f"trunk_{k}_b"] = np.zeros(shape_b, np.float16)

    return change


def with_nan(key, value=np.nan):
    def change(arrays, meta):
        a = arrays[key].astype(np.float32)
        a.flat[3 % a.size] = value
        arrays[key] = a

    return change


def map_file(tmp_holder):
    def change(arrays, meta):
        secret = tmp_holder[0] / "secret_map.txt"
        secret.write_text(f"{CANARY}\n")
        meta["options"] = {"map": str(secret)}

    return change


def with_conv(then=None):
    """A conv trunk of 2 channels and 1 residual block (azgames.agents.conv),
    the first dense layer taking its 2 x 12 x 6 outputs; ``then`` changes it."""

    def change(arrays, meta):
        rng = np.random.default_rng(1)
        meta["conv"] = {"channels": 2, "blocks": 1}
        for k, planes in enumerate((OBS[0], 2, 2)):
            arrays[f"conv_{k}_w"] = rng.normal(0, 0.1, (2, planes, 3, 3)).astype(np.float16)
            arrays[f"conv_{k}_b"] = np.zeros(2, np.float16)
        arrays["trunk_0_w"] = rng.normal(0, 0.1, (2 * 12 * 6, HIDDEN)).astype(np.float16)
        if then is not None:
            then(arrays, meta)

    return change


_TMP = [None]  # the test's tmp_path, for the one case that writes a second file

# (id, change to a good policy's arrays and meta, message, also checked by the constructor)
NETWORK_CASES = [
    ("no meta", None, r"lacks the array 'meta'", False),
    ("meta not a string", np.arange(3.0), r"the array 'meta' holds float64, not the meta JSON string", False),
    ("meta two strings", np.array(["{}", "{}"]), r"the array 'meta' is not one JSON string", False),
    ("meta not JSON", np.array("{" + CANARY), r"meta is not (valid )?JSON.*line 1.*column 2", False),
    ("meta a list", np.array(json.dumps([CANARY])), r"meta is a JSON list, not an object", False),
    ("meta deeply nested", np.array("[" * 100_000 + "]" * 100_000), r"meta: JSON nested deeper than", False),
    ("meta lacks game", drop_meta("game"), r"meta lacks 'game'", True),
    ("meta lacks num_players", drop_meta("num_players"), r"meta lacks 'num_players'", True),
    ("meta lacks obs_shape", drop_meta("obs_shape"), r"meta lacks 'obs_shape'", True),
    ("game not a string", set_meta("game", [CANARY]), r"meta 'game' is a list, not a game's name", True),
    (
        "game not registered",
        set_meta("game", "chess"),
        r"meta game 'chess' is not a registered game; "
        r"known games: azacru, azimuth, azimuth_coop, azure",
        False,
    ),
    (
        "game name not echoed",
        set_meta("game", CANARY + " " * 50),
        r"meta game is not a registered game",
        False,
    ),
    (
        "num_players not an int",
        set_meta("num_players", "two"),
        r"meta 'num_players' is not a positive integer",
        True,
    ),
    (
        "num_players a bool",
        set_meta("num_players", True),
        r"meta 'num_players' is not a positive integer",
        True,
    ),
    (
        "num_players out of range",
        set_meta("num_players", 7),
        r"meta num_players=7 is not a player count of azure "
        r"\(2 to 4\)",
        False,
    ),
    ("obs_shape not a shape", set_meta("obs_shape", [21, -12, 6]), r"meta 'obs_shape' is not a shape", True),
    (
        "obs_shape not the game's",
        reshape_first_layer([21, 12, 7]),
        r"meta obs_shape \(21, 12, 7\) is not the observation of azure with 2 players, \(21, 12, 6\)",
        False,
    ),
    (
        "options not an object",
        set_meta("options", [CANARY]),
        r"meta 'options' is a list, not a JSON object",
        False,
    ),
    (
        "option unknown",
        set_meta("options", {CANARY: 1}),
        r"meta 'options' holds 1 option\(s\) that azure does not take \(its options: map, max_turns, roles, "
        r"suit_tiles\)",
        False,
    ),
    (
        "option invalid",
        set_meta("options", {"roles": CANARY}),
        r"meta 'options' \(roles\) do not make a valid azure game for 2 players",
        False,
    ),
    ("option names a file", map_file(_TMP), r"meta 'options' \(map\) do not make a valid azure game", False),
    ("activation not tanh", set_meta("activation", "relu"), r"meta 'activation' is not 'tanh'", True),
    (
        "hidden not the trunk's",
        set_meta("hidden", [128]),
        r"meta 'hidden' is not the trunk's widths \[8\]",
        True,
    ),
    ("missing weights", without("trunk_0_w"), r"lacks the array 'trunk_0_w'$", False),
    ("missing bias", without("value_b"), r"lacks the array 'value_b'$", False),
    ("missing heads", without("policy_w", "policy_b"), r"lacks the array 'policy_w' \(and 1 more\)", False),
    ("trunk gap", add_trunk_layer(2, (8, 8), (8,)), r"lacks the array 'trunk_1_w' \(and 1 more\)", False),
    ("too many layers", add_trunk_layer(99, (8, 8), (8,)), r"more than 64 trunk layers", False),
    (
        "first layer not the observation's size",
        set_array("trunk_0_w", np.zeros((1000, HIDDEN), np.float16)),
        r"trunk_0_w takes 1000 inputs, but meta obs_shape \(21, 12, 6\) gives 1512",
        True,
    ),
    (
        "trunk does not chain",
        add_trunk_layer(1, (9, 8), (8,)),
        r"trunk_1_w takes 9 inputs, but trunk_0_w gives 8",
        True,
    ),
    (
        "policy head does not chain",
        set_array("policy_w", np.zeros((9, ACTIONS), np.float16)),
        r"policy_w takes 9 inputs, but trunk_0_w gives 8",
        True,
    ),
    (
        "value head does not chain",
        set_array("value_w", np.zeros((9, 1), np.float16)),
        r"value_w takes 9 inputs, but trunk_0_w gives 8",
        True,
    ),
    (
        "value head of three outputs, for two players",  # the mover's, or one a player
        lambda a, m: a.update(value_w=np.zeros((8, 3), np.float16), value_b=np.zeros(3, np.float16)),
        r"the value head \(value_w\) gives 3 outputs, not 1 \(the mover's\) or 2 \(one a player\)",
        True,
    ),
    (
        "policy head not the action space",
        lambda a, m: a.update(policy_w=np.zeros((8, 6), np.float16), policy_b=np.zeros(6, np.float16)),
        r"the policy head \(policy_w\) gives 6 actions; azure with 2 players has 5",
        False,
    ),
    (
        "weights one-dimensional",
        set_array("trunk_0_w", np.zeros(INPUTS, np.float16)),
        r"trunk_0_w has shape \(1512,\), not \(inputs, outputs\)",
        True,
    ),
    (
        "trunk bias of the wrong size",
        set_array("trunk_0_b", np.zeros(9, np.float16)),
        r"trunk_0_b has shape \(9,\), not \(8,\): one bias per output of trunk_0_w",
        True,
    ),
    (
        "bias a row",
        set_array("policy_b", np.zeros((1, ACTIONS), np.float16)),
        r"policy_b has shape \(1, 5\), not \(5,\)",
        True,
    ),
    ("bias a scalar", set_array("value_b", np.float16(0)), r"value_b has shape \(\), not \(1,\)", True),
    (
        "integer weights",
        set_array("trunk_0_w", lambda w: w.astype(np.int32)),
        r"trunk_0_w holds int32, not floats",
        True,
    ),
    ("boolean bias", set_array("policy_b", lambda b: b > 0), r"policy_b holds bool, not floats", True),
    (
        "complex weights",
        set_array("value_w", lambda w: w.astype(np.complex64)),
        r"value_w holds complex64, not floats",
        True,
    ),
    (
        "string weights",
        set_array("policy_w", np.array([[CANARY]])),
        r"policy_w holds <U\d+, not floats",
        True,
    ),
    ("NaN weight", with_nan("trunk_0_w"), r"trunk_0_w holds NaN or infinite weights", True),
    ("infinite bias", with_nan("policy_b", np.inf), r"policy_b holds NaN or infinite weights", True),
    (
        "float64 beyond float32",
        set_array("value_w", lambda w: np.full(w.shape, 1e300)),
        r"value_w holds weights too large for float32",
        True,
    ),
    (
        "meta search not the rescale flag",
        set_meta("search", {"rescale": CANARY}),
        r"meta 'search': 'rescale' is not true or false",
        True,
    ),
    (
        "meta search with an unknown key",
        set_meta("search", {"rescale": True, CANARY: 1}),
        r"meta 'search': a key that is no search setting",
        True,
    ),
    (
        "meta search playout weight beyond 1",
        set_meta("search", {"rescale": True, "playout_weight": 1e300}),
        r"meta 'search': 'playout_weight' is not a number from 0 to 1",
        True,
    ),
    (
        "meta search playout weight a string",
        set_meta("search", {"rescale": True, "playout_weight": CANARY}),
        r"meta 'search': 'playout_weight' is not a number from 0 to 1",
        True,
    ),
    (
        "meta search heuristic playouts not a flag",
        set_meta("search", {"rescale": True, "heuristic_playouts": CANARY}),
        r"meta 'search': 'heuristic_playouts' is not true or false",
        True,
    ),
    (
        "meta search playout plies below -1",
        set_meta("search", {"rescale": True, "max_playout": -2}),
        r"meta 'search': 'max_playout' is not a whole number from -1 to 10,000",
        True,
    ),
    (
        "meta search playout plies a fraction",
        set_meta("search", {"rescale": True, "max_playout": 2.5}),
        r"meta 'search': 'max_playout' is not a whole number from -1 to 10,000",
        True,
    ),
    (
        "meta search prior temperature below 0",
        set_meta("search", {"rescale": True, "prior_temperature": -0.1}),
        r"meta 'search': 'prior_temperature' is not a number from 0 to 1e\+06",
        True,
    ),
    (
        "meta search prior temperature not a number",
        set_meta("search", {"rescale": True, "prior_temperature": [CANARY]}),
        r"meta 'search': 'prior_temperature' is not a number from 0 to 1e\+06",
        True,
    ),
    (
        "meta search min spread 0",
        set_meta("search", {"rescale": True, "min_spread": 0}),
        r"meta 'search': 'min_spread' is not a number from 1e-08 to 2",
        True,
    ),
    (
        "meta search min spread beyond 2",
        set_meta("search", {"rescale": True, "min_spread": 1e300}),
        r"meta 'search': 'min_spread' is not a number from 1e-08 to 2",
        True,
    ),
    # A conv trunk (AlphaZero's --conv): the constructor takes its layers
    # apart (test_a_conv_policy_built_in_code_gets_the_same_checks).
    (
        "conv layers without meta conv",
        with_conv(drop_meta("conv")),
        r"conv layers without meta 'conv'",
        False,
    ),
    (
        "meta conv with a layer missing",
        with_conv(without("conv_2_w", "conv_2_b")),
        r"2 conv layers; meta conv \(blocks=1\) has 3",
        False,
    ),
    ("a conv layer without its bias", with_conv(without("conv_1_b")), r"lacks the array 'conv_1_b'", False),
    (
        "meta conv of another depth",
        with_conv(set_meta("conv", {"channels": 2, "blocks": 2})),
        r"3 conv layers; meta conv \(blocks=2\) has 5",
        False,
    ),
    (
        "meta conv not channels and blocks",
        with_conv(set_meta("conv", {"channels": 2, "blocks": 1, "kernel": CANARY})),
        r"meta 'conv' is not \{'channels': C, 'blocks': B\}",
        False,
    ),
    (
        "meta conv of no channels",
        with_conv(set_meta("conv", {"channels": 0, "blocks": 1})),
        r"meta conv 'channels' is not an integer from 1 to 256",
        False,
    ),
    (
        "conv over a flat observation",
        with_conv(set_meta("obs_shape", [1512])),
        r"a conv trunk needs planes \(an obs_shape of \(planes, height, width\)\), not \(1512,\)",
        False,
    ),
    (
        "conv kernel of the wrong shape",
        with_conv(set_array("conv_1_w", np.zeros((2, 2, 5, 5), np.float16))),
        r"conv_1_w has shape \(2, 2, 5, 5\), not \(2, 2, 3, 3\)",
        False,
    ),
    (
        "conv of NaN",
        with_conv(with_nan("conv_0_w")),
        r"conv_0 holds NaN, infinite or float32-overflowing",
        False,
    ),
    (
        "dense layer not chaining from the conv trunk",
        with_conv(set_array("trunk_0_w", np.zeros((INPUTS, HIDDEN), np.float16))),
        r"trunk_0_w takes 1512 inputs, but the conv trunk \(meta conv\) gives 144",
        False,
    ),
]


def _apply(case_change, tmp_path):
    arrays, meta = good_arrays(), good_meta()
    if case_change is None:
        meta = None
    elif isinstance(case_change, np.ndarray):
        meta = case_change
    else:
        case_change(arrays, meta)
    return arrays, meta


def assert_one_clean_line(excinfo, shown: str):
    """One line, naming the file, raised by the suite (not numpy/zipfile/json), no file contents."""
    message = str(excinfo.value)
    assert excinfo.type is ValueError
    assert "\n" not in message and len(message) < 400, message
    assert CANARY not in message, message
    assert shown in message, message
    exc = excinfo.value
    assert exc.__context__ is None or exc.__suppress_context__, repr(exc.__context__)
    raised_in = Path(excinfo.traceback[-1].path).name
    assert raised_in in ("policy.py", "conv.py", "inputs.py", "settings.py"), raised_in


@pytest.mark.parametrize("make,message", [c[1:] for c in FILE_CASES], ids=[c[0] for c in FILE_CASES])
def test_a_bad_file_is_refused_in_one_line(make, message, tmp_path):
    path = make(tmp_path)
    with pytest.raises(ValueError, match=message) as excinfo:
        NumpyPolicy.load(path)
    assert_one_clean_line(excinfo, str(path))


@pytest.mark.parametrize(
    "change,message,in_code", [c[1:] for c in NETWORK_CASES], ids=[c[0] for c in NETWORK_CASES]
)
def test_a_bad_network_is_refused_in_one_line(change, message, in_code, tmp_path):
    _TMP[0] = tmp_path
    arrays, meta = _apply(change, tmp_path)
    path = write_npz(tmp_path / "policy.npz", arrays, meta)
    with pytest.raises(ValueError, match=message) as excinfo:
        NumpyPolicy.load(path)
    assert_one_clean_line(excinfo, str(path))
    assert str(excinfo.value).startswith(f"policy file {str(path)!r}")


@pytest.mark.parametrize(
    "change,message", [c[1:3] for c in NETWORK_CASES if c[3]], ids=[c[0] for c in NETWORK_CASES if c[3]]
)
def test_a_policy_built_in_code_gets_the_same_checks(change, message, tmp_path):
    arrays, meta = _apply(change, tmp_path)
    depth = sum(1 for k in arrays if k.startswith("trunk_") and k.endswith("_w"))
    trunk = [(arrays[f"trunk_{k}_w"], arrays[f"trunk_{k}_b"]) for k in range(depth)]
    with pytest.raises(ValueError, match=message) as excinfo:
        NumpyPolicy(
            trunk, (arrays["policy_w"], arrays["policy_b"]), (arrays["value_w"], arrays["value_b"]), meta
        )
    assert str(excinfo.value).startswith("policy: ")
    assert_one_clean_line(excinfo, "policy")


def test_the_unpacked_size_is_capped(tmp_path, monkeypatch):
    monkeypatch.setattr(policy_module, "MAX_ARRAY_BYTES", 10_000)  # trunk_0_w alone unpacks to 24 KiB
    path = good_file(tmp_path / "policy.npz")
    with pytest.raises(ValueError, match=r"its arrays unpack to more than 10,000 bytes") as excinfo:
        NumpyPolicy.load(path)
    assert_one_clean_line(excinfo, str(path))


def test_a_remote_client_names_no_policy_file_but_plays_the_shipped_ones(tmp_path):
    from azgames.agents import make_agent

    present = good_file(tmp_path / "policy.npz")
    for path in (present, tmp_path / "missing.npz"):  # the same answer whether it exists or not
        with client_request(), pytest.raises(ValueError, match="a page cannot name a file on the server"):
            make_agent(f"ppo:path={path}", game="azure")
    with client_request():
        assert make_agent("ppo", game="azure").policy_for(2).meta["game"] == "azure"
    for path in (present, tmp_path / "missing.npz"):  # az's network file, the same
        with client_request(), pytest.raises(ValueError, match="a page cannot name a file on the server"):
            make_agent(f"az:path={path}", game="azure")


def test_a_good_small_policy_loads_and_round_trips(tmp_path):
    policy = NumpyPolicy.load(good_file(tmp_path / "policy.npz"))
    assert policy.num_actions == ACTIONS and policy.meta == good_meta()
    again = NumpyPolicy.load(policy.save(tmp_path / "again.npz"))
    for (w, b), (w2, b2) in zip(
        policy.trunk + [policy.policy_head, policy.value_head],
        again.trunk + [again.policy_head, again.value_head],
    ):
        np.testing.assert_array_equal(w, w2)
        np.testing.assert_array_equal(b, b2)
    obs = np.zeros((3, *OBS), np.int8)
    mask = np.ones((3, ACTIONS), bool)
    assert policy.act(obs, mask).shape == (3,)
    # compressed (what save writes) and float32 load too
    again32 = NumpyPolicy.load(policy.save(tmp_path / "f32.npz", dtype=np.float32))
    assert again32.trunk[0][0].dtype == np.float32


def test_a_conv_policy_built_in_code_gets_the_same_checks():
    arrays, meta = good_arrays(), good_meta()
    with_conv()(arrays, meta)
    convs = [(arrays[f"conv_{k}_w"], arrays[f"conv_{k}_b"]) for k in range(3)]
    parts = ([(arrays["trunk_0_w"], arrays["trunk_0_b"])], (arrays["policy_w"], arrays["policy_b"]))
    value = (arrays["value_w"], arrays["value_b"])
    assert len(NumpyPolicy(*parts, value, meta, convs=convs).convs) == 3
    with pytest.raises(ValueError, match=r"^policy: 2 conv layers; meta conv \(blocks=1\) has 3$"):
        NumpyPolicy(*parts, value, meta, convs=convs[:2])
    with pytest.raises(ValueError, match=r"^policy: conv_2_b has shape \(3,\), not \(2,\)$"):
        NumpyPolicy(*parts, value, meta, convs=[*convs[:2], (convs[2][0], np.zeros(3, np.float32))])


def test_a_conv_policy_round_trips_and_plays(tmp_path):
    arrays, meta = good_arrays(), good_meta()
    with_conv()(arrays, meta)
    policy = NumpyPolicy.load(write_npz(tmp_path / "conv.npz", arrays, meta))
    again = NumpyPolicy.load(policy.save(tmp_path / "again.npz"))
    for (w, b), (w2, b2) in zip(policy.convs, again.convs):
        np.testing.assert_array_equal(w, w2)
        np.testing.assert_array_equal(b, b2)
    obs = np.random.default_rng(2).integers(-1, 2, (4, *OBS)).astype(np.int8)
    mask = np.ones((4, ACTIONS), bool)
    logits, values = again.evaluate(obs, mask)
    np.testing.assert_allclose(logits, policy.logits(obs, mask), rtol=1e-6)
    np.testing.assert_allclose(values, policy.values(obs), rtol=1e-6)
    assert np.ptp(logits) > 0  # the planes reach the heads


def test_saving_refuses_weights_that_float16_cannot_hold(tmp_path):
    arrays, meta = good_arrays(), good_meta()
    arrays["value_w"] = np.full((HIDDEN, 1), 1e6, np.float32)
    policy = NumpyPolicy(
        [(arrays["trunk_0_w"], arrays["trunk_0_b"])],
        (arrays["policy_w"], arrays["policy_b"]),
        (arrays["value_w"], arrays["value_b"]),
        meta,
    )
    with pytest.raises(ValueError, match="value_w does not fit in float16"):
        policy.save(tmp_path / "p.npz")
    assert not (tmp_path / "p.npz").exists()
    assert NumpyPolicy.load(policy.save(tmp_path / "p32.npz", dtype=np.float32)).value_head[0][0, 0] == 1e6


@pytest.mark.parametrize("path", SHIPPED, ids=[p.name for p in SHIPPED])
def test_every_shipped_policy_loads(path):
    policy = NumpyPolicy.load(path)
    game, players = path.stem.rsplit("_", 1)
    assert (policy.meta["game"], policy.meta["num_players"]) == (game, int(players[:-1]))
    assert path.stat().st_size < policy_module.MAX_FILE_BYTES // 16
    assert shipped_policy_path(game, int(players[:-1])) == path.resolve()


def test_the_shipped_policies_are_all_there():
    assert len(SHIPPED) == 12


def test_a_bad_policy_file_is_one_line_from_make_agent(tmp_path):
    arrays = good_arrays()
    arrays["trunk_0_b"] = np.zeros(9, np.float16)
    path = write_npz(tmp_path / "policy.npz", arrays, good_meta())
    with pytest.raises(
        ValueError, match=r"^agent 'ppo:path=.*': policy file .*trunk_0_b has shape"
    ) as excinfo:
        make_agent(f"ppo:path={path}", game="azure")
    assert "\n" not in str(excinfo.value)
    with pytest.raises(ValueError, match=r"no policy file at '.*missing\.npz'$"):
        make_agent(f"ppo:path={tmp_path / 'missing.npz'}", game="azure")


def test_a_checked_policy_plays(tmp_path):
    import azgames

    policy = NumpyPolicy.load(good_file(tmp_path / "policy.npz"))
    env = azgames.make("azure", num_players=2)
    env.reset(seed=0)
    assert PolicyAgent(policy, seed=0).act(env) in env.unwrapped.legal_actions()
