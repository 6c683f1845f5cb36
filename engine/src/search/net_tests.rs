//! Tests of the policy network in the search: the root is rated before the playouts,
//! a node once it has `net_visits` visits, the cache spares evaluations, a network
//! for another board size changes nothing, and the rated priors are the blend.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use rand::SeedableRng;
use tengen_board::{BoardSize, Color, Game, Move, Rules};

use super::{Job, Limit, PolicyNetFile, Worker, search_by_config};
use crate::analysis::Analysis;
use crate::config::{Config, Parallelism};
use crate::player::SearchRequest;
use crate::playout::Rng;
use crate::tree::{NodeId, Tree};
use tengen_knowledge::move_model::features::History;
use tengen_knowledge::{NetChoice, NetStats, SHIPPED_NET};
use tengen_knowledge::{NetScratch, PolicyOutput};

/// The small 19×19 network of the engine's tests, freshly loaded (its own cache and
/// counters).
fn test_net() -> Arc<PolicyNetFile> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../crates/knowledge/tests/data/policy-net/net.safetensors"
    );
    Arc::new(PolicyNetFile::load(path).unwrap())
}

/// A game of `size` after `moves` (Black first).
fn game(size: u32, moves: &[&str]) -> Game {
    let size = BoardSize::new(size).unwrap();
    let mut game = Game::new(size, Rules::chinese());
    for v in moves {
        let c = game.to_move();
        game.play(c, size.parse_move(v).unwrap()).unwrap();
    }
    game
}

/// One search of `playouts` for the side to move in `game` under `config`, by fresh
/// workers (one a thread); the workers keep their trees.
fn search_with(game: &Game, setup: &Setup, playouts: u64) -> (Vec<Worker>, Analysis) {
    let mut workers = workers(game, setup.threads);
    let stop = AtomicBool::new(false);
    let job = Job::plain(game, game.to_move(), Limit::Playouts(playouts), &stop);
    let analysis = search_by_config(&mut workers, setup.means(), &job, Instant::now(), None);
    (workers, analysis)
}

/// The network's output for `color` to move in `game`, the two moves before it
/// `[before, last]`.
fn evaluated(
    net: &PolicyNetFile,
    game: &Game,
    color: Color,
    [before, last]: [&str; 2],
) -> PolicyOutput {
    let mut scratch = NetScratch::new(net.net());
    let size = game.size();
    let history = History {
        last: Some(size.parse_move(last).unwrap()),
        before: Some(size.parse_move(before).unwrap()),
    };
    net.net()
        .evaluate(game.board(), color, &history, &mut scratch)
        .unwrap()
}

/// `n` workers without trees, seeded 11, 12, …
fn workers(game: &Game, n: usize) -> Vec<Worker> {
    (0..n)
        .map(|i| Worker::new(game.board(), Rng::seed_from_u64(11 + i as u64)))
        .collect()
}

/// Settings that name a network, and the network loaded for them (as an engine
/// holds them); they read as the settings.
struct Setup {
    config: Config,
    net: Option<Arc<PolicyNetFile>>,
}

impl Setup {
    /// The settings and the network, as a search takes them.
    fn means(&self) -> (&Config, Option<&PolicyNetFile>) {
        (&self.config, self.net.as_deref())
    }
}

impl std::ops::Deref for Setup {
    type Target = Config;
    fn deref(&self) -> &Config {
        &self.config
    }
}

impl std::ops::DerefMut for Setup {
    fn deref_mut(&mut self) -> &mut Config {
        &mut self.config
    }
}

fn config(net: Option<Arc<PolicyNetFile>>, threads: usize) -> Setup {
    let policy_net = match &net {
        None => NetChoice::Off,
        Some(n) if n.path() == SHIPPED_NET => NetChoice::Shipped,
        Some(n) => NetChoice::File(n.path().to_string()),
    };
    let mut config = Config {
        threads,
        parallelism: Parallelism::Tree,
        memory_mib: 64,
        policy_net,
        ..Config::default()
    };
    config.search.net_visits = 40;
    Setup { config, net }
}

