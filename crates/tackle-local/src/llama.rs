//! A llama-architecture decoder over candle's quantized kernels, split in two: the weights
//! ([`Llama`]), read once and shared, and the attention keys and values of one sequence
//! ([`Kv`]), cheap to clone, so that many states (cached prefixes, spans tried beside a
//! value) share one copy of the weights and of the context they have in common.
//!
//! The arithmetic is the same as candle-transformers' `quantized_llama` (a test checks the
//! two agree on the same matrices, keys and values held in single precision), with these
//! differences, which matter for a model this small:
//! - matrices whose rows are not whole 256-value blocks (SmolLM2's are 576 values) are
//!   widened with zeros to whole blocks as Q4_K, which reaches candle's AVX-512 kernels
//!   (measured here: three times the speed of its generic ones for one row, seven to nine
//!   times for twelve), and their inputs with them;
//! - the token-embedding table stays quantized and rows are unpacked as tokens are fed (the
//!   f32 table of a 49,152-token vocabulary is 113 MB, more than the rest of SmolLM2);
//! - keys and values are kept in segments that states share, not one tensor per layer that
//!   each new token copies whole (with a catalog of tools the context runs to thousands of
//!   tokens, and every state grown from it held its own copy);
//! - keys and values are held in half precision, as llama.cpp holds them (half the memory;
//!   the logits move by under 0.01), and widened as attention reads them; the queries
//!   of the heads that share a key-value head are stacked instead of its keys and values
//!   repeated for each;
//! - a forward pass can return the logits after every token it was fed, so that the
//!   likelihood of a whole continuation costs one pass instead of one per token;
//! - masks are built per pass, not kept per shape for the life of the model.

use std::io::{Read, Seek};
use std::sync::Arc;

use candle_core::quantized::k_quants::QK_K;
use candle_core::quantized::{GgmlDType, QMatMul, QStorage, QTensor, gguf_file};
use candle_core::{D, DType, Device, IndexOp, Module, Result, Tensor};
use candle_transformers::quantized_nn::RmsNorm;
use half::slice::HalfFloatSliceExt;

use crate::mapped::{MappedFile, Release};

/// The most positions the rotary tables cover, whatever context length a file claims.
const MAX_POSITIONS: usize = 32_768;

/// What a matrix whose rows are not a whole number of 256-value blocks is re-encoded as,
/// widened with zeros to one: candle's fast x86 and ARM kernels (several times the speed of
/// its generic ones here) take only such rows. Q4_K, at 4.5 bits a weight, keeps the widened
/// matrices and the copy those kernels lay out beside them at 238 MB for SmolLM2 (heaptrack;
/// by their sizes the Q8_0 matrices they replace took 171 MB, and Q8_0 widened would take
/// 282 MB for the layers alone).
pub(crate) const WIDENED: GgmlDType = GgmlDType::Q4K;

/// How [`Llama::read`] holds the weight matrices.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Matrices {
    /// Quantized, widened where that reaches a faster kernel.
    Fast,
    /// As the file holds them.
    #[cfg(test)]
    AsStored,
    /// Unpacked to f32 (four times the memory; candle's quantized kernels round a row
    /// differently with where it falls in a pass, by up to about 0.4 in a logit, and
    /// unpacked they agree to 1e-5).
    #[cfg(test)]
    Unpacked,
}

/// A weight matrix, its rows widened with zeros where that reaches a faster kernel.
struct Linear {
    weight: QMatMul,
    /// Zeros after each row (and after each input, which meets them).
    pad: usize,
    /// Where the matrix is mapped from the file: its pages, let go of once the kernels hold
    /// their own copy.
    release: Option<Release>,
}

impl Linear {
    /// The matrix `tensor` for inputs of `input` values: widened here where its rows are
    /// not whole blocks (a file converted by [`crate::gguf`] holds it widened already, and
    /// unpacked it is left as it is).
    fn new(
        (tensor, release): (Arc<QTensor>, Option<Release>),
        input: usize,
        matrices: Matrices,
        device: &Device,
    ) -> Result<Linear> {
        let (_, width) = tensor.shape().dims2()?;
        let Some(pad) = width.checked_sub(input) else {
            candle_core::bail!("a matrix with rows of {width} values for inputs of {input}");
        };
        match matrices {
            Matrices::Fast => {}
            #[cfg(test)]
            Matrices::AsStored => {
                return Ok(Linear { weight: QMatMul::from_arc(tensor)?, pad, release: None });
            }
            #[cfg(test)]
            Matrices::Unpacked => {
                return Ok(Linear {
                    weight: QMatMul::Tensor(tensor.dequantize(device)?),
                    pad,
                    release: None,
                });
            }
        }
        if pad == 0 && needs_widening(width) {
            let wide = width.next_multiple_of(QK_K);
            let weight = QMatMul::from_qtensor(reencode(&tensor, wide, WIDENED, device)?)?;
            return Ok(Linear { weight, pad: wide - width, release: None });
        }
        Ok(Linear { weight: QMatMul::from_arc(tensor)?, pad, release })
    }

    /// The outputs it makes per input.
    fn weight_rows(&self) -> Result<usize> {
        match &self.weight {
            QMatMul::QTensor(t) => Ok(t.shape().dims2()?.0),
            QMatMul::Tensor(t) | QMatMul::TensorF16(t) => Ok(t.dims2()?.0),
        }
    }

