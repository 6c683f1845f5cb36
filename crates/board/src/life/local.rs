//! A small closed part of the board (an *arena*) and an exhaustive search of the
//! game played inside it, to prove that neither side can capture the other's stones
//! there: the proof behind a static seki.
//!
//! The arena is a set of at most 64 points (its stones and empty points) whose every
//! neighbour off the arena is a *wall*: a stone that the proof assumes is never
//! captured. A stone played in the arena next to a wall of its colour joins the
//! wall's chain and is never captured either; an arena chain with no such neighbour
//! has only arena liberties.
//!
//! The search ([`Arena::holds`]): the attacker moves first and wins by capturing any
//! of the defender's *target* stones; the defender may pass, and a pass by the
//! attacker (which the defender answers with a pass, ending the local game) never
//! helps it, so the attacker always plays. Every line must end in a proof:
//! - the attacker captures a target stone (the attacker wins);
//! - every target chain is pass-alive inside the arena (Benson's test with the walls
//!   as uncapturable chains and any region that reaches an attacker wall as open):
//!   the defender holds whatever follows.
//!
//! The defender needs only one way to hold, so it tries a subset of its moves (the
//! liberties of its target chains and of the attacker chains touching them, and
//! the pass): a hold is proven whatever the attacker does, a refutation is not.
//! Anything else is *unknown* and spoils the proof: a ko capture by either side (its
//! outcome depends on threats elsewhere), a position repeated on the line (superko),
//! or the node budget running out. Positions proven either way are remembered.

use std::collections::HashMap;

use crate::color::Color;

/// The most points an arena holds (one bit each in a `u64`).
pub(super) const MAX_POINTS: usize = 64;
/// The most positions one search visits before it gives up (unknown).
const BUDGET: u32 = 20_000;

/// A closed part of the board, its points numbered `0..n`.
#[derive(Clone, Debug)]
pub(super) struct Arena {
    /// For each point, its neighbours in the arena.
    nb: Vec<u64>,
    /// The points next to a wall of each colour (by `Color::index`).
    wall: [u64; 2],
    /// The stones on the arena's points at the start, by colour.
    start: [u64; 2],
}

/// What a search proves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Outcome {
    /// The attacker captures a target stone against every defender move the search
    /// tries (the defender's moves are a subset, so this proves nothing; it only
    /// means the defender found no way to hold).
    Attacker,
    /// The defender keeps every target stone whatever the attacker does.
    Holds,
    /// Neither is proven.
    Unknown,
}

/// A position of the arena: its stones by colour.
type Stones = [u64; 2];

fn bits(mut m: u64) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (m != 0).then(|| {
            let i = m.trailing_zeros() as usize;
            m &= m - 1;
            i
        })
    })
}

