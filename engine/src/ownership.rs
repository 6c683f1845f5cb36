//! Dead, alive and seki groups: the end-of-game judgement ([`Judgement`], from
//! `Engine::judge`) behind `final_status_list`, `final_score`, the pass decision and
//! the clean-up.
//!
//! What the static analysis (`tengen_board::life`) proves is never overruled: a seki
//! or local death whose walls are not pass-alive is applied while the judgement keeps
//! its walls alive, and a death won by a ko without threats is applied always under
//! territory scoring (dead by rule) and under area scoring only when no group
//! elsewhere is in seki. A local death proves the chain dead, not its capturers
//! alive: they keep the playouts' status, except that one the playouts call seki is
//! alive.
//!
//! The rest comes from the ownership of plain playouts, without a tree
//! ([`playout_ownership`]): a group captured in more than half of them is dead. They
//! refuse random self-atari of two or more stones, which would break a seki, except a
//! nakade throw-in that kills (`tactics::nakade_kills`), so a false seki is not
//! counted as one and a seki of one eye each is not broken. The pass decision counts
//! with every doubt resolved against the passer ([`Judgement::for_passing`]).

use std::time::Instant;

use tengen_board::life::{LocalDeath, Seki};
use tengen_board::{
    Bitboard, Board, BoardSize, ByColor, Color, Game, Point, Score, Scoring, StaticLife, regions,
};

use crate::playout::{Amaf, Komi, Policy, Rng};

/// The status of every stone at the end of a game.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Status {
    /// Stones that would be captured.
    pub dead: Bitboard,
    /// Stones that live.
    pub alive: Bitboard,
    /// Living stones in seki (their eyes count for nobody under territory rules).
    pub seki: Bitboard,
}

/// A stone whose point its own colour owns in fewer than this share of playouts is dead:
/// captured more often than not. (At 0.3, a lone invader in a 12-point territory
/// that survived a third of the random playouts was kept alive; the life fixtures in
/// `tests/data/life/dead-stones.txt` fail that way.)
const DEAD_BELOW: f32 = 0.5;
/// An empty point that ends as nobody's in at least this share of playouts is a shared
/// liberty (seki) rather than a dame that one side fills. (Dame end up filled in nearly
/// every playout; the shared liberty of a seki of one eye each stays empty in 60-95%,
/// the rest being playouts where a surrounding group without two eyes dies.)
const SEKI_NEUTRAL: f32 = 0.5;
/// A region only one colour borders counts whole for that colour in
/// [`Judgement::estimated_score`] when every point's ownership for that colour is at
/// least this (owned in three playouts of four).
const SETTLED: f64 = 0.5;

/// A point's index in an ownership vector: row by row from the top left.
fn cell(size: BoardSize, p: Point) -> usize {
    let (x, y) = size.coords(p);
    (size.get() - 1 - y) * size.get() + x
}

/// Every group on the board once, in board order: its colour and its stones.
fn groups(board: &Board) -> Vec<(Color, Vec<Point>)> {
    let mut seen = Bitboard::EMPTY;
    let mut out = Vec::new();
    for p in board.size().points() {
        let Some(c) = board.color_at(p) else { continue };
        if seen.contains(p) {
            continue;
        }
        let stones: Vec<Point> = board.group_stones(p).collect();
        for &s in &stones {
            seen.insert(s);
        }
        out.push((c, stones));
    }
    out
}

/// The fewest playouts a deadline leaves [`playout_ownership`]: enough for a rough
/// verdict, few enough to fit the end of a move's time.
pub const MIN_SETTLE_PLAYOUTS: u32 = 16;

/// The playouts that settle a position for [`playout_ownership`].
#[derive(Clone, Copy, Debug)]
pub struct Settling<'a> {
    /// Where the playouts start.
    pub board: &'a Board,
    /// Who plays first.
    pub to_move: Color,
    /// The move that led to `board`, if a stone was played.
    pub last: Option<Point>,
    /// What the playouts' area counts are compared with.
    pub komi: Komi,
    /// How many playouts.
    pub n: u32,
    /// When to stop before `n` (never before [`MIN_SETTLE_PLAYOUTS`]).
    pub deadline: Option<Instant>,
}