    fn forward(&self, x: &Tensor) -> Result<Tensor> {
        let x = if self.pad == 0 { x.clone() } else { x.pad_with_zeros(D::Minus1, 0, self.pad)? };
        let rows = x.dim(D::Minus2)?;
        let split = matches!(&self.weight, QMatMul::QTensor(t) if t.dtype() == GgmlDType::Q4K);
        let product = if !split || rows <= ROWS_AT_ONCE {
            self.weight.forward(&x)?
        } else {
            let parts = (0..rows)
                .step_by(ROWS_AT_ONCE)
                .map(|start| {
                    self.weight.forward(&x.narrow(D::Minus2, start, ROWS_AT_ONCE.min(rows - start))?)
                })
                .collect::<Result<Vec<_>>>()?;
            Tensor::cat(&parts, D::Minus2)?
        };
        if let Some(release) = &self.release {
            release.after_use();
        }
        Ok(product)
    }
}

/// Rows a Q4_K matrix multiplies at a time: from 32 rows on, candle lays out a third copy of
/// the matrix for the AMX units of recent Xeons (1.25 bytes a weight, 133 MB here, kept for
/// the life of the model). Measured on a 1536 × 768 matrix, AMX took 5.9 µs a row at 128
/// rows and the AVX-512 kernel 7.8 µs a row at 12.
const ROWS_AT_ONCE: usize = 31;

/// Rows re-encoded at a time (so that no more than about a megabyte of them is unpacked).
const REENCODE_ROWS: usize = 256;

/// Whether a matrix with rows of `width` values is widened for the fast kernels.
pub(crate) fn needs_widening(width: usize) -> bool {
    !width.is_multiple_of(QK_K)
}

/// `tensor` (a matrix) re-encoded as `dtype`, its rows widened with zeros to `width` values.
pub(crate) fn reencode(tensor: &QTensor, width: usize, dtype: GgmlDType, device: &Device) -> Result<QTensor> {
    let (rows, old) = tensor.shape().dims2()?;
    let from = tensor.dtype();
    let row_bytes = old / from.block_size() * from.type_size();
    let data = tensor.data()?;
    if width < old || !old.is_multiple_of(from.block_size()) || data.len() != rows * row_bytes {
        candle_core::bail!(
            "a matrix of {rows} rows of {old} values cannot be re-encoded with rows of {width}"
        );
    }
    let mut out = Vec::new();
    for chunk in data.chunks(REENCODE_ROWS * row_bytes) {
        let part =
            QTensor::new(QStorage::from_data(chunk.into(), device, from)?, (chunk.len() / row_bytes, old))?;
        let wide = part.dequantize(device)?.pad_with_zeros(1, 0, width - old)?;
        let part = QTensor::quantize(&wide, dtype)?;
        out.extend_from_slice(&part.data()?);
    }
    QTensor::new(QStorage::from_data(out.into(), device, dtype)?, (rows, width))
}

struct Layer {
    wq: Linear,
    wk: Linear,
    wv: Linear,
    wo: Linear,
    gate: Linear,
    down: Linear,
    up: Linear,
    attention_norm: RmsNorm,
    ffn_norm: RmsNorm,
}

/// The weights of a llama-architecture model.
pub(crate) struct Llama {
    /// The token embeddings, quantized (also the output projection when the file ties them).
    embeddings: Arc<QTensor>,
    layers: Vec<Layer>,
    norm: RmsNorm,
    output: Linear,
    n_head: usize,
    n_kv_head: usize,
    head_dim: usize,
    cos: Tensor,
    sin: Tensor,
    neg_inf: Tensor,
    /// What keys and values are held as: half precision (as llama.cpp holds them), which
    /// halves a state's memory (a 36-tool catalog's system text: 86 MB in single precision);
    /// attention widens them as it reads them.
    kv_dtype: DType,
    vocabulary: usize,
    /// The positions the rotary tables cover: the longest sequence a state can hold.
    positions: usize,
    /// The width of the hidden state (the token embeddings may be stored widened for the
    /// output projection they double as: see [`crate::gguf::convert`]).
    width: usize,
}

/// The most tokens a state's last segment of keys and values grows to before the next
/// tokens start a new one.
const TAIL: usize = 64;

/// The keys and values of every layer after some tokens, in segments along the sequence
/// that states share: a state grown from another holds the other's segments and its own
/// short tail (at most [`TAIL`] tokens, or one prefill chunk), so that the cached prefixes
/// and every span tried beside a value do not each hold a whole copy of the context.
#[derive(Clone, Default)]
pub(crate) struct Kv {
    /// Per layer, the segments in order: keys and values, each `(1, kv heads, tokens, head
    /// width)`.
    layers: Vec<Vec<(Tensor, Tensor)>>,
    len: usize,
}

impl Kv {
    /// Keeps the first `len` tokens (of a segment cut short, a copy of the part kept).
    pub(crate) fn truncate(&mut self, len: usize) -> Result<()> {
        if len >= self.len {
            return Ok(());
        }
        for segments in &mut self.layers {
            let mut kept = 0;
            let mut cut = Vec::new();
            for (k, v) in segments.iter() {
                let size = k.dim(2)?;
                if kept + size <= len {
                    cut.push((k.clone(), v.clone()));
                    kept += size;
                } else {
                    // The part kept is copied: a view would hold the whole segment.
                    if kept < len {
                        cut.push((k.narrow(2, 0, len - kept)?.copy()?, v.narrow(2, 0, len - kept)?.copy()?));
                    }
                    break;
                }
            }
            *segments = cut;
        }
        self.len = len;
        Ok(())
    }

    /// The bytes its keys and values take (segments shared with other states counted too).
    pub(crate) fn bytes(&self) -> usize {
        self.layers
            .iter()
            .flatten()
            .map(|(k, v)| (k.elem_count() + v.elem_count()) * k.dtype().size_in_bytes())
            .sum()
    }
}

/// Logits after a forward pass: a row of `vocabulary` values per position returned.
pub(crate) struct Logits {
    values: Vec<f32>,
    vocabulary: usize,
}

impl Logits {
    /// The rows, in order.
    pub(crate) fn rows(&self) -> impl Iterator<Item = &[f32]> {
        self.values.chunks_exact(self.vocabulary)
    }

