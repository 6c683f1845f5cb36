//! Writing a [`Game`] as an SGF record.

use std::fmt::Write as _;

use super::{GameInfo, inferred_to_move};
use crate::color::Color;
use crate::game::Game;
use crate::point::{BoardSize, Move, Point};

/// Writes a game as an `FF[4]` record: root properties (`SZ`, `KM`, `RU`, `HA`, setup
/// stones, `PL` where a reader could not infer it, the game info present in `info`),
/// then the moves, each with its comments from `info.comments`.
pub fn write_sgf(game: &Game, info: &GameInfo) -> String {
    let mut out = String::from("(;FF[4]GM[1]CA[UTF-8]");
    write_root_properties(&mut out, game, info);
    if let Some(c) = node_comment(info, 0, game.move_count()) {
        let _ = write!(out, "C[{c}]");
    }
    write_moves(&mut out, game, info);
    out.push_str(")\n");
    out
}

/// The root node's properties after the format's: the application, the size, komi
/// and rules, the game info, the handicap, the setup stones, and `PL` where a reader
/// could not infer who moves first.
fn write_root_properties(out: &mut String, game: &Game, info: &GameInfo) {
    let rules = game.rules();
    let _ = write!(out, "AP[Tengen:{}]", env!("CARGO_PKG_VERSION"));
    let _ = write!(out, "SZ[{}]", game.size());
    let _ = write!(out, "KM[{}]", format_real(rules.komi()));
    let _ = write!(out, "RU[{}]", rules.sgf_name());
    write_game_info(out, info);
    if game.handicap() > 0 {
        let _ = write!(out, "HA[{}]", game.handicap());
    }
    write_setup_stones(out, game);
    let first = game.moves().next().map(|(c, _)| c);
    // Written after handicap too, where readers would infer it, as is customary.
    if game.start_to_move() != inferred_to_move(first, false) {
        let _ = write!(out, "PL[{}]", game.start_to_move().letter());
    }
}

/// The players, result, date, event and time limit that `info` has.
fn write_game_info(out: &mut String, info: &GameInfo) {
    for (key, value) in [
        ("PB", &info.black),
        ("PW", &info.white),
        ("RE", &info.result),
        ("DT", &info.date),
        ("EV", &info.event),
    ] {
        if let Some(v) = value {
            let _ = write!(out, "{key}[{}]", escape(v));
        }
    }
    if let Some(t) = info.time_limit.filter(|t| t.is_finite()) {
        let _ = write!(out, "TM[{}]", format_real(t));
    }
}

/// The stones on the board before the first move, `AB` then `AW`.
fn write_setup_stones(out: &mut String, game: &Game) {
    let size = game.size();
    let start = game.start_board();
    for (c, key) in [(Color::Black, "AB"), (Color::White, "AW")] {
        let stones: Vec<Point> = start.stones(c).iter().collect();
        if !stones.is_empty() {
            out.push_str(key);
            for p in stones {
                let _ = write!(out, "[{}]", sgf_point(size, p));
            }
        }
    }
}

/// The moves, a node each (ten to a line), each with its comment.
fn write_moves(out: &mut String, game: &Game, info: &GameInfo) {
    let size = game.size();
    let last = game.move_count();
    for (k, (c, m)) in game.moves().enumerate() {
        out.push(if k % 10 == 0 { '\n' } else { ' ' });
        let coord = match m {
            Move::Pass => String::new(),
            Move::Play(p) => sgf_point(size, p),
        };
        let _ = write!(out, ";{}[{coord}]", c.letter());
        if let Some(text) = node_comment(info, k + 1, last) {
            let _ = write!(out, "C[{text}]");
        }
    }
}

/// The escaped comment of the node after `k` moves of a game of `last` moves: the
/// comments numbered `k`, a blank line between them; the last node also takes those
/// numbered past the last move.
fn node_comment(info: &GameInfo, k: usize, last: usize) -> Option<String> {
    let own = joined_comments(info, |i| i == k);
    if k != last {
        return own;
    }
    match (own, joined_comments(info, |i| i > last)) {
        (Some(t), Some(extra)) => Some(format!("{t}\n\n{extra}")),
        (own, extra) => own.or(extra),
    }
}

/// The comments of `info` whose move number `keep` takes, a blank line between them,
/// escaped; none where there is none.
fn joined_comments(info: &GameInfo, keep: impl Fn(usize) -> bool) -> Option<String> {
    let texts: Vec<&str> = info
        .comments
        .iter()
        .filter(|(i, _)| keep(*i))
        .map(|(_, t)| t.as_str())
        .collect();
    (!texts.is_empty()).then(|| escape(&texts.join("\n\n")))
}

/// A number without a useless fraction: `7.5`, `6`, `-0.5`.
fn format_real(x: f64) -> String {
    if x == x.trunc() && x.abs() < 1e15 {
        format!("{}", x as i64)
    } else {
        format!("{x}")
    }
}

/// Escapes `\` and `]` for an SGF text value.
fn escape(text: &str) -> String {
    let mut s = String::with_capacity(text.len());
    for ch in text.chars() {
        if ch == '\\' || ch == ']' {
            s.push('\\');
        }
        s.push(ch);
    }
    s
}

/// The SGF letters of a point: column from the left, row from the top.
fn sgf_point(size: BoardSize, p: Point) -> String {
    let (x, y) = size.coords(p);
    let row = size.get() - 1 - y;
    let letter = |i: usize| (b'a' + i as u8) as char;
    format!("{}{}", letter(x), letter(row))
}
