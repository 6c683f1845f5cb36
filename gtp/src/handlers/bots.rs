//! What bot servers and their bridges ask of an engine beyond plain GTP: CGOS's
//! `cgos-genmove_analyze` (one JSON line of the search that the CGOS viewer shows,
//! then `play <vertex>`), `cgos-opponent_name`, `cgos-opponent_rating` and
//! `cgos-gameover` (as zakki/cgos's `gtpengine.py` sends them); gtp2ogs's
//! `MALKOVICH:` line on stderr (`--ogs-pv`); and KGS's habit of passing second
//! (`--kgs`).

use serde_json::{Value, json};
use tengen_board::{BoardSize, Color, Move, Scoring};
use tengen_engine::{Analysis, Decision, Mode, MoveStat};

use crate::args::Args;
use crate::error::Answer;
use crate::handlers::play::{Thought, commit, think};
use crate::session::{Ctx, Session};

/// Who the server says we play, kept across games (CGOS names the opponent before
/// `clear_board`) and reported when the game ends.
#[derive(Clone, Debug, Default)]
pub(crate) struct Opponent {
    /// `cgos-opponent_name`.
    name: Option<String>,
    /// `cgos-opponent_rating` (CGOS writes a rating such as `1800?`, or nothing).
    rating: Option<String>,
}

impl Opponent {
    fn describe(&self) -> String {
        let name = self.name.as_deref().unwrap_or("an unnamed opponent");
        match &self.rating {
            Some(r) => format!("{name} ({r})"),
            None => name.to_string(),
        }
    }
}

/// `cgos-opponent_name NAME`: who the next game is against (written on stderr, and
/// again with the result).
pub(crate) fn cgos_opponent_name(s: &mut Session, a: &mut Args<'_>, _: &mut Ctx<'_>) -> Answer {
    let name = a.word("opponent name")?;
    a.end()?;
    s.opponent.name = Some(name.to_string());
    s.opponent.rating = None;
    s.diag(&format!("tengen: CGOS opponent {name}"));
    Ok(String::new())
}

/// `cgos-opponent_rating [RATING]`: the opponent's rating as CGOS writes it
/// (`1800?`); CGOS's client sends the command with nothing when it knows none.
pub(crate) fn cgos_opponent_rating(s: &mut Session, a: &mut Args<'_>, _: &mut Ctx<'_>) -> Answer {
    let rating = a.rest().join(" ");
    s.opponent.rating = (!rating.is_empty()).then_some(rating);
    Ok(String::new())
}

/// `cgos-gameover RESULT`: the game's result as CGOS gives it (`B+6.5`, `W+Resign`,
/// `B+Time`, `WForfeit`, `Draw`). It is recorded for `printsgf` (`RE`) and written
/// on stderr; the board stays (CGOS starts the next game with `boardsize` and
/// `clear_board`).
pub(crate) fn cgos_gameover(s: &mut Session, a: &mut Args<'_>, _: &mut Ctx<'_>) -> Answer {
    let result = a.word("result")?;
    a.end()?;
    s.info.result = Some(result.to_string());
    let line = format!(
        "tengen: game over against {}: {result}",
        s.opponent.describe()
    );
    s.diag(&line);
    Ok(String::new())
}

/// `cgos-genmove_analyze COLOR`: plays a move as `genmove` does and answers, on lines
/// of their own, the search as CGOS's JSON (see [`cgos_json`]) and `play <vertex>`
/// (`play resign` when resigning).
pub(crate) fn cgos_genmove_analyze(s: &mut Session, a: &mut Args<'_>, ctx: &mut Ctx<'_>) -> Answer {
    let color = a.color()?;
    a.end()?;
    ctx.start_stream();
    let thought = think(s, ctx, color, Mode::Normal, None);
    if let Some(an) = &thought.last {
        ctx.stream_line(&cgos_json(an, s.game.size()).to_string());
    }
    let word = commit(s, color, &thought);
    Ok(format!("play {word}"))
}

/// The candidates CGOS's viewer lists at most.
const CGOS_MOVES: usize = 10;

