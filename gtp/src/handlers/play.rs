//! Move generation: `genmove`, `reg_genmove`, `kgs-genmove_cleanup`, and the search
//! they share with the `*-genmove_analyze` streams.

use std::time::Duration;

use tengen_board::{Bitboard, Color, Move};

use crate::args::Args;
use crate::error::Answer;
use crate::handlers::board::play_checked;
use crate::handlers::bots;
use crate::session::{Ctx, Session};
use crate::stream::Stream;
use crate::summary::move_summary;
use tengen_engine::time::watched;
use tengen_engine::{Analysis, Decision, Mode, Report};

/// What a move search produced.
pub(crate) struct Thought {
    /// The engine's choice.
    pub decision: Decision,
    /// The last snapshot the search reported, if any.
    pub last: Option<Analysis>,
    /// Wall time from the moment the command's line was read.
    pub elapsed: Duration,
}

/// What cuts a move search short besides the clock's watchdog.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum StopOn {
    /// GoGui's `# interrupt` (a move the controller waits for).
    Interrupt,
    /// Any input line (KataGo's `_cancellable` searches).
    AnyInput,
}

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

/// Searches a move for `color` in the current position without playing it. Only
/// `# interrupt` (or the clock's watchdog) cuts it short; with `stream`, snapshots go
/// out as `info` lines of the streamed answer (none when it prints only the final one,
/// which the caller then writes from [`Thought::last`]).
pub(crate) fn think(
    s: &mut Session,
    ctx: &mut Ctx<'_>,
    color: Color,
    mode: Mode,
    stream: Option<&Stream>,
) -> Thought {
    think_until(s, ctx, color, mode, stream, StopOn::Interrupt)
}

/// [`think`], stopped by what `stop_on` says as well as by the clock's watchdog.
pub(crate) fn think_until(
    s: &mut Session,
    ctx: &mut Ctx<'_>,
    color: Color,
    mode: Mode,
    stream: Option<&Stream>,
    stop_on: StopOn,
) -> Thought {
    let timer = s
        .timekeeper
        .start_move(s.engine.config(), &s.game, color, ctx.read_at);
    let signals = ctx.signals;
    let stop = match stop_on {
        StopOn::Interrupt => signals.arm_interrupt(),
        StopOn::AnyInput => signals.arm_input(),
    };
    let size = s.game.size();
    let avoid = stream.map_or(Bitboard::EMPTY, |st| st.avoided(size));
    let mut sink = |a: &Analysis| {
        let periodic = stream.filter(|st| !st.final_only());
        if let Some(line) = periodic.and_then(|st| st.format(a, size)) {
            ctx.stream_line(&line);
        }
    };
    let report = stream.map(|st| Report {
        interval: st.interval(),
        sink: &mut sink,
        extras: st.extras(),
    });
    let Session { engine, game, .. } = s;
    // A playout budget with a clock running: stop at the clock's hard limit anyway.
    let alarm = move || match stop_on {
        StopOn::Interrupt => signals.interrupt(),
        StopOn::AnyInput => signals.raise_input(),
    };
    let decision = watched(timer.start, timer.deadline, alarm, || {
        engine.genmove_avoiding(game, color, timer.limit, stop, mode, &avoid, report)
    });
    let elapsed = s.timekeeper.finish_move(&timer);
    Thought {
        decision,
        last: s.engine.last_analysis().cloned(),
        elapsed,
    }
}

/// Plays the decision for `color` (charging our clock) and returns the answer word:
/// a vertex, `pass` or `resign`.
pub(crate) fn commit(s: &mut Session, color: Color, thought: &Thought) -> String {
    if s.options.ogs_pv {
        malkovich(s, thought);
    }
    s.timekeeper.charge(color, thought.elapsed);
    let word = match thought.decision {
        Decision::Play(mv) => s
            .game
            .size()
            .move_vertex(play_checked(s, color, mv))
            .to_string(),
        Decision::Resign => "resign".to_string(),
    };
    summarize(s, color, &word, thought);
    s.ponder_next = true;
    word
}

/// gtp2ogs's `MALKOVICH:` line of the move on stderr (`--ogs-pv`), written before
/// the answer, while gtp2ogs still waits for the move.
fn malkovich(s: &mut Session, thought: &Thought) {
    let Some(a) = &thought.last else { return };
    let played = match thought.decision {
        Decision::Play(mv) => mv,
        Decision::Resign => a.best().map_or(Move::Pass, |m| m.mv),
    };
    let line = bots::malkovich_line(a, played, s.game.size());
    s.warn(&line);
}

/// One line on stderr per move (see [`move_summary`]).
pub(crate) fn summarize(s: &mut Session, color: Color, word: &str, t: &Thought) {
    let line = move_summary(color, word, t.elapsed, t.last.as_ref(), s.game.size());
    s.diag(&line);
}

fn generate(s: &mut Session, a: &mut Args<'_>, ctx: &mut Ctx<'_>, mode: Mode) -> Answer {
    let color = a.color()?;
    a.end()?;
    let mut thought = think(s, ctx, color, mode, None);
    // The clean-up passes when nothing is left to capture: that pass stays.
    if mode == Mode::Normal {
        bots::kgs_pass_second(s, color, &mut thought);
    }
    Ok(commit(s, color, &thought))
}

/// `genmove color`: search, play, answer the vertex, `pass` or `resign`.
pub(crate) fn genmove(s: &mut Session, a: &mut Args<'_>, ctx: &mut Ctx<'_>) -> Answer {
    generate(s, a, ctx, Mode::Normal)
}

/// `kgs-genmove_cleanup color`: like genmove, but dead opponent stones are captured
/// before passing.
pub(crate) fn kgs_genmove_cleanup(s: &mut Session, a: &mut Args<'_>, ctx: &mut Ctx<'_>) -> Answer {
    generate(s, a, ctx, Mode::Cleanup)
}

/// `reg_genmove color`: the move genmove would choose; the board does not change.
pub(crate) fn reg_genmove(s: &mut Session, a: &mut Args<'_>, ctx: &mut Ctx<'_>) -> Answer {
    let color = a.color()?;
    a.end()?;
    let thought = think(s, ctx, color, Mode::Normal, None);
    let word = match thought.decision {
        Decision::Play(mv) if s.game.is_legal(color, mv) => {
            s.game.size().move_vertex(mv).to_string()
        }
        Decision::Play(_) => "pass".to_string(),
        Decision::Resign => "resign".to_string(),
    };
    summarize(s, color, &word, &thought);
    Ok(word)
}
