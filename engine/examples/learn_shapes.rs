//! Fits the shape weights of `engine/data/shapes.txt` to the moves of game records.
//!
//! ```sh
//! cargo run --release -p tengen-engine --example learn_shapes -- \
//!   [--min-seen 20] [--iterations 40] RECORDS... > engine/data/shapes.txt
//! ```
//!
//! `RECORDS` are SGF files or directories of them (the output of `tengen match
//! --out DIR`). Every move played is a "win" of the chosen point over every other
//! point its player could legally have played there, own eyes excepted. Each
//! candidate has four features: its shape (`tengen_engine::shape`), its distance to
//! the last move, what it captures and whether it is a self-atari. A move's strength
//! is the product of its features' strengths, and these are fitted by the
//! minorization-maximization of Coulom's "Computing Elo Ratings of Move Patterns in
//! the Game of Go" (2007), with one virtual win and one virtual loss against a
//! strength-1 opponent for each feature. The shape strengths are then scaled so that
//! a move in open space has strength 1, and shapes seen fewer than `--min-seen` times
//! as candidates are left out (they weigh 1 in the engine, like open space).

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use tengen_board::sgf::parse_sgf;
use tengen_board::{Board, Color, Game, Move, Point};
use tengen_engine::shape::{canonical, describe, shape_code};

/// Distance-to-last-move buckets: far or none, then Coulom's distance 2, 3, 4, 5,
/// 6–7, 8–10.
const DISTANCE_BUCKETS: u32 = 7;
/// Capture buckets: nothing, one stone, two or more.
const CAPTURE_BUCKETS: u32 = 3;
/// Self-atari buckets: none, of one stone, of two or more.
const SELF_ATARI_BUCKETS: u32 = 3;

/// One training position: its candidates' features and the index of the move played.
struct Position {
    start: usize,
    end: usize,
    chosen: usize,
}

/// A candidate's feature indices into the one strength vector: shape, distance,
/// capture, self-atari.
type Features = [u32; 4];

struct Data {
    positions: Vec<Position>,
    candidates: Vec<Features>,
    shapes: Vec<u32>,
    shape_index: HashMap<u32, u32>,
}

fn distance_bucket(board: &Board, last: Option<Point>, p: Point) -> u32 {
    let Some(l) = last else { return 0 };
    let size = board.size();
    let (px, py) = size.coords(p);
    let (lx, ly) = size.coords(l);
    let (dx, dy) = (px.abs_diff(lx), py.abs_diff(ly));
    match dx + dy + dx.max(dy) {
        2 => 1,
        3 => 2,
        4 => 3,
        5 => 4,
        6..=7 => 5,
        8..=10 => 6,
        _ => 0,
    }
}

fn capture_bucket(board: &Board, c: Color, p: Point) -> u32 {
    let mut seen: [Option<Point>; 4] = [None; 4];
    let mut stones = 0;
    for (k, n) in board.size().neighbours(p).into_iter().enumerate() {
        if board.color_at(n) == Some(c.opponent()) && board.liberties(n) == 1 {
            let g = board.group(n);
            if !seen[..k].contains(&g) {
                stones += board.group_size(n);
            }
            seen[k] = g;
        }
    }
    stones.min(2)
}

fn self_atari_bucket(board: &Board, c: Color, p: Point) -> u32 {
    match board.self_atari_size(c, p) {
        Some(n) if n >= 2 => 2,
        Some(_) => 1,
        None => 0,
    }
}

impl Data {
    fn shape(&mut self, code: u32) -> u32 {
        let name = canonical(code);
        let next = self.shapes.len() as u32;
        *self.shape_index.entry(name).or_insert_with(|| {
            self.shapes.push(name);
            next
        })
    }