/// Ownership and neutral shares (as `status_from_ownership` takes them, for `color`)
/// from `settling.n` playouts of `policy` straight from `settling.board`; fewer when
/// `settling.deadline` passes first, though never fewer than [`MIN_SETTLE_PLAYOUTS`].
///
/// Playouts alone, without a tree, are what settles the end of a game: the policy
/// never fills its own eyes nor puts a group of two or more stones in atari at
/// random (but a nakade throw-in that kills, `tactics::nakade_kills`, when its
/// `HeavyParams::nakade` is on), so a seki stays a seki, while a search would also
/// explore the losing moves that break it.
pub fn playout_ownership(
    policy: &Policy,
    settling: &Settling<'_>,
    rng: &mut Rng,
    color: Color,
) -> (Vec<f32>, Vec<f32>) {
    let Settling {
        board,
        to_move,
        last,
        komi,
        n,
        deadline,
    } = *settling;
    let size = board.size();
    let mut black = vec![0u32; size.area()];
    let mut white = vec![0u32; size.area()];
    let mut scratch = board.clone();
    let mut amaf = Amaf::default();
    let index = |p: Point| cell(size, p);
    let mut done = 0;
    while done < n {
        let late = deadline.is_some_and(|d| Instant::now() >= d);
        if late && done >= MIN_SETTLE_PLAYOUTS {
            break;
        }
        done += 1;
        scratch.copy_from(board);
        amaf.clear();
        let out = policy.run(&mut scratch, to_move, last, komi, rng, &mut amaf, None);
        for p in out.black_area.iter() {
            black[index(p)] += 1;
        }
        for p in out.white_area.iter() {
            white[index(p)] += 1;
        }
    }
    let total = done.max(1) as f32;
    let sign = if color == Color::Black { 1.0 } else { -1.0 };
    let ownership = (0..size.area())
        .map(|i| sign * (black[i] as f32 - white[i] as f32) / total)
        .collect();
    let neutral = (0..size.area())
        .map(|i| (done - black[i] - white[i]) as f32 / total)
        .collect();
    (ownership, neutral)
}

/// Classifies every group: `ownership` is row by row from the top left, +1 owned by
/// `color`, and `neutral` the share of playouts each point ended as nobody's (as in
/// [`crate::Analysis`]); an empty `ownership` marks all alive.
///
/// A group is dead when its own colour keeps its points in fewer than half of the
/// playouts. Living groups are in seki when they touch an empty point that stays
/// nobody's in most playouts and that a living group of the other colour touches too
/// (ordinary dame get filled in playouts, seki liberties stay empty).
pub fn status_from_ownership(
    board: &Board,
    ownership: &[f32],
    neutral: &[f32],
    color: Color,
) -> Status {
    let size = board.size();
    let mut st = Status::default();
    // Ownership for Black at a point.
    let black_own = |p: Point| -> f32 {
        if ownership.len() != size.area() {
            return 0.0;
        }
        let v = ownership[cell(size, p)];
        if color == Color::Black { v } else { -v }
    };
    for (c, stones) in groups(board) {
        let sign = if c == Color::Black { 1.0 } else { -1.0 };
        let own: f32 =
            stones.iter().map(|&s| sign * black_own(s)).sum::<f32>() / stones.len() as f32;
        // Ownership v in [-1, 1] maps to a share (v + 1) / 2 of playouts owned.
        let share = (own + 1.0) / 2.0;
        let dead = !ownership.is_empty() && share < DEAD_BELOW;
        for &s in &stones {
            if dead {
                st.dead.insert(s);
            } else {
                st.alive.insert(s);
            }
        }
    }
    // Seki: living groups with a neutral liberty that a living opponent group shares.
    if neutral.len() == size.area() {
        for p in size.points() {
            if !board.is_empty_point(p) || neutral[cell(size, p)] < SEKI_NEUTRAL {
                continue;
            }
            let mut touches = [false; 2];
            for q in size.neighbours(p) {
                if let Some(c) = board.color_at(q) {
                    if st.alive.contains(q) {
                        touches[c.index()] = true;
                    }
                }
            }
            if touches[0] && touches[1] {
                for q in size.neighbours(p) {
                    if board.color_at(q).is_some() && st.alive.contains(q) {
                        for s in board.group_stones(q) {
                            st.seki.insert(s);
                        }
                    }
                }
            }
        }
    }
    st
}

/// The end-of-game judgement of a position: the status of every stone and the
/// ownership of every point, from one source, so that `final_status_list`,
/// `final_score` and the ownership displays cannot contradict each other.
///
/// What the static analysis ([`StaticLife`]: pass-alive chains, their territory and
/// its dead stones) proves is never overruled by playouts;
/// the playouts decide the rest.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Judgement {
    /// Dead, alive and seki stones.
    pub status: Status,
    /// Ownership per point, row by row from the top left, +1 Black's, -1 White's. A
    /// stone's value is its group's: never below 0 for its own colour when the group
    /// lives, never above when it is dead.
    pub ownership: Vec<f32>,
    /// What the position proves statically.
    pub life: StaticLife,
}

