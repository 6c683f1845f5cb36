//! Game records as policy-network training examples (`tengen learn export`): every
//! position of every game, encoded as the network's input planes (the engine's
//! [`PlaneEncoder`]) with the move played, into [`shard`](crate::shard)s in a directory,
//! and each game's labels once: the result its record gives ([`Outcome`]), its komi and
//! scoring, and the final ownership of every point, Tengen's judgement of the record's
//! last position (an [`OwnershipJudge`] the caller lends: `tengen learn export` lends
//! the engine's `Engine::judge_with`, so that this crate does not build the search) (a settled
//! count where the game was counted, the search's ownership where it was resigned).
//!
//! A held-out month is named explicitly ([`HeldOut::Month`]): its games go into their
//! own evaluation shard, `held-out-YYYY-MM.tgp`, and never into a training shard
//! (`train-00000.tgp`, `train-00001.tgp`, … of at most `shard_positions` positions
//! each); with a held-out month, a game without a date (`DT`) cannot be placed and is
//! skipped. Or there is none ([`HeldOut::None`]) and every game trains.
//!
//! Memory does not grow with the records: one game is held at a time, and the shards
//! are written as they fill.
//!
//! A shard appears under its name only when complete: it is written as
//! `NAME.tgp.partial` and renamed once its header holds the final count, so an
//! interrupted export leaves complete shards and at most two `.partial` files, never a
//! `.tgp` file that claims no positions. A new export removes `.partial` leftovers from
//! a directory that holds nothing else of an export; one that holds shards is refused,
//! naming every file to remove.

use std::fmt;
use std::io;
use std::path::PathBuf;

use tengen_board::Game;
use tengen_board::sgf::SgfGame;
use tengen_board::{Color, Move};
use tengen_knowledge::{PLANE_COUNT, PlaneEncoder, plane_bytes};

use crate::eval::{phase, replay};
use crate::outcome::{Ending, Outcome, scoring_byte};
use crate::shard::{GameLabel, Label, ShardWriter};

/// A calendar month, `YYYY-MM`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Month {
    year: u16,
    month: u8,
}

impl Month {
    /// Reads `YYYY-MM` (month 01 to 12), or says what is wrong.
    pub fn parse(text: &str) -> Result<Month, String> {
        let bad = || format!("{text:?} is not a month: expected YYYY-MM, e.g. 2011-03");
        let (y, m) = text.split_once('-').ok_or_else(bad)?;
        if y.len() != 4 || m.len() != 2 || !(y.bytes().chain(m.bytes())).all(|b| b.is_ascii_digit())
        {
            return Err(bad());
        }
        let (year, month) = (y.parse().map_err(|_| bad())?, m.parse().map_err(|_| bad())?);
        if !(1..=12).contains(&month) {
            return Err(bad());
        }
        Ok(Month { year, month })
    }

    /// Whether an SGF date (`DT`, e.g. `2011-03-01`) falls in this month: it starts
    /// with `YYYY-MM` and no further digit.
    pub fn holds(&self, date: &str) -> bool {
        let prefix = self.to_string();
        date.trim()
            .strip_prefix(&prefix)
            .is_some_and(|rest| !rest.starts_with(|c: char| c.is_ascii_digit()))
    }
}

impl fmt::Display for Month {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:04}-{:02}", self.year, self.month)
    }
}

/// Which games are held out of training.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HeldOut {
    /// The games of this month (by their `DT`) go into the evaluation shard only.
    Month(Month),
    /// Every game trains; no evaluation shard is written.
    None,
}

/// What an export writes where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExportOptions {
    /// The directory of the shards (made if missing; refused if it holds shards).
    pub out_dir: PathBuf,
    /// The board side exported; games on other boards are skipped.
    pub side: usize,
    /// The held-out games.
    pub held_out: HeldOut,
    /// The most positions in a training shard.
    pub shard_positions: u64,
}

/// What an export did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ExportTally {
    /// Games exported into training shards.
    pub training_games: u64,
    /// Games exported into the held-out shard.
    pub held_out_games: u64,
    /// Positions in the training shards.
    pub training_positions: u64,
    /// Positions in the held-out shard.
    pub held_out_positions: u64,
    /// Games skipped: no date while a month is held out.
    pub undated: u64,
    /// Games skipped: another board size.
    pub other_size: u64,
    /// Games whose replay stopped at a move the board refused (a superko the record
    /// allows); the positions before it are kept.
    pub cut_short: u64,
    /// Games exported without a result: none, or one that does not say who won and
    /// how (`B+`, `?`, `Void`).
    pub without_result: u64,
    /// Games exported with a result the board did not decide: won on time or by
    /// forfeit (a disconnection included).
    pub not_by_the_board: u64,
    /// The shards written, with their positions, in order.
    pub shards: Vec<(PathBuf, u64)>,
}

