//! Compiled modules on disk, so that a test compiled once (by ptxas or by
//! the driver's JIT) is not compiled again for the same compiler and
//! device.
//!
//! An entry is one file: a magic line, the format version, the full key
//! (the module text, the toolchain, the device), the image and a checksum
//! over all of it. Its name is a hash of the key, but the key itself is
//! compared on every read: a collision or a file from elsewhere is a miss,
//! never another module's image. A damaged entry is a miss that says why
//! ([`Lookup::Corrupt`]), and the next [`ModuleCache::put`] replaces it.

use std::io::ErrorKind;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use crate::error::ToolError;

/// The first line of every entry.
const MAGIC: &[u8] = b"gpu-litmus module cache\n";
/// The layout below; an entry of another version is a miss.
const FORMAT: u32 = 1;

/// What an image was compiled from and for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CacheKey<'a> {
    /// The module text, exactly as compiled.
    pub module: &'a str,
    /// The compiler (`ptxas 12.4.131`, `driver JIT 580.159.04`).
    pub toolchain: &'a str,
    /// The device (`NVIDIA H100 80GB HBM3 sm_90`, or `sm_90` offline).
    pub device: &'a str,
}

/// The answer of [`ModuleCache::get`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Lookup {
    /// The image stored for the key.
    Hit(Vec<u8>),
    /// No entry for the key.
    Miss,
    /// An entry whose name is the key's but which is damaged or holds
    /// another key: a miss, with the reason for the caller to print.
    Corrupt(String),
}

/// A folder of compiled modules.
///
/// ```
/// use litmus_toolchain::{CacheKey, Lookup, ModuleCache};
/// let dir = std::env::temp_dir().join(format!("litmus-cache-doc-{}", std::process::id()));
/// let cache = ModuleCache::open(&dir)?;
/// let key = CacheKey { module: ".version 7.0 ...", toolchain: "ptxas 12.4.131", device: "sm_80" };
/// assert_eq!(cache.get(&key)?, Lookup::Miss);
/// cache.put(&key, b"\x7fELF...")?;
/// assert_eq!(cache.get(&key)?, Lookup::Hit(b"\x7fELF...".to_vec()));
/// # std::fs::remove_dir_all(dir).unwrap();
/// # Ok::<(), litmus_toolchain::ToolError>(())
/// ```
#[derive(Clone, Debug)]
pub struct ModuleCache {
    dir: PathBuf,
    /// What chose the folder, for messages.
    var: String,
}

impl ModuleCache {
    /// The cache in `dir`, created if need be; an error when it cannot be
    /// created, read or written.
    pub fn open(dir: impl AsRef<Path>) -> Result<ModuleCache, ToolError> {
        ModuleCache::open_from(dir.as_ref(), "the caller")
    }

    /// The cache the environment asks for: `None` when `LITMUS_CACHE=0`;
    /// else in `LITMUS_CACHE_DIR`, else `$XDG_CACHE_HOME/gpu-litmus`, else
    /// `$HOME/.cache/gpu-litmus`. A value of `LITMUS_CACHE` other than `0`
    /// or `1` is an error that names it.
    pub fn from_env() -> Result<Option<ModuleCache>, ToolError> {
        ModuleCache::from_vars(crate::process_env::lookup)
    }

