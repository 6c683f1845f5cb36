//! A second opinion: any GTP engine as an [`Evaluator`], driven by Tengen's GTP client
//! (`tengen_arena::client`).
//!
//! For each position the engine is set up afresh (`boardsize`, `clear_board`, `komi`,
//! the black setup stones by `set_free_handicap`, then every move by `play`) and asked
//! for the side to move's win rate in the first way it offers:
//!
//! 1. **`pachi-result`** (Pachi): `genmove`, then `pachi-result`, which answers
//!    `color move playouts winrate dynkomi` about the search just made; the win rate is
//!    the root's, for `color`. Pachi keeps no result after it resigns, so its
//!    resignation is turned off first (`pachi-setoption resign_threshold=0`). Give Pachi its search size on its command line
//!    (`pachi -t =5000 threads=1`: 5 000 playouts a position). In games with dynamic
//!    komi (Pachi uses it in handicap games) that win rate is against the extra komi.
//! 2. **`lz-genmove_analyze`** (Leela Zero's extension, which Tengen, KataGo and
//!    Pachi answer), asked for a report every centisecond: the first
//!    `info move … winrate W` of the last report, `W` in ten-thousandths, is the
//!    preferred move's win rate for the side to move. A search shorter than the first
//!    report gives none, which is an error.
//!
//! An engine that offers neither is refused when it starts.
//!
//! A record GTP cannot set up is refused for the referee before anything is sent:
//! white setup stones (GTP places only black ones), or a single black setup stone
//! (`set_free_handicap` takes at least two; playing it as a black move instead would
//! give the engine a different history and, in some engines, a different move count
//! and handicap, so it is not done). The diagnosis then keeps Tengen's evaluation of
//! that game without the referee's.

use std::collections::HashSet;
use std::time::Duration;

use tengen_arena::client::GtpClient;
use tengen_board::{Color, Game};

use crate::error::DiagnoseError;
use crate::eval::{Evaluator, Judged};

/// How the referee is asked for a win rate.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Method {
    /// `genmove` then `pachi-result`.
    PachiResult,
    /// `lz-genmove_analyze`.
    LzGenmoveAnalyze,
}

/// A GTP engine evaluating positions.
#[derive(Debug)]
pub struct GtpReferee {
    client: GtpClient,
    method: Method,
    timeout: Duration,
    name: String,
}

impl GtpReferee {
    /// Starts `command` (split as a shell would, without one); every command, the
    /// search included, must be answered within `timeout`.
    pub fn start(command: &str, timeout: Duration) -> Result<GtpReferee, DiagnoseError> {
        let fail = |e: &dyn std::fmt::Display| DiagnoseError::Referee(format!("{command}: {e}"));
        let mut client = GtpClient::spawn(command, None).map_err(|e| fail(&e))?;
        client
            .handshake("protocol_version", timeout)
            .map_err(|e| fail(&e))?;
        let list = client
            .send_ok("list_commands", timeout)
            .map_err(|e| fail(&e))?;
        let known: HashSet<&str> = list.lines().map(str::trim).collect();
        let method = if known.contains("pachi-result") {
            Method::PachiResult
        } else if known.contains("lz-genmove_analyze") {
            Method::LzGenmoveAnalyze
        } else {
            return Err(fail(
                &"answers neither pachi-result nor lz-genmove_analyze: no win rate to read",
            ));
        };
        let name = client
            .send("name", timeout)
            .map(|r| r.text)
            .unwrap_or_default();
        let version = client
            .send("version", timeout)
            .map(|r| r.text)
            .unwrap_or_default();
        Ok(GtpReferee {
            client,
            method,
            timeout,
            name: format!("{name} {version}").trim().to_string(),
        })
    }

    /// The engine's `name` and `version`.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// How it is asked for a win rate.
    pub fn method(&self) -> Method {
        self.method
    }

    /// Whether the connection to the engine is broken (it exited, or a command failed
    /// or timed out): every later command would fail, so it must be restarted.
    pub fn is_broken(&self) -> bool {
        self.client.is_broken()
    }

    fn must(&mut self, command: &str) -> Result<String, DiagnoseError> {
        self.client
            .send_ok(command, self.timeout)
            .map_err(|e| DiagnoseError::Referee(e.to_string()))
    }

    /// Sets up `game`'s position on the engine.
    fn set_up(&mut self, game: &Game) -> Result<(), DiagnoseError> {
        let handicap = setup_command(game)?;
        let size = game.size();
        self.must(&format!("boardsize {size}"))?;
        self.must("clear_board")?;
        if self.method == Method::PachiResult {
            self.must("pachi-setoption resign_threshold=0")?;
        }
        self.must(&format!("komi {}", game.rules().komi()))?;
        if let Some(command) = handicap {
            self.must(&command)?;
        }
        for (c, m) in game.moves() {
            self.must(&format!("play {} {}", c.letter(), size.move_vertex(m)))?;
        }
        Ok(())
    }

    /// The side to move's win rate.
    fn winrate(&mut self, to_move: Color) -> Result<f64, DiagnoseError> {
        match self.method {
            Method::PachiResult => {
                self.must(&format!("genmove {}", to_move.letter()))?;
                let answer = self.must("pachi-result")?;
                parse_pachi_result(&answer, to_move)
            }
            Method::LzGenmoveAnalyze => {
                // A report every centisecond, so that a short search reports at least
                // once; only the last is read.
                let answer = self.must(&format!("lz-genmove_analyze {} 1", to_move.letter()))?;
                parse_lz_analyze(&answer)
            }
        }
    }
}

