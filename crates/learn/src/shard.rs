//! Policy-network training shards: positions as fixed-size binary records after a
//! small header, written by `tengen learn export` and read by the trainer
//! (`crates/learn/python/`) through a memory map.
//!
//! All integers are little-endian. The header is [`HEADER_BYTES`] long:
//!
//! | offset | bytes | field |
//! |---|---|---|
//! | 0 | 8 | magic `TGPOLICY` |
//! | 8 | 4 | format version, [`VERSION`] |
//! | 12 | 4 | board side (19) |
//! | 16 | 4 | planes, `P` ([`PLANES`](tengen_knowledge::PLANES) names them) |
//! | 20 | 4 | record bytes, `P * ceil(side² / 8) + 6` |
//! | 24 | 8 | positions in the shard |
//!
//! Then one record a position: `P` planes of `ceil(side² / 8)` bytes each (point `i =
//! y * side + x`, row 0 at the bottom, is bit `i % 8`, least significant first, of
//! byte `i / 8`), then the move played as a `u16` (the point's index, or `side²` for
//! a pass), the move's number in its game as a `u16` (from 1), the mover as a `u8` (0
//! Black, 1 White) and the game's phase as a `u8` (0: moves 1–30, 1: 31–100, 2: 101
//! on, as `tengen learn eval` reports them). On 19×19 with 18 planes a record is 834
//! bytes.
//!
//! A shard holds whatever its writer was given, in order; nothing in it depends on the
//! time or the machine, so the same records and flags give the same bytes.

use std::fs::File;
use std::io::{self, BufWriter, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

/// The magic bytes a shard starts with.
pub const MAGIC: &[u8; 8] = b"TGPOLICY";

/// The format version this module writes and reads.
pub const VERSION: u32 = 1;

/// Bytes of the header.
pub const HEADER_BYTES: usize = 32;

/// Bytes after the planes in a record: move, number, mover, phase.
pub const TAIL_BYTES: usize = 6;

/// What a shard holds: its header's fields.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ShardHeader {
    /// The board's side.
    pub side: u32,
    /// Planes in a record.
    pub planes: u32,
    /// Positions in the shard.
    pub positions: u64,
}

impl ShardHeader {
    /// Bytes one record takes.
    pub fn record_bytes(&self) -> usize {
        self.planes as usize * tengen_knowledge::plane_bytes(self.side as usize) + TAIL_BYTES
    }

    fn to_bytes(self) -> [u8; HEADER_BYTES] {
        let mut b = [0; HEADER_BYTES];
        b[..8].copy_from_slice(MAGIC);
        b[8..12].copy_from_slice(&VERSION.to_le_bytes());
        b[12..16].copy_from_slice(&self.side.to_le_bytes());
        b[16..20].copy_from_slice(&self.planes.to_le_bytes());
        b[20..24].copy_from_slice(&(self.record_bytes() as u32).to_le_bytes());
        b[24..32].copy_from_slice(&self.positions.to_le_bytes());
        b
    }

    /// Reads the header at the start of `source`, or says why it is not one.
    pub fn read(mut source: impl Read) -> Result<ShardHeader, String> {
        let mut b = [0; HEADER_BYTES];
        source
            .read_exact(&mut b)
            .map_err(|e| format!("no shard header ({e})"))?;
        if &b[..8] != MAGIC {
            return Err("not a policy shard (no TGPOLICY magic)".into());
        }
        let word = |i: usize| u32::from_le_bytes([b[i], b[i + 1], b[i + 2], b[i + 3]]);
        if word(8) != VERSION {
            return Err(format!(
                "shard format version {}, this build reads {VERSION}",
                word(8)
            ));
        }
        let header = ShardHeader {
            side: word(12),
            planes: word(16),
            positions: u64::from_le_bytes(b[24..32].try_into().expect("8 bytes")),
        };
        if header.side == 0 || header.side > 25 || header.planes == 0 {
            return Err(format!(
                "shard header with side {} and {} planes",
                header.side, header.planes
            ));
        }
        if word(20) as usize != header.record_bytes() {
            return Err(format!(
                "shard header says {} bytes a record, its side and planes make {}",
                word(20),
                header.record_bytes()
            ));
        }
        Ok(header)
    }
}

/// A position's fields after its planes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Label {
    /// The point played (`y * side + x`), or `side²` for a pass.
    pub played: u16,
    /// The move's number in its game, from 1.
    pub number: u16,
    /// 0 for Black, 1 for White.
    pub mover: u8,
    /// 0, 1 or 2: moves 1–30, 31–100, 101 on.
    pub phase: u8,
}

