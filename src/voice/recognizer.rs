//! The Vosk adapter: loads a model, checks the locale's words against it,
//! and turns 16 kHz mono samples into a [`Hearing`] with a grammar built
//! for the position.

use crate::locale::MsgKey;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use super::decide::{Decision, Hearing};
use super::denoise::{DenoiseSettings, Denoiser};
use super::grammar::{Grammar, Spellings, WordList};

/// The sample rate every recognizer is fed (audio is resampled to it).
pub const SAMPLE_RATE: u32 = 16_000;

/// Stretches of audio at least this long (samples) are fed to both
/// recognizers of an utterance at once.
const PARALLEL_FEED: usize = (SAMPLE_RATE / 2) as usize;

/// How many alternatives the recognizer is asked for.
pub const MAX_ALTERNATIVES: u16 = 5;

/// Why a model could not be used.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ModelError {
    /// The folder does not exist.
    #[error("no model folder at {0}")]
    NotFound(PathBuf),
    /// The folder lacks the files of a Vosk model.
    #[error("{path} is not a Vosk model folder: {missing} is missing")]
    NotAModel {
        /// The folder.
        path: PathBuf,
        /// The first file that is missing.
        missing: String,
    },
    /// libvosk refused to load it (corrupt or incomplete files).
    #[error("libvosk could not load the model at {0}")]
    LoadFailed(PathBuf),
    /// This build has no speech recognition (built without the `voice`
    /// feature): typing goes on.
    #[error("this annabella was built without speech recognition")]
    NotBuilt,
}

/// libvosk, or (built without the `voice` feature) its absence: types
/// that cannot be made, so that nothing else needs to know.
#[cfg(feature = "voice")]
use vosk::{Model as Library, Recognizer};

#[cfg(not(feature = "voice"))]
use absent::{Model as Library, Recognizer};

#[cfg(not(feature = "voice"))]
mod absent {
    //! Built without the `voice` feature: no libvosk. A model never loads,
    //! so no recognizer is ever made; the methods exist to type-check.

    /// A model that never loads.
    pub enum Model {}

    impl Model {
        pub fn new(_path: impl Into<String>) -> Option<Model> {
            None
        }
        pub fn find_word(&mut self, _word: &str) -> Option<u16> {
            match *self {}
        }
    }

    /// A recognizer that cannot exist without a model.
    pub enum Recognizer {}

    impl Recognizer {
        pub fn new_with_grammar(
            model: &Model,
            _rate: f32,
            _grammar: &[impl AsRef<str>],
        ) -> Option<Recognizer> {
            match *model {}
        }
        pub fn set_max_alternatives(&mut self, _n: u16) {
            match *self {}
        }
        pub fn set_words(&mut self, _on: bool) {
            match *self {}
        }
        pub fn accept_waveform(&mut self, _samples: &[i16]) -> Result<(), ()> {
            match *self {}
        }
        pub fn final_result(&mut self) -> serde_json::Value {
            match *self {}
        }
    }

    /// As libvosk's: freed when dropped (never, as none is made).
    impl Drop for Recognizer {
        fn drop(&mut self) {
            match *self {}
        }
    }
}

impl ModelError {
    /// The error in the locale's words (`Display` is the base locale's).
    pub fn describe(&self, locale: &crate::locale::Locale) -> String {
        match self {
            ModelError::NotFound(p) => {
                locale.message(MsgKey::ModelNotFound, &[("path", &p.display().to_string())])
            }
            ModelError::NotAModel { path, missing } => locale.message(
                MsgKey::ModelNotAModel,
                &[("path", &path.display().to_string()), ("missing", missing)],
            ),
            ModelError::LoadFailed(p) => locale.message(
                MsgKey::ModelLoadFailed,
                &[("path", &p.display().to_string())],
            ),
            ModelError::NotBuilt => locale.message(MsgKey::VoiceNotBuilt, &[]),
        }
    }
}

/// Set once libvosk has been used (a model loaded): from then on the
/// process must not run libvosk's exit-time destructors (see [`exit`]).
static LOADED: AtomicBool = AtomicBool::new(false);

/// Decoding threads that outlive the call that started them (the
/// word-loop check of [`Decoding::finish_deciding`]), joined before a
/// model is freed.
static BACKGROUND: Mutex<Vec<JoinHandle<()>>> = Mutex::new(Vec::new());

/// Decoding threads running now.
static RUNNING: AtomicUsize = AtomicUsize::new(0);

/// How many background decoding threads are running (for tests).
pub fn decoding_threads() -> usize {
    RUNNING.load(Ordering::SeqCst)
}

/// Counts a decoding thread while it runs.
struct Running;

impl Running {
    fn start() -> Running {
        RUNNING.fetch_add(1, Ordering::SeqCst);
        Running
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        RUNNING.fetch_sub(1, Ordering::SeqCst);
    }
}

