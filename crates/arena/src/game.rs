//! Plays one game between two engines to its end, under the referee's eye.

use std::time::{Duration, Instant};

use tengen_board::{Bitboard, BoardSize, ByColor, Color, Game, GameResult, Move, Rules, Scoring};

use crate::engine::{Fault, Player, Reply, parse_reply};
use crate::referee::{Referee, ScoringMethod};
use crate::timecontrol::{Clock, TIME_GRACE, TimeControl, time_left_args};

/// Everything a game is played under.
#[derive(Clone, Debug)]
pub struct GameSpec {
    /// Board size.
    pub size: BoardSize,
    /// Rules, komi included.
    pub rules: Rules,
    /// The rules' name for `kgs-rules` (`chinese`, `japanese`).
    pub rules_name: String,
    /// The clock, if any.
    pub time: Option<TimeControl>,
    /// The hard limit on one `genmove` without a clock.
    pub move_timeout: Duration,
    /// After this many moves the game is void.
    pub max_moves: u32,
    /// Fixed handicap stones (0: none).
    pub handicap: u32,
    /// Opening moves played before the engines move.
    pub opening: Vec<(Color, Move)>,
}

/// How a game ended.
#[derive(Clone, Debug)]
pub struct Outcome {
    /// The result.
    pub result: GameResult,
    /// The reason keyword (see [`crate::journal::Entry::reason`]).
    pub reason: String,
    /// Details of the reason.
    pub detail: String,
    /// How a scored game was counted.
    pub method: Option<ScoringMethod>,
    /// The referee's game with the move times.
    pub referee: Referee,
    /// Seconds each engine spent generating moves.
    pub time_used: ByColor<f64>,
    /// Moves each engine generated.
    pub generated: ByColor<u32>,
}

/// Why the move loop stopped before a scoring phase.
struct End {
    result: GameResult,
    reason: String,
    detail: String,
}

fn name(c: Color) -> &'static str {
    match c {
        Color::Black => "Black",
        Color::White => "White",
    }
}

/// A loss for `loser` because of a fault.
fn fault_end(loser: Color, fault: &Fault, timed: bool) -> End {
    if timed && matches!(fault, Fault::Timeout(_)) {
        return End {
            result: GameResult::Time(loser.opponent()),
            reason: "time".into(),
            detail: format!("{}: {}", name(loser), fault.detail()),
        };
    }
    End {
        result: GameResult::Forfeit(loser.opponent()),
        reason: fault.reason().into(),
        detail: format!("{}: {}", name(loser), fault.detail()),
    }
}

struct Play<'a> {
    spec: &'a GameSpec,
    players: &'a mut ByColor<Player>,
    /// Told of every move the referee accepts.
    watch: &'a mut dyn FnMut(&Game),
    referee: Referee,
    clocks: ByColor<Option<Clock>>,
    time_used: ByColor<f64>,
    generated: ByColor<u32>,
}

/// Plays a game between `players` (already started) to its end. Any failure of an
/// engine is that engine's loss; the returned outcome always holds a result. `watch`
/// sees the referee's game after every move it accepts (opening moves included), for
/// live progress.
pub fn play_game(
    spec: &GameSpec,
    players: &mut ByColor<Player>,
    watch: &mut dyn FnMut(&Game),
) -> Outcome {
    let mut p = Play {
        spec,
        players,
        watch,
        referee: Referee::new(spec.size, spec.rules),
        clocks: ByColor::new_with(|_| spec.time.map(|tc| tc.start_clock())),
        time_used: ByColor::default(),
        generated: ByColor::default(),
    };
    let (end, method) = match p.run() {
        Ok(m) => (None, m),
        Err(e) => (Some(e), None),
    };
    let (result, reason, detail) = match (end, method) {
        (Some(e), _) => (e.result, e.reason, e.detail),
        (None, Some((m, score))) => {
            let detail = format!(
                "Black {} – White {} ({})",
                tengen_board::format_points(score.black),
                tengen_board::format_points(score.white),
                m
            );
            (score.result(), "score".to_string(), detail)
        }
        (None, None) => (GameResult::Void, "void".into(), String::new()),
    };
    Outcome {
        result,
        reason,
        detail,
        method: method.map(|(m, _)| m),
        referee: p.referee,
        time_used: p.time_used,
        generated: p.generated,
    }
}

