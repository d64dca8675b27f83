//! Weight matrices read in place from the model file, which is mapped into memory instead of
//! copied onto the heap.
//!
//! candle's fast x86 kernels lay out their own copy of a Q4_K matrix the first time it
//! multiplies (its blocks unpacked into tiles) and keep it beside the matrix for the life
//! of the model; the matrix itself is not read again. Held on the heap, the two copies of
//! SmolLM2 took 96 MB and 127 MB (heaptrack). Mapped from the file, the pages of a matrix
//! the kernels copied are handed back to the kernel ([`Release`]) and leave the resident
//! set; were they read again (a token's row of the embedding table, a kernel that reads the
//! blocks themselves) they are read again from the file.

use std::marker::PhantomData;
use std::ops::Range;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use candle_core::quantized::k_quants::{
    BlockQ2K, BlockQ3K, BlockQ4_0, BlockQ4_1, BlockQ4K, BlockQ5_0, BlockQ5_1, BlockQ5K, BlockQ6K, BlockQ8_0,
    BlockQ8_1, BlockQ8K, GgmlType,
};
use candle_core::quantized::{GgmlDType, QStorage, QTensor, QuantizedType, gguf_file};
use candle_core::{CpuStorage, Result};
use half::f16;

/// A model file mapped read-only.
pub(crate) struct MappedFile {
    map: memmap2::Mmap,
}

impl MappedFile {
    /// Maps `file` (which the loader does not change while it is mapped: a converted file is
    /// written beside and renamed into place, never rewritten).
    pub(crate) fn open(file: &std::fs::File) -> std::io::Result<Arc<MappedFile>> {
        // SAFETY: the mapping is read-only; what it shows changes only if another process
        // rewrites the file in place, which tackle never does to a model file (see above).
        let map = unsafe { memmap2::Mmap::map(file)? };
        Ok(Arc::new(MappedFile { map }))
    }

    /// The tensor `name` of `content` (read from this file), its blocks left where they are;
    /// `None` for tensors not held in blocks (f32 and f16 vectors, read the usual way).
    pub(crate) fn tensor(
        self: &Arc<Self>,
        content: &gguf_file::Content,
        name: &str,
    ) -> Result<Option<(QTensor, Option<Release>)>> {
        let Some(info) = content.tensor_infos.get(name) else {
            candle_core::bail!("the file has no tensor {name}")
        };
        let dtype = info.ggml_dtype;
        let elements = info.shape.elem_count();
        if !elements.is_multiple_of(dtype.block_size()) {
            candle_core::bail!("tensor {name}: {elements} values are not whole blocks of {dtype:?}");
        }
        let bytes = elements / dtype.block_size() * dtype.type_size();
        let start = content
            .tensor_data_offset
            .checked_add(info.offset)
            .and_then(|s| usize::try_from(s).ok())
            .filter(|s| s.checked_add(bytes).is_some_and(|end| end <= self.map.len()));
        let Some(start) = start else { candle_core::bail!("tensor {name} lies outside the file") };
        let range = start..start + bytes;
        let storage: Box<dyn QuantizedType> = match dtype {
            GgmlDType::Q4_0 => self.blocks::<BlockQ4_0>(range.clone())?,
            GgmlDType::Q4_1 => self.blocks::<BlockQ4_1>(range.clone())?,
            GgmlDType::Q5_0 => self.blocks::<BlockQ5_0>(range.clone())?,
            GgmlDType::Q5_1 => self.blocks::<BlockQ5_1>(range.clone())?,
            GgmlDType::Q8_0 => self.blocks::<BlockQ8_0>(range.clone())?,
            GgmlDType::Q8_1 => self.blocks::<BlockQ8_1>(range.clone())?,
            GgmlDType::Q2K => self.blocks::<BlockQ2K>(range.clone())?,
            GgmlDType::Q3K => self.blocks::<BlockQ3K>(range.clone())?,
            GgmlDType::Q4K => self.blocks::<BlockQ4K>(range.clone())?,
            GgmlDType::Q5K => self.blocks::<BlockQ5K>(range.clone())?,
            GgmlDType::Q6K => self.blocks::<BlockQ6K>(range.clone())?,
            GgmlDType::Q8K => self.blocks::<BlockQ8K>(range.clone())?,
            _ => return Ok(None),
        };
        let tensor = QTensor::new(QStorage::Cpu(storage), info.shape.clone())?;
        let release = copied_by_kernels(dtype).then(|| Release {
            file: Arc::clone(self),
            range,
            done: AtomicBool::new(false),
        });
        Ok(Some((tensor, release)))
    }

