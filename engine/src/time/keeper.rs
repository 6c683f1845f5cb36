//! The time of a game as a player keeps it between moves: the time control in force,
//! both clocks, the controller's limit on one move and the overruns of recent moves;
//! from them, how long the next move may think ([`Timekeeper::start_move`]).
//!
//! A front end (GTP) only tells the [`Timekeeper`] what the controller said and when
//! a line was read and answered; every decision about time is made here.

use std::time::{Duration, Instant};

use tengen_board::{ByColor, Clock, Color, Game, TimeControl};

use super::{Limit, MoveBudget, Overruns, budget};
use crate::config::Config;

/// The game's time control and clocks, and what recent moves taught about this
/// machine's overruns.
#[derive(Clone, Debug)]
pub struct Timekeeper {
    control: TimeControl,
    /// The controller's limit on one move (KataGo's `fischer-capped`), if any.
    per_move: Option<Duration>,
    clocks: ByColor<Clock>,
    /// How far our recent timed moves ran past their hard limit.
    overruns: Overruns,
    /// When the last answer was written: a line read before it (queued behind an
    /// earlier command) starts its clock here, since the controller had not yet seen
    /// the answer it was waiting for.
    answered_at: Option<Instant>,
}

impl Default for Timekeeper {
    /// No time limit, nothing measured yet.
    fn default() -> Timekeeper {
        let control = TimeControl::Unlimited;
        Timekeeper {
            control,
            per_move: None,
            clocks: ByColor::new_with(|_| control.start_clock()),
            overruns: Overruns::default(),
            answered_at: None,
        }
    }
}

/// The limits of one move search, from when its time began.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveTimer {
    /// When the move's time began (the controller's clock started then).
    pub start: Instant,
    /// The search's limit, less the time already gone since `start`.
    pub limit: Limit,
    /// With a playout budget under a running clock, the clock's hard limit from
    /// `start`: a watchdog stops the search there ([`super::watched`]), so a playout
    /// budget never makes the engine lose on time.
    pub deadline: Option<Duration>,
    /// The hard limit from `start`, for the overrun record.
    hard: Option<Duration>,
}

impl Timekeeper {
    /// The time control in force.
    pub fn control(&self) -> TimeControl {
        self.control
    }

    /// The controller's limit on one move, if it set one.
    pub fn per_move(&self) -> Option<Duration> {
        self.per_move
    }

    /// `color`'s clock as we keep it.
    pub fn clock(&self, color: Color) -> Clock {
        self.clocks[color]
    }

    /// The overruns of recent moves.
    pub fn overruns(&self) -> &Overruns {
        &self.overruns
    }

    /// Puts a time control in force, with the controller's limit on one move (none
    /// but for KataGo's `fischer-capped`), and restarts both clocks.
    pub fn set_control(&mut self, control: TimeControl, per_move: Option<Duration>) {
        self.control = control;
        self.per_move = per_move;
        self.restart();
    }

    /// Restarts both clocks from the time control (a new game).
    pub fn restart(&mut self) {
        let tc = self.control;
        self.clocks = ByColor::new_with(|_| tc.start_clock());
    }

    /// What the controller's clock says for `color`; it replaces our own account.
    /// Fischer has no overtime: its clock is main time whatever `stones` says.
    pub fn set_clock(&mut self, color: Color, time_left: Duration, stones: u32) {
        let stones = match self.control {
            TimeControl::Fischer { .. } => 0,
            _ => stones,
        };
        self.clocks[color] = Clock { time_left, stones };
    }

    /// When the time of a command whose line was read at `read_at` began: a line
    /// queued behind an earlier command is this command's from the answer before it
    /// on.
    pub fn command_start(&self, read_at: Instant) -> Instant {
        self.answered_at.map_or(read_at, |t| t.max(read_at))
    }

    /// Notes that an answer was written at `at` (see [`Timekeeper::command_start`]).
    pub fn answered(&mut self, at: Instant) {
        self.answered_at = Some(at);
    }

    /// How long the engine may think about a move for `color`, and the hard deadline a
    /// watchdog enforces when the limit is a playout count: a playout budget never
    /// makes the engine lose on time. No move thinks longer than
    /// `Config::max_move_time`, whatever the clock says, nor longer than the
    /// controller's limit on one move less the margin. The clock's budget keeps back
    /// `Config::lag` plus the worst recent overrun ([`Overruns`]).
    pub fn move_limit(
        &self,
        config: &Config,
        game: &Game,
        color: Color,
    ) -> (Limit, Option<MoveBudget>) {
        let clock = budget(
            &self.control,
            &self.clocks[color],
            game.move_count(),
            game.size().area(),
            config.lag + self.overruns.reserve(),
        );
        let margin = config.lag + self.overruns.reserve();
        let longest = self.per_move.map_or(config.max_move_time, |m| {
            m.saturating_sub(margin).min(config.max_move_time)
        });
        let cap = |b: MoveBudget| b.capped(longest);
        let most = MoveBudget::fixed(longest);
        match (config.playouts, clock) {
            (Some(n), deadline) => (Limit::Playouts(n), Some(deadline.map_or(most, cap))),
            (None, Some(b)) => (Limit::Time(cap(b)), None),
            (None, None) => {
                let t = config.default_move_time;
                let mut b = cap(MoveBudget::fixed(t));
                b.early_stop &= !config.full_move_time;
                (Limit::Time(b), None)
            }
        }
    }