impl Evaluator for GtpReferee {
    fn evaluate(&mut self, game: &Game, side: Color) -> Result<Judged, DiagnoseError> {
        self.set_up(game)?;
        let to_move = game.to_move();
        let w = self.winrate(to_move)?;
        let winrate = if to_move == side { w } else { 1.0 - w };
        Ok(Judged {
            winrate,
            lead: None,
            ownership: None,
        })
    }
}

/// The GTP command placing `game`'s setup stones: none without any,
/// `set_free_handicap` with two or more black ones; an error for what GTP cannot
/// place (white stones, a single black stone).
pub fn setup_command(game: &Game) -> Result<Option<String>, DiagnoseError> {
    let setup = game.setup_stones();
    if setup.iter().any(|&(c, _)| c == Color::White) {
        return Err(DiagnoseError::Referee(
            "the record sets up white stones, which GTP cannot place".into(),
        ));
    }
    match setup.len() {
        0 => Ok(None),
        1 => Err(DiagnoseError::Referee(
            "the record sets up a single black stone; GTP's set_free_handicap places at least two"
                .into(),
        )),
        _ => {
            let size = game.size();
            let vertices: Vec<String> = setup
                .iter()
                .map(|&(_, p)| size.vertex(p).to_string())
                .collect();
            Ok(Some(format!("set_free_handicap {}", vertices.join(" "))))
        }
    }
}

/// Reads `pachi-result`'s `color move playouts winrate dynkomi` for `to_move`.
pub fn parse_pachi_result(answer: &str, to_move: Color) -> Result<f64, DiagnoseError> {
    let bad = || DiagnoseError::Referee(format!("pachi-result answered {answer:?}"));
    let fields: Vec<&str> = answer.split_whitespace().collect();
    if fields.len() < 4 {
        return Err(bad());
    }
    let color = match fields[0].to_ascii_lowercase().as_str() {
        "black" | "b" => Color::Black,
        "white" | "w" => Color::White,
        _ => return Err(bad()),
    };
    let w: f64 = fields[3].parse().map_err(|_| bad())?;
    if !(0.0..=1.0).contains(&w) {
        return Err(bad());
    }
    Ok(if color == to_move { w } else { 1.0 - w })
}

/// Reads the preferred move's win rate from `lz-genmove_analyze`'s answer: the last
/// line with `info`, its first `winrate` (in ten-thousandths).
pub fn parse_lz_analyze(answer: &str) -> Result<f64, DiagnoseError> {
    let bad = || DiagnoseError::Referee(format!("lz-genmove_analyze gave no win rate: {answer:?}"));
    let line = answer
        .lines()
        .rev()
        .find(|l| l.trim_start().starts_with("info"))
        .ok_or_else(bad)?;
    let mut words = line.split_whitespace();
    words.by_ref().find(|w| *w == "winrate").ok_or_else(bad)?;
    let w: f64 = words.next().and_then(|w| w.parse().ok()).ok_or_else(bad)?;
    let w = w / 10_000.0;
    if (0.0..=1.0).contains(&w) {
        Ok(w)
    } else {
        Err(bad())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pachis_result_is_read_for_the_side_asked() {
        assert_eq!(
            parse_pachi_result("black L4 577 0.51 7.5", Color::Black).unwrap(),
            0.51
        );
        let w = parse_pachi_result("white pass 5000 0.25 0.0", Color::Black).unwrap();
        assert!((w - 0.75).abs() < 1e-12);
        for bad in ["", "black L4 577", "green L4 1 0.5 0", "black L4 1 1.5 0"] {
            assert!(parse_pachi_result(bad, Color::Black).is_err(), "{bad}");
        }
    }

    #[test]
    fn an_lz_report_gives_its_best_moves_win_rate() {
        let answer = "info move D4 visits 10 winrate 4000 pv D4\n\
                      info move C3 visits 90 winrate 6123 prior 10 order 0 pv C3 D4 info move D4 visits 5 winrate 3000\n\
                      play C3";
        assert!((parse_lz_analyze(answer).unwrap() - 0.6123).abs() < 1e-12);
        assert!(parse_lz_analyze("play D4").is_err());
        assert!(parse_lz_analyze("info move D4 visits 1 winrate 12000").is_err());
    }

    #[test]
    fn setup_stones_are_placed_only_as_gtp_allows() {
        let setup = |sgf: &str| setup_command(&crate::MatchGame::parse("t", sgf).unwrap().game);
        assert_eq!(setup("(;SZ[9];B[ee];W[cc])").unwrap(), None);
        assert_eq!(
            setup("(;SZ[9]HA[2]AB[cc][gg];W[ee])").unwrap().as_deref(),
            Some("set_free_handicap C7 G3")
        );
        let one = setup("(;SZ[9]HA[1]AB[cc];W[ee])").unwrap_err();
        assert!(one.to_string().contains("a single black stone"), "{one}");
        let white = setup("(;SZ[9]AW[aa];B[ee])").unwrap_err();
        assert!(white.to_string().contains("white stones"), "{white}");
    }

    #[test]
    fn a_program_that_is_not_a_gtp_engine_is_refused() {
        let e = GtpReferee::start("/nonexistent/engine", Duration::from_secs(2)).unwrap_err();
        assert!(
            e.to_string()
                .starts_with("referee engine: /nonexistent/engine"),
            "{e}"
        );
    }
}
