//! Text for people rather than for a GUI's parser: the one-line summary of each move
//! on stderr, gtp2ogs's `MALKOVICH:` line, and the win-rate line of GoGui's analyze
//! commands.

use std::fmt::Write as _;
use std::time::Duration;

use tengen_board::{BoardSize, Color, Move, counted};
use tengen_engine::{Analysis, MoveStat};

/// The summary of a move: who played what in how long, then, from the search's last
/// snapshot, this search's own playouts, time and speed, how many playouts the reused
/// tree brought (when it brought any), the tree's memory, the win rate, the score
/// lead (from Black's side, see [`lead_text`]) and the best sequence: `tengen: B E5
/// in 0.450 s, 1200 playouts in 0.400 s (3000/s), 2481 reused, tree 1.2 MiB, win
/// 45.0%, score W+3.5, pv E5 C3`. Times have milliseconds, so a match's engine logs
/// show the lag beside the referee's times.
pub(crate) fn move_summary(
    color: Color,
    word: &str,
    elapsed: Duration,
    last: Option<&Analysis>,
    size: BoardSize,
) -> String {
    let secs = elapsed.as_secs_f64();
    let mut line = format!("tengen: {} {word} in {secs:.3} s", color.letter());
    if let Some(a) = last {
        let searched = a.elapsed.as_secs_f64();
        let rate = a.playouts() as f64 / searched.max(1e-3);
        line += &format!(
            ", {} in {searched:.3} s ({rate:.0}/s)",
            playouts(a.playouts())
        );
        if a.reused > 0 {
            line += &format!(", {} reused", a.reused);
        }
        line += &format!(", tree {:.1} MiB", a.tree_bytes as f64 / f64::from(1 << 20));
        line += &format!(
            ", win {:.1}%, score {}",
            100.0 * a.winrate,
            lead_text(a.black_lead())
        );
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

/// The line after pondering: this search's own playouts and time, as in
/// [`move_summary`] (the reused ones are not counted again).
pub(crate) fn ponder_summary(a: &Analysis) -> String {
    format!(
        "tengen: pondered {} in {:.2} s",
        playouts(a.playouts()),
        a.elapsed.as_secs_f64()
    )
}

/// The win-rate line of GoGui's status bar (`tengen-winrate`, the `TEXT` of the gfx
/// commands): who searched, the win rate, playouts, the score lead (from Black's side,
/// see [`lead_text`]), the best move.
pub(crate) fn win_rate_text(an: &Analysis, size: BoardSize) -> String {
    let who = if an.color == Color::Black {
        "Black"
    } else {
        "White"
    };
    let mut t = format!(
        "{who} wins {:.1}% ({}, score {})",
        100.0 * an.winrate,
        playouts(an.visits),
        lead_text(an.black_lead())
    );
    if let Some(best) = an.best() {
        let _ = write!(t, ", best {}", size.move_vertex(best.mv));
    }
    t
}

/// `1 playout`, `2 playouts`.
fn playouts(n: u64) -> String {
    counted(n, "playout", "playouts")
}

/// A score lead from Black's side as people read it, saying whose it is: `B+2.5`,
/// `W+0.5`, or `0` when it rounds to nothing (one decimal).
pub(crate) fn lead_text(black_lead: f64) -> String {
    let tenths = (black_lead * 10.0).round();
    if !tenths.is_finite() || tenths == 0.0 {
        "0".to_string()
    } else if tenths > 0.0 {
        format!("B+{:.1}", tenths / 10.0)
    } else {
        format!("W+{:.1}", -tenths / 10.0)
    }
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixtures::analysis;
    use tengen_engine::Line;

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
            score_stdev: 12.0,
            moves: vec![MoveStat {
                mv: e5,
                visits,
                wins: visits * 9 / 20,
                winrate: 0.45,
                prior: 1.0,
                lcb: 0.4,
                score_lead: 3.5,
                score_stdev: 12.0,
                pv: Line::from_slice(&[e5, c3, Move::Pass]),
                pv_visits: vec![visits, visits / 2, 1],
                ownership: Vec::new(),
                neutral: Vec::new(),
            }],
            ownership: Vec::new(),
            neutral: Vec::new(),
            elapsed,
            tree_bytes: 3 << 19,
            tree_compactions: 0,
        }
    }

    /// The summary of `color`'s move E5, played after `move_ms`, of a search that
    /// ran `search_ms` and holds `visits` playouts, `reused` of them from before.
    fn e5_summary(color: Color, visits: u64, reused: u64, search_ms: u64, move_ms: u64) -> String {
        let a = snapshot(color, visits, reused, Duration::from_millis(search_ms));
        let took = Duration::from_millis(move_ms);
        move_summary(color, "E5", took, Some(&a), size())
    }

    #[test]
    fn counts_only_this_moves_playouts_and_time() {
        let line = e5_summary(Color::Black, 3681, 2481, 400, 450);
        assert!(
            line.contains("1200 playouts in 0.400 s (3000/s), 2481 reused"),
            "{line}"
        );
        assert!(line.starts_with("tengen: B E5 in 0.450 s"), "{line}");
        assert!(line.ends_with("pv E5 C3 pass"), "{line}");
    }

    #[test]
    fn a_search_without_reuse_says_nothing_of_it() {
        let line = e5_summary(Color::White, 500, 0, 250, 300);
        assert!(line.contains("500 playouts in 0.250 s (2000/s)"), "{line}");
        assert!(!line.contains("reused"), "{line}");
    }

    /// The same position searched by Black and by White: Black is 3.5 points behind.
    fn both_views() -> [Analysis; 2] {
        let mut black = snapshot(Color::Black, 500, 0, Duration::from_millis(250));
        black.score_lead = -3.5;
        black.moves[0].score_lead = -3.5;
        let mut white = snapshot(Color::White, 500, 0, Duration::from_millis(250));
        white.score_lead = 3.5;
        white.moves[0].score_lead = 3.5;
        [black, white]
    }

    #[test]
    fn the_win_rate_line_says_whose_lead_whoever_searched() {
        for an in both_views() {
            let t = win_rate_text(&an, size());
            assert!(t.contains("score W+3.5"), "{t}");
        }
        let [black, _] = both_views();
        let t = win_rate_text(&black, size());
        assert_eq!(t, "Black wins 45.0% (500 playouts, score W+3.5), best E5");
    }

    #[test]
    fn the_move_summary_says_whose_lead_whoever_searched() {
        for an in both_views() {
            let line = move_summary(an.color, "E5", Duration::ZERO, Some(&an), size());
            assert!(line.contains(", score W+3.5,"), "{line}");
        }
    }

    #[test]
    fn a_lead_reads_from_blacks_side() {
        assert_eq!(lead_text(2.25), "B+2.3");
        assert_eq!(lead_text(-0.5), "W+0.5");
        assert_eq!(lead_text(0.04), "0");
        assert_eq!(lead_text(-0.0), "0");
        assert_eq!(lead_text(f64::NAN), "0");
    }

    #[test]
    fn one_playout_is_one_playout() {
        let a = snapshot(Color::White, 2482, 2481, Duration::from_millis(400));
        assert_eq!(ponder_summary(&a), "tengen: pondered 1 playout in 0.40 s");
        let line = e5_summary(Color::Black, 1, 0, 1, 1);
        assert!(line.contains(", 1 playout in 0.001 s"), "{line}");
        assert!(win_rate_text(&a, size()).contains("(2482 playouts, "));
        let one = snapshot(Color::Black, 1, 0, Duration::from_millis(1));
        assert!(win_rate_text(&one, size()).contains("(1 playout, "));
    }

    #[test]
    fn pondering_counts_only_its_own_playouts() {
        let a = snapshot(Color::White, 3681, 2481, Duration::from_millis(400));
        assert_eq!(
            ponder_summary(&a),
            "tengen: pondered 1200 playouts in 0.40 s"
        );
    }

    #[test]
    fn a_move_without_a_search_has_its_time_only() {
        let line = move_summary(Color::White, "pass", Duration::ZERO, None, size());
        assert_eq!(line, "tengen: W pass in 0.000 s");
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
