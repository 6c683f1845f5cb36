//! The player: what `genmove`, analysis and end-of-game scoring call.
//!
//! [`Engine::genmove`] searches (`crate::search`), then applies the resign rule
//! (`crate::resign`), the pass decision (the judgement after a pass,
//! `crate::ownership`), the clean-up's proven captures (`crate::cleanup`, only in
//! [`Mode::Cleanup`]: the normal genmove reads no killing lines) and, under rules that
//! count the board as it stands, capturing before passing (`board_count`).
//!
//! One thread, a seed and a playout budget make a move repeatable (without pondering,
//! whose reused tree depends on how long the opponent thought): a playout budget is
//! spent in full however slow the machine, the copy of a reused tree has a deadline
//! (a quarter of the hard limit) only under a time limit, and the judging playouts are
//! fixed counts. Under a time limit those playouts stop at the move's hard limit, and
//! when they are sure to run the search leaves them a share of the move: twice their
//! time at the last search's speed, between 2% and 50% (a quarter before any
//! search).

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use rand::SeedableRng;
use tengen_board::{Bitboard, Color, Game, Move, StaticLife};

use crate::analysis::{Analysis, MoveStat, Report};
use crate::cleanup::{KillLines, Proven};
use crate::config::{Config, HeavyParams, ModelPrior, NetChoice};
use crate::komi::{handicap_shift, playout_komi};
use crate::ownership::{Judgement, Settling, Status, judge, playout_ownership};
use crate::playout::{Policy, Rng, self_atari_allowed};
use crate::resign::ResignStreaks;
use crate::search::{Job, Means, Worker, search};
use crate::time::Limit;
use tengen_knowledge::Knowledge;
use tengen_knowledge::{MoveModel, PolicyNetError, PolicyNetFile};

mod board_count;
mod request;
pub use board_count::{counts_board_as_it_stands, wins_by_the_count};
pub use request::SearchRequest;

/// Playouts that judge a pass or the clean-up after a search.
const SETTLE_PLAYOUTS: u32 = 400;

/// The share of a timed move that the search leaves to the judging playouts when
/// nothing tells how long they take: 400 playouts from an early 19×19 position take
/// half a second on a busy machine.
const SETTLE_SHARE: f64 = 0.25;

/// The share of a timed move the search leaves to [`SETTLE_PLAYOUTS`] judging playouts
/// that run after it on one thread: twice their time at the last search's speed per
/// thread, within 2% and 50%; [`SETTLE_SHARE`] before any search.
fn settle_share(last: Option<&Analysis>, threads: usize, hard: Duration) -> f64 {
    let Some(a) = last.filter(|a| a.playouts() > 0 && !a.elapsed.is_zero()) else {
        return SETTLE_SHARE;
    };
    let per_thread = a.playouts() as f64 / a.elapsed.as_secs_f64() / threads.max(1) as f64;
    let needed = 2.0 * f64::from(SETTLE_PLAYOUTS) / per_thread;
    (needed / hard.as_secs_f64().max(1e-3)).clamp(0.02, 0.5)
}

/// How `genmove` treats the end of the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Mode {
    /// Play normally: pass when passing cannot lose.
    #[default]
    Normal,
    /// `kgs-genmove_cleanup`: capture the opponent's dead stones before passing.
    Cleanup,
}

/// The engine's answer to `genmove`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decision {
    /// Play this move (a pass included).
    Play(Move),
    /// Resign.
    Resign,
}

/// The Monte Carlo tree search player.
#[derive(Debug)]
pub struct Engine {
    config: Config,
    /// The tables the engine plays by, lent to the search's prior and to both
    /// policies' playouts.
    knowledge: Arc<Knowledge>,
    /// The policy network `config.policy_net` names, loaded, with the cache of its
    /// ratings (shared with the engines reconfigured from this one).
    net: Option<Arc<PolicyNetFile>>,
    policy: Policy,
    /// The policy of the playouts that settle dead stones and seki.
    settle_policy: Policy,
    workers: Vec<Worker>,
    /// The moves of the game the workers' trees stand for, and its start hash.
    tree_moves: Vec<(Color, Move)>,
    tree_start: Option<tengen_board::Hash>,
    /// The rules (komi included) the trees' statistics were gathered under.
    tree_rules: Option<tengen_board::Rules>,
    /// The dynamic komi shift they were gathered with (0 outside handicap games and
    /// for analysis).
    tree_komi_shift: f64,
    /// Each colour's consecutive searches with a win rate under the resign threshold.
    resign: ResignStreaks,
    /// The killing lines the clean-up is playing (see [`KillLines`]).
    kills: KillLines,
    last: Option<Analysis>,
}