    /// The last row.
    pub(crate) fn last(self) -> Vec<f32> {
        let start = self.values.len().saturating_sub(self.vocabulary);
        let mut values = self.values;
        values.drain(..start);
        values
    }
}

/// The keys (or the values) of a layer's segments joined along the sequence, in single
/// precision: `(1, kv heads, tokens, head width)`. Segments in half precision are widened
/// straight into the joined tensor, a head's rows at a time (candle widens value by value,
/// and joining would copy them again).
fn joined<'a>(parts: impl Iterator<Item = &'a Tensor>) -> Result<Tensor> {
    let parts: Vec<&Tensor> = parts.collect();
    let Some(&first) = parts.first() else { candle_core::bail!("a layer without keys and values") };
    if parts.iter().any(|t| t.dtype() != DType::F16 || !t.device().is_cpu()) {
        let joined = if parts.len() == 1 { first.clone() } else { Tensor::cat(&parts, 2)? };
        return joined.to_dtype(DType::F32);
    }
    let (batch, heads, _, width) = first.dims4()?;
    let mut total = 0;
    for part in &parts {
        if part.dims4()? != (batch, heads, part.dim(2)?, width) {
            candle_core::bail!("segments of keys and values of different shapes");
        }
        total += part.dim(2)?;
    }
    let mut out = vec![0f32; batch * heads * total * width];
    let mut at = 0;
    for part in parts {
        let part = part.contiguous()?;
        let tokens = part.dim(2)?;
        if tokens * width == 0 {
            continue;
        }
        let (storage, layout) = part.storage_and_layout();
        let (candle_core::Storage::Cpu(cpu), Some((start, end))) = (&*storage, layout.contiguous_offsets())
        else {
            candle_core::bail!("keys and values outside the processor's memory");
        };
        let values = &cpu.as_slice::<half::f16>()?[start..end];
        for (row, head) in values.chunks_exact(tokens * width).enumerate() {
            let from = row * total * width + at * width;
            head.convert_to_f32_slice(&mut out[from..from + tokens * width]);
        }
        at += tokens;
    }
    Tensor::from_vec(out, (batch, heads, total, width), first.device())
}

/// Attention of the queries `q` `(1, heads, tokens, head width)` over the keys `k` and values
/// `v` `(1, kv heads, context, head width)`, where head `h` reads key-value head `h / (heads /
/// kv heads)` (as llama's grouped heads do), positions where `mask` is set left out. The
/// queries of the heads that share a key-value head are stacked on its rows, rather than its
/// keys and values repeated for each head (a copy of the whole context per layer and pass).
fn attend(q: &Tensor, k: &Tensor, v: &Tensor, mask: Option<&Tensor>, neg_inf: &Tensor) -> Result<Tensor> {
    let (b, heads, tokens, width) = q.dims4()?;
    let (_, kv_heads, context, _) = k.dims4()?;
    let repeat = heads / kv_heads;
    let q = q.reshape((b, kv_heads, repeat * tokens, width))?;
    let scores = (q.matmul(&k.t()?)? / (width as f64).sqrt())?;
    let scores = scores.reshape((b, heads, tokens, context))?;
    let scores = match mask {
        None => scores,
        Some(mask) => {
            let mask = mask.broadcast_as(scores.shape())?;
            mask.where_cond(&neg_inf.broadcast_as(scores.shape().dims())?, &scores)?
        }
    };
    let weights =
        candle_nn::ops::softmax_last_dim(&scores)?.reshape((b, kv_heads, repeat * tokens, context))?;
    weights.matmul(v)?.reshape((b, heads, tokens, width))
}

fn rotary_tables(
    dimensions: usize,
    base: f32,
    positions: usize,
    device: &Device,
) -> Result<(Tensor, Tensor)> {
    let theta: Vec<f32> =
        (0..dimensions).step_by(2).map(|i| 1f32 / base.powf(i as f32 / dimensions as f32)).collect();
    let theta = Tensor::new(theta.as_slice(), device)?;
    let angles = Tensor::arange(0, positions as u32, device)?
        .to_dtype(DType::F32)?
        .reshape((positions, 1))?
        .matmul(&theta.reshape((1, theta.elem_count()))?)?;
    Ok((angles.cos()?, angles.sin()?))
}

impl Llama {
    /// Reads the weights from a GGUF file's `content` (its tensors from `reader`).
    pub(crate) fn from_gguf<R: Read + Seek>(
        content: &gguf_file::Content,
        reader: &mut R,
        device: &Device,
    ) -> Result<Llama> {
        Self::read(content, reader, device, Matrices::Fast)
    }

    /// Reads the weights from a GGUF file's `content`, its matrices left in `file` (where it
    /// is mapped) and its other tensors from `reader`.
    pub(crate) fn from_mapped<R: Read + Seek>(
        content: &gguf_file::Content,
        reader: &mut R,
        file: &Arc<MappedFile>,
        device: &Device,
    ) -> Result<Llama> {
        Self::read_from(content, reader, Some(file), device, Matrices::Fast)
    }

    /// Reads the weights, the matrices held as `matrices` says.
    pub(crate) fn read<R: Read + Seek>(
        content: &gguf_file::Content,
        reader: &mut R,
        device: &Device,
        matrices: Matrices,
    ) -> Result<Llama> {
        Self::read_from(content, reader, None, device, matrices)
    }

