//! The one rule for tool names, shared by every place that accepts one.

/// The longest tool name any provider accepts.
pub const MAX_TOOL_NAME_LEN: usize = 64;

/// Why a string is not a usable tool name.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum NameError {
    /// The name is empty.
    #[error("tool name is empty")]
    Empty,
    /// The name is longer than [`MAX_TOOL_NAME_LEN`].
    #[error("tool name is {len} characters long; the limit is {MAX_TOOL_NAME_LEN}")]
    TooLong {
        /// The length that was found, in bytes.
        len: usize,
    },
    /// The name holds a character outside `[A-Za-z0-9_-]`.
    #[error("tool name contains {found:?}; only ASCII letters, digits, '_' and '-' are allowed")]
    BadCharacter {
        /// The first offending character.
        found: char,
    },
}

/// Checks a tool name: 1 to 64 characters of `[A-Za-z0-9_-]`.
///
/// ```
/// use tackle_core::validate_tool_name;
/// assert!(validate_tool_name("web_search").is_ok());
/// assert!(validate_tool_name("web search").is_err());
/// ```
pub fn validate_tool_name(name: &str) -> Result<(), NameError> {
    if name.is_empty() {
        return Err(NameError::Empty);
    }
    if let Some(found) = name.chars().find(|c| !(c.is_ascii_alphanumeric() || *c == '_' || *c == '-')) {
        return Err(NameError::BadCharacter { found });
    }
    if name.len() > MAX_TOOL_NAME_LEN {
        return Err(NameError::TooLong { len: name.len() });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accepts_the_allowed_alphabet() {
        assert_eq!(validate_tool_name("a"), Ok(()));
        assert_eq!(validate_tool_name("Read-Web_page2"), Ok(()));
        assert_eq!(validate_tool_name(&"x".repeat(64)), Ok(()));
    }

    #[test]
    fn refuses_everything_else() {
        assert_eq!(validate_tool_name(""), Err(NameError::Empty));
        assert_eq!(validate_tool_name(&"x".repeat(65)), Err(NameError::TooLong { len: 65 }));
        assert_eq!(validate_tool_name("a.b"), Err(NameError::BadCharacter { found: '.' }));
        assert_eq!(validate_tool_name("naïve"), Err(NameError::BadCharacter { found: 'ï' }));
        assert_eq!(validate_tool_name(" a"), Err(NameError::BadCharacter { found: ' ' }));
    }
}
