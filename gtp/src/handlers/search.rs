//! KataGo's searches that do not play: `kata-search` and `kata-search_analyze` (a
//! `genmove` and a `kata-genmove_analyze` that leave the board as it is, for a
//! controller that plays the move itself), and their `_cancellable` forms, which
//! the next input line (any command, or an empty line) stops: the answer is then
//! `cancelled` (`play cancelled`), as in KataGo. A search that ends at the same moment
//! may answer its move instead. No search here charges our clock or ponders after it:
//! the controller's `play` does the first, and starts the game's next move.

use tengen_board::Color;
use tengen_engine::{Decision, Mode};

use crate::args::Args;
use crate::error::Answer;
use crate::handlers::analyze::{Dialect, Then, genmove_analyze};
use crate::handlers::play::{StopOn, Thought, summarize, think_until};
use crate::session::{Ctx, Session};

/// What stops a search, from the command's name.
pub(crate) fn stop_on(cancellable: bool) -> StopOn {
    if cancellable {
        StopOn::AnyInput
    } else {
        StopOn::Interrupt
    }
}

/// The answer word of `color`'s search that was not played: a vertex, `pass` or
/// `resign`, or `cancelled` when input stopped a cancellable one.
pub(crate) fn answer_word(
    s: &mut Session,
    ctx: &Ctx<'_>,
    color: Color,
    thought: &Thought,
    cancellable: bool,
) -> String {
    let word = if cancellable && ctx.signals.input_pending() {
        "cancelled".to_string()
    } else {
        match thought.decision {
            Decision::Play(mv) if s.game.is_legal(color, mv) => {
                s.game.size().move_vertex(mv).to_string()
            }
            Decision::Play(_) => "pass".to_string(),
            Decision::Resign => "resign".to_string(),
        }
    };
    summarize(s, color, &format!("{word} (searched, not played)"), thought);
    word
}

fn search(s: &mut Session, a: &mut Args<'_>, ctx: &mut Ctx<'_>, cancellable: bool) -> Answer {
    let color = a.color()?;
    a.end()?;
    let thought = think_until(s, ctx, color, Mode::Normal, None, stop_on(cancellable));
    Ok(answer_word(s, ctx, color, &thought, cancellable))
}

/// `kata-search COLOR`: the move `genmove` would play, not played.
pub(crate) fn kata_search(s: &mut Session, a: &mut Args<'_>, ctx: &mut Ctx<'_>) -> Answer {
    search(s, a, ctx, false)
}

/// `kata-search_cancellable COLOR`: `kata-search` that the next input line cancels.
pub(crate) fn kata_search_cancellable(
    s: &mut Session,
    a: &mut Args<'_>,
    ctx: &mut Ctx<'_>,
) -> Answer {
    search(s, a, ctx, true)
}

/// `kata-search_analyze [COLOR] [INTERVAL] [KEY VALUE]…`: `kata-genmove_analyze`'s
/// stream, the move not played.
pub(crate) fn kata_search_analyze(s: &mut Session, a: &mut Args<'_>, ctx: &mut Ctx<'_>) -> Answer {
    genmove_analyze(s, a, ctx, Dialect::Kata, Then::Name { cancellable: false })
}

/// `kata-search_analyze_cancellable …`: `kata-search_analyze` that the next input
/// line cancels (LizGoban asks for it to know that `kata-search_cancellable` is
/// there).
pub(crate) fn kata_search_analyze_cancellable(
    s: &mut Session,
    a: &mut Args<'_>,
    ctx: &mut Ctx<'_>,
) -> Answer {
    genmove_analyze(s, a, ctx, Dialect::Kata, Then::Name { cancellable: true })
}
