//! Reading a GGUF file: the weights (with tensors candle has no fast kernel for
//! re-encoded to Q8_0 at load), and the tokenizer and chat template from its metadata.

use std::io::Cursor;
use std::path::Path;

use candle_core::Device;
use candle_core::quantized::{GgmlDType, QTensor, gguf_file};

use crate::error::LocalError;
use crate::llama::Llama;
use crate::mapped::MappedFile;

/// What the file says about its tokenizer and chat format.
#[derive(Debug, Clone)]
pub(crate) struct Metadata {
    /// The architecture (`llama`).
    pub(crate) architecture: String,
    /// Token texts by id.
    pub(crate) tokens: Vec<String>,
    /// Token types by id (1 normal, 3 control, 4 user-defined).
    pub(crate) token_types: Vec<i32>,
    /// BPE merges, `"a b"`.
    pub(crate) merges: Vec<String>,
    /// The pre-tokenizer's name (`smollm`, `llama3`, ...).
    pub(crate) pre: String,
    /// End of sequence.
    pub(crate) eos: u32,
    /// Beginning of sequence.
    pub(crate) bos: Option<u32>,
    /// The Jinja chat template.
    pub(crate) chat_template: Option<String>,
    /// The context length.
    pub(crate) context_length: usize,
}

/// Quantization types candle runs with SIMD on x86 and ARM.
fn has_fast_kernel(dtype: GgmlDType) -> bool {
    matches!(
        dtype,
        GgmlDType::F32
            | GgmlDType::F16
            | GgmlDType::Q4_0
            | GgmlDType::Q8_0
            | GgmlDType::Q2K
            | GgmlDType::Q3K
            | GgmlDType::Q4K
            | GgmlDType::Q5K
            | GgmlDType::Q6K
            | GgmlDType::Q8K
    )
}

fn load_error(path: &Path, reason: impl ToString) -> LocalError {
    LocalError::Load { path: path.display().to_string(), reason: reason.to_string() }
}

/// Loads the weights and metadata of `path`.
pub(crate) fn load(path: &Path) -> Result<(Llama, Metadata), LocalError> {
    if !path.exists() {
        return Err(LocalError::Missing { path: path.display().to_string() });
    }
    let mut file = std::fs::File::open(path).map_err(|e| load_error(path, e))?;
    crate::mapped::keep_pass_buffers();
    let content = gguf_file::Content::read(&mut file).map_err(|e| load_error(path, e))?;
    let metadata = read_metadata(&content).map_err(|e| load_error(path, e))?;
    if metadata.architecture != "llama" {
        return Err(load_error(
            path,
            format!(
                "architecture {:?} is not supported (llama-architecture models are)",
                metadata.architecture
            ),
        ));
    }
    let device = Device::Cpu;
    let slow = slow_tensors(&content);
    let narrow = content
        .tensor_infos
        .iter()
        .any(|(_, info)| matches!(info.shape.dims(), [_, width] if crate::llama::needs_widening(*width)));
    let weights = if slow.is_empty() && !narrow {
        from_file(&content, &mut file, &device).map_err(|e| load_error(path, e))?
    } else {
        // Converted once, next to the file; in memory when that place is not writable.
        let size = std::fs::metadata(path).map(|m| m.len()).unwrap_or(0);
        let stem = path.file_stem().map_or_else(|| "model".into(), |s| s.to_string_lossy().into_owned());
        let converted = path.with_file_name(format!("{stem}.{size}.{CONVERTED}.gguf"));
        if !converted.exists() {
            let temporary = converted.with_extension(format!("tmp{}", std::process::id()));
            let written = std::fs::File::create(&temporary)
                .map_err(|e| e.to_string())
                .and_then(|mut out| {
                    convert(&content, &mut file, &slow, true, &mut out).map_err(|e| e.to_string())
                })
                .and_then(|()| std::fs::rename(&temporary, &converted).map_err(|e| e.to_string()));
            if written.is_ok() {
                // What an earlier version converted the file to, no longer read.
                let _ = std::fs::remove_file(path.with_file_name(format!("{stem}.{size}.q8_0.gguf")));
            }
            if let Err(error) = written {
                let _ = std::fs::remove_file(&temporary);
                tracing::debug!(%error, "cannot keep the converted model; converting in memory");
                let mut buffer = Cursor::new(Vec::new());
                convert(&content, &mut file, &slow, true, &mut buffer).map_err(|e| load_error(path, e))?;
                buffer.set_position(0);
                let content = gguf_file::Content::read(&mut buffer).map_err(|e| load_error(path, e))?;
                let weights =
                    Llama::from_gguf(&content, &mut buffer, &device).map_err(|e| load_error(path, e))?;
                return Ok((weights, metadata));
            }
        }
        let mut file = std::fs::File::open(&converted).map_err(|e| load_error(&converted, e))?;
        let content = gguf_file::Content::read(&mut file).map_err(|e| load_error(&converted, e))?;
        from_file(&content, &mut file, &device).map_err(|e| load_error(&converted, e))?
    };
    Ok((weights, metadata))
}

