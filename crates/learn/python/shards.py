"""Reading policy-network shards written by `tengen learn export`.

The format is documented in crates/learn/src/shard.rs: a 48-byte header (magic
TGPOLICY, version, board side, planes, record bytes, positions, games, game-entry
bytes, the ownership judgement's playouts), then fixed-size records: bit-packed planes
(point i = y * side + x is bit i % 8, least significant first, of byte i / 8 of its
plane), the move played (u16, side*side for a pass), the move's number (u16), the
mover (u8), the phase (u8) and the position's game (u32); then a table of the games:
winner (u8: 0 none known, 1 Black, 2 White), ending (u8: 0 unknown, 1 counted, 2
resignation, 3 time, 4 forfeit, 5 draw), scoring (u8: 0 area, 1 territory), a zero
byte, komi (f32), margin (f32, Black minus White, NaN where not counted) and the final
ownership of each point (i8, +127 Black's). Version 1 shards (a 32-byte header, 6-byte
tails, no games) still read, without game labels. Shards are memory-mapped, so memory
does not grow with the data.
"""

import glob
import os
import struct

import numpy as np

MAGIC = b"TGPOLICY"
VERSIONS = (1, 2)
HEADER_BYTES = {1: 32, 2: 48}
TAIL_BYTES = {1: 6, 2: 10}
GAME_FIXED_BYTES = 12
ENDINGS = ("unknown", "counted", "resignation", "time", "forfeit", "draw")


class ShardError(Exception):
    """A file that is not a readable shard."""


class Shard:
    """One shard, memory-mapped."""

    def __init__(self, path):
        self.path = path
        with open(path, "rb") as f:
            head = f.read(HEADER_BYTES[2])
        if len(head) < HEADER_BYTES[1]:
            raise ShardError(f"{path}: no shard header")
        magic, version, side, planes, record, positions = struct.unpack("<8sIIIIQ", head[:32])
        if magic != MAGIC:
            raise ShardError(f"{path}: not a policy shard (no TGPOLICY magic)")
        if version not in VERSIONS:
            raise ShardError(f"{path}: shard format version {version}, this trainer reads "
                             f"{' and '.join(map(str, VERSIONS))}")
        self.version = version
        header = HEADER_BYTES[version]
        if len(head) < header:
            raise ShardError(f"{path}: no shard header")
        self.games, game_bytes, self.ownership_playouts = (
            struct.unpack("<QII", head[32:48]) if version == 2 else (0, 0, 0))
        self.side, self.planes, self.positions = side, planes, positions
        self.plane_bytes = (side * side + 7) // 8
        self.tail = planes * self.plane_bytes
        if record != self.tail + TAIL_BYTES[version]:
            raise ShardError(f"{path}: header's record size {record} does not match its planes")
        if version == 2 and game_bytes != GAME_FIXED_BYTES + side * side:
            raise ShardError(f"{path}: header's game size {game_bytes} does not match its side")
        size = os.path.getsize(path)
        want = header + positions * record + self.games * game_bytes
        if size != want:
            raise ShardError(f"{path}: {size} bytes, the header's {positions} positions and "
                             f"{self.games} games make {want}")
        self.records = np.memmap(path, dtype=np.uint8, mode="r", offset=header,
                                 shape=(positions, record)) if positions else np.zeros((0, record), np.uint8)
        if self.games:
            table = np.fromfile(path, dtype=np.uint8, offset=header + positions * record)
            table = table.reshape(self.games, game_bytes)
            self.winner = table[:, 0].astype(np.int32)
            self.ending = table[:, 1].astype(np.int32)
            self.scoring = table[:, 2].astype(np.int32)
            self.komi = table[:, 4:8].copy().view("<f4")[:, 0]
            self.margin = table[:, 8:12].copy().view("<f4")[:, 0]
            self.ownership = table[:, GAME_FIXED_BYTES:].view(np.int8).astype(np.float32) / 127.0
            if (self.winner > 2).any() or (self.ending >= len(ENDINGS)).any():
                raise ShardError(f"{path}: a game entry with a winner or ending out of range")

    def batch(self, indices):
        """Planes as float32 (n, planes, side, side) and labels for sorted `indices`."""
        rows = np.asarray(self.records[indices])
        n = len(rows)
        bits = rows[:, : self.tail].reshape(n, self.planes, self.plane_bytes)
        area = self.side * self.side
        planes = np.unpackbits(bits, axis=2, bitorder="little")[:, :, :area]
        planes = planes.reshape(n, self.planes, self.side, self.side).astype(np.float32)
        tail = rows[:, self.tail:]
        played = tail[:, 0].astype(np.int32) | (tail[:, 1].astype(np.int32) << 8)
        phase = tail[:, 5].astype(np.int32)
        return planes, played, phase

    def outcomes(self, indices):
        """The game labels of the positions at sorted `indices`, from the mover's view:
        a dict of `number` (the move's number in its game), `value` (1 the mover won, 0 lost, 0.5 a draw, NaN unknown), `ending`
        (index into ENDINGS), `margin` (the mover's points minus the opponent's under
        the record's rules, NaN where not counted), `komi`, `scoring` and `ownership`
        (n, side, side), +1 the mover's, -1 the opponent's, row 0 at the bottom. A
        version 1 shard has none: a ShardError."""
        if self.version == 1:
            raise ShardError(f"{self.path}: a version 1 shard has no game labels; export it again")
        rows = np.asarray(self.records[indices])
        tail = rows[:, self.tail:]
        mover = tail[:, 4].astype(np.int32)
        game = tail[:, 6:10].copy().view("<u4")[:, 0].astype(np.int64)
        if len(game) and game.max() >= self.games:
            raise ShardError(f"{self.path}: a position of game {game.max()}, the shard holds {self.games}")
        sign = np.where(mover == 0, 1.0, -1.0).astype(np.float32)
        winner = self.winner[game]
        ending = self.ending[game]
        value = np.full(len(game), np.nan, np.float32)
        value[winner == 1] = (mover[winner == 1] == 0)
        value[winner == 2] = (mover[winner == 2] == 1)
        value[ending == 5] = 0.5
        value[ending == 0] = np.nan
        side = self.side
        number = tail[:, 2].astype(np.int32) | (tail[:, 3].astype(np.int32) << 8)
        return {
            "number": number,
            "value": value,
            "ending": ending,
            "margin": self.margin[game] * sign,
            "komi": self.komi[game],
            "scoring": self.scoring[game],
            "ownership": (self.ownership[game] * sign[:, None]).reshape(len(game), side, side),
        }


