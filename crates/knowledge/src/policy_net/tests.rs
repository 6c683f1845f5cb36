//! The network against the trainer's own forward pass, and against broken files.

use proptest::prelude::*;
use safetensors::SafeTensors;
use tengen_board::parse_diagram;

use super::*;

/// A 3-layer, 8-filter random net and six held-out 19×19 positions with the logits
/// `net.py` gives them, written by `crates/learn/python/fixture.py`.
const NET: &[u8] = include_bytes!("../../tests/data/policy-net/net.safetensors");
const POSITIONS: &[u8] = include_bytes!("../../tests/data/policy-net/positions.safetensors");

/// The same with the value, score and ownership heads (`fixture.py --heads`), and the
/// heads' outputs `net.py` gives.
const NET_HEADS: &[u8] = include_bytes!("../../tests/data/policy-net-heads/net.safetensors");
const POSITIONS_HEADS: &[u8] =
    include_bytes!("../../tests/data/policy-net-heads/positions.safetensors");

fn fixture_net() -> PolicyNet {
    PolicyNet::from_bytes(NET, "fixture net").unwrap()
}

fn floats(bytes: &[u8]) -> Vec<f32> {
    bytes
        .chunks_exact(4)
        .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
        .collect()
}

#[test]
fn the_logits_are_the_trainers() {
    let net = fixture_net();
    assert_eq!(net.side(), 19);
    let positions = SafeTensors::deserialize(POSITIONS).unwrap();
    let planes = positions.tensor("planes").unwrap();
    let logits = positions.tensor("logits").unwrap();
    let count = planes.shape()[0];
    assert!(count >= 4);
    let want = floats(logits.data());
    let mut scratch = NetScratch::new(&net);
    let n = 19 * 19 + 1;
    for (k, planes) in planes.data().chunks_exact(planes.shape()[1]).enumerate() {
        let got = net.logits_of_planes(planes, &mut scratch).unwrap();
        let want = &want[k * n..(k + 1) * n];
        let mut legal = 0;
        for (i, (g, w)) in got.iter().zip(want).enumerate() {
            assert!(
                (g - w).abs() <= 1e-4 * w.abs().max(1.0),
                "position {k}, logit {i}: Rust {g}, Python {w}"
            );
            legal += usize::from(*w > -1e8);
        }
        // The masked points are there, and so are the legal ones.
        assert!(legal > 100 && legal < n, "{legal}");
    }
    assert!(net.logits_of_planes(&[0; 10], &mut scratch).is_none());
}

#[test]
fn probabilities_cover_the_legal_moves_only() {
    let net = fixture_net();
    let mut b = Board::new(BoardSize::NINETEEN);
    let size = b.size();
    let d4 = size.parse_point("D4").unwrap();
    b.try_play(Color::Black, Move::Play(d4)).unwrap();
    let history = History {
        last: Some(Move::Play(d4)),
        before: None,
    };
    let mut scratch = NetScratch::new(&net);
    let out = net
        .evaluate(&b, Color::White, &history, &mut scratch)
        .unwrap();
    assert_eq!(out.point(d4), 0.0);
    let total: f32 = size.points().map(|p| out.point(p)).sum::<f32>() + out.pass();
    assert!((total - 1.0).abs() < 1e-4, "{total}");
    let top = out.top(5);
    assert_eq!(top.len(), 5);
    assert!(top.windows(2).all(|w| w[0].1 >= w[1].1));
    assert_eq!(out.of(top[0].0), top[0].1);
    // Every legal move and the pass: 360 points.
    assert_eq!(out.top(1000).len(), 361);
    // The same position gives the same answer with a reused scratch.
    let again = net
        .evaluate(&b, Color::White, &history, &mut scratch)
        .unwrap();
    assert_eq!(out, again);
}