impl Engine {
    /// A player with these settings.
    pub fn new(config: Config) -> Engine {
        Engine::with_knowledge(config, Arc::new(Knowledge::shipped()))
    }

    /// A player with these settings whose tree prior rates moves by `model` instead of
    /// the shipped `crates/knowledge/data/moves.txt` (`tengen --move-table`).
    pub fn with_model(config: Config, model: MoveModel) -> Engine {
        Engine::with_knowledge(config, Arc::new(Knowledge::with_move_model(model)))
    }

    /// A fresh player with these settings that shares this one's tables: the shape
    /// table and the move model are not read again (what `tengen-set` needs), nor is
    /// the policy network while the settings name the same one (its cache is shared);
    /// the clean-up's killing lines carry over, since the game goes on.
    pub fn reconfigured(&self, mut config: Config) -> Engine {
        let net = if config.policy_net == self.config.policy_net {
            self.net.clone()
        } else {
            load_net(&mut config)
        };
        let mut engine = Engine::with_loaded_net(config, Arc::clone(&self.knowledge), net);
        // The game goes on: a killing line being played is still being played.
        engine.kills = self.kills.clone();
        engine
    }

    /// Forgets the clean-up's killing lines (a move was taken back: a line kept from
    /// a later position no longer describes the game).
    pub fn forget_kill_lines(&mut self) {
        self.kills.clear();
    }

    /// A player with these settings that plays by `knowledge`, with the policy
    /// network the settings name loaded for it. A file that no longer loads (the
    /// setting checked it when it was read) is said on stderr, naming the file, and
    /// the player goes on without a network (its settings then say `off`).
    pub fn with_knowledge(mut config: Config, knowledge: Arc<Knowledge>) -> Engine {
        let net = load_net(&mut config);
        Engine::with_loaded_net(config, knowledge, net)
    }

    /// A player with these settings that plays by `knowledge` and rates with `net`, a
    /// network already loaded for `config.policy_net` (an engine shares its cache and
    /// counters with every other that holds it, as the runs of `tengen bench` do).
    pub fn with_loaded_net(
        config: Config,
        knowledge: Arc<Knowledge>,
        net: Option<Arc<PolicyNetFile>>,
    ) -> Engine {
        let policy =
            Policy::with_knowledge(config.policy, config.heavy.clone(), Arc::clone(&knowledge));
        let settle_policy = policy.with_params(config.policy, settle_params(&config));
        Engine {
            config,
            knowledge,
            net,
            policy,
            settle_policy,
            workers: Vec::new(),
            tree_moves: Vec::new(),
            tree_start: None,
            tree_rules: None,
            tree_komi_shift: 0.0,
            resign: ResignStreaks::default(),
            kills: KillLines::default(),
            last: None,
        }
    }

    /// The settings.
    pub fn config(&self) -> &Config {
        &self.config
    }

    /// The settings, to change; they apply from the next search (the tree is dropped).
    /// The policy network stays the one loaded: naming another is
    /// [`Engine::reconfigured`]'s.
    pub fn config_mut(&mut self) -> &mut Config {
        self.workers.clear();
        &mut self.config
    }

    /// Forgets the tree, the resign streaks and the clean-up's killing lines (a new
    /// game).
    pub fn clear(&mut self) {
        self.workers.clear();
        self.tree_moves.clear();
        self.tree_start = None;
        self.tree_rules = None;
        self.resign.clear();
        self.kills.clear();
        self.last = None;
    }

    /// The policy network the settings name, as loaded (none when they say `off`).
    pub fn policy_net(&self) -> Option<&Arc<PolicyNetFile>> {
        self.net.as_ref()
    }

    /// The tables the engine plays by, to share with another engine (read once).
    pub fn knowledge(&self) -> &Arc<Knowledge> {
        &self.knowledge
    }

    /// Loads the policy network the settings name again, as its file is now (training
    /// may have rewritten it), with a fresh cache and counters: what `tengen-set
    /// policy_net` does when it names the network the engine has. On error nothing
    /// changes.
    pub fn reload_net(&mut self) -> Result<(), PolicyNetError> {
        self.net = self.config.policy_net.load()?.map(Arc::new);
        self.workers.clear();
        Ok(())
    }

