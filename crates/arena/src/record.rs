//! One SGF file per game, written with [`tengen_board::sgf::write_sgf`]: players,
//! rules, komi, time, result, the reason, and each move's time as a comment.

use std::fs;
use std::path::Path;

use tengen_board::sgf::{GameInfo, write_sgf};

use crate::error::ArenaError;
use crate::game::Outcome;
use crate::timecontrol::TimeControl;

/// The SGF file name of game `game`.
pub fn sgf_name(game: u32) -> String {
    format!("game-{game:04}.sgf")
}

/// What the record says besides the moves.
#[derive(Clone, Debug)]
pub struct RecordInfo<'a> {
    /// The game number.
    pub game: u32,
    /// Black's label.
    pub black: &'a str,
    /// White's label.
    pub white: &'a str,
    /// The time control, if any.
    pub time: Option<&'a TimeControl>,
    /// The per-move limit used without a clock, seconds.
    pub move_timeout: f64,
    /// The opening's name, if any.
    pub opening: Option<&'a str>,
    /// The date (`YYYY-MM-DD`).
    pub date: Option<String>,
}

/// The SGF text of a finished game.
pub fn sgf_text(outcome: &Outcome, info: &RecordInfo<'_>) -> String {
    let game = outcome.referee.game();
    let mut comments = Vec::new();
    let mut root = vec![format!("tengen match, game {}", info.game)];
    match info.time {
        Some(tc) => root.push(format!(
            "time: {tc} ({} s main{})",
            tc.main().as_secs_f64(),
            tc.overtime()
                .map(|o| format!(", then {o}"))
                .unwrap_or_default()
        )),
        None => root.push(format!(
            "time: none, {} s per move at most",
            info.move_timeout
        )),
    }
    if let Some(o) = info.opening {
        root.push(format!("opening: {o}"));
    }
    comments.push((0, root.join("\n")));
    for (k, t) in outcome.referee.times().iter().enumerate() {
        let text = match t {
            Some(secs) => format!("{secs:.3} s"),
            None => "opening".to_string(),
        };
        comments.push((k + 1, text));
    }
    let mut end = format!("Result: {} ({})", outcome.result, outcome.reason);
    if !outcome.detail.is_empty() {
        end.push_str(": ");
        end.push_str(&outcome.detail);
    }
    if let Some(m) = outcome.method {
        end.push_str(&format!("\nScoring: {m}"));
    }
    comments.push((game.move_count().max(1), end));
    let gi = GameInfo {
        black: Some(info.black.to_string()),
        white: Some(info.white.to_string()),
        result: Some(outcome.result.to_string()),
        date: info.date.clone(),
        event: Some("tengen match".to_string()),
        comments,
        time_limit: info.time.map(|t| t.main().as_secs_f64()),
    };
    write_sgf(game, &gi)
}

/// Writes the SGF of a game to `dir/name` (through a temporary file and a rename, so a
/// crash never leaves half a record under the final name).
pub fn write_record(dir: &Path, name: &str, text: &str) -> Result<(), ArenaError> {
    let path = dir.join(name);
    let tmp = dir.join(format!(".{name}.tmp"));
    fs::write(&tmp, text).map_err(|e| ArenaError::io(&tmp, e))?;
    fs::rename(&tmp, &path).map_err(|e| ArenaError::io(&path, e))
}

/// Today's date as `YYYY-MM-DD` (UTC), from the system clock.
pub fn today() -> Option<String> {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .ok()?
        .as_secs();
    let days = (secs / 86_400) as i64;
    // Civil-from-days (H. Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = if m <= 2 { y + 1 } else { y };
    Some(format!("{y:04}-{m:02}-{d:02}"))
}
