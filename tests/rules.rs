//! Rules fixtures: positions and assertions as data in `tests/data/rules/*.txt`, run
//! against `tengen_board::Game` and the reference board of `support` alike.
//!
//! The format, one statement a line (`#` starts a comment):
//!
//! ```text
//! case NAME                       a new case: empty 19x19 board, Chinese rules
//! rules chinese|japanese|tromp-taylor
//! ko simple|positional|situational
//! suicide on|off
//! komi 6.5
//! X O . +                         diagram rows (top row first) give the start position
//! to-move b|w                     the side to move at the start
//! handicap N                      GTP's fixed handicap on the empty board (a diagram
//!                                 may show its stones)
//! play b C3                       the move must be legal; `-> captures N` / `-> suicide N`
//! pass w
//! illegal w D4 suicide            must be refused for that reason (occupied, ko,
//!                                 suicide, superko); nothing changes
//! legal w D4                      must be allowed (not played)
//! undo                            takes back the last move
//! expect                          the diagram rows that follow are the position now
//! next b                          the side to move now
//! prisoners b 3                   stones Black has captured
//! size 9                        an empty 9x9 start position
//! no-handicap 5                   GTP's fixed handicap refuses 5 stones on this size
//! score area B+9.5 [dead C3] [seki E5]   the result by area counting; each vertex
//!                                 after `dead`/`seki` stands for its whole group
//! score territory W+0.5 [dead …] [seki …] [totals 3 3.5]   by territory counting,
//!                                 optionally with each side's points
//! ```
//!
//! After every statement the Game and the reference must show the same stones.

use std::path::Path;

use tengen_board::{
    Bitboard, BoardSize, Color, Game, HandicapCompensation, KoRule, Move, Rules, Scoring,
};

use crate::support::{
    RefBoard, RefGame, RefRules, grid_diagram, grid_of, index_of, is_diagram_line, parse_grid,
    parse_vertex, point_of, ref_area_score, ref_territory_score, tengen_error_name,
};

/// One case in progress.
struct Case {
    name: String,
    rules: Rules,
    start: Option<(usize, Vec<Option<Color>>)>,
    to_move: Option<Color>,
    handicap: Option<u32>,
    game: Option<(Game, RefGame)>,
}

impl Case {
    fn new(name: &str) -> Case {
        Case {
            name: name.to_string(),
            rules: Rules::chinese(),
            start: None,
            to_move: None,
            handicap: None,
            game: None,
        }
    }

    /// The game pair, built from the start position at the first action.
    fn games(&mut self) -> Result<&mut (Game, RefGame), String> {
        if self.game.is_none() {
            let (n, grid) = self
                .start
                .clone()
                .unwrap_or_else(|| (19, vec![None; 19 * 19]));
            let size = BoardSize::new(n as u32).map_err(|e| e.to_string())?;
            let mut game = Game::new(size, self.rules);
            let mut board = RefBoard::new(n);
            if let Some(h) = self.handicap {
                let points = game
                    .place_fixed_handicap(h)
                    .map_err(|e| format!("handicap {h}: {e}"))?;
                // The reference has no handicap table: it takes the stones Game placed,
                // and the case's `expect` diagram checks them.
                for p in points {
                    board.grid[index_of(size, p)] = Some(Color::Black);
                }
            }
            for c in Color::ALL {
                for (i, cell) in grid.iter().enumerate() {
                    // A diagram shows the handicap stones too: they are there already.
                    let placed = board.grid[i] == Some(c) && self.handicap.is_some();
                    if *cell == Some(c) && !placed {
                        game.add_setup_stone(c, point_of(size, i))
                            .map_err(|e| format!("setup stone at index {i}: {e}"))?;
                        board.grid[i] = Some(c);
                    }
                }
            }
            let to_move = self.to_move.unwrap_or(game.to_move());
            if to_move != game.to_move() {
                game.set_to_move(to_move);
            }
            let reference = RefGame::new(board, RefRules::of(&self.rules), to_move);
            self.game = Some((game, reference));
        }
        Ok(self.game.as_mut().expect("built"))
    }
}

fn color(s: &str) -> Result<Color, String> {
    s.parse::<Color>().map_err(|e| format!("{s:?}: {e}"))
}