/// The judgement of `board` from settling playouts (`ownership` and `neutral` as
/// [`status_from_ownership`] takes them, for `color`) and its static analysis `life`
/// (`StaticLife::of_game` of the game, which knows its rules and history).
pub fn judge(
    board: &Board,
    life: StaticLife,
    ownership: &[f32],
    neutral: &[f32],
    color: Color,
) -> Judgement {
    let mut status = status_from_ownership(board, ownership, neutral, color);
    apply_static(&mut status, &life);
    let size = board.size();
    let index = |p: Point| cell(size, p);
    let sign = if color == Color::Black { 1.0 } else { -1.0 };
    let mut black: Vec<f32> = if ownership.len() == size.area() {
        ownership
            .iter()
            .map(|v| (v * sign).clamp(-1.0, 1.0))
            .collect()
    } else {
        vec![0.0; size.area()]
    };
    // Stones: the group's mean, on the side of its status.
    for (c, stones) in groups(board) {
        let own = if c == Color::Black { 1.0 } else { -1.0 };
        let mean = stones.iter().map(|&s| own * black[index(s)]).sum::<f32>() / stones.len() as f32;
        let value = if status.dead.contains(stones[0]) {
            mean.min(0.0)
        } else {
            mean.max(0.0)
        };
        for s in stones {
            black[index(s)] = own * value;
        }
    }
    // What is proven: pass-alive stones and safe territory are their colour's, dead
    // stones the opponent's; the stones of a seki that holds are their colour's and
    // the liberties they share nobody's.
    for c in Color::ALL {
        let v = if c == Color::Black { 1.0 } else { -1.0 };
        for p in life.pass_alive[c].or(&life.territory[c]).iter() {
            black[index(p)] = v;
        }
    }
    for s in applied_seki(&status, &life) {
        for c in Color::ALL {
            let v = if c == Color::Black { 1.0 } else { -1.0 };
            for p in s.stones.and(board.stones(c)).iter() {
                black[index(p)] = v;
            }
        }
        for p in s.shared.iter() {
            black[index(p)] = 0.0;
        }
    }
    // A chain the local search proves dead: its stones are the taker's (the rest of
    // the area keeps the playouts' ownership, as the takers keep their status).
    for d in applied_deaths(&status, &life) {
        let Some(first) = d.stones.first() else {
            continue;
        };
        let v = if board.color_at(first) == Some(Color::Black) {
            -1.0
        } else {
            1.0
        };
        for p in d.stones.iter() {
            black[index(p)] = v;
        }
    }
    Judgement {
        status,
        ownership: black,
        life,
    }
}

/// Below this share of the settling playouts, an opponent group counts as dead when
/// deciding whether passing wins: only the clearly dead (see [`Judgement::for_passing`]).
const THEIRS_DEAD_BELOW: f32 = 0.3;
/// Below this share, one of our own groups counts as dead when deciding whether
/// passing wins: any real doubt.
const OURS_DEAD_BELOW: f32 = 0.7;

impl Judgement {
    /// The score this judgement expects of a game not yet finished, counted as
    /// `game`'s rules count, dead stones removed. A region of empty points and dead
    /// stones that only one colour's living stones border, and whose every point the
    /// judgement gives that colour (ownership at least `SETTLED`, 0.5), counts whole, as
    /// in the rules' count; every other point (open space, contested ground, the
    /// points of a region the judgement gives away) counts by its ownership, a point
    /// Black owns in three playouts of four counting half a point for Black. Each
    /// side's points are rounded to whole points. Living stones count under area
    /// scoring; under territory scoring the prisoners and dead stones do, and regions
    /// next to a seki count for nobody.
    ///
    /// The rules' count ([`Game::score`]) is for a finished game: during one it
    /// gives a lone stone the whole board. This is the estimate the settling
    /// playouts make, as the search's do.
    pub fn estimated_score(&self, game: &Game) -> Score {
        let board = game.board();
        let size = board.size();
        let komi = game.effective_komi();
        let (dead, seki) = (&self.status.dead, &self.status.seki);
        if self.ownership.len() != size.area() {
            return game.score(dead, seki);
        }
        let territory = game.rules().scoring == Scoring::Territory;
        let black = |p: Point| f64::from(self.ownership[cell(size, p)]);
        let alive = ByColor::new_with(|c| board.stones(c).and_not(dead));
        let mut points = ByColor::<f64>::default();
        for region in regions(board, dead) {
            if territory && !region.border.and(seki).is_empty() {
                continue;
            }
            let settled = region.sole_border(&alive).filter(|&c| {
                let sign = if c == Color::Black { 1.0 } else { -1.0 };
                region.points.iter().all(|p| sign * black(p) >= SETTLED)
            });
            match settled {
                Some(c) => points[c] += f64::from(region.points.count()),
                None => {
                    for p in region.points.iter() {
                        points[Color::Black] += black(p).max(0.0);
                        points[Color::White] += (-black(p)).max(0.0);
                    }
                }
            }
        }
        let points = ByColor::new_with(|c| {
            let extra = if territory {
                board.prisoners()[c] + board.stones(c.opponent()).and(dead).count()
            } else {
                alive[c].count()
            };
            points[c].round() + f64::from(extra)
        });
        Score {
            black: points[Color::Black],
            white: points[Color::White] + komi,
        }
    }

