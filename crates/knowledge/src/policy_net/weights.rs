//! The network's weights file: safetensors, float32, the layout of
//! `crates/learn/python/weights.py` (tensors `conv{i}.weight` OIHW and `conv{i}.bias`,
//! `head.weight` (1, filters, 1, 1) and `head.bias`, `pass.weight` (1, filters) and
//! `pass.bias`; metadata `format` = `tengen-policy`, `format_version` = 1,
//! `board_size`, `input_planes`, `legal_plane`, `layers`, `filters`, …), checked whole
//! before a value is used. Version 2 adds the value, score and ownership heads
//! (`value.conv.weight` (channels, filters, 1, 1), `value.conv.bias`, `value.fc1.weight`
//! (hidden, 2 · channels), `value.fc1.bias`, `value.fc2.weight` (2,
//! hidden), `value.fc2.bias`, `ownership.weight` (1, filters, 1, 1), `ownership.bias`,
//! metadata `score_scale`); a version 1 file is a policy network alone.

use std::collections::HashMap;

use safetensors::{Dtype, SafeTensors};

use super::error::PolicyNetError;
use crate::planes::{LEGAL, PLANE_COUNT};

/// The format name the metadata must give.
const FORMAT: &str = "tengen-policy";
/// The format version of a policy network alone.
const FORMAT_VERSION: &str = "1";
/// The format version of a network with the value, score and ownership heads.
const FORMAT_VERSION_HEADS: &str = "2";
/// The most hidden units of the value head.
const MAX_HIDDEN: usize = 4096;
/// Bounds that keep a hostile file from asking for absurd buffers.
const MAX_LAYERS: usize = 64;
const MAX_FILTERS: usize = 1024;
const MAX_KERNEL: usize = 9;

/// One convolution: `filters` outputs of a `kernel`×`kernel` window over `inputs`
/// channels, weights row-major (filter, input, dy, dx).
#[derive(Debug)]
pub(super) struct Conv {
    pub filters: usize,
    pub inputs: usize,
    pub kernel: usize,
    pub weight: Vec<f32>,
    pub bias: Vec<f32>,
}

/// A whole network, checked.
#[derive(Debug)]
pub(super) struct Weights {
    pub side: usize,
    pub convs: Vec<Conv>,
    /// The 1×1 head: one weight a filter of the last layer.
    pub head: Vec<f32>,
    pub head_bias: f32,
    /// The pass logit's weights over the board mean of each last-layer filter.
    pub pass: Vec<f32>,
    pub pass_bias: f32,
    /// How many training positions the metadata says the network has seen.
    pub positions_seen: Option<u64>,
    /// The value, score and ownership heads (version 2).
    pub heads: Option<Heads>,
}

/// The heads that judge the position (the trainer's `net.judgement`): a 1×1
/// convolution of the last layer with ReLU, over the board mean, then the board max,
/// of each of its channels a hidden ReLU layer and two outputs (the value logit, the
/// score in units of `score_scale` points); and a 1×1 convolution with tanh for each
/// point's ownership.
#[derive(Debug)]
pub(super) struct Heads {
    /// Channels of the value convolution.
    pub channels: usize,
    /// `channels × filters`, row-major.
    pub conv: Vec<f32>,
    pub conv_bias: Vec<f32>,
    pub hidden: usize,
    /// `hidden × 2·channels`, row-major.
    pub fc1: Vec<f32>,
    pub fc1_bias: Vec<f32>,
    /// `2 × hidden`, row-major.
    pub fc2: Vec<f32>,
    pub fc2_bias: [f32; 2],
    /// One weight a last-layer filter.
    pub ownership: Vec<f32>,
    pub ownership_bias: f32,
    /// Points in one unit of the score output.
    pub score_scale: f32,
}

/// The file's tensors and metadata, with the file's name for every error.
struct Reader<'a> {
    origin: &'a str,
    tensors: SafeTensors<'a>,
    meta: HashMap<String, String>,
}