impl Play<'_> {
    /// Set-up, opening, play, scoring: the scoring method and score, or how the game
    /// ended early.
    fn run(&mut self) -> Result<Option<(ScoringMethod, tengen_board::Score)>, End> {
        self.setup()?;
        self.play_until_passes(false)?;
        Ok(Some(self.score()?))
    }

    fn setup(&mut self) -> Result<(), End> {
        let spec = self.spec;
        for c in Color::ALL {
            // An engine that cannot be told the rules was named when the match began.
            self.players[c]
                .new_game(
                    spec.size,
                    spec.rules.komi(),
                    &spec.rules_name,
                    spec.time.as_ref(),
                )
                .map_err(|f| fault_end(c, &f, false))?;
        }
        if spec.handicap >= 2 {
            let points = self
                .referee
                .place_handicap(spec.handicap)
                .map_err(|e| End {
                    result: GameResult::Void,
                    reason: "void".into(),
                    detail: format!("handicap: {e}"),
                })?;
            let vertices: Vec<String> = points
                .iter()
                .map(|&p| spec.size.vertex(p).to_string())
                .collect();
            for c in Color::ALL {
                let pl = &mut self.players[c];
                let r = if pl.knows("set_free_handicap") {
                    pl.set_free_handicap(&vertices.join(" "))
                } else {
                    pl.fixed_handicap(spec.handicap).and_then(|answer| {
                        let mut got: Vec<String> = answer
                            .split_whitespace()
                            .map(|s| s.to_uppercase())
                            .collect();
                        let mut want = vertices.clone();
                        got.sort();
                        want.sort();
                        if got == want {
                            Ok(())
                        } else {
                            Err(Fault::Protocol(format!(
                                "fixed_handicap placed {answer:?}, expected {}",
                                vertices.join(" ")
                            )))
                        }
                    })
                };
                r.map_err(|f| fault_end(c, &f, false))?;
            }
        }
        for &(c, m) in &spec.opening {
            self.referee.play(c, m, None).map_err(|e| End {
                result: GameResult::Void,
                reason: "void".into(),
                detail: format!("opening move {} is illegal: {e}", spec.size.move_vertex(m)),
            })?;
            (self.watch)(self.referee.game());
            let v = spec.size.move_vertex(m).to_string();
            for side in Color::ALL {
                self.players[side]
                    .play(c, &v)
                    .map_err(|f| fault_end(side, &f, false))?;
            }
        }
        Ok(())
    }

    /// Asks the side to move for moves until two passes in a row (in clean-up play: two
    /// passes in a row within the clean-up).
    fn play_until_passes(&mut self, cleanup: bool) -> Result<(), End> {
        let size = self.spec.size;
        let area = size.area() as u32;
        let mut cleanup_moves = 0u32;
        loop {
            let game = self.referee.game();
            if cleanup {
                if game.consecutive_passes() >= 2 && cleanup_moves >= 2 {
                    return Ok(());
                }
                if cleanup_moves >= 2 * area || game.move_count() as u32 >= self.spec.max_moves {
                    return Ok(()); // count what is on the board
                }
            } else {
                if game.is_over() {
                    return Ok(());
                }
                if game.move_count() as u32 >= self.spec.max_moves {
                    return Err(End {
                        result: GameResult::Void,
                        reason: "max-moves".into(),
                        detail: format!(
                            "no result after {}",
                            tengen_board::counted(u64::from(self.spec.max_moves), "move", "moves")
                        ),
                    });
                }
            }
            let c = game.to_move();
            let mv = self.one_move(c, cleanup)?;
            cleanup_moves += 1;
            let v = size.move_vertex(mv).to_string();
            self.players[c.opponent()]
                .play(c, &v)
                .map_err(|f| fault_end(c.opponent(), &f, false))?;
        }
    }

    /// Gets, times and checks one move of `c`.
    fn one_move(&mut self, c: Color, cleanup: bool) -> Result<Move, End> {
        let timed = self.clocks[c].is_some();
        let timeout = match (&self.clocks[c], &self.spec.time) {
            (Some(clock), Some(tc)) => {
                let kgs = self.players[c].knows("kgs-time_settings");
                let (left, stones) = time_left_args(tc, clock, kgs);
                self.players[c]
                    .time_left(c, left, stones)
                    .map_err(|f| fault_end(c, &f, false))?;
                let allowed = clock.allowed(tc).unwrap_or(self.spec.move_timeout);
                allowed + TIME_GRACE + Duration::from_millis(500)
            }
            _ => self.spec.move_timeout,
        };
        let start = Instant::now();
        let answer = self.players[c].genmove(c, cleanup, timeout);
        let used = start.elapsed();
        let secs = used.as_secs_f64();
        self.time_used[c] += secs;
        self.generated[c] += 1;
        let answer = answer.map_err(|f| fault_end(c, &f, timed))?;
        let flag_fell = match (self.clocks[c].as_mut(), &self.spec.time) {
            (Some(clock), Some(tc)) => !clock.charge(tc, used, TIME_GRACE),
            _ => false,
        };
        if flag_fell {
            return Err(End {
                result: GameResult::Time(c.opponent()),
                reason: "time".into(),
                detail: format!("{} overran its time ({secs:.2} s for the move)", name(c)),
            });
        }
        let reply = parse_reply(self.spec.size, &answer).map_err(|f| fault_end(c, &f, false))?;
        let mv = match reply {
            Reply::Resign => {
                return Err(End {
                    result: GameResult::Resign(c.opponent()),
                    reason: "resign".into(),
                    detail: format!("{} resigned", name(c)),
                });
            }
            Reply::Move(m) => m,
        };
        self.referee.play(c, mv, Some(secs)).map_err(|e| End {
            result: GameResult::Forfeit(c.opponent()),
            reason: "illegal".into(),
            detail: format!(
                "{} played the illegal move {} ({e})",
                name(c),
                self.spec.size.move_vertex(mv)
            ),
        })?;
        (self.watch)(self.referee.game());
        Ok(mv)
    }

    /// Both engines' answer to `final_status_list status`, if both give one that names
    /// stones on the board.
    fn status_lists(&mut self, status: &str) -> Result<Option<ByColor<Bitboard>>, End> {
        let mut lists = ByColor::<Option<Bitboard>>::default();
        for c in Color::ALL {
            let words = self.players[c]
                .final_status_list(status)
                .map_err(|f| fault_end(c, &f, false))?;
            lists[c] = words.and_then(|w| self.referee.stones_from(&w));
        }
        Ok(match (lists.black, lists.white) {
            (Some(black), Some(white)) => Some(ByColor { black, white }),
            _ => None,
        })
    }

    /// Counts a game that ended by passes. Rules that count the board as it stands
    /// (area scoring without a friendly pass: Tromp-Taylor, CGOS) remove no stone,
    /// whatever the engines call dead: every stone on the board counts.
    fn score(&mut self) -> Result<(ScoringMethod, tengen_board::Score), End> {
        let rules = &self.spec.rules;
        if rules.scoring == Scoring::Area && !rules.friendly_pass {
            return Ok((ScoringMethod::TrompTaylor, self.referee.tromp_taylor()));
        }
        let agreed = self
            .status_lists("dead")?
            .filter(|dead| dead.black == dead.white);
        if let Some(dead) = agreed {
            let seki = if self.spec.rules.scoring == Scoring::Territory {
                match self.status_lists("seki")? {
                    Some(s) if s.black == s.white => s.black,
                    _ => Bitboard::EMPTY,
                }
            } else {
                Bitboard::EMPTY
            };
            return Ok((
                ScoringMethod::Agreement,
                self.referee.score(&dead.black, &seki),
            ));
        }
        let both_clean = Color::ALL
            .iter()
            .all(|&c| self.players[c].knows("kgs-genmove_cleanup"));
        if both_clean {
            let before = self.referee.game().clone();
            self.play_until_passes(true)?;
            return Ok((ScoringMethod::Cleanup, self.referee.score_cleanup(&before)));
        }
        Ok((ScoringMethod::TrompTaylor, self.referee.tromp_taylor()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    /// The fake engine, seeded, with `extra` flags.
    fn fake(seed: u32, extra: &str) -> Player {
        let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fake_engine.py");
        let cmd = format!("python3 {} --seed {seed} {extra}", script.display());
        Player::start(&cmd, None, Duration::from_secs(10)).unwrap()
    }

    /// A game on 5×5 under `rules` between two fake engines that both call every
    /// stone on the board dead (so they agree).
    fn agreed_all_dead(rules: Rules, rules_name: &str) -> Outcome {
        let mut players = ByColor {
            black: fake(3, "--dead-all"),
            white: fake(4, "--dead-all"),
        };
        let size = BoardSize::new(5).unwrap();
        let spec = GameSpec {
            size,
            rules,
            rules_name: rules_name.into(),
            time: None,
            move_timeout: Duration::from_secs(5),
            max_moves: 400,
            handicap: 0,
            opening: vec![],
        };
        play_game(&spec, &mut players, &mut |_: &Game| {})
    }

    #[test]
    fn rules_that_count_the_board_as_it_stands_remove_no_agreed_dead_stone() {
        let chinese = agreed_all_dead(Rules::chinese(), "chinese");
        assert_eq!(
            chinese.method,
            Some(ScoringMethod::Agreement),
            "{chinese:?}"
        );
        for rules in [Rules::tromp_taylor(), Rules::cgos()] {
            let outcome = agreed_all_dead(rules, "tromp-taylor");
            assert_eq!(
                outcome.method,
                Some(ScoringMethod::TrompTaylor),
                "{outcome:?}"
            );
            let board = outcome.referee.game().board();
            assert!(
                *board.stones(Color::Black) != Bitboard::EMPTY,
                "{outcome:?}"
            );
            let counted = outcome.referee.tromp_taylor().result();
            assert_eq!(
                outcome.result.to_string(),
                counted.to_string(),
                "{outcome:?}"
            );
        }
    }

    #[test]
    fn every_accepted_move_is_shown_to_the_watcher() {
        let start = |seed: u32| fake(seed, "");
        let mut players = ByColor {
            black: start(1),
            white: start(2),
        };
        let size = BoardSize::new(5).unwrap();
        let spec = GameSpec {
            size,
            rules: Rules::chinese(),
            rules_name: "chinese".into(),
            time: None,
            move_timeout: Duration::from_secs(5),
            max_moves: 75,
            handicap: 0,
            opening: vec![(Color::Black, size.parse_move("C3").unwrap())],
        };
        let mut seen = Vec::new();
        let outcome = play_game(&spec, &mut players, &mut |g: &Game| {
            seen.push((g.move_count(), g.to_move()));
        });
        let moves = outcome.referee.game().move_count();
        assert!(moves > 2, "{outcome:?}");
        // One call a move, in order, the opening's included, each with the side to move.
        let want: Vec<(usize, Color)> = (1..=moves)
            .map(|n| {
                (
                    n,
                    if n % 2 == 1 {
                        Color::White
                    } else {
                        Color::Black
                    },
                )
            })
            .collect();
        assert_eq!(seen, want);
    }
}