/// The reference's result text for a (black, white) score: `B+3.5`, `W+1`, `0`.
fn result_text(black: f64, white: f64) -> String {
    let m = black - white;
    let num = |x: f64| {
        if x.fract() == 0.0 {
            format!("{}", x as i64)
        } else {
            format!("{x}")
        }
    };
    if m > 0.0 {
        format!("B+{}", num(m))
    } else if m < 0.0 {
        format!("W+{}", num(-m))
    } else {
        "0".into()
    }
}

/// Runs one statement of a case.
fn statement(
    case: &mut Case,
    words: &[&str],
    expect: &mut Option<Vec<String>>,
) -> Result<(), String> {
    match words {
        ["rules", name] => case.rules = name.parse().map_err(|e| format!("{e}"))?,
        ["size", n] => {
            let n: usize = n.parse().map_err(|_| format!("bad size {n}"))?;
            case.start = Some((n, vec![None; n * n]));
        }
        ["no-handicap", h] => {
            let h: u32 = h.parse().map_err(|_| "bad handicap")?;
            let n = case.start.as_ref().map_or(19, |s| s.0);
            let size = BoardSize::new(n as u32).map_err(|e| e.to_string())?;
            if Game::new(size, case.rules).place_fixed_handicap(h).is_ok() {
                return Err(format!("{h} handicap stones accepted on {n}x{n}"));
            }
        }
        ["ko", k] => {
            case.rules.ko = match *k {
                "simple" => KoRule::Simple,
                "positional" => KoRule::Positional,
                "situational" => KoRule::Situational,
                _ => return Err(format!("unknown ko rule {k}")),
            }
        }
        ["suicide", on] => case.rules.suicide = *on == "on",
        ["komi", k] => {
            let k: f64 = k.parse().map_err(|_| format!("bad komi {k}"))?;
            case.rules.set_komi(k).map_err(|e| e.to_string())?;
        }
        ["to-move", c] => case.to_move = Some(color(c)?),
        ["handicap", h] => case.handicap = Some(h.parse().map_err(|_| "bad handicap")?),
        ["expect"] => *expect = Some(Vec::new()),
        ["play" | "pass" | "illegal" | "legal", c, rest @ ..] => {
            let c = color(c)?;
            let (game, reference) = case.games()?;
            let size = game.size();
            let n = size.get();
            let verb = words[0];
            let (vertex, rest) = if verb == "pass" {
                ("pass", rest)
            } else {
                rest.split_first()
                    .map(|(v, r)| (*v, r))
                    .ok_or("missing vertex")?
            };
            let (mv, ref_mv) = if vertex == "pass" {
                (Move::Pass, None)
            } else {
                let m = size
                    .parse_move(vertex)
                    .map_err(|e| format!("{vertex}: {e}"))?;
                let i = parse_vertex(n, vertex).ok_or(format!("{vertex}: not on the board"))?;
                (m, Some(i))
            };
            match verb {
                "play" | "pass" => {
                    let info = game
                        .play(c, mv)
                        .map_err(|e| format!("Game refused {c} {vertex}: {e}"))?;
                    let out = reference
                        .play(c, ref_mv)
                        .map_err(|e| format!("reference refused {c} {vertex}: {e:?}"))?;
                    if u32::from(info.captured) != out.captured
                        || u32::from(info.suicided) != out.suicided
                    {
                        return Err(format!(
                            "{vertex}: Game {info:?}, reference {out:?} disagree"
                        ));
                    }
                    match rest {
                        [] => {}
                        ["->", "captures", k] => {
                            let k: u16 = k.parse().map_err(|_| "bad count")?;
                            if info.captured != k {
                                return Err(format!("captured {} not {k}", info.captured));
                            }
                        }
                        ["->", "suicide", k] => {
                            let k: u16 = k.parse().map_err(|_| "bad count")?;
                            if info.suicided != k {
                                return Err(format!("suicided {} not {k}", info.suicided));
                            }
                        }
                        _ => return Err(format!("cannot read {rest:?}")),
                    }
                }
                "illegal" => {
                    let [why] = rest else {
                        return Err("illegal needs a reason".into());
                    };
                    let before = game.board().clone();
                    match game.check(c, mv) {
                        Ok(()) => return Err(format!("Game allows {c} {vertex}")),
                        Err(e) if tengen_error_name(e) != *why => {
                            return Err(format!("Game refuses {c} {vertex} as {e}, not {why}"));
                        }
                        Err(_) => {}
                    }
                    if game.play(c, mv).is_ok() || game.board() != &before {
                        return Err(format!("Game played the illegal {c} {vertex}"));
                    }
                    match reference.after(c, ref_mv) {
                        Ok(_) => return Err(format!("reference allows {c} {vertex}")),
                        Err(e) if e.name() != *why => {
                            return Err(format!("reference refuses {c} {vertex} as {e:?}"));
                        }
                        Err(_) => {}
                    }
                }
                _ => {
                    if !rest.is_empty() {
                        return Err(format!("cannot read {rest:?}"));
                    }
                    if let Err(e) = game.check(c, mv) {
                        return Err(format!("Game refuses {c} {vertex}: {e}"));
                    }
                    if let Err(e) = reference.after(c, ref_mv) {
                        return Err(format!("reference refuses {c} {vertex}: {e:?}"));
                    }
                }
            }
        }
        ["undo"] => {
            let (game, reference) = case.games()?;
            if game.undo().is_none() || !reference.undo() {
                return Err("nothing to undo".into());
            }
        }
        ["next", c] => {
            let c = color(c)?;
            let (game, reference) = case.games()?;
            if game.to_move() != c || reference.to_move != c {
                return Err(format!(
                    "to move: Game {}, reference {}, expected {c}",
                    game.to_move(),
                    reference.to_move
                ));
            }
        }
        ["prisoners", c, k] => {
            let c = color(c)?;
            let k: u32 = k.parse().map_err(|_| "bad count")?;
            let (game, reference) = case.games()?;
            let (g, r) = (
                game.board().prisoners()[c],
                reference.board.prisoners[c as usize],
            );
            if g != k || r != k {
                return Err(format!(
                    "prisoners of {c}: Game {g}, reference {r}, expected {k}"
                ));
            }
        }
        ["score", method, want, rest @ ..] => {
            let handicap = case.handicap.unwrap_or(0);
            let (game, reference) = case.games()?;
            let size = game.size();
            let n = size.get();
            // Each vertex after `dead` or `seki` names its whole group; `totals B W`
            // also checks each side's points (territory counting only: area gives
            // shared points to nobody, a convention not worth pinning).
            let (mut dead, mut seki, mut totals) = (Vec::new(), Vec::new(), Vec::new());
            let mut list = None;
            for w in rest {
                match *w {
                    "dead" => list = Some(0),
                    "seki" => list = Some(1),
                    "totals" => list = Some(2),
                    v if list == Some(2) => {
                        totals.push(v.parse::<f64>().map_err(|_| format!("bad total {v}"))?)
                    }
                    v => {
                        let i = parse_vertex(n, v).ok_or(format!("bad vertex {v}"))?;
                        if reference.board.grid[i].is_none() {
                            return Err(format!("no stone on {v}"));
                        }
                        let target = if list == Some(0) {
                            &mut dead
                        } else {
                            &mut seki
                        };
                        if list.is_none() {
                            return Err("points before `dead` or `seki`".into());
                        }
                        target.extend(reference.board.group(i).0);
                        target.sort_unstable();
                        target.dedup();
                    }
                }
            }
            // Game is told the same groups, found by its own board.
            let bits = |v: &[usize]| -> Bitboard {
                v.iter()
                    .flat_map(|&i| game.board().group_stones(point_of(size, i)))
                    .collect()
            };
            let mut scored = game.clone();
            let mut rules = *scored.rules();
            rules.scoring = match *method {
                "area" => Scoring::Area,
                "territory" => Scoring::Territory,
                _ => return Err(format!("unknown scoring {method}")),
            };
            scored.set_rules(rules);
            let score = scored.score(&bits(&dead), &bits(&seki));
            let got = score.result().to_string();
            // White's compensation for the handicap, under area scoring only: a
            // point a stone, or a stone after the first, when the rules give it.
            let bonus = match (*method, rules.handicap_compensation) {
                ("area", HandicapCompensation::PerStone) => f64::from(handicap),
                ("area", HandicapCompensation::PerStoneAfterFirst) => {
                    f64::from(handicap.saturating_sub(1))
                }
                _ => 0.0,
            };
            let komi = rules.komi() + bonus;
            let (b, w) = match *method {
                "area" => ref_area_score(&reference.board, &dead, komi),
                _ => ref_territory_score(&reference.board, &dead, &seki, komi),
            };
            let by_ref = result_text(b, w);
            if got != *want || by_ref != *want {
                return Err(format!(
                    "score {method}: Game {got}, reference {by_ref}, expected {want}"
                ));
            }
            if let [tb, tw] = totals[..] {
                if (score.black, score.white) != (tb, tw) || (b, w) != (tb, tw) {
                    return Err(format!(
                        "score {method} totals: Game {} {}, reference {b} {w}, expected {tb} {tw}",
                        score.black, score.white
                    ));
                }
            } else if !totals.is_empty() {
                return Err("totals needs two numbers".into());
            }
        }
        _ => return Err(format!("cannot read {words:?}")),
    }
    Ok(())
}