/// A search as the CGOS viewer reads it (zakki/cgos `docs/gtp.md`): `winrate` and
/// `score` (the lead) for the side that searched, `visits`, and `moves`, the visited
/// candidates best first, each with `move`, `visits`, `winrate`, `score`, `prior` and
/// `pv` (the moves after it, space-separated); and `ownership` when the search
/// gathered it (late in the game, or after a pass): one character a point from the
/// top left, `A` the opponent's to `+` ours in CGOS's 63 steps.
pub(crate) fn cgos_json(a: &Analysis, size: BoardSize) -> Value {
    let moves: Vec<Value> = a
        .moves
        .iter()
        .filter(|m| m.visits > 0)
        .take(CGOS_MOVES)
        .map(|m| {
            let pv: Vec<String> =
                m.pv.iter()
                    .skip(1)
                    .map(|&mv| size.move_vertex(mv).to_string())
                    .collect();
            json!({
                "move": size.move_vertex(m.mv).to_string(),
                "visits": m.visits,
                "winrate": round(m.winrate),
                "score": round(m.score_lead),
                "prior": round(m.prior),
                "pv": pv.join(" "),
            })
        })
        .collect();
    let mut out = json!({
        "winrate": round(a.winrate),
        "score": round(a.score_lead),
        "visits": a.visits,
        "moves": moves,
    });
    if a.ownership.len() == size.area() {
        out["ownership"] = Value::String(a.ownership.iter().map(|&o| ownership_char(o)).collect());
    }
    out
}

/// Six decimals, as KataGo writes them (a shorter line, the same reading).
fn round(x: f64) -> f64 {
    (x * 1e6).round() / 1e6
}

/// CGOS's encoding of one point's ownership in [-1, 1]: `A` to `+` (its reference
/// encoder never reaches the 64th character, `/`).
fn ownership_char(o: f32) -> char {
    const CHARS: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let share = ((f64::from(o) + 1.0) / 2.0).clamp(0.0, 1.0);
    CHARS[(share * 62.0).round() as usize] as char
}

/// gtp2ogs's line for online-go.com's Malkovich log (what its `send_chats` forwards
/// to the game chat):
/// `MALKOVICH:Visits 1200 Winrate 55.23% ScoreLead 2.1 ScoreStdev 18.4 PV D4 Q16`, in
/// KataGo's words, order and decimals (the shape gtp2ogs's KataGo reader parses): the
/// mover's win rate and score lead, and the standard deviation of the final score,
/// over the playouts through the played move; the PV that move's. A move no playout
/// went through (the clean-up's pass, chosen after its search) gets the root's values,
/// as KataGo's line has, and a PV of itself alone.
pub(crate) fn malkovich_line(a: &Analysis, played: Move, size: BoardSize) -> String {
    let stat: Option<&MoveStat> = a
        .moves
        .iter()
        .find(|m| m.mv == played)
        .or_else(|| a.best())
        .filter(|m| m.visits > 0);
    let (winrate, lead, stdev) = stat.map_or((a.winrate, a.score_lead, a.score_stdev), |m| {
        (m.winrate, m.score_lead, m.score_stdev)
    });
    let pv: Vec<String> = match stat {
        Some(m) => {
            m.pv.iter()
                .map(|&mv| size.move_vertex(mv).to_string())
                .collect()
        }
        None => vec![size.move_vertex(played).to_string()],
    };
    format!(
        "MALKOVICH:Visits {} Winrate {:.2}% ScoreLead {:.1} ScoreStdev {:.1} PV {}",
        a.visits,
        100.0 * winrate,
        lead,
        stdev,
        pv.join(" ")
    )
}

