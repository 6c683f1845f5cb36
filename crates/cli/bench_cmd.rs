//! `tengen bench`: playout throughput per board size, position, policy and thread count.

use std::time::Duration;

use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use tengen_board::BoardSize;
use tengen_engine::bench::{
    BenchLimit, BenchPosition, MAX_CPU_ERROR, Measurement, PlayoutRun, STARVED_SHARE,
    measure_playouts, measure_search,
};
use tengen_engine::config::{HeavyParams, LocalModelSetting};
use tengen_engine::settings;
use tengen_engine::{Config, Engine, Keyword, ModelPrior, Parallelism, PolicyKind};

use crate::bounds;

/// The examples of `tengen bench --help` (`tests/gtp/binary.rs` runs them).
const BENCH_EXAMPLES: &str = "\
Examples:
  # 9x9 light and heavy playouts, one thread, a second each:
  tengen bench --sizes 9 --no-midgame --no-search --threads 1 --seconds 1
  # The tree search alone on 9x9, on one and two threads, as JSON lines (enough
  # playouts for a second of CPU time or more, which its figures need):
  tengen bench --policy search --sizes 9 --threads 2 --playouts 50000 --json";

/// Options of `tengen bench`.
#[derive(Debug, Args)]
#[command(after_help = BENCH_EXAMPLES)]
pub struct BenchArgs {
    /// Board sizes of the empty-board measurements.
    #[arg(long, value_delimiter = ',', default_value = "9,13,19", allow_hyphen_values = true,
          value_parser = bounds::BOARD_SIZE.parser::<u32>())]
    sizes: Vec<u32>,
    /// What to measure: the playout policies light and heavy, and search, the tree
    /// search (measured with any of them unless --no-search; `--policy search` alone
    /// measures only the tree search).
    #[arg(
        long = "policy",
        value_delimiter = ',',
        default_value = "light,heavy",
        value_parser = BenchPolicy::parse
    )]
    policies: Vec<BenchPolicy>,
    /// Skip the tree-search measurement (policy "search": descents, expansions, heavy
    /// playouts and backups from a position after one move, per size).
    #[arg(long)]
    no_search: bool,
    /// Skip the bare playout measurements and run only the tree search.
    #[arg(long, conflicts_with = "no_search")]
    no_playouts: bool,
    /// How the threads of the tree search share it: tree (the engine's default), root,
    /// or both (tree,root).
    #[arg(long, value_delimiter = ',', default_value = "tree")]
    parallelism: Vec<Parallelism>,
    /// The tree search's model prior: off, wins, widen or both (default: the engine's,
    /// as `tengen gtp --model-prior`).
    #[arg(long, value_name = "KIND")]
    model_prior: Option<ModelPrior>,
    /// The move model in the heavy playouts and the tree search's: off, or the
    /// weight of the rest of the board (default: the engine's, as `tengen gtp
    /// --playout-model`).
    #[arg(long, value_name = "W|off", allow_hyphen_values = true,
          value_parser = bounds::playout_model)]
    playout_model: Option<LocalModelSetting>,
    /// The tree search's policy network: off (the default here, so that the figures
    /// measure the search alone and compare across versions), shipped (the network
    /// `tengen gtp` plays with) or a weights file, as `tengen gtp --policy-net`; its
    /// evaluations and cache hits are said at the end.
    #[arg(long, value_name = "FILE|shipped|off", value_parser = setting("policy_net"))]
    policy_net: Option<String>,
    /// The visits a node takes before the network rates it (default: the engine's).
    #[arg(long, value_name = "N", value_parser = setting("net_visits"))]
    net_visits: Option<String>,
    /// The network's part in a rated node's prior (default: the engine's).
    #[arg(long, value_name = "B", value_parser = setting("net_blend"))]
    net_blend: Option<String>,
    /// The virtual wins a rated node's shares add up to (default: the engine's).
    #[arg(long, value_name = "W", value_parser = setting("net_weight"))]
    net_weight: Option<String>,
    /// The smallest board the network rates besides its own size (default: the
    /// engine's).
    #[arg(long, value_name = "N", value_parser = setting("net_min_size"))]
    net_min_size: Option<String>,
    /// Highest thread count; every count from 1 up to it is measured
    /// (default: the machine's cores).
    #[arg(long, allow_hyphen_values = true, value_parser = bounds::THREADS.parser::<usize>())]
    threads: Option<usize>,
    /// Seconds each measurement runs.
    #[arg(long, default_value_t = 2.0, conflicts_with = "playouts", allow_hyphen_values = true,
          value_parser = bounds::SECONDS.parser())]
    seconds: f64,
    /// Run this many playouts per measurement instead of a fixed time.
    #[arg(long, allow_hyphen_values = true, value_parser = bounds::POSITIVE.parser::<u64>())]
    playouts: Option<u64>,
    /// Skip the fixed 19×19 middle-game position.
    #[arg(long)]
    no_midgame: bool,
    /// Komi used to score playouts.
    #[arg(long, default_value_t = 7.5, allow_hyphen_values = true,
          value_parser = bounds::KOMI.parser())]
    komi: f64,
    /// Seed of the playouts.
    #[arg(long, default_value_t = 1, allow_hyphen_values = true,
          value_parser = bounds::ANY.parser::<u64>())]
    seed: u64,
    /// One JSON object a line, one per measurement, instead of the table.
    #[arg(long)]
    json: bool,
}

