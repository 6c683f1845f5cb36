//! Policy-network training shards: positions as fixed-size binary records after a
//! small header, then a table of the games they come from, written by `tengen learn
//! export` and read by the trainer (`crates/learn/python/`) through a memory map.
//!
//! All integers are little-endian. The header is [`HEADER_BYTES`] long (32 in version
//! 1, which this module still reads):
//!
//! | offset | bytes | field |
//! |---|---|---|
//! | 0 | 8 | magic `TGPOLICY` |
//! | 8 | 4 | format version, [`VERSION`] |
//! | 12 | 4 | board side (19) |
//! | 16 | 4 | planes, `P` ([`PLANES`](tengen_knowledge::PLANES) names them) |
//! | 20 | 4 | record bytes, `P * ceil(side² / 8) + 10` |
//! | 24 | 8 | positions in the shard |
//! | 32 | 8 | games in the shard (version 2 on) |
//! | 40 | 4 | game-entry bytes, `12 + side²` |
//! | 44 | 4 | the judgement's playouts behind each ownership label (0: none judged) |
//!
//! Then one record a position: `P` planes of `ceil(side² / 8)` bytes each (point `i =
//! y * side + x`, row 0 at the bottom, is bit `i % 8`, least significant first, of
//! byte `i / 8`), then the move played as a `u16` (the point's index, or `side²` for
//! a pass), the move's number in its game as a `u16` (from 1), the mover as a `u8` (0
//! Black, 1 White), the game's phase as a `u8` (0: moves 1–30, 1: 31–100, 2: 101 on,
//! as `tengen learn eval` reports them) and the position's game as a `u32` (its entry
//! in the table below, from 0). On 19×19 with 18 planes a record is 838 bytes (834 in
//! version 1, which has no game).
//!
//! Then one entry a game ([`GameLabel`]): the winner as a `u8` (0 none known, 1 Black,
//! 2 White), how it ended (`u8`, [`Ending`]), the record's scoring (`u8`: 0 area, 1
//! territory), a zero byte, the komi (`f32`), the margin (`f32`, Black's points minus
//! White's under the record's rules; NaN where the game was not counted), then the
//! final ownership of every point as an `i8` in the planes' point order (+127 Black's,
//! −127 White's, 0 neither or not judged): Tengen's own judgement
//! (`Engine::judge_with`, lent by `tengen learn export`) of the game's last
//! position, at the header's playouts. 373 bytes a game on 19×19.
//!
//! A shard holds whatever its writer was given, in order; nothing in it depends on the
//! time or the machine, so the same records and flags give the same bytes.

use std::fs::File;
use std::io::{self, BufWriter, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use crate::outcome::{Ending, Outcome};

/// The magic bytes a shard starts with.
pub const MAGIC: &[u8; 8] = b"TGPOLICY";

/// The format version this module writes (it reads 1 too).
pub const VERSION: u32 = 2;

/// Bytes of the header.
pub const HEADER_BYTES: usize = 48;

/// Bytes of version 1's header.
const HEADER_BYTES_V1: usize = 32;

/// Bytes after the planes in a record: move, number, mover, phase, game.
pub const TAIL_BYTES: usize = 10;

/// Bytes after the planes in a version 1 record (no game).
const TAIL_BYTES_V1: usize = 6;

/// Bytes of a game entry before its ownership.
const GAME_FIXED_BYTES: usize = 12;

/// What a shard holds: its header's fields.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ShardHeader {
    /// The format version (1 or 2).
    pub version: u32,
    /// The board's side.
    pub side: u32,
    /// Planes in a record.
    pub planes: u32,
    /// Positions in the shard.
    pub positions: u64,
    /// Games in the shard's table (0 in version 1).
    pub games: u64,
    /// The judgement's playouts behind each ownership label (0: none judged).
    pub ownership_playouts: u32,
}

impl ShardHeader {
    /// Bytes one record takes.
    pub fn record_bytes(&self) -> usize {
        let tail = if self.version == 1 {
            TAIL_BYTES_V1
        } else {
            TAIL_BYTES
        };
        self.planes as usize * tengen_knowledge::plane_bytes(self.side as usize) + tail
    }

    /// Bytes one game entry takes.
    pub fn game_bytes(&self) -> usize {
        GAME_FIXED_BYTES + (self.side * self.side) as usize
    }

    /// Bytes of the header.
    pub fn header_bytes(&self) -> usize {
        if self.version == 1 {
            HEADER_BYTES_V1
        } else {
            HEADER_BYTES
        }
    }

