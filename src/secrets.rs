//! Secret material (the Ombi password, API key and session token) lives only in
//! `secrecy` types, whose memory is zeroized on drop and whose `Debug` prints
//! `[REDACTED]`. Reading goes through exact-size `Zeroizing` buffers, because
//! growing a `String` can leave unzeroized copies behind.

use std::fs::File;
use std::io::Read;
use std::path::{Path, PathBuf};

pub use secrecy::{ExposeSecret, SecretString};
use zeroize::Zeroizing;

/// Largest secret file we accept: passwords and keys are short; a larger file
/// is a misconfiguration (a wrong path), not a secret.
const MAX_SECRET_BYTES: u64 = 64 * 1024;

/// Why a secret could not be read. Never carries the secret's bytes.
#[derive(Debug)]
pub enum SecretReadError {
    Io(std::io::Error),
    TooLarge,
    NotUtf8,
    Empty,
}

impl std::fmt::Display for SecretReadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SecretReadError::Io(e) => write!(f, "cannot read it: {e}"),
            SecretReadError::TooLarge => write!(f, "it is larger than {MAX_SECRET_BYTES} bytes"),
            SecretReadError::NotUtf8 => write!(f, "it is not UTF-8 text"),
            SecretReadError::Empty => write!(f, "it is empty"),
        }
    }
}

/// Reads a secret file into a `SecretString`, dropping one trailing newline
/// (`\n` or `\r\n`) as editors and `echo` add it.
pub fn read_secret_file(path: &Path) -> Result<SecretString, SecretReadError> {
    let mut file = File::open(path).map_err(SecretReadError::Io)?;
    let len = file.metadata().map_err(SecretReadError::Io)?.len();
    if len > MAX_SECRET_BYTES {
        return Err(SecretReadError::TooLarge);
    }
    // Exact capacity (+1 to detect growth past the metadata length) so the
    // buffer never reallocates with secret bytes in it.
    let mut buf = Zeroizing::new(Vec::with_capacity(len as usize + 1));
    file.by_ref()
        .take(MAX_SECRET_BYTES + 1)
        .read_to_end(&mut buf)
        .map_err(SecretReadError::Io)?;
    if buf.len() as u64 > MAX_SECRET_BYTES {
        return Err(SecretReadError::TooLarge);
    }
    secret_from_bytes(&buf)
}

/// Builds a secret from bytes (the caller zeroizes its own buffer).
pub fn secret_from_bytes(bytes: &[u8]) -> Result<SecretString, SecretReadError> {
    let text = std::str::from_utf8(bytes).map_err(|_| SecretReadError::NotUtf8)?;
    let text = text
        .strip_suffix("\r\n")
        .or_else(|| text.strip_suffix('\n'))
        .unwrap_or(text);
    if text.is_empty() {
        return Err(SecretReadError::Empty);
    }
    // `Box<str>::from(&str)` allocates exactly once, at the final size.
    Ok(SecretString::from(Box::<str>::from(text)))
}

/// Where the daemon's secret (the password or the API key) was read from:
/// named in every error about a refused secret, and the one place to read
/// it again after Ombi refused it or on `SIGHUP`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SecretSource {
    /// `$CREDENTIALS_DIRECTORY/<name>`: systemd's copy, made when the service
    /// started; a changed source file reaches the daemon only by a restart.
    Credential { name: String },
    /// A `*_FILE` variable's path: read again when Ombi refuses the secret.
    File { var: String, path: PathBuf },
    /// The plain variable: fixed for the process's life.
    Variable { var: String },
}

impl SecretSource {
    /// The file to read again for a rotated secret (only a `*_FILE` path:
    /// a credential is a copy made at start, a variable never changes).
    pub fn rereadable(&self) -> Option<&Path> {
        match self {
            SecretSource::File { path, .. } => Some(path),
            _ => None,
        }
    }
}

impl std::fmt::Display for SecretSource {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SecretSource::Credential { name } => write!(
                f,
                "the credential {name} (LoadCredential=); systemd copies it when the service \
                 starts, so after changing it restart the service (systemctl restart ombi-mcp)"
            ),
            SecretSource::File { var, path } => write!(f, "the file {} ({var})", path.display()),
            SecretSource::Variable { var } => write!(f, "the variable {var}"),
        }
    }
}
