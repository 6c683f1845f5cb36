//! One lost game diagnosed: its positions every N moves evaluated from the loser's
//! side, the first below the threshold, the largest drop, and the drop's kind.

use serde::Serialize;
use tengen_board::{BoardSize, Color, Point};

use crate::error::DiagnoseError;
use crate::eval::{Evaluator, Ownership};
use crate::groups::{Replay, died};
use crate::kind::{Kind, KindRules, classify};
use crate::phase::Phase;
use crate::record::MatchGame;

/// How a diagnosis is made.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Settings {
    /// Moves between evaluated positions; `None` for the board's default
    /// ([`default_every`]).
    pub every: Option<usize>,
    /// A win rate below this is a lost position, in [0, 1].
    pub threshold: f64,
    /// The thresholds of the kinds' rules.
    pub rules: KindRules,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            every: None,
            threshold: 0.35,
            rules: KindRules::default(),
        }
    }
}

/// The default moves between evaluated positions: 25 on boards larger than 15×15,
/// 20 on smaller ones (and 10 below 11×11).
pub fn default_every(size: BoardSize) -> usize {
    match size.get() {
        0..=10 => 10,
        11..=15 => 20,
        _ => 25,
    }
}

/// The positions evaluated in a game of `moves` moves: every `every` moves, and the
/// last position.
pub fn positions(moves: usize, every: usize) -> Vec<usize> {
    let every = every.max(1);
    let mut out: Vec<usize> = (1..)
        .map(|k| k * every)
        .take_while(|&p| p < moves)
        .collect();
    out.push(moves);
    out
}

/// One evaluated position.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PositionRow {
    /// Moves played.
    pub moves: usize,
    /// The phase of the game.
    pub phase: Phase,
    /// Tengen's win rate for the loser.
    pub tengen: f64,
    /// Tengen's score lead for the loser, in points.
    pub lead: Option<f64>,
    /// The referee's win rate for the loser, when a referee evaluated.
    pub referee: Option<f64>,
}

/// The largest fall in one evaluator's win rate between two evaluated positions.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Drop {
    /// Moves played at the position before it.
    pub from: usize,
    /// Moves played at the position after it.
    pub to: usize,
    /// The loser's win rate before.
    pub before: f64,
    /// The loser's win rate after.
    pub after: f64,
    /// The phase of the position after it.
    pub phase: Phase,
}

/// A position: its moves and phase.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Crossing {
    /// Moves played.
    pub moves: usize,
    /// Its phase.
    pub phase: Phase,
}

/// What the kind rules found in the largest drop by Tengen's win rate.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct KindReport {
    /// The kind.
    pub kind: Kind,
    /// The loser's stones involved (GTP vertices).
    pub stones: Vec<String>,
    /// The winner's chain involved (GTP vertices).
    pub opponent: Vec<String>,
    /// The move the finding starts at, if it has one.
    pub key_move: Option<usize>,
    /// Points the ownership moved towards the winner across the drop.
    pub swing: f64,
    /// The drop's moves, `B D4` style, numbered from `from + 1`.
    pub moves: Vec<String>,
}

/// A group of the loser that died between two evaluated positions (the rule of
/// [`crate::groups::died`]), wherever in the game.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Death {
    /// Moves played at the position before.
    pub from: usize,
    /// Moves played at the position after.
    pub to: usize,
    /// The phase of the position after.
    pub phase: Phase,
    /// Its stones at the position before (GTP vertices).
    pub stones: Vec<String>,
}

/// One lost game, diagnosed.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct GameDiagnosis {
    /// The record's name.
    pub game: String,
    /// The board size.
    pub size: usize,
    /// The studied engine's colour: `B` or `W`.
    pub color: String,
    /// The result as recorded.
    pub result: String,
    /// Moves in the game.
    pub moves: usize,
    /// The evaluated positions.
    pub positions: Vec<PositionRow>,
    /// The first position Tengen's win rate puts below the threshold.
    pub first_below: Option<Crossing>,
    /// The first position the referee's win rate puts below the threshold.
    pub first_below_referee: Option<Crossing>,
    /// The largest drop by Tengen's win rate.
    pub largest_drop: Option<Drop>,
    /// The largest drop by the referee's win rate.
    pub largest_drop_referee: Option<Drop>,
    /// The kind of the largest drop by Tengen (whose ownership the rules read).
    pub kind: Option<KindReport>,
    /// Every group of the loser that died between two evaluated positions.
    pub deaths: Vec<Death>,
    /// Why the referee gave no win rates for this game, when one was asked and
    /// failed (Tengen's rows stand; the referee's are left empty).
    pub referee_unavailable: Option<String>,
}

