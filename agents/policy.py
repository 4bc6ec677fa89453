"""A trained policy as plain numpy: the ``ppo`` agents play without torch.

The network is the training command's (:mod:`azgames.training.ppo`): the
observation planes flattened to floats, a trunk of ``tanh`` layers, then two
heads: action logits (illegal actions masked out) and a value (the player
to act's, or, from AlphaZero with 3-4 sides, one for each player, counted
in seats from the player to act). A policy file
is one ``.npz`` holding the weights (``trunk_0_w``, ``trunk_0_b``, ...,
``policy_w``, ``policy_b``, ``value_w``, ``value_b``; ``w`` is
``(inputs, outputs)``; an AlphaZero network may start with a conv trunk,
``conv_0_w``, ...: :mod:`.conv`) and ``meta``: a JSON string naming the game, its
player count and options, the observation shape and how the file was made.

    policy = NumpyPolicy.load("azacru_2p.npz")
    logits = policy.logits(obs_batch, mask_batch)   # (N, num_actions), -inf where illegal

A policy file is data, never code: :meth:`NumpyPolicy.load` reads it within
a size limit (:func:`azgames.core.inputs.read_bytes`), opens the archive from
memory without pickles, and checks every array before the policy plays (a
ValueError of one line naming the file and what is wrong otherwise): the
meta, the layers' shapes (they chain from the game's observation to its
action space and a single value), float weights, all finite.
"""

from __future__ import annotations

import io
import json
import math
import re
import zipfile
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
from numpy.lib import format as npy_format

from azgames.core.inputs import parse_json, read_bytes
from azgames.core.limits import LOCAL

from .az.settings import SearchSettings, read_settings_file, settings_path
from .conv import check_conv, conv_features

#: The largest policy file read, in bytes: the suite's file limit. The
#: shipped files are under 1 MiB; a float32 network of two 1,024-wide layers
#: over Azimuth co-op's 2,592 inputs is about 17 MiB.
MAX_FILE_BYTES = LOCAL.file_bytes
#: The most bytes a policy file's arrays may unpack to (a compressed
#: archive can claim far more than it holds).
MAX_ARRAY_BYTES = 128 * 2**20
#: The longest ``meta`` JSON, in characters, and its deepest nesting (each
#: ``--init`` of a chain of runs nests the parent's record one level deeper).
MAX_META_CHARS = 2**20
MAX_META_DEPTH = 256
#: The most trunk layers a policy may have.
MAX_TRUNK_LAYERS = 64

_TRUNK = re.compile(r"trunk_(\d{1,6})_[wb]")
_CONV = re.compile(r"conv_(\d{1,6})_[wb]")
_NAME = re.compile(r"[A-Za-z0-9_.-]{1,40}")


def _shape(shape) -> str:
    return "(" + ", ".join(str(int(d)) for d in shape) + ("," if len(shape) == 1 else "") + ")"


def _is_int(value) -> bool:
    return isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_))