/// Every node of `tree` with its visits and whether it was rated.
fn nodes(tree: &Tree) -> Vec<(NodeId, u32, bool)> {
    let mut out = Vec::new();
    let mut stack = vec![tree.root()];
    while let Some(id) = stack.pop() {
        let n = tree.node(id);
        out.push((id, n.visits(), n.is_expanded() && n.is_rated()));
        stack.extend(tree.edges(id).iter().filter_map(|e| e.child()));
    }
    out
}

#[test]
fn the_root_and_every_busy_node_are_rated_once() {
    let net = test_net();
    let g = game(19, &["Q16", "D4"]);
    let (w, _) = search_with(&g, &config(Some(Arc::clone(&net)), 1), 1500);
    let tree = w[0].tree.as_ref().unwrap();
    let all = nodes(tree);
    let rated: Vec<_> = all.iter().filter(|n| n.2).collect();
    assert!(tree.node(tree.root()).is_rated(), "the root is rated");
    // A node passed with 40 visits or more was rated (a descent that ends at a node
    // adds a visit without passing it: two of the last visits may be such).
    let busy = all.iter().filter(|n| n.1 >= 40 + 2).count();
    assert!(busy > 3, "{busy} busy nodes");
    for n in &all {
        if n.1 >= 42 {
            assert!(n.2, "a node of {} visits was not rated", n.1);
        }
    }
    // Each rating was an evaluation, or the cache's rating of a position reached
    // before by another path (then at expansion, however few its visits).
    let stats = net.stats();
    assert_eq!(
        (stats.evaluations + stats.cache_hits) as usize,
        rated.len(),
        "{stats:?}"
    );
    assert!(stats.evaluations > stats.cache_hits, "{stats:?}");
    let early = rated
        .iter()
        .filter(|n| n.1 < 40 && n.0 != tree.root())
        .count();
    assert!(early as u64 <= stats.cache_hits, "{early} rated early");
}

#[test]
fn a_node_with_enough_visits_at_expansion_is_rated_there_once() {
    // With `net_visits` below the expansion threshold, every node is rated as it is
    // expanded: none is left with the model's priors, and none is rated twice.
    let net = test_net();
    let g = game(19, &["Q16", "D4"]);
    let mut config = config(Some(Arc::clone(&net)), 1);
    config.search.net_visits = 1;
    let (w, _) = search_with(&g, &config, 600);
    let tree = w[0].tree.as_ref().unwrap();
    let expanded: Vec<_> = nodes(tree)
        .into_iter()
        .filter(|n| tree.node(n.0).is_expanded())
        .collect();
    assert!(expanded.len() > 10, "{} expanded nodes", expanded.len());
    assert!(
        expanded.iter().all(|n| n.2),
        "an expanded node was not rated"
    );
    let stats = net.stats();
    assert_eq!(
        (stats.evaluations + stats.cache_hits) as usize,
        expanded.len(),
        "{stats:?}"
    );
}

#[test]
fn the_cache_rates_a_position_seen_before_without_an_evaluation() {
    let net = test_net();
    let g = game(19, &["Q16", "D4", "C16"]);
    let config = config(Some(Arc::clone(&net)), 1);
    // A fresh tree of the same position: its root's rating comes from the cache, and
    // so do those of the nodes whose positions the first search rated.
    let (first, _) = search_with(&g, &config, 600);
    let after_first = net.stats();
    assert!(after_first.evaluations >= 2, "{after_first:?}");
    let (second, _) = search_with(&g, &config, 600);
    let after_second = net.stats();
    assert!(after_second.cache_hits >= 1, "{after_second:?}");
    assert!(tree_root_rated(&second[0]));
    // Nodes expanded at a cached position were rated at once, so the second search
    // rated more of its tree than it evaluated.
    let rated = nodes(second[0].tree.as_ref().unwrap())
        .iter()
        .filter(|n| n.2)
        .count() as u64;
    assert_eq!(
        rated,
        after_second.evaluations - after_first.evaluations + after_second.cache_hits
    );
    // The cached rating gives the root the same priors as the evaluation did.
    let priors = |w: &Worker| {
        let t = w.tree.as_ref().unwrap();
        t.edges(t.root())
            .iter()
            .map(|e| (e.mv(), e.prior()))
            .collect::<Vec<_>>()
    };
    assert_eq!(priors(&first[0]), priors(&second[0]));
}