    fn read_from<R: Read + Seek>(
        content: &gguf_file::Content,
        reader: &mut R,
        mapped: Option<&Arc<MappedFile>>,
        device: &Device,
        matrices: Matrices,
    ) -> Result<Llama> {
        let matmul = |tensor, input: usize| Linear::new(tensor, input, matrices, device);
        let get = |key: &str| match content.metadata.get(key) {
            Some(value) => Ok(value),
            None => candle_core::bail!("the file has no {key}"),
        };
        if get("llama.expert_count").and_then(|v| v.to_u32()).unwrap_or(0) > 1 {
            candle_core::bail!("mixture-of-experts models are not supported");
        }
        let n_head = get("llama.attention.head_count")?.to_u32()? as usize;
        let n_kv_head = get("llama.attention.head_count_kv")?.to_u32()? as usize;
        let blocks = get("llama.block_count")?.to_u32()? as usize;
        let embedding = get("llama.embedding_length")?.to_u32()? as usize;
        let rope_dimensions = get("llama.rope.dimension_count")?.to_u32()? as usize;
        let eps = f64::from(get("llama.attention.layer_norm_rms_epsilon")?.to_f32()?);
        let base = get("llama.rope.freq_base").and_then(|v| v.to_f32()).unwrap_or(10_000.0);
        let positions = get("llama.context_length").and_then(|v| v.to_u32()).map_or(2048, |n| n as usize);
        let positions = positions.clamp(1, MAX_POSITIONS);
        if n_head == 0
            || n_kv_head == 0
            || !n_head.is_multiple_of(n_kv_head)
            || !embedding.is_multiple_of(n_head)
        {
            candle_core::bail!("{n_head} attention heads over {n_kv_head} key-value heads do not fit");
        }
        let (cos, sin) = rotary_tables(rope_dimensions, base, positions, device)?;
        let mut tensor = |name: &str| content.tensor(reader, name, device);
        // A matrix: in place in the mapped file where there is one, else read.
        let matrix = |name: &str, tensor: &mut dyn FnMut(&str) -> Result<QTensor>| match mapped {
            Some(file) => match file.tensor(content, name)? {
                Some((matrix, release)) => Ok((Arc::new(matrix), release)),
                None => Ok((Arc::new(tensor(name)?), None)),
            },
            None => Ok::<_, candle_core::Error>((Arc::new(tensor(name)?), None)),
        };
        let (embeddings, release) = matrix("token_embd.weight", &mut tensor)?;
        let (vocabulary, width) = embeddings.shape().dims2()?;
        if width < embedding {
            candle_core::bail!("token embeddings of width {width}, less than {embedding}");
        }
        let norm = RmsNorm::from_qtensor(tensor("output_norm.weight")?, eps)?;
        let output = if content.tensor_infos.contains_key("output.weight") {
            matmul(matrix("output.weight", &mut tensor)?, embedding)?
        } else {
            // Tied: the table is the output projection too (its pages are let go of once the
            // kernels copied it; the rows of the tokens fed are read again as they come).
            matmul((Arc::clone(&embeddings), release), embedding)?
        };
        let mut layers = Vec::with_capacity(blocks);
        for i in 0..blocks {
            let mut weight = |part: &str, input: usize| {
                matmul(matrix(&format!("blk.{i}.{part}.weight"), &mut tensor)?, input)
            };
            let gate = weight("ffn_gate", embedding)?;
            // The hidden width of the feed-forward part: the rows of its first matrices.
            let hidden = gate.weight_rows()?;
            layers.push(Layer {
                wq: weight("attn_q", embedding)?,
                wk: weight("attn_k", embedding)?,
                wv: weight("attn_v", embedding)?,
                wo: weight("attn_output", embedding)?,
                gate,
                down: weight("ffn_down", hidden)?,
                up: weight("ffn_up", embedding)?,
                attention_norm: RmsNorm::from_qtensor(tensor(&format!("blk.{i}.attn_norm.weight"))?, eps)?,
                ffn_norm: RmsNorm::from_qtensor(tensor(&format!("blk.{i}.ffn_norm.weight"))?, eps)?,
            });
        }
        Ok(Llama {
            embeddings,
            layers,
            norm,
            output,
            n_head,
            n_kv_head,
            head_dim: embedding / n_head,
            positions,
            width: embedding,
            cos,
            sin,
            neg_inf: Tensor::new(f32::NEG_INFINITY, device)?,
            kv_dtype: DType::F16,
            vocabulary,
        })
    }

    /// The same model, its keys and values held as `dtype`.
    #[cfg(test)]
    fn holding_kv_as(self, dtype: DType) -> Llama {
        Llama { kv_dtype: dtype, ..self }
    }

    /// The longest sequence a state can hold.
    pub(crate) fn positions(&self) -> usize {
        self.positions
    }

    /// Feeds `tokens` after the state `kv` (which grows by them); returns the logits after
    /// the last token, or after each of them with `every`.
    pub(crate) fn forward(&self, kv: &mut Kv, tokens: &[u32], every: bool) -> Result<Logits> {
        let seq_len = tokens.len();
        let position = kv.len;
        if seq_len == 0 {
            candle_core::bail!("a forward pass needs at least one token");
        }
        if position + seq_len > self.positions {
            candle_core::bail!(
                "{} tokens are more than the model's {} positions",
                position + seq_len,
                self.positions
            );
        }
        if let Some(&token) = tokens.iter().find(|&&t| t as usize >= self.vocabulary) {
            candle_core::bail!("token {token} is outside the vocabulary");
        }
        let device = self.cos.device();
        let ids = Tensor::new(tokens, device)?;
        let mut x = self.embeddings.embedding(&ids)?.unsqueeze(0)?;
        if x.dim(D::Minus1)? > self.width {
            x = x.narrow(D::Minus1, 0, self.width)?.contiguous()?;
        }
        let mask = if seq_len == 1 {
            None
        } else {
            let kv_len = position + seq_len;
            let mask: Vec<u8> =
                (0..seq_len).flat_map(|i| (0..kv_len).map(move |j| u8::from(j > position + i))).collect();
            Some(Tensor::from_slice(&mask, (seq_len, kv_len), device)?)
        };
        let mut cache = Vec::with_capacity(self.layers.len());
        for (i, layer) in self.layers.iter().enumerate() {
            let residual = &x;
            let normed = layer.attention_norm.forward(&x)?;
            let (attention, keys_values) =
                self.attention(layer, &normed, kv.layers.get(i), mask.as_ref(), position)?;
            cache.push(keys_values);
            let x1 = (attention + residual)?;
            let normed = layer.ffn_norm.forward(&x1)?;
            let hidden =
                (candle_nn::ops::silu(&layer.gate.forward(&normed)?)? * layer.up.forward(&normed)?)?;
            x = (layer.down.forward(&hidden)? + &x1)?;
        }
        kv.layers = cache;
        kv.len = position + seq_len;
        let x = self.norm.forward(&x)?;
        let x = if every { x.squeeze(0)? } else { x.i((.., seq_len - 1, ..))? };
        let logits = self.output.forward(&x)?.to_dtype(DType::F32)?.flatten_all()?.to_vec1::<f32>()?;
        Ok(Logits { values: logits, vocabulary: self.vocabulary })
    }