/// `--kgs`: KGS's bots pass second under area scoring, as Pachi's `--kgs` does (a
/// pass of ours then always ends the game, and the opponent's pass starts it). A pass
/// the search chose while the opponent's last move was not a pass becomes the
/// search's most visited legal move that is not a pass, if the search played any
/// (a move it never tried, such as filling an eye, is not played instead).
pub(crate) fn kgs_pass_second(s: &Session, color: Color, thought: &mut Thought) {
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

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;
    use tengen_engine::Line;

    fn analysis(size: BoardSize, ownership: bool) -> Analysis {
        let p = |v: &str| Move::Play(size.parse_point(v).unwrap());
        Analysis {
            color: Color::White,
            visits: 300,
            reused: 0,
            winrate: 0.61,
            score_lead: 3.25,
            score_stdev: 11.0,
            moves: vec![
                MoveStat {
                    mv: p("E5"),
                    visits: 200,
                    winrate: 0.62,
                    prior: 0.3,
                    lcb: 0.6,
                    score_lead: 3.5,
                    score_stdev: 10.5,
                    pv: Line::from_slice(&[p("E5"), p("C3"), Move::Pass]),
                    pv_visits: Vec::new(),
                    ownership: Vec::new(),
                    neutral: Vec::new(),
                },
                MoveStat {
                    mv: p("C3"),
                    visits: 0,
                    winrate: 0.5,
                    prior: 0.2,
                    lcb: 0.0,
                    score_lead: 0.0,
                    score_stdev: 0.0,
                    pv: Line::from_slice(&[p("C3")]),
                    pv_visits: Vec::new(),
                    ownership: Vec::new(),
                    neutral: Vec::new(),
                },
            ],
            ownership: if ownership {
                vec![1.0; size.area()]
            } else {
                Vec::new()
            },
            neutral: Vec::new(),
            elapsed: Duration::from_millis(100),
            tree_bytes: 0,
            tree_compactions: 0,
        }
    }

    #[test]
    fn the_json_has_cgos_keys_and_the_moves_after_each_candidate() {
        let size = BoardSize::new(9).unwrap();
        let j = cgos_json(&analysis(size, false), size);
        assert_eq!(j["winrate"], json!(0.61));
        assert_eq!(j["score"], json!(3.25));
        assert_eq!(j["visits"], json!(300));
        let moves = j["moves"].as_array().unwrap();
        assert_eq!(moves.len(), 1, "unvisited candidates are left out");
        assert_eq!(moves[0]["move"], json!("E5"));
        assert_eq!(moves[0]["pv"], json!("C3 pass"));
        assert!(j.get("ownership").is_none());
        let j = cgos_json(&analysis(size, true), size);
        assert_eq!(j["ownership"], json!("+".repeat(81)));
    }

    #[test]
    fn ownership_takes_cgos_steps() {
        assert_eq!(ownership_char(-1.0), 'A');
        assert_eq!(ownership_char(0.0), 'f');
        assert_eq!(ownership_char(1.0), '+');
        assert_eq!(ownership_char(7.0), '+');
    }

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

    #[test]
    fn the_malkovich_line_reads_as_gtp2ogs_forwards_it() {
        let size = BoardSize::new(9).unwrap();
        let a = analysis(size, false);
        let e5 = Move::Play(size.parse_point("E5").unwrap());
        assert_eq!(
            malkovich_line(&a, e5, size),
            "MALKOVICH:Visits 300 Winrate 62.00% ScoreLead 3.5 ScoreStdev 10.5 PV E5 C3 pass"
        );
        // No candidate at all: the root's values.
        let mut bare = a.clone();
        bare.moves.clear();
        bare.score_lead = -2.0;
        let d4 = Move::Play(size.parse_point("D4").unwrap());
        assert_eq!(
            malkovich_line(&bare, d4, size),
            "MALKOVICH:Visits 300 Winrate 61.00% ScoreLead -2.0 ScoreStdev 11.0 PV D4"
        );
        // A candidate no playout went through: the root's values too, not its zeros.
        let mut untried = a.clone();
        untried.score_lead = -2.0;
        for m in untried.moves.iter_mut() {
            m.visits = 0;
            m.winrate = 0.0;
            m.score_lead = 0.0;
            m.score_stdev = 0.0;
        }
        assert_eq!(
            malkovich_line(&untried, e5, size),
            "MALKOVICH:Visits 300 Winrate 61.00% ScoreLead -2.0 ScoreStdev 11.0 PV E5"
        );
    }
}
