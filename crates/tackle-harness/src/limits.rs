//! [`Limits`]: what one run may consume before the harness asks for the final answer.

use std::time::Duration;

use serde::{Deserialize, Serialize};
use tackle_core::Cost;

/// What one run may consume. When any limit is reached, the calls not yet run get a result
/// saying so, and one last round without tools asks for the final answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
#[non_exhaustive]
pub struct Limits {
    /// Tool calls over the whole run (default 50).
    pub max_tool_calls: u32,
    /// Characters of tool results the model is shown over the whole run (default 300,000).
    pub max_result_chars: u64,
    /// Model rounds, the final-answer round included (default 25).
    pub max_rounds: u32,
    /// Wall-clock time of the run, suspensions excluded (default 10 minutes).
    #[serde(with = "secs")]
    pub max_duration: Option<Duration>,
    /// Model tokens, input and output together (default: no limit).
    pub max_total_tokens: Option<u64>,
    /// What the tools may cost together (default: no limit).
    pub max_tool_cost: Option<Cost>,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_tool_calls: 50,
            max_result_chars: 300_000,
            max_rounds: 25,
            max_duration: Some(Duration::from_secs(600)),
            max_total_tokens: None,
            max_tool_cost: None,
        }
    }
}

impl Limits {
    /// Sets [`Limits::max_tool_calls`].
    ///
    /// ```
    /// let limits = tackle_harness::Limits::default().max_tool_calls(10).max_rounds(5);
    /// assert_eq!((limits.max_tool_calls, limits.max_rounds), (10, 5));
    /// ```
    pub fn max_tool_calls(mut self, calls: u32) -> Self {
        self.max_tool_calls = calls;
        self
    }

    /// Sets [`Limits::max_result_chars`].
    pub fn max_result_chars(mut self, chars: u64) -> Self {
        self.max_result_chars = chars;
        self
    }

    /// Sets [`Limits::max_rounds`].
    pub fn max_rounds(mut self, rounds: u32) -> Self {
        self.max_rounds = rounds;
        self
    }

    /// Sets [`Limits::max_duration`] (`None`: no limit).
    pub fn max_duration(mut self, duration: Option<Duration>) -> Self {
        self.max_duration = duration;
        self
    }

    /// Sets [`Limits::max_total_tokens`] (`None`: no limit).
    pub fn max_total_tokens(mut self, tokens: Option<u64>) -> Self {
        self.max_total_tokens = tokens;
        self
    }

    /// Sets [`Limits::max_tool_cost`] (`None`: no limit).
    pub fn max_tool_cost(mut self, cost: Option<Cost>) -> Self {
        self.max_tool_cost = cost;
        self
    }
}

/// Which limit was reached.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LimitKind {
    /// [`Limits::max_tool_calls`].
    ToolCalls,
    /// [`Limits::max_result_chars`].
    ResultChars,
    /// [`Limits::max_rounds`].
    Rounds,
    /// [`Limits::max_duration`].
    Time,
    /// [`Limits::max_total_tokens`] or [`Limits::max_tool_cost`].
    Budget,
}

mod secs {
    use std::time::Duration;

    use serde::{Deserialize, Deserializer, Serializer};

    pub(super) fn serialize<S: Serializer>(
        value: &Option<Duration>,
        serializer: S,
    ) -> Result<S::Ok, S::Error> {
        match value {
            Some(d) => serializer.serialize_f64(d.as_secs_f64()),
            None => serializer.serialize_none(),
        }
    }

    pub(super) fn deserialize<'de, D: Deserializer<'de>>(
        deserializer: D,
    ) -> Result<Option<Duration>, D::Error> {
        match Option::<f64>::deserialize(deserializer)? {
            Some(s) if s.is_finite() && s >= 0.0 => Ok(Some(Duration::from_secs_f64(s))),
            Some(s) => Err(serde::de::Error::custom(format!("{s} is not a duration in seconds"))),
            None => Ok(None),
        }
    }
}