/// Compares a finished `expect` diagram with both boards.
fn compare_expect(case: &mut Case, rows: &[String]) -> Result<(), String> {
    let lines: Vec<&str> = rows.iter().map(String::as_str).collect();
    let (n, grid) = parse_grid(&lines).ok_or("expect: not a square diagram")?;
    let (game, reference) = case.games()?;
    if n != game.size().get() {
        return Err(format!(
            "expect: {n}x{n} diagram on a {} board",
            game.size()
        ));
    }
    let got = grid_of(game.board());
    if got != grid || reference.board.grid != grid {
        return Err(format!(
            "expected\n{}Game has\n{}reference has\n{}",
            grid_diagram(n, &grid),
            grid_diagram(n, &got),
            reference.board.diagram()
        ));
    }
    Ok(())
}

/// Runs every case of a fixture file; panics listing every failure.
fn check(file: &str) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/rules")
        .join(file);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut failures = Vec::new();
    let mut cases = 0;
    let mut case: Option<Case> = None;
    let mut diagram: Vec<String> = Vec::new();
    let mut expect: Option<Vec<String>> = None;
    let mut failed = false;
    let lines: Vec<&str> = text.lines().chain(["case <end>"]).collect();
    for (k, raw) in lines.iter().enumerate() {
        let line = raw.split('#').next().unwrap_or("").trim();
        let at = format!("{}:{}", file, k + 1);
        // A diagram block ends at the first line that is not a row.
        if is_diagram_line(line) {
            match expect.as_mut() {
                Some(rows) => rows.push(line.to_string()),
                None => diagram.push(line.to_string()),
            }
            continue;
        }
        if let Some(c) = case.as_mut().filter(|_| !failed) {
            if let Some(rows) = expect.take() {
                if let Err(e) = compare_expect(c, &rows) {
                    failures.push(format!("{at} [{}] {e}", c.name));
                    failed = true;
                }
            }
            if !diagram.is_empty() {
                let rows: Vec<&str> = diagram.iter().map(String::as_str).collect();
                match parse_grid(&rows) {
                    Some(start) if c.game.is_none() => c.start = Some(start),
                    Some(_) => {
                        failures.push(format!("{at} [{}] a diagram after the first move", c.name));
                        failed = true;
                    }
                    None => {
                        failures.push(format!("{at} [{}] start diagram is not a square", c.name));
                        failed = true;
                    }
                }
            }
        }
        expect = None;
        diagram.clear();
        if line.is_empty() {
            continue;
        }
        let words: Vec<&str> = line.split_whitespace().collect();
        if words[0] == "case" {
            if case.is_some() {
                cases += 1;
            }
            case = Some(Case::new(&words[1..].join(" ")));
            failed = false;
            continue;
        }
        let Some(c) = case.as_mut() else {
            failures.push(format!("{at}: statement before the first `case`"));
            continue;
        };
        if failed {
            continue;
        }
        let result = statement(c, &words, &mut expect).and_then(|()| {
            // After every statement both boards show the same stones.
            match c.game.as_ref() {
                Some((game, reference)) if grid_of(game.board()) != reference.board.grid => {
                    Err(format!(
                        "boards differ: Game\n{}reference\n{}",
                        grid_diagram(reference.board.n, &grid_of(game.board())),
                        reference.board.diagram()
                    ))
                }
                _ => Ok(()),
            }
        });
        if let Err(e) = result {
            failures.push(format!("{at} [{}] `{line}`: {e}", c.name));
            failed = true;
        }
    }
    assert!(cases > 0, "{file} has no case");
    assert!(
        failures.is_empty(),
        "{} failure(s):\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// Every fixture file, so that none is forgotten.
const FILES: &[&str] = &[
    "captures.txt",
    "snapback.txt",
    "suicide.txt",
    "ko.txt",
    "superko.txt",
    "scoring.txt",
    "handicap.txt",
];

#[test]
fn every_fixture_file_is_run() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/rules");
    let mut found: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    found.sort();
    let mut listed: Vec<String> = FILES.iter().map(|s| s.to_string()).collect();
    listed.sort();
    assert_eq!(found, listed);
}