    /// The last search's final snapshot.
    pub fn last_analysis(&self) -> Option<&Analysis> {
        self.last.as_ref()
    }

    /// Searches `req`'s position for its colour and returns the final snapshot: what
    /// analysis asks for (with a report), and thinking on the opponent's time
    /// ([`SearchRequest::pondering`]). The ownership is gathered where the request
    /// ([`SearchRequest::ownership`]) or its report's extras ask for it;
    /// [`SearchRequest::mode`] is not read.
    pub fn search(&mut self, req: SearchRequest<'_>) -> Analysis {
        // Pondering searches with the dynamic komi of the engine's own moves, so that
        // the next genmove can keep the tree.
        let komi_shift = if req.ponder {
            handicap_shift(req.job.game, self.config.dynamic_komi)
        } else {
            0.0
        };
        let job = Job {
            komi_shift,
            ..req.job
        };
        self.run(&job, req.report)
    }

    /// Runs `job` on the workers' trees (reused where the game only went on), and keeps
    /// its final snapshot.
    fn run(&mut self, job: &Job<'_>, report: Option<Report<'_>>) -> Analysis {
        // The clock runs from here: tree reuse counts against the move's time.
        let start = std::time::Instant::now();
        self.refresh_policy();
        // Copying a reused subtree may take at most a quarter of a timed move's hard
        // limit; past that the search starts from a fresh tree.
        let copy_deadline = match job.limit {
            Limit::Time(budget) => Some(start + budget.hard / 4),
            _ => None,
        };
        self.prepare_trees(job.game, job.komi_shift, copy_deadline);
        let means = Means {
            knowledge: &self.knowledge,
            policy: &self.policy,
            config: &self.config,
            net: self.net.as_deref(),
        };
        let analysis = search(&mut self.workers, means, job, start, report);
        self.last = Some(analysis.clone());
        analysis
    }

    /// Chooses a move for `req`'s colour: searches (never choosing a root move the
    /// request avoids), then applies the resign and pass rules, and the clean-up's in
    /// [`Mode::Cleanup`]. The rules' own moves (a clean-up's capture, a capture
    /// before a pass under Tromp-Taylor) are not restricted by the avoided moves. The
    /// ownership is gathered where the pass decision needs it (the request's is not
    /// read: a display asking for it must not change play), with the dynamic komi of
    /// a handicap game ([`SearchRequest::pondering`] is not read).
    pub fn genmove(&mut self, req: SearchRequest<'_>) -> Decision {
        let SearchRequest {
            job: asked,
            report,
            mode,
            ..
        } = req;
        let Job {
            game, color, limit, ..
        } = asked;
        let start = Instant::now();
        let area = game.size().area();
        let opponent_passed = matches!(game.last_move(), Some((c, Move::Pass)) if c != color);
        let late = game.move_count() * 2 > area;
        let ownership = opponent_passed || late || mode == Mode::Cleanup;
        // Under a clock, the playouts that judge a pass or the clean-up after the
        // search stop at the move's hard limit; when they are sure to run, the search
        // leaves them a share of the time.
        let settle_by = match limit {
            Limit::Time(b) => Some(start + b.hard),
            _ => None,
        };
        let turn = Turn {
            game,
            color,
            settle_by,
        };
        let job = Job {
            limit: self.search_limit(limit, opponent_passed || mode == Mode::Cleanup),
            ownership,
            with_pass: mode == Mode::Normal,
            komi_shift: handicap_shift(game, self.config.dynamic_komi),
            ..asked
        };
        let analysis = self.run(&job, report);
        let Some(best) = analysis.best().cloned() else {
            return Decision::Play(Move::Pass);
        };
        // A shift that asks Black for a larger lead than the real komi makes its win
        // rate an understatement: no resigning on it.
        let understated = color == Color::Black && job.komi_shift > 0.0;
        if !understated && self.resigns(game, color, mode, &analysis) {
            return Decision::Resign;
        }
        if mode == Mode::Cleanup {
            let mv = self.cleanup_move(turn, &analysis, best.mv);
            return Decision::Play(mv);
        }
        let non_pass = most_visited_outside(&analysis, &Bitboard::EMPTY);
        // A pass (the opponent's last move, or the search's choice) is answered by one
        // only where the judgement says it wins. That is judged only where the search
        // gathered ownership for itself (after the opponent's pass, or late in the
        // game): a display asking for ownership early must not change play.
        let choice = if opponent_passed || best.mv == Move::Pass {
            if ownership && self.wins_by_passing(turn) {
                Move::Pass
            } else {
                non_pass.unwrap_or(Move::Pass)
            }
        } else {
            best.mv
        };
        // Rules that count the board as it stands (Tromp-Taylor): capture first, and
        // pass only into a win by that count (see `board_count`).
        if choice == Move::Pass && counts_board_as_it_stands(game.rules()) {
            let mv = self.pass_by_the_count(turn, &analysis, non_pass);
            return Decision::Play(mv);
        }
        Decision::Play(choice)
    }