#[test]
fn a_board_of_another_size_is_read_as_it_is() {
    let net = fixture_net();
    let b = parse_diagram(
        ". . .
         . X .
         . . .",
    )
    .unwrap();
    let mut scratch = NetScratch::new(&net);
    let out = net
        .evaluate(&b, Color::White, &History::default(), &mut scratch)
        .unwrap();
    let size = b.size();
    let centre = size.point(1, 1).unwrap();
    assert!(!out.is_legal(Move::Play(centre)));
    assert_eq!(out.point(centre), 0.0);
    let legal: Vec<f32> = (0..9)
        .filter(|&i| i != 4)
        .map(|i| out.point(size.point(i % 3, i / 3).unwrap()))
        .collect();
    assert!(legal.iter().all(|&p| p > 0.0), "{legal:?}");
    let total = legal.iter().sum::<f32>() + out.pass();
    assert!((total - 1.0).abs() < 1e-5, "{total}");
    // The same scratch serves the net's own size again afterwards, unchanged.
    let big = Board::new(BoardSize::new(19).unwrap());
    let again = net
        .evaluate(&big, Color::Black, &History::default(), &mut scratch)
        .unwrap();
    let fresh = net
        .evaluate(
            &big,
            Color::Black,
            &History::default(),
            &mut NetScratch::new(&net),
        )
        .unwrap();
    assert_eq!(again, fresh);
}

#[test]
fn describe_names_the_shape_and_the_file() {
    let d = fixture_net().describe();
    assert!(d.contains("3 layers × 8 filters"), "{d}");
    assert!(d.contains("kernels 5 3 3") && d.contains("19×19"), "{d}");
    assert!(
        d.contains("0 positions trained") && d.contains("fixture net"),
        "{d}"
    );
}

#[test]
fn a_missing_file_is_an_error_naming_it() {
    let e = PolicyNet::load(Path::new("/nonexistent/policy.safetensors")).unwrap_err();
    assert!(matches!(e, PolicyNetError::Unreadable { .. }));
    assert!(
        e.to_string().contains("/nonexistent/policy.safetensors"),
        "{e}"
    );
}

/// The fixture net re-serialized with `edit` applied to its tensors and metadata.
fn edited(
    edit: impl FnOnce(&mut Vec<(String, Vec<usize>, Vec<f32>)>, &mut HashMap<String, String>),
) -> Vec<u8> {
    edited_from(NET, edit)
}

/// The weights file `net` re-serialized with `edit` applied.
fn edited_from(
    net: &[u8],
    edit: impl FnOnce(&mut Vec<(String, Vec<usize>, Vec<f32>)>, &mut HashMap<String, String>),
) -> Vec<u8> {
    let st = SafeTensors::deserialize(net).unwrap();
    let (_, meta) = SafeTensors::read_metadata(net).unwrap();
    let mut meta = meta.metadata().clone().unwrap();
    let mut tensors: Vec<(String, Vec<usize>, Vec<f32>)> = st
        .tensors()
        .into_iter()
        .map(|(name, v)| (name, v.shape().to_vec(), floats(v.data())))
        .collect();
    edit(&mut tensors, &mut meta);
    let bytes: Vec<(String, Vec<u8>, Vec<usize>)> = tensors
        .into_iter()
        .map(|(name, shape, values)| {
            let data = values.iter().flat_map(|v| v.to_le_bytes()).collect();
            (name, data, shape)
        })
        .collect();
    let views: Vec<(String, safetensors::tensor::TensorView<'_>)> = bytes
        .iter()
        .map(|(name, data, shape)| {
            let view =
                safetensors::tensor::TensorView::new(safetensors::Dtype::F32, shape.clone(), data)
                    .unwrap();
            (name.clone(), view)
        })
        .collect();
    safetensors::serialize(views, Some(meta)).unwrap()
}

use std::collections::HashMap;

#[test]
fn each_kind_of_bad_file_is_its_own_error() {
    let kind = |bytes: &[u8]| {
        let e = PolicyNet::from_bytes(bytes, "bad.safetensors").unwrap_err();
        assert!(e.to_string().starts_with("bad.safetensors: "), "{e}");
        e
    };
    // The unedited fixture reads back: the edits below are what fails.
    assert!(PolicyNet::from_bytes(&edited(|_, _| {}), "same").is_ok());
    assert!(matches!(
        kind(&NET[..NET.len() - 1]),
        PolicyNetError::NotSafetensors { .. }
    ));
    assert!(matches!(
        kind(b"not a weights file"),
        PolicyNetError::NotSafetensors { .. }
    ));
    // A metadata entry set to a value the reader refuses, and the error it is.
    type Is = fn(&PolicyNetError) -> bool;
    let format: Is = |e| matches!(e, PolicyNetError::Format { .. });
    let planes: Is = |e| matches!(e, PolicyNetError::Planes { .. });
    for (key, value, is) in [
        ("format_version", "3", format),
        ("input_planes", "17", planes),
        ("legal_plane", "3", planes),
        ("layers", "2", format),
        ("board_size", "nineteen", format),
    ] {
        let e = kind(&edited(|_, m| {
            m.insert(key.into(), value.into());
        }));
        assert!(is(&e), "{key} {value}: {e}");
    }
    // A policy network alone that says it has heads lacks their tensors.
    match kind(&edited(|_, m| {
        m.insert("format_version".into(), "2".into());
    })) {
        PolicyNetError::Tensor { name, .. } => assert_eq!(name, "value.conv.weight"),
        e => panic!("{e}"),
    }
    let missing = edited(|t, _| t.retain(|(name, _, _)| name != "pass.bias"));
    match kind(&missing) {
        PolicyNetError::Tensor { name, .. } => assert_eq!(name, "pass.bias"),
        e => panic!("{e}"),
    }
    let misshapen = edited(|t, _| tensor(t, "head.weight").1 = vec![1, 4, 1, 2]);
    assert!(matches!(kind(&misshapen), PolicyNetError::Tensor { .. }));
    let nan = edited(|t, _| tensor(t, "conv1.weight").2[5] = f32::NAN);
    match kind(&nan) {
        PolicyNetError::NonFinite { name, .. } => assert_eq!(name, "conv1.weight"),
        e => panic!("{e}"),
    }
}

/// The tensor `name` among `tensors` as `edited` gives them: (name, shape, values).
fn tensor<'a>(
    tensors: &'a mut [(String, Vec<usize>, Vec<f32>)],
    name: &str,
) -> &'a mut (String, Vec<usize>, Vec<f32>) {
    tensors.iter_mut().find(|(n, _, _)| n == name).unwrap()
}