def check_network(trunk, policy, value, meta, where: str = "policy", convs=()):
    """The one check of a policy's network, whether read from a file or built
    in code: ``meta`` names a game, a player count and an observation shape;
    every layer is a float ``w`` of ``(inputs, outputs)`` and a ``b`` of
    ``(outputs,)``, the trunk chaining from the observation's size (or the
    conv trunk's output, :mod:`.conv`) to the heads, the value head giving
    one output or one a player; every weight finite. Returns ``(convs,
    trunk, policy, value)`` as float32 arrays; ValueError starting with
    ``where`` otherwise (naming the array, never quoting its values)."""
    if not isinstance(meta, dict):
        raise ValueError(f"{where}: meta is a {type(meta).__name__}, not a dict (JSON object)")
    for key in ("game", "num_players", "obs_shape"):
        if key not in meta:
            raise ValueError(f"{where}: meta lacks {key!r}")
    if not isinstance(meta["game"], str):
        raise ValueError(f"{where}: meta 'game' is a {type(meta['game']).__name__}, not a game's name")
    if not _is_int(meta["num_players"]) or meta["num_players"] < 1:
        raise ValueError(f"{where}: meta 'num_players' is not a positive integer")
    obs_shape = meta["obs_shape"]
    if (
        not isinstance(obs_shape, (list, tuple))
        or not 1 <= len(obs_shape) <= 8
        or not all(_is_int(d) and 1 <= d <= 2**20 for d in obs_shape)
    ):
        raise ValueError(f"{where}: meta 'obs_shape' is not a shape (a list of 1 to 8 positive integers)")
    if "search" in meta:
        SearchSettings.from_dict(meta["search"], f"{where}: meta 'search'")
    if "activation" in meta and meta["activation"] != "tanh":
        raise ValueError(
            f"{where}: meta 'activation' is not 'tanh', the only activation this forward pass has"
        )

    trunk = list(trunk)
    if len(trunk) > MAX_TRUNK_LAYERS:
        raise ValueError(f"{where}: {len(trunk)} trunk layers; at most {MAX_TRUNK_LAYERS}")
    layers = [(f"trunk_{k}", pair) for k, pair in enumerate(trunk)] + [("policy", policy), ("value", value)]
    for name, pair in layers:
        if not isinstance(pair, (tuple, list)) or len(pair) != 2:
            raise ValueError(f"{where}: layer {name} is not a pair (w, b)")
    inputs = math.prod(int(d) for d in obs_shape)
    feeds = f"meta obs_shape {_shape(obs_shape)}"  # what feeds the next layer
    convs = list(convs)
    if "conv" in meta:
        convs, inputs = check_conv(convs, meta, where)
        feeds = "the conv trunk (meta conv)"
    elif convs:
        raise ValueError(f"{where}: conv layers without meta 'conv' (their channels and blocks)")
    out = []
    for name, (w, b) in layers:
        pair = []
        for key, array in ((f"{name}_w", w), (f"{name}_b", b)):
            if not isinstance(array, np.ndarray):
                try:
                    array = np.asarray(array)
                except (ValueError, TypeError):
                    raise ValueError(f"{where}: {key} is not an array") from None
            if array.dtype.kind != "f":
                raise ValueError(f"{where}: {key} holds {array.dtype}, not floats")
            pair.append(array)
        w, b = pair
        if w.ndim != 2 or 0 in w.shape:
            raise ValueError(f"{where}: {name}_w has shape {_shape(w.shape)}, not (inputs, outputs)")
        if w.shape[0] != inputs:
            raise ValueError(f"{where}: {name}_w takes {w.shape[0]} inputs, but {feeds} gives {inputs}")
        if b.shape != (w.shape[1],):
            raise ValueError(
                f"{where}: {name}_b has shape {_shape(b.shape)}, not ({w.shape[1]},): "
                f"one bias per output of {name}_w"
            )
        if name == "value" and w.shape[1] not in (1, meta["num_players"]):
            raise ValueError(
                f"{where}: the value head (value_w) gives {w.shape[1]} outputs, not 1 "
                f"(the mover's) or {meta['num_players']} (one a player)"
            )
        converted = []
        for key, array in ((f"{name}_w", w), (f"{name}_b", b)):
            if not np.isfinite(array).all():
                raise ValueError(f"{where}: {key} holds NaN or infinite weights")
            with np.errstate(over="ignore", invalid="ignore"):
                array = array.astype(np.float32)
            if not np.isfinite(array).all():
                raise ValueError(f"{where}: {key} holds weights too large for float32")
            converted.append(array)
        out.append(tuple(converted))
        if name.startswith("trunk_"):
            inputs, feeds = w.shape[1], f"{name}_w"
    widths = [w.shape[1] for w, _ in out[:-2]]
    if "hidden" in meta and (not isinstance(meta["hidden"], (list, tuple)) or list(meta["hidden"]) != widths):
        raise ValueError(f"{where}: meta 'hidden' is not the trunk's widths {widths}")
    return convs, out[:-2], out[-2], out[-1]


