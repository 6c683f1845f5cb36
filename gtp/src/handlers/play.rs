//! Move generation: `genmove`, `reg_genmove`, `kgs-genmove_cleanup`, the search
//! they share with the `*-genmove_analyze` streams and CGOS's `cgos-genmove_analyze`,
//! and what a bot server asks of the move chosen: KGS's pass second (`--kgs`) and
//! gtp2ogs's `MALKOVICH:` line (`--ogs-pv`).

use std::time::Duration;

use tengen_board::{Bitboard, Color, Move, Scoring};

use crate::args::Args;
use crate::error::Answer;
use crate::handlers::board::play_checked;
use crate::session::{Ctx, Session};
use crate::stream::Stream;
use crate::summary::{malkovich_line, move_summary};
use tengen_engine::time::watched;
use tengen_engine::{Analysis, Decision, Mode, Report, SearchRequest};

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
    let how = Thinking {
        mode,
        stream,
        stop_on: StopOn::Interrupt,
    };
    think_until(s, ctx, color, how)
}

/// How a move search runs, besides its colour (see [`think_until`]).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Thinking<'a> {
    /// How the move treats the end of the game.
    pub mode: Mode,
    /// Where snapshots go, as `info` lines of a streamed answer (see [`think`]).
    pub stream: Option<&'a Stream>,
    /// What cuts the search short besides the clock's watchdog.
    pub stop_on: StopOn,
}

/// [`think`] as `how` says: stopped by what `how.stop_on` says as well as by the
/// clock's watchdog.
pub(crate) fn think_until(
    s: &mut Session,
    ctx: &mut Ctx<'_>,
    color: Color,
    how: Thinking<'_>,
) -> Thought {
    let Thinking {
        mode,
        stream,
        stop_on,
    } = how;
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
        let req = SearchRequest::new(game, color, timer.limit, stop)
            .mode(mode)
            .avoiding(avoid)
            .report(report);
        engine.genmove(req)
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
    let line = malkovich_line(a, played, s.game.size());
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
        kgs_pass_second(s, color, &mut thought);
    }
    Ok(commit(s, color, &thought))
}

/// `--kgs`: KGS's bots pass second under area scoring, as Pachi's `--kgs` does (a
/// pass of ours then always ends the game, and the opponent's pass starts it). A pass
/// the search chose while the opponent's last move was not a pass becomes the
/// search's most visited legal move that is not a pass, if the search played any
/// (a move it never tried, such as filling an eye, is not played instead).
fn kgs_pass_second(s: &Session, color: Color, thought: &mut Thought) {
    if !s.options.kgs
        || thought.decision != Decision::Play(Move::Pass)
        || s.game.rules().scoring != Scoring::Area
        || s.game.last_move() == Some((color.opponent(), Move::Pass))
    {
        return;
    }
    let Some(a) = &thought.last else { return };
    let play = a
        .moves
        .iter()
        .filter(|m| m.mv != Move::Pass && m.visits > 0 && s.game.is_legal(color, m.mv))
        .max_by_key(|m| m.visits);
    if let Some(m) = play {
        thought.decision = Decision::Play(m.mv);
    }
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixtures::analysis;
    use tengen_board::BoardSize;
    use tengen_engine::{Line, MoveStat};

    #[test]
    fn kgs_passes_second_under_area_scoring_only() {
        use crate::session::SessionOptions;
        use tengen_board::Rules;
        let size = BoardSize::new(9).unwrap();
        let session = |kgs: bool, rules: Rules| {
            let options = SessionOptions {
                kgs,
                rules,
                size,
                quiet: true,
                ..SessionOptions::default()
            };
            Session::new(tengen_engine::Config::default(), options)
        };
        let pass = |a: &Analysis| Thought {
            decision: Decision::Play(Move::Pass),
            last: Some(a.clone()),
            elapsed: Duration::ZERO,
        };
        let mut a = analysis(size, false);
        a.moves.insert(
            0,
            MoveStat {
                mv: Move::Pass,
                visits: 250,
                wins: 175,
                winrate: 0.7,
                prior: 0.1,
                lcb: 0.6,
                score_lead: 4.0,
                score_stdev: 9.0,
                pv: Line::from_slice(&[Move::Pass]),
                pv_visits: Vec::new(),
                ownership: Vec::new(),
                neutral: Vec::new(),
            },
        );
        let e5 = Move::Play(size.parse_point("E5").unwrap());
        // The opponent has not passed: the most visited other move.
        let mut t = pass(&a);
        kgs_pass_second(&session(true, Rules::chinese()), Color::White, &mut t);
        assert_eq!(t.decision, Decision::Play(e5));
        // Without --kgs, under territory scoring, or after the opponent's pass: a pass.
        for (kgs, rules) in [(false, Rules::chinese()), (true, Rules::japanese())] {
            let mut t = pass(&a);
            kgs_pass_second(&session(kgs, rules), Color::White, &mut t);
            assert_eq!(t.decision, Decision::Play(Move::Pass));
        }
        let mut s = session(true, Rules::chinese());
        s.game.play(Color::Black, Move::Pass).unwrap();
        let mut t = pass(&a);
        kgs_pass_second(&s, Color::White, &mut t);
        assert_eq!(t.decision, Decision::Play(Move::Pass));
        // A move the search never tried is not played instead of its pass.
        let mut untried = a.clone();
        for m in untried.moves.iter_mut().filter(|m| m.mv != Move::Pass) {
            m.visits = 0;
        }
        let mut t = pass(&untried);
        kgs_pass_second(&session(true, Rules::chinese()), Color::White, &mut t);
        assert_eq!(t.decision, Decision::Play(Move::Pass));
    }
}
