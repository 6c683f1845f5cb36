//! The analysis commands: `lz-analyze` and `kata-analyze` (a stream until the next
//! input line) and `lz-genmove_analyze`, `kata-genmove_analyze` (a stream until the
//! move is chosen, then `play <vertex>`). What a line holds, and how a request is
//! read, is [`crate::stream`]'s.

use tengen_engine::{Analysis, Limit, Mode, Report, SearchRequest};

use crate::args::Args;
use crate::error::Answer;
use crate::handlers::play::{StopOn, Thinking, answer_word, commit, stop_on, think_until};
use crate::session::{Ctx, Session};
use crate::stream::{Dialect, Stream};

/// Runs an analysis stream until the next input line arrives; with an interval of 0,
/// the final snapshot is its one line.
fn analyze(s: &mut Session, a: &mut Args<'_>, ctx: &mut Ctx<'_>, dialect: Dialect) -> Answer {
    let size = s.game.size();
    let st = Stream::parse(dialect, a, size, s.game.to_move())?;
    ctx.start_stream();
    let signals = ctx.signals;
    let stop = signals.arm_input();
    let mut sink = |an: &Analysis| {
        if let Some(line) = st.format(an, size).filter(|_| !st.final_only()) {
            ctx.stream_line(&line);
        }
    };
    let report = Report {
        interval: st.interval(),
        sink: &mut sink,
        extras: st.extras(),
    };
    let Session { engine, game, .. } = s;
    let avoid = st.avoided(size);
    let req = SearchRequest::new(game, st.color, Limit::Infinite, stop)
        .ownership(st.ownership)
        .avoiding(avoid)
        .report(Some(report));
    let last = engine.search(req);
    st.write_final(ctx, Some(&last), size);
    Ok(String::new())
}

/// What a streamed move search does with the move it chose.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Then {
    /// Plays it (`*-genmove_analyze`); of the input, only `# interrupt` cuts the search
    /// short (the clock's watchdog may too, as in every timed move).
    Play,
    /// Only names it (`kata-search_analyze`); a `cancellable` search is also stopped
    /// by the next input line, and then answers `play cancelled`.
    Name { cancellable: bool },
}

/// Streams `info` lines while choosing a move (with an interval of 0, one line from
/// the final snapshot), then plays or only names it, as `then` says: `play <vertex>`.
pub(crate) fn genmove_analyze(
    s: &mut Session,
    a: &mut Args<'_>,
    ctx: &mut Ctx<'_>,
    dialect: Dialect,
    then: Then,
) -> Answer {
    let st = Stream::parse(dialect, a, s.game.size(), s.game.to_move())?;
    ctx.start_stream();
    let stop = match then {
        Then::Play => StopOn::Interrupt,
        Then::Name { cancellable } => stop_on(cancellable),
    };
    let how = Thinking {
        mode: Mode::Normal,
        stream: Some(&st),
        stop_on: stop,
    };
    let thought = think_until(s, ctx, st.color, how);
    st.write_final(ctx, thought.last.as_ref(), s.game.size());
    let word = match then {
        Then::Play => commit(s, st.color, &thought),
        Then::Name { cancellable } => answer_word(s, ctx, st.color, &thought, cancellable),
    };
    Ok(format!("play {word}"))
}

/// `lz-analyze [color] [interval] [key value…]`.
pub(crate) fn lz_analyze(s: &mut Session, a: &mut Args<'_>, ctx: &mut Ctx<'_>) -> Answer {
    analyze(s, a, ctx, Dialect::Lz)
}

/// `kata-analyze [color] [interval] [key value…]`.
pub(crate) fn kata_analyze(s: &mut Session, a: &mut Args<'_>, ctx: &mut Ctx<'_>) -> Answer {
    analyze(s, a, ctx, Dialect::Kata)
}

/// `lz-genmove_analyze [color] [interval] [key value…]`.
pub(crate) fn lz_genmove_analyze(s: &mut Session, a: &mut Args<'_>, ctx: &mut Ctx<'_>) -> Answer {
    genmove_analyze(s, a, ctx, Dialect::Lz, Then::Play)
}

/// `kata-genmove_analyze [color] [interval] [key value…]`.
pub(crate) fn kata_genmove_analyze(s: &mut Session, a: &mut Args<'_>, ctx: &mut Ctx<'_>) -> Answer {
    genmove_analyze(s, a, ctx, Dialect::Kata, Then::Play)
}