/// A parser of the engine setting `name`'s values, for a flag that takes them as text.
fn setting(name: &'static str) -> impl Fn(&str) -> Result<String, String> + Clone {
    move |text: &str| match settings::find(name) {
        Some(s) => s
            .parse(text)
            .map(|_| text.to_string())
            .map_err(|e| e.to_string()),
        None => Err(format!("no {name} setting")),
    }
}

/// A row kind of the bench's table that `--policy` names: a playout policy, or the tree
/// search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum BenchPolicy {
    /// Bare playouts of this policy.
    Playouts(PolicyKind),
    /// The tree search (the table's `search` rows).
    Search,
}

impl BenchPolicy {
    /// Reads `light`, `heavy` or `search` (any case).
    fn parse(s: &str) -> Result<BenchPolicy, String> {
        if s.eq_ignore_ascii_case("search") {
            return Ok(BenchPolicy::Search);
        }
        s.parse::<PolicyKind>()
            .map(BenchPolicy::Playouts)
            .map_err(|_| format!("unknown policy {s:?} (expected light, heavy or search)"))
    }
}

/// What a bench run measures, from `--policy`, `--no-search` and `--no-playouts`.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Selection {
    /// The playout policies measured bare, in the order given.
    playouts: Vec<PolicyKind>,
    /// Whether the tree search is measured.
    search: bool,
}

impl Selection {
    /// The tree search runs unless `--no-search`; bare playouts run for the light and
    /// heavy policies named, so `--policy search` alone measures the tree search only.
    fn of(policies: &[BenchPolicy], no_search: bool, no_playouts: bool) -> Result<Self, String> {
        let mut playouts = Vec::new();
        for p in policies {
            if let BenchPolicy::Playouts(kind) = *p
                && !no_playouts
                && !playouts.contains(&kind)
            {
                playouts.push(kind);
            }
        }
        let selection = Selection {
            playouts,
            search: !no_search,
        };
        if selection.playouts.is_empty() && !selection.search {
            return Err(
                "nothing to measure: --no-search leaves out the tree search, and \
                        --policy names no playout policy (light or heavy)"
                    .into(),
            );
        }
        Ok(selection)
    }
}

/// The positions measured: the empty boards of `--sizes`, and the 19×19 middle game
/// unless `--no-midgame`.
fn positions(args: &BenchArgs) -> Result<Vec<BenchPosition>, String> {
    let mut positions = Vec::new();
    for &n in &args.sizes {
        let size = BoardSize::new(n).map_err(|e| bounds::refused("--sizes", n, e))?;
        positions.push(BenchPosition::empty(size));
    }
    if !args.no_midgame {
        positions.push(BenchPosition::midgame19());
    }
    Ok(positions)
}

