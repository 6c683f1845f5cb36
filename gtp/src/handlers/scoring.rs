//! The end of the game: `final_score` and `final_status_list`, from the engine's
//! ownership playouts (dead stones, seki) and the rules' counting.

use tengen_board::{Bitboard, Point, Score};

use crate::args::Args;
use crate::error::{Answer, GtpError, quote};
use crate::session::{Ctx, Session};
use tengen_engine::{Judgement, Status, counts_board_as_it_stands};

/// The engine's judgement of the current position (status of every stone, ownership
/// of every point), computed once per position: GoGui asks for dead, alive and seki
/// stones, the score and the ownership in a row, and they must agree.
pub(crate) fn judgement(s: &mut Session) -> Judgement {
    // The rules are in the key: `komi` and `kgs-rules` change the judgement.
    let key = (
        s.game.board().hash(),
        s.game.move_count(),
        s.game.to_move(),
        *s.game.rules(),
    );
    if let Some((k, j)) = &s.status_cache {
        if *k == key {
            return j.clone();
        }
    }
    let j = s.engine.judge(&s.game);
    s.status_cache = Some((key, j.clone()));
    j
}

/// The status of every stone in the current position (from [`judgement`]).
pub(crate) fn status(s: &mut Session) -> Status {
    judgement(s).status
}

/// How [`score`] counted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Reckoning {
    /// The last move was a pass (the game ends at the next one, or has ended): the
    /// rules' count, dead stones removed, except under rules that count the board as
    /// it stands (area scoring without a friendly pass: Tromp-Taylor, CGOS, a KataGo
    /// rules object with area scoring and `friendlyPassOk` false, its default), where
    /// every stone on the board counts.
    Count,
    /// The game goes on: the judgement's estimate ([`Judgement::estimated_score`]),
    /// which agrees with the search where the count would give the whole board to
    /// whoever has stones on it.
    Estimate,
}

/// The score of the current position, as `final_score` answers it and GoGui's
/// ownership view shows it.
pub(crate) fn score(s: &mut Session) -> (Score, Reckoning) {
    let j = judgement(s);
    if s.game.consecutive_passes() > 0 {
        // Area scoring without a friendly pass (Tromp-Taylor, CGOS, a KataGo rules
        // object with area scoring and friendlyPassOk false) removes nothing: a dead
        // stone left standing counts for its owner, and the area it touches for
        // nobody, as CGOS's server counts it.
        let dead = if counts_board_as_it_stands(s.game.rules()) {
            Bitboard::EMPTY
        } else {
            j.status.dead
        };
        (s.game.score(&dead, &j.status.seki), Reckoning::Count)
    } else {
        (j.estimated_score(&s.game), Reckoning::Estimate)
    }
}

/// `final_score`: `B+3.5`, `W+0.5` or `0`. After a pass, the rules' count (what the
/// game scores if it ends now: dead stones removed, or, under area scoring without a
/// friendly pass (Tromp-Taylor, CGOS, a KataGo rules object with `friendlyPassOk`
/// false), every stone counted as it stands); GUIs also ask it during a game, and then it is
/// the judgement's estimate (see [`score`]).
pub(crate) fn final_score(s: &mut Session, a: &mut Args<'_>, _: &mut Ctx<'_>) -> Answer {
    a.end()?;
    let (score, _) = score(s);
    if !score.margin().is_finite() {
        return Err(GtpError::CannotScore);
    }
    Ok(score.result().to_string())
}

/// `final_status_list alive|dead|seki`: the stones with that status, one group a line.
pub(crate) fn final_status_list(s: &mut Session, a: &mut Args<'_>, _: &mut Ctx<'_>) -> Answer {
    let which = a.word("status")?;
    a.end()?;
    let pick: fn(&Status) -> &Bitboard = match which.to_ascii_lowercase().as_str() {
        "alive" => |st| &st.alive,
        "dead" => |st| &st.dead,
        "seki" => |st| &st.seki,
        _ => {
            return Err(GtpError::syntax(format!(
                "invalid status {} (alive, dead or seki)",
                quote(which)
            )));
        }
    };
    let st = status(s);
    Ok(groups(s, pick(&st)).join("\n"))
}

/// The stones of a set, one line per group, groups in board order from A1.
fn groups(s: &Session, set: &Bitboard) -> Vec<String> {
    let size = s.game.size();
    let board = s.game.board();
    let mut lines: Vec<(Point, Vec<String>)> = Vec::new();
    for p in size
        .points()
        .filter(|&p| set.contains(p) && board.color_at(p).is_some())
    {
        let root = board.group(p).unwrap_or(p);
        let v = size.vertex(p).to_string();
        match lines.iter_mut().find(|(r, _)| *r == root) {
            Some((_, stones)) => stones.push(v),
            None => lines.push((root, vec![v])),
        }
    }
    lines
        .into_iter()
        .map(|(_, stones)| stones.join(" "))
        .collect()
}

#[cfg(test)]
mod tests {
    use tengen_engine::Config;

    use crate::session::tests::{quiet_session, send};

    /// Black walls off columns A-C of a 5×5 board, White holds D-E, and a lone white
    /// stone stands dead at A3; Black passes. Chinese rules remove it (Black 15, White
    /// 10); Tromp-Taylor and CGOS count it: White 11, and A-C touch both colours, so
    /// Black has only its 5 stones.
    #[test]
    fn after_a_pass_cgos_and_tromp_taylor_count_every_stone() {
        for (rules, want) in [
            ("chinese", "= B+5\n\n"),
            ("cgos", "= W+6\n\n"),
            ("tromp-taylor", "= W+6\n\n"),
        ] {
            let config = Config {
                threads: 1,
                ..Config::default()
            };
            let mut s = quiet_session(5, config);
            assert_eq!(send(&mut s, &format!("kata-set-rules {rules}")), "=\n\n");
            send(&mut s, "komi 0");
            for v in ["C1", "C2", "C3", "C4", "C5"] {
                assert_eq!(send(&mut s, &format!("play b {v}")), "=\n\n");
            }
            for v in ["D1", "D2", "D3", "D4", "D5", "A3"] {
                assert_eq!(send(&mut s, &format!("play w {v}")), "=\n\n");
            }
            assert_eq!(
                send(&mut s, "final_status_list dead"),
                "= A3\n\n",
                "{rules}"
            );
            send(&mut s, "play b pass");
            assert_eq!(send(&mut s, "final_score"), want, "{rules}");
        }
    }
}
