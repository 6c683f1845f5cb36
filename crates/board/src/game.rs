//! A game: the board plus its history, the rules, superko, undo and handicap.
//!
//! [`Board`](crate::Board) enforces simple ko only; a [`Game`] enforces its rule set,
//! superko included. A failed [`Game::play`], [`Game::replay`], [`Game::set_up`] or
//! [`Game::place_handicap`] (and so a failed SGF load) changes nothing.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use crate::bitboard::Bitboard;
use crate::board::{Board, IllegalMove, MoveInfo};
use crate::color::Color;
use crate::handicap::{HandicapError, fixed_handicap};
use crate::point::{BoardSize, Move, Point};
use crate::rules::{KoRule, Rules, Scoring};
use crate::score::{self, Score};
use crate::zobrist::{BLACK_TO_MOVE, Hash};

/// Superko keys are Zobrist hashes, already uniformly random: the map uses them as they
/// are instead of hashing them again.
#[derive(Clone, Copy, Debug, Default)]
struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(b);
        }
    }

    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
}

/// Position keys and how often each occurred.
type KeyCounts = HashMap<Hash, u32, BuildHasherDefault<KeyHasher>>;

/// One played move and the state before it, so undo is exact.
#[derive(Clone, Debug)]
struct Played {
    color: Color,
    mv: Move,
    before: Board,
    to_move_before: Color,
    key: Hash,
}

/// A game of Go under a rule set: the position, whose turn it is, every move played
/// (undo restores the exact earlier state) and every position seen (superko).
///
/// Either colour may move at any time, as GTP allows; [`Game::to_move`] is the colour
/// after the last move (or White after handicap).
#[derive(Clone, Debug)]
pub struct Game {
    rules: Rules,
    /// Setup and handicap stones, before the first move.
    start: Board,
    start_to_move: Color,
    setup: Vec<(Color, Point)>,
    handicap: u32,
    board: Board,
    to_move: Color,
    played: Vec<Played>,
    /// How many times each superko key occurs in the history, the start included.
    seen: KeyCounts,
}

impl Game {
    /// A new game on an empty board, Black to move.
    pub fn new(size: BoardSize, rules: Rules) -> Game {
        let board = Board::new(size);
        let mut g = Game {
            rules,
            start: board.clone(),
            start_to_move: Color::Black,
            setup: Vec::new(),
            handicap: 0,
            board,
            to_move: Color::Black,
            played: Vec::new(),
            seen: KeyCounts::default(),
        };
        g.reset_seen();
        g
    }

    /// A new game whose start position is `board`'s stones as setup stones (SGF `AB`
    /// and `AW`), Black to move; `board`'s ko and prisoners are not carried over.
    pub fn from_setup(board: &Board, rules: Rules) -> Result<Game, IllegalMove> {
        let mut game = Game::new(board.size(), rules);
        for p in board.size().points() {
            if let Some(c) = board.color_at(p) {
                game.add_setup_stone(c, p)?;
            }
        }
        Ok(game)
    }

    /// The board size.
    pub fn size(&self) -> BoardSize {
        self.board.size()
    }

    /// The rules.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// Changes the rules (komi, ko rule, scoring) without touching the position.
    pub fn set_rules(&mut self, rules: Rules) {
        self.rules = rules;
        self.reset_seen_keep_history();
    }

    /// The current position.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The colour whose turn it is.
    pub fn to_move(&self) -> Color {
        self.to_move
    }

    /// Whose turn it was before the first move (Black, White after handicap, or as set
    /// by [`Game::set_to_move`]).
    pub fn start_to_move(&self) -> Color {
        self.start_to_move
    }

    /// Sets whose turn it is (SGF `PL`); only before the first move.
    pub fn set_to_move(&mut self, c: Color) {
        if self.played.is_empty() {
            self.to_move = c;
            self.start_to_move = c;
            self.reset_seen();
        }
    }

