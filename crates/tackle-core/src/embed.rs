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

/// What a tool says about itself, for an embedder: its name as words, the first sentence
/// of its description, its routing hint when it has one, and its parameters' names
/// (`create issue: Create a new issue in a GitHub repository. (owner, repo, title, body)`).
/// Tool search and the local model's router embed tools this way.
pub fn tool_meaning(definition: &crate::ToolDefinition) -> String {
    let name: Vec<String> = name_words(&definition.name);
    let params: Vec<String> = definition
        .parameters
        .as_map()
        .get("properties")
        .and_then(serde_json::Value::as_object)
        .map(|p| p.keys().flat_map(|k| name_words(k)).collect())
        .unwrap_or_default();
    let hint = definition.hint().map(|h| format!(" {h}")).unwrap_or_default();
    format!("{}: {}{hint} ({})", name.join(" "), definition.summary(), params.join(", "))
}

/// `github_create_issue`, `createIssue`, `API-post-page` as lower-case words (a digit
/// continues the word before it: `file2Path` is `file2`, `path`).
pub fn name_words(name: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut previous_lower = false;
    for c in name.chars() {
        if c.is_alphanumeric() {
            if c.is_uppercase() && previous_lower && !word.is_empty() {
                words.push(std::mem::take(&mut word));
            }
            previous_lower = c.is_lowercase() || c.is_ascii_digit();
            word.extend(c.to_lowercase());
        } else {
            if !word.is_empty() {
                words.push(std::mem::take(&mut word));
            }
            previous_lower = false;
        }
    }
    if !word.is_empty() {
        words.push(word);
    }
    words
}

#[cfg(test)]
mod tests {
    use crate::{JsonSchema, ToolDefinition};

    #[test]
    fn a_tool_means_its_name_first_sentence_and_parameters() {
        let schema = JsonSchema::new(serde_json::json!({
            "type": "object",
            "properties": {"pullNumber": {"type": "integer"}, "repo_name": {"type": "string"}}
        }))
        .unwrap();
        let tool = ToolDefinition::new("github_getPullRequest", "Get a pull request. Needs a token.", schema);
        assert_eq!(
            super::tool_meaning(&tool),
            "github get pull request: Get a pull request. (pull, number, repo, name)"
        );
        assert_eq!(
            ToolDefinition::new("t", "x".repeat(300), JsonSchema::empty_object()).summary().chars().count(),
            201
        );
        // A routing hint says when to use the tool: it follows the first sentence.
        let mut hinted = tool.clone();
        hinted.routing_hint = Some("Use when the user names a pull request.".into());
        assert_eq!(
            super::tool_meaning(&hinted),
            "github get pull request: Get a pull request. Use when the user names a pull request. (pull, number, repo, name)"
        );
        assert_eq!(hinted.hint(), Some("Use when the user names a pull request."));
        assert_eq!(tool.hint(), None);
        hinted.routing_hint = Some("  ".into());
        assert_eq!(hinted.hint(), None);
        assert_eq!(super::name_words("file2Path"), ["file2", "path"]);
    }
}