class ShardSet:
    """Several shards of one board side and plane count, as one indexed sequence."""

    def __init__(self, paths):
        if not paths:
            raise ShardError("no shards given")
        self.shards = [Shard(p) for p in paths]
        first = self.shards[0]
        for s in self.shards[1:]:
            if (s.side, s.planes) != (first.side, first.planes):
                raise ShardError(f"{s.path}: side {s.side} and {s.planes} planes, "
                                 f"{first.path} has {first.side} and {first.planes}")
        self.side, self.planes = first.side, first.planes
        self.starts = np.cumsum([0] + [s.positions for s in self.shards])
        self.positions = int(self.starts[-1])
        if self.positions == 0:
            raise ShardError(f"{', '.join(paths)}: no positions")

    def batch(self, indices):
        """The positions at the global `indices` (any order), in that order."""
        indices = np.asarray(indices)
        order = np.argsort(indices, kind="stable")
        which = np.searchsorted(self.starts, indices[order], side="right") - 1
        parts = []
        for k in np.unique(which):
            local = indices[order][which == k] - self.starts[k]
            parts.append(self.shards[k].batch(local))
        planes = np.concatenate([p[0] for p in parts])
        played = np.concatenate([p[1] for p in parts])
        phase = np.concatenate([p[2] for p in parts])
        back = np.empty_like(order)
        back[order] = np.arange(len(order))
        return planes[back], played[back], phase[back]

    def outcomes(self, indices):
        """Shard.outcomes for the global `indices` (any order), in that order."""
        indices = np.asarray(indices)
        order = np.argsort(indices, kind="stable")
        which = np.searchsorted(self.starts, indices[order], side="right") - 1
        parts = [self.shards[k].outcomes(indices[order][which == k] - self.starts[k])
                 for k in np.unique(which)]
        back = np.empty_like(order)
        back[order] = np.arange(len(order))
        return {key: np.concatenate([p[key] for p in parts])[back] for key in parts[0]}


def expand(patterns):
    """Shard paths from files, directories (their *.tgp) and glob patterns, sorted."""
    paths = []
    for p in patterns:
        if os.path.isdir(p):
            found = sorted(glob.glob(os.path.join(p, "*.tgp")))
        else:
            found = sorted(glob.glob(p))
        if not found:
            raise ShardError(f"{p}: no shards")
        paths.extend(found)
    return paths


def symmetry_tables(side):
    """For each of the 8 symmetries of the square: `src` with transformed[i] =
    original[src[i]] over the side*side points, and `dst` its inverse (where point i
    goes)."""
    idx = np.arange(side * side).reshape(side, side)  # [y, x]
    tables = []
    for k in range(8):
        t = np.rot90(idx, k % 4)
        if k >= 4:
            t = t.T
        src = t.reshape(-1).copy()
        dst = np.empty_like(src)
        dst[src] = np.arange(side * side)
        tables.append((src, dst))
    return tables


def augment_points(maps, symmetries, tables):
    """Applies symmetry `symmetries[j]` to the point map j of `maps` (n, side, side)."""
    n, side, _ = maps.shape
    flat = maps.reshape(n, side * side)
    out = np.empty_like(flat)
    for k in range(8):
        rows = np.nonzero(symmetries == k)[0]
        if len(rows):
            out[rows] = flat[rows][:, tables[k][0]]
    return out.reshape(n, side, side)


def augment(planes, played, symmetries, tables):
    """Applies symmetry `symmetries[j]` to position j: its planes and its move (a pass,
    index side*side, stays)."""
    n, c, side, _ = planes.shape
    area = side * side
    flat = planes.reshape(n, c, area)
    out = np.empty_like(flat)
    moved = played.copy()
    for k in range(8):
        rows = np.nonzero(symmetries == k)[0]
        if len(rows) == 0:
            continue
        src, dst = tables[k]
        out[rows] = flat[rows][:, :, src]
        points = rows[played[rows] < area]
        moved[points] = dst[played[points]]
    return out.reshape(n, c, side, side), moved
