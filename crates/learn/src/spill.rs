//! The learners' temporary file of competitions: each position as its count of
//! packed teams and the index of the winner (two little-endian `u32`), then the
//! teams (the low 96 bits of a `u128` each, 12 bytes little-endian), written once
//! and read back as often as the fit needs.
//!
//! The file lives in a directory the caller chooses. On Unix it is unlinked as soon
//! as it is open, so it is gone when the process ends however it ends; elsewhere it
//! is removed when the writer is dropped.

use std::fs::{File, OpenOptions};
use std::io::{self, BufReader, BufWriter, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

/// Buffer size of the file's reader and writer.
const BUFFER: usize = 1 << 20;

/// Bytes of a position's header: team count and winner index.
const HEADER: usize = 8;

/// Bytes of one packed team.
const TEAM: usize = 12;

/// The largest team the file holds: 96 bits.
pub const TEAM_BITS: u32 = 8 * TEAM as u32;

/// The writing end of a temporary competitions file.
#[derive(Debug)]
pub struct SpillWriter {
    file: BufWriter<File>,
    path: PathBuf,
    /// Whether the file is still to be removed by name (it could not be unlinked
    /// while open).
    remove_on_drop: bool,
    bytes: u64,
    /// Whether a reader may have moved the shared file offset since the last write.
    offset_moved: bool,
}

/// Says which file an I/O error is about and what was being done.
fn context(e: io::Error, what: &str, path: &Path) -> io::Error {
    io::Error::new(e.kind(), format!("{what} {}: {e}", path.display()))
}

impl SpillWriter {
    /// A new, empty file in `dir` (`tengen-competitions-PID-N.bin`, the first `N`
    /// free).
    pub fn create(dir: &Path) -> io::Result<SpillWriter> {
        if !dir.is_dir() {
            return Err(io::Error::new(
                io::ErrorKind::NotFound,
                format!(
                    "{}: no such directory for the temporary file",
                    dir.display()
                ),
            ));
        }
        let pid = std::process::id();
        let mut n = 0u32;
        let (file, path) = loop {
            let path = dir.join(format!("tengen-competitions-{pid}-{n}.bin"));
            match OpenOptions::new()
                .read(true)
                .write(true)
                .create_new(true)
                .open(&path)
            {
                Ok(f) => break (f, path),
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists && n < 10_000 => n += 1,
                Err(e) => return Err(context(e, "cannot create the temporary file", &path)),
            }
        };
        // Unlinked at once where the system allows it: nothing is left behind.
        let remove_on_drop = std::fs::remove_file(&path).is_err();
        Ok(SpillWriter {
            file: BufWriter::with_capacity(BUFFER, file),
            path,
            remove_on_drop,
            bytes: 0,
            offset_moved: false,
        })
    }

    /// The file's name (already unlinked on Unix).
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Bytes written so far.
    pub fn bytes(&self) -> u64 {
        self.bytes
    }

    /// Appends a position: its packed teams (each below 2^96, the bits above are
    /// not written) and the winner's index among them.
    pub fn position(&mut self, teams: &[u128], winner: u32) -> io::Result<()> {
        let moved = std::mem::take(&mut self.offset_moved);
        let w = &mut self.file;
        let mut write = || -> io::Result<()> {
            if moved {
                w.seek(SeekFrom::End(0))?;
            }
            w.write_all(&(teams.len() as u32).to_le_bytes())?;
            w.write_all(&winner.to_le_bytes())?;
            for t in teams {
                w.write_all(&t.to_le_bytes()[..TEAM])?;
            }
            Ok(())
        };
        write().map_err(|e| context(e, "writing the temporary file", &self.path))?;
        self.bytes += (HEADER + TEAM * teams.len()) as u64;
        Ok(())
    }

    /// A reader of everything written so far (the writer's buffer is flushed).
    /// The reader and the writer share the file's offset: a later write first goes
    /// back to the end.
    pub fn reader(&mut self) -> io::Result<SpillReader> {
        let path = self.path.clone();
        self.file
            .flush()
            .map_err(|e| context(e, "writing the temporary file", &path))?;
        let file = self
            .file
            .get_ref()
            .try_clone()
            .map_err(|e| context(e, "reading back the temporary file", &path))?;
        self.offset_moved = true;
        Ok(SpillReader {
            reader: BufReader::with_capacity(BUFFER, file),
            path,
            end: self.bytes,
            at: 0,
            buffer: Vec::new(),
            teams: Vec::new(),
        })
    }
}

impl Drop for SpillWriter {
    fn drop(&mut self) {
        if self.remove_on_drop {
            // Nothing more can be done about a failure here.
            let _ = std::fs::remove_file(&self.path);
        }
    }
}

/// Reads the positions of a [`SpillWriter`]'s file back, from the start.
#[derive(Debug)]
pub struct SpillReader {
    reader: BufReader<File>,
    path: PathBuf,
    /// Bytes written when the reader was made: where it stops.
    end: u64,
    at: u64,
    buffer: Vec<u8>,
    teams: Vec<u128>,
}

impl SpillReader {
    /// Back to the first position.
    pub fn rewind(&mut self) -> io::Result<()> {
        self.reader
            .seek(SeekFrom::Start(0))
            .map_err(|e| context(e, "reading back the temporary file", &self.path))?;
        self.at = 0;
        Ok(())
    }

    /// The next position's packed teams and the winner's index, `None` at the end.
    pub fn next_position(&mut self) -> io::Result<Option<(&[u128], u32)>> {
        if self.at >= self.end {
            return Ok(None);
        }
        let fail = |e| context(e, "reading back the temporary file", &self.path);
        let mut header = [0u8; HEADER];
        self.reader.read_exact(&mut header).map_err(fail)?;
        let n = u32::from_le_bytes([header[0], header[1], header[2], header[3]]) as usize;
        let won = u32::from_le_bytes([header[4], header[5], header[6], header[7]]);
        self.buffer.resize(n * TEAM, 0);
        self.reader.read_exact(&mut self.buffer).map_err(fail)?;
        self.teams.clear();
        self.teams.extend(self.buffer.chunks_exact(TEAM).map(|b| {
            let mut word = [0u8; 16];
            word[..TEAM].copy_from_slice(b);
            u128::from_le_bytes(word)
        }));
        self.at += (HEADER + n * TEAM) as u64;
        if won as usize >= n {
            return Err(io::Error::new(
                io::ErrorKind::InvalidData,
                format!(
                    "{}: a position's winner is out of range",
                    self.path.display()
                ),
            ));
        }
        Ok(Some((&self.teams, won)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A scratch directory, removed when dropped (a failing test included).
    fn fresh_dir(name: &str) -> tempfile::TempDir {
        tempfile::Builder::new()
            .prefix(&format!("tengen-spill-{name}-"))
            .tempdir()
            .unwrap()
    }

    #[test]
    fn positions_read_back_as_written_and_nothing_is_left_behind() {
        let tmp = fresh_dir("roundtrip");
        let dir = tmp.path();
        let mut w = SpillWriter::create(dir).unwrap();
        assert!(w.path().starts_with(dir));
        let top = (1u128 << 96) - 1;
        w.position(&[1, top, 7], 2).unwrap();
        w.position(&[5, 6], 0).unwrap();
        let mut r = w.reader().unwrap();
        for _ in 0..2 {
            r.rewind().unwrap();
            assert_eq!(r.next_position().unwrap(), Some((&[1, top, 7][..], 2)));
            assert_eq!(r.next_position().unwrap(), Some((&[5u128, 6][..], 0)));
            assert_eq!(r.next_position().unwrap(), None);
        }
        // Writing after reading appends.
        w.position(&[9, 10], 1).unwrap();
        let mut r = w.reader().unwrap();
        r.rewind().unwrap();
        let mut n = 0;
        while let Some((teams, _)) = r.next_position().unwrap() {
            n += teams.len();
        }
        assert_eq!((n, w.bytes()), (7, 3 * 8 + 7 * 12));
        #[cfg(unix)]
        assert_eq!(std::fs::read_dir(dir).unwrap().count(), 0);
        drop((r, w));
        assert_eq!(std::fs::read_dir(dir).unwrap().count(), 0);
    }

    #[test]
    fn a_missing_directory_is_a_clear_error() {
        let dir = std::env::temp_dir().join("tengen-no-such-dir/inside");
        let e = SpillWriter::create(&dir).unwrap_err();
        assert!(e.to_string().contains("tengen-no-such-dir"), "{e}");
    }
}