    fn to_bytes(self) -> [u8; HEADER_BYTES] {
        let mut b = [0; HEADER_BYTES];
        b[..8].copy_from_slice(MAGIC);
        b[8..12].copy_from_slice(&VERSION.to_le_bytes());
        b[12..16].copy_from_slice(&self.side.to_le_bytes());
        b[16..20].copy_from_slice(&self.planes.to_le_bytes());
        b[20..24].copy_from_slice(&(self.record_bytes() as u32).to_le_bytes());
        b[24..32].copy_from_slice(&self.positions.to_le_bytes());
        b[32..40].copy_from_slice(&self.games.to_le_bytes());
        b[40..44].copy_from_slice(&(self.game_bytes() as u32).to_le_bytes());
        b[44..48].copy_from_slice(&self.ownership_playouts.to_le_bytes());
        b
    }

    /// Reads the header at the start of `source`, or says why it is not one.
    pub fn read(mut source: impl Read) -> Result<ShardHeader, String> {
        let mut b = [0; HEADER_BYTES];
        source
            .read_exact(&mut b[..HEADER_BYTES_V1])
            .map_err(|e| format!("no shard header ({e})"))?;
        if &b[..8] != MAGIC {
            return Err("not a policy shard (no TGPOLICY magic)".into());
        }
        let word = |b: &[u8], i: usize| u32::from_le_bytes([b[i], b[i + 1], b[i + 2], b[i + 3]]);
        let long = |b: &[u8], i: usize| u64::from_le_bytes(b[i..i + 8].try_into().expect("8"));
        let version = word(&b, 8);
        if version != 1 && version != VERSION {
            return Err(format!(
                "shard format version {version}, this build reads 1 and {VERSION}"
            ));
        }
        if version == VERSION {
            source
                .read_exact(&mut b[HEADER_BYTES_V1..])
                .map_err(|e| format!("no shard header ({e})"))?;
        }
        let header = ShardHeader {
            version,
            side: word(&b, 12),
            planes: word(&b, 16),
            positions: long(&b, 24),
            games: if version == 1 { 0 } else { long(&b, 32) },
            ownership_playouts: if version == 1 { 0 } else { word(&b, 44) },
        };
        if header.side == 0 || header.side > 25 || header.planes == 0 {
            return Err(format!(
                "shard header with side {} and {} planes",
                header.side, header.planes
            ));
        }
        if word(&b, 20) as usize != header.record_bytes() {
            return Err(format!(
                "shard header says {} bytes a record, its side and planes make {}",
                word(&b, 20),
                header.record_bytes()
            ));
        }
        if version == VERSION && word(&b, 40) as usize != header.game_bytes() {
            return Err(format!(
                "shard header says {} bytes a game, its side makes {}",
                word(&b, 40),
                header.game_bytes()
            ));
        }
        Ok(header)
    }

    /// The file's length its header promises.
    fn file_bytes(&self) -> u64 {
        self.header_bytes() as u64
            + self.positions * self.record_bytes() as u64
            + self.games * self.game_bytes() as u64
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
    /// The position's game: its entry in the shard's table (0 in version 1).
    pub game: u32,
}

impl Label {
    fn to_bytes(self) -> [u8; TAIL_BYTES] {
        let [m0, m1] = self.played.to_le_bytes();
        let [n0, n1] = self.number.to_le_bytes();
        let [g0, g1, g2, g3] = self.game.to_le_bytes();
        [m0, m1, n0, n1, self.mover, self.phase, g0, g1, g2, g3]
    }

    /// The label at the end of `record`, a record of a shard with this `header`.
    pub fn from_record(header: &ShardHeader, record: &[u8]) -> Label {
        let planes = header.planes as usize;
        let t = &record[planes * tengen_knowledge::plane_bytes(header.side as usize)..];
        Label {
            played: u16::from_le_bytes([t[0], t[1]]),
            number: u16::from_le_bytes([t[2], t[3]]),
            mover: t[4],
            phase: t[5],
            game: if header.version == 1 {
                0
            } else {
                u32::from_le_bytes([t[6], t[7], t[8], t[9]])
            },
        }
    }
}

/// A game's entry in a shard: how it ended and who owns each point at its end.
#[derive(Clone, Debug, PartialEq)]
pub struct GameLabel {
    /// What the record says of the end.
    pub outcome: Outcome,
    /// The record's scoring (0 area, 1 territory).
    pub scoring: u8,
    /// The record's komi.
    pub komi: f32,
    /// The final ownership of each point (`y * side + x`, row 0 at the bottom): +127
    /// Black's, −127 White's, 0 neither or not judged.
    pub ownership: Vec<i8>,
}

impl GameLabel {
    fn to_bytes(&self) -> Vec<u8> {
        let o = &self.outcome;
        let winner = match o.winner {
            None => 0,
            Some(tengen_board::Color::Black) => 1,
            Some(tengen_board::Color::White) => 2,
        };
        let mut b = vec![winner, o.ending as u8, self.scoring, 0];
        b.extend_from_slice(&self.komi.to_le_bytes());
        b.extend_from_slice(&o.margin.unwrap_or(f32::NAN).to_le_bytes());
        b.extend(self.ownership.iter().map(|&v| v as u8));
        b
    }