/// The progress bar of `total` measurements, hidden when the output is JSON lines.
fn progress_bar(total: u64, json: bool) -> ProgressBar {
    let bar = ProgressBar::new(total).with_style(
        ProgressStyle::with_template("{spinner} [{elapsed}] {bar:30} {pos}/{len} {msg}")
            .expect("static template"),
    );
    if json {
        bar.set_draw_target(indicatif::ProgressDrawTarget::hidden());
    }
    bar
}

/// The tree search's settings: the seed, the playouts' `heavy` settings, and the
/// flags that change the prior (`--model-prior`, the policy network's).
fn search_config(args: &BenchArgs, heavy: &HeavyParams) -> Result<Config, String> {
    let mut search = Config {
        seed: args.seed,
        heavy: heavy.clone(),
        ..Config::default()
    };
    if let Some(m) = args.model_prior {
        search.search.model_prior = m;
    }
    for (name, value) in [
        ("policy_net", &args.policy_net),
        ("net_visits", &args.net_visits),
        ("net_blend", &args.net_blend),
        ("net_weight", &args.net_weight),
        ("net_min_size", &args.net_min_size),
    ] {
        if let Some(text) = value {
            let setting = settings::find(name).ok_or(format!("no {name} setting"))?;
            setting
                .set(&mut search, text)
                .map_err(|why| bounds::refused(&format!("--{}", setting.flag), text, why))?;
        }
    }
    Ok(search)
}

/// Runs the measurements and prints them.
pub fn run(args: BenchArgs) -> Result<(), String> {
    let selection = Selection::of(&args.policies, args.no_search, args.no_playouts)?;
    let seconds = bounds::check("--seconds", args.seconds, bounds::SECONDS)?;
    let komi = bounds::check("--komi", args.komi, bounds::KOMI)?;
    let max_threads = max_threads(&args)?;
    let positions = positions(&args)?;
    let limit = match args.playouts {
        Some(n) => BenchLimit::Playouts(bounds::check_whole("--playouts", n, bounds::POSITIVE)?),
        None => BenchLimit::Time(Duration::from_secs_f64(seconds)),
    };
    let search_sizes = search_sizes(&positions, &selection);
    let playout_series = positions.len() * selection.playouts.len();
    let total =
        ((playout_series + search_sizes.len() * args.parallelism.len()) * max_threads) as u64;
    let bar = progress_bar(total, args.json);
    let mut heavy = HeavyParams::default();
    if let Some(m) = args.playout_model {
        heavy.local_model = m.0;
    }
    let mut rows: Vec<(Measurement, f64)> = Vec::new();
    // Measures one series at 1..=max_threads threads; the scaling is against 1 thread.
    let mut series = |label: String, measure: &dyn Fn(usize) -> Measurement| {
        let mut single = None;
        for threads in 1..=max_threads {
            bar.set_message(format!("{label} x{threads}"));
            let m = measure(threads);
            let base = *single.get_or_insert(m.playouts_per_sec());
            let scaling = m.playouts_per_sec() / base;
            if args.json {
                println!("{}", json_line(&m, scaling));
            }
            bar.inc(1);
            rows.push((m, scaling));
        }
    };
    for pos in &positions {
        for &policy in &selection.playouts {
            let size = pos.board.size();
            let label = format!("{size}x{size} {} {}", pos.name, policy.name());
            series(label, &|threads| {
                let run = PlayoutRun {
                    kind: policy,
                    heavy: &heavy,
                    threads,
                    limit,
                    komi,
                    seed: args.seed,
                };
                measure_playouts(pos, run)
            });
        }
    }
    // The network and the tables are loaded once (the network's counters add up over
    // the runs), and only where the tree search is measured.
    let search = match search_sizes.is_empty() {
        true => None,
        false => Some(Engine::new(search_config(&args, &heavy)?)),
    };
    if let Some(search) = &search {
        for &size in &search_sizes {
            for &par in &args.parallelism {
                series(format!("{size}x{size} search {}", par.name()), &|threads| {
                    measure_search(size, threads, par, limit, search)
                });
            }
        }
    }
    bar.finish_and_clear();
    if !args.json {
        print_table(&rows);
        if let Some(w) = heavy.local_model {
            println!("heavy playouts and search with --playout-model {w}");
        }
    }
    if let Some(search) = &search {
        print_policy_net_stats(search);
    }
    Ok(())
}

