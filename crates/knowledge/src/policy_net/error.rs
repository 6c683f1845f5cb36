//! What can go wrong reading a policy network's weights or evaluating a position.

use std::fmt;

/// A weights file that cannot serve as the policy network, or a record of another
/// board size than the one the network was trained on, where a measurement of the
/// network on its own size (`tengen learn eval`) skips it. Every variant but
/// [`BoardSize`](PolicyNetError::BoardSize)
/// names the file (its path, or the origin given to
/// [`PolicyNet::from_bytes`](super::PolicyNet::from_bytes)).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PolicyNetError {
    /// The file could not be read.
    Unreadable {
        /// The file.
        origin: String,
        /// The system's reason.
        reason: String,
    },
    /// The bytes are not a whole safetensors file (truncated, or another format).
    NotSafetensors {
        /// The file.
        origin: String,
        /// What the reader found wrong.
        reason: String,
    },
    /// The metadata does not describe a Tengen policy network of a version this build
    /// reads (format, version, board size, layers, kernels).
    Format {
        /// The file.
        origin: String,
        /// What is wrong.
        reason: String,
    },
    /// The network reads other input planes than the engine's
    /// [`PLANES`](crate::PLANES) and the plane of ones.
    Planes {
        /// The file.
        origin: String,
        /// What differs.
        reason: String,
    },
    /// A tensor the network needs is missing, is not float32, or has the wrong shape.
    Tensor {
        /// The file.
        origin: String,
        /// The tensor's name.
        name: String,
        /// What is wrong with it.
        reason: String,
    },
    /// A tensor holds a NaN or an infinity.
    NonFinite {
        /// The file.
        origin: String,
        /// The tensor's name.
        name: String,
    },
    /// The network's output for a position holds a NaN or an infinity: its weights,
    /// each finite, are so large that the activations overflow.
    NonFiniteOutput {
        /// The file.
        origin: String,
    },
    /// The network was trained on boards of side `net`; the record's side is `board`.
    BoardSize {
        /// The side the network was trained on.
        net: usize,
        /// The side of the board it was asked about.
        board: usize,
    },
}

impl fmt::Display for PolicyNetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PolicyNetError::Unreadable { origin, reason } => {
                write!(f, "{origin}: cannot read the policy network: {reason}")
            }
            PolicyNetError::NotSafetensors { origin, reason } => {
                write!(f, "{origin}: not a whole safetensors file: {reason}")
            }
            PolicyNetError::Format { origin, reason } => {
                write!(
                    f,
                    "{origin}: not a policy network this build reads: {reason}"
                )
            }
            PolicyNetError::Planes { origin, reason } => {
                write!(
                    f,
                    "{origin}: the network reads other input planes: {reason}"
                )
            }
            PolicyNetError::Tensor {
                origin,
                name,
                reason,
            } => write!(f, "{origin}: tensor {name}: {reason}"),
            PolicyNetError::NonFinite { origin, name } => {
                write!(f, "{origin}: tensor {name} holds a NaN or an infinity")
            }
            PolicyNetError::NonFiniteOutput { origin } => write!(
                f,
                "{origin}: the network's output overflows (a NaN or an infinity): its \
                 weights are too large"
            ),
            PolicyNetError::BoardSize { net, board } => write!(
                f,
                "the policy network was trained on {net}×{net} boards: its evaluation scores \
                 records of that size only, not {board}×{board}"
            ),
        }
    }
}

impl std::error::Error for PolicyNetError {}
