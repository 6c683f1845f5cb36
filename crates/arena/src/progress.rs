//! What a running match shows on stderr.
//!
//! On a terminal: a line for each finished game, which stays on screen, above a live
//! line for each game being played (moves so far, whose turn) and the bar of games
//! done. When stderr is not a terminal: only the finished games' lines, plain text. With
//! `-q` ([`crate::MatchConfig::progress`] off): nothing.

use std::collections::HashMap;
use std::time::Duration;

use indicatif::{MultiProgress, ProgressBar, ProgressDrawTarget, ProgressStyle};
use tengen_board::Color;

use crate::journal::Entry;
use crate::summary::Summary;

/// What a game in play reports to the display.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    /// The game's engines are starting.
    Started {
        /// The game number.
        game: u32,
        /// Black's engine label.
        black: String,
        /// White's engine label.
        white: String,
    },
    /// The referee accepted a move.
    Moved {
        /// The game number.
        game: u32,
        /// Moves played so far (passes and opening moves included).
        moves: u32,
        /// The side to move next.
        to_move: Color,
    },
}

/// The live line of a game in play.
#[derive(Debug)]
struct Live {
    bar: ProgressBar,
    players: String,
}

/// How progress is shown.
#[derive(Debug)]
enum View {
    /// `-q`: nothing.
    Quiet,
    /// stderr is not a terminal: one plain line per finished game.
    Lines,
    /// A terminal: finished games' lines above the live lines and the bar.
    Bars {
        multi: MultiProgress,
        total: ProgressBar,
        games: HashMap<u32, Live>,
    },
}

/// The match's progress display.
#[derive(Debug)]
pub struct Progress {
    view: View,
    planned: u32,
    /// The engine whose side the standing is told from (an index in the labels).
    focus: usize,
}

impl Progress {
    /// A display for `planned` games of which `done` are already recorded; `enabled`
    /// is false under `-q`.
    pub fn new(enabled: bool, planned: u32, done: u32) -> Progress {
        Progress::with_target(enabled, planned, done, ProgressDrawTarget::stderr())
    }

    /// The same display with the standing told from the side of engine `focus` (an
    /// index in the labels [`Progress::finished`] is given; the first by default).
    pub fn with_focus(mut self, focus: usize) -> Progress {
        self.focus = focus;
        self
    }

    fn with_target(enabled: bool, planned: u32, done: u32, target: ProgressDrawTarget) -> Progress {
        let view = if !enabled {
            View::Quiet
        } else if target.is_hidden() {
            View::Lines
        } else {
            let multi = MultiProgress::with_draw_target(target);
            let total = multi.add(ProgressBar::new(u64::from(planned)));
            total.set_position(u64::from(done));
            if let Ok(style) = ProgressStyle::with_template(
                "{bar:30} {pos}/{len} games  {msg}  [{elapsed_precise}]",
            ) {
                total.set_style(style);
            }
            total.enable_steady_tick(Duration::from_secs(1));
            View::Bars {
                multi,
                total,
                games: HashMap::new(),
            }
        };
        Progress {
            view,
            planned,
            focus: 0,
        }
    }

    /// Shows what a game in play reported.
    pub fn event(&mut self, event: Event) {
        let View::Bars {
            multi,
            total,
            games,
        } = &mut self.view
        else {
            return;
        };
        match event {
            Event::Started { game, black, white } => {
                let bar = multi.insert_before(total, ProgressBar::new_spinner());
                if let Ok(style) = ProgressStyle::with_template("  {prefix}  {msg}") {
                    bar.set_style(style);
                }
                let players = format!("{black} (B) vs {white} (W)");
                bar.set_prefix(format!("game {game}"));
                bar.set_message(format!("{players}: starting the engines"));
                games.insert(game, Live { bar, players });
            }
            Event::Moved {
                game,
                moves,
                to_move,
            } => {
                if let Some(live) = games.get(&game) {
                    live.bar.set_message(format!(
                        "{}: {}",
                        live.players,
                        live_text(moves, to_move)
                    ));
                }
            }
        }
    }