impl Label {
    fn to_bytes(self) -> [u8; TAIL_BYTES] {
        let [m0, m1] = self.played.to_le_bytes();
        let [n0, n1] = self.number.to_le_bytes();
        [m0, m1, n0, n1, self.mover, self.phase]
    }

    /// The label at the end of `record`.
    pub fn from_record(record: &[u8]) -> Label {
        let t = &record[record.len() - TAIL_BYTES..];
        Label {
            played: u16::from_le_bytes([t[0], t[1]]),
            number: u16::from_le_bytes([t[2], t[3]]),
            mover: t[4],
            phase: t[5],
        }
    }
}

/// Writes one shard: a header whose count is filled in by [`ShardWriter::finish`].
#[derive(Debug)]
pub struct ShardWriter {
    path: PathBuf,
    out: BufWriter<File>,
    header: ShardHeader,
}

impl ShardWriter {
    /// Creates (or truncates) the shard at `path` for boards of side `side` and
    /// `planes` planes.
    pub fn create(path: &Path, side: u32, planes: u32) -> io::Result<ShardWriter> {
        let header = ShardHeader {
            side,
            planes,
            positions: 0,
        };
        let mut out = BufWriter::with_capacity(1 << 20, File::create(path)?);
        out.write_all(&header.to_bytes())?;
        Ok(ShardWriter {
            path: path.to_path_buf(),
            out,
            header,
        })
    }

    /// Positions written so far.
    pub fn positions(&self) -> u64 {
        self.header.positions
    }

    /// The shard's file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Appends a position: its planes (exactly the header's planes × plane bytes) and
    /// its label.
    pub fn push(&mut self, planes: &[u8], label: Label) -> io::Result<()> {
        debug_assert_eq!(planes.len() + TAIL_BYTES, self.header.record_bytes());
        self.out.write_all(planes)?;
        self.out.write_all(&label.to_bytes())?;
        self.header.positions += 1;
        Ok(())
    }

    /// Writes the count into the header and closes the shard; returns its header.
    pub fn finish(self) -> io::Result<ShardHeader> {
        let mut file = self.out.into_inner().map_err(|e| e.into_error())?;
        file.seek(SeekFrom::Start(0))?;
        file.write_all(&self.header.to_bytes())?;
        file.sync_all()?;
        Ok(self.header)
    }
}

/// Reads a whole shard: its header and its records (for tests and small tools; the
/// trainer maps the file instead).
pub fn read_shard(path: &Path) -> Result<(ShardHeader, Vec<u8>), String> {
    let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let header = ShardHeader::read(&bytes[..]).map_err(|e| format!("{}: {e}", path.display()))?;
    let body = &bytes[HEADER_BYTES.min(bytes.len())..];
    let want = header.positions as usize * header.record_bytes();
    if body.len() != want {
        return Err(format!(
            "{}: {} bytes of records, the header's {} positions make {want}",
            path.display(),
            body.len(),
            header.positions
        ));
    }
    Ok((header, body.to_vec()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_shard_reads_back_what_was_written() {
        let tmp = tempfile::tempdir().unwrap();
        let path = tmp.path().join("a.tgp");
        let mut w = ShardWriter::create(&path, 5, 2).unwrap();
        let planes = [0b1010_0001u8, 0, 0, 0xff, 0, 0, 0, 1];
        let label = Label {
            played: 25,
            number: 7,
            mover: 1,
            phase: 0,
        };
        w.push(&planes, label).unwrap();
        w.push(&planes, label).unwrap();
        let header = w.finish().unwrap();
        assert_eq!((header.positions, header.record_bytes()), (2, 14));
        let (read, body) = read_shard(&path).unwrap();
        assert_eq!(read, header);
        assert_eq!(&body[..8], &planes);
        assert_eq!(Label::from_record(&body[14..28]), label);
    }

    #[test]
    fn a_damaged_shard_is_refused_with_a_reason() {
        let tmp = tempfile::tempdir().unwrap();
        let path = tmp.path().join("a.tgp");
        let w = ShardWriter::create(&path, 19, 18).unwrap();
        w.finish().unwrap();
        let good = std::fs::read(&path).unwrap();
        let cases: [(&[u8], &str); 3] = [
            (b"TGPOL", "no shard header"),
            (&[0; 32], "no TGPOLICY magic"),
            (&[&good[..], &[1][..]].concat(), "1 bytes of records"),
        ];
        for (bytes, want) in cases {
            std::fs::write(&path, bytes).unwrap();
            let e = read_shard(&path).unwrap_err();
            assert!(e.contains(want), "{e}");
        }
        let mut version = good.clone();
        version[8] = 9;
        std::fs::write(&path, &version).unwrap();
        assert!(read_shard(&path).unwrap_err().contains("version 9"));
    }
}
