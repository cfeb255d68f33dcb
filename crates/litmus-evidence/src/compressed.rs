//! Evidence kept compressed: a finished file gzipped (`gzip -9
//! NAME.jsonl`, which makes `NAME.jsonl.gz`) reads as the file it was.
//!
//! Why: a campaign's records repeat each test's text and knobs, and a
//! folder of them runs to megabytes that gzip cuts about twenty-fold; a
//! repository that keeps its evidence, and every copy of it sent to a GPU
//! machine, carries the difference. Writers still write plain lines (a
//! crash loses one line, and an append needs no rewrite); compressing is
//! for files no run writes to any more.
//!
//! A compressed file is as untrusted as a plain one: it may inflate
//! without end (a few kilobytes can hold gigabytes of zeros), so the
//! bound a plain file has holds for what it inflates to; and it may be
//! cut or damaged, so what inflated before the damage is kept and the
//! damage is reported.

use std::io::Read;
use std::path::Path;

/// The extension of a compressed evidence file (after the records' own,
/// [`crate::store::EXTENSION`]).
pub const COMPRESSED_EXTENSION: &str = "gz";

/// Whether `path` names a compressed evidence file: `NAME.jsonl.gz`.
pub fn is_compressed(path: &Path) -> bool {
    path.extension().is_some_and(|e| e == COMPRESSED_EXTENSION)
        && Path::new(path.file_stem().unwrap_or_default())
            .extension()
            .is_some_and(|e| e == crate::store::EXTENSION)
}

/// Whether a folder walk reads `path` as evidence: `NAME.jsonl` or
/// `NAME.jsonl.gz`.
///
/// ```
/// use litmus_evidence::compressed::is_evidence_file;
/// use std::path::Path;
/// assert!(is_evidence_file(Path::new("evidence/h200/run.jsonl")));
/// assert!(is_evidence_file(Path::new("evidence/h200/run.jsonl.gz")));
/// assert!(!is_evidence_file(Path::new("evidence/h200/notes.gz")));
/// ```
pub fn is_evidence_file(path: &Path) -> bool {
    path.extension()
        .is_some_and(|e| e == crate::store::EXTENSION)
        || is_compressed(path)
}

/// Why a compressed file did not inflate whole.
#[derive(Debug, thiserror::Error)]
pub enum InflateError {
    /// Not gzip, or damaged, or cut off: what inflated before it is kept.
    #[error("not whole gzip data ({source}) after {inflated} bytes inflated")]
    Damaged {
        /// What went wrong, as the decoder says it.
        source: std::io::Error,
        /// How many bytes inflated before it.
        inflated: usize,
    },
    /// It inflates to more than the reader takes: nothing of it is kept.
    #[error("inflates to more than {max} bytes, the most this reader takes")]
    TooLarge {
        /// The bound.
        max: u64,
    },
}

/// The bytes `gzip` compressed into `bytes` (every member, as `gunzip`
/// reads them), at most `max` of them.
///
/// On damage, the bytes inflated before it come back with the error: a
/// file cut off in transfer keeps its whole records.
///
/// ```
/// use litmus_evidence::compressed::{inflate, InflateError};
/// // Not gzip at all: nothing inflates, and the reason says so.
/// let (bytes, why) = inflate(b"{\"run\":1}\n", 1 << 20);
/// assert!(bytes.is_empty());
/// assert!(matches!(why, Some(InflateError::Damaged { inflated: 0, .. })));
/// ```
pub fn inflate(bytes: &[u8], max: u64) -> (Vec<u8>, Option<InflateError>) {
    let mut out = Vec::new();
    let decoder = flate2::read::MultiGzDecoder::new(bytes);
    match decoder.take(max.saturating_add(1)).read_to_end(&mut out) {
        Ok(_) if out.len() as u64 > max => (Vec::new(), Some(InflateError::TooLarge { max })),
        Ok(_) => (out, None),
        Err(source) => {
            let inflated = out.len();
            (out, Some(InflateError::Damaged { source, inflated }))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    fn gzip(bytes: &[u8]) -> Vec<u8> {
        let mut w = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
        w.write_all(bytes).unwrap();
        w.finish().unwrap()
    }

    #[test]
    fn a_gzipped_file_inflates_to_its_bytes() {
        let lines = b"{\"a\":1}\n{\"b\":2}\n".repeat(100);
        assert_eq!(inflate(&gzip(&lines), 1 << 20).0, lines);
    }

    #[test]
    fn concatenated_members_inflate_as_gunzip_reads_them() {
        let mut two = gzip(b"first\n");
        two.extend(gzip(b"second\n"));
        let (bytes, why) = inflate(&two, 1 << 20);
        assert!(why.is_none(), "{why:?}");
        assert_eq!(bytes, b"first\nsecond\n");
    }

    #[test]
    fn a_bomb_past_the_bound_is_refused_whole() {
        let zeros = gzip(&vec![b'0'; 1 << 16]);
        assert!(zeros.len() < 1 << 10, "the point of a bomb");
        let (bytes, why) = inflate(&zeros, 1 << 15);
        assert!(bytes.is_empty());
        assert!(matches!(why, Some(InflateError::TooLarge { max }) if max == 1 << 15));
        // At the bound exactly, it is whole.
        assert_eq!(inflate(&zeros, 1 << 16).0.len(), 1 << 16);
    }

    #[test]
    fn a_cut_file_keeps_what_inflated_before_the_cut() {
        let lines: Vec<u8> = (0..2000)
            .flat_map(|i| format!("{{\"line\":{i},\"pad\":\"{}\"}}\n", i * 7919).into_bytes())
            .collect();
        let whole = gzip(&lines);
        let (bytes, why) = inflate(&whole[..whole.len() / 2], 1 << 24);
        let Some(InflateError::Damaged { inflated, .. }) = why else {
            panic!("a cut file is damaged: {why:?}");
        };
        assert_eq!(inflated, bytes.len());
        assert!(!bytes.is_empty() && bytes.len() < lines.len());
        assert_eq!(
            bytes,
            lines[..bytes.len()],
            "what came back is the start of the file"
        );
    }

    #[test]
    fn only_jsonl_gz_names_a_compressed_evidence_file() {
        assert!(is_compressed(Path::new("a/run.jsonl.gz")));
        assert!(!is_compressed(Path::new("a/run.jsonl")));
        assert!(!is_compressed(Path::new("a/run.gz")));
        assert!(!is_compressed(Path::new("a/jsonl.gz")));
        assert!(!is_evidence_file(Path::new("a/run.json")));
    }
}
