//! A small closed part of the board (an *enclosure*) and an exhaustive search of the
//! game played inside it, to prove that neither side can capture the other's stones
//! there (the proof behind a static seki), or that one side's chain is captured
//! whatever it plays (a local death).
//!
//! The enclosure is a set of at most 64 points (its stones and empty points) whose every
//! neighbour off the enclosure is a *wall*: a stone that the proof assumes is never
//! captured. A stone played in the enclosure next to a wall of its colour joins the
//! wall's chain and is never captured either; an enclosure chain with no such neighbour
//! has only enclosure liberties.
//!
//! The search ([`Enclosure::holds`]): the attacker moves first and wins by capturing any
//! of the defender's *target* stones; the defender may pass, and a pass by the
//! attacker (which the defender answers with a pass, ending the local game) never
//! helps it, so the attacker always plays. Every line must end in a proof:
//! - the attacker captures a target stone (the attacker wins);
//! - every target chain is pass-alive inside the enclosure (Benson's test with the walls
//!   as uncapturable chains and any region that reaches an attacker wall as open):
//!   the defender holds whatever follows;
//! - every target chain but one is, and that one can join a never-captured chain in
//!   two ways: an attacker move takes one of them at most, and the defender plays
//!   the other.
//!
//! The defender needs only one way to hold, so it tries a subset of its moves (the
//! liberties of its target chains and of the attacker chains touching them, and
//! the pass): a hold is proven whatever the attacker does, a refutation is not.
//!
//! The moves are the game's ([`LocalRules`]): a suicide of two or more stones where
//! the rules allow it, and no move that recreates a position the game has already
//! seen (its superko history, the rest of the board being as it is now). Anything
//! else is *unknown* and spoils the proof: a ko capture by either side (its outcome
//! depends on threats elsewhere; [`Enclosure::kills`] may instead play kos out without
//! threats, the territory rules' confirmation), a position repeated on the line, a
//! line longer than [`MAX_DEPTH`] moves, or the node budget running out. Positions
//! proven either way are remembered, and since a remembered proof was found on
//! another line (whose repetitions differ), a proof of the start is then walked
//! again line by line ([`Search::verify`]): it stands only if no line of it repeats a
//! position.

use std::collections::HashMap;

use crate::color::Color;
use crate::game::Game;
use crate::zobrist::Hash;

/// The most points an enclosure holds (one bit each in a `u64`).
pub(super) const MAX_POINTS: usize = 64;
/// The most positions one search visits before it gives up (unknown).
const BUDGET: u32 = 20_000;
/// The longest line a search follows (moves and passes from its start); a longer one
/// is unknown. It bounds the recursion, so no input can exhaust the stack.
const MAX_DEPTH: usize = 96;
/// The most positions the walk that re-checks a proof line by line visits.
const VERIFY_BUDGET: u32 = 100_000;

/// What the local game takes from the rules and the game beyond the board.
#[derive(Clone, Copy, Debug)]
pub(super) struct LocalRules<'a> {
    /// Whether a suicide of two or more stones is allowed (a lone stone's never is:
    /// it would recreate the position).
    pub suicide: bool,
    /// Whether a move may not repeat an earlier position (superko); without it a
    /// repetition is allowed, and a line that repeats never ends.
    pub superko: bool,
    /// Whether repetition is by position and side to move (situational superko)
    /// rather than by position alone.
    pub situational: bool,
    /// The game whose earlier positions no move may recreate, or none.
    pub history: Option<&'a Game>,
}

/// How a search treats a ko capture.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Kos {
    /// The line is unknown: who wins a ko depends on threats elsewhere.
    Unknown,
    /// The ko is played out with no ko threat on either side: the other side may not
    /// take back at once, and the taker may then resolve it (the life-and-death
    /// confirmation of the Japanese rules).
    NoThreats,
}

/// A closed part of the board, its points numbered `0..n`.
#[derive(Clone, Debug)]
pub(super) struct Enclosure<'a> {
    /// For each point, its neighbours in the enclosure.
    nb: Vec<u64>,
    /// The points next to a wall of each colour (by `Color::index`).
    wall: [u64; 2],
    /// The stones on the enclosure's points at the start, by colour.
    start: [u64; 2],
    /// Each point's Hashing keys, by colour.
    keys: Vec<[u64; 2]>,
    /// The whole board's hash without the enclosure's stones.
    base: u64,
    rules: LocalRules<'a>,
}

