//! Weights of the default scorer, written by `examples/train.rs` (`cargo run --release -p
//! tackle-guard --example train -- --write`); do not edit by hand.

use crate::scorer::FEATURES;

/// One weight per feature, in `FEATURE_NAMES` order.
pub(crate) const WEIGHTS: [f32; FEATURES] = [
    3.8912, 3.1456, 3.0466, 2.9249, 2.9879, 0.8224, 0.9726, 3.1218, 1.9258, 1.6381, -2.0448, 4.4565, 0.4730,
    0.0000, 0.0000, 0.8660, 1.0834, -0.7586,
];

/// The intercept.
pub(crate) const BIAS: f32 = -1.9597;