/// The weights of `file`, its matrices mapped in place (see [`crate::mapped`]); read onto
/// the heap where the file cannot be mapped.
fn from_file(
    content: &gguf_file::Content,
    file: &mut std::fs::File,
    device: &Device,
) -> candle_core::Result<Llama> {
    match MappedFile::open(file) {
        Ok(mapped) => Llama::from_mapped(content, file, &mapped, device),
        Err(error) => {
            tracing::debug!(%error, "the model file cannot be mapped; reading it");
            Llama::from_gguf(content, file, device)
        }
    }
}

/// What a converted file's name says it holds (the version of [`convert`]'s output).
pub(crate) const CONVERTED: &str = "q4k-wide";

/// Whether `path` names a file the model loader converted another to (`<stem>.<size>.q4k-wide.gguf`,
/// or `.q8_0.gguf` from an earlier version): not a model of its own to offer.
pub fn is_converted(path: &Path) -> bool {
    let name = path.file_name().map(|n| n.to_string_lossy()).unwrap_or_default();
    [CONVERTED, "q8_0"].iter().any(|kind| {
        name.strip_suffix(&format!(".{kind}.gguf")).and_then(|rest| rest.rsplit_once('.')).is_some_and(
            |(stem, size)| !stem.is_empty() && !size.is_empty() && size.bytes().all(|b| b.is_ascii_digit()),
        )
    })
}

/// The tensors of `content` without a fast kernel in candle, by name.
pub(crate) fn slow_tensors(content: &gguf_file::Content) -> Vec<String> {
    content
        .tensor_infos
        .iter()
        .filter(|(_, info)| !has_fast_kernel(info.ggml_dtype))
        .map(|(name, _)| name.clone())
        .collect()
}