    /// The search's limit for a move under `limit`: a timed move leaves the judging
    /// playouts that are sure to run after it (`settle_after`) their share of the time.
    fn search_limit(&self, limit: Limit, settle_after: bool) -> Limit {
        match limit {
            Limit::Time(b) if settle_after => {
                let share = settle_share(self.last.as_ref(), self.config.threads, b.hard);
                Limit::Time(b.scaled(1.0 - share))
            }
            other => other,
        }
    }

    /// Whether `color` resigns after the search's `analysis`: a win rate that stays
    /// low over this colour's searches of one game, never in the opening or clean-up.
    fn resigns(&mut self, game: &Game, color: Color, mode: Mode, analysis: &Analysis) -> bool {
        let threshold = self.config.resign_threshold;
        let low = mode == Mode::Normal && analysis.visits >= 100 && analysis.winrate < threshold;
        self.resign.record(game, color, low) >= 3 && game.move_count() > game.size().area() / 4
    }

    /// Whether `turn.color` wins by passing now. Dead stones and seki come from a few
    /// hundred playouts after a pass, the position as it would be scored (the opponent
    /// then moves first, which errs on the side of playing on); they stop at
    /// `turn.settle_by`.
    fn wins_by_passing(&self, turn: Turn<'_>) -> bool {
        let Turn { game, color, .. } = turn;
        let st = self.settled(turn, Move::Pass, SETTLE_PLAYOUTS).for_passing(
            game.board(),
            color,
            game.rules().scoring,
        );
        let margin = game.score(&st.dead, &st.seki).margin();
        if color == Color::Black {
            margin > 0.0
        } else {
            margin < 0.0
        }
    }

    /// The clean-up's move for `turn.color` after the search's `analysis` (its best move
    /// `best`): dead stones are captured first, a chain the local search proves dead
    /// by its proof's killing line ([`KillLines`]), the rest by the search's choice,
    /// never inside the area of a proven death with no killing move from here (only
    /// the proof's moves are known not to let it live); a pass once no dead stone is
    /// left. The judgement comes from playouts after the best move.
    fn cleanup_move(&mut self, turn: Turn<'_>, analysis: &Analysis, best: Move) -> Move {
        let Turn { game, color, .. } = turn;
        let judged = self.settled(turn, best, SETTLE_PLAYOUTS);
        let theirs = game
            .board()
            .stones(color.opponent())
            .and(&judged.status.dead);
        match self.kills.next_move(game, &judged, color) {
            Proven::Kill(p) => Move::Play(p),
            Proven::Avoid(area) => match most_visited_outside(analysis, &area) {
                Some(mv) if !theirs.is_empty() => mv,
                _ => Move::Pass,
            },
        }
    }

    /// Dead, alive and seki stones of the current position (see [`Engine::judge`]).
    pub fn final_status(&mut self, game: &Game) -> Status {
        self.judge(game).status
    }

    /// The end-of-game judgement of the current position: what the static analysis
    /// proves (pass-alive groups, their territory and dead stones, seki), and for the
    /// rest a search for the best move, then playouts after it (a fixed number of each
    /// from the seed, so it is repeatable). `final_status_list`, `final_score`, the
    /// ownership displays, the pass decision and the clean-up all read it.
    ///
    /// In a decided game (the best move's win rate outside 10–90%) every move wins
    /// or loses alike, and the search may settle on a sacrifice that breaks a seki;
    /// a best move the settling playouts would refuse as a self-atari is then judged
    /// as a pass.
    pub fn judge(&mut self, game: &Game) -> Judgement {
        let n = (game.size().area() as u64 * 8).clamp(1000, 4000);
        self.judge_with(game, n)
    }

