//! Why spoken input failed, as data: what the voice worker reports
//! ([`super::live::VoiceEvent::Failed`]) and the front ends word in their
//! locale ([`VoiceFailure::describe`]), the one place that chooses the
//! words.

use std::path::PathBuf;
use std::sync::Arc;

use crate::locale::{Locale, MsgKey};

use super::audio::WavError;
use super::mic::MicError;

/// Why spoken input failed: listening stops (no thread, no model, no
/// microphone, the worker's panic) or one utterance or recording is lost
/// (the recognizer, a WAV file that cannot be used) and typing goes on.
#[derive(Debug, Clone)]
pub enum VoiceFailure {
    /// No thread could be started for listening (the system's error).
    NoThread(Arc<std::io::Error>),
    /// The model did not load (no model there, a corrupt one, one for
    /// another language): [`super::live::load_listener`]'s error.
    Model(super::live::VoiceModelError),
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

#[cfg(test)]
mod tests;
