//! Weights of the default scorer, written by `examples/train.rs` (`cargo run --release -p
//! tackle-guard --example train -- --write`); do not edit by hand.

use crate::scorer::FEATURES;

/// One weight per feature, in `FEATURE_NAMES` order.
pub(crate) const WEIGHTS: [f32; FEATURES] = [
    2.7512, 1.7881, 3.5603, 2.1905, 2.4852, 1.1351, 1.8919, 2.7801, 0.7435, 1.0662, -3.4947, 2.9180, -0.2801,
    0.0000, 0.0000, 0.7643, 0.4339, -1.4593,
];

/// The intercept.
pub(crate) const BIAS: f32 = -0.5207;