    fn blocks<T: GgmlType + Send + Sync + 'static>(
        self: &Arc<Self>,
        range: Range<usize>,
    ) -> Result<Box<dyn QuantizedType>> {
        let size = std::mem::size_of::<T>();
        let address = self.map.as_ptr() as usize + range.start;
        if !address.is_multiple_of(std::mem::align_of::<T>()) || !range.len().is_multiple_of(size) {
            candle_core::bail!("a tensor's blocks are not aligned in the file");
        }
        Ok(Box::new(Blocks::<T> { file: Arc::clone(self), range, kind: PhantomData }))
    }
}

/// Whether candle's kernels on this machine keep their own copy of a matrix of `dtype`, so
/// that the file's pages of it are not read again: Q4_K on x86 with AVX2 (and FMA), which
/// is what [`crate::gguf`] converts the matrices of a model without fast kernels to. A
/// wrong guess costs only reading the pages again.
pub(crate) fn copied_by_kernels(dtype: GgmlDType) -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        dtype == GgmlDType::Q4K && is_x86_feature_detected!("avx2") && is_x86_feature_detected!("fma")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        let _ = dtype;
        false
    }
}

/// Hands a matrix's pages back once the kernels have made their copy of it.
pub(crate) struct Release {
    file: Arc<MappedFile>,
    range: Range<usize>,
    done: AtomicBool,
}

impl Release {
    /// After the matrix's first multiplication: its whole pages leave the resident set.
    pub(crate) fn after_use(&self) {
        // Read first: every pass comes here, and only the first needs to write.
        if self.done.load(Ordering::Relaxed) || self.done.swap(true, Ordering::Relaxed) {
            return;
        }
        let start = self.range.start.next_multiple_of(PAGE);
        let end = self.range.end / PAGE * PAGE;
        if end <= start {
            return;
        }
        #[cfg(unix)]
        {
            // SAFETY: the mapping is read-only and of a file (not anonymous memory): pages let
            // go of are read again from the file when touched, with the bytes they held, so
            // the blocks anyone still borrows keep their values.
            let result = unsafe {
                self.file.map.unchecked_advise_range(memmap2::UncheckedAdvice::DontNeed, start, end - start)
            };
            if let Err(error) = result {
                tracing::debug!(%error, "the pages of a copied matrix stay resident");
            }
        }
    }
}

/// The page size where pages are given back: x86 (see [`copied_by_kernels`]), whose base
/// pages are 4 KB.
const PAGE: usize = 4096;

/// Lets glibc's malloc keep the buffers of a forward pass for the next one.
///
/// A pass makes buffers of 0.2 to a few MB (the logits, each layer's keys and values joined
/// and repeated over the heads); glibc serves blocks over its mmap threshold (128 KB at
/// first) with a mapping of their own and unmaps them when freed, so that each pass faults
/// every page of them in again. glibc raises the threshold by itself, to the size of a freed
/// mapped block up to 32 MB, but only once a block that large has been freed, which mapped
/// weights no longer bring about: measured on one `tackle run` offering fifteen tools, 610,000
/// minor faults and 4.7 s against 79,000 and 3.9 s at 32 MB. This sets the threshold where
/// glibc's own adjustment would take it (and the heap's top kept up to twice that, as the
/// adjustment does), once per process.
pub(crate) fn keep_pass_buffers() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        static ONCE: std::sync::Once = std::sync::Once::new();
        ONCE.call_once(|| {
            const THRESHOLD: libc::c_int = 32 << 20;
            // SAFETY: `mallopt` sets parameters of glibc's allocator, which it reads under its
            // own lock; it may be called at any time and touches no memory of ours.
            unsafe {
                libc::mallopt(libc::M_MMAP_THRESHOLD, THRESHOLD);
                libc::mallopt(libc::M_TRIM_THRESHOLD, 2 * THRESHOLD);
            }
        });
    }
}