/// The highest thread count measured: `--threads`, else the machine's cores (as many
/// as a bench may run).
fn max_threads(args: &BenchArgs) -> Result<usize, String> {
    match args.threads {
        Some(t) => bounds::check_whole("--threads", t, bounds::THREADS),
        // More cores than a bench may run threads: as many as it may.
        None => Ok(std::thread::available_parallelism()
            .map_or(1, |n| n.get())
            .min(1024)),
    }
}

/// The board sizes the tree search is measured on: those of the empty boards, where
/// the search is selected.
fn search_sizes(positions: &[BenchPosition], selection: &Selection) -> Vec<BoardSize> {
    if !selection.search {
        return Vec::new();
    }
    positions
        .iter()
        .filter(|p| p.name == "empty")
        .map(|p| p.board.size())
        .collect()
}

/// The policy network's evaluations and cache hits over all the search's runs, on
/// standard error, where the search used one.
fn print_policy_net_stats(engine: &Engine) {
    if let Some(net) = engine.policy_net() {
        let stats = net.stats();
        let search = engine.config();
        eprintln!(
            "search with --policy-net {} (net visits {}, blend {}, weight {}): {} evaluations, {} cache hits \
             in all its runs together (each run starts with an empty cache)",
            net.path(),
            search.search.net_visits,
            search.search.net_blend,
            search.search.net_weight,
            stats.evaluations,
            stats.cache_hits
        );
    }
}

fn json_line(m: &Measurement, scaling: f64) -> String {
    // Tree-search rows do not count playout moves: those keys are null there.
    let (avg, mps) = if m.moves > 0 {
        (
            format!("{:.2}", m.avg_moves()),
            format!("{:.0}", m.moves_per_sec()),
        )
    } else {
        ("null".to_string(), "null".to_string())
    };
    // CPU time where the system reports it (Linux), else null; no rate from a CPU
    // time too imprecise for one (`cpu_too_short`).
    let cpu = m
        .cpu_seconds
        .map_or("null".to_string(), |c| format!("{c:.6}"));
    let per_cpu = m
        .playouts_per_cpu_sec()
        .map_or("null".to_string(), |r| format!("{r:.1}"));
    let share = m
        .cpu_share()
        .map_or("null".to_string(), |r| format!("{r:.3}"));
    format!(
        "{{\"size\":{},\"position\":\"{}\",\"policy\":\"{}\",\"threads\":{},\"playouts\":{},\
         \"seconds\":{:.4},\"cpu_seconds\":{},\"playouts_per_sec\":{:.1},\
         \"playouts_per_cpu_sec\":{},\"cpu_too_short\":{},\"cpu_share\":{},\"starved\":{},\
         \"avg_moves\":{},\
         \"moves_per_sec\":{},\"black_win_rate\":{:.4},\"scaling\":{:.3},\"parallelism\":{}}}",
        m.size,
        m.position,
        m.policy,
        m.threads,
        m.playouts,
        m.seconds,
        cpu,
        m.playouts_per_sec(),
        per_cpu,
        m.cpu_too_short(),
        share,
        m.starved(),
        avg,
        mps,
        m.black_wins as f64 / m.playouts.max(1) as f64,
        scaling,
        m.parallelism
            .map_or("null".to_string(), |p| format!("\"{}\"", p.name()))
    )
}

