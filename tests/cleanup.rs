//! Clean-up play out to the end against a scripted opponent who disputes a dead
//! group, as data in `tests/data/cleanup/*.txt` (the format is in each file's
//! header): Tengen's `kgs-genmove_cleanup` (`Engine::genmove` in clean-up mode)
//! must capture what its judgement proves dead, whatever the opponent answers.

use std::sync::atomic::AtomicBool;

use tengen_board::{Bitboard, Color, Game, Move, Point, Rules, StaticLife, parse_diagram};
use tengen_engine::{Config, Decision, Engine, Limit, Mode, SearchRequest};

use crate::support::cases::{check_cases, is_diagram_row, read_cases};

/// Tengen's playouts a clean-up move (the budget at which an earlier clean-up lost the
/// bent four).
const PLAYOUTS: u64 = 1000;
/// The most moves Tengen gets to capture the group.
const MAX_MOVES: usize = 30;

struct Case {
    name: String,
    rules: Rules,
    rows: Vec<String>,
    answers: Vec<String>,
    captured: Option<String>,
}

fn parse(text: &str) -> Result<Vec<Case>, String> {
    let new = |name: &str| Case {
        name: name.to_string(),
        rules: Rules::chinese(),
        rows: Vec::new(),
        answers: Vec::new(),
        captured: None,
    };
    read_cases(text, new, |case, words, line| {
        match words[0] {
            "rules" => {
                let name = words.get(1).ok_or("rules what?")?;
                case.rules = name.parse().map_err(|e| format!("{e}"))?;
            }
            "answer" => case
                .answers
                .extend(words[1..].iter().map(|s| s.to_string())),
            "captured" => case.captured = words.get(1).map(|s| s.to_string()),
            _ if is_diagram_row(line) => case.rows.push(line.to_string()),
            w => return Err(format!("unknown statement {w:?}")),
        }
        Ok(())
    })
}

/// The game of a case: the diagram as setup stones, Black to move.
fn game_of(case: &Case) -> Result<Game, String> {
    let board = parse_diagram(&case.rows.join("\n")).map_err(|e| e.to_string())?;
    Game::from_setup(&board, case.rules).map_err(|e| e.to_string())
}

/// The scripted opponent's move: a pass after Tengen's pass (it accepts the end of
/// the game as it stands), else the largest capture it has, else its first legal
/// answer point, else a pass.
fn answer(game: &Game, c: Color, answers: &[Point]) -> Move {
    if game.last_move() == Some((c.opponent(), Move::Pass)) {
        return Move::Pass;
    }
    let mut best: Option<(u16, Point)> = None;
    for p in game.legal_points(c) {
        let mut g = game.clone();
        let Ok(info) = g.play(c, Move::Play(p)) else {
            continue;
        };
        if info.captured > 0 && best.is_none_or(|(n, _)| info.captured > n) {
            best = Some((info.captured, p));
        }
    }
    if let Some((_, p)) = best {
        return Move::Play(p);
    }
    answers
        .iter()
        .map(|&p| Move::Play(p))
        .find(|&mv| game.is_legal(c, mv))
        .unwrap_or(Move::Pass)
}

/// Plays one case out; the errors it finds.
fn check(case: &Case) -> Result<(), String> {
    let mut game = game_of(case)?;
    let size = game.size();
    let vertex = |v: &str| size.parse_point(v).map_err(|e| format!("{v}: {e}"));
    let answers = case
        .answers
        .iter()
        .map(|v| vertex(v))
        .collect::<Result<Vec<_>, _>>()?;
    let target = vertex(case.captured.as_deref().ok_or("no `captured` statement")?)?;
    let tengen = game.to_move();
    let them = tengen.opponent();
    if game.board().color_at(target) != Some(them) {
        return Err(format!("{}: not the opponent's stone", size.vertex(target)));
    }
    let chain: Bitboard = game.board().group_stones(target).collect();
    let life = StaticLife::of_game(&game);
    let death = life.local_dead.iter().find(|d| d.stones.contains(target));
    let area = death
        .ok_or("the local search proves no death there")?
        .area();
    let mut engine = Engine::new(Config {
        threads: 1,
        seed: 7,
        ..Config::default()
    });
    let stop = AtomicBool::new(false);
    let mut record = Vec::new();
    let captured = |g: &Game| chain.and(g.board().stones(them)).is_empty();
    while !captured(&game) && record.len() < 2 * MAX_MOVES && !game.is_over() {
        let limit = Limit::Playouts(PLAYOUTS);
        let mv = match engine
            .genmove(SearchRequest::new(&game, tengen, limit, &stop).mode(Mode::Cleanup))
        {
            Decision::Play(mv) => mv,
            Decision::Resign => return Err(format!("resigned after {record:?}")),
        };
        record.push(size.move_vertex(mv).to_string());
        game.play(tengen, mv)
            .map_err(|e| format!("{mv:?} after {record:?}: {e}"))?;
        if captured(&game) {
            break;
        }
        let reply = answer(&game, them, &answers);
        record.push(size.move_vertex(reply).to_string());
        game.play(them, reply).unwrap();
    }
    if !captured(&game) {
        return Err(format!(
            "the chain of {} lives: {record:?}",
            size.vertex(target)
        ));
    }
    eprintln!("{}: {record:?}", case.name);
    let status = engine.final_status(&game);
    let alive = area.and(game.board().stones(them)).and_not(&status.dead);
    if let Some(p) = alive.first() {
        return Err(format!("{} is alive after {record:?}", size.vertex(p)));
    }
    Ok(())
}

#[test]
fn clean_up_captures_what_the_local_search_proves_dead() {
    let files = crate::support::fixture_files("cleanup");
    let (count, failures) = check_cases(
        &files,
        parse,
        |c| &c.name,
        |case| check(case).err().into_iter().collect(),
    );
    assert!(count > 0, "no clean-up case found");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
