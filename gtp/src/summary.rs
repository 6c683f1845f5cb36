//! Text for people rather than for a GUI's parser: the one-line summary of each move
//! on stderr.

use std::time::Duration;

use tengen_board::{BoardSize, Color};
use tengen_engine::Analysis;

/// The summary of a move: who played what in how long, then, from the search's last
/// snapshot, this search's own playouts, time and speed, how many playouts the reused
/// tree brought (when it brought any), the win rate and the best sequence:
/// `tengen: B E5 in 0.45 s, 1200 playouts in 0.40 s (3000/s), 2481 reused, win 45.0%,
/// pv E5 C3`.
pub(crate) fn move_summary(
    color: Color,
    word: &str,
    elapsed: Duration,
    last: Option<&Analysis>,
    size: BoardSize,
) -> String {
    let secs = elapsed.as_secs_f64();
    let mut line = format!("tengen: {} {word} in {secs:.2} s", color.letter());
    if let Some(a) = last {
        let searched = a.elapsed.as_secs_f64();
        let rate = a.playouts() as f64 / searched.max(1e-3);
        line += &format!(
            ", {} playouts in {searched:.2} s ({rate:.0}/s)",
            a.playouts()
        );
        if a.reused > 0 {
            line += &format!(", {} reused", a.reused);
        }
        line += &format!(", win {:.1}%", 100.0 * a.winrate);
        if let Some(best) = a.best() {
            let pv: Vec<String> = best
                .pv
                .iter()
                .take(10)
                .map(|&m| size.move_vertex(m).to_string())
                .collect();
            line += &format!(", pv {}", pv.join(" "));
        }
    }
    line
}

#[cfg(test)]
mod tests {
    use super::*;
    use tengen_board::Move;
    use tengen_engine::{Line, MoveStat};

    fn size() -> BoardSize {
        BoardSize::new(9).unwrap()
    }

    /// A snapshot for `color` after `elapsed`, `visits` of them `reused`, best move E5.
    fn snapshot(color: Color, visits: u64, reused: u64, elapsed: Duration) -> Analysis {
        let e5 = size().parse_move("E5").unwrap();
        let c3 = size().parse_move("C3").unwrap();
        Analysis {
            color,
            visits,
            reused,
            winrate: 0.45,
            score_lead: 3.5,
            moves: vec![MoveStat {
                mv: e5,
                visits,
                winrate: 0.45,
                prior: 1.0,
                lcb: 0.4,
                score_lead: 3.5,
                pv: Line::from_slice(&[e5, c3, Move::Pass]),
            }],
            ownership: Vec::new(),
            neutral: Vec::new(),
            elapsed,
        }
    }

    #[test]
    fn counts_only_this_moves_playouts_and_time() {
        let a = snapshot(Color::Black, 3681, 2481, Duration::from_millis(400));
        let line = move_summary(
            Color::Black,
            "E5",
            Duration::from_millis(450),
            Some(&a),
            size(),
        );
        assert!(
            line.contains("1200 playouts in 0.40 s (3000/s), 2481 reused"),
            "{line}"
        );
        assert!(line.starts_with("tengen: B E5 in 0.45 s"), "{line}");
        assert!(line.ends_with("pv E5 C3 pass"), "{line}");
    }

    #[test]
    fn a_search_without_reuse_says_nothing_of_it() {
        let a = snapshot(Color::White, 500, 0, Duration::from_millis(250));
        let line = move_summary(
            Color::White,
            "E5",
            Duration::from_millis(300),
            Some(&a),
            size(),
        );
        assert!(line.contains("500 playouts in 0.25 s (2000/s)"), "{line}");
        assert!(!line.contains("reused"), "{line}");
    }

    #[test]
    fn a_move_without_a_search_has_its_time_only() {
        let line = move_summary(Color::White, "pass", Duration::ZERO, None, size());
        assert_eq!(line, "tengen: W pass in 0.00 s");
    }
}