fn print_table(rows: &[(Measurement, f64)]) {
    println!(
        "{:>5} {:<10} {:<11} {:>3} {:>10} {:>12} {:>12} {:>9} {:>8} {:>7} {:>7}",
        "size",
        "position",
        "policy",
        "thr",
        "playouts",
        "playouts/s",
        "/CPU-s",
        "Mmoves/s",
        "avg len",
        "B wins",
        "scale"
    );
    for (m, scaling) in rows {
        // Tree-search rows count playouts only, not their moves.
        let (mps, len) = if m.moves > 0 {
            (
                format!("{:.2}", m.moves_per_sec() / 1e6),
                format!("{:.1}", m.avg_moves()),
            )
        } else {
            ("-".to_string(), "-".to_string())
        };
        let per_cpu = cpu_cell(m);
        println!(
            "{:>5} {:<10} {:<11} {:>3} {:>10} {:>12.0} {:>12} {:>9} {:>8} {:>6.1}% {:>6.2}x{}",
            format!("{}x{}", m.size, m.size),
            m.position,
            match m.parallelism {
                Some(p) => format!("{} {}", m.policy, p.name()),
                None => m.policy.to_string(),
            },
            m.threads,
            m.playouts,
            m.playouts_per_sec(),
            per_cpu,
            mps,
            len,
            100.0 * m.black_wins as f64 / m.playouts.max(1) as f64,
            scaling,
            starved_note(m)
        );
    }
    if rows.iter().any(|(m, _)| m.starved()) {
        println!(
            "! starved: the measuring threads spent less than {:.0}% of their wall time on a \
             CPU, so other processes held the cores; those rows' playouts/s and scale \
             understate the engine (/CPU-s does not)",
            100.0 * STARVED_SHARE
        );
    }
    if rows.iter().any(|(m, _)| m.cpu_too_short()) {
        println!(
            "too short: the CPU time of the run could not be timed within {:.0}% (a tree \
             search is timed in the process's 10 ms ticks): measure for longer",
            100.0 * MAX_CPU_ERROR
        );
    }
}

/// The table's `/CPU-s` cell: playouts a CPU-second, `too short` when the run's CPU
/// time is too imprecise for a figure, `-` where the system does not tell it.
fn cpu_cell(m: &Measurement) -> String {
    match m.playouts_per_cpu_sec() {
        Some(r) => format!("{r:.0}"),
        None if m.cpu_too_short() => "too short".to_string(),
        None => "-".to_string(),
    }
}

/// The warning beside a starved row: how much of their wall time the threads ran.
fn starved_note(m: &Measurement) -> String {
    match m.cpu_share() {
        Some(share) if m.starved() => {
            format!("  ! starved: threads ran {:.0}% of the time", 100.0 * share)
        }
        _ => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn search_is_a_policy_of_the_bench() {
        assert_eq!(BenchPolicy::parse("search"), Ok(BenchPolicy::Search));
        assert_eq!(BenchPolicy::parse("Search"), Ok(BenchPolicy::Search));
        assert_eq!(
            BenchPolicy::parse("heavy"),
            Ok(BenchPolicy::Playouts(PolicyKind::Heavy))
        );
        let err = BenchPolicy::parse("medium").unwrap_err();
        assert!(err.contains("light, heavy or search"), "{err}");
    }

    #[test]
    fn policy_search_alone_measures_the_tree_search_only() {
        use BenchPolicy::{Playouts, Search};
        let (light, heavy) = (Playouts(PolicyKind::Light), Playouts(PolicyKind::Heavy));
        let only = Selection::of(&[Search], false, false).unwrap();
        assert_eq!((only.playouts.as_slice(), only.search), (&[][..], true));
        // A playout policy keeps the search unless --no-search, as before.
        let heavy_too = Selection::of(&[heavy], false, false).unwrap();
        assert_eq!(heavy_too.playouts, [PolicyKind::Heavy]);
        assert!(heavy_too.search);
        let both = Selection::of(&[light, Search], true, false).unwrap();
        assert_eq!(
            (both.playouts.as_slice(), both.search),
            (&[PolicyKind::Light][..], false)
        );
        assert!(
            Selection::of(&[light], false, true)
                .unwrap()
                .playouts
                .is_empty()
        );
        // Nothing left to measure is an error, not an empty table.
        assert!(Selection::of(&[Search], true, false).is_err());
    }
}
