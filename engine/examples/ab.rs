//! A/B self-play between two engine configurations, in process, for tuning.
//!
//! `cargo run --release -p tengen-engine --example ab -- --games 200 --size 9 \
//!   --playouts 1000 --b rave_equiv=3000,expand_after=4`
//!
//! Both sides start from [`Config::default`], which has no policy network;
//! `policy_net=shipped` (or `=FILE`) gives one to a side, as the commands that play have.
//!
//! Games alternate colours, run two at a time (one thread per engine), end by two
//! passes (scored with dead stones from engine A's ownership), resignation or a move
//! cap, and the score of B against A is printed with its 95% interval and Elo.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::sync::atomic::{AtomicUsize, Ordering};

use tengen_board::{BoardSize, Color, Game, Rules};
use tengen_engine::config::NetChoice;
use tengen_engine::config::UnknownParallelism;
use tengen_engine::{Config, Decision, Engine, Knowledge, Limit, PolicyKind, SearchRequest};

fn apply(config: &mut Config, spec: &str) -> Result<(), String> {
    for kv in spec.split(',').filter(|s| !s.is_empty()) {
        let (k, v) = kv
            .split_once('=')
            .ok_or(format!("expected key=value: {kv}"))?;
        let f = || v.parse::<f64>().map_err(|_| format!("not a number: {kv}"));
        match k {
            "rave_equiv" => config.search.rave_equiv = f()?,
            "expand_after" => config.search.expand_after = f()? as u32,
            "prior_weight" => config.search.prior_weight = f()?,
            "shape_weight" => config.search.shape_weight = f()?,
            "exploration" => config.search.exploration = f()?,
            "capture" => config.heavy.capture = f()?,
            "escape" => config.heavy.escape = f()?,
            "pattern" => config.heavy.pattern = f()?,
            "shape_threshold" => config.heavy.shape_threshold = Some(f()?),
            "local_model" => {
                config.heavy.local_model = v
                    .parse::<tengen_engine::config::LocalModelSetting>()
                    .map_err(|e| e.to_string())?
                    .0
            }
            "model_weight" => config.search.model_weight = f()?,
            "net_model_power" => config.search.net_model_power = f()?,
            "net_floor" => config.search.net_floor = f()?,
            "model_prior" => {
                config.search.model_prior = v
                    .parse()
                    .map_err(|e: tengen_engine::config::UnknownModelPrior| e.to_string())?
            }
            "reply" => config.heavy.reply = f()?,
            "two_liberties" => config.heavy.two_liberties = f()?,
            "self_atari_min" => config.heavy.self_atari_min = f()? as u32,
            "fill_board" => config.heavy.fill_board = f()? as u32,
            "nakade" => config.heavy.nakade = f()? != 0.0,
            "nakade_prior" => config.search.nakade = f()? != 0.0,
            "threads" => config.threads = f()? as usize,
            "parallelism" => {
                config.parallelism = v.parse().map_err(|e: UnknownParallelism| e.to_string())?
            }
            "playouts" => config.playouts = Some(f()? as u64),
            "policy" => config.policy = v.parse::<PolicyKind>().map_err(|e| e.to_string())?,
            "policy_net" => {
                config.policy_net = match v {
                    "off" => NetChoice::Off,
                    "shipped" => NetChoice::Shipped,
                    path => NetChoice::File(path.to_string()),
                }
            }
            _ => return Err(format!("unknown key {k}")),
        }
    }
    Ok(())
}

/// Plays one game; returns the winner (None: void). Each engine's own `playouts`
/// setting, when given, replaces the common budget.
fn play(size: BoardSize, black: &mut Engine, white: &mut Engine, playouts: u64) -> Option<Color> {
    let mut game = Game::new(size, Rules::chinese());
    let stop = AtomicBool::new(false);
    let cap = 3 * size.area();
    while !game.is_over() && game.move_count() < cap {
        let c = game.to_move();
        let e = if c == Color::Black {
            &mut *black
        } else {
            &mut *white
        };
        let n = e.config().playouts.unwrap_or(playouts);
        match e.genmove(SearchRequest::new(&game, c, Limit::Playouts(n), &stop)) {
            Decision::Resign => return Some(c.opponent()),
            Decision::Play(m) => {
                if game.play(c, m).is_err() {
                    return Some(c.opponent());
                }
            }
        }
    }
    if !game.is_over() {
        return None;
    }
    let status = black.final_status(&game);
    let score = game.score(&status.dead, &status.seki);
    match score.margin() {
        m if m > 0.0 => Some(Color::Black),
        m if m < 0.0 => Some(Color::White),
        _ => None,
    }
}