/// Writes `content` as GGUF to `out` with the `slow` tensors re-encoded to Q8_0 (F32 when
/// their rows do not split into Q8_0 blocks); with `widen`, the weight matrices that are
/// slow or whose rows are not whole 256-value blocks are re-encoded as Q4_K, widened with
/// zeros to whole blocks (see [`crate::llama::reencode`]), the token embeddings too where
/// the file ties them to the output projection.
pub(crate) fn convert<R: std::io::Read + std::io::Seek, W: std::io::Write + std::io::Seek>(
    content: &gguf_file::Content,
    file: &mut R,
    slow: &[String],
    widen: bool,
    out: &mut W,
) -> candle_core::Result<()> {
    use candle_core::quantized::k_quants::QK_K;

    use crate::llama::{WIDENED, needs_widening, reencode};
    let device = Device::Cpu;
    let mut names: Vec<&String> = content.tensor_infos.keys().collect();
    names.sort();
    let mut tensors = Vec::with_capacity(names.len());
    for name in names {
        let original = content.tensor(file, name, &device)?;
        let dims = original.shape().dims().to_vec();
        // The token embeddings double as the output projection where the file ties them:
        // a matrix then, widened, and only their first values read when a row is looked up.
        let tied = name == "token_embd.weight" && !content.tensor_infos.contains_key("output.weight");
        let matrix = name != "token_embd.weight" || tied;
        let tensor = match dims.as_slice() {
            [_, width] if widen && matrix && (needs_widening(*width) || slow.contains(name)) => {
                reencode(&original, width.next_multiple_of(QK_K), WIDENED, &device)?
            }
            [_, width] if slow.contains(name) && width % 32 == 0 => {
                reencode(&original, *width, GgmlDType::Q8_0, &device)?
            }
            _ if slow.contains(name) => {
                let dtype =
                    if dims.last().is_some_and(|d| d % 32 == 0) { GgmlDType::Q8_0 } else { GgmlDType::F32 };
                QTensor::quantize(&original.dequantize(&device)?, dtype)?
            }
            _ => original,
        };
        tensors.push((name.clone(), tensor));
    }
    let metadata: Vec<(&str, &gguf_file::Value)> =
        content.metadata.iter().map(|(k, v)| (k.as_str(), v)).collect();
    let refs: Vec<(&str, &QTensor)> = tensors.iter().map(|(n, t)| (n.as_str(), t)).collect();
    gguf_file::write(out, &metadata, &refs)
}

fn read_metadata(content: &gguf_file::Content) -> Result<Metadata, String> {
    let get = |key: &str| content.metadata.get(key).ok_or_else(|| format!("the file has no {key}"));
    let string = |key: &str| get(key).and_then(|v| v.to_string().cloned().map_err(|e| e.to_string()));
    let strings = |key: &str| -> Result<Vec<String>, String> {
        get(key)?
            .to_vec()
            .map_err(|e| e.to_string())?
            .iter()
            .map(|v| v.to_string().cloned().map_err(|e| e.to_string()))
            .collect()
    };
    let architecture = string("general.architecture")?;
    let tokens = strings("tokenizer.ggml.tokens")?;
    let merges = strings("tokenizer.ggml.merges")?;
    let token_types = match get("tokenizer.ggml.token_type") {
        Ok(value) => value
            .to_vec()
            .map_err(|e| e.to_string())?
            .iter()
            .map(|v| v.to_i32().map_err(|e| e.to_string()))
            .collect::<Result<Vec<_>, _>>()?,
        Err(_) => vec![1; tokens.len()],
    };
    let model = string("tokenizer.ggml.model")?;
    if model != "gpt2" {
        return Err(format!("tokenizer model {model:?} is not supported (byte-level BPE, `gpt2`, is)"));
    }
    let pre = string("tokenizer.ggml.pre").unwrap_or_else(|_| "default".to_owned());
    let eos = get("tokenizer.ggml.eos_token_id")?.to_u32().map_err(|e| e.to_string())?;
    let bos = get("tokenizer.ggml.bos_token_id").ok().and_then(|v| v.to_u32().ok());
    let chat_template = string("tokenizer.chat_template").ok();
    let context_length =
        get(&format!("{architecture}.context_length")).ok().and_then(|v| v.to_u32().ok()).unwrap_or(2048)
            as usize;
    if token_types.len() != tokens.len() {
        return Err("token types and tokens differ in number".to_owned());
    }
    Ok(Metadata { architecture, tokens, token_types, merges, pre, eos, bos, chat_template, context_length })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn converted_files_are_told_from_models() {
        for name in ["SmolLM2.Q4_1.98362432.q4k-wide.gguf", "SmolLM2.Q4_1.98362432.q8_0.gguf"] {
            assert!(is_converted(Path::new(name)), "{name}");
        }
        for name in ["SmolLM2.Q4_1.gguf", "model.q8_0.gguf", "a.12x.q4k-wide.gguf", ".1.q4k-wide.gguf"] {
            assert!(!is_converted(Path::new(name)), "{name}");
        }
    }
}
