//! KataGo's searches that do not play: `kata-search` and `kata-search_analyze` (a
//! `genmove` and a `kata-genmove_analyze` that leave the board as it is, for a
//! controller that plays the move itself), and their `_cancellable` forms, which
//! the next input line (any command, or an empty line) stops: the answer is then
//! `cancelled` (`play cancelled`), as in KataGo. A search that ends at the same moment
//! may answer its move instead. No search here charges our clock or ponders after it:
//! the controller's `play` does the first, and starts the game's next move.

use tengen_engine::Mode;

use crate::args::Args;
use crate::error::Answer;
use crate::handlers::analyze::{Then, genmove_analyze};
use crate::handlers::play::{Thinking, answer_word, stop_on, think_until};
use crate::session::{Ctx, Session};
use crate::stream::Dialect;

fn search(s: &mut Session, a: &mut Args<'_>, ctx: &mut Ctx<'_>, cancellable: bool) -> Answer {
    let color = a.color()?;
    a.end()?;
    let how = Thinking {
        mode: Mode::Normal,
        stream: None,
        stop_on: stop_on(cancellable),
    };
    let thought = think_until(s, ctx, color, how);
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