    fn attention(
        &self,
        layer: &Layer,
        x: &Tensor,
        past: Option<&Vec<(Tensor, Tensor)>>,
        mask: Option<&Tensor>,
        position: usize,
    ) -> Result<(Tensor, Vec<(Tensor, Tensor)>)> {
        let (b, seq_len, width) = x.dims3()?;
        let q = layer.wq.forward(x)?.reshape((b, seq_len, self.n_head, self.head_dim))?.transpose(1, 2)?;
        let k = layer.wk.forward(x)?.reshape((b, seq_len, self.n_kv_head, self.head_dim))?.transpose(1, 2)?;
        let v = layer
            .wv
            .forward(x)?
            .reshape((b, seq_len, self.n_kv_head, self.head_dim))?
            .transpose(1, 2)?
            .contiguous()?;
        let q = self.rotate(&q, position)?;
        // Held as the state keeps them, and used so rounded in this pass as in the next.
        let k = self.rotate(&k, position)?.to_dtype(self.kv_dtype)?;
        let v = v.to_dtype(self.kv_dtype)?;
        // The new tokens join a short last segment, else start one.
        let mut segments = past.cloned().unwrap_or_default();
        match segments.last_mut() {
            Some((k0, v0)) if k0.dim(2)? + seq_len <= TAIL => {
                *k0 = Tensor::cat(&[&*k0, &k], 2)?;
                *v0 = Tensor::cat(&[&*v0, &v], 2)?;
            }
            _ => segments.push((k, v)),
        }
        let k = joined(segments.iter().map(|(k, _)| k))?;
        let v = joined(segments.iter().map(|(_, v)| v))?;
        let y = attend(&q, &k, &v, mask, &self.neg_inf)?;
        let y = y.transpose(1, 2)?.reshape(&[b, seq_len, width])?;
        Ok((layer.wo.forward(&y)?, segments))
    }

    fn rotate(&self, x: &Tensor, position: usize) -> Result<Tensor> {
        let seq_len = x.dim(D::Minus2)?;
        let cos = self.cos.narrow(0, position, seq_len)?;
        let sin = self.sin.narrow(0, position, seq_len)?;
        // Llama pairs neighbouring dimensions (`2i`, `2i + 1`).
        candle_nn::rotary_emb::rope_i(&x.contiguous()?, &cos, &sin)
    }
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;

    use candle_transformers::models::quantized_llama::ModelWeights;

    use super::*;

    /// The default model's file (converted where `gguf::load` converts it), or `None` where
    /// it is not in the cache and `TACKLE_REQUIRE_MODEL` does not ask for it.
    fn model_file() -> Option<PathBuf> {
        let dir = std::env::var_os("TACKLE_MODEL_DIR").map(PathBuf::from).unwrap_or_else(|| {
            let home = std::env::var_os("HOME").map_or_else(std::env::temp_dir, PathBuf::from);
            home.join(".cache").join("tackle").join("models")
        });
        let required = std::env::var_os("TACKLE_REQUIRE_MODEL").is_some_and(|v| !v.is_empty() && v != "0");
        match crate::release::installed(&crate::SMOLLM2_135M, &dir) {
            Some(path) => Some(path),
            None if required => {
                panic!("TACKLE_REQUIRE_MODEL is set but the model is not in {}", dir.display())
            }
            None => None,
        }
    }

    fn largest_gap(a: &[f32], b: &[f32]) -> f32 {
        assert_eq!(a.len(), b.len());
        a.iter().zip(b).map(|(x, y)| (x - y).abs()).fold(0.0, f32::max)
    }

    /// The likeliest token of a row of logits.
    fn argmax(row: &[f32]) -> Option<usize> {
        row.iter().enumerate().max_by(|x, y| x.1.total_cmp(y.1)).map(|(i, _)| i)
    }

    /// How far apart the distributions of the next token that two rows of logits give are.
    fn total_variation(a: &[f32], b: &[f32]) -> f32 {
        let softmax = |row: &[f32]| {
            let max = row.iter().copied().fold(f32::NEG_INFINITY, f32::max);
            let exp: Vec<f32> = row.iter().map(|x| (x - max).exp()).collect();
            let sum: f32 = exp.iter().sum();
            exp.into_iter().map(|x| x / sum).collect::<Vec<f32>>()
        };
        softmax(a).iter().zip(softmax(b)).map(|(p, q)| (p - q).abs()).sum::<f32>() / 2.0
    }

    /// The converted file beside the model's.
    fn converted(path: &std::path::Path) -> PathBuf {
        let size = std::fs::metadata(path).expect("the file").len();
        let stem = path.file_stem().expect("a stem").to_string_lossy().into_owned();
        path.with_file_name(format!("{stem}.{size}.{}.gguf", crate::gguf::CONVERTED))
    }