    /// The moves played so far, in order.
    pub fn moves(&self) -> impl ExactSizeIterator<Item = (Color, Move)> + '_ {
        self.played.iter().map(|p| (p.color, p.mv))
    }

    /// Number of moves played (passes included).
    pub fn move_count(&self) -> usize {
        self.played.len()
    }

    /// The last move played.
    pub fn last_move(&self) -> Option<(Color, Move)> {
        self.played.last().map(|p| (p.color, p.mv))
    }

    /// Setup stones (SGF `AB`/`AW`, free handicap), in the order placed.
    pub fn setup_stones(&self) -> &[(Color, Point)] {
        &self.setup
    }

    /// The number of handicap stones: those placed by [`Game::place_handicap`] or
    /// [`Game::place_fixed_handicap`] (GTP `fixed_handicap`, `place_free_handicap`,
    /// `set_free_handicap`; an SGF whose `HA` matches its `AB` stones, with no `AW`).
    /// Setup stones and moves are not handicap, even where they stand on star points.
    pub fn handicap(&self) -> u32 {
        self.handicap
    }

    /// The komi White's count receives under these rules, with the handicap
    /// compensation ([`Rules::effective_komi`]); what [`Game::score`] uses.
    pub fn effective_komi(&self) -> f64 {
        self.rules.effective_komi(self.handicap)
    }

    /// The komi an *area* count of this game is compared with, whatever the rules'
    /// counting: [`Game::effective_komi`] under area scoring; under territory scoring
    /// the komi plus one point a handicap stone, since an area count credits Black
    /// with its handicap stones and a territory count does not.
    /// [`Game::tromp_taylor_score`] compares with this (the engine's playouts under
    /// territory counting take each side's placed stones off its area instead, so
    /// that the last dame and the handicap stones count as a territory count does).
    pub fn area_komi(&self) -> f64 {
        match self.rules.scoring {
            Scoring::Area => self.effective_komi(),
            Scoring::Territory => self.rules.komi() + f64::from(self.handicap),
        }
    }

    /// The position before the first move.
    pub fn start_board(&self) -> &Board {
        &self.start
    }

    /// How many passes in a row end the move list.
    pub fn consecutive_passes(&self) -> usize {
        self.played
            .iter()
            .rev()
            .take_while(|p| p.mv == Move::Pass)
            .count()
    }

    /// Whether two passes in a row have ended the game.
    pub fn is_over(&self) -> bool {
        self.consecutive_passes() >= 2
    }

    /// The superko key of a position with `to_move` to play, under these rules.
    pub fn position_key(&self, hash: Hash, to_move: Color) -> Hash {
        match self.rules.ko {
            KoRule::Situational if to_move == Color::Black => hash ^ BLACK_TO_MOVE,
            _ => hash,
        }
    }

    /// Whether a position key occurred earlier in this game (always `false` under
    /// simple ko, which forbids no whole-board repetition).
    pub fn has_seen(&self, key: Hash) -> bool {
        self.rules.ko != KoRule::Simple && self.seen.contains_key(&key)
    }

    /// Whether `c` may play `m` now, under the full rules.
    pub fn is_legal(&self, c: Color, m: Move) -> bool {
        self.check(c, m).is_ok()
    }

    /// Why `c` may not play `m` now, or `Ok`.
    pub fn check(&self, c: Color, m: Move) -> Result<(), IllegalMove> {
        self.check_point(c, m, true)?;
        if m != Move::Pass && self.rules.ko != KoRule::Simple {
            let after = self.board.hash_after(c, m);
            if self.has_seen(self.position_key(after, c.opponent())) {
                return Err(IllegalMove::Superko);
            }
        }
        Ok(())
    }

    /// Whether the board can take the move: an empty point, no suicide the rules forbid
    /// and, when `ko`, no immediate ko recapture.
    fn check_point(&self, c: Color, m: Move, ko: bool) -> Result<(), IllegalMove> {
        let Move::Play(p) = m else { return Ok(()) };
        match self.board.check(c, p) {
            Ok(()) => {}
            Err(IllegalMove::Ko) if !ko => {}
            Err(IllegalMove::Suicide) if self.rules.suicide => {
                // Allowed only if it removes more than the stone itself: a lone stone's
                // suicide changes nothing and counts as a repetition.
                let alone = self
                    .size()
                    .neighbours(p)
                    .iter()
                    .all(|&n| self.board.color_at(n) != Some(c));
                if alone {
                    return Err(IllegalMove::Suicide);
                }
            }
            Err(e) => return Err(e),
        }
        Ok(())
    }

    /// Plays a move for `c` after checking it; on error nothing changes.
    pub fn play(&mut self, c: Color, m: Move) -> Result<MoveInfo, IllegalMove> {
        self.check(c, m)?;
        Ok(self.record(c, m, false))
    }

    /// Plays a move of a game record: only what the board cannot take is refused (an
    /// occupied point, suicide where the rules forbid it), not a ko recapture or a
    /// repetition, which the record's own rules may have allowed (a Japanese triple
    /// ko). Every position is remembered as after [`Game::play`], repeated ones
    /// counted twice, so later moves obey the superko rule against all of them and
    /// undo takes each back. On error nothing changes.
    pub fn replay(&mut self, c: Color, m: Move) -> Result<MoveInfo, IllegalMove> {
        self.check_point(c, m, false)?;
        let retakes_ko = matches!(m, Move::Play(p) if self.board.ko() == Some((p, c)));
        Ok(self.record(c, m, retakes_ko))
    }

    /// Plays a checked move and records it; `lift_ko` first lifts the board's ko ban
    /// (a recorded ko recapture), which the board's own moves never break.
    fn record(&mut self, c: Color, m: Move, lift_ko: bool) -> MoveInfo {
        let before = self.board.clone();
        if lift_ko {
            // A pass changes nothing on the board but the ko ban.
            self.board.play_unchecked(c, Move::Pass);
        }
        let info = self.board.play_unchecked(c, m);
        let key = self.position_key(self.board.hash(), c.opponent());
        *self.seen.entry(key).or_insert(0) += 1;
        self.played.push(Played {
            color: c,
            mv: m,
            before,
            to_move_before: self.to_move,
            key,
        });
        self.to_move = c.opponent();
        info
    }

    /// Takes back the last move; `None` if there is none. Setup and handicap stones
    /// are not moves and stay.
    pub fn undo(&mut self) -> Option<(Color, Move)> {
        let last = self.played.pop()?;
        if let Some(n) = self.seen.get_mut(&last.key) {
            *n -= 1;
            if *n == 0 {
                self.seen.remove(&last.key);
            }
        }
        self.board = last.before;
        self.to_move = last.to_move_before;
        Some((last.color, last.mv))
    }

    /// Puts a setup stone (SGF `AB`/`AW`) on an empty point before the first move.
    pub fn add_setup_stone(&mut self, c: Color, p: Point) -> Result<(), IllegalMove> {
        if !self.played.is_empty() {
            return Err(IllegalMove::Occupied);
        }
        self.board.place_setup(c, p)?;
        self.setup.push((c, p));
        self.start = self.board.clone();
        self.reset_seen();
        Ok(())
    }

    /// Changes the position outside the move sequence, at any time (SGF `AB`, `AW`, `AE`
    /// in the middle of a game): each point of `changes` becomes empty or takes a stone
    /// of that colour, and `to_move` moves next. The result is the new start: the moves
    /// before it are forgotten (undo stops here, superko starts from it) and the setup
    /// stones are its stones; the prisoners stay. The handicap count goes: the new start
    /// is a set-up position, not a handicap placement (an SGF record of it, with its
    /// stones in `AB` and `AW`, could not say otherwise, so keeping the count would
    /// change the score on a round trip). A position
    /// where a group has no liberty is refused with [`IllegalMove::Suicide`], and then
    /// nothing changes.
    pub fn set_up(
        &mut self,
        changes: &[(Point, Option<Color>)],
        to_move: Color,
    ) -> Result<(), IllegalMove> {
        let mut board = self.board.clone();
        // A pass lifts the ko ban, which belongs to the moves.
        board.play_unchecked(to_move, Move::Pass);
        for &(p, c) in changes {
            if let Some(old) = board.color_at(p).filter(|&old| Some(old) != c) {
                // Its whole group goes, and the other stones of it come back.
                let group: Vec<Point> = board.group_stones(p).collect();
                board.remove_dead_group(p);
                for q in group.into_iter().filter(|&q| q != p) {
                    board.place_setup(old, q)?;
                }
            }
        }
        for &(p, c) in changes {
            if let Some(c) = c.filter(|&c| board.color_at(p) != Some(c)) {
                board.place_setup(c, p)?;
            }
        }
        self.setup = [Color::Black, Color::White]
            .into_iter()
            .flat_map(|c| board.stones(c).iter().map(move |p| (c, p)))
            .collect();
        self.start = board.clone();
        self.board = board;
        self.to_move = to_move;
        self.start_to_move = to_move;
        self.handicap = 0;
        self.reset_seen();
        Ok(())
    }

    /// Places handicap stones for Black on an empty board with no moves; White moves
    /// next. On error nothing changes.
    pub fn place_handicap(&mut self, points: &[Point]) -> Result<(), HandicapError> {
        if !self.played.is_empty() || !self.setup.is_empty() {
            return Err(HandicapError::BoardNotEmpty);
        }
        let unique: Bitboard = points.iter().copied().collect();
        if points.len() < 2 || unique.count() as usize != points.len() {
            return Err(HandicapError::BadList);
        }
        if points.len() >= self.size().area() {
            return Err(HandicapError::BadList);
        }
        let mut board = self.board.clone();
        for &p in points {
            board
                .place_setup(Color::Black, p)
                .map_err(|_| HandicapError::BadList)?;
        }
        self.board = board;
        self.setup = points.iter().map(|&p| (Color::Black, p)).collect();
        self.handicap = points.len() as u32;
        self.start = self.board.clone();
        self.to_move = Color::White;
        self.start_to_move = Color::White;
        self.reset_seen();
        Ok(())
    }

    /// Places GTP's fixed handicap and returns the points.
    pub fn place_fixed_handicap(&mut self, count: u32) -> Result<Vec<Point>, HandicapError> {
        if !self.played.is_empty() || !self.setup.is_empty() {
            return Err(HandicapError::BoardNotEmpty);
        }
        let points = fixed_handicap(self.size(), count)?;
        self.place_handicap(&points)?;
        Ok(points)
    }

    /// The score with the given dead stones (and, for territory scoring, the stones in
    /// seki, whose eyes count for nobody), by the rules' counting method, White's
    /// including the [`Game::effective_komi`].
    pub fn score(&self, dead: &Bitboard, seki: &Bitboard) -> Score {
        let komi = self.effective_komi();
        match self.rules.scoring {
            Scoring::Area => score::area(&self.board, dead, komi),
            Scoring::Territory => score::territory(&self.board, dead, seki, komi),
        }
    }

    /// Tromp-Taylor score: every stone on the board counts as alive. It is an area
    /// count, compared with [`Game::area_komi`].
    pub fn tromp_taylor_score(&self) -> Score {
        score::area(&self.board, &Bitboard::EMPTY, self.area_komi())
    }

    /// Every point `c` may legally play now under the full rules.
    pub fn legal_points(&self, c: Color) -> Vec<Point> {
        self.size()
            .points()
            .filter(|&p| self.is_legal(c, Move::Play(p)))
            .collect()
    }

    fn reset_seen(&mut self) {
        self.played.clear();
        self.reset_seen_keep_history();
    }

    fn reset_seen_keep_history(&mut self) {
        self.seen.clear();
        let start = self.position_key(self.start.hash(), self.start_to_move);
        self.seen.insert(start, 1);
        let keys: Vec<Hash> = self
            .played
            .iter()
            .map(|p| self.position_key(hash_after_record(p), p.color.opponent()))
            .collect();
        for (p, k) in self.played.iter_mut().zip(&keys) {
            p.key = *k;
        }
        for k in keys {
            *self.seen.entry(k).or_insert(0) += 1;
        }
    }
}