#[test]
fn captures() {
    check("captures.txt");
}

#[test]
fn snapback() {
    check("snapback.txt");
}

#[test]
fn suicide() {
    check("suicide.txt");
}

#[test]
fn ko() {
    check("ko.txt");
}

#[test]
fn superko() {
    check("superko.txt");
}

#[test]
fn scoring() {
    check("scoring.txt");
}

#[test]
fn handicap() {
    check("handicap.txt");
}

#[test]
fn the_driver_catches_a_wrong_fixture() {
    // A driver that accepted anything would make every fixture pass: feed it a false
    // claim and see it fail.
    let mut case = Case::new("wrong");
    case.start = parse_grid(&[". X .", "X O X", ". . ."]);
    let mut expect = None;
    let mut run = |words: &[&str]| statement(&mut case, words, &mut expect);
    assert!(run(&["illegal", "w", "A1", "ko"]).is_err(), "A1 is legal");
    assert!(
        run(&["illegal", "w", "B2", "suicide"]).is_err(),
        "B2 is occupied"
    );
    assert!(
        run(&["play", "b", "C1", "->", "captures", "1"]).is_err(),
        "captures nothing"
    );
    assert!(run(&["play", "b", "A2"]).is_err(), "occupied");
    assert!(run(&["prisoners", "b", "1"]).is_err());
    assert!(run(&["score", "area", "B+1"]).is_err());
    assert!(run(&["play", "b", "B1", "->", "captures", "1"]).is_ok());
    assert!(run(&["prisoners", "b", "1"]).is_ok());
    assert!(compare_expect(&mut case, &[". X .".into(), "X O X".into(), ". X X".into()]).is_err());
    assert!(compare_expect(&mut case, &[". X .".into(), "X . X".into(), ". X X".into()]).is_ok());
}