    /// The model converted as it was before matrices were widened (its slow tensors to
    /// Q8_0, nothing else changed), in memory.
    fn converted_as_before(path: &std::path::Path) -> std::io::Cursor<Vec<u8>> {
        let mut file = std::fs::File::open(path).expect("the model");
        let content = gguf_file::Content::read(&mut file).expect("its header");
        let slow = crate::gguf::slow_tensors(&content);
        let mut out = std::io::Cursor::new(Vec::new());
        crate::gguf::convert(&content, &mut file, &slow, false, &mut out).expect("it converts");
        out.set_position(0);
        out
    }

    /// The prompt of both tests, long enough for several segments of keys and values, in
    /// chunks of 128, 40 and 30 tokens (the last two in segments of their own: 40 + 30 > 64).
    fn prompt() -> (Vec<u32>, [std::ops::Range<usize>; 3]) {
        ((0..198).map(|i| 100 + i * 37).collect(), [0..128, 128..168, 168..198])
    }

    /// The same logits as candle-transformers' `quantized_llama` on the same file, fed in the
    /// same chunks and then token by token.
    #[test]
    fn agrees_with_candles_llama() {
        let Some(path) = model_file() else { return };
        let mut file = converted_as_before(&path);
        let content = gguf_file::Content::read(&mut file).expect("its header");
        let ours = Llama::read(&content, &mut file, &Device::Cpu, Matrices::AsStored)
            .expect("it loads")
            .holding_kv_as(DType::F32);
        let mut theirs = ModelWeights::from_gguf(content, &mut file, &Device::Cpu).expect("candle loads it");
        let (prompt, _) = prompt();
        let mut kv = Kv::default();
        for chunk in &feeds() {
            let input = Tensor::new(chunk.as_slice(), &Device::Cpu).unwrap().unsqueeze(0).unwrap();
            let expected: Vec<f32> =
                theirs.forward(&input, kv.len).unwrap().flatten_all().unwrap().to_vec1().unwrap();
            let got = ours.forward(&mut kv, chunk, false).unwrap().last();
            if chunk.len() > 1 {
                assert!(
                    largest_gap(&got, &expected) < 1e-3,
                    "at {}: {}",
                    kv.len,
                    largest_gap(&got, &expected)
                );
            } else {
                // One token's queries, stacked per key-value head, are summed in another
                // order than candle's (1e-7 apart after attention: `stacked_queries_…`), and
                // the kernels' 8-bit rounding of each layer's input makes that a few
                // hundredths of the distribution (measured: 0.044 after 198 tokens).
                let distance = total_variation(&got, &expected);
                assert!(distance < 0.1, "at {}: {distance}", kv.len);
                assert_eq!(argmax(&got), argmax(&expected), "at {}", kv.len);
            }
        }
        assert_eq!(kv.len, prompt.len() + 3);
        assert_eq!(kv.layers[0].len(), 3, "128, then 40, then 30 and the three tokens");
    }

    /// What the tests that compare two models feed: the prompt in its chunks, then three
    /// tokens one at a time.
    fn feeds() -> Vec<Vec<u32>> {
        let (prompt, chunks) = prompt();
        chunks
            .iter()
            .map(|c| prompt[c.clone()].to_vec())
            .chain([1_000, 2_000, 48_000].map(|t| vec![t]))
            .collect()
    }

    /// One pass with `every` gives the rows that feeding the tokens one by one gives, and a
    /// state grown from another leaves the other as it was (the weights unpacked, so that
    /// the kernels' rounding does not hide a difference).
    #[test]
    fn one_pass_gives_every_row_and_states_share_their_past() {
        let Some(path) = model_file() else { return };
        crate::gguf::load(&path).expect("the model loads (and its converted file is written)");
        let mut file = std::fs::File::open(converted(&path)).expect("the converted file");
        let content = gguf_file::Content::read(&mut file).expect("its header");
        // Keys and values in single precision: half precision rounds a value again where
        // a state cut short is fed from another point (by up to 0.004 in a logit).
        let model = Llama::read(&content, &mut file, &Device::Cpu, Matrices::Unpacked)
            .expect("it loads unpacked")
            .holding_kv_as(DType::F32);
        let (prompt, chunks) = prompt();
        let mut kv = Kv::default();
        for chunk in &chunks {
            model.forward(&mut kv, &prompt[chunk.clone()], false).unwrap();
        }
        let past = kv.clone();
        let more = [1_000, 2_000, 3_000, 48_000];
        let one_by_one: Vec<Vec<f32>> =
            more.iter().map(|&t| model.forward(&mut kv, &[t], false).unwrap().last()).collect();
        let mut again = past.clone();
        let every = model.forward(&mut again, &more, true).unwrap();
        assert_eq!(every.rows().count(), more.len());
        for (i, (row, one)) in every.rows().zip(&one_by_one).enumerate() {
            assert!(largest_gap(row, one) < 1e-3, "row {i}: {}", largest_gap(row, one));
        }
        // Both grew from `past`, which still holds its 198 tokens and gives what it gave.
        assert_eq!((past.len, kv.len, again.len), (198, 202, 202));
        let mut grown = past.clone();
        let first = model.forward(&mut grown, &more[..1], false).unwrap().last();
        assert!(largest_gap(&first, &one_by_one[0]) < 1e-3);

        // A state cut back to a start it shares (inside a segment, and at a segment's end)
        // and fed again from there gives the same.
        for keep in [150, 128, 1] {
            let mut cut = kv.clone();
            cut.truncate(keep).unwrap();
            assert_eq!(cut.len, keep);
            // Ten tokens first: after 150 they join the segment cut short.
            model.forward(&mut cut, &prompt[keep..keep + 10], false).unwrap();
            model.forward(&mut cut, &prompt[keep + 10..], false).unwrap();
            let first = model.forward(&mut cut, &more[..1], false).unwrap().last();
            assert!(largest_gap(&first, &one_by_one[0]) < 1e-3, "cut to {keep}");
        }

        // What the pass cannot take is an error, and the state is left as it was.
        let mut kv = past;
        assert!(model.forward(&mut kv, &[], false).is_err());
        assert!(model.forward(&mut kv, &[u32::MAX], false).is_err());
        assert!(model.forward(&mut kv, &vec![1; model.positions()], false).is_err());
        assert_eq!(kv.len, 198);
    }

