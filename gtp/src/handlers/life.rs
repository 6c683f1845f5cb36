//! What the position proves about life and death, without playouts:
//! `tengen-unconditional_status` (GNU Go's `unconditional_status`) and the GoGui
//! display of pass-alive groups and their territory.

use std::fmt::Write as _;

use tengen_board::StaticLife;

use crate::args::Args;
use crate::error::Answer;
use crate::session::{Ctx, Session};

/// `tengen-unconditional_status VERTEX`: `alive`, `dead`, `black_territory`,
/// `white_territory` or `undecided`, as GNU Go's `unconditional_status` answers.
pub(crate) fn unconditional_status(s: &mut Session, a: &mut Args<'_>, _: &mut Ctx<'_>) -> Answer {
    let p = a.point(s.game.size())?;
    a.end()?;
    let board = s.game.board();
    Ok(StaticLife::of_game(&s.game)
        .unconditional(board, p)
        .to_string())
}

/// `tengen-gfx_pass_alive`: pass-alive stones marked with a square, the territory they
/// make safe (dead stones included) as each colour's territory.
pub(crate) fn gfx_pass_alive(s: &mut Session, a: &mut Args<'_>, _: &mut Ctx<'_>) -> Answer {
    a.end()?;
    let board = s.game.board();
    let size = s.game.size();
    let life = StaticLife::of_game(&s.game);
    let mut out = String::new();
    let list = |set: &tengen_board::Bitboard| -> String {
        size.points()
            .filter(|&p| set.contains(p))
            .map(|p| size.vertex(p).to_string())
            .collect::<Vec<_>>()
            .join(" ")
    };
    let alive = life.pass_alive.black.or(&life.pass_alive.white);
    let marks = [
        ("BLACK", life.territory.black),
        ("WHITE", life.territory.white),
        ("SQUARE", alive),
    ];
    for (word, set) in marks {
        if !set.is_empty() {
            let _ = writeln!(out, "{word} {}", list(&set));
        }
    }
    let _ = write!(
        out,
        "TEXT pass-alive: {} black, {} white stones; safe territory: {} black, {} white",
        life.pass_alive.black.count(),
        life.pass_alive.white.count(),
        life.territory.black.and(&board.empties()).count(),
        life.territory.white.and(&board.empties()).count(),
    );
    Ok(out)
}