impl Reader<'_> {
    fn format(&self, reason: String) -> PolicyNetError {
        PolicyNetError::Format {
            origin: self.origin.to_string(),
            reason,
        }
    }

    fn tensor_error(&self, name: &str, reason: String) -> PolicyNetError {
        PolicyNetError::Tensor {
            origin: self.origin.to_string(),
            name: name.to_string(),
            reason,
        }
    }

    /// A metadata number, required, within `range`.
    fn number(
        &self,
        key: &str,
        range: std::ops::RangeInclusive<usize>,
    ) -> Result<usize, PolicyNetError> {
        let text = self
            .meta
            .get(key)
            .ok_or_else(|| self.format(format!("the metadata has no {key}")))?;
        match text.trim().parse::<usize>() {
            Ok(v) if range.contains(&v) => Ok(v),
            _ => Err(self.format(format!(
                "{key} is {text:?}, not a number from {} to {}",
                range.start(),
                range.end()
            ))),
        }
    }

    /// The float32 values of tensor `name`, which must have shape `shape`.
    fn tensor(&self, name: &str, shape: &[usize]) -> Result<Vec<f32>, PolicyNetError> {
        let view = self
            .tensors
            .tensor(name)
            .map_err(|_| self.tensor_error(name, "missing".to_string()))?;
        if view.dtype() != Dtype::F32 {
            return Err(self.tensor_error(name, format!("{:?}, not F32", view.dtype())));
        }
        if view.shape() != shape {
            return Err(self.tensor_error(
                name,
                format!("shape {:?}, expected {:?}", view.shape(), shape),
            ));
        }
        let values: Vec<f32> = view
            .data()
            .chunks_exact(4)
            .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
            .collect();
        if values.len() != shape.iter().product::<usize>() {
            return Err(self.tensor_error(name, "data of the wrong length".to_string()));
        }
        if values.iter().any(|v| !v.is_finite()) {
            return Err(PolicyNetError::NonFinite {
                origin: self.origin.to_string(),
                name: name.to_string(),
            });
        }
        Ok(values)
    }

    /// The first dimension of tensor `name` of `dims` dimensions (the channels or units
    /// a head chose, from 1 to [`MAX_HIDDEN`]), before its whole shape is checked.
    fn leading_dimension(&self, name: &str, dims: usize) -> Result<usize, PolicyNetError> {
        match self.tensors.tensor(name).map(|v| v.shape().to_vec()) {
            Ok(shape) if shape.len() == dims && (1..=MAX_HIDDEN).contains(&shape[0]) => {
                Ok(shape[0])
            }
            Ok(shape) => Err(self.tensor_error(
                name,
                format!("shape {shape:?}: {dims} dimensions, the first from 1 to {MAX_HIDDEN}"),
            )),
            Err(_) => Err(self.tensor_error(name, "missing".to_string())),
        }
    }

    /// The kernel of `conv{i}.weight` (its last dimension), before its shape is checked.
    fn kernel_of(&self, i: usize) -> Result<usize, PolicyNetError> {
        let name = format!("conv{i}.weight");
        let view = self
            .tensors
            .tensor(&name)
            .map_err(|_| self.tensor_error(&name, "missing".to_string()))?;
        match view.shape() {
            [_, _, k, _] if *k % 2 == 1 && *k <= MAX_KERNEL => Ok(*k),
            s => Err(self.tensor_error(
                &name,
                format!(
                    "shape {s:?}, expected (filters, inputs, k, k) with k odd, at most {MAX_KERNEL}"
                ),
            )),
        }
    }
}