/// Runs `work` (decoding with libvosk) on a thread of its own that is
/// joined by [`join_decoding`]: no decoding ever runs unwatched.
fn spawn_decoding(name: &str, work: impl FnOnce() + Send + 'static) -> std::io::Result<()> {
    let running = Running::start();
    let handle = std::thread::Builder::new()
        .name(name.to_owned())
        .spawn(move || {
            let _running = running;
            work();
        })?;
    let mut list = BACKGROUND
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    // Forget the ones that have ended, so a long game keeps no list.
    list.retain(|h| !h.is_finished());
    list.push(handle);
    Ok(())
}

/// Waits for every background decoding thread to end.
pub fn join_decoding() {
    let handles = std::mem::take(
        &mut *BACKGROUND
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner),
    );
    for h in handles {
        let _ = h.join();
    }
}

/// Ends the process with exit status `code`.
///
/// Once libvosk has been loaded, the C++ destructors it registers for
/// process exit must not run: they free the BLAS buffers and the model's
/// tables while another thread may still be inside libvosk (a recognizer
/// finishing, a model still loading when the user quits), which crashed
/// `listen` with SIGSEGV after its result in about one run in 25
/// ("BLAS : Bad memory unallocation!"). So standard output and error are
/// flushed and the process ends at once (`_exit`), leaving the memory to
/// the system. Without libvosk this is [`std::process::exit`].
pub fn exit(code: i32) -> ! {
    use std::io::Write;
    if !LOADED.load(Ordering::SeqCst) {
        std::process::exit(code);
    }
    let _ = std::io::stdout().lock().flush();
    let _ = std::io::stderr().lock().flush();
    // SAFETY: `_exit` ends the process without running any handler; every
    // file annabella writes is written and synced before it returns to
    // its caller.
    unsafe { libc::_exit(code) }
}

/// Ends the process at once, flushing nothing: for the watchdog of a
/// terminal that is gone, where another thread may hold standard output's
/// lock while it writes to the dead terminal (so [`exit`]'s flush could
/// wait forever). Every file annabella writes is already written and synced.
pub fn abandon(code: i32) -> ! {
    // SAFETY: `_exit` ends the process without running any handler.
    unsafe { libc::_exit(code) }
}

/// For `main`: returns `code`, or, once libvosk has been loaded, ends the
/// process with it at once (see [`exit`]).
pub fn leave(code: std::process::ExitCode) -> std::process::ExitCode {
    if !LOADED.load(Ordering::SeqCst) {
        return code;
    }
    let status = (0..=255u8)
        .find(|n| std::process::ExitCode::from(*n) == code)
        .map_or(1, i32::from);
    exit(status)
}

/// Files every Vosk model folder has.
pub const MODEL_FILES: &[&str] = &["am/final.mdl", "conf/mfcc.conf"];

/// Checks that `dir` looks like a Vosk model (without loading it).
pub fn check_model_dir(dir: &Path) -> Result<(), ModelError> {
    if !dir.is_dir() {
        return Err(ModelError::NotFound(dir.to_owned()));
    }
    for f in MODEL_FILES {
        if !dir.join(f).is_file() {
            return Err(ModelError::NotAModel {
                path: dir.to_owned(),
                missing: (*f).to_owned(),
            });
        }
    }
    let graph = dir.join("graph");
    let has_graph = ["HCLG.fst", "HCLr.fst"]
        .iter()
        .any(|f| graph.join(f).is_file());
    if !has_graph {
        return Err(ModelError::NotAModel {
            path: dir.to_owned(),
            missing: "graph/HCLG.fst".to_owned(),
        });
    }
    Ok(())
}

/// A loaded Vosk model.
pub struct VoskModel {
    model: Library,
    /// Where it was loaded from.
    pub path: PathBuf,
    /// How long loading took.
    pub load_time: Duration,
    unk: Option<String>,
    /// Noise reduction in front of both decodings ([`super::denoise`]);
    /// `None` feeds the audio as it is.
    pub denoise: Option<DenoiseSettings>,
}

impl std::fmt::Debug for VoskModel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("VoskModel")
            .field("path", &self.path)
            .finish()
    }
}

impl VoskModel {
    /// Loads the model in `dir` (checked first, so that a wrong folder gives
    /// a clear error instead of libvosk's log lines).
    pub fn load(dir: &Path) -> Result<VoskModel, ModelError> {
        if cfg!(not(feature = "voice")) {
            return Err(ModelError::NotBuilt);
        }
        check_model_dir(dir)?;
        let start = Instant::now();
        let path_text = dir.to_string_lossy().into_owned();
        LOADED.store(true, Ordering::SeqCst);
        let mut model =
            Library::new(path_text).ok_or_else(|| ModelError::LoadFailed(dir.to_owned()))?;
        let load_time = start.elapsed();
        // The "something else" word, as the model spells it ("[unk]",
        // "<unk>" or "<UNK>"): Vosk drops grammar words the model lacks.
        let unk = ["[unk]", "<unk>", "<UNK>"]
            .iter()
            .find(|w| model.find_word(w).is_some())
            .map(|w| (*w).to_owned());
        Ok(VoskModel {
            model,
            path: dir.to_owned(),
            load_time,
            unk,
            denoise: Some(DenoiseSettings::default()),
        })
    }