    /// The chains the local search proves dead that the judgement applies (they are
    /// in `status.dead`): see [`Judgement::holds`].
    pub fn proven_deaths(&self) -> Vec<&LocalDeath> {
        applied_deaths(&self.status, &self.life)
    }

    /// Whether a local death (this judgement's, or one proven on an earlier board of
    /// the game) holds under this judgement: its walls live (or are pass-alive), and
    /// a death that needs a ko won without threats, under area scoring, has no seki
    /// outside its area (a ko threat the attacker could not fill away).
    pub fn holds(&self, death: &LocalDeath) -> bool {
        death_holds(&self.status, self.life.area_scoring, death)
    }

    /// The status `color` should assume before passing under area scoring: the
    /// judgement with every doubt resolved against `color`. Opponent groups are dead
    /// only when captured in most settling playouts (70%), its own groups dead as soon
    /// as they are captured in 30%; what the static analysis proves and the groups
    /// judged in seki (whose shared liberty some playouts fill) keep their status.
    /// Passing on the plain judgement loses the games where a living opponent group
    /// was judged dead by a narrow margin (two of the 13x13 losses to GNU Go in
    /// STRENGTH.md). Under territory scoring every move played on inside one's own
    /// area costs a point, so the plain judgement stands.
    pub fn for_passing(&self, board: &Board, color: Color, scoring: Scoring) -> Status {
        let size = board.size();
        let mut st = self.status.clone();
        if self.ownership.len() != size.area() || scoring == Scoring::Territory {
            return st;
        }
        for (c, stones) in groups(board) {
            let p = stones[0];
            if self.life.settles(p) || self.life.dead.contains(p) || self.status.seki.contains(p) {
                continue;
            }
            // A stone's ownership in the judgement is its group's.
            let black = self.ownership[cell(size, p)];
            let own = if c == Color::Black { black } else { -black };
            let share = (own + 1.0) / 2.0;
            let below = if c == color {
                OURS_DEAD_BELOW
            } else {
                THEIRS_DEAD_BELOW
            };
            let dead = share < below;
            for s in stones {
                if dead {
                    st.dead.insert(s);
                    st.alive.remove(s);
                    st.seki.remove(s);
                } else {
                    st.dead.remove(s);
                    st.alive.insert(s);
                }
            }
        }
        st
    }
}

/// Makes a status from playouts agree with what the static analysis proves:
/// pass-alive stones live (and are in no seki), stones in pass-alive territory are
/// dead, and the stones of a seki the local search proves are in seki: always when
/// it is proven outright, and when the status keeps every wall around it alive
/// otherwise (the proof assumes the walls are never captured). A seki's stones are
/// the ones the status lists in seki inside its area; the playouts' other seki
/// stones there are alive.
pub fn apply_static(status: &mut Status, life: &StaticLife) {
    let alive = life.pass_alive.black.or(&life.pass_alive.white);
    status.dead = status.dead.and_not(&alive).or(&life.dead);
    status.alive = status.alive.and_not(&life.dead).or(&alive);
    status.seki = status.seki.and_not(&alive).and_not(&life.dead);
    for s in applied_seki(status, life) {
        status.dead = status.dead.and_not(&s.stones);
        status.alive = status.alive.or(&s.stones);
        status.seki = status.seki.or(&s.stones);
    }
    // The search proves that the chain is captured, not that its capturers live
    // afterwards: a capturer the playouts call dead stays dead; one they call seki
    // (with the chain now known dead) is alive.
    for d in applied_deaths(status, life) {
        let seki_takers = status.seki.and(&d.takers);
        status.dead = status.dead.or(&d.stones);
        status.alive = status.alive.and_not(&d.stones).or(&seki_takers);
        status.seki = status.seki.and_not(&d.stones).and_not(&seki_takers);
    }
}