/// Diagnoses `game`, lost by `side`: its positions evaluated by `tengen` (which must
/// give ownership) and, if given, `referee`. Tengen's failure is the game's; the
/// referee's is not: it is asked nothing more about this game, none of its win rates
/// for the game are kept, and why is [`GameDiagnosis::referee_unavailable`].
pub fn diagnose_game(
    game: &MatchGame,
    side: Color,
    tengen: &mut dyn Evaluator,
    referee: Option<&mut dyn Evaluator>,
    settings: &Settings,
) -> Result<GameDiagnosis, DiagnoseError> {
    let size = game.size();
    let every = settings.every.unwrap_or_else(|| default_every(size));
    let evaluated = evaluate_positions(game, side, every, tengen, referee)?;
    let deaths = deaths(
        game,
        side,
        &evaluated.rows,
        &evaluated.maps,
        &settings.rules,
    );
    let tengen_rates: Vec<f64> = evaluated.rows.iter().map(|r| r.tengen).collect();
    let referee_rates: Option<Vec<f64>> = evaluated.rows.iter().map(|r| r.referee).collect();
    let drop_at = largest_drop(&tengen_rates);
    let kind = drop_at.map(|i| kind_report(game, side, &evaluated, i, &settings.rules));
    let Evaluated {
        rows,
        referee_unavailable,
        ..
    } = evaluated;
    Ok(GameDiagnosis {
        game: game.name.clone(),
        size: size.get(),
        color: side.letter().to_string(),
        result: game.result.clone(),
        moves: game.moves().len(),
        first_below: first_below(&rows, &tengen_rates, settings.threshold),
        first_below_referee: referee_rates
            .as_ref()
            .and_then(|r| first_below(&rows, r, settings.threshold)),
        largest_drop: drop_at.map(|i| drop_report(&rows, &tengen_rates, i)),
        largest_drop_referee: referee_rates
            .as_ref()
            .and_then(|r| largest_drop(r).map(|i| drop_report(&rows, r, i))),
        kind,
        deaths,
        positions: rows,
        referee_unavailable,
    })
}

/// The evaluated positions of a game: a row and an ownership map each.
struct Evaluated {
    rows: Vec<PositionRow>,
    /// Tengen's ownership at each row's position.
    maps: Vec<Ownership>,
    /// Why the referee's win rates were dropped, when it failed.
    referee_unavailable: Option<String>,
}

/// Evaluates every `every`th position of `game` and its last for `side`, by `tengen`
/// and, until it fails, by `referee` (whose win rates are all dropped if it does).
fn evaluate_positions(
    game: &MatchGame,
    side: Color,
    every: usize,
    tengen: &mut dyn Evaluator,
    mut referee: Option<&mut dyn Evaluator>,
) -> Result<Evaluated, DiagnoseError> {
    tengen.new_game();
    if let Some(r) = referee.as_deref_mut() {
        r.new_game();
    }
    let mut rows = Vec::new();
    let mut maps: Vec<Ownership> = Vec::new();
    let mut referee_unavailable = None;
    for p in positions(game.moves().len(), every) {
        let position = game.position(p);
        let t = tengen.evaluate(&position, side)?;
        let map = t.ownership.ok_or_else(|| {
            DiagnoseError::Evaluation(format!("no ownership for move {p} of {}", game.name))
        })?;
        let r = match referee.as_deref_mut() {
            Some(r) if referee_unavailable.is_none() => match r.evaluate(&position, side) {
                Ok(j) => Some(j.winrate),
                Err(e) => {
                    referee_unavailable = Some(format!("move {p}: {e}"));
                    None
                }
            },
            _ => None,
        };
        rows.push(PositionRow {
            moves: p,
            phase: Phase::of_game(&position),
            tengen: t.winrate,
            lead: t.lead,
            referee: r,
        });
        maps.push(map);
    }
    if referee_unavailable.is_some() {
        for row in &mut rows {
            row.referee = None;
        }
    }
    Ok(Evaluated {
        rows,
        maps,
        referee_unavailable,
    })
}

/// Every group of `side` that died between two evaluated positions (`maps` the
/// ownership at each of `rows`).
fn deaths(
    game: &MatchGame,
    side: Color,
    rows: &[PositionRow],
    maps: &[Ownership],
    rules: &KindRules,
) -> Vec<Death> {
    let size = game.size();
    let all = game.moves();
    let last = maps.last().expect("a position was evaluated");
    let mut deaths = Vec::new();
    for i in 1..rows.len() {
        let start = game.position(rows[i - 1].moves);
        let window = &all[rows[i - 1].moves..rows[i].moves];
        let replay = Replay {
            start: &start,
            moves: window,
        };
        for g in died(replay, side, [&maps[i - 1], &maps[i], last], rules) {
            deaths.push(Death {
                from: rows[i - 1].moves,
                to: rows[i].moves,
                phase: rows[i].phase,
                stones: vertices(size, &g),
            });
        }
    }
    deaths
}