    /// Keys and values held in half precision give logits near those of single precision,
    /// and the same likeliest token, fed in chunks over several segments and then token by
    /// token; a state holds half the bytes.
    #[test]
    fn half_precision_keys_and_values_keep_the_logits() {
        let Some(path) = model_file() else { return };
        crate::gguf::load(&path).expect("the model loads (and its converted file is written)");
        let read = |dtype| {
            let mut file = std::fs::File::open(converted(&path)).expect("the converted file");
            let content = gguf_file::Content::read(&mut file).expect("its header");
            Llama::read(&content, &mut file, &Device::Cpu, Matrices::Unpacked)
                .expect("it loads")
                .holding_kv_as(dtype)
        };
        let (half, single) = (read(DType::F16), read(DType::F32));
        let (mut a, mut b) = (Kv::default(), Kv::default());
        for chunk in &feeds() {
            let got = half.forward(&mut a, chunk, false).unwrap().last();
            let expected = single.forward(&mut b, chunk, false).unwrap().last();
            // Measured: at most 0.008 (total variation 0.0005).
            assert!(largest_gap(&got, &expected) < 0.05, "at {}: {}", a.len, largest_gap(&got, &expected));
            assert_eq!(argmax(&got), argmax(&expected), "at {}", a.len);
        }
        assert_eq!(a.layers[0].len(), 3, "the same segments");
        assert_eq!(2 * a.bytes(), b.bytes());
    }

    /// The widened matrices (Q4_K, their rows padded with zeros to whole blocks) keep the
    /// model's likeliest next token, and its distribution near the one of the matrices as
    /// they were before (Q8_0 from the file's Q4_1, unpacked): re-encoding 4-bit blocks as
    /// 4-bit blocks of another layout rounds again (measured: at most 0.17 apart in total
    /// variation on this prompt, where Q8_0 through candle's kernels is 0.04 apart).
    #[test]
    fn widened_matrices_keep_the_models_logits() {
        let Some(path) = model_file() else { return };
        let (wide, metadata) = crate::gguf::load(&path).expect("the model loads");
        let mut file = converted_as_before(&path);
        let content = gguf_file::Content::read(&mut file).expect("its header");
        let before = Llama::read(&content, &mut file, &Device::Cpu, Matrices::Unpacked).expect("it loads");
        let vocabulary = crate::tokenizer::Vocabulary::from_metadata(&metadata).expect("the vocabulary");
        let (mut a, mut b) = (Kv::default(), Kv::default());
        let text = [
            "<|im_start|>system\nYou are a helpful assistant.<|im_end|>\n<|im_start|>user\n",
            "What is the capital of France? Answer in one word.<|im_end|>\n",
            "<|im_start|>assistant\nThe capital of France is",
            " Paris",
        ];
        for part in text {
            let chunk = vocabulary.encode(part).expect("it encodes");
            let chunk = chunk.as_slice();
            let got = wide.forward(&mut a, chunk, false).unwrap().last();
            let expected = before.forward(&mut b, chunk, false).unwrap().last();
            let distance = total_variation(&got, &expected);
            assert!(distance < 0.25, "at {}: {distance}", a.len);
            assert_eq!(argmax(&got), argmax(&expected), "at {}", a.len);
        }
    }

    /// Matrices read in place from the mapped file give the logits the same matrices read
    /// onto the heap give, bit for bit, before and after their pages were let go of (the
    /// tied embedding table's rows then read again from the file).
    #[test]
    fn mapped_matrices_give_what_read_ones_give() {
        let Some(path) = model_file() else { return };
        crate::gguf::load(&path).expect("the model loads (and its converted file is written)");
        let mut file = std::fs::File::open(converted(&path)).expect("the converted file");
        let content = gguf_file::Content::read(&mut file).expect("its header");
        let read = Llama::read(&content, &mut file, &Device::Cpu, Matrices::Fast).expect("it reads");
        let mapped_file = MappedFile::open(&file).expect("it maps");
        let mapped = Llama::from_mapped(&content, &mut file, &mapped_file, &Device::Cpu).expect("it maps");
        // Q4_K, which the kernels copy here (x86 with AVX2): its pages are let go of.
        assert_eq!(mapped.output.release.is_some(), crate::mapped::copied_by_kernels(GgmlDType::Q4K));
        let (prompt, _) = prompt();
        let (mut a, mut b) = (Kv::default(), Kv::default());
        for chunk in &feeds() {
            let expected = read.forward(&mut a, chunk, false).unwrap().last();
            let got = mapped.forward(&mut b, chunk, false).unwrap().last();
            assert_eq!(got, expected, "at {}", a.len);
        }
        let every = |model: &Llama| {
            let mut kv = Kv::default();
            model
                .forward(&mut kv, &prompt[..40], true)
                .unwrap()
                .rows()
                .flatten()
                .copied()
                .collect::<Vec<f32>>()
        };
        assert_eq!(every(&mapped), every(&read));
    }