/// The blocks of one tensor, where the mapped file holds them.
struct Blocks<T> {
    file: Arc<MappedFile>,
    range: Range<usize>,
    kind: PhantomData<T>,
}

impl<T: GgmlType> Blocks<T> {
    fn slice(&self) -> &[T] {
        let start = self.file.map[self.range.clone()].as_ptr();
        // SAFETY: the range lies in the mapping (checked when the tensor was made), starts
        // aligned for `T` and is a whole number of blocks (checked in `blocks`); a block is
        // plain numbers (f16 scales, integer quants) that any bytes are valid for.
        unsafe { std::slice::from_raw_parts(start.cast::<T>(), self.range.len() / std::mem::size_of::<T>()) }
    }
}

impl<T: GgmlType + Send + Sync> QuantizedType for Blocks<T> {
    fn dtype(&self) -> GgmlDType {
        T::DTYPE
    }

    fn matmul_t(&self, mkn: (usize, usize, usize), lhs: &[f32], dst: &mut [f32]) -> Result<()> {
        candle_core::quantized::k_quants::matmul(mkn, lhs, self.slice(), dst)
    }

    fn matmul_t_f16(&self, mkn: (usize, usize, usize), lhs: &[f16], dst: &mut [f16]) -> Result<()> {
        candle_core::quantized::k_quants::matmul_f16(mkn, lhs, self.slice(), dst)
    }

    fn embedding(&self, ids: &[u32], rows: usize, hidden: usize) -> Result<CpuStorage> {
        let blocks = self.slice();
        if hidden == 0
            || !hidden.is_multiple_of(T::BLCK_SIZE)
            || blocks.len() != rows * (hidden / T::BLCK_SIZE)
        {
            candle_core::bail!(
                "an embedding table of {} blocks is not {rows} rows of {hidden}",
                blocks.len()
            );
        }
        let per_row = hidden / T::BLCK_SIZE;
        let mut out = vec![0f32; ids.len() * hidden];
        for (&id, values) in ids.iter().zip(out.chunks_exact_mut(hidden)) {
            let row = id as usize;
            if row >= rows {
                candle_core::bail!("token {row} is outside the {rows} rows of the embedding table");
            }
            T::to_float(&blocks[row * per_row..(row + 1) * per_row], values);
        }
        Ok(CpuStorage::F32(out))
    }

    fn dequantize(&self, elem_count: usize) -> Result<CpuStorage> {
        let mut values = vec![0f32; elem_count];
        T::to_float(self.slice(), &mut values);
        Ok(CpuStorage::F32(values))
    }

    fn storage_size_in_bytes(&self) -> usize {
        self.range.len()
    }

    fn as_ptr(&self) -> *const u8 {
        self.file.map[self.range.clone()].as_ptr()
    }

    fn block_size(&self) -> usize {
        T::BLCK_SIZE
    }

    // The file is read-only: nothing quantizes into it (candle calls these only on storage
    // it made to quantize into).
    fn from_float(&mut self, _: &[f32]) {}

    fn from_float_imatrix(&mut self, _: &[f32], _: &[f32], _: usize) {}

    fn size(&self) -> usize {
        self.range.len()
    }
}

#[cfg(test)]
mod tests {
    use candle_core::{Device, Module as _, Tensor};

    use super::*;