    /// The judgement of [`Engine::judge`] from `playouts` playouts for its search and
    /// as many for the settling after it (at least one each), in place of the size's
    /// default (eight a point, from 1 000 to 4 000): what a training export or a fuzz
    /// target that judges many positions can afford.
    pub fn judge_with(&mut self, game: &Game, playouts: u64) -> Judgement {
        let stop = AtomicBool::new(false);
        let n = playouts.clamp(1, u64::from(u32::MAX));
        let color = game.to_move();
        // The judgement's search reads captures and escapes, not shape: the move model
        // (fitted to moves 9-dans chose in play, not to settling a finished board) is
        // left out, since its virtual wins can outweigh a few hundred playouts here
        // (on a finished 5×5 board it chose a move that fills its own eye space).
        // The policy network's virtual wins likewise: it too learned from play.
        let model_prior = std::mem::replace(&mut self.config.search.model_prior, ModelPrior::Off);
        let net = self.net.take();
        let analysis = self.search(SearchRequest::new(game, color, Limit::Playouts(n), &stop));
        self.config.search.model_prior = model_prior;
        self.net = net;
        let refused = |p| {
            game.board().check(color, p).is_ok()
                && !self_atari_allowed(self.settle_policy.params(), game.board(), color, p)
        };
        let first = analysis.best().map_or(Move::Pass, |m| match m.mv {
            Move::Play(p) if !(0.1..=0.9).contains(&playouts_winrate(m)) && refused(p) => {
                Move::Pass
            }
            mv => mv,
        });
        let turn = Turn {
            game,
            color,
            settle_by: None,
        };
        self.settled(turn, first, n as u32)
    }

    /// Rebuilds the playout policies if the settings changed them (over the same
    /// knowledge: the tables are built once, in `new`, and shared).
    fn refresh_policy(&mut self) {
        if self.policy.kind() != self.config.policy || self.policy.params() != &self.config.heavy {
            self.policy = self
                .policy
                .with_params(self.config.policy, self.config.heavy.clone());
        }
        let settle = settle_params(&self.config);
        if self.settle_policy.kind() != self.config.policy || self.settle_policy.params() != &settle
        {
            self.settle_policy = self.policy.with_params(self.config.policy, settle);
        }
    }

    /// The judgement from `n` playouts (fewer if `turn.settle_by` passes first) after
    /// `turn.color` plays `first` (the search's choice, or a pass) in `turn.game`, the
    /// stones judged on the board before it, and the static analysis of that board.
    ///
    /// The search reads the tactics (a stone that can be captured is captured by its
    /// best move); the playouts after it then settle the rest. They never fill their own
    /// eyes nor put a group of two or more stones in atari at random, except a throw-in
    /// that leaves a dead eye shape on the last liberty of the group around it
    /// (`HeavyParams::nakade` or `Config::settle_nakade`, `tactics::nakade_kills`),
    /// so a seki stays a seki and a false seki does not, where the search's own
    /// playouts would include the losing moves it explores.
    fn settled(&self, turn: Turn<'_>, first: Move, n: u32) -> Judgement {
        let Turn {
            game,
            color,
            settle_by: deadline,
        } = turn;
        let mut board = game.board().clone();
        let (to_move, last) = match first {
            Move::Play(p) if board.check(color, p).is_ok() => {
                board.play_unchecked(color, first);
                (color.opponent(), Some(p))
            }
            Move::Play(_) => (color, None),
            Move::Pass => (color.opponent(), None),
        };
        let mut rng = Rng::seed_from_u64(self.config.seed ^ board.hash().0);
        let settling = Settling {
            board: &board,
            to_move,
            last,
            komi: playout_komi(game, 0.0),
            n,
            deadline,
        };
        let (ownership, neutral) =
            playout_ownership(&self.settle_policy, &settling, &mut rng, color);
        let life = StaticLife::of_game(game);
        judge(game.board(), life, &ownership, &neutral, color)
    }