    /// Queries stacked on the rows of the key-value head they share give the attention that
    /// keys and values repeated for each head give, with and without a mask, for one token
    /// and several.
    #[test]
    fn stacked_queries_attend_as_repeated_keys_do() {
        let device = Device::Cpu;
        let neg_inf = Tensor::new(f32::NEG_INFINITY, &device).unwrap();
        for (tokens, context) in [(1, 1), (1, 199), (5, 20), (40, 168)] {
            let random =
                |shape: (usize, usize, usize, usize)| Tensor::randn(0f32, 1.0, shape, &device).unwrap();
            let (q, k, v) =
                (random((1, 9, tokens, 64)), random((1, 3, context, 64)), random((1, 3, context, 64)));
            let past = context - tokens;
            let mask: Vec<u8> =
                (0..tokens).flat_map(|i| (0..context).map(move |j| u8::from(j > past + i))).collect();
            let mask = (tokens > 1).then(|| Tensor::from_slice(&mask, (tokens, context), &device).unwrap());
            let got = attend(&q, &k, &v, mask.as_ref(), &neg_inf).unwrap();
            // As candle-transformers' llama does it.
            let k = candle_transformers::utils::repeat_kv(k, 3).unwrap();
            let v = candle_transformers::utils::repeat_kv(v, 3).unwrap();
            let scores = (q.matmul(&k.t().unwrap()).unwrap() / 8.0).unwrap();
            let scores = match &mask {
                None => scores,
                Some(mask) => mask
                    .broadcast_as(scores.shape())
                    .unwrap()
                    .where_cond(&neg_inf.broadcast_as(scores.shape()).unwrap(), &scores)
                    .unwrap(),
            };
            let expected = candle_nn::ops::softmax_last_dim(&scores).unwrap().matmul(&v).unwrap();
            let gap = (got - expected).unwrap().abs().unwrap().max_all().unwrap().to_scalar::<f32>().unwrap();
            assert!(gap < 1e-5, "{tokens} tokens over {context}: {gap}");
        }
    }

    /// Segments joined widen half precision exactly, in order, head by head; single
    /// precision is joined as it is; no segment is an error.
    #[test]
    fn segments_join_along_the_sequence() {
        let device = Device::Cpu;
        let parts: Vec<Tensor> = [3, 1, 64]
            .iter()
            .map(|&tokens| Tensor::randn(0f32, 1.0, (1, 3, tokens, 64), &device).unwrap())
            .collect();
        let expected = Tensor::cat(&parts, 2).unwrap();
        let same = |a: &Tensor, b: &Tensor| {
            a.dims() == b.dims()
                && a.flatten_all().unwrap().to_vec1::<f32>().unwrap()
                    == b.flatten_all().unwrap().to_vec1::<f32>().unwrap()
        };
        assert!(same(&joined(parts.iter()).unwrap(), &expected));
        let half: Vec<Tensor> = parts.iter().map(|p| p.to_dtype(DType::F16).unwrap()).collect();
        let widened = expected.to_dtype(DType::F16).unwrap().to_dtype(DType::F32).unwrap();
        assert!(same(&joined(half.iter()).unwrap(), &widened));
        assert!(same(&joined(half[1..2].iter()).unwrap(), &half[1].to_dtype(DType::F32).unwrap()));
        // A segment that is a view (a state's segment cut short is copied, but a view must
        // read right too).
        let view = half[2].narrow(2, 10, 20).unwrap();
        assert!(same(&joined([&view].into_iter()).unwrap(), &view.to_dtype(DType::F32).unwrap()));
        // An empty segment (a malformed file's heads of no width, say) adds nothing.
        let empty = Tensor::zeros((1, 3, 0, 64), DType::F16, &device).unwrap();
        assert!(same(
            &joined([&empty, &half[0]].into_iter()).unwrap(),
            &half[0].to_dtype(DType::F32).unwrap()
        ));
        assert!(joined(std::iter::empty()).is_err());
    }

    /// Re-encoding widens each row with zeros and keeps its values but for rounding; a
    /// matrix is never narrowed.
    #[test]
    fn reencoding_widens_rows_with_zeros() {
        let device = Device::Cpu;
        let values: Vec<f32> = (0..3 * 576).map(|i| ((i * 7919) % 1000) as f32 / 500.0 - 1.0).collect();
        let dense = Tensor::from_vec(values, (3, 576), &device).unwrap();
        let q8 = QTensor::quantize(&dense, GgmlDType::Q8_0).unwrap();
        let wide = reencode(&q8, 768, WIDENED, &device).unwrap();
        assert_eq!(wide.shape().dims2().unwrap(), (3, 768));
        let back = wide.dequantize(&device).unwrap();
        let kept = back.narrow(1, 0, 576).unwrap();
        let gap = (kept - &dense).unwrap().abs().unwrap().max_all().unwrap().to_scalar::<f32>().unwrap();
        assert!(gap < 0.1, "{gap}");
        let zeros =
            back.narrow(1, 576, 192).unwrap().abs().unwrap().max_all().unwrap().to_scalar::<f32>().unwrap();
        assert_eq!(zeros, 0.0);
        assert!(reencode(&q8, 512, WIDENED, &device).is_err());
        // A widened matrix multiplies an input padded to its rows, in pieces of rows.
        let linear = Linear::new((Arc::new(q8), None), 576, Matrices::Fast, &device).unwrap();
        assert_eq!(linear.pad, 192);
        let input = Tensor::ones((1, 70, 576), DType::F32, &device).unwrap();
        let out = linear.forward(&input).unwrap();
        assert_eq!(out.dims(), &[1, 70, 3]);
        let exact = input.broadcast_matmul(&dense.t().unwrap()).unwrap();
        let gap = (out - exact).unwrap().abs().unwrap().max_all().unwrap().to_scalar::<f32>().unwrap();
        assert!(gap < 1.0, "{gap}");
    }
}
