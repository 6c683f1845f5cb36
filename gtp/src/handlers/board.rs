//! Commands on the position: size, komi, rules, moves, undo, and looking at the board.

use tengen_board::{BoardSize, Color, IllegalMove, Move, RULES_NAMES, Rules, to_diagram};

use crate::args::Args;
use crate::error::{Answer, GtpError, quote};
use crate::session::{Ctx, Session};

pub(crate) fn boardsize(s: &mut Session, a: &mut Args<'_>, _: &mut Ctx<'_>) -> Answer {
    let n = a.int("size")?;
    a.end()?;
    let size = u32::try_from(n)
        .ok()
        .and_then(|n| BoardSize::new(n).ok())
        .ok_or(GtpError::UnacceptableSize)?;
    s.new_game(size);
    Ok(String::new())
}

pub(crate) fn clear_board(s: &mut Session, a: &mut Args<'_>, _: &mut Ctx<'_>) -> Answer {
    a.end()?;
    s.new_game(s.game.size());
    Ok(String::new())
}

/// `komi K`: the game's komi and the session's, for the games after it.
pub(crate) fn komi(s: &mut Session, a: &mut Args<'_>, _: &mut Ctx<'_>) -> Answer {
    let k = a.float("komi")?;
    a.end()?;
    let komi = |r: &Rules| r.with_komi(k).map_err(|e| GtpError::syntax(e.to_string()));
    let (game, session) = (komi(s.game.rules())?, komi(&s.options.rules)?);
    s.game.set_rules(game);
    s.options.rules = session;
    Ok(String::new())
}

/// `kgs-rules chinese|japanese|aga|new_zealand` (also `korean`, `tromp-taylor`, `cgos`): the
/// counting and repetition rules of the game and of the session change, the komi stays.
pub(crate) fn kgs_rules(s: &mut Session, a: &mut Args<'_>, _: &mut Ctx<'_>) -> Answer {
    let name = a.word("rules")?;
    a.end()?;
    let rules: Rules = name.parse().map_err(|_| {
        GtpError::syntax(format!(
            "unknown rules {} (expected {RULES_NAMES})",
            quote(name)
        ))
    })?;
    set_rules_keeping_komi(s, rules)?;
    Ok(String::new())
}

/// Puts `rules` in force for the game and for the session's next games, each keeping
/// its komi; if either komi does not suit them, nothing changes.
pub(crate) fn set_rules_keeping_komi(s: &mut Session, rules: Rules) -> Result<(), GtpError> {
    let komi = |r: &Rules| {
        rules
            .with_komi(r.komi())
            .map_err(|e| GtpError::Other(e.to_string()))
    };
    let (game, session) = (komi(s.game.rules())?, komi(&s.options.rules)?);
    s.game.set_rules(game);
    s.options.rules = session;
    Ok(())
}

pub(crate) fn play(s: &mut Session, a: &mut Args<'_>, _: &mut Ctx<'_>) -> Answer {
    let color = a.color()?;
    let mv = a.mv(s.game.size())?;
    a.end()?;
    s.game.play(color, mv).map_err(illegal)?;
    Ok(String::new())
}

/// The `illegal move` answer with the reason.
pub(crate) fn illegal(e: IllegalMove) -> GtpError {
    GtpError::IllegalMove(e.to_string())
}

pub(crate) fn undo(s: &mut Session, a: &mut Args<'_>, _: &mut Ctx<'_>) -> Answer {
    a.end()?;
    s.game.undo().ok_or(GtpError::CannotUndo)?;
    s.engine.forget_kill_lines();
    Ok(String::new())
}

/// `is_legal color vertex`: `1` or `0`, under the full rules (superko included).
pub(crate) fn is_legal(s: &mut Session, a: &mut Args<'_>, _: &mut Ctx<'_>) -> Answer {
    let color = a.color()?;
    let mv = a.mv(s.game.size())?;
    a.end()?;
    Ok(if s.game.is_legal(color, mv) { "1" } else { "0" }.into())
}

/// `list_stones color`: the stones of that colour, in board order from A1.
pub(crate) fn list_stones(s: &mut Session, a: &mut Args<'_>, _: &mut Ctx<'_>) -> Answer {
    let color = a.color()?;
    a.end()?;
    let size = s.game.size();
    let board = s.game.board();
    let stones: Vec<String> = size
        .points()
        .filter(|&p| board.color_at(p) == Some(color))
        .map(|p| size.vertex(p).to_string())
        .collect();
    Ok(stones.join(" "))
}

/// `showboard`: the diagram (X black, O white) and a line of game facts, starting on
/// the line after `=` and without blank lines.
pub(crate) fn showboard(s: &mut Session, a: &mut Args<'_>, _: &mut Ctx<'_>) -> Answer {
    a.end()?;
    let g = &s.game;
    let size = g.size();
    let prisoners = g.board().prisoners();
    let last = match g.last_move() {
        Some((c, m)) => format!("{} {}", c.letter(), size.move_vertex(m)),
        None => "none".into(),
    };
    let ko = match g.board().ko() {
        Some((p, c)) => format!(", ko {} (not for {})", size.vertex(p), c),
        None => String::new(),
    };
    Ok(format!(
        "\n{}\n{} to move, move {}, last {last}{ko}\ncaptures: black {} white {}, komi {}",
        to_diagram(g.board()),
        title(g.to_move()),
        g.move_count() + 1,
        prisoners[Color::Black],
        prisoners[Color::White],
        tengen_board::format_points(g.rules().komi()),
    ))
}

fn title(c: Color) -> &'static str {
    match c {
        Color::Black => "Black",
        Color::White => "White",
    }
}

/// Plays a move chosen by the engine, refusing (and logging) anything illegal: the
/// game never holds an illegal move, whoever proposed it.
pub(crate) fn play_checked(s: &mut Session, color: Color, mv: Move) -> Move {
    match s.game.play(color, mv) {
        Ok(_) => mv,
        Err(e) => {
            let v = s.game.size().move_vertex(mv);
            s.diag(&format!(
                "tengen: engine proposed illegal {v} ({e}); passing"
            ));
            let _ = s.game.play(color, Move::Pass);
            Move::Pass
        }
    }
}
