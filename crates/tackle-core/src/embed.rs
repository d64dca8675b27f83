//! [`Embedder`]: text to vectors, for ranking by meaning (tool search is the first user).

/// Turns texts into vectors whose dot product says how close their meanings are: unit
/// length, the same dimension for every text of one embedder. Implementations run a model
/// in process (tackle-local's MiniLM) or call a service; either way the call is blocking and
/// its cost grows with the texts, so callers embed what they can ahead of time.
pub trait Embedder: Send + Sync {
    /// One vector per text, in order: the documents searched (tool descriptions), which
    /// are embedded ahead of time and may be cached.
    fn embed(&self, texts: &[&str]) -> Result<Vec<Vec<f32>>, EmbedError>;

    /// The vector of one query, asked once: by default as a document. Models that embed
    /// queries differently (an instruction prefix) override it; caches pass it through,
    /// since queries rarely repeat.
    fn embed_query(&self, text: &str) -> Result<Vec<f32>, EmbedError> {
        let mut vectors = self.embed(&[text])?;
        match vectors.len() {
            1 => Ok(vectors.remove(0)),
            n => Err(EmbedError {
                embedder: self.name().to_owned(),
                message: format!("{n} vectors for one query"),
            }),
        }
    }

    /// A short name for logs and reports (`all-MiniLM-L6-v2`).
    fn name(&self) -> &str;
}

/// Why texts could not be embedded.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("embedding with {embedder} failed: {message}")]
pub struct EmbedError {
    /// The embedder's name.
    pub embedder: String,
    /// What went wrong.
    pub message: String,
}

/// The cosine of two vectors of unit length (their dot product); 0 when the lengths differ.
pub fn similarity(a: &[f32], b: &[f32]) -> f32 {
    if a.len() != b.len() {
        return 0.0;
    }
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}
