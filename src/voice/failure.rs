//! Why spoken input failed, as data: what the voice worker reports
//! ([`super::live::VoiceEvent::Failed`]) and the front ends word in their
//! locale ([`VoiceFailure::describe`]), the one place that chooses the
//! words.

use std::path::PathBuf;
use std::sync::Arc;

use crate::locale::{Locale, MsgKey};

use super::audio::WavError;
use super::mic::MicError;
use super::recognizer::ModelError;

/// Why spoken input failed: listening stops (no thread, no model, no
/// microphone, the worker's panic) or one utterance or recording is lost
/// (the recognizer, a WAV file that cannot be used) and typing goes on.
#[derive(Debug, Clone)]
pub enum VoiceFailure {
    /// No thread could be started for listening (the system's error).
    NoThread(Arc<std::io::Error>),
    /// The model did not load (no model there, a corrupt one, one for
    /// another language): [`super::live::load_listener`]'s error.
    Model(VoiceModelError),
    /// The microphone cannot be used.
    Microphone(MicError),
    /// The recognizer could not be created for the position (a model that
    /// rejects the grammar).
    Recognizer,
    /// A recording (`--voice-wav`) cannot be used.
    Wav {
        /// The file as given.
        file: PathBuf,
        /// Why.
        error: Arc<WavError>,
    },
    /// The worker stopped on a defect (a panic): typing goes on.
    WorkerStopped,
}

impl VoiceFailure {
    /// No thread for listening, `e` the system's error.
    pub fn no_thread(e: std::io::Error) -> VoiceFailure {
        VoiceFailure::NoThread(Arc::new(e))
    }

    /// The recording `file` cannot be used.
    pub fn wav(file: PathBuf, error: WavError) -> VoiceFailure {
        VoiceFailure::Wav {
            file,
            error: Arc::new(error),
        }
    }

    /// One line in `locale`'s words that says what went wrong and what to
    /// do (shown and spoken alike).
    pub fn describe(&self, locale: &Locale) -> String {
        match self {
            VoiceFailure::NoThread(e) => {
                let error = crate::input::describe_io_error(locale, e);
                locale.message(MsgKey::VoiceNoThread, &[("error", &error)])
            }
            VoiceFailure::Model(e) => e.describe(locale),
            VoiceFailure::Microphone(e) => {
                locale.message(MsgKey::VoiceNoMicrophone, &[("error", &e.describe(locale))])
            }
            VoiceFailure::Recognizer => locale.message(MsgKey::VoiceRecognizerFailed, &[]),
            VoiceFailure::Wav { file, error } => error.line(locale, file),
            VoiceFailure::WorkerStopped => locale.message(MsgKey::VoiceWorkerStopped, &[]),
        }
    }
}

/// Why spoken moves cannot start: no model to load, or one that does not
/// serve. Worded by [`VoiceModelError::describe`] where it is shown.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum VoiceModelError {
    /// This build has no speech recognition (typing goes on).
    NotBuilt,
    /// No model is given or installed for the locale.
    NoModel {
        /// The message of the line (`listen` has no typing to fall back
        /// on, so it says more).
        missing: MsgKey,
        /// The locale's name.
        locale: String,
        /// The model to install for it (`NAME` if the list has none).
        name: String,
    },
    /// The model does not load: no folder, not a model, or libvosk
    /// refused it.
    Model(ModelError),
    /// The model lacks the locale's words: a model for another language.
    WrongLanguage {
        /// The model folder.
        path: PathBuf,
        /// The locale's name.
        locale: String,
        /// The words it lacks, as `word (key)`.
        words: Vec<String>,
    },
}

impl VoiceModelError {
    /// One line in `locale`'s words, saying what to do.
    pub fn describe(&self, locale: &Locale) -> String {
        match self {
            VoiceModelError::NotBuilt | VoiceModelError::Model(ModelError::NotBuilt) => {
                locale.message(MsgKey::VoiceNotBuilt, &[])
            }
            VoiceModelError::NoModel {
                missing,
                locale: name_of_locale,
                name,
            } => locale.message(*missing, &[("locale", name_of_locale), ("name", name)]),
            VoiceModelError::Model(e) => {
                locale.message(MsgKey::VoiceModelError, &[("error", &e.describe(locale))])
            }
            VoiceModelError::WrongLanguage {
                path,
                locale: name_of_locale,
                words,
            } => locale.message(
                MsgKey::VoiceWrongLanguage,
                &[
                    ("path", &path.display().to_string()),
                    ("locale", name_of_locale),
                    ("words", &words.join(", ")),
                ],
            ),
        }
    }
}

#[cfg(test)]
mod tests;