    /// Shows a finished game (`all` includes it) and the score so far.
    pub fn finished(&mut self, entry: &Entry, labels: &[String], all: &[Entry]) {
        if matches!(self.view, View::Quiet) {
            return;
        }
        let standing = standing_for(labels, all, self.focus);
        let line = finished_line(entry, all.len(), self.planned, &standing);
        match &mut self.view {
            View::Quiet => {}
            View::Lines => eprintln!("{line}"),
            View::Bars {
                multi,
                total,
                games,
            } => {
                if let Some(live) = games.remove(&entry.game) {
                    live.bar.finish_and_clear();
                    multi.remove(&live.bar);
                }
                // The count first, then the message, whose setting redraws the bar
                // (`inc` alone may skip its redraw), so that the line printed below
                // comes with the bar counting this game.
                total.inc(1);
                total.set_message(standing);
                // Printed above the bars, where it stays; if the terminal is gone,
                // the bars are gone with it.
                let _ = multi.println(&line);
            }
        }
    }

    /// Clears the live lines and leaves the bar drawn as it ends (every game counted,
    /// the score and the time taken) under the finished games' lines.
    pub fn finish(&mut self) {
        if let View::Bars {
            multi,
            total,
            games,
        } = &mut self.view
        {
            for (_, live) in games.drain() {
                live.bar.finish_and_clear();
                multi.remove(&live.bar);
            }
            // Drawn now, whatever the refresh rate skipped since the last game.
            total.finish();
        }
    }
}

/// A live game's state: `move 42, White to play`.
pub fn live_text(moves: u32, to_move: Color) -> String {
    let side = match to_move {
        Color::Black => "Black",
        Color::White => "White",
    };
    format!("move {moves}, {side} to play")
}

/// The score so far: `A 3-1 B (0 drawn)` for two engines, wins each for more.
pub fn standing(labels: &[String], all: &[Entry]) -> String {
    standing_for(labels, all, 0)
}

/// The score so far from the side of engine `focus`: `B 1-3 A (0 drawn)` for two
/// engines with the second as the focus, wins each for more.
pub fn standing_for(labels: &[String], all: &[Entry], focus: usize) -> String {
    let s = Summary::build_for(labels, all, None, focus);
    if s.engines.len() == 2 {
        let (me, other) = (s.focus, 1 - s.focus);
        let w = s.pair_wdl(me, other);
        format!(
            "{} {}-{} {} ({} drawn)",
            s.engines[me].label, w.wins, w.losses, s.engines[other].label, w.draws
        )
    } else {
        let parts: Vec<String> = s
            .engines
            .iter()
            .map(|e| format!("{} {}", e.label, e.total.wins))
            .collect();
        parts.join(", ")
    }
}