    /// The limits of a move search for `color` whose time began at `start` (the
    /// controller's clock started when it sent the line: time the line waited, a
    /// ponder search stopping or a busy scheduler, is this move's).
    pub fn start_move(
        &self,
        config: &Config,
        game: &Game,
        color: Color,
        start: Instant,
    ) -> MoveTimer {
        let waited = start.elapsed();
        let (limit, deadline) = self.move_limit(config, game, color);
        let hard = match limit {
            Limit::Time(b) => Some(b.hard),
            _ => deadline.map(|b| b.hard),
        };
        let limit = match limit {
            Limit::Time(b) => Limit::Time(b.less(waited)),
            other => other,
        };
        MoveTimer {
            start,
            limit,
            deadline: deadline.map(|b| b.hard),
            hard,
        }
    }

    /// Ends a move search started with [`Timekeeper::start_move`]: records how far it
    /// ran past its hard limit and returns the time it took from `timer.start`.
    pub fn finish_move(&mut self, timer: &MoveTimer) -> Duration {
        let elapsed = timer.start.elapsed();
        if let Some(hard) = timer.hard {
            self.overruns.record(hard, elapsed);
        }
        elapsed
    }

    /// Charges a move of `color` that took `elapsed` to our own account of its clock,
    /// until the controller's `time_left` corrects it; no grace. An overrun (the flag)
    /// leaves the clock at zero, but for Fischer's increment, which the next moves
    /// can still think about while the controller plays on.
    pub fn charge(&mut self, color: Color, elapsed: Duration) {
        let tc = self.control;
        if !self.clocks[color].charge(&tc, elapsed, Duration::ZERO) {
            if let TimeControl::Fischer { increment, cap, .. } = tc {
                self.clocks[color] = Clock::main(cap.map_or(increment, |c| increment.min(c)));
            }
        }
    }
}

/// The limit of a one-off analysis (GoGui's analyze commands): the playout budget,
/// else the default time per move, never past `Config::max_move_time`.
pub fn analysis_limit(config: &Config) -> Limit {
    let t = config.default_move_time.min(config.max_move_time);
    match config.playouts {
        Some(n) => Limit::Playouts(n),
        None => Limit::Time(MoveBudget::fixed(t)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn secs(x: f64) -> Duration {
        Duration::from_secs_f64(x)
    }

    fn fischer(cap: Option<f64>) -> TimeControl {
        TimeControl::Fischer {
            main: secs(60.0),
            increment: secs(5.0),
            cap: cap.map(secs),
        }
    }

    #[test]
    fn an_overrun_under_fischer_leaves_the_increment() {
        let mut t = Timekeeper::default();
        t.set_control(fischer(None), None);
        t.set_clock(Color::Black, Duration::ZERO, 3);
        assert_eq!(t.clock(Color::Black), Clock::main(Duration::ZERO));
        t.charge(Color::Black, secs(0.5));
        assert_eq!(t.clock(Color::Black), Clock::main(secs(5.0)));
        t.set_control(fischer(Some(3.0)), None);
        t.set_clock(Color::Black, Duration::ZERO, 0);
        t.charge(Color::Black, secs(0.5));
        assert_eq!(t.clock(Color::Black), Clock::main(secs(3.0)));
        // The other clock is untouched, and a new control restarts both.
        assert_eq!(t.clock(Color::White), Clock::main(secs(60.0)));
    }

    #[test]
    fn a_time_per_move_stops_early_unless_told_to_think_it_out() {
        let game = Game::new(
            tengen_board::BoardSize::new(9).unwrap(),
            tengen_board::Rules::chinese(),
        );
        let mut config = Config {
            default_move_time: secs(1.0),
            playouts: None,
            ..Config::default()
        };
        let limit =
            |config: &Config, t: &Timekeeper| match t.move_limit(config, &game, Color::Black).0 {
                Limit::Time(b) => b,
                other => panic!("{other:?}"),
            };
        let t = Timekeeper::default();
        assert!(limit(&config, &t).early_stop);
        config.full_move_time = true;
        let b = limit(&config, &t);
        assert!(!b.early_stop);
        assert_eq!(b.hard, secs(1.0));
        // A clock keeps its early stop.
        let mut clocked = Timekeeper::default();
        clocked.set_control(fischer(None), None);
        assert!(limit(&config, &clocked).early_stop);
    }

    #[test]
    fn a_queued_command_starts_at_the_answer_before_it() {
        let mut t = Timekeeper::default();
        let read = Instant::now();
        assert_eq!(t.command_start(read), read);
        let answered = read + secs(0.3);
        t.answered(answered);
        assert_eq!(t.command_start(read), answered);
        let later = read + secs(1.0);
        assert_eq!(t.command_start(later), later);
    }

    #[test]
    fn a_finished_move_records_its_overrun() {
        let mut t = Timekeeper::default();
        let config = Config::default();
        let game = Game::new(
            tengen_board::BoardSize::new(9).unwrap(),
            tengen_board::Rules::chinese(),
        );
        let start = Instant::now() - secs(0.3);
        let timer = MoveTimer {
            start,
            limit: Limit::Playouts(1),
            deadline: Some(secs(0.1)),
            hard: Some(secs(0.1)),
        };
        let elapsed = t.finish_move(&timer);
        assert!(elapsed >= secs(0.3));
        assert!(t.overruns().reserve() >= secs(0.4), "{:?}", t.overruns());
        // The time a line waited comes off a timed move.
        let timer = t.start_move(&config, &game, Color::Black, start);
        let Limit::Time(b) = timer.limit else {
            panic!("no playout budget: a time limit");
        };
        assert_eq!(timer.deadline, None);
        assert!(b.hard <= config.default_move_time - secs(0.3), "{b:?}");
    }
}