/// The ending of a shard being written; renamed away once it is complete.
const PARTIAL: &str = "partial";

/// Why an export could not start.
#[derive(Debug)]
pub enum ExportError {
    /// The directory could not be made or read.
    Directory(PathBuf, io::Error),
    /// The directory holds shards already (an export would mix with them): the
    /// directory, and the names of its shards and unfinished shards, sorted.
    HasShards(PathBuf, Vec<String>),
}

/// How many shard names [`ExportError::HasShards`] lists before "and N more".
const SHARDS_NAMED: usize = 10;

impl fmt::Display for ExportError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ExportError::Directory(p, e) => write!(f, "{}: {e}", p.display()),
            ExportError::HasShards(p, names) => {
                let mut listed = names[..names.len().min(SHARDS_NAMED)].join(", ");
                if names.len() > SHARDS_NAMED {
                    listed += &format!(" and {} more", names.len() - SHARDS_NAMED);
                }
                write!(
                    f,
                    "{} holds shards of an earlier export already: remove {listed} or choose \
                     another directory",
                    p.display(),
                )
            }
        }
    }
}

impl std::error::Error for ExportError {}

/// A judgement of a game's last position: one ownership value a point, row by row
/// from the top left (as the engine's `Judgement::ownership`), +1 Black's, −1 White's.
pub type JudgeFn = Box<dyn FnMut(&Game) -> Vec<f32>>;

/// Who labels each game's final ownership: a judgement of the game's last position.
pub struct OwnershipJudge {
    /// The playouts a judgement takes, written in each shard's header.
    pub playouts: u32,
    /// The judgement.
    pub judge: JudgeFn,
}

impl fmt::Debug for OwnershipJudge {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "OwnershipJudge({} playouts)", self.playouts)
    }
}

/// The index in a judgement's ownership (row by row from the top left) of the point at
/// column `x`, row `y` from the bottom.
fn judgement_cell(side: usize, x: usize, y: usize) -> usize {
    (side - 1 - y) * side + x
}

/// An export in progress.
#[derive(Debug)]
pub struct Exporter {
    options: ExportOptions,
    encoder: PlaneEncoder,
    planes: Vec<u8>,
    training: Option<ShardWriter>,
    held_out: Option<ShardWriter>,
    tally: ExportTally,
    /// Who labels each game's ownership (none: every point 0).
    judge: Option<OwnershipJudge>,
}

impl Exporter {
    /// Starts an export into `options.out_dir`, which is made if missing and must not
    /// hold shards. Unfinished shards (`*.tgp.partial`) of an interrupted export are
    /// removed when they are all the directory holds of an export; beside complete
    /// shards they are named in the refusal too, and nothing is removed.
    pub fn new(options: ExportOptions) -> Result<Exporter, ExportError> {
        let dir = &options.out_dir;
        let dir_error = |e| ExportError::Directory(dir.clone(), e);
        std::fs::create_dir_all(dir).map_err(dir_error)?;
        let mut shards = Vec::new();
        let mut unfinished = Vec::new();
        for entry in std::fs::read_dir(dir).map_err(dir_error)? {
            let path = entry.map_err(dir_error)?.path();
            if path.extension().is_some_and(|e| e == "tgp") {
                shards.push(path);
            } else if path.extension().is_some_and(|e| e == PARTIAL)
                && path
                    .file_stem()
                    .is_some_and(|s| s.to_string_lossy().ends_with(".tgp"))
            {
                unfinished.push(path);
            }
        }
        if !shards.is_empty() {
            let mut names: Vec<String> = shards
                .iter()
                .chain(&unfinished)
                .map(|p| {
                    p.file_name()
                        .unwrap_or_default()
                        .to_string_lossy()
                        .into_owned()
                })
                .collect();
            names.sort();
            return Err(ExportError::HasShards(dir.clone(), names));
        }
        for path in unfinished {
            std::fs::remove_file(&path).map_err(|e| ExportError::Directory(path, e))?;
        }
        Ok(Exporter {
            judge: None,
            planes: vec![0; PLANE_COUNT * plane_bytes(options.side)],
            options,
            encoder: PlaneEncoder::new(),
            training: None,
            held_out: None,
            tally: ExportTally::default(),
        })
    }

