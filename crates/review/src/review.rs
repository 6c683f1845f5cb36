//! A review in progress: the record, the evaluations of its positions found so far,
//! and the annotated record and graph they make.

use sgf_parse::go::Prop;
use sgf_parse::{Double, GameTree, SgfNode, Text};
use tengen_board::sgf::{MAX_TREE_BYTES, MAX_TREE_DEPTH};
use tengen_board::{Color, Move};

use crate::error::ReviewError;
use crate::eval::{self, PositionEval};
use crate::judge::{MoveJudgement, Noise, Verdict, budget_note, key_mistakes};
use crate::record::{Record, board_move, sgf_move};
use crate::text;
use crate::write::{NodeNotes, private, write_tree};

/// The most key mistakes the root comment lists.
pub const KEY_MISTAKES: usize = 10;

/// How the review was made, for the root comment, and how it judges.
#[derive(Clone, Debug, PartialEq)]
pub struct Settings {
    /// The engine and its limits in words, e.g. `Tengen 0.2.0 (abc1234), 1000
    /// playouts a position, 2 threads`.
    pub engine: String,
    /// The mistake threshold, a fraction of win rate: a move that loses at least this
    /// against the preferred move is a mistake, half of it doubtful.
    pub threshold: f64,
    /// The search's noise: a move must lose more than it can make to be judged
    /// ([`Noise::MEASURED`] for Tengen's search).
    pub noise: Noise,
    /// The playouts a position the review was asked for, if a number (not a time):
    /// what the noise of the review is told at; without it, the median the searches
    /// made.
    pub playouts: Option<u64>,
}

/// A review of one record.
#[derive(Debug)]
pub struct Review {
    record: Record,
    settings: Settings,
    /// The evaluation of each position, by the number of moves played.
    evals: Vec<Option<PositionEval>>,
    /// The preferred move's variation in each position, checked legal.
    variations: Vec<Vec<(Color, Move)>>,
}

impl Review {
    /// A review of `record` with nothing analysed yet.
    pub fn new(record: Record, settings: Settings) -> Review {
        let n = record.positions();
        Review {
            record,
            settings,
            evals: vec![None; n],
            variations: vec![Vec::new(); n],
        }
    }

    /// The record under review.
    pub fn record(&self) -> &Record {
        &self.record
    }

    /// The evaluation of position `p`, if it was analysed.
    pub fn eval(&self, p: usize) -> Option<&PositionEval> {
        self.evals.get(p).and_then(Option::as_ref)
    }

    /// The positions not analysed yet, in order.
    pub fn pending(&self) -> Vec<usize> {
        (0..self.evals.len())
            .filter(|&p| self.evals[p].is_none())
            .collect()
    }

    /// How many positions are analysed.
    pub fn analysed(&self) -> usize {
        self.evals.iter().flatten().count()
    }

    /// Records the evaluation of position `p`. Its variation is replayed from the
    /// position and cut at the first move that is not legal there (none should be),
    /// and after two passes.
    pub fn set(&mut self, p: usize, eval: PositionEval) {
        if p >= self.evals.len() {
            return;
        }
        let mut game = self.record.game_at(p);
        let mut color = eval.color;
        let mut line = Vec::new();
        for &m in &eval.pv {
            let passes = line
                .iter()
                .rev()
                .take_while(|&&(_, m)| m == Move::Pass)
                .count();
            if passes >= 2 || game.play(color, m).is_err() {
                break;
            }
            line.push((color, m));
            color = color.opponent();
        }
        self.variations[p] = line;
        self.evals[p] = Some(eval);
    }