    /// Does the model know this word?
    pub fn knows(&mut self, word: &str) -> bool {
        self.model.find_word(word).is_some()
    }

    /// The grammar entry for speech outside the grammar, if the model has one.
    pub fn unk(&self) -> Option<&str> {
        self.unk.as_deref()
    }

    /// A recognizer for one utterance with the phrases of `grammar`.
    pub fn recognizer(&self, grammar: &Grammar) -> Option<Decoding> {
        let phrases = grammar.phrases(self.unk());
        let mut rec = Recognizer::new_with_grammar(&self.model, SAMPLE_RATE as f32, &phrases)?;
        rec.set_max_alternatives(MAX_ALTERNATIVES);
        rec.set_words(true);
        // A second decoding of the same audio checks the first: its
        // grammar is the loop of single words (any word may follow any
        // other), so it is not pushed towards a legal move; and without
        // alternatives, Vosk gives word confidences.
        let loop_words = grammar.word_loop(self.unk());
        let mut words = Recognizer::new_with_grammar(&self.model, SAMPLE_RATE as f32, &loop_words)?;
        words.set_words(true);
        Some(Decoding {
            rec,
            words,
            denoise: self.denoise.map(Denoiser::new),
        })
    }

    /// A bare Vosk recognizer with a phrase list (for measurements).
    #[cfg(feature = "voice")]
    pub fn raw_recognizer(&self, phrases: &[String]) -> Option<Recognizer> {
        Recognizer::new_with_grammar(&self.model, SAMPLE_RATE as f32, phrases)
    }

    /// Recognizes a whole recording (16 kHz mono) in one call.
    pub fn recognize(&self, grammar: &Grammar, samples: &[i16]) -> Option<(Hearing, String)> {
        let mut u = self.recognizer(grammar)?;
        for chunk in samples.chunks(4000) {
            u.feed(chunk);
        }
        Some(u.finish())
    }
}

impl Drop for VoskModel {
    fn drop(&mut self) {
        // No decoding may outlive the model it was started with.
        join_decoding();
    }
}

impl WordList for VoskModel {
    fn knows(&mut self, word: &str) -> bool {
        VoskModel::knows(self, word)
    }
}

impl WordList for &mut VoskModel {
    fn knows(&mut self, word: &str) -> bool {
        VoskModel::knows(self, word)
    }
}

/// One utterance being recognized: feed samples as they come, then
/// [`finish`](Decoding::finish) (never waits for Vosk's own endpointing).
///
/// It owns its two recognizers; libvosk keeps the model alive (reference
/// counted) for as long as a recognizer uses it, so an utterance can be
/// finished on another thread.
pub struct Decoding {
    rec: Recognizer,
    words: Recognizer,
    denoise: Option<Denoiser>,
}

impl std::fmt::Debug for Decoding {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Decoding").finish_non_exhaustive()
    }
}

/// The word-loop decoding's final result as JSON.
fn loop_json(words: &mut Recognizer) -> String {
    serde_json::to_string(&words.final_result()).unwrap_or_default()
}

impl Decoding {
    /// Feeds 16 kHz mono samples.
    ///
    /// A long stretch (an utterance decoded again from its start, half a
    /// second or more) is decoded by both recognizers at once, on two
    /// threads, so that catching up takes half the time.
    pub fn feed(&mut self, samples: &[i16]) {
        match self.denoise.as_mut() {
            Some(d) => {
                let clean = d.push(samples);
                self.feed_raw(&clean);
            }
            None => self.feed_raw(samples),
        }
    }

    /// What the noise reduction still holds, fed (before the final
    /// results).
    fn drain(&mut self) {
        if let Some(mut d) = self.denoise.take() {
            let rest = d.finish();
            self.feed_raw(&rest);
        }
    }

    fn feed_raw(&mut self, samples: &[i16]) {
        let Decoding { rec, words, .. } = self;
        if samples.len() >= PARALLEL_FEED {
            let spawned = std::thread::scope(|scope| {
                let spawned = std::thread::Builder::new()
                    .name("vosk-word-loop-feed".to_owned())
                    .spawn_scoped(scope, || {
                        let _ = words.accept_waveform(samples);
                    })
                    .is_ok();
                let _ = rec.accept_waveform(samples);
                spawned
            });
            if !spawned {
                // No thread: the same work on this one.
                let _ = words.accept_waveform(samples);
            }
        } else {
            let _ = rec.accept_waveform(samples);
            let _ = words.accept_waveform(samples);
        }
    }