#[test]
fn every_way_of_placing_a_handicap_counts_for_the_compensation() {
    let size = BoardSize::new(9).unwrap();
    let rules = Rules::chinese().with_komi(0.5).unwrap();
    let pt = |v: &str| size.parse_point(v).unwrap();
    // GTP fixed_handicap, and place_free_handicap / set_free_handicap.
    let mut fixed = Game::new(size, rules);
    fixed.place_fixed_handicap(3).unwrap();
    let mut free = Game::new(size, rules);
    free.place_handicap(&[pt("A1"), pt("J9"), pt("E5")])
        .unwrap();
    // An SGF's HA with as many AB stones.
    let sgf = "(;FF[4]GM[1]SZ[9]KM[0.5]RU[Chinese]HA[3]AB[aa][ii][ee])";
    let loaded = tengen_board::sgf::parse_sgf(sgf).unwrap().game;
    for g in [&fixed, &free, &loaded] {
        assert_eq!((g.handicap(), g.effective_komi()), (3, 3.5));
        // An empty board but the handicap: Black's 81 points less 3.5.
        assert_eq!(g.score(&Bitboard::EMPTY, &Bitboard::EMPTY).margin(), 77.5);
        assert_eq!(g.tromp_taylor_score().margin(), 77.5);
    }
    // Setup stones are not handicap.
    let mut setup = Game::new(size, rules);
    setup.add_setup_stone(Color::Black, pt("E5")).unwrap();
    assert_eq!((setup.handicap(), setup.effective_komi()), (0, 0.5));
    // New rules keep the handicap; territory counting does not compensate, but an
    // area count of the same game (the playouts', Tromp-Taylor's) still must.
    let mut japanese = fixed.clone();
    japanese.set_rules(Rules::japanese().with_komi(0.5).unwrap());
    assert_eq!(japanese.effective_komi(), 0.5);
    assert_eq!(japanese.area_komi(), 3.5);
    assert_eq!(fixed.area_komi(), 3.5);
    assert_eq!(Game::new(size, rules).area_komi(), 0.5);
}