#[test]
fn huge_finite_weights_are_an_error_not_nan_probabilities() {
    // The head adds its eight filters, each weighted 3e38, to a bias of 3e38: past
    // f32::MAX wherever a filter is on.
    let huge = edited(|t, _| {
        for (name, _, values) in t.iter_mut() {
            if name.starts_with("head.") {
                values.fill(3e38);
            }
        }
    });
    // Every weight is finite: the file loads.
    let net = PolicyNet::from_bytes(&huge, "huge.safetensors").unwrap();
    let b = Board::new(BoardSize::NINETEEN);
    let mut scratch = NetScratch::new(&net);
    let e = net
        .evaluate(&b, Color::Black, &History::default(), &mut scratch)
        .unwrap_err();
    assert_eq!(
        e,
        PolicyNetError::NonFiniteOutput {
            origin: "huge.safetensors".into()
        }
    );
    assert!(e.to_string().starts_with("huge.safetensors: "), "{e}");
}

#[test]
fn a_legal_move_stays_legal_when_its_probability_underflows() {
    // Head weights a thousand times larger: the logits spread over thousands and
    // most legal points' probabilities underflow to 0.
    let steep = edited(|t, _| {
        let head = t
            .iter_mut()
            .find(|(name, _, _)| name == "head.weight")
            .unwrap();
        head.2.iter_mut().for_each(|w| *w *= 1e4);
    });
    let net = PolicyNet::from_bytes(&steep, "steep").unwrap();
    let mut b = Board::new(BoardSize::NINETEEN);
    let d4 = b.size().parse_point("D4").unwrap();
    b.try_play(Color::Black, Move::Play(d4)).unwrap();
    let mut scratch = NetScratch::new(&net);
    let out = net
        .evaluate(&b, Color::White, &History::default(), &mut scratch)
        .unwrap();
    let underflowed: Vec<Point> = b
        .size()
        .points()
        .filter(|&p| p != d4 && out.point(p) == 0.0)
        .collect();
    assert!(!underflowed.is_empty());
    assert!(underflowed.iter().all(|&p| out.is_legal(Move::Play(p))));
    assert!(!out.is_legal(Move::Play(d4)));
    assert!(out.is_legal(Move::Pass));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// No truncation or flipped bit panics the reader; a net that still loads
    /// evaluates a position without panicking.
    #[test]
    fn broken_files_are_errors_not_panics(
        cut in 0usize..NET.len(),
        flips in proptest::collection::vec((0usize..NET.len(), 0u8..8), 0..4),
        truncate in any::<bool>(),
    ) {
        let mut bytes = NET.to_vec();
        for (i, bit) in flips {
            bytes[i] ^= 1 << bit;
        }
        if truncate {
            bytes.truncate(cut);
        }
        if let Ok(net) = PolicyNet::from_bytes(&bytes, "fuzzed") {
            let b = Board::new(BoardSize::new(net.side() as u32).unwrap());
            let mut scratch = NetScratch::new(&net);
            // An overflowing output is an error; an answer is a distribution.
            match net.evaluate(&b, Color::Black, &History::default(), &mut scratch) {
                Ok(out) => {
                    let p: Vec<f32> = b.size().points().map(|p| out.point(p)).chain([out.pass()]).collect();
                    prop_assert!(p.iter().all(|p| p.is_finite() && *p >= 0.0), "{:?}", p);
                    let total: f32 = p.iter().sum();
                    prop_assert!((total - 1.0).abs() < 1e-3, "{}", total);
                }
                Err(e) => prop_assert_eq!(e, PolicyNetError::NonFiniteOutput { origin: "fuzzed".into() }),
            }
        }
    }
}

