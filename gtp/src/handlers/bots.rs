//! What bot servers and their bridges ask of an engine beyond plain GTP: CGOS's
//! `cgos-genmove_analyze` (one JSON line of the search that the CGOS viewer shows,
//! then `play <vertex>`), `cgos-opponent_name`, `cgos-opponent_rating` and
//! `cgos-gameover` (as zakki/cgos's `gtpengine.py` sends them). gtp2ogs's
//! `MALKOVICH:` line (`--ogs-pv`) is written by [`crate::summary::malkovich_line`],
//! and KGS's habit of passing second (`--kgs`) is [`crate::handlers::play`]'s.

use serde_json::{Value, json};
use tengen_board::BoardSize;
use tengen_engine::{Analysis, Mode};

use crate::args::Args;
use crate::error::Answer;
use crate::handlers::play::{commit, think};
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixtures::analysis;

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
}