    /// [`ModuleCache::from_env`] with the variables read by `var`.
    pub fn from_vars(
        var: impl Fn(&str) -> Option<String>,
    ) -> Result<Option<ModuleCache>, ToolError> {
        match var("LITMUS_CACHE").as_deref().map(str::trim) {
            None | Some("") | Some("1") => {}
            Some("0") => return Ok(None),
            Some(other) => {
                return Err(ToolError::Env {
                    var: "LITMUS_CACHE",
                    value: other.to_string(),
                    why: "0 turns the module cache off, 1 (or unset) keeps it on".into(),
                })
            }
        }
        let set = |name: &str| var(name).filter(|v| !v.trim().is_empty());
        let (dir, from) = if let Some(d) = set("LITMUS_CACHE_DIR") {
            (PathBuf::from(d), "LITMUS_CACHE_DIR")
        } else if let Some(x) = set("XDG_CACHE_HOME") {
            (Path::new(&x).join("gpu-litmus"), "XDG_CACHE_HOME")
        } else if let Some(h) = set("HOME") {
            (Path::new(&h).join(".cache").join("gpu-litmus"), "HOME")
        } else {
            return Err(ToolError::Env {
                var: "LITMUS_CACHE_DIR",
                value: String::new(),
                why: "unset, and so are XDG_CACHE_HOME and HOME: set it, or LITMUS_CACHE=0".into(),
            });
        };
        ModuleCache::open_from(&dir, from).map(Some)
    }

    fn open_from(dir: &Path, var: &str) -> Result<ModuleCache, ToolError> {
        let cache = ModuleCache {
            dir: dir.to_path_buf(),
            var: var.to_string(),
        };
        std::fs::create_dir_all(dir).map_err(|e| cache.error(format!("cannot create it: {e}")))?;
        if !dir.is_dir() {
            return Err(cache.error("not a folder".into()));
        }
        // Written once here, so that a read-only folder says so now
        // rather than at the first put.
        let probe = cache.temp_name("probe");
        std::fs::write(&probe, b"").map_err(|e| cache.error(format!("cannot write in it: {e}")))?;
        let _ = std::fs::remove_file(&probe);
        Ok(cache)
    }

    /// The folder.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Where the entry for `key` lives.
    pub fn entry_path(&self, key: &CacheKey) -> PathBuf {
        self.dir
            .join(format!("{:016x}.bin", fnv1a(&encode_key(key))))
    }

    /// The image stored for `key`.
    pub fn get(&self, key: &CacheKey) -> Result<Lookup, ToolError> {
        let path = self.entry_path(key);
        let bytes = match std::fs::read(&path) {
            Ok(b) => b,
            Err(e) if e.kind() == ErrorKind::NotFound => return Ok(Lookup::Miss),
            Err(e) => return Err(self.error(format!("cannot read {}: {e}", path.display()))),
        };
        Ok(match decode(&bytes, key) {
            Ok(image) => Lookup::Hit(image),
            Err(why) => Lookup::Corrupt(format!("{}: {why}", path.display())),
        })
    }

    /// Stores `image` for `key`, replacing any entry of its name. The
    /// entry appears whole or not at all (written aside, then renamed).
    pub fn put(&self, key: &CacheKey, image: &[u8]) -> Result<(), ToolError> {
        let path = self.entry_path(key);
        let tmp = self.temp_name("entry");
        let write =
            std::fs::write(&tmp, encode(key, image)).and_then(|()| std::fs::rename(&tmp, &path));
        write.map_err(|e| {
            let _ = std::fs::remove_file(&tmp);
            self.error(format!("cannot write {}: {e}", path.display()))
        })
    }

    /// A name in the folder that no other writer uses (the rename is
    /// atomic only within one file system, so it is not under the
    /// temporary folder).
    fn temp_name(&self, what: &str) -> PathBuf {
        static NEXT: AtomicU64 = AtomicU64::new(0);
        let n = NEXT.fetch_add(1, Ordering::Relaxed);
        self.dir
            .join(format!(".{what}-{}-{n}.tmp", std::process::id()))
    }

    fn error(&self, why: String) -> ToolError {
        ToolError::Cache {
            dir: self.dir.clone(),
            var: self.var.clone(),
            why,
        }
    }
}

/// FNV-1a, 64 bits. Written here rather than taken from a crate: it names
/// files and catches damaged ones, no adversary is in view, and the entry
/// holds the full key, so a collision costs a recompile, never a wrong
/// image.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(*b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