#[test]
fn the_heads_are_the_trainers() {
    let net = PolicyNet::from_bytes(NET_HEADS, "fixture net with heads").unwrap();
    assert!(net.has_heads() && !fixture_net().has_heads());
    assert!(net.describe().contains("value, score and ownership heads"));
    let positions = SafeTensors::deserialize(POSITIONS_HEADS).unwrap();
    let planes = positions.tensor("planes").unwrap();
    let want = |name: &str| floats(positions.tensor(name).unwrap().data());
    let (value, score, ownership) = (want("value"), want("score"), want("ownership"));
    let close = |g: f32, w: f32| (g - w).abs() <= 1e-4 * w.abs().max(1.0);
    let mut scratch = NetScratch::new(&net);
    let n = 19 * 19;
    for (k, planes) in planes.data().chunks_exact(planes.shape()[1]).enumerate() {
        let out = net
            .output_of_planes(BoardSize::NINETEEN, planes, &mut scratch)
            .unwrap();
        let j = out.judgement().expect("a net with heads judges");
        let win = 1.0 / (1.0 + (-value[k]).exp());
        assert!(
            close(j.win, win),
            "position {k}: win {} against {win}",
            j.win
        );
        assert!(
            close(j.score, score[k]),
            "position {k}: score {} against {}",
            j.score,
            score[k]
        );
        for (i, (g, w)) in j
            .ownership
            .iter()
            .zip(&ownership[k * n..(k + 1) * n])
            .enumerate()
        {
            assert!(
                close(*g, *w),
                "position {k}, point {i}: ownership {g} against {w}"
            );
        }
    }
    // A policy network alone judges nothing.
    let board = Board::new(BoardSize::NINETEEN);
    let out = fixture_net()
        .evaluate(
            &board,
            Color::Black,
            &History::default(),
            &mut NetScratch::default(),
        )
        .unwrap();
    assert!(out.judgement().is_none());
}

#[test]
fn a_file_with_broken_heads_is_an_error_naming_the_tensor() {
    let kind = |bytes: &[u8]| PolicyNet::from_bytes(bytes, "heads.safetensors").unwrap_err();
    assert!(PolicyNet::from_bytes(&edited_from(NET_HEADS, |_, _| {}), "same").is_ok());
    let misshapen = edited_from(NET_HEADS, |t, _| {
        tensor(t, "value.fc2.weight").1 = vec![4, 16]
    });
    match kind(&misshapen) {
        PolicyNetError::Tensor { name, .. } => assert_eq!(name, "value.fc2.weight"),
        e => panic!("{e}"),
    }
    let nan = edited_from(NET_HEADS, |t, _| {
        tensor(t, "ownership.weight").2[0] = f32::NAN
    });
    match kind(&nan) {
        PolicyNetError::NonFinite { name, .. } => assert_eq!(name, "ownership.weight"),
        e => panic!("{e}"),
    }
    let no_scale = edited_from(NET_HEADS, |_, m| {
        m.remove("score_scale");
    });
    let e = kind(&no_scale);
    assert!(
        matches!(e, PolicyNetError::Format { .. }) && e.to_string().contains("score_scale"),
        "{e}"
    );
    assert!(e.to_string().starts_with("heads.safetensors: "), "{e}");
}