    /// Labels each game's final ownership by `judge` (without one, every point is 0
    /// and the headers say 0 playouts).
    pub fn with_judge(mut self, judge: OwnershipJudge) -> Exporter {
        self.judge = Some(judge);
        self
    }

    /// Opens the shard `name`, written under its unfinished name until [`Self::close`].
    fn shard(&self, name: &str) -> io::Result<ShardWriter> {
        let path = self.options.out_dir.join(format!("{name}.{PARTIAL}"));
        let side = self.options.side as u32;
        ShardWriter::create(
            &path,
            side,
            PLANE_COUNT as u32,
            self.judge.as_ref().map_or(0, |j| j.playouts),
        )
    }

    /// Completes a shard: its header's count written, it takes its name.
    fn close(&mut self, w: ShardWriter) -> io::Result<()> {
        let unfinished = w.path().to_path_buf();
        let header = w.finish()?;
        let path = unfinished.with_extension("");
        std::fs::rename(&unfinished, &path)?;
        self.tally.shards.push((path, header.positions));
        Ok(())
    }

    /// Where the game's positions go, the training shard opened or rotated as needed:
    /// `Some(true)` the held-out shard, `Some(false)` a training shard, `None` nowhere
    /// (the game is skipped, and counted).
    fn place(&mut self, game: &SgfGame) -> io::Result<Option<bool>> {
        if game.game.size().get() != self.options.side {
            self.tally.other_size += 1;
            return Ok(None);
        }
        let month = match self.options.held_out {
            HeldOut::None => None,
            HeldOut::Month(month) => match &game.info.date {
                Some(date) => month.holds(date).then_some(month),
                None => {
                    self.tally.undated += 1;
                    return Ok(None);
                }
            },
        };
        if let Some(month) = month {
            self.tally.held_out_games += 1;
            if self.held_out.is_none() {
                self.held_out = Some(self.shard(&format!("held-out-{month}.tgp"))?);
            }
            return Ok(Some(true));
        }
        self.tally.training_games += 1;
        if let Some(full) = self
            .training
            .take_if(|w| w.positions() >= self.options.shard_positions)
        {
            self.close(full)?;
        }
        if self.training.is_none() {
            let name = format!("train-{:05}.tgp", self.tally.shards.len());
            self.training = Some(self.shard(&name)?);
        }
        Ok(Some(false))
    }

    /// Exports every position of `game` (or skips it, counted in the tally).
    pub fn add_game(&mut self, game: &SgfGame) -> io::Result<()> {
        let Some(held) = self.place(game)? else {
            return Ok(());
        };
        let label = self.game_label(game);
        let Exporter {
            options,
            encoder,
            planes,
            training,
            held_out,
            tally,
            ..
        } = self;
        let side = options.side;
        let writer = if held { held_out } else { training }
            .as_mut()
            .expect("placed games have a shard");
        let game_number = writer.start_game(&label);
        let before = writer.positions();
        let mut error = None;
        let whole = replay(&game.game, |board, mover, m, history, number| {
            if error.is_some() {
                return;
            }
            encoder.encode(board, mover, history, planes);
            let played = match m {
                Move::Play(p) => {
                    let (x, y) = board.size().coords(p);
                    y * side + x
                }
                Move::Pass => side * side,
            };
            let label = Label {
                played: played as u16,
                number: number.min(usize::from(u16::MAX)) as u16,
                mover: u8::from(mover == Color::White),
                phase: phase(number) as u8,
                game: game_number,
            };
            if let Err(e) = writer.push(planes, label) {
                error = Some(e);
            }
        });
        if let Some(e) = error {
            return Err(e);
        }
        let written = writer.positions() - before;
        if held {
            tally.held_out_positions += written;
        } else {
            tally.training_positions += written;
        }
        if !whole {
            tally.cut_short += 1;
        }
        Ok(())
    }