    /// The final result, as a [`Hearing`] and as Vosk's JSON
    /// (`{"nbest": …, "words": …}`: the alternatives, and the best
    /// transcript with word confidences). Both decodings always finish.
    pub fn finish(mut self) -> (Hearing, String) {
        self.drain();
        let Decoding {
            mut rec, mut words, ..
        } = self;
        // Both decodings finish at once, on two threads.
        let (json, single_json) = std::thread::scope(|scope| {
            let other = scope.spawn(move || loop_json(&mut words));
            let result = rec.final_result();
            let json = serde_json::to_string(&result).unwrap_or_default();
            (json, other.join().unwrap_or_default())
        });
        let mut hearing = Hearing::from_vosk_json(&json).unwrap_or_default();
        if let Ok(w) = Hearing::from_vosk_json(&single_json) {
            hearing.merge_word_confidences(&w);
        }
        let both = format!("{{\"nbest\":{json},\"words\":{single_json}}}");
        (hearing, both)
    }

    /// Finishes and decides, waiting for the second (word-loop) decoding
    /// only when it can change the decision.
    ///
    /// The word loop's confidences can only turn a [`Decision::Move`] into
    /// a question, or a [`Decision::Number`] into "not understood": every
    /// other decision ([`Decision::Ask`], [`Decision::Command`],
    /// [`Decision::NotUnderstood`], …) is made without word confidences and
    /// stays as it is. So both final results start at once (two threads);
    /// the move grammar's result is decided on first, and only a move or a
    /// number waits for the check. A move is therefore never taken
    /// without the check: the result is the same as deciding on
    /// [`finish`](Decoding::finish)'s hearing.
    ///
    /// Returns the decision, the hearing it was made on, and the JSON (as
    /// [`finish`](Decoding::finish) records it, or the move grammar's
    /// result alone when the check was not waited for).
    pub fn finish_deciding(
        self,
        decide: impl Fn(&Hearing) -> Decision,
    ) -> (Decision, Hearing, String) {
        let (decision, hearing, json, _) = self.finish_deciding_with_words(decide, false);
        (decision, hearing, json)
    }

    /// As [`finish_deciding`](Self::finish_deciding), the same decision,
    /// hearing and JSON; with `words`, the word loop's own hearing too
    /// (the words said, free of the move grammar: what the player may
    /// still be in the middle of saying), waited for whatever the
    /// decision.
    pub fn finish_deciding_with_words(
        mut self,
        decide: impl Fn(&Hearing) -> Decision,
        want_words: bool,
    ) -> (Decision, Hearing, String, Option<Hearing>) {
        self.drain();
        let Decoding {
            mut rec, mut words, ..
        } = self;
        let (tx, rx) = std::sync::mpsc::channel();
        // When the check is not needed, nobody waits for it here: it
        // finishes on its own and frees its recognizer, and it is joined
        // before the model is freed (`join_decoding`).
        let spawned = spawn_decoding("vosk-word-loop", move || {
            let _ = tx.send(loop_json(&mut words));
            drop(words);
        });
        let json = serde_json::to_string(&rec.final_result()).unwrap_or_default();
        let mut hearing = Hearing::from_vosk_json(&json).unwrap_or_default();
        let first = decide(&hearing);
        if !matches!(first, Decision::Move { .. } | Decision::Number { .. }) {
            let said = if want_words {
                let single = match spawned {
                    Ok(_) => rx.recv().unwrap_or_default(),
                    Err(_) => String::new(),
                };
                Hearing::from_vosk_json(&single).ok()
            } else {
                None
            };
            return (first, hearing, json, said);
        }
        // A move or a number: the check decides. If it could not run (no thread, or
        // it failed), the words get no confidence and the move is asked.
        let single_json = match spawned {
            Ok(_) => rx.recv().unwrap_or_default(),
            Err(_) => String::new(),
        };
        let said = Hearing::from_vosk_json(&single_json).ok();
        match &said {
            Some(w) => hearing.merge_word_confidences(w),
            None => hearing.merge_word_confidences(&Hearing {
                alternatives: vec![super::decide::Alternative::default()],
            }),
        }
        let decision = decide(&hearing);
        let both = format!("{{\"nbest\":{json},\"words\":{single_json}}}");
        (decision, hearing, both, said.filter(|_| want_words))
    }
}

/// Chooses the spellings of the active locale that `model` knows.
pub fn spellings_for(
    model: &mut VoskModel,
    vocab: &crate::vocab::Vocabulary,
    commands: &super::commands::SpokenCommandWords,
) -> Spellings {
    Spellings::choose(vocab, commands, model)
}