    /// Adds every move of `game` as a training position; false if the replay stopped
    /// early (the positions before the failure are kept).
    fn add_game(&mut self, game: &Game) -> bool {
        let mut replay = Game::new(game.size(), *game.rules());
        for &(c, p) in game.setup_stones() {
            if replay.add_setup_stone(c, p).is_err() {
                return false;
            }
        }
        // After handicap stones (or `PL[W]`) White moves first; superko keys need it.
        replay.set_to_move(game.start_to_move());
        let moves: Vec<(Color, Move)> = game.moves().collect();
        let mut last = None;
        for (c, m) in moves {
            if let Move::Play(played) = m {
                let board = replay.board().clone();
                let start = self.candidates.len();
                let mut chosen = None;
                for &q in board.empty_points() {
                    if board.is_eye(c, q) || replay.check(c, Move::Play(q)).is_err() {
                        continue;
                    }
                    if q == played {
                        chosen = Some(self.candidates.len() - start);
                    }
                    let shape = self.shape(shape_code(&board, c, q));
                    self.candidates.push([
                        shape,
                        distance_bucket(&board, last, q),
                        capture_bucket(&board, c, q),
                        self_atari_bucket(&board, c, q),
                    ]);
                }
                match chosen {
                    Some(chosen) if self.candidates.len() - start > 1 => {
                        self.positions.push(Position {
                            start,
                            end: self.candidates.len(),
                            chosen,
                        })
                    }
                    // An own-eye fill or a forced move teaches nothing.
                    _ => self.candidates.truncate(start),
                }
            }
            if replay.play(c, m).is_err() {
                return false;
            }
            last = match m {
                Move::Play(p) => Some(p),
                Move::Pass => None,
            };
        }
        true
    }
}

/// Offsets of each feature group in the strength vector.
fn offsets(shapes: usize) -> [usize; 4] {
    let d = shapes;
    let c = d + DISTANCE_BUCKETS as usize;
    let s = c + CAPTURE_BUCKETS as usize;
    [0, d, c, s]
}

fn strength(gamma: &[f64], off: &[usize; 4], f: &Features) -> f64 {
    (0..4).map(|g| gamma[off[g] + f[g] as usize]).product()
}

/// Fits the strengths: `iterations` rounds of one MM update per feature group.
fn fit(data: &Data, iterations: usize) -> Vec<f64> {
    let off = offsets(data.shapes.len());
    let total = off[3] + SELF_ATARI_BUCKETS as usize;
    let mut gamma = vec![1.0f64; total];
    let mut wins = vec![0.0f64; total];
    for pos in &data.positions {
        let f = &data.candidates[pos.start + pos.chosen];
        for g in 0..4 {
            wins[off[g] + f[g] as usize] += 1.0;
        }
    }
    let mut denominators = vec![0.0f64; total];
    for round in 0..iterations {
        for g in 0..4 {
            denominators.iter_mut().for_each(|d| *d = 0.0);
            for pos in &data.positions {
                let cands = &data.candidates[pos.start..pos.end];
                let e: f64 = cands.iter().map(|f| strength(&gamma, &off, f)).sum();
                for f in cands {
                    let i = off[g] + f[g] as usize;
                    denominators[i] += strength(&gamma, &off, f) / gamma[i] / e;
                }
            }
            let end = if g == 3 { total } else { off[g + 1] };
            for i in off[g]..end {
                // One virtual win and one virtual loss against strength 1.
                gamma[i] = (wins[i] + 1.0) / (denominators[i] + 2.0 / (gamma[i] + 1.0));
            }
        }
        if round % 10 == 9 || round + 1 == iterations {
            eprintln!(
                "round {}: log-likelihood per move {:.4}",
                round + 1,
                log_likelihood(data, &gamma, &off)
            );
        }
    }
    gamma
}

fn log_likelihood(data: &Data, gamma: &[f64], off: &[usize; 4]) -> f64 {
    let mut sum = 0.0;
    for pos in &data.positions {
        let cands = &data.candidates[pos.start..pos.end];
        let e: f64 = cands.iter().map(|f| strength(gamma, off, f)).sum();
        sum += (strength(gamma, off, &cands[pos.chosen]) / e).ln();
    }
    sum / data.positions.len().max(1) as f64
}

fn sgf_files(path: &Path, out: &mut Vec<PathBuf>) {
    if path.is_dir() {
        let Ok(entries) = std::fs::read_dir(path) else {
            eprintln!("cannot read {}", path.display());
            return;
        };
        // Directory entries are not followed through symbolic links (no loops).
        let mut entries: Vec<(PathBuf, bool)> = entries
            .filter_map(|e| e.ok())
            .map(|e| (e.path(), e.file_type().is_ok_and(|t| t.is_dir())))
            .collect();
        entries.sort();
        for (p, is_dir) in entries {
            if is_dir {
                sgf_files(&p, out);
            } else if p.extension().is_some_and(|e| e == "sgf") {
                out.push(p);
            }
        }
    } else {
        out.push(path.to_path_buf());
    }
}

