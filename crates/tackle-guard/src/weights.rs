//! Weights of the default scorer, written by `examples/train.rs` (`cargo run --release -p
//! tackle-guard --example train -- --write`); do not edit by hand.

use crate::scorer::FEATURES;

/// One weight per feature, in `FEATURE_NAMES` order.
pub(crate) const WEIGHTS: [f32; FEATURES] = [
    3.8745, 3.1290, 3.0428, 2.8845, 2.9535, 0.9060, 0.9450, 3.0778, 1.8754, 1.6382, -2.3266, 4.4102, 0.4720,
    0.0000, 0.0000, 0.8484, 1.0599, -0.8084,
];

/// The intercept.
pub(crate) const BIAS: f32 = -1.8840;