def check_game(meta: dict, num_actions: int, where: str = "policy") -> None:
    """ValueError unless ``meta`` names a registered game, a player count and
    options it takes, and its observation shape, and the policy head's
    ``num_actions`` is the game's action space (asked of the game's rules,
    without making an env: nothing is compiled)."""
    from azgames.core.registry import list_games, rules_type

    game, players = meta["game"], meta["num_players"]
    known = [e.name for e in list_games()]
    if game not in known:
        named = f" {game!r}" if _NAME.fullmatch(game) else ""
        raise ValueError(
            f"{where}: meta game{named} is not a registered game; known games: {', '.join(known)}"
        )
    rules_cls = rules_type(game)
    info = rules_cls.info
    if not info.min_players <= players <= info.max_players:
        raise ValueError(
            f"{where}: meta num_players={int(players)} is not a player count of {game} "
            f"({info.min_players} to {info.max_players})"
        )
    options = meta.get("options") or {}
    if not isinstance(options, dict):
        raise ValueError(f"{where}: meta 'options' is a {type(options).__name__}, not a JSON object")
    defaults = rules_cls.option_defaults()
    unknown = [k for k in options if k not in defaults]
    if unknown:
        raise ValueError(
            f"{where}: meta 'options' holds {len(unknown)} option(s) that {game} does not "
            f"take (its options: {', '.join(sorted(defaults)) or 'none'})"
        )
    try:
        rules = rules_cls(players, **options)
    except (ValueError, TypeError, OSError):
        raise ValueError(
            f"{where}: meta 'options' ({', '.join(sorted(options))}) do not make a "
            f"valid {game} game for {players} players"
        ) from None
    want = tuple(int(d) for d in rules.observation_shape(0))
    if tuple(meta["obs_shape"]) != want:
        raise ValueError(
            f"{where}: meta obs_shape {_shape(meta['obs_shape'])} is not the observation "
            f"of {game} with {players} players, {_shape(want)}"
        )
    if num_actions != rules.num_actions:
        raise ValueError(
            f"{where}: the policy head (policy_w) gives {num_actions} actions; "
            f"{game} with {players} players has {rules.num_actions}"
        )


def _read_member(archive: zipfile.ZipFile, key: str, where: str, budget: list[int], kind: str) -> np.ndarray:
    """The array ``key`` of the archive, its header checked before its data
    is read: ``kind`` ``"f"`` (floats) or ``"U"`` (the meta string)."""
    try:
        info = archive.getinfo(key + ".npy")
    except KeyError:
        raise ValueError(f"{where} lacks the array {key!r}") from None
    if info.file_size > budget[0]:
        raise ValueError(
            f"{where}: its arrays unpack to more than {MAX_ARRAY_BYTES:,} bytes, the limit for a policy"
        )
    corrupt = f"{where}: the array {key!r} is truncated or corrupt"
    try:
        with archive.open(info) as fp:
            version = npy_format.read_magic(fp)
            if version == (1, 0):
                shape, fortran, dtype = npy_format.read_array_header_1_0(fp)
            elif version == (2, 0):
                shape, fortran, dtype = npy_format.read_array_header_2_0(fp)
            else:
                raise ValueError(corrupt)
            if dtype.hasobject:
                raise ValueError(f"{where}: the array {key!r} holds Python objects; a policy holds numbers")
            if dtype.kind != kind or dtype.fields is not None or dtype.subdtype is not None:
                if kind == "U":
                    raise ValueError(f"{where}: the array {key!r} holds {dtype}, not the meta JSON string")
                raise ValueError(f"{where}: {key} holds {dtype}, not floats")  # as check_network says
            count = math.prod(shape)
            nbytes = count * dtype.itemsize
            if dtype.itemsize == 0 or min(shape, default=0) < 0 or nbytes > info.file_size:
                # (the last: the header claims more than the archive holds)
                raise ValueError(corrupt)
            data = fp.read(nbytes)
            if len(data) != nbytes or fp.read(1):  # the read to the end checks the CRC
                raise ValueError(corrupt)
    except (
        zipfile.BadZipFile,
        zlib.error,
        EOFError,
        OSError,
        RuntimeError,
        NotImplementedError,
        OverflowError,
        SyntaxError,
    ):
        raise ValueError(corrupt) from None
    except ValueError as e:  # numpy's messages quote the header: ours do not
        if str(e).startswith(where):
            raise
        raise ValueError(corrupt) from None
    budget[0] -= info.file_size
    return np.frombuffer(data, dtype=dtype, count=count).reshape(shape, order="F" if fortran else "C")


