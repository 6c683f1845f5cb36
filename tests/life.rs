//! Life-and-death fixtures: positions and the expected status of every group, as
//! data in `tests/data/life/*.txt`, checked against the static layer
//! (`tengen_board::StaticLife`) and the engine's end-of-game judgement
//! (`Engine::judge`: what `final_status_list` and `tengen-ownership` answer) alike.
//!
//! The format, one statement a line (`#` starts a comment):
//!
//! ```text
//! case NAME                  a new case (Chinese rules, komi 7.5, Black to move)
//! rules chinese|japanese     the rule set (komi 7.5 or 6.5 unless `komi` follows)
//! komi 0.5
//! to-move b|w
//! X O . +                    diagram rows, top row first
//! alive A1 C3                each vertex stands for its group: the judgement lists
//! dead D4                    it alive / dead / in seki, and its ownership agrees
//! seki E5                    (its mean above +0.1 for its own colour if it lives,
//!                            below -0.1 if it is dead)
//! pass-alive F6              also proven by the static layer: unconditionally alive
//! proven-dead G7             also proven: unconditionally dead
//! proven-seki H8             also proven: in a seki the local search proves, with
//!                            pass-alive walls (never overruled by playouts)
//! local-seki H8              in a seki the local search proves as long as its walls
//!                            live (they are not all pass-alive)
//! no-seki J9                 the static layer finds no seki holding it (whatever
//!                            the judgement says)
//! local-dead A1              also proven: the local search kills it, kos played
//!                            out without threats (its walls need not be
//!                            pass-alive)
//! territory b|w J9 …         empty points of that colour's pass-alive territory
//! undecided A1 …             the static layer proves nothing there
//! ```
//!
//! Every stone of the diagram must belong to a group that some statement names.

use tengen_board::{
    Bitboard, Board, Color, Game, Point, Rules, StaticLife, Unconditional, parse_diagram,
};
use tengen_engine::{Config, Engine};

use crate::support::cases::{check_cases, is_diagram_row, read_cases};

/// How far a group's mean ownership must lean to its side. The judgement puts a
/// stone's ownership on the side of its status (0 at worst), so a bar above 0 checks
/// that the playouts or a proof agree with the status, not only the clamp: before
/// the local search read one-colour eye spaces, the dead square four stood at -0.07.
const OWNED: f32 = 0.1;

/// What a case expects of a group or a point.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Expect {
    Alive,
    Dead,
    Seki,
}

/// What a case expects the static layer's seki search to say of a group.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum SekiProof {
    /// In a seki with pass-alive walls.
    Proven,
    /// In a seki whose walls are not all pass-alive.
    Local,
    /// In no seki.
    None,
}

struct Case {
    name: String,
    rules: Rules,
    komi: Option<f64>,
    to_move: Color,
    rows: Vec<String>,
    /// A vertex, what the judgement must say of its group, and what the static layer
    /// must prove of it, if anything.
    groups: Vec<(String, Expect, Option<Unconditional>)>,
    territory: Vec<(String, Color)>,
    undecided: Vec<String>,
    seki_proofs: Vec<(String, SekiProof)>,
    local_dead: Vec<String>,
}

impl Case {
    fn new(name: &str) -> Case {
        Case {
            name: name.to_string(),
            rules: Rules::chinese(),
            komi: None,
            to_move: Color::Black,
            rows: Vec::new(),
            groups: Vec::new(),
            territory: Vec::new(),
            undecided: Vec::new(),
            seki_proofs: Vec::new(),
            local_dead: Vec::new(),
        }
    }
}

fn parse(text: &str) -> Result<Vec<Case>, String> {
    read_cases(text, Case::new, |case, words, line| {
        let vertices = |from: usize| words[from..].iter().map(|s| s.to_string());
        let arg = |i: usize| {
            words
                .get(i)
                .copied()
                .ok_or_else(|| format!("{} needs an argument", words[0]))
        };
        match words[0] {
            "rules" => case.rules = arg(1)?.parse().map_err(|e| format!("{e}"))?,
            "komi" => case.komi = Some(arg(1)?.parse().map_err(|_| "bad komi")?),
            "to-move" => case.to_move = arg(1)?.parse().map_err(|_| "bad colour")?,
            "alive" | "dead" | "seki" | "pass-alive" | "proven-dead" => {
                let (expect, proven) = match words[0] {
                    "alive" => (Expect::Alive, None),
                    "dead" => (Expect::Dead, None),
                    "seki" => (Expect::Seki, None),
                    "pass-alive" => (Expect::Alive, Some(Unconditional::Alive)),
                    _ => (Expect::Dead, Some(Unconditional::Dead)),
                };
                case.groups.extend(vertices(1).map(|v| (v, expect, proven)));
            }
            "territory" => {
                let c: Color = arg(1)?.parse().map_err(|_| "bad colour")?;
                case.territory.extend(vertices(2).map(|v| (v, c)));
            }
            "undecided" => case.undecided.extend(vertices(1)),
            "proven-seki" | "local-seki" => {
                let proof = if words[0] == "proven-seki" {
                    SekiProof::Proven
                } else {
                    SekiProof::Local
                };
                case.groups
                    .extend(vertices(1).map(|v| (v, Expect::Seki, None)));
                case.seki_proofs.extend(vertices(1).map(|v| (v, proof)));
            }
            "local-dead" => {
                case.groups
                    .extend(vertices(1).map(|v| (v, Expect::Dead, None)));
                case.local_dead.extend(vertices(1));
            }
            "no-seki" => case
                .seki_proofs
                .extend(vertices(1).map(|v| (v, SekiProof::None))),
            _ if is_diagram_row(line) => case.rows.push(line.to_string()),
            w => return Err(format!("unknown statement {w:?}")),
        }
        Ok(())
    })
}

