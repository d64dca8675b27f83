//! The tokenizer, built from the GGUF's vocabulary and merges: byte-level BPE with the
//! model's pre-tokenizer (for `smollm`: digits split one by one, then the GPT-2 pattern, no
//! prefix space). candle's own GGUF tokenizer adds a prefix space to every piece for this
//! model, which corrupts every chat turn; this one round-trips exactly.

use std::collections::HashMap;
use std::sync::Arc;

use tokenizers::decoders::byte_level::ByteLevel as ByteLevelDecoder;
use tokenizers::models::bpe::BPE;
use tokenizers::pre_tokenizers::byte_level::ByteLevel;
use tokenizers::pre_tokenizers::digits::Digits;
use tokenizers::pre_tokenizers::sequence::Sequence;
use tokenizers::{AddedToken, PreTokenizerWrapper, Tokenizer};
use toktrie::{TokRxInfo, TokTrie, TokenId, TokenizerEnv};

use crate::error::LocalError;
use crate::gguf::Metadata;

/// The model's tokenizer and what constrained decoding needs to know of it.
pub(crate) struct Vocabulary {
    pub(crate) tokenizer: Tokenizer,
    /// The bytes each token stands for (control tokens: a marker byte and their text).
    pub(crate) bytes: Vec<Vec<u8>>,
    pub(crate) eos: u32,
    /// Tokens that end a turn (`<|im_end|>`, `<|endoftext|>`).
    pub(crate) stops: Vec<u32>,
    pub(crate) trie: Arc<TokTrie>,
}

/// GPT-2's map from bytes to the characters byte-level BPE writes them as.
fn byte_chars() -> HashMap<char, u8> {
    let mut bytes: Vec<u32> = (b'!' as u32..=b'~' as u32).chain(0xA1..=0xAC).chain(0xAE..=0xFF).collect();
    let mut chars: Vec<u32> = bytes.clone();
    let mut n = 0;
    for b in 0..=255u32 {
        if !bytes.contains(&b) {
            bytes.push(b);
            chars.push(256 + n);
            n += 1;
        }
    }
    bytes.iter().zip(chars).filter_map(|(&b, c)| char::from_u32(c).map(|c| (c, b as u8))).collect()
}

impl Vocabulary {
    pub(crate) fn from_metadata(meta: &Metadata) -> Result<Vocabulary, LocalError> {
        let vocab: ahash::AHashMap<String, u32> =
            meta.tokens.iter().enumerate().map(|(id, token)| (token.clone(), id as u32)).collect();
        let merges: Vec<(String, String)> = meta
            .merges
            .iter()
            .filter_map(|m| m.split_once(' ').map(|(a, b)| (a.to_owned(), b.to_owned())))
            .collect();
        let bpe = BPE::builder()
            .vocab_and_merges(vocab, merges)
            .build()
            .map_err(|e| LocalError::Tokenizer(e.to_string()))?;
        let mut tokenizer = Tokenizer::new(bpe);
        let byte_level = ByteLevel::new(false, true, true);
        let pre: PreTokenizerWrapper = match meta.pre.as_str() {
            // llama.cpp's smollm (and gpt-2-like) pipelines: digits alone, then GPT-2's pattern.
            "smollm" | "starcoder" | "refact" | "gpt-2" | "gpt2" | "default" => {
                Sequence::new(vec![Digits::new(true).into(), byte_level.into()]).into()
            }
            other => {
                return Err(LocalError::Tokenizer(format!(
                    "the pre-tokenizer {other:?} is not supported yet (smollm and gpt-2 style ones are)"
                )));
            }
        };
        tokenizer.with_pre_tokenizer(Some(pre));
        tokenizer.with_decoder(Some(ByteLevelDecoder::default()));
        let special: Vec<AddedToken> = meta
            .tokens
            .iter()
            .zip(&meta.token_types)
            .filter(|(_, kind)| **kind == 3 || **kind == 4)
            .map(|(token, _)| AddedToken::from(token.clone(), true))
            .collect();
        tokenizer.add_special_tokens(special).map_err(|e| LocalError::Tokenizer(e.to_string()))?;

        let chars = byte_chars();
        let bytes: Vec<Vec<u8>> = meta
            .tokens
            .iter()
            .zip(&meta.token_types)
            .map(|(token, &kind)| {
                if kind == 3 || kind == 4 {
                    let mut marked = vec![TokTrie::SPECIAL_TOKEN_MARKER];
                    marked.extend_from_slice(token.as_bytes());
                    marked
                } else {
                    token.chars().map(|c| chars.get(&c).copied().unwrap_or(b'?')).collect()
                }
            })
            .collect();
        let mut stops = vec![meta.eos];
        for name in ["<|im_end|>", "<|endoftext|>", "<|eot_id|>", "<|end|>"] {
            if let Some(id) = meta.tokens.iter().position(|t| t == name) {
                stops.push(id as u32);
            }
        }
        stops.sort_unstable();
        stops.dedup();
        let info = TokRxInfo {
            vocab_size: meta.tokens.len() as u32,
            tok_eos: meta.eos,
            tok_bos: meta.bos,
            tok_pad: None,
            tok_unk: None,
            tok_end_of_turn: None,
        };
        let trie = Arc::new(TokTrie::from(&info, &bytes));
        Ok(Vocabulary { tokenizer, bytes, eos: meta.eos, stops, trie })
    }

    /// Token ids of `text`, special tokens recognised.
    pub(crate) fn encode(&self, text: &str) -> Result<Vec<u32>, LocalError> {
        self.tokenizer
            .encode(text, false)
            .map(|e| e.get_ids().to_vec())
            .map_err(|e| LocalError::Tokenizer(e.to_string()))
    }

    /// The bytes of one token; empty for control tokens.
    pub(crate) fn token_bytes(&self, id: u32) -> &[u8] {
        match self.bytes.get(id as usize) {
            Some(bytes) if bytes.first() != Some(&TokTrie::SPECIAL_TOKEN_MARKER) => bytes,
            _ => &[],
        }
    }
}

/// llguidance's view of the tokenizer.
pub(crate) struct Env {
    pub(crate) vocabulary: Arc<Vocabulary>,
}

impl TokenizerEnv for Env {
    fn tok_trie(&self) -> &TokTrie {
        &self.vocabulary.trie
    }

    fn tokenize_bytes(&self, s: &[u8]) -> Vec<TokenId> {
        let trie = &self.vocabulary.trie;
        trie.tokenize_with_greedy_fallback(s, |text| self.vocabulary.encode(text).unwrap_or_default())
    }
}