    /// A GGUF file of a Q4_K matrix (`m`), a Q8_0 one (`e`) and an f32 vector (`v`).
    fn file() -> (tempfile::NamedTempFile, Vec<(String, QTensor)>) {
        let device = Device::Cpu;
        let values: Vec<f32> = (0..64 * 512).map(|i| ((i * 7919) % 1000) as f32 / 500.0 - 1.0).collect();
        let matrix = Tensor::from_vec(values.clone(), (64, 512), &device).unwrap();
        let tensors = vec![
            ("m".to_owned(), QTensor::quantize(&matrix, GgmlDType::Q4K).unwrap()),
            ("e".to_owned(), QTensor::quantize(&matrix, GgmlDType::Q8_0).unwrap()),
            (
                "v".to_owned(),
                QTensor::quantize(
                    &Tensor::from_vec(values[..512].to_vec(), 512, &device).unwrap(),
                    GgmlDType::F32,
                )
                .unwrap(),
            ),
        ];
        let mut out = tempfile::NamedTempFile::new().unwrap();
        let refs: Vec<(&str, &QTensor)> = tensors.iter().map(|(n, t)| (n.as_str(), t)).collect();
        gguf_file::write(out.as_file_mut(), &[], &refs).unwrap();
        (out, tensors)
    }

    fn values(tensor: &QTensor) -> Vec<f32> {
        tensor.dequantize(&Device::Cpu).unwrap().flatten_all().unwrap().to_vec1().unwrap()
    }

    #[test]
    fn blocks_read_in_place_are_the_files_before_and_after_their_pages_go() {
        let (out, tensors) = file();
        let mut reader = std::fs::File::open(out.path()).unwrap();
        let content = gguf_file::Content::read(&mut reader).unwrap();
        let mapped = MappedFile::open(&reader).unwrap();
        for (name, original) in &tensors[..2] {
            let (tensor, release) = mapped.tensor(&content, name).unwrap().expect("held in blocks");
            let tensor = Arc::new(tensor);
            assert_eq!(tensor.dtype(), original.dtype());
            assert_eq!(values(&tensor), values(original), "{name}");
            let input = Tensor::ones((3, 512), candle_core::DType::F32, &Device::Cpu).unwrap();
            let product = |t: &Arc<QTensor>| {
                let t = candle_core::quantized::QMatMul::from_arc(Arc::clone(t)).unwrap();
                t.forward(&input).unwrap().flatten_all().unwrap().to_vec1::<f32>().unwrap()
            };
            let copy = QTensor::new(
                QStorage::from_data(original.data().unwrap(), &Device::Cpu, original.dtype()).unwrap(),
                (64, 512),
            )
            .unwrap();
            assert_eq!(product(&tensor), product(&Arc::new(copy)), "{name}");
            if let Some(release) = release {
                release.after_use();
                release.after_use();
                assert_eq!(values(&tensor), values(original), "{name}, its pages let go of");
            }
            let ids = Tensor::new(&[3u32, 0, 63], &Device::Cpu).unwrap();
            let rows: Vec<f32> = tensor.embedding(&ids).unwrap().flatten_all().unwrap().to_vec1().unwrap();
            assert_eq!(rows.len(), 3 * 512);
            assert_eq!(&rows[..512], &values(original)[3 * 512..4 * 512], "{name}");
            let past = Tensor::new(&[64u32], &Device::Cpu).unwrap();
            assert!(tensor.embedding(&past).is_err(), "{name}: a row past the table");
        }
        assert!(mapped.tensor(&content, "v").unwrap().is_none(), "f32 is read the usual way");
        assert!(mapped.tensor(&content, "nothing").is_err());
    }

    #[test]
    fn a_tensor_past_the_end_of_the_file_is_an_error() {
        let (out, _) = file();
        let mut reader = std::fs::File::open(out.path()).unwrap();
        let content = gguf_file::Content::read(&mut reader).unwrap();
        let size = reader.metadata().unwrap().len();
        let short = tempfile::NamedTempFile::new().unwrap();
        std::fs::write(short.path(), &std::fs::read(out.path()).unwrap()[..(size / 2) as usize]).unwrap();
        let mapped = MappedFile::open(&std::fs::File::open(short.path()).unwrap()).unwrap();
        let error = mapped.tensor(&content, "e").err().expect("it does not fit");
        assert!(error.to_string().contains("outside the file"), "{error}");
    }
}
