//! Evaluating a position from the studied engine's side: the [`Evaluator`] trait, what
//! it answers ([`Judged`], with an [`Ownership`] map when it has one) and Tengen's own
//! search as one ([`TengenEvaluator`]). The referee engine over GTP is the other
//! (`crate::referee`).

use std::sync::atomic::AtomicBool;

use tengen_board::{BoardSize, Color, Game, Point};
use tengen_engine::{Config, Engine, Limit, SearchRequest};

use crate::error::DiagnoseError;

/// Who owns each point at the end, as one evaluation expects: in [-1, 1], +1 the
/// studied side's.
#[derive(Debug, Clone, PartialEq)]
pub struct Ownership {
    size: BoardSize,
    /// Row by row from the top left, as the engine's analysis orders them.
    cells: Vec<f32>,
}

impl Ownership {
    /// A map from values row by row from the top left (A13 first on 13×13), +1 the
    /// studied side's; `None` when there is not one value a point.
    pub fn from_cells(size: BoardSize, cells: Vec<f32>) -> Option<Ownership> {
        (cells.len() == size.area()).then_some(Ownership { size, cells })
    }

    /// A map built point by point.
    pub fn from_fn(size: BoardSize, mut f: impl FnMut(Point) -> f32) -> Ownership {
        let mut cells = vec![0.0; size.area()];
        for p in size.points() {
            cells[cell(size, p)] = f(p);
        }
        Ownership { size, cells }
    }

    /// The studied side's ownership of `p`.
    pub fn at(&self, p: Point) -> f32 {
        self.cells[cell(self.size, p)]
    }

    /// The mean ownership of `points` (0 for none).
    pub fn mean(&self, points: &[Point]) -> f32 {
        if points.is_empty() {
            return 0.0;
        }
        points.iter().map(|&p| self.at(p)).sum::<f32>() / points.len() as f32
    }

    /// The same map from the other side's view.
    pub fn flipped(&self) -> Ownership {
        Ownership {
            size: self.size,
            cells: self.cells.iter().map(|v| -v).collect(),
        }
    }
}

/// A point's index in a map: row by row from the top left.
fn cell(size: BoardSize, p: Point) -> usize {
    let (x, y) = size.coords(p);
    (size.get() - 1 - y) * size.get() + x
}

/// One evaluation of a position, from the studied side's view.
#[derive(Debug, Clone, PartialEq)]
pub struct Judged {
    /// The studied side's win rate, in [0, 1].
    pub winrate: f64,
    /// The studied side's score lead in points, when the evaluator gives one.
    pub lead: Option<f64>,
    /// Who owns each point, when the evaluator gives it.
    pub ownership: Option<Ownership>,
}

/// Anything that evaluates a position for one side.
pub trait Evaluator {
    /// Evaluates `game` (the position after its moves) from `side`'s view, whichever
    /// side is to move.
    fn evaluate(&mut self, game: &Game, side: Color) -> Result<Judged, DiagnoseError>;

    /// Called before the positions of another game, so that nothing of the last one's
    /// search is reused.
    fn new_game(&mut self) {}
}

/// Tengen's search: one search a position for the side to move, with its ownership.
#[derive(Debug)]
pub struct TengenEvaluator {
    engine: Engine,
    limit: Limit,
}

impl TengenEvaluator {
    /// An evaluator searching each position to `limit` with the engine `config`
    /// describes (and the shipped move model).
    pub fn new(config: Config, limit: Limit) -> TengenEvaluator {
        TengenEvaluator {
            engine: Engine::new(config),
            limit,
        }
    }
}

impl Evaluator for TengenEvaluator {
    fn evaluate(&mut self, game: &Game, side: Color) -> Result<Judged, DiagnoseError> {
        let stop = AtomicBool::new(false);
        let to_move = game.to_move();
        let a = self
            .engine
            .search(SearchRequest::new(game, to_move, self.limit, &stop).ownership(true));
        let (winrate, lead) = match a.best() {
            Some(best) => (best.winrate, best.score_lead),
            None if a.visits > 0 => (a.winrate, a.score_lead),
            None => {
                return Err(DiagnoseError::Evaluation(format!(
                    "the search found no move after move {}",
                    game.move_count()
                )));
            }
        };
        let ownership = Ownership::from_cells(game.size(), a.ownership);
        let (winrate, lead, ownership) = if to_move == side {
            (winrate, lead, ownership)
        } else {
            (1.0 - winrate, -lead, ownership.map(|o| o.flipped()))
        };
        Ok(Judged {
            winrate: winrate.clamp(0.0, 1.0),
            lead: lead.is_finite().then_some(lead),
            ownership,
        })
    }

    fn new_game(&mut self) {
        self.engine.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_map_reads_back_by_point_and_flips() {
        let size = BoardSize::new(5).unwrap();
        let a1 = size.parse_point("A1").unwrap();
        let a5 = size.parse_point("A5").unwrap();
        let own = Ownership::from_fn(size, |p| if p == a1 { 1.0 } else { -0.5 });
        assert_eq!(own.at(a1), 1.0);
        assert_eq!(own.at(a5), -0.5);
        assert_eq!(own.mean(&[a1, a5]), 0.25);
        assert_eq!(own.flipped().at(a1), -1.0);
        // The engine's order: the top left (A5) first.
        let mut cells = vec![0.0; 25];
        cells[0] = 1.0;
        let own = Ownership::from_cells(size, cells).unwrap();
        assert_eq!(own.at(a5), 1.0);
        assert!(Ownership::from_cells(size, vec![0.0; 24]).is_none());
    }

    #[test]
    fn tengen_evaluates_for_the_side_asked_whoever_is_to_move() {
        // Black has a big lead on 9×9: its win rate is high, White's low.
        let g = crate::MatchGame::parse(
            "t",
            "(;SZ[9]KM[0];B[cc];W[aa];B[gc];W[ia];B[cg];W[ai];B[gg];W[ii];B[ee])",
        )
        .unwrap()
        .game;
        let config = Config {
            threads: 1,
            ..Config::default()
        };
        let mut t = TengenEvaluator::new(config, Limit::Playouts(400));
        let black = t.evaluate(&g, Color::Black).unwrap();
        t.new_game();
        let white = t.evaluate(&g, Color::White).unwrap();
        assert!(black.winrate > 0.6, "{}", black.winrate);
        assert!(white.winrate < 0.4, "{}", white.winrate);
        let e5 = g.size().parse_point("E5").unwrap();
        assert!(black.ownership.unwrap().at(e5) > 0.5);
        assert!(white.ownership.unwrap().at(e5) < -0.5);
    }
}