fn push_field(out: &mut Vec<u8>, field: &[u8]) {
    out.extend_from_slice(&(field.len() as u64).to_le_bytes());
    out.extend_from_slice(field);
}

fn encode_key(key: &CacheKey) -> Vec<u8> {
    let mut out = Vec::new();
    for f in [key.module, key.toolchain, key.device] {
        push_field(&mut out, f.as_bytes());
    }
    out
}

fn encode(key: &CacheKey, image: &[u8]) -> Vec<u8> {
    let mut out = MAGIC.to_vec();
    out.extend_from_slice(&FORMAT.to_le_bytes());
    out.extend_from_slice(&encode_key(key));
    push_field(&mut out, image);
    let sum = fnv1a(&out);
    out.extend_from_slice(&sum.to_le_bytes());
    out
}

/// The image of an entry, if it is whole and holds `key`; else why not.
fn decode(bytes: &[u8], key: &CacheKey) -> Result<Vec<u8>, String> {
    let rest = bytes
        .strip_prefix(MAGIC)
        .ok_or_else(|| "not a module cache entry (bad magic)".to_string())?;
    let mut r = Reader(rest);
    let format = u32::from_le_bytes(r.take(4)?.try_into().map_err(|_| "truncated")?);
    if format != FORMAT {
        return Err(format!("format {format}, this reader knows {FORMAT}"));
    }
    let fields: Vec<&[u8]> = (0..4).map(|_| r.field()).collect::<Result<_, _>>()?;
    let stored = u64::from_le_bytes(r.take(8)?.try_into().map_err(|_| "truncated")?);
    if !r.0.is_empty() {
        return Err(format!("{} bytes past the checksum", r.0.len()));
    }
    if fnv1a(&bytes[..bytes.len() - 8]) != stored {
        return Err("bad checksum".into());
    }
    let wanted = [key.module, key.toolchain, key.device];
    if fields[..3]
        .iter()
        .zip(wanted)
        .any(|(got, want)| *got != want.as_bytes())
    {
        return Err("holds another key (a stale entry or a hash collision)".into());
    }
    Ok(fields[3].to_vec())
}

