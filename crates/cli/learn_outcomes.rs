//! `tengen learn outcomes`: how well the engine's win rate, and the network's own value
//! where its weights have the heads, foretell the results of games they did not learn
//! from.
//!
//! From each game whose record says who won on the board or by resignation (not on
//! time, by forfeit, or with no result), `--per-game` positions are drawn at random
//! (from the seed and the game's number) among those from move 40 to ten moves before
//! the end; the side to move's win rate after a search of `--playouts` playouts (one
//! thread, the game's own rules and komi) is its forecast, the game's result the truth.
//! The table gives, by the move's number, the positions, how often the forecast favoured
//! the winner (a forecast of exactly ½ counts as half right) and the Brier score (the
//! mean squared difference between the forecast and 1 for a win, 0 for a loss).

use std::sync::atomic::AtomicBool;

use clap::Args;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use tengen_board::sgf::SgfGame;
use tengen_board::{Color, Game};
use tengen_engine::{Config, Engine, Limit, SearchRequest};
use tengen_knowledge::move_model::features::History;
use tengen_knowledge::{NetChoice, NetScratch, PolicyNet};
use tengen_learn::outcome::{Ending, Outcome};

use crate::bounds;

/// The first move a position may come before.
const FIRST_MOVE: usize = 40;
/// The moves before a game's end no position is drawn from.
const LAST_MOVES: usize = 10;
/// The buckets of the table: the move's number from, to (inclusive).
const BUCKETS: [(&str, usize, usize); 3] = [
    ("40-99", 40, 99),
    ("100-159", 100, 159),
    ("160+", 160, usize::MAX),
];

/// `tengen learn outcomes`'s flags.
#[derive(Debug, Args)]
pub struct OutcomesArgs {
    #[command(flatten)]
    records: crate::learn_cmd::Records,
    /// Positions drawn from each game.
    #[arg(long, default_value_t = 1, allow_hyphen_values = true,
          value_parser = bounds::POSITIVE.parser::<usize>())]
    per_game: usize,
    /// Playouts of the search that forecasts each position (0: no search, the network's
    /// value alone).
    #[arg(long, default_value_t = 1000, allow_hyphen_values = true,
          value_parser = bounds::ANY.parser::<u64>())]
    playouts: u64,
    /// The policy network: shipped, off or a weights file, as `tengen gtp --policy-net`;
    /// a file with the value head adds its own forecast as a column.
    #[arg(long, value_name = "FILE|shipped|off", default_value = "shipped")]
    policy_net: String,
    /// Seed of the positions drawn and of the searches.
    #[arg(long, default_value_t = 1, allow_hyphen_values = true,
          value_parser = bounds::ANY.parser::<u64>())]
    seed: u64,
}

/// One forecaster's sums over one bucket.
#[derive(Clone, Copy, Debug, Default)]
struct Score {
    positions: u64,
    right: f64,
    squared: f64,
}

impl Score {
    fn add(&mut self, forecast: f64, won: bool) {
        let truth = if won { 1.0 } else { 0.0 };
        self.positions += 1;
        self.right += if forecast == 0.5 {
            0.5
        } else if (forecast > 0.5) == won {
            1.0
        } else {
            0.0
        };
        self.squared += (forecast - truth) * (forecast - truth);
    }

    fn cells(&self) -> String {
        if self.positions == 0 {
            return format!("{:>7} {:>7}", "-", "-");
        }
        let n = self.positions as f64;
        format!("{:>6.1}% {:>7.3}", 100.0 * self.right / n, self.squared / n)
    }
}

/// The forecasts gathered: per bucket, then overall, the search's and the network's.
#[derive(Debug, Default)]
struct Table {
    search: [Score; 4],
    net: [Score; 4],
}

impl Table {
    fn add(&mut self, number: usize, won: bool, search: Option<f64>, net: Option<f64>) {
        let Some(b) = BUCKETS
            .iter()
            .position(|&(_, lo, hi)| (lo..=hi).contains(&number))
        else {
            return;
        };
        for (scores, forecast) in [(&mut self.search, search), (&mut self.net, net)] {
            if let Some(f) = forecast {
                scores[b].add(f, won);
                scores[3].add(f, won);
            }
        }
    }