fn tree_root_rated(w: &Worker) -> bool {
    let t = w.tree.as_ref().unwrap();
    t.node(t.root()).is_rated()
}

#[test]
fn a_network_for_another_size_leaves_the_search_as_it_was() {
    let net = test_net();
    let g = game(9, &["E5", "C3"]);
    let run = |net: Option<Arc<PolicyNetFile>>| {
        let (w, a) = search_with(&g, &config(net, 1), 800);
        (a.moves, a.winrate, priors_of_root(&w[0]))
    };
    assert_eq!(run(Some(Arc::clone(&net))), run(None));
    assert_eq!(net.stats(), NetStats::default());
}

fn priors_of_root(w: &Worker) -> Vec<(Move, (f32, f32))> {
    let t = w.tree.as_ref().unwrap();
    t.edges(t.root())
        .iter()
        .map(|e| (e.mv(), e.prior()))
        .collect()
}

#[test]
fn the_rated_root_holds_the_blend_of_the_model_and_the_network() {
    use crate::config::ModelPrior;
    let net = test_net();
    let g = game(19, &["Q16", "D4", "Q4"]);
    let root_priors = |net: Option<Arc<PolicyNetFile>>, mode: ModelPrior, blend: f64, weight| {
        let mut config = config(net, 1);
        config.search.model_prior = mode;
        config.search.net_blend = blend;
        config.search.net_weight = weight;
        let (w, _) = search_with(&g, &config, 1);
        priors_of_root(&w[0])
    };
    // Within what an edge stores: a quarter visit, a thousandth of the rate.
    let close = |a: &[(Move, (f32, f32))], b: &[(Move, (f32, f32))]| {
        a.len() == b.len()
            && a.iter().zip(b).all(|((m, (v, w)), (n, (u, x)))| {
                m == n && (v - u).abs() <= 0.25 && (w / v - x / u).abs() <= 2e-3
            })
    };
    // Blend 0 at the model's own weight: the network rates the root, but the priors
    // are the model's.
    let model_weight = Config::default().search.model_weight;
    let model = root_priors(None, ModelPrior::Wins, 0.75, 1.0);
    let none = root_priors(Some(Arc::clone(&net)), ModelPrior::Wins, 0.0, model_weight);
    assert!(close(&model, &none));
    // At another weight the rated root's shares add up to that weight instead.
    let heavier = root_priors(
        Some(Arc::clone(&net)),
        ModelPrior::Wins,
        0.0,
        3.0 * model_weight,
    );
    assert!(!close(&model, &heavier));
    // Blend 1 with the model's wins off: the extra won visits are the network's
    // probabilities over the candidates times `net_weight`, not `model_weight`.
    let weight = 250.0;
    let plain = root_priors(None, ModelPrior::Off, 1.0, 1.0);
    let rated = root_priors(Some(Arc::clone(&net)), ModelPrior::Off, 1.0, weight as f64);
    let out = evaluated(&net, &g, Color::White, ["D4", "Q4"]);
    let total: f32 = plain.iter().map(|(mv, _)| out.of(*mv)).sum();
    assert_eq!(plain.len(), rated.len());
    for ((mv, (v, _)), (mv2, (u, _))) in plain.iter().zip(&rated) {
        assert_eq!(mv, mv2);
        let want = weight * out.of(*mv) / total;
        assert!(
            (u - v - want).abs() <= 0.25,
            "{mv:?}: {u} - {v}, want {want}"
        );
    }
}

#[test]
fn threads_sharing_a_tree_rate_each_node_once() {
    let net = test_net();
    let g = game(19, &["Q16", "D4"]);
    let (w, a) = search_with(&g, &config(Some(Arc::clone(&net)), 3), 3000);
    assert_eq!(a.visits, 3000);
    let tree = w[0].tree.as_ref().unwrap();
    let rated = nodes(tree).iter().filter(|n| n.2).count() as u64;
    let stats = net.stats();
    assert!(rated >= 4, "{rated} rated");
    assert_eq!(stats.evaluations + stats.cache_hits, rated, "{stats:?}");
}