/// The number after `name` in `args`, or `default` where none is given; the error
/// names the flag.
fn number<T: std::str::FromStr>(args: &[String], name: &str, default: T) -> Result<T, String> {
    let given = args
        .iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1));
    given.map_or(Ok(default), |s| s.parse().map_err(|_| name.to_string()))
}

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let get = |name: &str| {
        args.iter()
            .position(|a| a == name)
            .and_then(|i| args.get(i + 1).cloned())
    };
    let games: usize = number(&args, "--games", 100)?;
    let size: u32 = number(&args, "--size", 9)?;
    let playouts: u64 = number(&args, "--playouts", 1000)?;
    let parallel: usize = number(&args, "--parallel", 2)?;
    let size = BoardSize::new(size).map_err(|e| e.to_string())?;
    let base = Config {
        threads: 1,
        ..Config::default()
    };
    let mut a = base.clone();
    let mut b = base;
    apply(&mut a, &get("--a").unwrap_or_default())?;
    apply(&mut b, &get("--b").unwrap_or_default())?;
    // Each side's network is loaded once and shared, its cache included, by all its
    // games.
    let load = |c: &Config| c.policy_net.load().map(|n| n.map(Arc::new));
    let (net_a, net_b) = (
        load(&a).map_err(|e| e.to_string())?,
        load(&b).map_err(|e| e.to_string())?,
    );
    let engine = |config: Config, net: &Option<Arc<tengen_engine::PolicyNetFile>>| {
        Engine::with_loaded_net(config, Arc::new(Knowledge::shipped()), net.clone())
    };
    let next = AtomicUsize::new(0);
    let results = std::sync::Mutex::new((0u32, 0u32, 0u32)); // B wins, A wins, void
    std::thread::scope(|scope| {
        for _ in 0..parallel {
            scope.spawn(|| {
                loop {
                    let g = next.fetch_add(1, Ordering::Relaxed);
                    if g >= games {
                        break;
                    }
                    let config_a = Config {
                        seed: 1000 + g as u64,
                        ..a.clone()
                    };
                    let mut ea = engine(config_a, &net_a);
                    let config_b = Config {
                        seed: 5000 + g as u64,
                        ..b.clone()
                    };
                    let mut eb = engine(config_b, &net_b);
                    let b_black = g % 2 == 0;
                    let winner = if b_black {
                        play(size, &mut eb, &mut ea, playouts)
                    } else {
                        play(size, &mut ea, &mut eb, playouts)
                    };
                    let mut r = results.lock().expect("results");
                    match winner {
                        None => r.2 += 1,
                        Some(c) if (c == Color::Black) == b_black => r.0 += 1,
                        Some(_) => r.1 += 1,
                    }
                    eprintln!("game {g}: B {} A {} void {}", r.0, r.1, r.2);
                }
            });
        }
    });
    let (bw, aw, void) = *results.lock().expect("results");
    let n = f64::from(bw + aw);
    let p = f64::from(bw) / n.max(1.0);
    let z = 1.96;
    let centre = (p + z * z / (2.0 * n)) / (1.0 + z * z / n);
    let half = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt() / (1.0 + z * z / n);
    let elo = |s: f64| -400.0 * (1.0 / s.clamp(1e-6, 1.0 - 1e-6) - 1.0).log10();
    println!(
        "B vs A: {bw} wins, {aw} losses, {void} void: {:.1}% [95%: {:.1}%, {:.1}%], Elo {:+.0} [{:+.0}, {:+.0}]",
        100.0 * p,
        100.0 * (centre - half),
        100.0 * (centre + half),
        elo(p),
        elo(centre - half),
        elo(centre + half)
    );
    Ok(())
}