/// The line of a finished game, the `done`-th of `planned`:
/// `[2/4] game 3: A (B) vs B (W): B+R (resign: White resigned) | A 2-0 B (0 drawn)`.
pub fn finished_line(entry: &Entry, done: usize, planned: u32, standing: &str) -> String {
    let detail = if entry.detail.is_empty() {
        String::new()
    } else {
        format!(": {}", entry.detail)
    };
    format!(
        "[{done}/{planned}] game {}: {} (B) vs {} (W): {} ({}{detail}), {} moves | {standing}",
        entry.game, entry.black, entry.white, entry.result, entry.reason, entry.moves,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(game: u32, winner: &str, result: &str, detail: &str) -> Entry {
        Entry {
            result: result.into(),
            detail: detail.into(),
            moves: 57,
            white_time: 1.0,
            black_moves: 29,
            white_moves: 28,
            ..Entry::resigned(game, "Alpha", "Beta", Some(winner))
        }
    }

    #[test]
    fn a_finished_game_line_names_the_game_result_and_standing() {
        let labels = vec!["Alpha".to_string(), "Beta".to_string()];
        let first = entry(3, "B", "B+R", "White resigned");
        let second = entry(1, "W", "W+R", "");
        let all = vec![first.clone(), second.clone()];
        let standing = standing(&labels, &all);
        assert_eq!(standing, "Alpha 1-1 Beta (0 drawn)");
        assert_eq!(
            finished_line(&first, 1, 4, &standing),
            "[1/4] game 3: Alpha (B) vs Beta (W): B+R (resign: White resigned), 57 moves \
             | Alpha 1-1 Beta (0 drawn)"
        );
        assert_eq!(
            finished_line(&second, 2, 4, "x"),
            "[2/4] game 1: Alpha (B) vs Beta (W): W+R (resign), 57 moves | x"
        );
    }

    #[test]
    fn a_live_game_shows_the_moves_and_whose_turn() {
        assert_eq!(live_text(0, Color::Black), "move 0, Black to play");
        assert_eq!(live_text(42, Color::White), "move 42, White to play");
    }

    #[test]
    fn without_a_terminal_or_with_quiet_nothing_is_drawn_live() {
        let plain = Progress::with_target(true, 4, 0, ProgressDrawTarget::hidden());
        assert!(matches!(plain.view, View::Lines));
        let quiet = Progress::with_target(false, 4, 0, ProgressDrawTarget::hidden());
        assert!(matches!(quiet.view, View::Quiet));
    }

    /// A terminal that keeps what is written to it.
    #[derive(Clone, Debug, Default)]
    struct Screen(std::sync::Arc<std::sync::Mutex<String>>);

    impl Screen {
        fn text(&self) -> String {
            self.0.lock().unwrap().clone()
        }
    }

    impl indicatif::TermLike for Screen {
        fn width(&self) -> u16 {
            120
        }
        fn move_cursor_up(&self, _: usize) -> std::io::Result<()> {
            Ok(())
        }
        fn move_cursor_down(&self, _: usize) -> std::io::Result<()> {
            Ok(())
        }
        fn move_cursor_right(&self, _: usize) -> std::io::Result<()> {
            Ok(())
        }
        fn move_cursor_left(&self, _: usize) -> std::io::Result<()> {
            Ok(())
        }
        fn write_line(&self, s: &str) -> std::io::Result<()> {
            self.0.lock().unwrap().push_str(&format!("{s}\n"));
            Ok(())
        }
        fn write_str(&self, s: &str) -> std::io::Result<()> {
            self.0.lock().unwrap().push_str(s);
            Ok(())
        }
        fn clear_line(&self) -> std::io::Result<()> {
            Ok(())
        }
        fn flush(&self) -> std::io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn live_lines_come_and_go_with_their_games_and_finished_lines_are_printed() {
        let screen = Screen::default();
        let target = ProgressDrawTarget::term_like(Box::new(screen.clone()));
        let mut p = Progress::with_target(true, 2, 0, target);
        assert!(matches!(p.view, View::Bars { .. }));
        p.event(Event::Started {
            game: 1,
            black: "Alpha".into(),
            white: "Beta".into(),
        });
        p.event(Event::Moved {
            game: 1,
            moves: 7,
            to_move: Color::White,
        });
        let View::Bars { games, total, .. } = &p.view else {
            unreachable!()
        };
        assert_eq!(
            games[&1].bar.message(),
            "Alpha (B) vs Beta (W): move 7, White to play"
        );
        assert_eq!(total.position(), 0);
        let e = entry(1, "B", "B+R", "");
        p.finished(
            &e,
            &["Alpha".into(), "Beta".into()],
            std::slice::from_ref(&e),
        );
        let View::Bars { games, total, .. } = &p.view else {
            unreachable!()
        };
        assert!(games.is_empty());
        assert_eq!(total.position(), 1);
        p.finish();
        let text = screen.text();
        assert!(
            text.contains("[1/2] game 1: Alpha (B) vs Beta (W): B+R"),
            "{text}"
        );
    }

    /// The count the last frame of the bar shows: `N/M` before its last ` games`.
    fn last_count(text: &str) -> &str {
        let end = text.rfind(" games").expect("a frame of the bar");
        let start = text[..end].rfind(' ').map_or(0, |i| i + 1);
        &text[start..end]
    }

    #[test]
    fn the_last_frame_of_the_bar_counts_every_game() {
        let screen = Screen::default();
        let target = ProgressDrawTarget::term_like(Box::new(screen.clone()));
        let mut p = Progress::with_target(true, 4, 0, target);
        let labels = ["Alpha".to_string(), "Beta".to_string()];
        let mut all = Vec::new();
        for game in 1..=4 {
            p.event(Event::Started {
                game,
                black: "Alpha".into(),
                white: "Beta".into(),
            });
            all.push(entry(game, "B", "B+R", ""));
            p.finished(&all[all.len() - 1], &labels, &all);
            // Each game's line is drawn with the bar counting it.
            assert_eq!(last_count(&screen.text()), format!("{game}/4"));
        }
        p.finish();
        let text = screen.text();
        assert_eq!(last_count(&text), "4/4", "{text}");
    }
}