    /// The labels of `game`: its record's result (counted in the tally where unknown or
    /// not decided on the board), komi and scoring, and its final ownership.
    fn game_label(&mut self, game: &SgfGame) -> GameLabel {
        let outcome = Outcome::of_result(game.info.result.as_deref());
        match outcome.ending {
            Ending::Unknown => self.tally.without_result += 1,
            Ending::Time | Ending::Forfeit => self.tally.not_by_the_board += 1,
            Ending::Counted | Ending::Resignation | Ending::Draw => {}
        }
        let rules = game.game.rules();
        let side = game.game.size().get();
        let mut ownership = vec![0i8; side * side];
        if let Some(judge) = &mut self.judge {
            let judged = (judge.judge)(&game.game);
            for (i, v) in ownership.iter_mut().enumerate() {
                let (x, y) = (i % side, i / side);
                let o = judged
                    .get(judgement_cell(side, x, y))
                    .copied()
                    .unwrap_or(0.0);
                *v = (o.clamp(-1.0, 1.0) * 127.0).round() as i8;
            }
        }
        GameLabel {
            outcome,
            scoring: scoring_byte(rules.scoring),
            komi: rules.komi() as f32,
            ownership,
        }
    }

    /// Closes the shards and returns what was written.
    pub fn finish(mut self) -> io::Result<ExportTally> {
        if let Some(w) = self.training.take() {
            self.close(w)?;
        }
        if let Some(w) = self.held_out.take() {
            self.close(w)?;
        }
        Ok(self.tally)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shard::{Label, read_shard};
    use tengen_board::sgf::parse_sgf;

    #[test]
    fn months_are_read_and_matched_strictly() {
        let m = Month::parse("2011-03").unwrap();
        assert_eq!(m.to_string(), "2011-03");
        assert!(m.holds("2011-03-01") && m.holds("2011-03") && m.holds(" 2011-03-31,04-01"));
        assert!(!m.holds("2011-031") && !m.holds("2011-02-28") && !m.holds("2012-03-01"));
        for bad in [
            "2011-3", "2011-13", "2011-00", "11-03", "2011/03", "", "abcd-ef",
        ] {
            assert!(Month::parse(bad).is_err(), "{bad}");
        }
    }

    /// The options of an export of 5×5 games into `out_dir`.
    fn on_five(out_dir: PathBuf, held_out: HeldOut, shard_positions: u64) -> ExportOptions {
        ExportOptions {
            out_dir,
            side: 5,
            held_out,
            shard_positions,
        }
    }

    fn game(date: Option<&str>, moves: &str) -> SgfGame {
        let dt = date.map_or(String::new(), |d| format!("DT[{d}]"));
        parse_sgf(&format!("(;SZ[5]{dt}{moves})")).unwrap()
    }

    #[test]
    fn the_held_out_month_never_reaches_a_training_shard() {
        let tmp = tempfile::tempdir().unwrap();
        let options = on_five(
            tmp.path().join("shards"),
            HeldOut::Month(Month::parse("2011-03").unwrap()),
            3,
        );
        let mut e = Exporter::new(options.clone()).unwrap();
        e.add_game(&game(Some("2011-01-05"), ";B[cc];W[cd];B[bd];W[be]"))
            .unwrap();
        e.add_game(&game(Some("2011-03-02"), ";B[aa];W[ee]"))
            .unwrap();
        e.add_game(&game(None, ";B[cc]")).unwrap();
        e.add_game(&game(Some("2011-02-01"), ";B[bb];W[]")).unwrap();
        let t = e.finish().unwrap();
        assert_eq!((t.training_games, t.held_out_games, t.undated), (2, 1, 1));
        assert_eq!((t.training_positions, t.held_out_positions), (6, 2));
        let names: Vec<_> = t
            .shards
            .iter()
            .map(|(p, n)| (p.file_name().unwrap().to_string_lossy().into_owned(), *n))
            .collect();
        // The first training shard filled at 4 positions (one game is not split).
        assert_eq!(
            names,
            [
                ("train-00000.tgp".to_string(), 4),
                ("train-00001.tgp".to_string(), 2),
                ("held-out-2011-03.tgp".to_string(), 2)
            ]
        );
        let held = read_shard(&tmp.path().join("shards/held-out-2011-03.tgp")).unwrap();
        let labels = held.labels();
        // A1 is point 0, E5 point 24; White moves second.
        assert_eq!(
            labels,
            [
                Label {
                    played: 20,
                    number: 1,
                    mover: 0,
                    phase: 0,
                    game: 0
                },
                Label {
                    played: 4,
                    number: 2,
                    mover: 1,
                    phase: 0,
                    game: 0
                }
            ]
        );
        let second = read_shard(&tmp.path().join("shards/train-00001.tgp")).unwrap();
        assert_eq!(second.labels()[1].played, 25, "a pass");
        assert_eq!(second.labels()[1].game, 0, "the shard's first game");
        assert_eq!(second.games.len(), 1);
        // A second export into the same directory is refused.
        let again = Exporter::new(options).unwrap_err();
        assert!(again.to_string().contains("holds shards"), "{again}");
    }

    #[test]
    fn a_refusal_names_the_first_ten_shards_and_counts_the_rest() {
        let names: Vec<String> = (1..=25).map(|i| format!("train-{i:05}.tgp")).collect();
        let e = ExportError::HasShards(PathBuf::from("out"), names).to_string();
        assert!(
            e.contains("train-00001.tgp") && e.contains("train-00010.tgp"),
            "{e}"
        );
        assert!(!e.contains("train-00011.tgp"), "{e}");
        assert!(e.contains("train-00010.tgp and 15 more or choose"), "{e}");
        let few = ExportError::HasShards(PathBuf::from("out"), vec!["a.tgp".into()]).to_string();
        assert!(
            few.contains("remove a.tgp or choose") && !few.contains("more"),
            "{few}"
        );
    }

    fn names_in(dir: &std::path::Path) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    /// An export stopped part way (its exporter dropped, as when the process is
    /// killed) leaves only complete shards under their names; a new export into that
    /// directory names each file to remove, and once the complete shards are gone it
    /// clears the unfinished one itself.
    #[test]
    fn an_interrupted_export_leaves_only_complete_shards() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("shards");
        let options = on_five(dir.clone(), HeldOut::None, 2);
        let mut e = Exporter::new(options.clone()).unwrap();
        e.add_game(&game(None, ";B[cc];W[cd]")).unwrap();
        e.add_game(&game(None, ";B[aa]")).unwrap();
        assert_eq!(
            names_in(&dir),
            ["train-00000.tgp", "train-00001.tgp.partial"]
        );
        drop(e);
        let first = read_shard(&dir.join("train-00000.tgp")).unwrap();
        assert_eq!(first.header.positions, 2, "a named shard is complete");
        let refused = Exporter::new(options.clone()).unwrap_err().to_string();
        assert!(
            refused.contains("remove train-00000.tgp, train-00001.tgp.partial or"),
            "{refused}"
        );
        assert_eq!(names_in(&dir).len(), 2, "a refusal removes nothing");
        std::fs::remove_file(dir.join("train-00000.tgp")).unwrap();
        std::fs::write(dir.join("notes.txt"), "kept").unwrap();
        let e = Exporter::new(options).unwrap();
        assert_eq!(names_in(&dir), ["notes.txt"], "the leftover is cleared");
        let t = e.finish().unwrap();
        assert!(t.shards.is_empty());
    }