/// The game of a case: the diagram as setup stones.
fn game_of(case: &Case) -> Result<Game, String> {
    let board = parse_diagram(&case.rows.join("\n")).map_err(|e| e.to_string())?;
    let komi = case.komi.unwrap_or(case.rules.komi());
    let rules = case.rules.with_komi(komi).map_err(|e| e.to_string())?;
    let mut game = Game::from_setup(&board, rules).map_err(|e| e.to_string())?;
    game.set_to_move(case.to_move);
    Ok(game)
}

fn point(board: &Board, v: &str) -> Result<Point, String> {
    board
        .size()
        .parse_point(v)
        .map_err(|e| format!("vertex {v}: {e}"))
}

/// Runs one case; the errors it finds.
fn check(case: &Case) -> Vec<String> {
    let mut errors = Vec::new();
    let game = match game_of(case) {
        Ok(g) => g,
        Err(e) => return vec![e],
    };
    let board = game.board();
    let life = StaticLife::of_game(&game);
    let mut engine = Engine::new(Config {
        threads: 1,
        seed: 11,
        ..Config::default()
    });
    let judgement = engine.judge(&game);
    let n = board.size().get();
    let own = |p: Point, c: Color| {
        let (x, y) = board.size().coords(p);
        let v = judgement.ownership[(n - 1 - y) * n + x];
        if c == Color::Black { v } else { -v }
    };
    let mut named = Bitboard::EMPTY;
    for (v, expect, proven) in &case.groups {
        let p = match point(board, v) {
            Ok(p) => p,
            Err(e) => {
                errors.push(e);
                continue;
            }
        };
        let Some(c) = board.color_at(p) else {
            errors.push(format!("{v} is empty"));
            continue;
        };
        for s in board.group_stones(p) {
            named.insert(s);
        }
        let st = &judgement.status;
        let got = if st.dead.contains(p) {
            Expect::Dead
        } else if st.seki.contains(p) {
            Expect::Seki
        } else {
            Expect::Alive
        };
        if got != *expect {
            errors.push(format!("{v}: judged {got:?}, expected {expect:?}"));
        }
        let mean = {
            let stones: Vec<Point> = board.group_stones(p).collect();
            stones.iter().map(|&s| own(s, c)).sum::<f32>() / stones.len() as f32
        };
        let ownership_ok = match expect {
            Expect::Dead => mean < -OWNED,
            Expect::Alive | Expect::Seki => mean > OWNED,
        };
        if !ownership_ok {
            errors.push(format!(
                "{v}: ownership {mean:.2} for its colour, expected {expect:?}"
            ));
        }
        if let Some(u) = proven {
            let got = life.unconditional(board, p);
            if got != *u {
                errors.push(format!("{v}: the static layer says {got}, expected {u}"));
            }
        }
    }
    let stones = board.stones(Color::Black).or(board.stones(Color::White));
    if let Some(p) = stones.and_not(&named).first() {
        errors.push(format!(
            "the group on {} has no expected status",
            board.size().vertex(p)
        ));
    }
    for (v, c) in &case.territory {
        match point(board, v) {
            Ok(p) if life.unconditional(board, p) == Unconditional::Territory(*c) => {}
            Ok(p) => errors.push(format!(
                "{v}: {}, expected {c:?}'s territory",
                life.unconditional(board, p)
            )),
            Err(e) => errors.push(e),
        }
    }
    for (v, want) in &case.seki_proofs {
        let p = match point(board, v) {
            Ok(p) => p,
            Err(e) => {
                errors.push(e);
                continue;
            }
        };
        let got = match life.seki.iter().find(|s| s.stones.contains(p)) {
            Some(s) if s.proven => SekiProof::Proven,
            Some(_) => SekiProof::Local,
            None => SekiProof::None,
        };
        if got != *want {
            errors.push(format!(
                "{v}: the seki search says {got:?}, expected {want:?}"
            ));
        }
    }
    for v in &case.local_dead {
        match point(board, v) {
            Ok(p) if life.local_dead.iter().any(|d| d.stones.contains(p)) => {}
            Ok(_) => errors.push(format!("{v}: the local search proves no death")),
            Err(e) => errors.push(e),
        }
    }
    for v in &case.undecided {
        match point(board, v) {
            Ok(p) if life.unconditional(board, p) == Unconditional::Undecided => {}
            Ok(p) => errors.push(format!(
                "{v}: {}, expected undecided",
                life.unconditional(board, p)
            )),
            Err(e) => errors.push(e),
        }
    }
    errors
}

#[test]
fn every_life_fixture_holds() {
    let files = crate::support::fixture_files("life");
    let (count, failures) = check_cases(&files, parse, |c| &c.name, check);
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(count >= 40, "at least 40 fixtures, found {count}");
}

#[test]
fn the_format_rejects_what_it_does_not_know() {
    assert!(parse("alive A1").is_err(), "a statement before `case`");
    assert!(
        parse("case x\nalive\nfoo A1").is_err(),
        "an unknown statement"
    );
    let cases = parse("case c\nrules japanese\nX O\nO .\nalive A2").unwrap();
    assert_eq!(cases[0].rows.len(), 2);
    assert_eq!(cases[0].groups.len(), 1);
}