/// The hash of the position a recorded move led to.
fn hash_after_record(p: &Played) -> Hash {
    let mut b = p.before.clone();
    // A replayed record may have retaken a ko at once (see `Game::replay`); a pass
    // lifts the ban and changes nothing else.
    b.play_unchecked(p.color, Move::Pass);
    b.play_unchecked(p.color, p.mv);
    b.hash()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_game_from_setup_starts_from_the_stones_with_black_to_move() {
        let board = crate::parse_diagram(". X .\nX O X\n. . .").unwrap();
        let g = Game::from_setup(&board, Rules::chinese()).unwrap();
        assert_eq!(g.board().stones(Color::Black), board.stones(Color::Black));
        assert_eq!(g.board().stones(Color::White), board.stones(Color::White));
        assert_eq!((g.move_count(), g.to_move()), (0, Color::Black));
        assert_eq!(g.setup_stones().len(), 4);
    }

    #[test]
    fn a_replayed_ko_recapture_survives_new_rules_and_undo() {
        // White takes at C3 (move 8), Black retakes at D3, White retakes at once.
        let size = BoardSize::new(5).unwrap();
        let mut g = Game::new(size, Rules::chinese());
        let moves = ["B3", "C3", "C4", "D4", "C2", "D2", "A1", "E3", "D3", "C3"];
        for (i, v) in moves.into_iter().enumerate() {
            let c = if i % 2 == 0 {
                Color::Black
            } else {
                Color::White
            };
            g.replay(c, size.parse_move(v).unwrap()).unwrap();
        }
        assert_eq!(g.move_count(), 10);
        let end = g.board().clone();
        g.set_rules(Rules::japanese());
        assert_eq!(g.board(), &end);
        g.undo();
        assert_eq!(
            g.board().ko().map(|(p, _)| size.vertex(p).to_string()),
            Some("C3".into())
        );
        assert_eq!(
            g.play(Color::White, size.parse_move("C3").unwrap()),
            Err(IllegalMove::Ko)
        );
    }

    #[test]
    fn undo_restores_and_superko_refuses() {
        let size = BoardSize::new(5).unwrap();
        let mut g = Game::new(size, Rules::chinese());
        let p = |s: &str| Move::Play(size.parse_point(s).unwrap());
        g.play(Color::Black, p("C3")).unwrap();
        let after_one = g.board().clone();
        g.play(Color::White, p("D3")).unwrap();
        assert_eq!(g.undo(), Some((Color::White, p("D3"))));
        assert_eq!(g.board(), &after_one);
        assert_eq!(g.to_move(), Color::White);
        assert_eq!(g.play(Color::White, p("C3")), Err(IllegalMove::Occupied));
        assert_eq!(g.move_count(), 1);
        g.undo();
        assert_eq!(g.undo(), None);
    }

    #[test]
    fn a_set_up_position_is_no_handicap_game_and_its_record_scores_the_same() {
        let size = BoardSize::new(9).unwrap();
        let mut g = Game::new(size, Rules::chinese());
        g.place_fixed_handicap(2).unwrap();
        assert_eq!(g.handicap(), 2);
        g.play(Color::White, size.parse_move("E5").unwrap())
            .unwrap();
        let e5 = size.parse_point("E5").unwrap();
        g.set_up(&[(e5, None)], Color::White).unwrap();
        assert_eq!(
            g.handicap(),
            0,
            "an edited position is set up, not handicap"
        );
        let text = crate::sgf::write_sgf(&g, &crate::sgf::GameInfo::default());
        let back = crate::sgf::parse_sgf(&text).unwrap().game;
        assert_eq!(back.board(), g.board());
        assert_eq!(back.effective_komi(), g.effective_komi());
    }
}
