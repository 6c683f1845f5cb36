//! The policy network as the search holds it: which network a setting names
//! ([`NetChoice`], plain data), a network loaded from it ([`PolicyNetFile`]), the
//! cache of its ratings by position, and the rating of a tree node.
//!
//! An evaluation costs one to three milliseconds on one core, some ten playouts, so
//! the network rates the root before the workers start and a node once its visits
//! reach `SearchParams::net_visits`, never a playout. A rating is kept in a cache of
//! [`CACHE_POSITIONS`] positions shared by every thread (and every engine that holds
//! the same loaded file), keyed by the position, the player to move, the simple-ko
//! point and the two moves before it (the network's inputs); a node expanded at a
//! position the cache holds is rated at once, at no cost. Each worker evaluates with
//! its own buffers ([`NetScratch`]). The cache's lock is taken once an expansion and
//! once a rating, never per playout.
//!
//! The network rates positions of the board size it was trained on, and of the sizes
//! `SearchParams::net_min_size` adds ([`PolicyNetFile::serves`]); on another the move
//! model stays the prior, and stderr says so once for a file given by name (the
//! shipped network, the default of the commands that play, stays silent). The cache's
//! key holds the board's size all the same.

use std::collections::{HashMap, VecDeque};
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::sync::{Arc, Mutex};

use tengen_board::{Board, Color, Move};

use super::probabilities::NetPolicy;
use crate::move_model::features::History;
use crate::{NetScratch, PolicyNet, PolicyNetError};

/// The most positions the cache of a loaded network holds (about 1.8 KB each on
/// 19×19, so some 7 MB at most); the oldest goes first.
pub const CACHE_POSITIONS: usize = 4096;

/// The name the `policy_net` setting gives the network compiled into the binary
/// (`crates/knowledge/data/policy-19.safetensors`): `--policy-net shipped`.
pub const SHIPPED_NET: &str = "shipped";

/// The shipped network's weights file, compiled in.
const SHIPPED_WEIGHTS: &[u8] = include_bytes!("../../data/policy-19.safetensors");

/// Which policy network a setting names: none, the one compiled in, or a weights
/// file. Plain data: [`NetChoice::load`] reads the network, and whoever loads it (the
/// engine) holds the loaded network and the cache of its ratings.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum NetChoice {
    /// No network: the move model alone.
    #[default]
    Off,
    /// The network compiled into the binary, named [`SHIPPED_NET`].
    Shipped,
    /// The weights file at this path, written as it was given (for `tengen-get`).
    File(String),
}

impl NetChoice {
    /// The network named, freshly loaded (a cache and counters of its own); `None`
    /// for [`NetChoice::Off`]. A file that does not load is an error naming it.
    pub fn load(&self) -> Result<Option<PolicyNetFile>, PolicyNetError> {
        match self {
            NetChoice::Off => Ok(None),
            NetChoice::Shipped => Ok(Some(PolicyNetFile::shipped())),
            NetChoice::File(path) => PolicyNetFile::load(path).map(Some),
        }
    }

    /// The name as the setting writes it: `off`, [`SHIPPED_NET`] or the file.
    pub fn name(&self) -> &str {
        match self {
            NetChoice::Off => "off",
            NetChoice::Shipped => SHIPPED_NET,
            NetChoice::File(path) => path,
        }
    }
}

impl std::fmt::Display for NetChoice {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// A policy network loaded from a file (or the shipped one), as the engine holds it
/// for the [`NetChoice`] its settings name: the network, the file it came from, the
/// cache of its ratings and its counters. Two values are equal only when they are the
/// same load: reading a file again (say, after training overwrote it) gives a new
/// value, so `tengen-set policy_net` with the same path takes the file as it is now.
pub struct PolicyNetFile {
    path: String,
    net: PolicyNet,
    cache: Mutex<Cache>,
    evaluations: AtomicU64,
    cache_hits: AtomicU64,
    warned: AtomicBool,
}

impl std::fmt::Debug for PolicyNetFile {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PolicyNetFile")
            .field("path", &self.path)
            .field("net", &self.net.describe())
            .finish_non_exhaustive()
    }
}

impl PartialEq for PolicyNetFile {
    fn eq(&self, other: &PolicyNetFile) -> bool {
        std::ptr::eq(self, other)
    }
}

/// What the search did with a loaded network, since it was loaded.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct NetStats {
    /// Positions the network evaluated.
    pub evaluations: u64,
    /// Ratings taken from the cache instead.
    pub cache_hits: u64,
}

impl PolicyNetFile {
    /// Loads the network in the file `path` (written as given, for `tengen-get`).
    pub fn load(path: &str) -> Result<PolicyNetFile, PolicyNetError> {
        let net = PolicyNet::load(Path::new(path))?;
        Ok(PolicyNetFile::new(path.to_string(), net))
    }

    /// The network compiled into the binary (`crates/knowledge/data/policy-19.safetensors`,
    /// 19×19), named [`SHIPPED_NET`]. It says nothing on stderr on the sizes it does not
    /// serve: it is the default of the commands that play, on every size.
    pub fn shipped() -> PolicyNetFile {
        // The file is compiled in and a unit test loads it: a failure here is a
        // broken build, and falling back to no network would hide it.
        let net = PolicyNet::from_bytes(
            SHIPPED_WEIGHTS,
            "crates/knowledge/data/policy-19.safetensors",
        )
        .expect("crates/knowledge/data/policy-19.safetensors is a valid policy network");
        let file = PolicyNetFile::new(SHIPPED_NET.to_string(), net);
        file.warned.store(true, Relaxed);
        file
    }