impl Arena {
    /// An arena of `nb.len()` points: `nb[i]` the arena neighbours of point `i`,
    /// `wall` the points next to a wall of each colour, `start` the stones.
    pub(super) fn new(nb: Vec<u64>, wall: [u64; 2], start: [u64; 2]) -> Arena {
        debug_assert!(nb.len() <= MAX_POINTS);
        Arena { nb, wall, start }
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

    /// The liberties of a chain inside the arena.
    fn libs(&self, s: &Stones, chain: u64) -> u64 {
        self.dilate(chain) & self.empty(s)
    }

    /// Whether a chain of colour `c` touches a wall of its colour (it is never
    /// captured).
    fn anchored(&self, c: Color, chain: u64) -> bool {
        chain & self.wall[c.index()] != 0
    }

    /// `c` plays on the empty point `i`: the new stones and the points captured, or
    /// `None` for a suicide.
    fn play(&self, s: &Stones, c: Color, i: usize) -> Option<(Stones, u64)> {
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
        if !self.anchored(c, own) && self.libs(&t, own) == 0 {
            return None;
        }
        Some((t, captured))
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
    /// whatever the attacker plays: pass-alive by Benson's test inside the arena (the
    /// walls counting as chains that never die, a region that touches a wall of the
    /// other colour as open: it reaches beyond the arena), but at most one chain that
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

    /// Whether the defender `d` keeps every one of its arena stones of the start
    /// whatever the attacker plays, the attacker moving first (`Some(true)`, a
    /// proof), the defender's moves tried all lose one of them (`Some(false)`), or
    /// neither (`None`).
    pub(super) fn holds(&self, d: Color) -> Option<bool> {
        let mut search = Search::new(self, d, self.start[d.index()], false);
        match search.node(self.start, NO_BAN, true) {
            Outcome::Holds => Some(true),
            Outcome::Attacker => Some(false),
            Outcome::Unknown => None,
        }
    }

    /// Whether the attacker captures a stone of `target` (stones of colour `d`)
    /// whatever the defender plays, the defender moving first, in the game where a
    /// ko is played out with no ko threat on either side: after a ko capture the
    /// other side may not take back at once, and a move elsewhere is a pass, which
    /// lets the taker resolve the ko. The defender tries every move.
    pub(super) fn kills(&self, d: Color, target: u64) -> bool {
        let mut search = Search::new(self, d, target, true);
        search.node(self.start, NO_BAN, false) == Outcome::Attacker
    }

    /// Whether the stones of colour `d` that hold a point of `target` are pass-alive
    /// inside the arena at the start (two eyes of their own: alive, not in seki).
    pub(super) fn starts_pass_alive(&self, d: Color, target: u64) -> bool {
        self.pass_alive(&self.start, d, target)
    }
}

/// No point is banned by a ko.
const NO_BAN: u8 = 64;

/// A node: the stones, the point a ko forbids to the side to move ([`NO_BAN`] for
/// none) and whether the attacker moves.
type Key = (Stones, u8, bool);

/// One exhaustive search (see the module's doc).
struct Search<'a> {
    arena: &'a Arena,
    defender: Color,
    target: u64,
    /// Kos played out without threats and every defender move tried (a proof of a
    /// capture), or kos unknown and the defender's moves pruned (a proof of a hold).
    full: bool,
    /// Proven outcomes by node.
    memo: HashMap<Key, Outcome>,
    /// The nodes on the current line, for repetitions.
    path: Vec<Key>,
    nodes: u32,
}

impl<'a> Search<'a> {
    fn new(arena: &'a Arena, defender: Color, target: u64, full: bool) -> Search<'a> {
        Search {
            arena,
            defender,
            target,
            full,
            memo: HashMap::new(),
            path: Vec::new(),
            nodes: 0,
        }
    }

    /// The node after a move by `c` on `i` that took `captured`: a ko bans the
    /// taken point to the other side for one move, or ends the proof (unknown)
    /// when kos are not played out.
    fn after(&mut self, t: Stones, c: Color, i: usize, captured: u64) -> Outcome {
        let attacker_next = c == self.defender;
        if self.arena.is_ko(&t, c, i, captured) {
            if !self.full {
                return Outcome::Unknown;
            }
            return self.node(t, captured.trailing_zeros() as u8, attacker_next);
        }
        self.node(t, NO_BAN, attacker_next)
    }

    /// Looks up or searches a node; `attacker` to move or not.
    fn node(&mut self, s: Stones, ban: u8, attacker: bool) -> Outcome {
        let key = (s, ban, attacker);
        if let Some(&o) = self.memo.get(&key) {
            return o;
        }
        if self.path.contains(&key) || self.nodes >= BUDGET {
            return Outcome::Unknown;
        }
        self.nodes += 1;
        if self.arena.pass_alive(&s, self.defender, self.target) {
            self.memo.insert(key, Outcome::Holds);
            return Outcome::Holds;
        }
        self.path.push(key);
        let o = if attacker {
            self.attacker_moves(s, ban)
        } else {
            self.defender_moves(s, ban)
        };
        self.path.pop();
        if o != Outcome::Unknown {
            self.memo.insert(key, o);
        }
        o
    }

    fn attacker_moves(&mut self, s: Stones, ban: u8) -> Outcome {
        let a = self.defender.opponent();
        let mut all_hold = true;
        for i in bits(self.arena.empty(&s)) {
            if i == usize::from(ban) {
                continue;
            }
            let Some((t, captured)) = self.arena.play(&s, a, i) else {
                continue;
            };
            let o = if captured & self.target != 0 {
                Outcome::Attacker
            } else {
                self.after(t, a, i, captured)
            };
            match o {
                Outcome::Attacker => return Outcome::Attacker,
                Outcome::Unknown => all_hold = false,
                Outcome::Holds => {}
            }
        }
        if all_hold {
            Outcome::Holds
        } else {
            Outcome::Unknown
        }
    }

    fn defender_moves(&mut self, s: Stones, ban: u8) -> Outcome {
        let d = self.defender;
        let a = d.opponent();
        // The defender needs one way to hold, so it may leave moves out: it plays only
        // on the liberties of its target chains and of the attacker's chains that
        // touch them. Captures come first, then the moves that join a target chain to
        // a wall, then the pass, then the others.
        let mut guarded = 0u64;
        let mut left = s[d.index()];
        while left != 0 {
            let chain = self
                .arena
                .flood(left.trailing_zeros() as usize, s[d.index()]);
            left &= !chain;
            if chain & self.target != 0 {
                guarded |= chain;
            }
        }
        let mut near = self.arena.dilate(guarded);
        let mut left = near & s[a.index()];
        while left != 0 {
            let chain = self
                .arena
                .flood(left.trailing_zeros() as usize, s[a.index()]);
            left &= !chain;
            near |= self.arena.dilate(chain);
        }
        let mut captures = Vec::new();
        let mut quiet = Vec::new();
        if self.full {
            near = u64::MAX;
        }
        for i in bits(self.arena.empty(&s)) {
            if i == usize::from(ban) {
                continue;
            }
            if let Some((t, captured)) = self.arena.play(&s, d, i) {
                if captured != 0 {
                    captures.push((i, t, captured));
                } else if near >> i & 1 != 0 {
                    let own = self.arena.flood(i, t[d.index()]);
                    let joins = own & self.target != 0 && self.arena.anchored(d, own);
                    quiet.push((!joins, i, t, captured));
                }
            }
        }
        quiet.sort_by_key(|q| q.0);
        let (joins, others): (Vec<_>, Vec<_>) = quiet.into_iter().partition(|q| !q.0);
        captures.extend(joins.into_iter().map(|(_, i, t, c)| (i, t, c)));
        let quiet = others.into_iter().map(|(_, i, t, c)| (i, t, c));
        let mut all_lost = true;
        let try_move =
            |this: &mut Self, i: usize, t: Stones, captured: u64| this.after(t, d, i, captured);
        for (i, t, c) in captures {
            match try_move(self, i, t, c) {
                Outcome::Holds => return Outcome::Holds,
                Outcome::Unknown => all_lost = false,
                Outcome::Attacker => {}
            }
        }
        match self.node(s, NO_BAN, true) {
            Outcome::Holds => return Outcome::Holds,
            Outcome::Unknown => all_lost = false,
            Outcome::Attacker => {}
        }
        for (i, t, c) in quiet {
            match try_move(self, i, t, c) {
                Outcome::Holds => return Outcome::Holds,
                Outcome::Unknown => all_lost = false,
                Outcome::Attacker => {}
            }
        }
        if all_lost {
            Outcome::Attacker
        } else {
            Outcome::Unknown
        }
    }
}