    /// Exports the fixture collection into `dir`; returns the shards' bytes by name.
    fn export_fixture(dir: &std::path::Path) -> Vec<(String, Vec<u8>)> {
        let file = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../tests/data/sgf/policy/selfplay19.sgf");
        let mut e = Exporter::new(ExportOptions {
            out_dir: dir.to_path_buf(),
            side: 19,
            held_out: HeldOut::Month(Month::parse("2011-03").unwrap()),
            shard_positions: 200,
        })
        .unwrap();
        let selection = crate::records::Selection {
            files: vec![file],
            ..Default::default()
        };
        let mut refused = 0;
        crate::records::for_each_record(&selection, |g| e.add_game(g), |_, _, _| refused += 1)
            .unwrap();
        let t = e.finish().unwrap();
        assert_eq!((refused, t.training_games, t.held_out_games), (1, 3, 1));
        t.shards
            .iter()
            .map(|(p, _)| {
                let name = p.file_name().unwrap().to_string_lossy().into_owned();
                (name, std::fs::read(p).unwrap())
            })
            .collect()
    }

    #[test]
    fn the_same_records_give_the_same_bytes() {
        let tmp = tempfile::tempdir().unwrap();
        let a = export_fixture(&tmp.path().join("a"));
        let b = export_fixture(&tmp.path().join("b"));
        let names: Vec<&str> = a.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(
            names,
            ["train-00000.tgp", "train-00001.tgp", "held-out-2011-03.tgp"]
        );
        assert!(a == b, "two exports of the same records differ");
    }

