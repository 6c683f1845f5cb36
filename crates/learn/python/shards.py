"""Reading policy-network shards written by `tengen learn export`.

The format is documented in crates/learn/src/shard.rs: a 32-byte header (magic
TGPOLICY, version, board side, planes, record bytes, positions), then fixed-size
records: bit-packed planes (point i = y * side + x is bit i % 8, least significant
first, of byte i / 8 of its plane), the move played (u16, side*side for a pass), the
move's number (u16), the mover (u8) and the phase (u8). Shards are memory-mapped, so
memory does not grow with the data.
"""

import glob
import os
import struct

import numpy as np

MAGIC = b"TGPOLICY"
VERSION = 1
HEADER_BYTES = 32
TAIL_BYTES = 6


class ShardError(Exception):
    """A file that is not a readable shard."""


class Shard:
    """One shard, memory-mapped."""

    def __init__(self, path):
        self.path = path
        with open(path, "rb") as f:
            head = f.read(HEADER_BYTES)
        if len(head) < HEADER_BYTES:
            raise ShardError(f"{path}: no shard header")
        magic, version, side, planes, record, positions = struct.unpack("<8sIIIIQ", head)
        if magic != MAGIC:
            raise ShardError(f"{path}: not a policy shard (no TGPOLICY magic)")
        if version != VERSION:
            raise ShardError(f"{path}: shard format version {version}, this trainer reads {VERSION}")
        self.side, self.planes, self.positions = side, planes, positions
        self.plane_bytes = (side * side + 7) // 8
        if record != planes * self.plane_bytes + TAIL_BYTES:
            raise ShardError(f"{path}: header's record size {record} does not match its planes")
        size = os.path.getsize(path)
        if size != HEADER_BYTES + positions * record:
            raise ShardError(f"{path}: {size} bytes, the header's {positions} positions make "
                             f"{HEADER_BYTES + positions * record}")
        self.records = np.memmap(path, dtype=np.uint8, mode="r", offset=HEADER_BYTES,
                                 shape=(positions, record)) if positions else np.zeros((0, record), np.uint8)

    def batch(self, indices):
        """Planes as float32 (n, planes, side, side) and labels for sorted `indices`."""
        rows = np.asarray(self.records[indices])
        n = len(rows)
        bits = rows[:, : self.planes * self.plane_bytes].reshape(n, self.planes, self.plane_bytes)
        area = self.side * self.side
        planes = np.unpackbits(bits, axis=2, bitorder="little")[:, :, :area]
        planes = planes.reshape(n, self.planes, self.side, self.side).astype(np.float32)
        tail = rows[:, -TAIL_BYTES:]
        played = tail[:, 0].astype(np.int32) | (tail[:, 1].astype(np.int32) << 8)
        phase = tail[:, 5].astype(np.int32)
        return planes, played, phase


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