/// What the kind rules find between `evaluated`'s rows `i - 1` and `i` (the largest
/// drop).
fn kind_report(
    game: &MatchGame,
    side: Color,
    evaluated: &Evaluated,
    i: usize,
    rules: &KindRules,
) -> KindReport {
    let Evaluated { rows, maps, .. } = evaluated;
    let size = game.size();
    let last = maps.last().expect("a position was evaluated");
    let (from, to) = (rows[i - 1].moves, rows[i].moves);
    let all = game.moves();
    let window = &all[from..to];
    let f = classify(
        &game.position(from),
        window,
        side,
        [&maps[i - 1], &maps[i], last],
        rules,
    );
    KindReport {
        kind: f.kind,
        stones: vertices(size, &f.stones),
        opponent: vertices(size, &f.opponent),
        key_move: f.key_move,
        swing: f.swing,
        moves: window
            .iter()
            .map(|&(c, m)| format!("{} {}", c.letter(), size.move_vertex(m)))
            .collect(),
    }
}

/// The index `i` (from 1) whose fall from `rates[i - 1]` is the largest positive one.
fn largest_drop(rates: &[f64]) -> Option<usize> {
    (1..rates.len())
        .filter(|&i| rates[i] < rates[i - 1])
        .max_by(|&i, &j| (rates[i - 1] - rates[i]).total_cmp(&(rates[j - 1] - rates[j])))
}

fn drop_report(rows: &[PositionRow], rates: &[f64], i: usize) -> Drop {
    Drop {
        from: rows[i - 1].moves,
        to: rows[i].moves,
        before: rates[i - 1],
        after: rates[i],
        phase: rows[i].phase,
    }
}

fn first_below(rows: &[PositionRow], rates: &[f64], threshold: f64) -> Option<Crossing> {
    rates.iter().position(|&w| w < threshold).map(|i| Crossing {
        moves: rows[i].moves,
        phase: rows[i].phase,
    })
}