    fn print(&self, playouts: u64, net: bool) {
        let search = match playouts {
            0 => "no search".to_string(),
            n => format!("search at {n} playouts"),
        };
        let line = |text: String| println!("{}", text.trim_end());
        line(format!(
            "{:<9} {:>9}  {:<24}{}",
            "moves",
            "positions",
            search,
            if net { "network's value" } else { "" }
        ));
        line(format!(
            "{:<9} {:>9}  {:>7} {:>7}         {}",
            "",
            "",
            "right",
            "Brier",
            if net { "  right   Brier" } else { "" }
        ));
        let names = BUCKETS.iter().map(|b| b.0).chain(["all"]);
        for (k, name) in names.enumerate() {
            let positions = self.search[k].positions.max(self.net[k].positions);
            let search = if playouts > 0 {
                self.search[k].cells()
            } else {
                format!("{:>7} {:>7}", "-", "-")
            };
            let net = if net {
                self.net[k].cells()
            } else {
                String::new()
            };
            line(format!("{name:<9} {positions:>9}  {search}         {net}"));
        }
    }
}

/// The position of `record` before its move `number` (from 1): the game with its
/// later moves taken back.
fn position_before(record: &Game, number: usize) -> Game {
    let mut game = record.clone();
    while game.move_count() >= number {
        game.undo();
    }
    game
}

/// The two moves before the position (as the network reads them).
fn history_of(game: &Game) -> History {
    let mut played = [None; 2];
    for (_, mv) in game.moves().skip(game.move_count().saturating_sub(2)) {
        played = [played[1], Some(mv)];
    }
    History {
        last: played[1],
        before: played[0],
    }
}

/// Runs `tengen learn outcomes`.
pub fn run(args: OutcomesArgs) -> Result<(), String> {
    let mut config = Config {
        threads: 1,
        seed: args.seed,
        ..Config::default()
    };
    config.policy_net = match args.policy_net.as_str() {
        "off" => NetChoice::Off,
        "shipped" => NetChoice::Shipped,
        file => NetChoice::File(file.to_string()),
    };
    let net = match &config.policy_net {
        NetChoice::File(path) => {
            let net = PolicyNet::load(std::path::Path::new(path)).map_err(|e| e.to_string())?;
            net.has_heads().then_some(net)
        }
        _ => None,
    };
    if args.playouts == 0 && net.is_none() {
        return Err(
            "--playouts 0 forecasts by the network's value alone: name a weights file with the \
             value head in --policy-net"
                .to_string(),
        );
    }
    let mut engine = Engine::new(config);
    let mut scratch = net.as_ref().map(NetScratch::new);
    let mut table = Table::default();
    let (mut games, mut undecided) = (0u64, 0u64);
    let stop = AtomicBool::new(false);
    let visit = |record: &SgfGame| -> Result<(), String> {
        games += 1;
        let outcome = Outcome::of_result(record.info.result.as_deref());
        let winner = match (outcome.winner, outcome.ending) {
            (Some(c), Ending::Counted | Ending::Resignation) => c,
            _ => {
                undecided += 1;
                return Ok(());
            }
        };
        let length = record.game.move_count();
        if length < FIRST_MOVE + LAST_MOVES {
            return Ok(());
        }
        let mut rng =
            SmallRng::seed_from_u64(args.seed ^ games.wrapping_mul(0x9E37_79B9_7F4A_7C15));
        for _ in 0..args.per_game {
            let number = rng.random_range(FIRST_MOVE..=length - LAST_MOVES);
            let game = position_before(&record.game, number);
            let mover: Color = game.to_move();
            let won = mover == winner;
            let search = (args.playouts > 0).then(|| {
                engine.clear();
                let request =
                    SearchRequest::new(&game, mover, Limit::Playouts(args.playouts), &stop);
                engine.search(request).winrate
            });
            let value = match (&net, &mut scratch) {
                (Some(net), Some(scratch)) => net
                    .evaluate(game.board(), mover, &history_of(&game), scratch)
                    .ok()
                    .and_then(|out| out.judgement().map(|j| f64::from(j.win))),
                _ => None,
            };
            table.add(number, won, search, value);
        }
        Ok(())
    };
    let (read, refused) = crate::learn_cmd::for_each_sgf(&args.records, "outcomes", visit)?;
    eprintln!(
        "{} read ({refused} refused), {undecided} without a result decided on the board or by \
         resignation; {} a game, seed {}",
        tengen_board::counted(read, "game", "games"),
        tengen_board::counted(args.per_game as u64, "position", "positions"),
        args.seed
    );
    table.print(args.playouts, net.is_some());
    Ok(())
}
