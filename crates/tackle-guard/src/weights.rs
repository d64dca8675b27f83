//! Weights of the default scorer, written by `examples/train.rs` (`cargo run --release -p
//! tackle-guard --example train -- --write`); do not edit by hand.

use crate::scorer::FEATURES;

/// One weight per feature, in `FEATURE_NAMES` order.
pub(crate) const WEIGHTS: [f32; FEATURES] = [
    3.9932, 3.2446, 3.3184, 3.0251, 3.0659, 0.8099, 1.0062, 3.2725, 2.0111, 1.6484, -2.1948, 3.2464, 0.2856,
    0.0000, 0.0000, 0.8690, 1.1325, -0.9444,
];

/// The intercept.
pub(crate) const BIAS: f32 = -1.7757;