#[test]
fn the_shipped_network_steers_the_root_towards_its_moves() {
    // The network compiled into the binary rates as the file in crates/knowledge/data does.
    let net = Arc::new(PolicyNetFile::shipped());
    assert_eq!(net.path(), SHIPPED_NET);
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../crates/knowledge/data/policy-19.safetensors"
    );
    let file = Arc::new(PolicyNetFile::load(path).unwrap());
    let g = game(19, &["Q16", "D4"]);
    assert_eq!(
        evaluated(&net, &g, Color::Black, ["Q16", "D4"]),
        evaluated(&file, &g, Color::Black, ["Q16", "D4"])
    );
    assert!(net.serves(g.board(), 19));
    assert!(!net.serves(game(13, &[]).board(), 19));
    assert!(net.serves(game(13, &[]).board(), 13));
    assert!(!net.serves(game(9, &[]).board(), 13));
    let mut config = config(Some(Arc::clone(&net)), 1);
    config.search.net_blend = 1.0;
    let (w, _) = search_with(&g, &config, 1);
    assert_eq!(net.stats().evaluations, 1, "the root, before the playouts");
    // The candidate with the most won virtual visits is one of the network's three
    // favourites (the empty corners, here).
    let priors = priors_of_root(&w[0]);
    let best = priors
        .iter()
        .max_by(|a, b| a.1.1.total_cmp(&b.1.1))
        .unwrap()
        .0;
    let out = evaluated(&net, &g, Color::Black, ["Q16", "D4"]);
    let top: Vec<Move> = out.top(3).into_iter().map(|t| t.0).collect();
    assert!(top.contains(&best), "{best:?} not in {top:?}");
}

#[test]
fn the_judgement_of_a_game_reads_no_network() {
    // The judgement settles a finished board by captures and escapes; the network,
    // learned from play like the move model, is left out of its search as the model
    // is, while a move's search with the same engine rates its root.
    let net = test_net();
    let setup = config(Some(Arc::clone(&net)), 1);
    let knowledge = Arc::new(tengen_knowledge::Knowledge::shipped());
    let mut engine = crate::Engine::with_loaded_net(setup.config, knowledge, setup.net);
    let g = game(19, &["D4", "Q16", "Q4", "D16"]);
    engine.judge(&g);
    assert_eq!(net.stats().evaluations + net.stats().cache_hits, 0);
    assert!(engine.policy_net().is_some(), "the network is given back");
    let stop = AtomicBool::new(false);
    engine.search(SearchRequest::new(
        &g,
        g.to_move(),
        Limit::Playouts(50),
        &stop,
    ));
    assert!(net.stats().evaluations > 0);
}

#[test]
fn the_reported_prior_is_the_policy_the_root_followed() {
    // The shipped network on the empty 19×19 board: each candidate's reported prior is
    // its share of the network's probabilities over the candidates (the default blend
    // is the network's alone), far from flat, and the same when a later search reuses
    // the rated root.
    let net = Arc::new(PolicyNetFile::shipped());
    let g = game(19, &[]);
    let config = config(Some(Arc::clone(&net)), 1);
    assert_eq!(config.search.net_blend, 1.0);
    let (mut w, a) = search_with(&g, &config, 100);
    let mut scratch = NetScratch::new(net.net());
    let out = net
        .net()
        .evaluate(g.board(), Color::Black, &History::default(), &mut scratch)
        .unwrap();
    let listed: f64 = a.moves.iter().map(|m| f64::from(out.of(m.mv))).sum();
    let total: f64 = a.moves.iter().map(|m| m.prior).sum();
    assert!((total - 1.0).abs() < 1e-6, "priors add up to {total}");
    let mut by_prior = a.moves.clone();
    by_prior.sort_by(|x, y| y.prior.total_cmp(&x.prior));
    for m in &by_prior[..5] {
        let want = f64::from(out.of(m.mv)) / listed;
        assert!(
            (m.prior - want).abs() < 1e-4,
            "{:?}: prior {} against the network's {want}",
            m.mv,
            m.prior
        );
    }
    let even = 1.0 / a.moves.len() as f64;
    assert!(
        by_prior[0].prior > 10.0 * even,
        "flat: {}",
        by_prior[0].prior
    );
    // The network's favourites lead: the top prior is one of its three first moves.
    let top: Vec<Move> = out.top(3).into_iter().map(|t| t.0).collect();
    assert!(top.contains(&by_prior[0].mv), "{:?}", by_prior[0].mv);
    // A second search on the same tree reads the same rating: no new evaluation.
    let before = net.stats();
    let stop = AtomicBool::new(false);
    let job = Job::plain(&g, Color::Black, Limit::Playouts(20), &stop);
    let again = search_by_config(&mut w, config.means(), &job, Instant::now(), None);
    assert_eq!(net.stats().evaluations, before.evaluations);
    let prior_of = |an: &Analysis, mv: Move| an.moves.iter().find(|m| m.mv == mv).unwrap().prior;
    for m in &by_prior[..5] {
        assert_eq!(prior_of(&again, m.mv), m.prior, "{:?}", m.mv);
    }
}

