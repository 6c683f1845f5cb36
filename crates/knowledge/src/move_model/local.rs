//! The playouts' local move model: the strengths of a move table fitted without large
//! patterns (`crates/knowledge/data/playouts.txt`; its header gives the command), kept as plain
//! numbers for a move next to the last one: a level per raw 3×3 shape code, the
//! distance to the last move (adjacent or diagonal), the line, and a far point's
//! strength for the rest of the board. The draw that reads them is the
//! engine's heavy playout (`playout::local`).

use tengen_board::{Board, Color, Point};

use crate::move_model::MoveModel;
use crate::move_model::features::GROUPS;
use crate::shape::{SHAPE_CODES, shape_code};

/// The shipped playout table, compiled in.
const SHIPPED: &str = include_str!("../../data/playouts.txt");

/// Strengths for the local draw, as plain numbers (not logarithms).
#[derive(Clone)]
pub struct LocalModel {
    /// Strength level of every raw shape code (an index into `levels`: one byte a
    /// code keeps the table at 1 MiB, for the cache).
    shape: Vec<u8>,
    /// The strength of each level: `exp((level - 128) / LEVELS_PER_UNIT)`.
    levels: [f32; 256],
    /// Strength of a point adjacent to the last move and of a diagonal one.
    near: [f32; 2],
    /// Strength of each line, the edge first (the `edge` group's values).
    line: [f32; 6],
    /// Strength of a point far from the last move.
    far: f32,
}

impl std::fmt::Debug for LocalModel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "LocalModel(near {:?}, far {}, lines {:?})",
            self.near, self.far, self.line
        )
    }
}

/// Strength levels per unit of log strength: the levels span strengths from
/// e^-8 to about e^7.9 in steps of 6%.
const LEVELS_PER_UNIT: f32 = 16.0;

/// The level nearest to a log strength (clamped to the table; 0 is level 128).
fn level(log_strength: f32) -> u8 {
    (128.0 + log_strength * LEVELS_PER_UNIT)
        .round()
        .clamp(0.0, 255.0) as u8
}

/// The index of the tactical group `name` in [`GROUPS`].
fn group(name: &str) -> usize {
    GROUPS
        .iter()
        .position(|g| g.0 == name)
        .expect("a group of features::GROUPS")
}

impl LocalModel {
    /// The model of `crates/knowledge/data/playouts.txt`.
    pub fn shipped() -> LocalModel {
        // Compiled in and read by a unit test: a failure is a broken build.
        let model = MoveModel::parse(SHIPPED)
            .expect("crates/knowledge/data/playouts.txt is a valid move table");
        LocalModel::from_model(&model)
    }

    /// The local strengths of any move table (its large patterns are not used).
    pub fn from_model(model: &MoveModel) -> LocalModel {
        let previous = group("previous");
        let edge = group("edge");
        let strength = |g, v| model.tactical_log_strength(g, v).exp();
        let far_value = GROUPS[previous].1 - 1;
        LocalModel {
            shape: (0..SHAPE_CODES as u32)
                .map(|code| level(model.shape_log_strength(code)))
                .collect(),
            levels: std::array::from_fn(|k| ((k as f32 - 128.0) / LEVELS_PER_UNIT).exp()),
            // Distance values: 1 for an adjacent point (d = 2), 2 for a diagonal one.
            near: [strength(previous, 1), strength(previous, 2)],
            line: std::array::from_fn(|v| strength(edge, v)),
            far: strength(previous, far_value),
        }
    }

    /// The strength of a move by `c` at the empty point `q` with `edge` value `line`
    /// (0 the edge, 5 the sixth line and in), `diagonal` or adjacent to the last move.
    #[inline]
    pub fn strength(&self, board: &Board, c: Color, q: Point, line: usize, diagonal: bool) -> f32 {
        self.levels[usize::from(self.shape[shape_code(board, c, q) as usize])]
            * self.near[usize::from(diagonal)]
            * self.line[line]
    }

    /// The strength of a point far from the last move (the rest of the board's
    /// weight for each of its empty points).
    #[inline]
    pub fn far(&self) -> f32 {
        self.far
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shipped_table_loads_and_knows_shapes() {
        let m = LocalModel::shipped();
        let named = m.shape.iter().filter(|&&g| g != level(0.0)).count();
        assert!(named > 1000, "{named} shape codes named");
        // An unnamed shape weighs exactly 1, and the levels follow the table.
        assert_eq!(m.levels[usize::from(level(0.0))], 1.0);
        for g in [0.01f32, 0.5, 2.0, 65.0] {
            let got = m.levels[usize::from(level(g.ln()))];
            assert!((got / g - 1.0).abs() < 0.035, "{g}: {got}");
        }
        // Next to the last move is likelier than far from it.
        assert!(m.near[0] > 5.0 * m.far && m.near[1] > 5.0 * m.far, "{m:?}");
    }
}