    /// The entry `entry` (exactly a header's game bytes), or why it is not one.
    pub fn from_bytes(entry: &[u8]) -> Result<GameLabel, String> {
        let winner = match entry[0] {
            0 => None,
            1 => Some(tengen_board::Color::Black),
            2 => Some(tengen_board::Color::White),
            w => return Err(format!("game entry with winner byte {w}")),
        };
        let ending = match entry[1] {
            0 => Ending::Unknown,
            1 => Ending::Counted,
            2 => Ending::Resignation,
            3 => Ending::Time,
            4 => Ending::Forfeit,
            5 => Ending::Draw,
            e => return Err(format!("game entry with ending byte {e}")),
        };
        let float = |i: usize| f32::from_le_bytes(entry[i..i + 4].try_into().expect("4 bytes"));
        let margin = float(8);
        Ok(GameLabel {
            outcome: Outcome {
                winner,
                ending,
                margin: (!margin.is_nan()).then_some(margin),
            },
            scoring: entry[2],
            komi: float(4),
            ownership: entry[GAME_FIXED_BYTES..].iter().map(|&v| v as i8).collect(),
        })
    }
}

/// Writes one shard: a header whose counts are filled in, and the game table
/// appended, by [`ShardWriter::finish`].
#[derive(Debug)]
pub struct ShardWriter {
    path: PathBuf,
    out: BufWriter<File>,
    header: ShardHeader,
    /// The game entries so far, written after the records.
    games: Vec<u8>,
}

impl ShardWriter {
    /// Creates (or truncates) the shard at `path` for boards of side `side`, `planes`
    /// planes, and ownership labels judged at `ownership_playouts` (0: none).
    pub fn create(
        path: &Path,
        side: u32,
        planes: u32,
        ownership_playouts: u32,
    ) -> io::Result<ShardWriter> {
        let header = ShardHeader {
            version: VERSION,
            side,
            planes,
            positions: 0,
            games: 0,
            ownership_playouts,
        };
        let mut out = BufWriter::with_capacity(1 << 20, File::create(path)?);
        out.write_all(&header.to_bytes())?;
        Ok(ShardWriter {
            path: path.to_path_buf(),
            out,
            header,
            games: Vec::new(),
        })
    }

    /// Positions written so far.
    pub fn positions(&self) -> u64 {
        self.header.positions
    }

    /// Games started so far.
    pub fn games(&self) -> u64 {
        self.header.games
    }

    /// The shard's file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Starts a game: the positions pushed from now on belong to it (their label's
    /// `game` is its number, which this returns).
    pub fn start_game(&mut self, game: &GameLabel) -> u32 {
        debug_assert_eq!(
            game.ownership.len(),
            (self.header.side * self.header.side) as usize
        );
        self.games.extend_from_slice(&game.to_bytes());
        self.header.games += 1;
        (self.header.games - 1) as u32
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

    /// Writes the game table after the records and the counts into the header, and
    /// closes the shard; returns its header.
    pub fn finish(mut self) -> io::Result<ShardHeader> {
        self.out.write_all(&self.games)?;
        let mut file = self.out.into_inner().map_err(|e| e.into_error())?;
        file.seek(SeekFrom::Start(0))?;
        file.write_all(&self.header.to_bytes())?;
        file.sync_all()?;
        Ok(self.header)
    }
}

/// A whole shard read into memory (for tests and small tools; the trainer maps the
/// file instead).
#[derive(Clone, Debug, PartialEq)]
pub struct ShardContents {
    /// The header.
    pub header: ShardHeader,
    /// The records, one after another.
    pub records: Vec<u8>,
    /// The games' entries, in order (none in version 1).
    pub games: Vec<GameLabel>,
}

impl ShardContents {
    /// The records, one a slice.
    pub fn records(&self) -> impl Iterator<Item = &[u8]> {
        self.records.chunks(self.header.record_bytes())
    }

    /// The records' labels, in order.
    pub fn labels(&self) -> Vec<Label> {
        self.records()
            .map(|r| Label::from_record(&self.header, r))
            .collect()
    }
}

/// Reads a whole shard, or says why it is not one.
pub fn read_shard(path: &Path) -> Result<ShardContents, String> {
    let named = |e: String| format!("{}: {e}", path.display());
    let bytes = std::fs::read(path).map_err(|e| named(e.to_string()))?;
    let header = ShardHeader::read(&bytes[..]).map_err(named)?;
    if bytes.len() as u64 != header.file_bytes() {
        return Err(named(format!(
            "{} bytes, the header's {} positions and {} games make {}",
            bytes.len(),
            header.positions,
            header.games,
            header.file_bytes()
        )));
    }
    let start = header.header_bytes();
    let end = start + header.positions as usize * header.record_bytes();
    let games = bytes[end..]
        .chunks(header.game_bytes())
        .map(GameLabel::from_bytes)
        .collect::<Result<Vec<_>, _>>()
        .map_err(named)?;
    let contents = ShardContents {
        header,
        records: bytes[start..end].to_vec(),
        games,
    };
    if let Some(l) = contents
        .labels()
        .iter()
        .find(|l| u64::from(l.game) >= header.games.max(1))
    {
        return Err(named(format!(
            "a position of game {}, the shard holds {}",
            l.game, header.games
        )));
    }
    Ok(contents)
}

#[cfg(test)]
mod tests {
    use super::*;
    use tengen_board::Color;