    /// A network already loaded, named `path`.
    pub fn new(path: String, net: PolicyNet) -> PolicyNetFile {
        PolicyNetFile {
            path,
            net,
            cache: Mutex::new(Cache::default()),
            evaluations: AtomicU64::new(0),
            cache_hits: AtomicU64::new(0),
            warned: AtomicBool::new(false),
        }
    }

    /// The file, as it was given.
    pub fn path(&self) -> &str {
        &self.path
    }

    /// The network.
    pub fn net(&self) -> &PolicyNet {
        &self.net
    }

    /// The evaluations and cache hits so far.
    pub fn stats(&self) -> NetStats {
        NetStats {
            evaluations: self.evaluations.load(Relaxed),
            cache_hits: self.cache_hits.load(Relaxed),
        }
    }

    /// Forgets every cached rating (the counters stay): a measurement that must not
    /// read what an earlier search of the same position left, such as each run of
    /// `tengen bench`, starts from here.
    pub fn clear_cache(&self) {
        let mut cache = self.lock();
        cache.map.clear();
        cache.order.clear();
    }

    /// Whether the network rates positions on `board`'s size: the size it was
    /// trained on, and every side from `min_size` up (`SearchParams::net_min_size`).
    /// It reads any size (see [`PolicyNet`]); whether that pays on a size is a
    /// measurement (STRENGTH.md, "The policy network on other board sizes" and "The
    /// policy network on 13×13"), and where it is not asked for the move model stays
    /// the prior.
    pub fn serves(&self, board: &Board, min_size: usize) -> bool {
        let side = board.size().get();
        side == self.net.side() || side >= min_size
    }

    /// [`serves`](PolicyNetFile::serves), saying once on stderr, a loaded file (not
    /// the shipped one), that the tree's prior is the move model's when the network
    /// does not serve the board: the search's question.
    pub fn serves_search(&self, board: &Board, min_size: usize) -> bool {
        if self.serves(board, min_size) {
            return true;
        }
        if !self.warned.swap(true, Relaxed) {
            eprintln!(
                "tengen: the policy network {} was trained on {side}x{side}: on {n}x{n} the \
                 tree's prior is the move model's alone",
                self.path,
                side = self.net.side(),
                n = board.size().get()
            );
        }
        false
    }

    /// The cached rating of `c` to move on `board` after `history`, if any (a hit is
    /// counted).
    pub fn cached(&self, board: &Board, c: Color, history: &History) -> Option<Arc<NetPolicy>> {
        let key = position_key(board, c, history);
        let found = self.lock().get(key);
        if found.is_some() {
            self.cache_hits.fetch_add(1, Relaxed);
        }
        found
    }

    /// The cached rating of `c` to move on `board` after `history`, if any, counted
    /// neither as a hit nor as an evaluation: a report reading again the rating the
    /// search already used.
    pub fn peek(&self, board: &Board, c: Color, history: &History) -> Option<Arc<NetPolicy>> {
        self.lock().get(position_key(board, c, history))
    }

    /// The rating of `c` to move on `board` after `history`: from the cache, or
    /// evaluated with `scratch` and cached. `None` when the network cannot rate the
    /// position (its output overflows).
    pub fn rate(
        &self,
        board: &Board,
        c: Color,
        history: &History,
        scratch: &mut Option<NetScratch>,
    ) -> Option<Arc<NetPolicy>> {
        let key = position_key(board, c, history);
        if let Some(found) = self.lock().get(key) {
            self.cache_hits.fetch_add(1, Relaxed);
            return Some(found);
        }
        let scratch = scratch.get_or_insert_with(|| NetScratch::new(&self.net));
        let out = self.net.evaluate(board, c, history, scratch).ok()?;
        self.evaluations.fetch_add(1, Relaxed);
        let native = board.size().get() == self.net.side();
        let rating = Arc::new(
            NetPolicy::new(board.size(), |p| out.point(p), out.pass()).on_native_size(native),
        );
        self.lock().insert(key, Arc::clone(&rating));
        Some(rating)
    }

    /// The cache; a thread that panicked holding it left a consistent map.
    fn lock(&self) -> std::sync::MutexGuard<'_, Cache> {
        self.cache
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

/// Ratings by position key, at most [`CACHE_POSITIONS`] of them, the oldest dropped
/// first.
#[derive(Default)]
struct Cache {
    map: HashMap<u64, Arc<NetPolicy>>,
    order: VecDeque<u64>,
}

impl Cache {
    fn get(&self, key: u64) -> Option<Arc<NetPolicy>> {
        self.map.get(&key).cloned()
    }

    fn insert(&mut self, key: u64, rating: Arc<NetPolicy>) {
        if self.map.insert(key, rating).is_some() {
            return;
        }
        self.order.push_back(key);
        while self.order.len() > CACHE_POSITIONS {
            if let Some(old) = self.order.pop_front() {
                self.map.remove(&old);
            }
        }
    }
}

/// What the network's rating of a position depends on, in one key: the board's size,
/// the stones (the board's Zobrist hash), the player to move, the simple-ko point and the two moves
/// before (the network's last-move planes).
fn position_key(board: &Board, c: Color, history: &History) -> u64 {
    let slot = |mv: Option<Move>| match mv {
        None => 0u64,
        Some(Move::Pass) => 1,
        Some(Move::Play(p)) => p.index() as u64 + 2,
    };
    let ko = board
        .ko()
        .map_or(0, |(p, k)| (p.index() as u64 + 1) * 2 + k as u64);
    let mut key = board.hash().0;
    let size = board.size().get() as u64;
    for part in [
        size,
        c as u64 + 1,
        ko,
        slot(history.last),
        slot(history.before),
    ] {
        key = mix(key ^ part);
    }
    key
}

/// One SplitMix64 step: spreads `x`'s bits over the whole word.
fn mix(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}
