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
    let size = game.size();
    let rules = game.rules();
    let mut out = String::from("(;FF[4]GM[1]CA[UTF-8]");
    let _ = write!(out, "AP[Tengen:{}]", env!("CARGO_PKG_VERSION"));
    let _ = write!(out, "SZ[{size}]");
    let _ = write!(out, "KM[{}]", format_real(rules.komi()));
    let _ = write!(out, "RU[{}]", rules.sgf_name());
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
    if game.handicap() > 0 {
        let _ = write!(out, "HA[{}]", game.handicap());
    }
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
    let first = game.moves().next().map(|(c, _)| c);
    // Written after handicap too, where readers would infer it, as is customary.
    if game.start_to_move() != inferred_to_move(first, false) {
        let _ = write!(out, "PL[{}]", game.start_to_move().letter());
    }
    let comment_at = |k: usize| -> Option<String> {
        let texts: Vec<&str> = info
            .comments
            .iter()
            .filter(|(i, _)| *i == k)
            .map(|(_, t)| t.as_str())
            .collect();
        (!texts.is_empty()).then(|| escape(&texts.join("\n\n")))
    };
    let last = game.move_count();
    let late: Vec<&str> = info
        .comments
        .iter()
        .filter(|(i, _)| *i > last)
        .map(|(_, t)| t.as_str())
        .collect();
    let comments_for = |k: usize| -> Option<String> {
        let mut c = comment_at(k);
        if k == last && !late.is_empty() {
            // Comments numbered past the last move go on the last node.
            let extra = escape(&late.join("\n\n"));
            c = Some(match c {
                Some(t) => format!("{t}\n\n{extra}"),
                None => extra,
            });
        }
        c
    };
    if let Some(c) = comments_for(0) {
        let _ = write!(out, "C[{c}]");
    }
    for (k, (c, m)) in game.moves().enumerate() {
        out.push(if k % 10 == 0 { '\n' } else { ' ' });
        let coord = match m {
            Move::Pass => String::new(),
            Move::Play(p) => sgf_point(size, p),
        };
        let _ = write!(out, ";{}[{coord}]", c.letter());
        if let Some(text) = comments_for(k + 1) {
            let _ = write!(out, "C[{text}]");
        }
    }
    out.push_str(")\n");
    out
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
