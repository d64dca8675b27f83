//! Whether a request's answer depends on when it is asked ("who won the league this
//! year", "how much is a flight to lisbon next weekend"): what a model's own knowledge
//! cannot answer, so evidence against answering without a tool. A logistic head over
//! all-MiniLM-L6-v2's embedding of the request, learned by `examples/situated_head.rs` from
//! SituatedQA's temporal questions (real search questions labelled by whether their answer
//! changes with the date), SLURP's requests to a home assistant by intent, RecencyQA's
//! questions by how often their answers change and Self-Instruct's tasks
//! (`data/situated-head.json`; its figures in `data/README.md`). It reads meaning, not a
//! list of words: of the CLI set's development web searches that `chat`'s list of the
//! present misses, "who is leading the premier league" reads 0.98, "houses for sale in
//! bristol under 300k" 0.83 and "is flight BA283 delayed" 0.61.

use std::sync::LazyLock;

/// The embedder the head was learned over; another one's vectors mean other things.
const EMBEDDER: &str = "all-MiniLM-L6-v2";

/// The head's file, as `examples/situated_head.rs` writes it.
const HEAD: &str = include_str!("../data/situated-head.json");

/// A weight per dimension of the embedding and a bias.
#[derive(Debug)]
struct Head {
    weights: Vec<f32>,
    bias: f32,
}

/// The head, read once (`None`, logged, if its file does not read: then no request is
/// judged).
static SITUATED: LazyLock<Option<Head>> = LazyLock::new(|| match read(HEAD) {
    Ok(head) => Some(head),
    Err(reason) => {
        tracing::warn!(%reason, "the router's sense of time is not available");
        None
    }
});

fn read(text: &str) -> Result<Head, String> {
    let value: serde_json::Value = serde_json::from_str(text).map_err(|e| e.to_string())?;
    let number = |v: &serde_json::Value| v.as_f64().map(|x| x as f32).filter(|x| x.is_finite());
    let bias = number(&value["bias"]).ok_or("no bias")?;
    let weights = value["weights"]
        .as_array()
        .ok_or("no weights")?
        .iter()
        .map(|w| number(w).ok_or("a weight that is not a number"))
        .collect::<Result<Vec<f32>, _>>()?;
    Ok(Head { weights, bias })
}

/// The probability that the answer to the request whose embedding is `query` (by
/// `embedder`) depends on when it is asked; `None` for another embedder, or a vector of
/// another width.
pub(crate) fn situated(embedder: &str, query: &[f32]) -> Option<f32> {
    let head = SITUATED.as_ref()?;
    if embedder != EMBEDDER || query.len() != head.weights.len() {
        return None;
    }
    let z = head.bias + head.weights.iter().zip(query).map(|(w, x)| w * x).sum::<f32>();
    Some(1.0 / (1.0 + (-z).exp()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_committed_head_reads_and_fits_minilm() {
        let head = read(HEAD).unwrap();
        assert_eq!(head.weights.len(), 384);
        assert!(situated(EMBEDDER, &vec![0.0; 384]).is_some());
    }

    #[test]
    fn another_embedder_or_width_is_not_judged() {
        assert_eq!(situated("text-embedding-3-small", &vec![0.0; 384]), None);
        assert_eq!(situated(EMBEDDER, &[0.0; 12]), None);
    }

    #[test]
    fn a_broken_head_is_an_error_not_a_panic() {
        assert!(read("{").is_err());
        assert!(read(r#"{"bias": 1}"#).is_err());
        assert!(read(r#"{"bias": 1, "weights": [1, "x"]}"#).is_err());
    }
}