fn main() {
    let mut min_seen = 20u64;
    let mut iterations = 40usize;
    let mut inputs = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut number = |name: &str| -> u64 {
            match args.next().and_then(|v| v.parse().ok()) {
                Some(v) => v,
                None => {
                    eprintln!("{name} needs a whole number");
                    std::process::exit(2);
                }
            }
        };
        match a.as_str() {
            "--min-seen" => min_seen = number("--min-seen"),
            "--iterations" => iterations = number("--iterations") as usize,
            flag if flag.starts_with("--") => {
                eprintln!("unknown option {flag}");
                std::process::exit(2);
            }
            _ => inputs.push(PathBuf::from(a)),
        }
    }
    if inputs.is_empty() {
        eprintln!("usage: learn_shapes [--min-seen N] [--iterations N] RECORDS...");
        std::process::exit(2);
    }
    let mut files = Vec::new();
    for i in &inputs {
        sgf_files(i, &mut files);
    }
    let mut data = Data {
        positions: Vec::new(),
        candidates: Vec::new(),
        shapes: Vec::new(),
        shape_index: HashMap::new(),
    };
    let (mut games, mut cut_short) = (0, 0);
    for f in &files {
        let text = match std::fs::read_to_string(f) {
            Ok(t) => t,
            Err(e) => {
                eprintln!("skipping {}: {e}", f.display());
                continue;
            }
        };
        match parse_sgf(&text) {
            Ok(sgf) => {
                if !data.add_game(&sgf.game) {
                    eprintln!("{}: replay stopped early", f.display());
                    cut_short += 1;
                }
                games += 1;
            }
            Err(e) => eprintln!("skipping {}: {e}", f.display()),
        }
    }
    eprintln!(
        "{games} games ({cut_short} cut short), {} positions, {} candidates, {} shapes",
        data.positions.len(),
        data.candidates.len(),
        data.shapes.len()
    );
    let gamma = fit(&data, iterations);
    let off = offsets(data.shapes.len());
    // How often each shape was a candidate, and how often it was played.
    let mut seen = vec![0u64; data.shapes.len()];
    let mut played = vec![0u64; data.shapes.len()];
    for pos in &data.positions {
        for (k, f) in data.candidates[pos.start..pos.end].iter().enumerate() {
            seen[f[0] as usize] += 1;
            if k == pos.chosen {
                played[f[0] as usize] += 1;
            }
        }
    }
    // Scale so that a move in open space (nothing but empty points around it) has
    // strength 1, as every shape the table leaves out has in the engine.
    let open = data
        .shape_index
        .get(&canonical(0xAAAA))
        .map_or(1.0, |&i| gamma[i as usize]);
    let mut rows: Vec<(f64, usize)> = (0..data.shapes.len())
        .filter(|&i| seen[i] >= min_seen)
        .map(|i| (gamma[i] / open, i))
        .collect();
    rows.sort_by(|a, b| b.0.total_cmp(&a.0));
    println!("# Tengen's learned 3x3 shapes: SHAPE STRENGTH PLAYED SEEN.");
    println!(
        "# Written by engine/examples/learn_shapes.rs (read it for the method and the format);"
    );
    println!(
        "# SHAPE is seen from the mover: X mine, O theirs, lower case in atari, # off the board."
    );
    let records: Vec<String> = inputs.iter().map(|i| i.display().to_string()).collect();
    println!("# Records: {}.", records.join(" "));
    println!(
        "# {games} games, {} positions; shapes seen at least {min_seen} times as candidates.",
        data.positions.len()
    );
    println!(
        "# Log-likelihood per move {:.4}; the other features' strengths:",
        log_likelihood(&data, &gamma, &off)
    );
    let show = |name: &str, g: usize, n: u32| {
        let list: Vec<String> = (0..n as usize)
            .map(|k| format!("{:.3}", gamma[off[g] + k]))
            .collect();
        println!("#   {name}: {}", list.join(" "));
    };
    show("distance (far, 2, 3, 4, 5, 6-7, 8-10)", 1, DISTANCE_BUCKETS);
    show("capture (none, 1 stone, 2+)", 2, CAPTURE_BUCKETS);
    show("self-atari (none, 1 stone, 2+)", 3, SELF_ATARI_BUCKETS);
    for (g, i) in rows {
        println!(
            "{} {:.4} {} {}",
            describe(data.shapes[i]),
            g,
            played[i],
            seen[i]
        );
    }
}