    /// Takes the evaluations kept in a review of this record written earlier (the
    /// `TGR` values of its main line) and returns how many it took. A review of
    /// another game is refused; a value that does not read is left out (its position
    /// is analysed again).
    pub fn resume(&mut self, reviewed: &str) -> Result<usize, ReviewError> {
        let not_this = |why: String| ReviewError::NotThisGame(why);
        let reviewed = reviewed.trim_start_matches('\u{feff}');
        let reviewed = &reviewed[reviewed.find('(').unwrap_or(0)..];
        if reviewed.len() > 2 * MAX_TREE_BYTES {
            return Err(not_this(format!("{} bytes", reviewed.len())));
        }
        if crate::record::deepest_line(reviewed) > MAX_TREE_DEPTH + eval::MAX_PV + 1 {
            return Err(not_this("a line deeper than any record".into()));
        }
        let trees = sgf_parse::parse(reviewed).map_err(|e| not_this(format!("not SGF ({e})")))?;
        let Some(GameTree::GoGame(root)) = trees.into_iter().next() else {
            return Err(not_this("not a Go record".into()));
        };
        let size = self.record.size();
        let theirs: Vec<&SgfNode<Prop>> = root.main_variation().collect();
        let ours: Vec<&SgfNode<Prop>> = self.record.root.main_variation().collect();
        if theirs.len() != ours.len() {
            return Err(not_this(format!(
                "its main line has {} nodes, the record's {}",
                theirs.len(),
                ours.len()
            )));
        }
        for (i, (a, b)) in theirs.iter().zip(&ours).enumerate() {
            let mv = |n: &SgfNode<Prop>| {
                n.properties().find_map(|p| match p {
                    Prop::B(m) => Some((Color::Black, board_move(size, *m))),
                    Prop::W(m) => Some((Color::White, board_move(size, *m))),
                    _ => None,
                })
            };
            if mv(a) != mv(b) {
                return Err(not_this(format!("node {i} of the main line differs")));
            }
        }
        let mut taken = 0;
        for node in theirs {
            let Some(Prop::Unknown(_, values)) = node.get_property(eval::PROPERTY) else {
                continue;
            };
            for value in values {
                let Some((p, e)) = PositionEval::decode(value, size) else {
                    continue;
                };
                if p < self.evals.len()
                    && self.evals[p].is_none()
                    && e.color == self.record.to_move_at(p)
                {
                    self.set(p, e);
                    taken += 1;
                }
            }
        }
        Ok(taken)
    }

    /// The judgement of every move whose positions before and after are analysed.
    pub fn judgements(&self) -> Vec<MoveJudgement> {
        self.record
            .moves
            .iter()
            .enumerate()
            .filter_map(|(k, &mv)| self.judge(k + 1, mv))
            .collect()
    }

    /// The judgement of move `number` (from 1), if both its positions are analysed.
    fn judge(&self, number: usize, mv: (Color, Move)) -> Option<MoveJudgement> {
        let before = self.eval(number - 1)?;
        let after = self.eval(number)?;
        Some(MoveJudgement::new(
            number,
            mv,
            (before, after),
            self.settings.threshold,
            &self.settings.noise,
        ))
    }

    /// The reviewed record as SGF: the record as read, with on every node of the
    /// main line whose position is analysed Sabaki's `SBKV` and `SBKS`, the
    /// evaluation kept for `--resume` (`TGR`), a comment, the preferred move's
    /// variation and a move annotation; the summary and the key mistakes in the
    /// root's comment.
    pub fn to_sgf(&self) -> String {
        let judgements = self.judgements();
        let by_number = |n: usize| judgements.iter().find(|j| j.number == n);
        let notes = |i: usize| self.notes(i, &judgements, &by_number);
        write_tree(&self.record.root, &self.record.raw, &notes)
    }