#[test]
fn without_a_network_the_prior_is_the_move_models_softmax() {
    use tengen_knowledge::ModelKnowledge;
    let g = game(9, &["E5"]);
    let config = config(None, 1);
    let (_, a) = search_with(&g, &config, 50);
    let model = ModelKnowledge::shipped();
    let history = History {
        last: Some(g.size().parse_move("E5").unwrap()),
        before: None,
    };
    let strength = |mv| f64::from(model.log_strength(g.board(), Color::White, mv, &history));
    let top = a
        .moves
        .iter()
        .map(|m| strength(m.mv))
        .fold(f64::MIN, f64::max);
    let sum: f64 = a.moves.iter().map(|m| (strength(m.mv) - top).exp()).sum();
    for m in &a.moves {
        let want = (strength(m.mv) - top).exp() / sum;
        assert!(
            (m.prior - want).abs() < 1e-5,
            "{:?}: {} against {want}",
            m.mv,
            m.prior
        );
    }
    let best = a.moves.iter().map(|m| m.prior).fold(0.0, f64::max);
    assert!(best > 3.0 / a.moves.len() as f64, "flat: {best}");
}

#[test]
fn the_engine_loads_the_network_its_settings_name_and_shares_it_until_renamed() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../crates/knowledge/tests/data/policy-net/net.safetensors"
    );
    let named = Config {
        policy_net: NetChoice::File(path.to_string()),
        ..Config::default()
    };
    let engine = crate::Engine::new(named.clone());
    let first = Arc::clone(engine.policy_net().expect("the file is loaded"));
    assert_eq!(first.path(), path);
    assert_eq!(first.net().side(), 19);
    // Another setting changed: the same load, its cache and counters shared.
    let other = engine.reconfigured(Config {
        threads: 2,
        ..named.clone()
    });
    assert!(Arc::ptr_eq(&first, other.policy_net().unwrap()));
    // The same file named again (`tengen-set policy_net` with its path): read again,
    // as it is now, a new load.
    let mut again = other.reconfigured(named.clone());
    again.reload_net().unwrap();
    assert!(!Arc::ptr_eq(&first, again.policy_net().unwrap()));
    // Off drops it; the shipped one is loaded by name.
    assert!(again.reconfigured(Config::default()).policy_net().is_none());
    let shipped = again.reconfigured(named.clone().with_shipped_net());
    assert_eq!(shipped.policy_net().unwrap().path(), SHIPPED_NET);
    // A file that no longer loads: reloading it is an error naming it, and the
    // engine keeps what it had.
    let dir = std::env::temp_dir().join(format!("tengen-net-engine-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let copy = dir.join("net.safetensors");
    std::fs::copy(path, &copy).unwrap();
    let copy_named = Config {
        policy_net: NetChoice::File(copy.to_str().unwrap().to_string()),
        ..Config::default()
    };
    let mut engine = crate::Engine::new(copy_named);
    let held = Arc::clone(engine.policy_net().unwrap());
    std::fs::write(&copy, b"not a network").unwrap();
    let why = engine.reload_net().unwrap_err().to_string();
    assert!(why.contains(copy.to_str().unwrap()), "{why}");
    assert!(Arc::ptr_eq(&held, engine.policy_net().unwrap()));
    std::fs::remove_dir_all(&dir).ok();
}