    fn game_label(winner: Option<Color>, ending: Ending, margin: Option<f32>) -> GameLabel {
        GameLabel {
            outcome: Outcome {
                winner,
                ending,
                margin,
            },
            scoring: 1,
            komi: 6.5,
            ownership: (0..25).map(|i| (i * 10 - 127) as i8).collect(),
        }
    }

    #[test]
    fn a_shard_reads_back_what_was_written() {
        let tmp = tempfile::tempdir().unwrap();
        let path = tmp.path().join("a.tgp");
        let mut w = ShardWriter::create(&path, 5, 2, 300).unwrap();
        let planes = [0b1010_0001u8, 0, 0, 0xff, 0, 0, 0, 1];
        let games = [
            game_label(Some(Color::White), Ending::Counted, Some(-3.5)),
            game_label(Some(Color::Black), Ending::Resignation, None),
        ];
        let first = w.start_game(&games[0]);
        let label = Label {
            played: 25,
            number: 7,
            mover: 1,
            phase: 0,
            game: first,
        };
        w.push(&planes, label).unwrap();
        let second = w.start_game(&games[1]);
        w.push(
            &planes,
            Label {
                game: second,
                ..label
            },
        )
        .unwrap();
        let header = w.finish().unwrap();
        assert_eq!(
            (header.positions, header.games, header.record_bytes()),
            (2, 2, 18)
        );
        let read = read_shard(&path).unwrap();
        assert_eq!(read.header, header);
        assert_eq!(read.header.ownership_playouts, 300);
        assert_eq!(&read.records[..8], &planes);
        assert_eq!(read.labels(), [label, Label { game: 1, ..label }]);
        assert_eq!(read.games, games);
    }

    /// A version 1 shard (no game table, 6-byte labels) still reads.
    #[test]
    fn a_version_one_shard_still_reads() {
        let tmp = tempfile::tempdir().unwrap();
        let path = tmp.path().join("old.tgp");
        let mut bytes = Vec::new();
        bytes.extend_from_slice(MAGIC);
        for word in [1u32, 5, 2, 14] {
            bytes.extend_from_slice(&word.to_le_bytes());
        }
        bytes.extend_from_slice(&1u64.to_le_bytes());
        bytes.extend_from_slice(&[1, 2, 3, 4, 5, 6, 7, 8]);
        bytes.extend_from_slice(&[25, 0, 7, 0, 1, 2]);
        std::fs::write(&path, &bytes).unwrap();
        let read = read_shard(&path).unwrap();
        assert_eq!((read.header.version, read.header.games), (1, 0));
        assert_eq!(
            read.labels(),
            [Label {
                played: 25,
                number: 7,
                mover: 1,
                phase: 2,
                game: 0
            }]
        );
        assert!(read.games.is_empty());
    }

    #[test]
    fn a_damaged_shard_is_refused_with_a_reason() {
        let tmp = tempfile::tempdir().unwrap();
        let path = tmp.path().join("a.tgp");
        let mut w = ShardWriter::create(&path, 19, 18, 0).unwrap();
        w.start_game(&GameLabel {
            ownership: vec![0; 361],
            ..game_label(None, Ending::Unknown, None)
        });
        w.finish().unwrap();
        let good = std::fs::read(&path).unwrap();
        let mut bad_winner = good.clone();
        bad_winner[HEADER_BYTES] = 7;
        let cases: [(&[u8], &str); 4] = [
            (b"TGPOL", "no shard header"),
            (&[0; 48], "no TGPOLICY magic"),
            (&[&good[..], &[1][..]].concat(), "1 games make"),
            (&bad_winner, "winner byte 7"),
        ];
        for (bytes, want) in cases {
            std::fs::write(&path, bytes).unwrap();
            let e = read_shard(&path).unwrap_err();
            assert!(e.contains(want) && e.contains("a.tgp"), "{e}");
        }
        let mut version = good.clone();
        version[8] = 9;
        std::fs::write(&path, &version).unwrap();
        assert!(read_shard(&path).unwrap_err().contains("version 9"));
    }
}