fn vertices(size: BoardSize, points: &[Point]) -> Vec<String> {
    points.iter().map(|&p| size.vertex(p).to_string()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::Judged;
    use tengen_board::Game;

    /// A constructed 13×13 game: White's four stones F7 G7 H7 G8, owned by White,
    /// surrounded from move 45 and captured by G9 at move 59.
    const GROUP_DIES: &str = include_str!("../../../tests/data/diagnose/group-dies-13.sgf");

    /// A stand-in for the search that counts the board as it stands: stones and the
    /// empty regions only one colour borders are that colour's; the win rate follows
    /// the count, komi included.
    struct AreaCount;

    impl Evaluator for AreaCount {
        fn evaluate(&mut self, game: &Game, side: Color) -> Result<Judged, DiagnoseError> {
            let board = game.board();
            let size = game.size();
            let own = Ownership::from_fn(size, |p| match board.color_at(p) {
                Some(c) if c == side => 1.0,
                Some(_) => -1.0,
                None => {
                    // The colours bordering p's empty region.
                    let (mut seen, mut todo, mut mine, mut theirs) =
                        (vec![p], vec![p], false, false);
                    while let Some(q) = todo.pop() {
                        for n in size.neighbours(q) {
                            if !size.contains_index(n.index()) || seen.contains(&n) {
                                continue;
                            }
                            match board.color_at(n) {
                                Some(c) if c == side => mine = true,
                                Some(_) => theirs = true,
                                None => {
                                    seen.push(n);
                                    todo.push(n);
                                }
                            }
                        }
                    }
                    match (mine, theirs) {
                        (true, false) => 1.0,
                        (false, true) => -1.0,
                        _ => 0.0,
                    }
                }
            });
            let komi = game.rules().komi();
            let count: f64 = size.points().map(|p| f64::from(own.at(p))).sum();
            let lead = count + if side == Color::White { komi } else { -komi };
            Ok(Judged {
                winrate: 1.0 / (1.0 + (-lead / 5.0).exp()),
                lead: Some(lead),
                ownership: Some(own),
            })
        }
    }

    #[test]
    fn a_group_that_dies_at_move_59_is_a_dead_group_in_the_middle_game() {
        let game = MatchGame::parse("group-dies-13.sgf", GROUP_DIES).unwrap();
        let side = game.side_of("studied").unwrap();
        assert_eq!(game.winner(), Some(side.opponent()));
        let d = diagnose_game(&game, side, &mut AreaCount, None, &Settings::default()).unwrap();
        let at: Vec<usize> = d.positions.iter().map(|r| r.moves).collect();
        assert_eq!(at, [20, 40, 60, 70]);
        let drop = d.largest_drop.as_ref().unwrap();
        assert_eq!(
            (drop.from, drop.to, drop.phase),
            (40, 60, Phase::MiddleGame)
        );
        let kind = d.kind.as_ref().unwrap();
        assert_eq!(kind.kind, Kind::GroupDied);
        let mut stones = kind.stones.clone();
        stones.sort();
        assert_eq!(stones, ["F7", "G7", "G8", "H7"]);
        assert_eq!(kind.moves.len(), 20);
        assert_eq!(kind.moves[18], "B G9"); // move 59
        assert_eq!(d.deaths.len(), 1);
        // The count leaves White half a point short: 0.48, not below 35%.
        assert!(d.first_below.is_none());
        // With a group size above four the same drop is territory given away; below
        // 50% is first reached at move 60.
        let settings = Settings {
            threshold: 0.5,
            rules: KindRules {
                min_group: 5,
                ..KindRules::default()
            },
            ..Settings::default()
        };
        let d = diagnose_game(&game, side, &mut AreaCount, None, &settings).unwrap();
        assert_eq!(d.kind.unwrap().kind, Kind::TerritoryGivenAway);
        assert_eq!(d.first_below.map(|c| c.moves), Some(60));
    }

    /// A referee that answers the first `answers` positions, then fails.
    struct FailingReferee {
        answers: usize,
        asked: usize,
    }

    impl Evaluator for FailingReferee {
        fn evaluate(&mut self, _game: &Game, _side: Color) -> Result<Judged, DiagnoseError> {
            self.asked += 1;
            if self.asked > self.answers {
                return Err(DiagnoseError::Referee("the engine exited".into()));
            }
            Ok(Judged {
                winrate: 0.4,
                lead: None,
                ownership: None,
            })
        }
    }

    /// The diagnosis of [`GROUP_DIES`] with a referee that answers the first
    /// `answers` positions, and how many positions the referee was asked.
    fn diagnosed_with_failing_referee(answers: usize) -> (GameDiagnosis, usize) {
        let game = MatchGame::parse("group-dies-13.sgf", GROUP_DIES).unwrap();
        let side = game.side_of("studied").unwrap();
        let mut referee = FailingReferee { answers, asked: 0 };
        let d = diagnose_game(
            &game,
            side,
            &mut AreaCount,
            Some(&mut referee),
            &Settings::default(),
        )
        .unwrap();
        (d, referee.asked)
    }

    #[test]
    fn a_referee_that_fails_leaves_tengens_rows_and_says_why() {
        let (d, asked) = diagnosed_with_failing_referee(2);
        // Asked no more after its failure at the third position (move 60).
        assert_eq!(asked, 3);
        assert_eq!(d.positions.len(), 4);
        assert!(d.positions.iter().all(|r| r.referee.is_none()));
        assert!(d.first_below_referee.is_none() && d.largest_drop_referee.is_none());
        assert_eq!(
            d.referee_unavailable.as_deref(),
            Some("move 60: referee engine: the engine exited")
        );
        assert_eq!(d.kind.unwrap().kind, Kind::GroupDied);
        // A referee that answers throughout is kept.
        let (d, _) = diagnosed_with_failing_referee(4);
        assert!(d.referee_unavailable.is_none());
        assert!(d.positions.iter().all(|r| r.referee == Some(0.4)));
    }

    #[test]
    fn positions_step_by_the_interval_and_end_with_the_game() {
        assert_eq!(positions(65, 20), vec![20, 40, 60, 65]);
        assert_eq!(positions(60, 20), vec![20, 40, 60]);
        assert_eq!(positions(7, 20), vec![7]);
        assert_eq!(default_every(BoardSize::new(13).unwrap()), 20);
        assert_eq!(default_every(BoardSize::NINETEEN), 25);
    }

    #[test]
    fn the_largest_drop_is_the_largest_fall() {
        assert_eq!(largest_drop(&[0.5, 0.45, 0.2, 0.25, 0.1]), Some(2));
        assert_eq!(largest_drop(&[0.2, 0.3]), None);
        assert_eq!(largest_drop(&[0.2]), None);
    }
}
