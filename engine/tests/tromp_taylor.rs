//! Passing under Tromp-Taylor, the rules CGOS plays, as data in
//! `tests/data/tromp-taylor/*.txt` (the format is in each file's header): the count
//! takes the board as it stands, so Tengen's `genmove` must capture the stones it
//! judges dead before it passes, where the pass that Chinese rules allow would lose.

use std::sync::atomic::AtomicBool;

use tengen_board::{Color, Game, Move, Point, Rules, parse_diagram};
use tengen_engine::{Config, Decision, Engine, Limit, SearchRequest, wins_by_the_count};

#[path = "../../tests/support/cases.rs"]
mod cases;
use cases::{check_cases, is_diagram_row, read_cases};

/// Tengen's playouts a move.
const PLAYOUTS: u64 = 1000;
/// The most moves Tengen gets to capture the dead stones.
const MAX_MOVES: usize = 30;

struct Case {
    name: String,
    tengen: Color,
    rows: Vec<String>,
    captured: Vec<String>,
}

fn parse(text: &str) -> Result<Vec<Case>, String> {
    let new = |name: &str| Case {
        name: name.to_string(),
        tengen: Color::Black,
        rows: Vec::new(),
        captured: Vec::new(),
    };
    read_cases(text, new, |case, words, line| {
        match words[0] {
            "tengen" => {
                case.tengen = match words.get(1) {
                    Some(&"black") => Color::Black,
                    Some(&"white") => Color::White,
                    _ => return Err("tengen black|white".to_string()),
                }
            }
            "captured" => case
                .captured
                .extend(words[1..].iter().map(|s| s.to_string())),
            _ if is_diagram_row(line) => case.rows.push(line.to_string()),
            w => return Err(format!("unknown statement {w:?}")),
        }
        Ok(())
    })
}

/// The game of a case under `rules`: the diagram as setup stones, then the
/// opponent's pass.
fn game_of(case: &Case, rules: Rules) -> Result<Game, String> {
    let board = parse_diagram(&case.rows.join("\n")).map_err(|e| e.to_string())?;
    let mut game = Game::from_setup(&board, rules).map_err(|e| e.to_string())?;
    game.play(case.tengen.opponent(), Move::Pass)
        .map_err(|e| e.to_string())?;
    Ok(game)
}

fn engine() -> Engine {
    Engine::new(Config {
        threads: 1,
        seed: 11,
        ..Config::default()
    })
}

fn genmove(engine: &mut Engine, game: &Game, color: Color) -> Decision {
    let stop = AtomicBool::new(false);
    let limit = Limit::Playouts(PLAYOUTS);
    engine.genmove(SearchRequest::new(game, color, limit, &stop))
}

/// Plays one case out; the errors it finds.
fn check(case: &Case) -> Result<(), String> {
    let tengen = case.tengen;
    let them = tengen.opponent();
    let chinese = game_of(case, Rules::chinese())?;
    let size = chinese.size();
    let targets = case
        .captured
        .iter()
        .map(|v| size.parse_point(v).map_err(|e| format!("{v}: {e}")))
        .collect::<Result<Vec<Point>, _>>()?;
    if targets.is_empty() {
        return Err("no `captured` statement".into());
    }
    for &p in &targets {
        if chinese.board().color_at(p) != Some(them) {
            return Err(format!("{}: not the opponent's stone", size.vertex(p)));
        }
    }
    // The data's point: Chinese rules pass here, and that pass loses by the count.
    let naive = genmove(&mut engine(), &chinese, tengen);
    if naive != Decision::Play(Move::Pass) {
        return Err(format!(
            "under Chinese rules Tengen plays {naive:?}, not a pass"
        ));
    }
    if wins_by_the_count(&chinese, tengen) {
        return Err("passing at once already wins by the count of the board".into());
    }
    let mut game = game_of(case, Rules::tromp_taylor())?;
    let mut engine = engine();
    let mut played = Vec::new();
    for _ in 0..MAX_MOVES {
        let mv = match genmove(&mut engine, &game, tengen) {
            Decision::Play(mv) => mv,
            Decision::Resign => return Err(format!("Tengen resigned after {played:?}")),
        };
        played.push(size.move_vertex(mv).to_string());
        game.play(tengen, mv)
            .map_err(|e| format!("illegal {mv:?}: {e}"))?;
        if mv == Move::Pass {
            break;
        }
        game.play(them, Move::Pass).map_err(|e| e.to_string())?;
    }
    if !game.is_over() {
        return Err(format!("no pass in {MAX_MOVES} moves: {played:?}"));
    }
    let standing: Vec<String> = targets
        .iter()
        .filter(|&&p| game.board().color_at(p) == Some(them))
        .map(|&p| size.vertex(p).to_string())
        .collect();
    if !standing.is_empty() {
        return Err(format!("{standing:?} still stand after {played:?}"));
    }
    if !wins_by_the_count(&game, tengen) {
        return Err(format!(
            "the count {:?} of the final board loses after {played:?}",
            game.tromp_taylor_score()
        ));
    }
    Ok(())
}

#[test]
fn tengen_captures_dead_stones_before_it_passes_under_tromp_taylor() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/data/tromp-taylor");
    let files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .collect();
    let (checked, failures) = check_cases(
        &files,
        parse,
        |c| &c.name,
        |case| check(case).err().into_iter().collect(),
    );
    assert!(checked >= 3, "only {checked} cases");
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
}