/// The chains of `life` proven dead by the local search that hold under `status`
/// (see [`death_holds`]).
fn applied_deaths<'a>(status: &Status, life: &'a StaticLife) -> Vec<&'a LocalDeath> {
    life.local_dead
        .iter()
        .filter(|d| death_holds(status, life.area_scoring, d))
        .collect()
}

/// Whether a local death holds under `status`: proven outright, or with every wall
/// alive in it. A death that needs a ko won without threats holds under territory
/// scoring (the confirmation of life and death allows none); under area scoring
/// (`area_scoring`) the attacker can first remove the defender's threats at no
/// cost, except those it cannot fill away: it holds only when no group outside its
/// area is in seki.
fn death_holds(status: &Status, area_scoring: bool, d: &LocalDeath) -> bool {
    (d.proven || d.walls.and(&status.dead).is_empty())
        && (!(d.ko && area_scoring) || status.seki.and_not(&d.area()).is_empty())
}

/// The sekis of `life` that hold under `status`: proven outright, or with every wall
/// alive in it.
fn applied_seki<'a>(status: &Status, life: &'a StaticLife) -> Vec<&'a Seki> {
    life.seki
        .iter()
        .filter(|s| s.proven || s.walls.and(&status.dead).is_empty())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use tengen_board::parse_diagram;

    /// A black stone on C3 and a white one on G7 in open space; nothing is proven.
    const OPEN: &str = ". . . . . . . . .
                        . . . . . . . . .
                        . . . . . . O . .
                        . . . . . . . . .
                        . . . . . . . . .
                        . . . . . . . . .
                        . . X . . . . . .
                        . . . . . . . . .
                        . . . . . . . . .";

    /// Ownership for Black, rows from the top: `black` on C3, `white` on G7 (as
    /// Black's share), 0 elsewhere.
    fn ownership(board: &Board, c3: f32, g7: f32) -> Vec<f32> {
        let size = board.size();
        let mut v = vec![0.0; size.area()];
        for (vertex, value) in [("C3", c3), ("G7", g7)] {
            v[cell(size, size.parse_point(vertex).unwrap())] = value;
        }
        v
    }

    /// The judgement of [`OPEN`] from these ownerships for Black, with C3 and G7.
    fn judged(c3: f32, g7: f32) -> (Board, Point, Point, Judgement) {
        let board = parse_diagram(OPEN).unwrap();
        let s = board.size();
        let neutral = vec![0.0; s.area()];
        let life = StaticLife::of(&board);
        let j = judge(
            &board,
            life,
            &ownership(&board, c3, g7),
            &neutral,
            Color::Black,
        );
        let (c3, g7) = (s.parse_point("C3").unwrap(), s.parse_point("G7").unwrap());
        (board, c3, g7, j)
    }

    #[test]
    fn the_judgement_calls_dead_what_is_captured_more_often_than_not() {
        // C3 kept in 60% of playouts (ownership +0.2), G7 kept in 40% (+0.2 for Black).
        let (board, c3, g7, j) = judged(0.2, 0.2);
        let s = board.size();
        assert!(j.status.alive.contains(c3));
        assert!(j.status.dead.contains(g7));
        // Ownership and status agree: a dead stone is its opponent's.
        assert!(j.ownership[cell(s, g7)] > 0.0);
    }

    #[test]
    fn passing_resolves_every_doubt_against_the_passer() {
        let (board, c3, g7, j) = judged(0.2, 0.2);
        // Black deciding to pass: its 60% stone may die, White's 40% stone may live.
        let st = j.for_passing(&board, Color::Black, Scoring::Area);
        assert!(st.dead.contains(c3) && !st.alive.contains(c3));
        assert!(st.alive.contains(g7) && !st.dead.contains(g7));
        // White deciding to pass: C3 (60% Black's) lives, G7 (40% its own) is dead.
        let st = j.for_passing(&board, Color::White, Scoring::Area);
        assert!(st.alive.contains(c3));
        assert!(st.dead.contains(g7));
        // Clear cases stay: 90% and 10%.
        let (board, c3, g7, j) = judged(0.8, 0.8);
        let st = j.for_passing(&board, Color::Black, Scoring::Area);
        assert!(st.alive.contains(c3) && st.dead.contains(g7));
        // Under territory scoring playing on costs points: the plain judgement.
        let (board, c3, g7, j) = judged(0.2, 0.2);
        let st = j.for_passing(&board, Color::Black, Scoring::Territory);
        assert!(st.alive.contains(c3) && st.dead.contains(g7));
    }
}