    #[test]
    fn without_a_held_out_month_every_game_trains() {
        let tmp = tempfile::tempdir().unwrap();
        let mut e = Exporter::new(on_five(tmp.path().to_path_buf(), HeldOut::None, 100)).unwrap();
        e.add_game(&game(Some("2011-03-02"), ";B[aa];W[ee]"))
            .unwrap();
        e.add_game(&game(None, ";B[cc]")).unwrap();
        e.add_game(&parse_sgf("(;SZ[9];B[cc])").unwrap()).unwrap();
        let t = e.finish().unwrap();
        assert_eq!(
            (
                t.training_games,
                t.held_out_games,
                t.training_positions,
                t.other_size
            ),
            (2, 0, 3, 1)
        );
        assert_eq!(t.shards.len(), 1);
    }

    /// Each game's entry holds its record's result, komi and scoring, a malformed
    /// result is exported without one and counted, and the positions name their game.
    #[test]
    fn every_game_carries_its_result_and_the_summary_counts_the_unreadable_ones() {
        let tmp = tempfile::tempdir().unwrap();
        let mut e = Exporter::new(on_five(tmp.path().to_path_buf(), HeldOut::None, 100)).unwrap();
        for (re, moves) in [
            ("RE[W+3.5]KM[6.5]RU[Korean]", ";B[cc];W[cd]"),
            ("RE[B+]", ";B[cc]"),
            ("RE[?]", ";B[bb]"),
            ("RE[B+Offline]", ";B[aa];W[ee];B[dd]"),
        ] {
            e.add_game(&parse_sgf(&format!("(;SZ[5]{re}{moves})")).unwrap())
                .unwrap();
        }
        let t = e.finish().unwrap();
        assert_eq!((t.without_result, t.not_by_the_board), (2, 1));
        let shard = read_shard(&t.shards[0].0).unwrap();
        let games: Vec<_> = shard.games.iter().map(|g| g.outcome).collect();
        assert_eq!(
            games,
            [
                Outcome::of_result(Some("W+3.5")),
                Outcome::UNKNOWN,
                Outcome::UNKNOWN,
                Outcome::of_result(Some("B+Offline"))
            ]
        );
        assert_eq!((shard.games[0].komi, shard.games[0].scoring), (6.5, 1));
        assert_eq!((shard.games[1].komi, shard.games[1].scoring), (7.5, 0));
        assert!(
            shard.games.iter().all(|g| g.ownership == [0; 25]),
            "not judged"
        );
        let numbers: Vec<u32> = shard.labels().iter().map(|l| l.game).collect();
        assert_eq!(numbers, [0, 0, 1, 2, 3, 3, 3]);
    }

    /// The ownership label is the judgement of the last position, turned from the
    /// judgement's order (row by row from the top left) into the planes' (row 0 at the
    /// bottom), and the headers name the judgement's playouts.
    #[test]
    fn the_final_ownership_is_the_judgement_in_the_planes_point_order() {
        let tmp = tempfile::tempdir().unwrap();
        let judged = std::rc::Rc::new(std::cell::Cell::new(0));
        let count = std::rc::Rc::clone(&judged);
        let mut e = Exporter::new(on_five(tmp.path().to_path_buf(), HeldOut::None, 100))
            .unwrap()
            .with_judge(OwnershipJudge {
                playouts: 64,
                // White owns the top two rows, Black the rest; the top left point is half
                // Black's, and the judgement sees the game's last position.
                judge: Box::new(move |game: &Game| {
                    count.set(count.get() + 1);
                    assert_eq!(game.move_count(), 2);
                    let mut own: Vec<f32> =
                        (0..25).map(|i| if i < 10 { -1.0 } else { 1.0 }).collect();
                    own[0] = 0.5;
                    own
                }),
            });
        e.add_game(&parse_sgf("(;SZ[5]RE[B+R];B[cc];W[dd])").unwrap())
            .unwrap();
        let t = e.finish().unwrap();
        assert_eq!(judged.get(), 1);
        let shard = read_shard(&t.shards[0].0).unwrap();
        assert_eq!(shard.header.ownership_playouts, 64);
        let own = &shard.games[0].ownership;
        for y in 0..5 {
            for x in 0..5 {
                let want = match (x, y) {
                    (0, 4) => 64,
                    (_, 3..) => -127,
                    _ => 127,
                };
                assert_eq!(own[y * 5 + x], want, "point ({x}, {y})");
            }
        }
    }
}
