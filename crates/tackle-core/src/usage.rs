//! What a run consumed: model tokens ([`Usage`]) and money or credits ([`Cost`]).

use std::fmt;
use std::iter::Sum;
use std::ops::{Add, AddAssign};

use serde::{Deserialize, Serialize};

/// Tokens a model request consumed, as the provider reported them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(default)]
#[non_exhaustive]
pub struct Usage {
    /// Number of requests this usage covers.
    pub requests: u32,
    /// Input (prompt) tokens, cached ones included.
    pub input_tokens: u64,
    /// Output (completion) tokens, reasoning ones included.
    pub output_tokens: u64,
    /// Input tokens served from the provider's prompt cache.
    pub cache_read_tokens: u64,
    /// Input tokens written to the provider's prompt cache.
    pub cache_write_tokens: u64,
    /// Output tokens spent on reasoning.
    pub reasoning_tokens: u64,
}

/// Usage set one count at a time:
///
/// ```
/// let usage = tackle_core::Usage::default().input_tokens(120).output_tokens(7);
/// assert_eq!(usage.input_tokens + usage.output_tokens, 127);
/// ```
impl Usage {
    /// Sets [`Usage::requests`].
    pub fn requests(mut self, n: u32) -> Self {
        self.requests = n;
        self
    }

    /// Sets [`Usage::input_tokens`].
    pub fn input_tokens(mut self, n: u64) -> Self {
        self.input_tokens = n;
        self
    }

    /// Sets [`Usage::output_tokens`].
    pub fn output_tokens(mut self, n: u64) -> Self {
        self.output_tokens = n;
        self
    }

    /// Sets [`Usage::cache_read_tokens`].
    pub fn cache_read_tokens(mut self, n: u64) -> Self {
        self.cache_read_tokens = n;
        self
    }

    /// Sets [`Usage::cache_write_tokens`].
    pub fn cache_write_tokens(mut self, n: u64) -> Self {
        self.cache_write_tokens = n;
        self
    }

    /// Sets [`Usage::reasoning_tokens`].
    pub fn reasoning_tokens(mut self, n: u64) -> Self {
        self.reasoning_tokens = n;
        self
    }
}

impl Usage {
    /// Input plus output tokens.
    pub fn total_tokens(&self) -> u64 {
        self.input_tokens + self.output_tokens
    }
}

impl AddAssign for Usage {
    fn add_assign(&mut self, rhs: Usage) {
        self.requests += rhs.requests;
        self.input_tokens += rhs.input_tokens;
        self.output_tokens += rhs.output_tokens;
        self.cache_read_tokens += rhs.cache_read_tokens;
        self.cache_write_tokens += rhs.cache_write_tokens;
        self.reasoning_tokens += rhs.reasoning_tokens;
    }
}

impl Add for Usage {
    type Output = Usage;

    fn add(mut self, rhs: Usage) -> Usage {
        self += rhs;
        self
    }
}

impl Sum for Usage {
    fn sum<I: Iterator<Item = Usage>>(iter: I) -> Usage {
        iter.fold(Usage::default(), Add::add)
    }
}

/// An amount of credits (or any one currency a host chooses), kept exactly.
///
/// Stored as millionths of a credit so that sums never drift.
///
/// ```
/// use tackle_core::Cost;
/// let total = Cost::credits(0.25) + Cost::from_micros(750_000);
/// assert_eq!(total, Cost::credits(1.0));
/// assert_eq!(total.to_string(), "1 credits");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Cost(u64);

impl Cost {
    /// Nothing.
    pub const ZERO: Cost = Cost(0);

    /// A cost in millionths of a credit.
    pub const fn from_micros(micros: u64) -> Self {
        Cost(micros)
    }

    /// A cost in credits, rounded to the nearest millionth; negative or non-finite
    /// amounts count as zero.
    pub fn credits(amount: f64) -> Self {
        if amount.is_finite() && amount > 0.0 {
            // `as` saturates at u64::MAX for huge values.
            Cost((amount * 1_000_000.0).round() as u64)
        } else {
            Cost(0)
        }
    }

    /// The amount in millionths of a credit.
    pub const fn micros(self) -> u64 {
        self.0
    }

    /// The amount in credits.
    pub fn as_credits(self) -> f64 {
        self.0 as f64 / 1_000_000.0
    }
}

impl Add for Cost {
    type Output = Cost;

    fn add(self, rhs: Cost) -> Cost {
        Cost(self.0.saturating_add(rhs.0))
    }
}

impl AddAssign for Cost {
    fn add_assign(&mut self, rhs: Cost) {
        *self = *self + rhs;
    }
}

impl Sum for Cost {
    fn sum<I: Iterator<Item = Cost>>(iter: I) -> Cost {
        iter.fold(Cost::ZERO, Add::add)
    }
}

impl fmt::Display for Cost {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let whole = self.0 / 1_000_000;
        let frac = self.0 % 1_000_000;
        if frac == 0 {
            write!(f, "{whole} credits")
        } else {
            let digits = format!("{frac:06}");
            write!(f, "{whole}.{} credits", digits.trim_end_matches('0'))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn usage_adds_up() {
        let a = Usage { requests: 1, input_tokens: 10, output_tokens: 5, ..Usage::default() };
        let b = Usage { requests: 1, input_tokens: 3, cache_read_tokens: 2, ..Usage::default() };
        let sum: Usage = [a, b].into_iter().sum();
        assert_eq!(sum.requests, 2);
        assert_eq!(sum.total_tokens(), 18);
        assert_eq!(sum.cache_read_tokens, 2);
    }

    #[test]
    fn cost_is_exact_and_prints_plainly() {
        let c: Cost = (0..10).map(|_| Cost::credits(0.1)).sum();
        assert_eq!(c, Cost::credits(1.0));
        assert_eq!(Cost::credits(2.5).to_string(), "2.5 credits");
        assert_eq!(Cost::credits(-3.0), Cost::ZERO);
        assert_eq!(Cost::credits(f64::NAN), Cost::ZERO);
        assert_eq!(Cost::from_micros(u64::MAX) + Cost::from_micros(1), Cost::from_micros(u64::MAX));
    }
}
