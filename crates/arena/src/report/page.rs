//! The report's HTML, written with `maud` (which escapes every value it is given): the
//! settings, the engines, the score, the SPRT, the Elo as games accumulate, results by
//! colour, for round robins the crosstable and the ratings, game lengths, time a move,
//! and a table of every game with a link to its SGF.

use std::path::Path;

use maud::{DOCTYPE, Markup, PreEscaped, html};

use super::ratings::{self, Rating, Results};
use super::series::{self, Step};
use super::{ReportSource, plots, sgf_link};
use crate::stats::{EloEstimate, Wdl};

/// The page's style sheet: plain, printable, wide tables scroll.
const STYLE: &str = "
body { font-family: system-ui, -apple-system, 'Segoe UI', Helvetica, Arial, sans-serif;
  margin: 2em auto; max-width: 1100px; padding: 0 1em; color: #222; line-height: 1.4; }
h1 { margin-bottom: 0.2em; } h2 { margin-top: 1.6em; border-bottom: 1px solid #ddd; }
p.sub, p.note { color: #555; } p.warn { color: #a40; }
table { border-collapse: collapse; margin: 0.6em 0; }
th, td { border: 1px solid #ddd; padding: 0.25em 0.6em; text-align: left; vertical-align: top; }
th { background: #f4f4f4; } td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
td.self { background: #eee; text-align: center; }
code { font-size: 0.9em; background: #f6f6f6; padding: 0.05em 0.3em; border-radius: 3px; }
.headline { font-size: 1.35em; margin: 0.6em 0; }
.win { color: #1a7f37; } .loss { color: #b42318; }
.detail { color: #666; font-size: 0.85em; }
figure { margin: 0.8em 0; } figure svg { max-width: 100%; height: auto; border: 1px solid #eee; }
div.scroll { overflow-x: auto; } td.record { white-space: nowrap; }
";

/// The whole page for `src`, with SGF links relative to `report_dir`.
pub fn render(src: &ReportSource<'_>, report_dir: &Path, date: Option<&str>) -> String {
    let page = Page::new(src);
    let title = page.title();
    html! {
        (DOCTYPE)
        html lang="en" {
            head {
                meta charset="utf-8";
                meta name="viewport" content="width=device-width, initial-scale=1";
                title { "Match report: " (title) }
                style { (PreEscaped(STYLE)) }
            }
            body {
                h1 { "Match report" }
                p.sub { (title) }
                (page.headline())
                (page.settings())
                (page.engines())
                (page.score())
                (page.sprt())
                (page.elo())
                (page.colours())
                @if page.labels.len() > 2 {
                    (page.crosstable())
                    (page.ratings())
                }
                (page.lengths())
                (page.times())
                (page.games(report_dir))
                p.note {
                    "Made by tengen-arena " (env!("CARGO_PKG_VERSION"))
                    @if let Some(d) = date { " on " (d) }
                    " from the journals of "
                    @for (i, d) in src.dirs.iter().enumerate() {
                        @if i > 0 { ", " }
                        code { (d.display()) }
                    }
                    ". This page is self-contained: no script, nothing fetched."
                }
            }
        }
    }
    .into_string()
}

/// What every section reads.
struct Page<'a> {
    src: &'a ReportSource<'a>,
    labels: Vec<String>,
    focus: usize,
    entries: Vec<crate::journal::Entry>,
}

/// `+12`, `-3`, `0`, `+inf`: an Elo value.
fn signed(x: f64) -> String {
    if x.is_infinite() {
        if x > 0.0 { "+∞" } else { "−∞" }.to_string()
    } else if x.round() == 0.0 {
        "0".into()
    } else if x > 0.0 {
        format!("+{x:.0}")
    } else {
        format!("−{:.0}", -x)
    }
}

fn elo_text(e: &EloEstimate) -> String {
    format!("{} [{}, {}]", signed(e.elo), signed(e.low), signed(e.high))
}

fn wdl_text(w: &Wdl) -> String {
    format!("+{} ={} −{}", w.wins, w.draws, w.losses)
}

fn percent(x: f64) -> String {
    format!("{:.1}%", 100.0 * x)
}

/// A plot, or why it could not be drawn.
fn figure(svg: Result<String, String>) -> Markup {
    match svg {
        Ok(svg) => html! { figure { (PreEscaped(svg)) } },
        Err(e) => html! { p.warn { "The plot could not be drawn: " (e) } },
    }
}

impl<'a> Page<'a> {
    fn new(src: &'a ReportSource<'a>) -> Page<'a> {
        Page {
            src,
            labels: src
                .summary
                .engines
                .iter()
                .map(|e| e.label.clone())
                .collect(),
            focus: src.summary.focus,
            entries: src.games.iter().map(|g| g.entry.clone()).collect(),
        }
    }

    fn label(&self, i: usize) -> &str {
        self.labels.get(i).map_or("?", String::as_str)
    }

    fn title(&self) -> String {
        match self.labels.len() {
            0 => "no engines".into(),
            2 => format!("{} vs {}", self.labels[0], self.labels[1]),
            n => format!("round robin of {n} engines: {}", self.labels.join(", ")),
        }
    }

    /// The pairs the focus plays in, from its side: `(opponent, record)`.
    fn focus_pairs(&self) -> Vec<&crate::summary::PairStats> {
        self.src
            .summary
            .pairs
            .iter()
            .filter(|p| p.a == self.focus)
            .collect()
    }

    fn headline(&self) -> Markup {
        let s = self.src.summary;
        let played = match s.planned {
            Some(p) => format!(
                "{} of {} played",
                s.games,
                tengen_board::counted(u64::from(p), "game", "games")
            ),
            None => tengen_board::counted(u64::from(s.games), "game", "games"),
        };
        html! {
            p.headline {
                (played)
                @if s.stopped_by_sprt { " (stopped early: the SPRT decided)" }
                @for p in self.focus_pairs().into_iter().take(1) {
                    br;
                    strong { (self.label(p.a)) } " against " (self.label(p.b)) ": "
                    (wdl_text(&p.wdl))
                    @if let Some((score, lo, hi)) = p.score {
                        ", score " strong { (percent(score)) } " [95%: " (percent(lo)) ", " (percent(hi)) "]"
                    }
                    @if let Some(e) = &p.elo {
                        ", Elo " strong class=(if e.elo > 0.0 { "win" } else if e.elo < 0.0 { "loss" } else { "" }) { (signed(e.elo)) }
                        " [95%: " (signed(e.low)) ", " (signed(e.high)) "]"
                    }
                }
            }
        }
    }

    fn settings(&self) -> Markup {
        let Some(m) = self.src.info else {
            return html! {
                h2 { "Settings" }
                p.warn { "These directories hold no match.json: the match's settings are not known." }
            };
        };
        let pairs = m.engines.len() * m.engines.len().saturating_sub(1) / 2;
        html! {
            h2 { "Settings" }
            table {
                tr { th { "Board" } td { (m.size) "×" (m.size) } }
                tr { th { "Komi" } td { (m.komi) } }
                tr { th { "Rules" } td { (m.rules) } }
                tr { th { "Handicap" } td { @if m.handicap == 0 { "none" } @else { (m.handicap) " stones" } } }
                tr { th { "Time" } td { @match &m.time { Some(t) => code { (t) }, None => "no clock (a limit a move only)" } } }
                tr { th { "Games" } td { (m.games) " for each pair of engines, " (m.games as usize * pairs) " in all" } }
                tr { th { "Move limit" } td { (m.max_moves) " moves, then the game is void" } }
                tr { th { "Openings" } td { @if m.openings == 0 { "none (every game from the empty board)" } @else { (m.openings) ", each played with both colours" } } }
                tr { th { "SPRT" } td { @match &m.sprt { Some(s) => code { (s) }, None => "none" } } }
                tr { th { "Seed" } td { (m.seed) } }
            }
        }
    }

    fn engines(&self) -> Markup {
        let records = self.src.info.map(|m| &m.engines);
        html! {
            h2 { "Engines" }
            table {
                tr { th.num { "#" } th { "Label" } th { "GTP name and version" } th { "Command line" } }
                @for (i, label) in self.labels.iter().enumerate() {
                    @let record = records.and_then(|r| r.iter().find(|e| &e.label == label));
                    tr {
                        td.num { (i + 1) }
                        td { (label) @if i == self.focus { " (focus)" } }
                        td { @if let Some(r) = record { (r.name) " " (r.version) } }
                        td { @match record { Some(r) => code { (r.command) }, None => "not recorded" } }
                    }
                }
            }
        }
    }

    fn score(&self) -> Markup {
        let s = self.src.summary;
        html! {
            h2 { "Score" }
            @if s.pairs.is_empty() {
                p { "No game has a result yet." }
            } @else {
                table {
                    tr { th { "Engine" } th { "Opponent" } th.num { "Games" } th { "Record" } th { "Score [95% interval]" } th { "Elo [95% interval]" } }
                    @for p in &s.pairs {
                        tr {
                            td { (self.label(p.a)) } td { (self.label(p.b)) }
                            td.num { (p.wdl.games()) }
                            td { (wdl_text(&p.wdl)) }
                            td { @if let Some((x, lo, hi)) = p.score { (percent(x)) " [" (percent(lo)) ", " (percent(hi)) "]" } }
                            td { @if let Some(e) = &p.elo { (elo_text(e)) } }
                        }
                    }
                }
                p.note { "Wins, draws and losses are told from the first engine's side. Score intervals are Wilson's; the Elo interval comes from the normal approximation of the mean score (Wilson's where every game had the same result)." }
            }
        }
    }

    fn steps(&self, a: usize, b: usize, sprt: Option<crate::Sprt>) -> Vec<Step> {
        series::progression(&self.entries, self.label(a), self.label(b), sprt)
    }

    fn sprt(&self) -> Markup {
        let Some(r) = &self.src.summary.sprt else {
            return html! {
                h2 { "SPRT" }
                p { "No SPRT was asked for (" code { "--sprt ELO0,ELO1,ALPHA,BETA" } ")." }
            };
        };
        let who = format!(
            "{} against {}",
            self.label(r.engine),
            self.label(r.opponent)
        );
        let steps = self.steps(r.engine, r.opponent, Some(r.sprt));
        html! {
            h2 { "SPRT" }
            p {
                "H0: Elo " (r.sprt.elo0) " against H1: Elo " (r.sprt.elo1) " (α " (r.sprt.alpha) ", β " (r.sprt.beta) ") for " (who)
                ": LLR " strong { (format!("{:.2}", r.llr)) } " between the bounds "
                (format!("{:.2}", r.bounds.0)) " and " (format!("{:.2}", r.bounds.1)) ": " strong { (r.decision) } "."
            }
            (figure(plots::sprt(&steps, r.bounds, &who)))
        }
    }

    fn elo(&self) -> Markup {
        let series: Vec<(String, Vec<Step>)> = self
            .focus_pairs()
            .iter()
            .map(|p| (self.label(p.b).to_string(), self.steps(p.a, p.b, None)))
            .collect();
        html! {
            h2 { "Elo as games accumulate" }
            @if series.is_empty() {
                p { "No game has a result yet." }
            } @else {
                (figure(plots::elo(&series, self.label(self.focus))))
                p.note { "In game-number order. An unbeaten or winless record has an infinite Elo; such values are drawn at ±800." }
            }
        }
    }

    fn colours(&self) -> Markup {
        let s = self.src.summary;
        let score = |w: &Wdl| w.score().map(percent).unwrap_or_default();
        html! {
            h2 { "Results by colour" }
            p { "Black won " (s.black_wins) ", White won " (s.white_wins) ", " (s.draws) " drawn, " (s.voids) " void." }
            table {
                tr { th { "Engine" } th { "As Black" } th.num { "Score" } th { "As White" } th.num { "Score" } th { "All" } th.num { "Score" } }
                @for e in &s.engines {
                    tr {
                        td { (e.label) }
                        td { (wdl_text(&e.as_black)) } td.num { (score(&e.as_black)) }
                        td { (wdl_text(&e.as_white)) } td.num { (score(&e.as_white)) }
                        td { (wdl_text(&e.total)) } td.num { (score(&e.total)) }
                    }
                }
            }
            @if !s.reasons.is_empty() {
                p {
                    "Endings: "
                    @for (i, (r, n)) in s.reasons.iter().enumerate() { @if i > 0 { ", " } (r) " " (n) }
                    @if !s.methods.is_empty() {
                        " (scored by "
                        @for (i, (m, n)) in s.methods.iter().enumerate() { @if i > 0 { ", " } (m) " " (n) }
                        ")"
                    }
                    "."
                }
            }
        }
    }

    fn crosstable(&self) -> Markup {
        let s = self.src.summary;
        html! {
            h2 { "Crosstable" }
            div.scroll { table {
                tr {
                    th { "Engine" }
                    @for j in 0..self.labels.len() { th.num { (j + 1) } }
                    th { "All" }
                }
                @for (i, e) in s.engines.iter().enumerate() {
                    tr {
                        th { (i + 1) ". " (e.label) }
                        @for j in 0..self.labels.len() {
                            @if i == j {
                                td.self { "—" }
                            } @else {
                                @let w = s.pair_wdl(i, j);
                                td.num {
                                    @if let Some(x) = w.score() { (percent(x)) br; span.detail { (wdl_text(&w)) } }
                                }
                            }
                        }
                        td.num { @if let Some(x) = e.total.score() { (percent(x)) br; span.detail { (wdl_text(&e.total)) } } }
                    }
                }
            } }
            p.note { "Each cell is the row engine's score against the column engine (a draw counts half)." }
        }
    }

    fn ratings(&self) -> Markup {
        let mut results = Results::new(self.labels.len());
        let index = |l: &str| self.labels.iter().position(|x| x == l);
        for e in &self.entries {
            if let (Some(b), Some(w), Some(score)) = (
                index(&e.black),
                index(&e.white),
                series::score_of(e, &e.black, &e.white),
            ) {
                results.add(b, w, score);
            }
        }
        let fitted = ratings::fit(&results);
        // The rated engines, best first.
        let mut rated: Vec<(usize, Rating)> = fitted
            .as_ref()
            .map(|r| {
                r.engines
                    .iter()
                    .enumerate()
                    .filter_map(|(i, x)| x.map(|x| (i, x)))
                    .collect()
            })
            .unwrap_or_default();
        rated.sort_by(|a, b| b.1.elo.total_cmp(&a.1.elo));
        html! {
            h2 { "Ratings" }
            @match &fitted {
                Err(problem) => p.warn { "No ratings: " (problem) "." },
                Ok(r) => {
                    table {
                        tr { th.num { "Rank" } th { "Engine" } th.num { "Elo" } th { "95% interval" } th.num { "Games" } th.num { "Score" } }
                        @for (rank, (i, x)) in rated.iter().enumerate() {
                            @let e = &self.src.summary.engines[*i];
                            tr {
                                td.num { (rank + 1) } td { (e.label) }
                                td.num { strong { (signed(x.elo)) } }
                                td { "[" (signed(x.low)) ", " (signed(x.high)) "]" }
                                td.num { (e.total.games()) }
                                td.num { (e.total.score().map(percent).unwrap_or_default()) }
                            }
                        }
                    }
                    @for (i, _) in r.engines.iter().enumerate().filter(|(_, x)| x.is_none()) {
                        p.note { (self.label(i)) " has no counted game and no rating." }
                    }
                    (figure(plots::ratings(&rated.iter().map(|(i, x)| (self.label(*i).to_string(), *x)).collect::<Vec<_>>())))
                    p.note {
                        "Maximum-likelihood Bradley-Terry ratings (the logistic Elo model, as Ordo and BayesElo fit it) over every counted game, a draw counting half; "
                        strong { "the mean rating is anchored at 0" }
                        ". Intervals are 95%, from the Fisher information at the maximum."
                    }
                    @if r.prior {
                        p.warn { "Some engine, or group of engines, won or lost every game against the rest, so the likelihood has no finite maximum: one virtual draw between every two engines that met was added (as BayesElo's prior does)." }
                    }
                }
            }
        }
    }

    fn lengths(&self) -> Markup {
        let lengths = series::lengths(&self.entries);
        let shortest = lengths.iter().map(|g| g.1).min();
        let longest = lengths.iter().map(|g| g.1).max();
        html! {
            h2 { "Game length" }
            p {
                "Average " (format!("{:.1}", self.src.summary.avg_moves)) " moves"
                @if let (Some(a), Some(b)) = (shortest, longest) { ", shortest " (a) ", longest " (b) }
                " (opening moves and passes included)."
            }
            (figure(plots::lengths(&lengths)))
        }
    }

    fn times(&self) -> Markup {
        let s = self.src.summary;
        let times = series::move_times(&self.entries, &self.labels);
        html! {
            h2 { "Time used" }
            table {
                tr { th { "Engine" } th.num { "Moves generated" } th.num { "Seconds in all" } th.num { "Seconds a move" } }
                @for e in &s.engines {
                    tr {
                        td { (e.label) } td.num { (e.moves) } td.num { (format!("{:.1}", e.time)) }
                        td.num { @match e.time_per_move() { Some(t) => (format!("{t:.3}")), None => "—" } }
                    }
                }
            }
            @match times {
                Some(t) => (figure(plots::move_times(&t))),
                None => p.note { "Each move's time: not recorded (these journals were written before move times were kept)." },
            }
        }
    }

    fn games(&self, report_dir: &Path) -> Markup {
        html! {
            h2 { "Games" }
            div.scroll { table {
                tr {
                    th.num { "Game" } th { "Black" } th { "White" } th { "Result" } th { "Reason" }
                    th.num { "Moves" } th.num { "Black's time" } th.num { "White's time" } th { "Record" }
                }
                @for g in self.src.games {
                    @let e = &g.entry;
                    tr {
                        td.num { (e.game) }
                        td { (e.black) } td { (e.white) }
                        td { strong { (e.result) } }
                        td {
                            (e.reason)
                            @if !e.detail.is_empty() { br; span.detail { (e.detail) } }
                        }
                        td.num { (e.moves) }
                        td.num { (format!("{:.1} s", e.black_time)) br; span.detail { (e.black_moves) " moves" } }
                        td.num { (format!("{:.1} s", e.white_time)) br; span.detail { (e.white_moves) " moves" } }
                        td.record {
                            @if g.dir.join(&e.sgf).is_file() {
                                a href=(sgf_link(report_dir, &g.dir, &e.sgf)) { (e.sgf) }
                            } @else {
                                (e.sgf) span.detail { " (missing)" }
                            }
                        }
                    }
                }
            } }
        }
    }
}