class NumpyPolicy:
    """A policy and value over a batch of observations, in numpy (float32):
    an MLP over the flattened planes, or after a conv trunk (:mod:`.conv`)."""

    def __init__(
        self,
        trunk: list[tuple[np.ndarray, np.ndarray]],
        policy: tuple[np.ndarray, np.ndarray],
        value: tuple[np.ndarray, np.ndarray],
        meta: dict[str, Any],
        *,
        where: str = "policy",
        convs=(),
    ):
        """A policy of these layers, checked (:func:`check_network`: shapes
        chaining from ``meta``'s ``obs_shape``, float and finite weights)."""
        self.convs, self.trunk, self.policy_head, self.value_head = check_network(
            trunk, policy, value, meta, where, convs
        )
        self.meta = dict(meta)
        self.num_actions = self.policy_head[0].shape[1]

    # ------------------------------------------------------------ files
    def arrays(self) -> dict[str, np.ndarray]:
        """The weights by their names in a policy file, as they are (float32)."""
        arrays = {}
        for k, (w, b) in enumerate(self.convs):
            arrays[f"conv_{k}_w"], arrays[f"conv_{k}_b"] = w, b
        for k, (w, b) in enumerate(self.trunk):
            arrays[f"trunk_{k}_w"], arrays[f"trunk_{k}_b"] = w, b
        arrays["policy_w"], arrays["policy_b"] = self.policy_head
        arrays["value_w"], arrays["value_b"] = self.value_head
        return arrays

    def save(self, path, dtype=np.float16) -> Path:
        """Write the ``.npz`` (weights stored as ``dtype``: float16 halves the
        file; :meth:`load` computes in float32 either way)."""
        with np.errstate(over="ignore", invalid="ignore"):
            stored: dict[str, Any] = {k: v.astype(dtype) for k, v in self.arrays().items()}
        for name, v in stored.items():
            if not np.isfinite(v).all():
                raise ValueError(
                    f"{name} does not fit in {np.dtype(dtype)} (a weight too large); save with dtype=np.float32"
                )
        path = Path(path)
        np.savez_compressed(path, meta=np.array(json.dumps(self.meta, sort_keys=True)), **stored)
        return path

    @classmethod
    def load(cls, path) -> NumpyPolicy:
        """The policy of the ``.npz`` file at ``path``, every part of it
        checked before use (:func:`check_network`, :func:`check_game`): a
        ValueError of one line naming the file and what is wrong otherwise.
        The file is read whole within :data:`MAX_FILE_BYTES` (a FIFO, a
        device or a folder is refused) and opened from memory, without
        pickles."""
        path = Path(path)
        where = f"policy file {str(path)!r}"
        if not path.exists():
            raise ValueError(f"no policy file at {str(path)!r}")
        data = read_bytes(path, "policy file", MAX_FILE_BYTES)
        if not data:
            raise ValueError(f"{where} is empty")
        if data.startswith(npy_format.MAGIC_PREFIX):
            raise ValueError(f"{where} is a .npy array, not an .npz policy archive")
        if not data.startswith(b"PK"):
            raise ValueError(
                f"{where} is not an .npz archive (a policy file is the policy.npz that training writes)"
            )
        try:
            archive = np.load(io.BytesIO(data), allow_pickle=False)
        except (
            zipfile.BadZipFile,
            zlib.error,
            EOFError,
            OSError,
            ValueError,
            RuntimeError,
            NotImplementedError,
            OverflowError,
        ):
            raise ValueError(f"{where} is truncated or corrupt: not a readable .npz archive") from None
        with archive:
            if not isinstance(archive, np.lib.npyio.NpzFile) or archive.zip is None:
                raise ValueError(f"{where} is not an .npz archive")
            names = {n[:-4] for n in archive.zip.namelist() if n.endswith(".npy")}
            budget = [MAX_ARRAY_BYTES]
            raw_meta = _read_member(archive.zip, "meta", where, budget, "U")
            if raw_meta.shape != () or raw_meta.dtype.itemsize > 4 * MAX_META_CHARS:
                raise ValueError(
                    f"{where}: the array 'meta' is not one JSON string of at most "
                    f"{MAX_META_CHARS:,} characters"
                )
            meta = parse_json(str(raw_meta[()]), f"{where}: meta", MAX_META_DEPTH)
            if not isinstance(meta, dict):
                raise ValueError(f"{where}: meta is a JSON {type(meta).__name__}, not an object")
            layers = [int(m[1]) for m in map(_TRUNK.fullmatch, names) if m]
            depth = max(layers, default=-1) + 1
            conv_depth = max((int(m[1]) for m in map(_CONV.fullmatch, names) if m), default=-1) + 1
            for kind, count in (("trunk", depth), ("conv", conv_depth)):
                if count > MAX_TRUNK_LAYERS:
                    raise ValueError(f"{where}: more than {MAX_TRUNK_LAYERS} {kind} layers")
            keys = [f"conv_{k}_{p}" for k in range(conv_depth) for p in "wb"]
            keys += [f"trunk_{k}_{p}" for k in range(depth) for p in "wb"]
            keys += ["policy_w", "policy_b", "value_w", "value_b"]
            missing = [k for k in keys if k not in names]
            if missing:
                raise ValueError(
                    f"{where} lacks the array {missing[0]!r}"
                    + (f" (and {len(missing) - 1} more)" if len(missing) > 1 else "")
                )
            arrays = {k: _read_member(archive.zip, k, where, budget, "f") for k in keys}
        trunk = [(arrays[f"trunk_{k}_w"], arrays[f"trunk_{k}_b"]) for k in range(depth)]
        policy = cls(
            trunk,
            (arrays["policy_w"], arrays["policy_b"]),
            (arrays["value_w"], arrays["value_b"]),
            meta,
            where=where,
            convs=[(arrays[f"conv_{k}_w"], arrays[f"conv_{k}_b"]) for k in range(conv_depth)],
        )
        check_game(policy.meta, policy.num_actions, where)
        # How az searches it: as trained, unless a settings file beside it says otherwise.
        if "search" in meta or settings_path(path).is_file():
            trained = SearchSettings.from_dict(meta.get("search", {}), f"{where}: meta 'search'")
            policy.meta["search"] = read_settings_file(path, trained).to_dict()
        return policy

    # ------------------------------------------------------------ forward pass
    def features(self, obs: np.ndarray) -> np.ndarray:
        if self.convs:
            h = conv_features(np.asarray(obs).reshape(len(obs), *self.meta["obs_shape"]), self.convs)
        else:
            h = np.asarray(obs).reshape(len(obs), -1).astype(np.float32)
        for w, b in self.trunk:
            h = np.tanh(h @ w + b)
        return h

    def logits(self, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        """Action logits of a batch, ``-inf`` where ``mask`` is False."""
        return self._logits(self.features(obs), mask)

    def _logits(self, features: np.ndarray, mask: np.ndarray) -> np.ndarray:
        w, b = self.policy_head
        out = features @ w + b
        out[~np.asarray(mask, bool)] = -np.inf
        return out

    def evaluate(self, obs: np.ndarray, mask: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """:meth:`logits` and :meth:`values` of a batch, from one pass of the trunk."""
        h = self.features(obs)
        w, b = self.value_head
        return self._logits(h, mask), h @ w + b

    def value(self, obs: np.ndarray) -> np.ndarray:
        """The value head: the expected final reward of the player to act."""
        return self.values(obs)[:, 0]

    def values(self, obs: np.ndarray) -> np.ndarray:
        """The whole value head, (N, 1) or (N, num_players): column ``k`` the
        expected final reward of the player ``k`` seats after the one to act
        (column 0 its own; a head of one column gives the mover's only)."""
        w, b = self.value_head
        return self.features(obs) @ w + b

    def act(self, obs: np.ndarray, mask: np.ndarray, rng: np.random.Generator | None = None) -> np.ndarray:
        """One action per observation: the most likely legal action, or, given
        ``rng``, one sampled from the masked softmax."""
        logits = self.logits(obs, mask)
        if rng is None:
            return logits.argmax(axis=1)
        p = np.exp(logits - logits.max(axis=1, keepdims=True))
        cdf = np.cumsum(p, axis=1)
        u = rng.random(len(cdf)) * cdf[:, -1]
        # The first action whose cumulative probability passes u: never an
        # illegal one (probability 0 leaves the sum where it was).
        picks = np.minimum((cdf <= u[:, None]).sum(axis=1), self.num_actions - 1)
        stray = ~np.asarray(mask, bool)[np.arange(len(picks)), picks]  # u rounded up to the total
        picks[stray] = logits[stray].argmax(axis=1)
        return picks


class PolicyPerPlayerCount:
    """The policy an agent plays with each player count: the one it was given
    (for that policy's count only), or the one shipped for its game and the
    count, loaded on first use from ``shipped(game, num_players)``."""

    def __init__(self, policy: NumpyPolicy | None, game: str | None, shipped: Callable[[str, int], Path]):
        self.game = game
        self._policies = {} if policy is None else {policy.meta["num_players"]: policy}
        self._shipped = shipped if policy is None else None

    def __call__(self, num_players: int) -> NumpyPolicy:
        if num_players not in self._policies:
            if self._shipped is None:
                (trained,) = self._policies
                raise ValueError(f"this policy was trained for {trained} players; the env has {num_players}")
            assert self.game is not None  # given, for a shipped policy
            self._policies[num_players] = NumpyPolicy.load(self._shipped(self.game, num_players))
        return self._policies[num_players]


class PolicyAgent:
    """A trained policy as an agent of the suite: ``act(env) -> int``.

    ``policy`` is a :class:`NumpyPolicy`; without one, the agent plays the
    policy shipped for ``game`` and the env's player count (the registry's
    ``ppo``: ``agents/policies/<game>_<n>p.npz``). ``sample=False`` (the
    default) plays the most likely legal action; ``sample=True`` draws from
    the policy with the agent's generator."""

    name = "ppo"

    def __init__(
        self, policy: NumpyPolicy | None = None, seed=None, game: str | None = None, sample: bool = False
    ):
        from azgames.core.agent import agent_rng

        if policy is None and game is None:
            raise ValueError("PolicyAgent needs a policy or the game whose shipped policy to play")
        if policy is not None and not isinstance(policy, NumpyPolicy):
            raise TypeError(f"policy must be a NumpyPolicy, got {type(policy).__name__}")
        self.game = policy.meta["game"] if policy is not None else game
        self.policy_for = PolicyPerPlayerCount(policy, self.game, shipped_policy_path)
        self.rng = agent_rng(seed)
        self.sample = bool(sample)

    def act(self, env) -> int:
        from azgames.core.agent import suite_env

        raw = suite_env(env, self.game)
        policy = self.policy_for(raw.rules.num_players)
        seen = raw.observe(raw.agent_selection)
        action = policy.act(
            seen["observation"][None],
            seen["action_mask"][None].astype(bool),
            self.rng if self.sample else None,
        )
        return int(action[0])

    def __repr__(self) -> str:
        return f"PolicyAgent({self.game}, sample={self.sample})"


def shipped_policy_path(game: str, num_players: int) -> Path:
    """Where the package keeps the trained ``ppo`` policy of ``game`` with ``num_players``."""
    path = Path(__file__).resolve().parent / "policies" / f"{game}_{num_players}p.npz"
    if not path.is_file():
        raise ValueError(
            f"no trained ppo policy ships for {game} with {num_players} players "
            f"({path.name}); train one: python -m azgames train {game} "
            f"--players {num_players}"
        )
    return path