struct Reader<'a>(&'a [u8]);

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8], String> {
        if self.0.len() < n {
            return Err("truncated".into());
        }
        let (head, tail) = self.0.split_at(n);
        self.0 = tail;
        Ok(head)
    }

    fn field(&mut self) -> Result<&'a [u8], String> {
        let len = u64::from_le_bytes(self.take(8)?.try_into().map_err(|_| "truncated")?);
        let len = usize::try_from(len).map_err(|_| "truncated".to_string())?;
        self.take(len)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const KEY: CacheKey = CacheKey {
        module: ".version 7.0\n.target sm_80\n",
        toolchain: "ptxas 12.4.131",
        device: "sm_80",
    };

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!(
            "litmus-toolchain-cache-{}-{name}",
            std::process::id()
        ));
        let _ = std::fs::remove_dir_all(&dir);
        dir
    }

    #[test]
    fn an_image_put_is_got_back_and_other_keys_miss() {
        let dir = scratch("round");
        let cache = ModuleCache::open(&dir).unwrap();
        assert_eq!(cache.get(&KEY).unwrap(), Lookup::Miss);
        cache.put(&KEY, b"image").unwrap();
        assert_eq!(cache.get(&KEY).unwrap(), Lookup::Hit(b"image".to_vec()));
        let other = CacheKey {
            device: "sm_90",
            ..KEY
        };
        assert_eq!(cache.get(&other).unwrap(), Lookup::Miss);
        cache.put(&KEY, b"newer").unwrap();
        assert_eq!(cache.get(&KEY).unwrap(), Lookup::Hit(b"newer".to_vec()));
        // Nothing but the entry is left behind.
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 1);
        std::fs::remove_dir_all(dir).unwrap();
    }

    fn corrupt(cache: &ModuleCache) -> String {
        match cache.get(&KEY).unwrap() {
            Lookup::Corrupt(why) => why,
            other => panic!("expected a corrupt entry, got {other:?}"),
        }
    }

    #[test]
    fn damaged_entries_are_reported_misses_and_put_replaces_them() {
        let dir = scratch("damaged");
        let cache = ModuleCache::open(&dir).unwrap();
        cache.put(&KEY, b"image").unwrap();
        let path = cache.entry_path(&KEY);
        let good = std::fs::read(&path).unwrap();

        let mut flipped = good.clone();
        let at = good.len() - 10; // inside the image
        flipped[at] ^= 0x40;
        std::fs::write(&path, &flipped).unwrap();
        assert!(
            corrupt(&cache).ends_with(": bad checksum"),
            "{}",
            corrupt(&cache)
        );

        std::fs::write(&path, &good[..good.len() - 3]).unwrap();
        assert!(
            corrupt(&cache).ends_with(": truncated"),
            "{}",
            corrupt(&cache)
        );
        std::fs::write(&path, &good[..MAGIC.len() + 6]).unwrap();
        assert!(corrupt(&cache).ends_with(": truncated"));

        let mut magic = good.clone();
        magic[0] = b'G';
        std::fs::write(&path, &magic).unwrap();
        assert!(corrupt(&cache).contains("bad magic"));

        cache.put(&KEY, b"again").unwrap();
        assert_eq!(cache.get(&KEY).unwrap(), Lookup::Hit(b"again".to_vec()));
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn an_entry_holding_another_key_is_stale() {
        let dir = scratch("stale");
        let cache = ModuleCache::open(&dir).unwrap();
        let other = CacheKey {
            toolchain: "ptxas 12.0.76",
            ..KEY
        };
        // As a collision would leave it: another key's entry under this
        // key's name.
        std::fs::write(cache.entry_path(&KEY), encode(&other, b"old")).unwrap();
        let why = corrupt(&cache);
        assert!(why.contains("holds another key"), "{why}");
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn a_folder_that_is_a_file_is_refused_with_its_variable() {
        let dir = scratch("file");
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("cache");
        std::fs::write(&file, "x").unwrap();
        let e = ModuleCache::open(&file).unwrap_err();
        assert!(
            e.to_string().starts_with(&format!(
                "module cache {} (from the caller): ",
                file.display()
            )),
            "{e}"
        );
        let f = file.display().to_string();
        let e =
            ModuleCache::from_vars(|v| (v == "LITMUS_CACHE_DIR").then(|| f.clone())).unwrap_err();
        assert!(e.to_string().contains("(from LITMUS_CACHE_DIR)"), "{e}");
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn the_environment_picks_the_folder_or_turns_the_cache_off() {
        let off = ModuleCache::from_vars(|v| (v == "LITMUS_CACHE").then(|| "0".to_string()));
        assert!(off.unwrap().is_none());
        let e = ModuleCache::from_vars(|v| (v == "LITMUS_CACHE").then(|| "yes".to_string()))
            .unwrap_err();
        assert_eq!(
            e.to_string(),
            "LITMUS_CACHE=yes: 0 turns the module cache off, 1 (or unset) keeps it on"
        );
        let xdg = scratch("xdg");
        let x = xdg.display().to_string();
        let cache = ModuleCache::from_vars(|v| (v == "XDG_CACHE_HOME").then(|| x.clone()))
            .unwrap()
            .unwrap();
        assert_eq!(cache.dir(), xdg.join("gpu-litmus"));
        let none = ModuleCache::from_vars(|_| None).unwrap_err();
        assert!(
            none.to_string().starts_with("LITMUS_CACHE_DIR=: unset"),
            "{none}"
        );
        std::fs::remove_dir_all(xdg).unwrap();
    }

    #[test]
    fn the_hash_is_fnv1a() {
        // The published test vectors.
        assert_eq!(fnv1a(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a(b"a"), 0xaf63_dc4c_8601_ec8c);
    }
}