/// Reads and checks the network in `bytes`, naming `origin` in every error.
pub(super) fn read(bytes: &[u8], origin: &str) -> Result<Weights, PolicyNetError> {
    let tensors = SafeTensors::deserialize(bytes).map_err(|e| PolicyNetError::NotSafetensors {
        origin: origin.to_string(),
        reason: e.to_string(),
    })?;
    let (_, metadata) =
        SafeTensors::read_metadata(bytes).map_err(|e| PolicyNetError::NotSafetensors {
            origin: origin.to_string(),
            reason: e.to_string(),
        })?;
    let meta = metadata.metadata().clone().unwrap_or_default();
    let r = Reader {
        origin,
        tensors,
        meta,
    };
    let with_heads = match (r.meta.get("format"), r.meta.get("format_version")) {
        (Some(f), Some(v)) if f == FORMAT && v == FORMAT_VERSION => false,
        (Some(f), Some(v)) if f == FORMAT && v == FORMAT_VERSION_HEADS => true,
        (f, v) => {
            return Err(r.format(format!(
                "format {f:?} version {v:?}, expected {FORMAT:?} version {FORMAT_VERSION:?} \
                 or {FORMAT_VERSION_HEADS:?}"
            )));
        }
    };
    if let Some(a) = r.meta.get("activation")
        && a != "relu"
    {
        return Err(r.format(format!("activation {a:?}, expected relu")));
    }
    let inputs = PLANE_COUNT + 1;
    let planes = r.meta.get("input_planes").map(String::as_str);
    if planes != Some(inputs.to_string().as_str()) {
        return Err(PolicyNetError::Planes {
            origin: origin.to_string(),
            reason: format!(
                "input_planes {planes:?}, expected {inputs} (the engine's {PLANE_COUNT} and a plane of ones)"
            ),
        });
    }
    let legal = r.meta.get("legal_plane").map(String::as_str);
    if legal != Some(LEGAL.to_string().as_str()) {
        return Err(PolicyNetError::Planes {
            origin: origin.to_string(),
            reason: format!("legal_plane {legal:?}, expected {LEGAL}"),
        });
    }
    let side = r.number("board_size", 2..=25)?;
    let layers = r.number("layers", 1..=MAX_LAYERS)?;
    let filters = r.number("filters", 1..=MAX_FILTERS)?;
    if r.tensors.tensor(&format!("conv{layers}.weight")).is_ok() {
        return Err(r.format(format!(
            "more convolutions than the {layers} layers it names"
        )));
    }
    let mut convs = Vec::with_capacity(layers);
    let mut cin = inputs;
    for i in 0..layers {
        let kernel = r.kernel_of(i)?;
        let key = if i == 0 { "first_kernel" } else { "kernel" };
        if let Some(k) = r.meta.get(key)
            && *k != kernel.to_string()
        {
            return Err(r.format(format!("{key} is {k:?}, conv{i}.weight's is {kernel}")));
        }
        let weight = r.tensor(&format!("conv{i}.weight"), &[filters, cin, kernel, kernel])?;
        let bias = r.tensor(&format!("conv{i}.bias"), &[filters])?;
        convs.push(Conv {
            filters,
            inputs: cin,
            kernel,
            weight,
            bias,
        });
        cin = filters;
    }
    let head = r.tensor("head.weight", &[1, filters, 1, 1])?;
    let head_bias = r.tensor("head.bias", &[1])?[0];
    let pass = r.tensor("pass.weight", &[1, filters])?;
    let pass_bias = r.tensor("pass.bias", &[1])?[0];
    let positions_seen = r
        .meta
        .get("positions_seen")
        .and_then(|s| s.trim().parse().ok());
    let heads = if with_heads {
        Some(read_heads(&r, filters)?)
    } else {
        None
    };
    Ok(Weights {
        side,
        convs,
        head,
        head_bias,
        pass,
        pass_bias,
        positions_seen,
        heads,
    })
}

/// The value, score and ownership heads of a version 2 file over `filters` last-layer
/// filters.
fn read_heads(r: &Reader<'_>, filters: usize) -> Result<Heads, PolicyNetError> {
    let channels = r.leading_dimension("value.conv.weight", 4)?;
    let conv = r.tensor("value.conv.weight", &[channels, filters, 1, 1])?;
    let conv_bias = r.tensor("value.conv.bias", &[channels])?;
    let name = "value.fc1.weight";
    let hidden = r.leading_dimension(name, 2)?;
    let fc1 = r.tensor(name, &[hidden, 2 * channels])?;
    let fc1_bias = r.tensor("value.fc1.bias", &[hidden])?;
    let fc2 = r.tensor("value.fc2.weight", &[2, hidden])?;
    let b = r.tensor("value.fc2.bias", &[2])?;
    let ownership = r.tensor("ownership.weight", &[1, filters, 1, 1])?;
    let ownership_bias = r.tensor("ownership.bias", &[1])?[0];
    let text = r
        .meta
        .get("score_scale")
        .ok_or_else(|| r.format("the metadata has no score_scale".to_string()))?;
    let score_scale = match text.trim().parse::<f32>() {
        Ok(v) if v.is_finite() && v > 0.0 && v <= 1000.0 => v,
        _ => {
            return Err(r.format(format!(
                "score_scale is {text:?}, not a number from 0 to 1000"
            )));
        }
    };
    Ok(Heads {
        channels,
        conv,
        conv_bias,
        hidden,
        fc1,
        fc1_bias,
        fc2,
        fc2_bias: [b[0], b[1]],
        ownership,
        ownership_bias,
        score_scale,
    })
}