    /// Makes the workers' trees stand for `game` searched with `komi_shift`: reuses
    /// them when the game only added moves the trees contain and the shift moved by
    /// at most [`REUSE_SHIFT`] (one genmove to the next), else starts fresh ones (an
    /// analysis after a handicap game's move never reads the shifted statistics).
    fn prepare_trees(
        &mut self,
        game: &Game,
        komi_shift: f64,
        copy_deadline: Option<std::time::Instant>,
    ) {
        let threads = self.config.threads.max(1);
        // Each worker's RNG is seeded from the seed, the position and its index, so a
        // position searched twice gives the same move.
        let seed = self.config.seed ^ game.board().hash().0;
        let rng =
            |i: usize| Rng::seed_from_u64(seed ^ (i as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15));
        let moves: Vec<(Color, Move)> = game.moves().collect();
        let start = game.start_board().hash();
        let reusable = self.workers.len() == threads
            && self.tree_start == Some(start)
            && self.tree_rules.as_ref() == Some(game.rules())
            && (komi_shift - self.tree_komi_shift).abs() <= REUSE_SHIFT
            && moves.len() >= self.tree_moves.len()
            && moves[..self.tree_moves.len()] == self.tree_moves[..];
        if reusable {
            let extra = &moves[self.tree_moves.len()..];
            for w in &mut self.workers {
                // A tree that cannot be reused is dropped here; the search builds a
                // fresh one (never two at once).
                w.tree = w.tree.take().and_then(|tree| match tree.descendant(extra) {
                    Some((node, _)) if node == tree.root() => Some(tree),
                    Some((node, color)) => tree.reroot(node, color, copy_deadline),
                    None => None,
                });
            }
            for (i, w) in self.workers.iter_mut().enumerate() {
                w.scratch.rng = rng(i);
            }
        } else {
            self.workers.clear();
            self.workers = (0..threads)
                .map(|i| Worker::new(game.board(), rng(i)))
                .collect();
        }
        self.tree_moves = moves;
        self.tree_start = Some(start);
        self.tree_rules = Some(*game.rules());
        self.tree_komi_shift = komi_shift;
    }
}

/// The move being decided: `color` to play in `game`, the judging playouts after its
/// search stopping at `settle_by` (none without a clock).
#[derive(Clone, Copy)]
struct Turn<'a> {
    game: &'a Game,
    color: Color,
    settle_by: Option<Instant>,
}

/// The most the dynamic komi may move between two searches that share a tree, in
/// points: more than it shrinks between a colour's moves on 13×13 and 19×19, far
/// less than a handicap stone's shift, which an analysis (no shift) must not read.
const REUSE_SHIFT: f64 = 2.0;

/// The win rate of `m`'s own playouts (the reported one leans to the root's), the
/// reported one before any.
fn playouts_winrate(m: &MoveStat) -> f64 {
    if m.visits > 0 {
        m.wins as f64 / m.visits as f64
    } else {
        m.winrate
    }
}

/// The search's most visited move that is not a pass and lies outside `avoid` (the
/// first such root move when none was visited).
fn most_visited_outside(analysis: &Analysis, avoid: &Bitboard) -> Option<Move> {
    let allowed = |mv: Move| matches!(mv, Move::Play(p) if !avoid.contains(p));
    analysis
        .moves
        .iter()
        .find(|m| allowed(m.mv) && m.visits > 0)
        .or_else(|| analysis.moves.iter().find(|m| allowed(m.mv)))
        .map(|m| m.mv)
}

/// The network `config` names, loaded; a file that does not load is said on stderr
/// and `config` then names none.
fn load_net(config: &mut Config) -> Option<Arc<PolicyNetFile>> {
    match config.policy_net.load() {
        Ok(net) => net.map(Arc::new),
        Err(e) => {
            eprintln!("tengen: {e}: the search goes on without a policy network");
            config.policy_net = NetChoice::Off;
            None
        }
    }
}

/// The heavy-playout settings of the settling playouts: the search's, with nakade on
/// when `HeavyParams::nakade` or `Config::settle_nakade` is.
fn settle_params(config: &Config) -> HeavyParams {
    HeavyParams {
        nakade: config.heavy.nakade || config.settle_nakade,
        ..config.heavy.clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn searched(playouts: u64, secs: f64) -> Analysis {
        Analysis::searched(playouts, Duration::from_secs_f64(secs))
    }

    #[test]
    fn the_judgement_gets_the_time_its_playouts_need() {
        let second = Duration::from_secs(1);
        assert_eq!(settle_share(None, 2, second), SETTLE_SHARE);
        // 9×9: 40 000 playouts a second on two threads, 400 take 20 ms; twice that.
        let fast = searched(40_000, 1.0);
        assert!((settle_share(Some(&fast), 2, second) - 0.04).abs() < 1e-9);
        // Early 19×19 on a busy machine: 800 a second on two threads would need a
        // second; half the move at most.
        let slow = searched(800, 1.0);
        assert_eq!(settle_share(Some(&slow), 2, second), 0.5);
        // Never less than 2%.
        let blazing = searched(10_000_000, 1.0);
        assert_eq!(settle_share(Some(&blazing), 1, second), 0.02);
    }
}