    fn notes<'a>(
        &self,
        i: usize,
        judgements: &'a [MoveJudgement],
        by_number: &dyn Fn(usize) -> Option<&'a MoveJudgement>,
    ) -> NodeNotes {
        let size = self.record.size();
        let line = &self.record.line;
        let Some(node) = line.get(i) else {
            return NodeNotes::default();
        };
        let p = node.position;
        let mut notes = NodeNotes::default();
        let mut comments = Vec::new();
        if i == 0 {
            comments.push(self.summary(judgements));
        }
        if let Some(e) = self.eval(p) {
            let sbkv = text::two_decimals(100.0 * e.black_winrate());
            notes.props.push(private("SBKV", sbkv));
            notes
                .props
                .push(private("SBKS", text::two_decimals(e.black_lead())));
        }
        // Each evaluation is kept once, on the first node of its position (the
        // start's on the root, even where the root holds a move).
        let first = if i == 0 { 0 } else { line[i - 1].position + 1 };
        let kept: Vec<String> = (first..=p)
            .filter_map(|q| self.eval(q).map(|e| e.encode(q, size)))
            .collect();
        if !kept.is_empty() {
            notes
                .props
                .push(Prop::Unknown(eval::PROPERTY.to_string(), kept));
        }
        if let (Some(_), Some(j)) = (node.mv, by_number(p)) {
            if let (Some(before), Some(after)) = (self.eval(p - 1), self.eval(p)) {
                comments.push(text::move_comment(
                    size,
                    j,
                    (before, after),
                    self.settings.threshold,
                ));
            }
            notes.annotation = match j.verdict {
                Verdict::Mistake if j.loss >= 2.0 * self.settings.threshold => {
                    Some(Prop::BM(Double::Two))
                }
                Verdict::Mistake => Some(Prop::BM(Double::One)),
                Verdict::Doubtful => Some(Prop::DO),
                Verdict::Good => Some(Prop::TE(Double::One)),
                Verdict::Plain => None,
            };
        }
        // The variation of the next move's position hangs beside the next node.
        if let Some(next) = line.get(i + 1) {
            if let (Some((_, played)), Some(before)) = (next.mv, self.eval(p)) {
                if played != before.best && next.position == p + 1 {
                    notes.variation = self.variation(p, before);
                }
            }
        }
        if !comments.is_empty() {
            notes.comment = Some(comments.join("\n\n"));
        }
        notes
    }

    /// The nodes of the preferred move's variation in position `p`.
    fn variation(&self, p: usize, before: &PositionEval) -> Vec<Vec<Prop>> {
        let size = self.record.size();
        self.variations[p]
            .iter()
            .enumerate()
            .map(|(k, &(c, m))| {
                let mv = sgf_move(size, m);
                let mut props = vec![match c {
                    Color::Black => Prop::B(mv),
                    Color::White => Prop::W(mv),
                }];
                if k == 0 {
                    let sbkv = text::two_decimals(100.0 * before.black_winrate());
                    props.push(private("SBKV", sbkv));
                    props.push(private("SBKS", text::two_decimals(before.black_lead())));
                    props.push(Prop::C(Text {
                        text: text::variation_comment(size, before),
                    }));
                }
                props
            })
            .collect()
    }

    /// The playouts a position the review's noise is told at: the budget it was asked
    /// for, or else the median of the evaluations so far (`None` before any).
    pub fn typical_visits(&self) -> Option<u64> {
        if let Some(n) = self.settings.playouts {
            return Some(n);
        }
        let mut visits: Vec<u64> = self.evals.iter().flatten().map(|e| e.visits).collect();
        visits.sort_unstable();
        visits.get(visits.len() / 2).copied()
    }

    /// What to tell the user when the evaluations so far are too noisy to judge at the
    /// mistake threshold (see [`crate::budget_note`]); `None` when they are not.
    pub fn budget_note(&self) -> Option<String> {
        let visits = self.typical_visits()?;
        budget_note(&self.settings.noise, visits, self.settings.threshold)
    }

    /// The root's comment: how the review was made, the start position, the key
    /// mistakes, and how far the review got.
    fn summary(&self, judgements: &[MoveJudgement]) -> String {
        let size = self.record.size();
        let rules = self.record.start.rules();
        let threshold = 100.0 * self.settings.threshold;
        let noise = &self.settings.noise;
        let beyond = match self.typical_visits() {
            Some(n) if noise.multiple > 0.0 => format!(
                ", and more than the search's own noise could make it lose ({:.1}σ of the \
                 difference of two searches: {:.1}% of win rate in an even position at {n} \
                 playouts),",
                noise.multiple,
                100.0 * noise.margin_at(n)
            ),
            _ => String::new(),
        };
        let mut text = format!(
            "Tengen review: {}. A move that loses {threshold:.0}% of win rate or more against \
             Tengen's preferred move{beyond} is a mistake (BM), half of that doubtful (DO); TE \
             marks the only good move Tengen found. Win rates and score leads are after each \
             move ({} rules, komi {}).",
            self.settings.engine,
            rules.sgf_name(),
            rules.komi()
        );
        if let Some(note) = self.budget_note() {
            text.push_str(&format!("\nNote: {note}"));
        }
        for warning in self.record.warnings() {
            text.push_str(&format!("\nWarning: {warning}."));
        }
        if let Some(e) = self.eval(0) {
            text.push_str(&format!(
                "\nStart: {}, {}; Tengen would play {}.",
                text::winrate(e),
                text::lead(e),
                size.move_vertex(e.best)
            ));
        }
        let key = key_mistakes(judgements, KEY_MISTAKES);
        if key.is_empty() {
            text.push_str("\nKey mistakes: none.");
        } else {
            text.push_str("\nKey mistakes (largest loss first):");
            for j in key {
                text.push_str(&format!(
                    "\n  move {}, {} {}: loses {:.1}% ({:.1} points); Tengen prefers {}",
                    j.number,
                    j.color.letter(),
                    size.move_vertex(j.played),
                    100.0 * j.loss,
                    j.points,
                    size.move_vertex(j.preferred)
                ));
            }
        }
        let (done, all) = (self.analysed(), self.evals.len());
        if done < all {
            text.push_str(&format!(
                "\nReview in progress: {done} of {all} positions analysed (`tengen review \
                 --resume` goes on)."
            ));
        }
        text
    }

    /// The graph of the review as an SVG document (see [`crate::graph`]).
    pub fn graph_svg(&self) -> Result<String, ReviewError> {
        let points: Vec<(usize, f64, f64)> = self
            .evals
            .iter()
            .enumerate()
            .filter_map(|(p, e)| e.as_ref().map(|e| (p, e.black_winrate(), e.black_lead())))
            .collect();
        let judgements = self.judgements();
        let key: Vec<usize> = key_mistakes(&judgements, KEY_MISTAKES)
            .iter()
            .map(|j| j.number)
            .collect();
        let mistakes: Vec<(usize, Color, bool)> = judgements
            .iter()
            .filter(|j| j.verdict == Verdict::Mistake)
            .map(|j| (j.number, j.color, key.contains(&j.number)))
            .collect();
        let (black, white) = self.record.players();
        let title = match (black, white) {
            (Some(b), Some(w)) => format!("{b} (Black) vs {w} (White)"),
            _ => "Game review".to_string(),
        };
        crate::graph::draw(&crate::graph::GraphData {
            title,
            moves: self.record.moves.len(),
            points,
            mistakes,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const GAME: &str = "(;SZ[9]KM[7]C[Played at the club];B[ee];W[cc]C[A question?]\
                        (;B[gg];W[cg])(;B[dc]C[Another idea]))";

    fn settings() -> Settings {
        Settings {
            engine: "a test".into(),
            threshold: 0.1,
            noise: Noise::MEASURED,
            playouts: None,
        }
    }

    /// A made-up evaluation: `black` is Black's win rate.
    fn eval(review: &Review, p: usize, best: &str, black: f64) -> PositionEval {
        let size = review.record().size();
        let color = review.record().to_move_at(p);
        let best = size.parse_move(best).unwrap();
        PositionEval {
            color,
            visits: 100,
            best,
            winrate: if color == Color::Black {
                black
            } else {
                1.0 - black
            },
            lead: 0.0,
            runner_up: None,
            pv: vec![best, size.parse_move("A1").unwrap()],
        }
    }

    fn reviewed() -> Review {
        let mut review = Review::new(Record::parse(GAME).unwrap(), settings());
        // Black's G3 (move 3) throws away 40% where Tengen prefers D6.
        let evals = [
            ("E5", 0.5),
            ("C3", 0.5),
            ("D6", 0.7),
            ("F4", 0.3),
            ("D6", 0.3),
        ];
        for (p, (best, black)) in evals.into_iter().enumerate() {
            let e = eval(&review, p, best, black);
            review.set(p, e);
        }
        review
    }

    #[test]
    fn the_record_is_annotated_and_keeps_what_it_had() {
        let review = reviewed();
        let text = review.to_sgf();
        let root = &sgf_parse::go::parse(&text).unwrap()[0];
        let line: Vec<&SgfNode<Prop>> = root.main_variation().collect();
        assert_eq!(line.len(), 5);
        let comment = |n: &SgfNode<Prop>| match n.get_property("C") {
            Some(Prop::C(t)) => t.text.clone(),
            _ => String::new(),
        };
        let sbkv = |n: &SgfNode<Prop>| match n.get_property("SBKV") {
            Some(Prop::Unknown(_, v)) => v[0].clone(),
            _ => String::new(),
        };
        let sbkvs: Vec<String> = line.iter().map(|n| sbkv(n)).collect();
        assert_eq!(sbkvs, ["50", "50", "70", "30", "30"]);
        assert!(comment(line[0]).starts_with("Played at the club\n\nTengen review: a test."));
        assert!(
            comment(line[0]).contains("move 3, B G3: loses 40.0%"),
            "{}",
            comment(line[0])
        );
        assert!(comment(line[2]).starts_with("A question?\n\nTengen: move 2"));
        // Move 3 is a mistake: BM[2] at four times the threshold, and Tengen's C7 as a
        // variation after the record's own.
        assert_eq!(line[3].get_property("BM"), Some(&Prop::BM(Double::Two)));
        let children: Vec<&SgfNode<Prop>> = line[2].children().collect();
        assert_eq!(children.len(), 3);
        assert_eq!(comment(children[1]), "Another idea");
        let size = review.record().size();
        let d6 = sgf_move(size, size.parse_move("D6").unwrap());
        assert_eq!(children[2].get_property("B"), Some(&Prop::B(d6)));
        assert_eq!(sbkv(children[2]), "70");
        let pv: Vec<&SgfNode<Prop>> = children[2].main_variation().collect();
        assert_eq!(pv.len(), 2);
    }

    #[test]
    fn a_review_resumes_from_what_it_wrote() {
        let full = reviewed();
        let mut partial = Review::new(Record::parse(GAME).unwrap(), settings());
        for p in 0..3 {
            partial.set(p, full.eval(p).unwrap().clone());
        }
        assert!(
            partial.to_sgf().contains("Review in progress: 3 of 5"),
            "{}",
            partial.to_sgf()
        );
        let mut resumed = Review::new(Record::parse(GAME).unwrap(), settings());
        assert_eq!(resumed.resume(&partial.to_sgf()), Ok(3));
        assert_eq!(resumed.pending(), vec![3, 4]);
        for p in 3..5 {
            resumed.set(p, full.eval(p).unwrap().clone());
        }
        assert_eq!(resumed.to_sgf(), full.to_sgf());
        // Another game is refused.
        let mut other = Review::new(Record::parse("(;SZ[9];B[ee];W[dd])").unwrap(), settings());
        assert!(matches!(
            other.resume(&full.to_sgf()),
            Err(ReviewError::NotThisGame(_))
        ));
        assert!(matches!(
            other.resume("(;B[ee]"),
            Err(ReviewError::NotThisGame(_))
        ));
    }

    #[test]
    fn the_record_is_written_back_as_it_was_read() {
        let text = "(;GM[1]FF[4]SZ[19]KM[6.50]AP[Tygem:1.0:beta]AB[dd][pp]\
                    PB[Lee\\: Sedol];B[pd];W[dq]HA[x])";
        let mut review = Review::new(Record::parse(text).unwrap(), settings());
        for p in 0..3 {
            let e = eval(&review, p, "Q16", 0.5);
            review.set(p, e);
        }
        let written = review.to_sgf();
        for property in [
            "(;GM[1]FF[4]SZ[19]KM[6.50]AP[Tygem:1.0:beta]AB[dd][pp]PB[Lee\\: Sedol]SBKV[",
            ";B[pd]",
            ";W[dq]HA[x]",
        ] {
            assert!(written.contains(property), "{property}: {written}");
        }
        assert!(!written.contains("SZ[19:19]"), "{written}");
        assert_eq!(
            sgf_parse::go::parse(&written).unwrap()[0]
                .main_variation()
                .count(),
            3
        );
    }

    #[test]
    fn too_few_playouts_are_said_and_their_noise_is_not_judged() {
        // Move 3 loses 20%: a mistake from exact evaluations, noise from 20 playouts.
        let judged = |visits: u64| {
            let mut review = reviewed();
            for p in 0..5 {
                let mut e = review.eval(p).unwrap().clone();
                e.visits = visits;
                if p == 3 {
                    // Even after move 3, from 70% before it.
                    e.winrate = 0.5;
                }
                review.set(p, e);
            }
            let verdict = review.judgements()[2].verdict;
            (verdict, review.to_sgf())
        };
        let (verdict, text) = judged(1_000_000);
        assert_eq!(verdict, Verdict::Mistake);
        assert!(!text.contains("Note: "), "{text}");
        let (verdict, text) = judged(20);
        assert_eq!(verdict, Verdict::Plain);
        assert!(
            text.contains("G3 loses 20.0% of win rate and 0.0 points against it. Two searches"),
            "{text}"
        );
        assert!(
            text.contains("Note: 20 playouts a position are too few to judge"),
            "{text}"
        );
    }

    #[test]
    fn the_graph_is_drawn_from_the_evaluations() {
        let svg = reviewed().graph_svg().unwrap();
        assert!(svg.contains("<svg") && svg.contains("Game review"));
    }
}