/// What a search proves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Outcome {
    /// The attacker captures a target stone against every defender move the search
    /// tries (with the defender's moves a subset, this proves nothing; it only
    /// means the defender found no way to hold).
    Attacker,
    /// The defender keeps every target stone whatever the attacker does.
    Holds,
    /// Neither is proven.
    Unknown,
}

/// A position of the enclosure: its stones by colour.
type Stones = [u64; 2];

/// A move played in the enclosure.
#[derive(Clone, Copy, Debug)]
struct Played {
    /// The stones after it.
    stones: Stones,
    /// The opponent's stones it took.
    captured: u64,
    /// The mover's own stones it removed (a suicide).
    lost: u64,
}

fn bits(mut m: u64) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (m != 0).then(|| {
            let i = m.trailing_zeros() as usize;
            m &= m - 1;
            i
        })
    })
}

/// How an enclosure's positions are hashed as whole boards.
pub(super) struct Hashing {
    /// Each point's Hashing keys, by colour.
    pub keys: Vec<[u64; 2]>,
    /// The whole board's hash without the enclosure's stones.
    pub base: u64,
}

impl<'a> Enclosure<'a> {
    /// An enclosure of `nb.len()` points: `nb[i]` the enclosure neighbours of point `i`,
    /// `wall` the points next to a wall of each colour, `start` the stones, and
    /// `hashing` how its positions are hashed.
    pub(super) fn new(
        nb: Vec<u64>,
        wall: [u64; 2],
        start: [u64; 2],
        hashing: Hashing,
        rules: LocalRules<'a>,
    ) -> Enclosure<'a> {
        let Hashing { keys, base } = hashing;
        debug_assert!(nb.len() <= MAX_POINTS && keys.len() == nb.len());
        Enclosure {
            nb,
            wall,
            start,
            keys,
            base,
            rules,
        }
    }

    fn all(&self) -> u64 {
        if self.nb.len() == 64 {
            u64::MAX
        } else {
            (1u64 << self.nb.len()) - 1
        }
    }

    /// The set plus its neighbours.
    fn dilate(&self, set: u64) -> u64 {
        bits(set).fold(set, |acc, i| acc | self.nb[i])
    }

    /// The connected part of `within` that holds point `i`.
    fn flood(&self, i: usize, within: u64) -> u64 {
        let mut set = 1u64 << i;
        loop {
            let grown = self.dilate(set) & within;
            if grown == set {
                return set;
            }
            set = grown;
        }
    }

    fn empty(&self, s: &Stones) -> u64 {
        self.all() & !(s[0] | s[1])
    }

    /// The liberties of a chain inside the enclosure.
    fn libs(&self, s: &Stones, chain: u64) -> u64 {
        self.dilate(chain) & self.empty(s)
    }

    /// Whether a chain of colour `c` touches a wall of its colour (it is never
    /// captured).
    fn anchored(&self, c: Color, chain: u64) -> bool {
        chain & self.wall[c.index()] != 0
    }

    /// `c` plays on the empty point `i`, or `None` when the rules forbid it: a
    /// suicide (but one of two or more stones where the rules allow it), or a
    /// position the game has seen before.
    fn play(&self, s: &Stones, c: Color, i: usize) -> Option<Played> {
        let (me, them) = (c.index(), c.opponent().index());
        let mut t = *s;
        t[me] |= 1 << i;
        let mut captured = 0;
        for j in bits(self.nb[i] & t[them]) {
            if captured >> j & 1 != 0 {
                continue;
            }
            let chain = self.flood(j, t[them]);
            if !self.anchored(c.opponent(), chain) && self.libs(&t, chain) == 0 {
                captured |= chain;
                t[them] &= !chain;
            }
        }
        let own = self.flood(i, t[me]);
        let mut lost = 0;
        if !self.anchored(c, own) && self.libs(&t, own) == 0 {
            if !self.rules.suicide || own.count_ones() < 2 {
                return None;
            }
            lost = own;
            t[me] &= !own;
        }
        if self.seen(&t, c.opponent()) {
            return None;
        }
        Some(Played {
            stones: t,
            captured,
            lost,
        })
    }

    /// Whether the whole board with these enclosure stones, `next` to move, is a
    /// position the game has already seen (a move to it breaks superko).
    fn seen(&self, s: &Stones, next: Color) -> bool {
        let Some(game) = self.rules.history else {
            return false;
        };
        let mut h = self.base;
        for c in Color::ALL {
            for i in bits(s[c.index()]) {
                h ^= self.keys[i][c.index()];
            }
        }
        game.has_seen(game.position_key(Hash(h), next))
    }

    /// Whether a capture of `captured` by the stone on `i` is a ko: one stone taken
    /// by a lone stone whose only liberty is the point it took.
    fn is_ko(&self, t: &Stones, c: Color, i: usize, captured: u64) -> bool {
        if captured.count_ones() != 1 {
            return false;
        }
        let own = self.flood(i, t[c.index()]);
        own.count_ones() == 1 && !self.anchored(c, own) && self.libs(t, own) == captured
    }

    /// Whether every chain of colour `d` that holds a point of `target` is safe
    /// whatever the attacker plays: pass-alive by Benson's test inside the enclosure (the
    /// walls counting as chains that never die, a region that touches a wall of the
    /// other colour as open: it reaches beyond the enclosure), but at most one chain that
    /// has two liberties from which it joins a chain that never dies.
    fn pass_alive(&self, s: &Stones, d: Color, target: u64) -> bool {
        let own = s[d.index()];
        let open_cells = self.wall[d.opponent().index()];
        let empty = self.empty(s);
        let mut chains: Vec<(u64, bool)> = Vec::new(); // (stones, anchored)
        let mut left = own;
        while left != 0 {
            let chain = self.flood(left.trailing_zeros() as usize, own);
            left &= !chain;
            chains.push((chain, self.anchored(d, chain)));
        }
        let not_own = self.all() & !own;
        let mut regions: Vec<u64> = Vec::new();
        let mut left = not_own;
        while left != 0 {
            let r = self.flood(left.trailing_zeros() as usize, not_own);
            left &= !r;
            regions.push(r);
        }
        let libs: Vec<u64> = chains
            .iter()
            .map(|(c, _)| self.dilate(*c) & empty)
            .collect();
        let near: Vec<u64> = chains.iter().map(|(c, _)| self.dilate(*c)).collect();
        let vital = |r: u64, k: usize| {
            let e = r & empty;
            r & open_cells == 0 && e != 0 && e & !libs[k] == 0
        };
        let mut chain_in: Vec<bool> = vec![true; chains.len()];
        let mut region_in: Vec<bool> = vec![true; regions.len()];
        loop {
            let mut changed = false;
            for k in 0..chains.len() {
                if !chain_in[k] || chains[k].1 {
                    continue;
                }
                let n = (0..regions.len())
                    .filter(|&r| region_in[r] && vital(regions[r], k))
                    .count();
                if n < 2 {
                    chain_in[k] = false;
                    changed = true;
                }
            }
            for r in 0..regions.len() {
                if region_in[r]
                    && (0..chains.len()).any(|k| !chain_in[k] && near[k] & regions[r] != 0)
                {
                    region_in[r] = false;
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
        let mut weak = chains
            .iter()
            .zip(&chain_in)
            .filter(|((c, _), alive)| !**alive && c & target != 0)
            .map(|((c, _), _)| *c);
        match (weak.next(), weak.next()) {
            (None, _) => true,
            // One chain left that can join a never-captured chain in two ways: an
            // attacker move takes one of them at most (and cannot capture it, with two
            // liberties), and the defender plays the other.
            (Some(c), None) => {
                let anchors = chains
                    .iter()
                    .filter(|(_, anchored)| *anchored)
                    .fold(self.wall[d.index()], |m, (a, _)| m | self.dilate(*a));
                let libs = self.dilate(c) & empty;
                libs.count_ones() >= 2 && (libs & anchors).count_ones() >= 2
            }
            _ => false,
        }
    }

    /// Whether the defender `d` keeps every one of its enclosure stones of the start
    /// whatever the attacker plays, the attacker moving first (`Some(true)`, a
    /// proof), the defender's moves tried all lose one of them (`Some(false)`), or
    /// neither (`None`). A ko capture makes a line unknown.
    pub(super) fn holds(&self, d: Color) -> Option<bool> {
        let mut search = Search::new(self, d, self.start[d.index()], false, Kos::Unknown);
        let root = (self.start, NO_BAN, true);
        match search.node(root) {
            Outcome::Holds if search.verified(root, Outcome::Holds) => Some(true),
            Outcome::Attacker => Some(false),
            _ => None,
        }
    }

    /// Whether the attacker captures a stone of `target` (stones of colour `d`)
    /// whatever the defender plays, the defender moving first and trying every move;
    /// `kos` says whether a ko capture makes a line unknown or is played out without
    /// threats.
    pub(super) fn kills(&self, d: Color, target: u64, kos: Kos) -> bool {
        let mut search = Search::new(self, d, target, true, kos);
        let root = (self.start, NO_BAN, false);
        search.node(root) == Outcome::Attacker && search.verified(root, Outcome::Attacker)
    }

    /// The attacker's first move (a point's index) of a proof that it captures a
    /// stone of `target` (stones of colour `d`) whatever the defender answers, the
    /// attacker moving first and the defender trying every move and the pass; `kos`
    /// as in [`Enclosure::kills`]. The proof is walked line by line before it counts, as
    /// every proof here is; `None` when there is none within the budget.
    pub(super) fn attack(&self, d: Color, target: u64, kos: Kos) -> Option<usize> {
        let mut search = Search::new(self, d, target, true, kos);
        let root = (self.start, NO_BAN, true);
        if search.node(root) != Outcome::Attacker || !search.verified(root, Outcome::Attacker) {
            return None;
        }
        // With no ko ban at the start the attacker's proving move is a point, never
        // the pass that waits out a ban.
        match search.memo.get(&root) {
            Some(&(Outcome::Attacker, i)) if usize::from(i) < self.nb.len() => Some(usize::from(i)),
            _ => None,
        }
    }

    /// The stones on the enclosure's points at the start, by colour (`Color::index`).
    pub(super) fn start(&self) -> [u64; 2] {
        self.start
    }

    /// Whether the stones of colour `d` that hold a point of `target` are pass-alive
    /// inside the enclosure at the start (two eyes of their own: alive, not in seki).
    pub(super) fn starts_pass_alive(&self, d: Color, target: u64) -> bool {
        self.pass_alive(&self.start, d, target)
    }
}

/// No point is banned by a ko.
const NO_BAN: u8 = 64;
/// The proving move of a node is a pass.
const PASS: u8 = 64;
/// A node proven with no move of its own (pass-alive, or every move refuted).
const NO_MOVE: u8 = 65;

/// A node: the stones, the point a ko forbids to the side to move ([`NO_BAN`] for
/// none) and whether the attacker moves.
type Key = (Stones, u8, bool);

/// Where a move leads.
enum Step {
    /// The line ends there.
    End(Outcome),
    /// The node it reaches.
    Next(Key),
}

/// One exhaustive search (see the module's doc).
struct Search<'s, 'a> {
    enclosure: &'s Enclosure<'a>,
    defender: Color,
    target: u64,
    /// Whether the defender tries every move (a proof of a capture) or a subset (a
    /// proof of a hold).
    every_move: bool,
    kos: Kos,
    /// Proven outcomes by node, with the proving move of the side that proves it.
    memo: HashMap<Key, (Outcome, u8)>,
    /// The positions on the current line and who moves in each, for repetitions.
    line: Vec<(Stones, bool)>,
    nodes: u32,
    /// Positions the line-by-line check of a proof has visited.
    walked: u32,
}

impl<'s, 'a> Search<'s, 'a> {
    fn new(
        enclosure: &'s Enclosure<'a>,
        defender: Color,
        target: u64,
        every_move: bool,
        kos: Kos,
    ) -> Search<'s, 'a> {
        Search {
            enclosure,
            defender,
            target,
            every_move,
            kos,
            memo: HashMap::new(),
            line: Vec::new(),
            nodes: 0,
            walked: 0,
        }
    }

    /// Where the move `m` by `c` leads from the current line's last position: a
    /// repetition of a position on the line and a ko capture when kos are unknown
    /// end it unknown, a capture of a target stone (or its loss by a suicide) ends it
    /// the attacker's, and a ko capture played out bans the taken point for a move.
    fn step(&self, c: Color, i: usize, m: Played) -> Step {
        let attacker_next = c == self.defender;
        if self.repeats(&m.stones, attacker_next) {
            return Step::End(Outcome::Unknown);
        }
        let ko = self.enclosure.is_ko(&m.stones, c, i, m.captured);
        if ko && self.kos == Kos::Unknown {
            return Step::End(Outcome::Unknown);
        }
        if (m.captured | m.lost) & self.target != 0 {
            return Step::End(Outcome::Attacker);
        }
        let ban = if ko {
            m.captured.trailing_zeros() as u8
        } else {
            NO_BAN
        };
        Step::Next((m.stones, ban, attacker_next))
    }

    /// Whether the stones `t`, the attacker moving next or not, repeat a position of
    /// the current line.
    fn repeats(&self, t: &Stones, attacker_next: bool) -> bool {
        let situational = self.enclosure.rules.situational;
        self.line
            .iter()
            .any(|(s, a)| s == t && (!situational || *a == attacker_next))
    }

    /// The outcome a step proves, searching the node it reaches.
    fn outcome(&mut self, step: Step) -> Outcome {
        match step {
            Step::End(o) => o,
            Step::Next(key) => self.node(key),
        }
    }

    /// Looks up or searches a node.
    fn node(&mut self, key: Key) -> Outcome {
        if let Some(&(o, _)) = self.memo.get(&key) {
            return o;
        }
        if self.nodes >= BUDGET || self.line.len() >= MAX_DEPTH {
            return Outcome::Unknown;
        }
        self.nodes += 1;
        let (s, ban, attacker) = key;
        if self.enclosure.pass_alive(&s, self.defender, self.target) {
            self.memo.insert(key, (Outcome::Holds, NO_MOVE));
            return Outcome::Holds;
        }
        self.line.push((s, attacker));
        let (o, choice) = if attacker {
            self.attacker_moves(s, ban)
        } else {
            self.defender_moves(s, ban)
        };
        self.line.pop();
        if o != Outcome::Unknown {
            self.memo.insert(key, (o, choice));
        }
        o
    }

    fn attacker_moves(&mut self, s: Stones, ban: u8) -> (Outcome, u8) {
        let a = self.defender.opponent();
        let mut all_hold = true;
        for i in bits(self.enclosure.empty(&s)) {
            if i == usize::from(ban) {
                continue;
            }
            let Some(m) = self.enclosure.play(&s, a, i) else {
                continue;
            };
            let step = self.step(a, i, m);
            match self.outcome(step) {
                Outcome::Attacker => return (Outcome::Attacker, i as u8),
                Outcome::Unknown => all_hold = false,
                Outcome::Holds => {}
            }
        }
        // Kos played out: a ko bans the attacker, who plays elsewhere (a pass) and
        // retakes next unless the defender resolves the ko meanwhile.
        if ban != NO_BAN && self.kos == Kos::NoThreats {
            match self.node((s, NO_BAN, false)) {
                Outcome::Attacker => return (Outcome::Attacker, PASS),
                Outcome::Unknown => all_hold = false,
                Outcome::Holds => {}
            }
        }
        if all_hold {
            (Outcome::Holds, NO_MOVE)
        } else {
            (Outcome::Unknown, NO_MOVE)
        }
    }

    fn defender_moves(&mut self, s: Stones, ban: u8) -> (Outcome, u8) {
        let d = self.defender;
        // The defender needs one way to hold, so it may leave moves out: it plays only
        // near its target chains (`defender_area`). Captures come first, then the
        // moves that join a target chain to a wall, then the pass, then the others.
        let near = self.defender_area(s);
        let mut first = Vec::new();
        let mut joins = Vec::new();
        let mut quiet = Vec::new();
        for i in bits(self.enclosure.empty(&s)) {
            if i == usize::from(ban) {
                continue;
            }
            let Some(m) = self.enclosure.play(&s, d, i) else {
                continue;
            };
            if m.captured != 0 {
                first.push((i, m));
            } else if near >> i & 1 != 0 {
                let own = self.enclosure.flood(i, m.stones[d.index()]);
                if own & self.target != 0 && self.enclosure.anchored(d, own) {
                    joins.push((i, m));
                } else {
                    quiet.push((i, m));
                }
            }
        }
        first.extend(joins);
        let mut all_lost = true;
        let mut tally = |o: Outcome| match o {
            Outcome::Holds => true,
            Outcome::Unknown => {
                all_lost = false;
                false
            }
            Outcome::Attacker => false,
        };
        for (i, m) in first {
            let step = self.step(d, i, m);
            if tally(self.outcome(step)) {
                return (Outcome::Holds, i as u8);
            }
        }
        if tally(self.node((s, NO_BAN, true))) {
            return (Outcome::Holds, PASS);
        }
        for (i, m) in quiet {
            let step = self.step(d, i, m);
            if tally(self.outcome(step)) {
                return (Outcome::Holds, i as u8);
            }
        }
        if all_lost {
            (Outcome::Attacker, NO_MOVE)
        } else {
            (Outcome::Unknown, NO_MOVE)
        }
    }

    /// Where the defender's quiet moves may go: the liberties of its target chains
    /// and of the attacker's chains that touch them (everywhere with `every_move`).
    fn defender_area(&self, s: Stones) -> u64 {
        if self.every_move {
            return u64::MAX;
        }
        let d = self.defender;
        let a = d.opponent();
        let mut guarded = 0u64;
        let mut left = s[d.index()];
        while left != 0 {
            let chain = self
                .enclosure
                .flood(left.trailing_zeros() as usize, s[d.index()]);
            left &= !chain;
            if chain & self.target != 0 {
                guarded |= chain;
            }
        }
        let mut near = self.enclosure.dilate(guarded);
        let mut left = near & s[a.index()];
        while left != 0 {
            let chain = self
                .enclosure
                .flood(left.trailing_zeros() as usize, s[a.index()]);
            left &= !chain;
            near |= self.enclosure.dilate(chain);
        }
        near
    }

    /// Whether the proof of `want` at `key` that the search found stands when walked
    /// again line by line: the proving side's remembered move at its turns, every
    /// move of the other side at its own. A remembered node may have been proven on
    /// another line, whose positions differ: walked on this one, a proving move that
    /// repeats a position of it fails the proof, and a move of the other side that
    /// does is one superko forbids (without superko it fails the proof too).
    fn verified(&mut self, key: Key, want: Outcome) -> bool {
        self.walked = 0;
        self.line.clear();
        self.verify(key, want)
    }

    fn verify(&mut self, key: Key, want: Outcome) -> bool {
        self.walked += 1;
        if self.walked > VERIFY_BUDGET || self.line.len() >= MAX_DEPTH {
            return false;
        }
        let (s, ban, attacker) = key;
        if want == Outcome::Holds && self.enclosure.pass_alive(&s, self.defender, self.target) {
            return true;
        }
        let Some(&(o, choice)) = self.memo.get(&key) else {
            return false;
        };
        if o != want {
            return false;
        }
        let mover = if attacker {
            self.defender.opponent()
        } else {
            self.defender
        };
        let proving = attacker == (want == Outcome::Attacker);
        self.line.push((s, attacker));
        let ok = if proving {
            match choice {
                PASS => self.verify((s, NO_BAN, !attacker), want),
                NO_MOVE => false,
                i => self.verify_move((mover, usize::from(i)), &s, want, true) == Some(true),
            }
        } else {
            let mut ok = true;
            for i in bits(self.enclosure.empty(&s)) {
                if i == usize::from(ban) {
                    continue;
                }
                if self.verify_move((mover, i), &s, want, false) == Some(false) {
                    ok = false;
                    break;
                }
            }
            // The defender refuting a capture may also pass.
            ok && (attacker || self.verify((s, NO_BAN, true), want))
        };
        self.line.pop();
        ok
    }

    /// Whether the move `(c, i)` (`c` on point `i`) from `s` keeps to the proof of
    /// `want` (`None`: the rules forbid it); `proving` when `c` is the side that
    /// proves.
    fn verify_move(
        &mut self,
        (c, i): (Color, usize),
        s: &Stones,
        want: Outcome,
        proving: bool,
    ) -> Option<bool> {
        let m = self.enclosure.play(s, c, i)?;
        let attacker_next = c == self.defender;
        if !proving && self.enclosure.rules.superko && self.repeats(&m.stones, attacker_next) {
            return None;
        }
        Some(match self.step(c, i, m) {
            Step::End(o) => o == want,
            Step::Next(k) => self.verify(k, want),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Board;
    use crate::point::BoardSize;
    use crate::rules::Rules;
    use crate::zobrist::stone_key;

    const FREE: LocalRules<'static> = LocalRules {
        suicide: false,
        superko: true,
        situational: false,
        history: None,
    };

    /// An enclosure of a `w`×`h` rectangle with no walls (a small board of its own),
    /// Hashing keys of zero: index `x + w * y`.
    fn rectangle(w: usize, h: usize, start: [u64; 2], rules: LocalRules<'_>) -> Enclosure<'_> {
        let nb = (0..w * h)
            .map(|i| {
                let (x, y) = (i % w, i / w);
                let mut m = 0u64;
                if x > 0 {
                    m |= 1 << (i - 1);
                }
                if x + 1 < w {
                    m |= 1 << (i + 1);
                }
                if y > 0 {
                    m |= 1 << (i - w);
                }
                if y + 1 < h {
                    m |= 1 << (i + w);
                }
                m
            })
            .collect();
        let hashing = Hashing {
            keys: vec![[0, 0]; w * h],
            base: 0,
        };
        Enclosure::new(nb, [0, 0], start, hashing, rules)
    }

    /// Runs `f` on a thread with a small stack: a search whose recursion were bounded
    /// only by its node budget would overflow it.
    fn on_small_stack(f: impl FnOnce() + Send + 'static) {
        std::thread::Builder::new()
            .stack_size(192 * 1024)
            .spawn(f)
            .unwrap()
            .join()
            .expect("the search returns without exhausting the stack");
    }

    #[test]
    fn a_large_empty_enclosure_ends_within_the_depth_cap() {
        on_small_stack(|| {
            // 64 points, one stone of each colour: every line is long.
            let enclosure = rectangle(8, 8, [1, 1 << 63], FREE);
            assert_eq!(enclosure.holds(Color::Black), None);
            assert!(!enclosure.kills(Color::Black, 1, Kos::NoThreats));
        });
    }

    #[test]
    fn a_long_chain_ends_within_the_depth_cap() {
        on_small_stack(|| {
            // A 4x16 strip: Black's chain along the whole first row, White's along
            // the last, the middle rows empty.
            let black = (1u64 << 16) - 1;
            let white = black << 48;
            let enclosure = rectangle(16, 4, [black, white], FREE);
            assert_eq!(enclosure.holds(Color::White), None);
            assert!(!enclosure.kills(Color::White, white, Kos::Unknown));
        });
    }

    #[test]
    fn a_suicide_of_two_or_more_stones_is_a_move_where_the_rules_allow_it() {
        // A row of three: White, empty, White; no liberty elsewhere. White filling
        // the middle removes its own three stones.
        let start = [0, 0b101];
        let forbid = rectangle(3, 1, start, FREE);
        assert!(forbid.play(&start, Color::White, 1).is_none());
        let allow = LocalRules {
            suicide: true,
            ..FREE
        };
        let enclosure = rectangle(3, 1, start, allow);
        let m = enclosure
            .play(&start, Color::White, 1)
            .expect("a legal suicide");
        assert_eq!(m.stones, [0, 0]);
        assert_eq!(m.lost, 0b111);
        // A lone stone's suicide would repeat the position: never a move.
        let lone = rectangle(1, 1, [0, 0], allow);
        assert!(lone.play(&[0, 0], Color::White, 0).is_none());
    }

    #[test]
    fn no_move_recreates_a_position_the_game_has_seen() {
        // Black has just taken a ko on D3 (the white stone on C3). White's
        // recapture recreates the position before it, which superko forbids.
        let size = BoardSize::new(5).unwrap();
        let mut game = Game::new(size, Rules::chinese());
        let p = |v: &str| size.parse_point(v).unwrap();
        for v in ["B3", "C4", "C2"] {
            game.add_setup_stone(Color::Black, p(v)).unwrap();
        }
        for v in ["D4", "D2", "E3", "C3"] {
            game.add_setup_stone(Color::White, p(v)).unwrap();
        }
        game.play(Color::Black, crate::point::Move::Play(p("D3")))
            .unwrap();
        let board: &Board = game.board();
        assert!(board.color_at(p("C3")).is_none());
        // The enclosure: C3 (0, empty, next to Black's walls) and D3 (1, Black's stone,
        // next to White's walls).
        let keys = vec![
            Color::ALL.map(|c| stone_key(c, p("C3")).0),
            Color::ALL.map(|c| stone_key(c, p("D3")).0),
        ];
        let base = board.hash().0 ^ keys[1][Color::Black.index()];
        let start = [1 << 1, 0];
        let enclosure = |history| {
            let rules = LocalRules { history, ..FREE };
            let hashing = Hashing {
                keys: keys.clone(),
                base,
            };
            Enclosure::new(vec![0b10, 0b01], [0b01, 0b10], start, hashing, rules)
        };
        let fresh = enclosure(None).play(&start, Color::White, 0);
        assert_eq!(fresh.map(|m| m.captured), Some(0b10), "without the history");
        assert!(
            enclosure(Some(&game))
                .play(&start, Color::White, 0)
                .is_none()
        );
    }
}
