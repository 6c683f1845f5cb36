//! The rules of Go for Tengen: no I/O, no randomness, no threads.
//!
//! - [`Board`]: the fast position playouts run on: stones as bitboards, groups by
//!   union-find with exact liberty counts, simple ko, an incremental Zobrist hash;
//!   no heap, so a copy is a memory copy.
//! - [`LightBoard`]: the light playouts' board: the same rules, moves and empty-point
//!   order as [`Board`] with pseudo-liberties, compiled per size ([`LightBoard9`],
//!   [`LightBoard13`], [`LightBoard19`]) or for any ([`LightBoardAny`]).
//! - [`Game`]: a board plus history and [`Rules`]: positional or situational superko,
//!   undo, handicap, scoring.
//! - [`sgf`]: reading and writing games as SGF.
//! - [`life`]: static life and death: Benson's pass-alive chains and the territory they
//!   make safe, with the opponent's stones dead in it, and the sekis and dead chains
//!   an exhaustive search of small closed areas proves.
//! - [`TimeControl`] and [`Clock`]: the time rules the engine plans by and a match
//!   referee enforces: charging a move, flag detection, the `M+PxT` spelling.
//!
//! ```
//! use tengen_board::{BoardSize, Color, Game, Move, Rules};
//!
//! let size = BoardSize::new(9).unwrap();
//! let mut game = Game::new(size, Rules::chinese());
//! let e5 = size.parse_move("E5").unwrap();
//! game.play(Color::Black, e5).unwrap();
//! assert!(game.play(Color::White, e5).is_err()); // occupied
//! assert_eq!(game.to_move(), Color::White);
//! ```
#![deny(missing_docs)]

mod bitboard;
mod board;
mod color;
mod diagram;
mod game;
mod handicap;
mod keyword;
pub mod life;
mod light;
mod point;
mod rules;
mod score;
pub mod sgf;
mod time_control;
mod time_spec;
mod zobrist;

pub use bitboard::{Bitboard, WORDS};
pub use board::{Board, IllegalMove, MoveInfo};
pub use color::{ByColor, Color, ParseColorError};
pub use diagram::{DiagramError, parse_diagram, to_diagram};
pub use game::Game;
pub use handicap::{HandicapError, fixed_handicap, max_fixed_handicap};
pub use keyword::{Keyword, UnknownKeyword, counted, list_alternatives};
pub use life::{StaticLife, Unconditional};
pub use light::{LightBoard, LightBoard9, LightBoard13, LightBoard19, LightBoardAny};
pub use point::{
    BoardSize, MAX_SIZE, MAX_SLOTS, MIN_SIZE, Move, ParseVertexError, Point, SizeError, Vertex,
};
pub use rules::{
    HandicapCompensation, KATAGO_RULES_NAMES, KataRulesError, KataValue, KoRule, KomiError,
    RULES_NAMES, Rules, Scoring, UnknownRules,
};
pub use score::{GameResult, ParseResultError, Region, Score, format_points, regions};
pub use time_control::{Clock, TimeControl};
pub use time_spec::TimeSpecError;
pub use zobrist::{BLACK_TO_MOVE, Hash, stone_key};
