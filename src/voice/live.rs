//! Live listening for the play screen: a worker thread that loads the
//! model (without freezing the UI), listens to the microphone (hands-free
//! or push-to-talk) or plays WAV files as if spoken, and hands decisions to
//! the UI through a non-blocking [`LiveVoice::poll`].
//!
//! The listening itself is the [`LiveDecoder`] (no threads, no devices): it is
//! fed audio chunks with the moment they were captured and returns
//! [`Heard`] decisions. Both recognizers (the move grammar and the
//! word-loop check) decode while the player speaks, so at the end only the
//! final results remain. The decision is even prepared during the silence
//! after the last word: once it has been quiet for [`EARLY_FINISH_MS`]
//! (push-to-talk: [`PTT_EARLY_FINISH_MS`]), the utterance is finished and
//! decided; if the silence lasts until the detector's end of speech
//! (hands-free) or the key release (push-to-talk), that decision is given
//! at once; if speech resumes, it is dropped and the whole utterance is
//! decoded again (from its kept audio) with the speech that followed. A
//! decision is therefore always made on all the speech of an utterance. A
//! key released sooner than that after the last word waits for the final
//! results (about 30 ms, more for a move, which needs both).
//!
//! What the UI calls:
//! 1. [`model_dir`] for the active locale (`--model`, env `ANNABELLA_MODEL`,
//!    else the installed model): an `Err` is a locale line to show and
//!    speak; play goes on with typed moves.
//! 2. [`LiveVoice::start`]. From then until the [`LiveVoice`] is dropped
//!    *and* its worker has stopped, standard error goes to the audio log
//!    (see [`super::stderr::quiet_to_log`]): libvosk's and ALSA's lines
//!    never reach the screen. The UI needs no call of its own for that
//!    (it may hold its own [`QuietStderr`](super::stderr::QuietStderr) for
//!    its whole run); it must not rely on `eprintln!` while voice is on.
//! 3. [`LiveVoice::set_position`] after every move and takeback (and once
//!    at the start, for a game that does not begin in the start position).
//!    Decisions made in an earlier position are never returned by
//!    [`LiveVoice::poll`].
//! 4. For [`VoiceSource::PushToTalk`]: [`LiveVoice::push_to_talk`] on key
//!    press (`true`) and release (`false`).
//! 5. [`LiveVoice::poll`] on every tick until it returns `None`.

use std::collections::VecDeque;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::mpsc::{Receiver, Sender, TryRecvError, channel};
use std::time::{Duration, Instant};

use shakmaty::{CastlingMode, Chess};

use crate::locale::MsgKey;
use crate::speech::activity::{AudioClock, SpeechActivity};
use crate::speech::echo::Room;
use crate::speech::played::Played;
use crate::vocab::Vocabulary;
use crate::wake::Post;

use super::audio::{self, Vad, VadEvent, VadSettings};
use super::decide::{Decision, DecisionSettings, Hearing};
use super::echo_cancel::{DetectorSettings, EchoCanceller};
pub use super::failure::{VoiceFailure, VoiceModelError};
use super::grammar::Grammar;
use super::listener::{Heard, Listener};
use super::models::{self, Manifest};
use super::recognizer::{Decoding, SAMPLE_RATE, VoskModel};
use super::stderr::{QuietStderr, quiet_to_log};
use super::voicing::VoicingMeter;

/// Audio kept from before the start of speech (the detector needs a few
/// loud frames to be sure; the first sound of the word is in them).
pub const PREROLL_MS: u32 = 300;

/// Hands-free: after this much quiet following speech, the utterance is
/// finished and decided ahead of the detector's end of speech.
pub const EARLY_FINISH_MS: u32 = 120;

/// Hands-free, grammar-aware end of an utterance: when what was heard by
/// the time of the early finish ([`EARLY_FINISH_MS`] of quiet: the
/// decoding flushed, its best result) ends the utterance, the decision is
/// given then, instead of after the detector's full silence (`silence_ms`,
/// 300 ms). It ends it when it is one whole phrase of the grammar that no
/// other phrase goes on from ([`Grammar::closes`]), or, for a question, a
/// command or "not understood" (the same decision the end of speech would
/// give: it is made on the same audio), when neither the move grammar's
/// words nor the word loop's (the words said, free of the grammar) may be
/// a phrase unfinished ([`Grammar::may_go_on`]: "e4" while "e4 check" is
/// legal, "pawn e2" heard as "golf 2 e2", a piece or a file alone, the
/// draw offer while "draw accepted" is a command). Anything else waits
/// for the full silence as before; speech that resumes meanwhile is
/// decoded again with what came before. Measured (voice_bench): before,
/// 3 of 12 hands-free decisions were made then (synthetic Korean is
/// mostly asked back, and only a whole phrase counted); with questions,
/// 12 of 12.
pub const SHORT_SILENCE_MS: u32 = EARLY_FINISH_MS;

/// Push-to-talk: after this much quiet following speech, with the key
/// still down, the utterance is finished and decided ahead of the key
/// release. Shorter than hands-free: a wrong guess (the player goes on
/// speaking) costs only decoding the utterance again while he speaks, and
/// a key is often let go soon after the last word. Fluent speech has no
/// pause this long within a move (synthesized moves in `voice_bench`:
/// none in 160 utterances).
pub const PTT_EARLY_FINISH_MS: u32 = 100;

/// Length of the chunks a WAV file is played in.
pub const FILE_CHUNK_MS: u32 = 20;

/// The longest the WAV source waits for annabella to be quiet before the
/// player speaks again.
pub const ROOM_WAIT: Duration = Duration::from_secs(45);

/// On a recordings' timeline ([`AudioClock::timeline`]), the WAV source
/// waits at most this long (wall clock) for the worker and the UI to act on
/// what it played before it plays on (a stuck UI does not stop the test).
pub const SETTLE_LIMIT: Duration = Duration::from_secs(20);

/// What the voice worker shares with the speech output: when annabella
/// speaks (audio captured then never reaches the recognizers), and, in a
/// simulated room only, the air its speech goes into.
#[derive(Debug, Clone, Default)]
pub struct Surroundings {
    /// When annabella's own voice is in the room.
    pub activity: SpeechActivity,
    /// Test only: annabella's speech, to be mixed into the WAV source's
    /// audio as it plays.
    pub room: Option<Room>,
    /// What annabella's own output ([`crate::speech::played::CardSpeaker`])
    /// handed to the sound card: the microphone's blocks go to the worker
    /// with it as their reference.
    pub played: Option<Played>,
    /// Barge-in by voice (where what she played is known).
    pub barge_in: BargeInMode,
    /// Test only: the WAV source starts each recording once annabella has
    /// been speaking this long (the player talks over her), instead of
    /// waiting until she is quiet.
    pub speak_over: Option<Duration>,
    /// Test only: the WAV source's recordings are spoken with the talk
    /// key held (push-to-talk): the key goes down before each recording
    /// and up this long after its last sound, as a [`VoiceEvent::TalkKey`]
    /// to the front end (which handles it as F2).
    pub talk_key: Option<Duration>,
}

/// How the worker hears the player over annabella's voice.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum BargeInMode {
    /// Echo cancellation with the played samples as reference: when the
    /// player speaks over her, she stops and his words are heard.
    #[default]
    Cancel,
    /// Test only: the near-end detector on the uncancelled audio.
    Uncancelled,
    /// No barge-in by voice: the microphone is muted while she speaks.
    Mute,
}

impl BargeInMode {
    /// From env [`ECHO_CANCEL`](crate::environment::ECHO_CANCEL) (`off`: [`Uncancelled`](Self::Uncancelled),
    /// `mute`: [`Mute`](Self::Mute), else [`Cancel`](Self::Cancel)).
    pub fn from_env() -> BargeInMode {
        match crate::environment::get().echo_cancel.as_deref() {
            Some("off") => BargeInMode::Uncancelled,
            Some("mute") => BargeInMode::Mute,
            _ => BargeInMode::Cancel,
        }
    }

    /// The canceller for this mode (`None`: mute only).
    pub fn canceller(self) -> Option<EchoCanceller> {
        match self {
            BargeInMode::Cancel => Some(EchoCanceller::default()),
            BargeInMode::Uncancelled => Some(EchoCanceller::without_cancelling(
                DetectorSettings::default(),
            )),
            BargeInMode::Mute => None,
        }
    }
}

/// Echo-cancelled audio kept for a barge-in: the player's first words,
/// said before the detector was sure, go to the recognizers too.
pub const BARGE_PREROLL_MS: u32 = 600;

/// The voice worker's side of hands-free barge-in: audio captured while
/// annabella speaks goes through the echo canceller (given what she
/// played); while no barge-in is detected it stays muted, as without a
/// canceller; once one is, the cancelled audio (with its pre-roll) goes
/// to the recognizers until the mute ends. Pure: no clock, no devices.
#[derive(Debug)]
pub struct BargeIn {
    canceller: EchoCanceller,
    kept: VecDeque<i16>,
    kept_len: usize,
    open: bool,
}

/// What [`BargeIn::block`] made of a captured block.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BargeBlock {
    /// Cancelled audio from before this block, to be heard first (the
    /// pre-roll of a barge-in just detected).
    pub preroll: Vec<i16>,
    /// `true`: a barge-in was detected in this block.
    pub detected: bool,
}

impl BargeIn {
    /// Barge-in through `canceller`.
    pub fn new(canceller: EchoCanceller) -> BargeIn {
        BargeIn {
            canceller,
            kept: VecDeque::new(),
            kept_len: (BARGE_PREROLL_MS * SAMPLE_RATE / 1000) as usize,
            open: false,
        }
    }

    /// The canceller (figures).
    pub fn canceller(&self) -> &EchoCanceller {
        &self.canceller
    }

    /// A block captured with `reference` played meanwhile; `muted`: the
    /// gate would mute it. `samples` becomes what the recognizers are to
    /// hear: unchanged when not muted; muted, silence, or the cancelled
    /// audio once a barge-in was detected (with the pre-roll in the
    /// result). `listening`: an utterance is under way already (no
    /// barge-in is detected then; its audio is cancelled).
    pub fn block(
        &mut self,
        samples: &mut [i16],
        reference: &[i16],
        muted: bool,
        listening: bool,
    ) -> BargeBlock {
        let out = self.canceller.process(samples, reference);
        let mut result = BargeBlock {
            preroll: Vec::new(),
            detected: false,
        };
        if !muted {
            self.open = false;
        } else {
            if !self.open && out.barge_in.is_some() {
                self.open = true;
                result.detected = true;
                if !listening {
                    result.preroll = self.kept.iter().copied().collect();
                }
            }
            if self.open || listening {
                samples.copy_from_slice(&out.audio);
            } else {
                samples.fill(0);
            }
        }
        self.kept.extend(out.audio.iter().copied());
        while self.kept.len() > self.kept_len {
            self.kept.pop_front();
        }
        result
    }
}

/// Silences a block captured until `captured` when annabella was speaking
/// during it (or its tail): the recognizers never hear her own voice.
/// `true` when it was silenced.
pub fn gate(activity: &SpeechActivity, samples: &mut [i16], captured: Instant) -> bool {
    let from = captured
        .checked_sub(samples_to_time(samples.len()))
        .unwrap_or(captured);
    let muted = activity.muted(from, captured);
    if muted {
        samples.fill(0);
    }
    muted
}

/// Where the audio comes from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum VoiceSource {
    /// The microphone, hands-free: an utterance ends after `silence_ms` of silence.
    Microphone {
        /// Silence that ends an utterance.
        silence_ms: u32,
    },
    /// The microphone, push-to-talk: audio between push_to_talk(true) and push_to_talk(false).
    PushToTalk,
    /// WAV files played as if spoken into the microphone, each followed by `gap_ms` of
    /// silence, through the same path as the microphone's (for tests and demos): in real
    /// time, or as fast as the worker and the UI follow on a recordings' timeline
    /// ([`AudioClock::timeline`] as the clock of [`Surroundings::activity`]).
    Files {
        /// The recordings, in order.
        paths: Vec<PathBuf>,
        /// Silence that ends an utterance.
        silence_ms: u32,
        /// Silence played after each file.
        gap_ms: u32,
    },
}

/// What the worker reports.
#[derive(Debug, Clone)]
pub enum VoiceEvent {
    /// An utterance was decided in the position set last.
    Heard(Heard),
    /// Listening started / is ready (model loaded).
    Ready {
        /// Words of the locale the model lacks (they cannot be spoken).
        missing_words: Vec<String>,
    },
    /// Something failed (no mic, no model, bad WAV...): the front end
    /// words it ([`VoiceFailure::describe`]) in one line that says what to
    /// do.
    Failed(VoiceFailure),
    /// The file source has played every file.
    Finished,
    /// The player spoke over annabella (hands-free barge-in): her speech
    /// is to stop, as with the stop key, and wait until his words are
    /// decided.
    BargeIn,
    /// Test only (`--voice-wav` with `--push-to-talk`): the recording's
    /// player pressed (`true`) or released the talk key, as F2 would.
    TalkKey(bool),
    /// The worker has ended (listening is over; typed input goes on).
    /// Posted to a front end's loop; [`LiveVoice::poll`] reports it
    /// through [`LiveVoice::is_stopped`] instead.
    Stopped,
}

/// The model folder for the active locale: `arg` (`--model`), else env
/// `ANNABELLA_MODEL`, else the installed model for the locale.
///
/// # Errors
///
/// None there (or a build without speech recognition).
pub fn model_dir(vocab: &Vocabulary, arg: Option<&Path>) -> Result<PathBuf, VoiceModelError> {
    model_dir_or(vocab, arg, MsgKey::VoiceNoModel)
}

/// [`model_dir`], with `missing` the message key of the line when there
/// is none (`listen` has no typing to fall back on).
///
/// # Errors
///
/// As [`model_dir`].
pub fn model_dir_or(
    vocab: &Vocabulary,
    arg: Option<&Path>,
    missing: MsgKey,
) -> Result<PathBuf, VoiceModelError> {
    if cfg!(not(feature = "voice")) {
        // No model can help a build without speech recognition.
        return Err(VoiceModelError::NotBuilt);
    }
    if let Some(p) = arg {
        return Ok(p.to_owned());
    }
    if let Some(p) = &crate::environment::get().model {
        return Ok(p.clone());
    }
    let manifest = Manifest::builtin();
    let code = vocab.locale().code.clone();
    if let Some(dir) = models::models_dir()
        && let Some(p) = models::model_for_locale(&manifest, &dir, &code)
    {
        return Ok(p);
    }
    let name = manifest
        .for_locale(&code)
        .first()
        .map(|m| m.name.clone())
        .unwrap_or_else(|| "NAME".to_owned());
    Err(VoiceModelError::NoModel {
        missing,
        locale: vocab.locale().name.clone(),
        name,
    })
}

/// Loads the model (libvosk's lines go to the audio log) and checks the
/// locale's words against it.
///
/// # Errors
///
/// No model there, a corrupt one, or a model for another language.
pub fn load_listener(
    vocab: Vocabulary,
    dir: &Path,
    settings: DecisionSettings,
) -> Result<Listener, VoiceModelError> {
    super::stderr::quiet_vosk(true);
    let quiet = quiet_to_log();
    let loaded = VoskModel::load(dir);
    drop(quiet);
    let model = loaded.map_err(VoiceModelError::Model)?;
    let listener = Listener::new(model, vocab, settings);
    if listener.wrong_language() {
        return Err(VoiceModelError::WrongLanguage {
            path: dir.to_owned(),
            locale: listener.vocab.locale().name.clone(),
            words: missing_words(&listener),
        });
    }
    Ok(listener)
}

/// The locale's words the model lacks, as `word (key)`.
pub fn missing_words(listener: &Listener) -> Vec<String> {
    listener
        .missing_words()
        .iter()
        .map(|m| format!("{} ({})", m.display, m.key))
        .collect()
}

/// The recognizer could not be created for the position (a model that
/// rejects the grammar).
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("the recognizer could not start")]
pub struct RecognizerFailed;

/// A decision prepared during the silence at the end of an utterance.
struct Early {
    decision: Decision,
    hearing: Hearing,
    json: String,
    finish_time: Duration,
    /// The detector's last loud frame when it was made: if that moves,
    /// speech resumed and the decision is void.
    last_loud_end: usize,
}

/// Listening without threads or devices: fed 16 kHz mono chunks with the
/// moment their last sample was captured, it returns decisions.
pub struct LiveDecoder<'l> {
    listener: &'l Listener,
    pos: Chess,
    mode: CastlingMode,
    grammar: Grammar,
    grammar_time: Duration,
    hands_free: bool,
    vad: Vad,
    preroll: VecDeque<i16>,
    preroll_len: usize,
    /// An utterance is under way.
    talking: bool,
    /// Its audio (pre-roll included), to decode it again if the position
    /// changes or speech resumes after an early finish.
    audio: Vec<i16>,
    current: Option<Decoding>,
    /// A recognizer made ahead for the next utterance.
    spare: Option<Decoding>,
    early: Option<Early>,
    /// The early finish of this utterance heard nothing: it is decided
    /// at the detector's end of speech (or the key's release) only.
    late_only: bool,
    stats: EngineStats,
    /// Voiced speech in the utterance's audio: without enough, it is
    /// "nothing heard" (noise is heard as words).
    voicing: VoicingMeter,
}

/// Counts of what the engine did (for tests and the benchmark).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct EngineStats {
    /// Utterances finished during their closing silence.
    pub early: usize,
    /// …of which the decision was given (the silence lasted).
    pub early_used: usize,
    /// Utterances decoded again from their start (speech resumed after an
    /// early finish, or the position changed).
    pub redecoded: usize,
    /// Hands-free utterances decided after the short silence (their words
    /// end the utterance, see [`SHORT_SILENCE_MS`]).
    pub short: usize,
}

impl std::fmt::Debug for LiveDecoder<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LiveDecoder")
            .field("hands_free", &self.hands_free)
            .field("talking", &self.talking)
            .finish_non_exhaustive()
    }
}

fn samples_to_time(n: usize) -> Duration {
    Duration::from_secs_f64(n as f64 / f64::from(SAMPLE_RATE))
}

impl<'l> LiveDecoder<'l> {
    /// An engine for `pos`: hands-free (the detector ends utterances after
    /// `vad.silence_ms`) or push-to-talk.
    pub fn new(
        listener: &'l Listener,
        pos: Chess,
        mode: CastlingMode,
        hands_free: bool,
        vad: VadSettings,
    ) -> LiveDecoder<'l> {
        let t = Instant::now();
        let grammar = listener.grammar(&pos, mode);
        let grammar_time = t.elapsed();
        LiveDecoder {
            listener,
            pos,
            mode,
            grammar,
            grammar_time,
            hands_free,
            vad: Vad::new(vad),
            preroll: VecDeque::new(),
            preroll_len: (PREROLL_MS * SAMPLE_RATE / 1000) as usize,
            talking: false,
            audio: Vec::new(),
            current: None,
            spare: None,
            early: None,
            late_only: false,
            stats: EngineStats::default(),
            voicing: VoicingMeter::new(listener.voicing),
        }
    }

    /// What the engine did so far.
    pub fn stats(&self) -> EngineStats {
        self.stats
    }

    /// Is an utterance under way?
    pub fn talking(&self) -> bool {
        self.talking
    }

    /// The position utterances are decided in.
    pub fn position(&self) -> &Chess {
        &self.pos
    }

    /// Hears the next utterances in `pos`. An utterance under way is
    /// decoded again from its start with the new grammar.
    pub fn set_position(&mut self, pos: Chess, mode: CastlingMode) {
        let t = Instant::now();
        self.grammar = self.listener.grammar(&pos, mode);
        self.grammar_time = t.elapsed();
        self.pos = pos;
        self.mode = mode;
        self.spare = None;
        if self.talking {
            self.early = None;
            self.stats.redecoded += 1;
            self.current = self.recognizer();
            if let Some(u) = self.current.as_mut() {
                u.feed(&self.audio);
            }
        }
    }

    fn recognizer(&mut self) -> Option<Decoding> {
        self.spare
            .take()
            .or_else(|| self.listener.model.recognizer(&self.grammar))
    }

    /// Makes the recognizer for the next utterance ahead of time (about
    /// 2 ms), so the start of speech costs nothing.
    pub fn prepare(&mut self) {
        if !self.talking && self.spare.is_none() {
            self.spare = self.listener.model.recognizer(&self.grammar);
        }
    }

    fn open(&mut self, audio: Vec<i16>) -> Result<(), RecognizerFailed> {
        self.talking = true;
        self.early = None;
        self.late_only = false;
        self.audio = audio;
        self.voicing.reset();
        self.voicing.push(&self.audio);
        let mut u = self.recognizer().ok_or(RecognizerFailed)?;
        u.feed(&self.audio);
        self.current = Some(u);
        Ok(())
    }

    fn heard(
        &self,
        decision: Decision,
        hearing: Hearing,
        json: String,
        finish_time: Duration,
        end: Option<Instant>,
    ) -> Heard {
        Heard {
            decision,
            hearing,
            json,
            grammar_time: self.grammar_time,
            finish_time,
            since_speech_end: end.map(|t| t.elapsed()),
            file: None,
        }
    }

    /// Ends the utterance: the decision prepared during the silence if it
    /// still holds, else the final results now. `end` is when speech ended.
    fn close(&mut self, end: Option<Instant>) -> Option<Result<Heard, RecognizerFailed>> {
        self.talking = false;
        self.audio.clear();
        if let Some(e) = self.early.take() {
            self.current = None;
            self.stats.early_used += 1;
            return Some(Ok(self.heard(
                e.decision,
                e.hearing,
                e.json,
                e.finish_time,
                end,
            )));
        }
        let u = self.current.take()?;
        let t = Instant::now();
        let (decision, hearing, json) = self.finish(u);
        let finish_time = t.elapsed();
        Some(Ok(self.heard(decision, hearing, json, finish_time, end)))
    }

    fn finish(&self, u: Decoding) -> (Decision, Hearing, String) {
        let (decision, hearing, json, _) = self.finish_with_words(u, false);
        (decision, hearing, json)
    }

    /// [`finish`](Self::finish), with the word loop's hearing too when
    /// `words`.
    fn finish_with_words(
        &self,
        u: Decoding,
        words: bool,
    ) -> (Decision, Hearing, String, Option<Hearing>) {
        let (listener, pos, mode, grammar) = (self.listener, &self.pos, self.mode, &self.grammar);
        let voiced = self.voicing.passes();
        u.finish_deciding_with_words(
            |h| listener.decide_voiced(voiced, pos, mode, grammar, h),
            words,
        )
    }

    /// Hands-free, at the early finish: are the words heard the end of
    /// what the player says? Yes when they are one whole phrase no other
    /// goes on from ([`Grammar::closes`]); or, for any other decision than
    /// a move or a number (a question, a command, "not understood": the
    /// same one the end of speech would give, made on the same audio),
    /// when neither the move grammar's words nor the word loop's (the
    /// words said, free of the grammar) may be a phrase unfinished
    /// ([`Grammar::may_go_on`]), and the word loop heard words, the last
    /// of them known.
    fn ends_here(&self, decision: &Decision, heard: &str, said: Option<&Hearing>) -> bool {
        if self.grammar.closes(heard) {
            return true;
        }
        if matches!(decision, Decision::Move { .. } | Decision::Number { .. }) {
            return false;
        }
        let Some(said) = said.map(Hearing::best_text) else {
            return false;
        };
        let unknown = self.listener.model.unk();
        let last = said.split_whitespace().last();
        match last {
            None => false,
            Some(w) if Some(w) == unknown => false,
            Some(_) => !self.grammar.may_go_on(heard) && !self.grammar.may_go_on(said),
        }
    }

    /// Feeds a chunk captured until `captured`; returns the utterances it
    /// ended (hands-free).
    pub fn push(
        &mut self,
        samples: &[i16],
        captured: Instant,
    ) -> Vec<Result<Heard, RecognizerFailed>> {
        let mut out = Vec::new();
        let events = self.vad.push(samples);
        if self.talking {
            self.audio.extend_from_slice(samples);
            self.voicing.push(samples);
            if let Some(u) = self.current.as_mut() {
                u.feed(samples);
            }
            // Speech resumed after the early finish: decode it all again.
            if let Some(e) = &self.early
                && self.vad.last_loud_end() != e.last_loud_end
            {
                self.early = None;
                self.stats.redecoded += 1;
                self.current = self.recognizer();
                match self.current.as_mut() {
                    Some(u) => u.feed(&self.audio),
                    None => {
                        self.talking = false;
                        out.push(Err(RecognizerFailed));
                    }
                }
            }
        }
        if self.hands_free {
            for e in events {
                match e {
                    VadEvent::SpeechStart(_) if !self.talking => {
                        let mut audio: Vec<i16> = self.preroll.iter().copied().collect();
                        audio.extend_from_slice(samples);
                        if let Err(e) = self.open(audio) {
                            self.talking = false;
                            out.push(Err(e));
                        }
                    }
                    VadEvent::SpeechEnd(at) if self.talking => {
                        let back = samples_to_time(self.vad.pushed().saturating_sub(at));
                        let end = captured.checked_sub(back).unwrap_or(captured);
                        out.extend(self.close(Some(end)));
                    }
                    _ => {}
                }
            }
        }
        // The decision is prepared during the silence after speech: ahead
        // of the detector's end of speech (hands-free), or of the key
        // release (push-to-talk: a player lets go of the key after the
        // last word, not with it). `quiet_samples` counts only after speech
        // in this utterance, so a key held before speaking prepares nothing.
        let early_ms = if self.hands_free {
            EARLY_FINISH_MS
        } else {
            PTT_EARLY_FINISH_MS
        };
        let early = (early_ms * SAMPLE_RATE / 1000) as usize;
        if self.talking
            && self.early.is_none()
            && !self.late_only
            && self.vad.quiet_samples() >= early
            && let Some(u) = self.current.take()
        {
            let t = Instant::now();
            let (decision, hearing, json, said) = self.finish_with_words(u, self.hands_free);
            if hearing.best_text().is_empty() {
                // Nothing heard by the early finish, though the detector
                // heard speech: a short word ("네", yes) may need more of
                // the silence after it to be decoded (measured on the play
                // screen, tests/confirm_tmux.rs: espeak-ng's "네" was heard
                // with an early finish at 150 ms of quiet, and as nothing
                // at 120 ms). The early result is not used: the
                // utterance is decoded again, whole, and decided at the
                // detector's end of speech (or the key's release).
                self.stats.redecoded += 1;
                self.late_only = true;
                crate::trace::event("early", "heard nothing: decided at the end of speech");
                self.current = self.recognizer();
                match self.current.as_mut() {
                    Some(u) => u.feed(&self.audio),
                    None => {
                        self.talking = false;
                        out.push(Err(RecognizerFailed));
                    }
                }
                self.preroll.extend(samples.iter().copied());
                while self.preroll.len() > self.preroll_len {
                    self.preroll.pop_front();
                }
                return out;
            }
            // What was heard up to the silence, once the decoding is
            // flushed (Vosk's partial result lags the speech by a word or
            // more at this point: measured, it was a whole phrase in none
            // of ten moves whose final result was one).
            let closes =
                self.hands_free && self.ends_here(&decision, hearing.best_text(), said.as_ref());
            if crate::trace::on() {
                // Test only: what the early finish heard, and whether it
                // ends the utterance.
                crate::trace::event(
                    "early",
                    &format!(
                        "ends={closes} quiet_ms={} heard={:?} words={:?} decision={:?}",
                        self.vad.quiet_samples() * 1000 / SAMPLE_RATE as usize,
                        hearing.best_text(),
                        said.as_ref().map(Hearing::best_text).unwrap_or_default(),
                        decision
                    ),
                );
            }
            self.stats.early += 1;
            self.early = Some(Early {
                decision,
                hearing,
                json,
                finish_time: t.elapsed(),
                last_loud_end: self.vad.last_loud_end(),
            });
            if closes {
                // A whole phrase no other goes on from: decided now. The
                // detector starts listening for the next utterance.
                self.stats.short += 1;
                let back =
                    samples_to_time(self.vad.pushed().saturating_sub(self.vad.last_loud_end()));
                let end = captured.checked_sub(back).unwrap_or(captured);
                self.vad.reset_speech();
                // The next utterance's pre-roll holds none of this one.
                self.preroll.clear();
                out.extend(self.close(Some(end)));
                return out;
            }
        }
        self.preroll.extend(samples.iter().copied());
        while self.preroll.len() > self.preroll_len {
            self.preroll.pop_front();
        }
        out
    }

    /// Push-to-talk: the key went down (the pre-roll is included).
    pub fn press(&mut self) -> Result<(), RecognizerFailed> {
        if self.talking {
            return Ok(());
        }
        let audio: Vec<i16> = self.preroll.iter().copied().collect();
        let r = self.open(audio);
        if r.is_err() {
            self.talking = false;
        }
        r
    }

    /// Push-to-talk: the key was released at `at` (feed every chunk
    /// captured before it first). Audio without speech is "nothing heard"
    /// at once.
    pub fn release(&mut self, at: Instant) -> Option<Result<Heard, RecognizerFailed>> {
        if !self.talking {
            return None;
        }
        if !audio::has_speech(&self.audio, *self.vad_settings()) {
            self.talking = false;
            self.audio.clear();
            // The recognizer heard nothing; it is kept for the next time.
            if self.spare.is_none() {
                self.spare = self.current.take();
            }
            self.current = None;
            return Some(Ok(self.heard(
                Decision::NotUnderstood {
                    heard: String::new(),
                },
                Hearing::default(),
                String::new(),
                Duration::ZERO,
                Some(at),
            )));
        }
        self.close(Some(at))
    }

    /// The end of the input (a file played to its end): an utterance
    /// under way ends here.
    pub fn flush(&mut self, at: Instant) -> Option<Result<Heard, RecognizerFailed>> {
        if !self.talking {
            return None;
        }
        self.vad.reset_speech();
        self.close(Some(at))
    }

    fn vad_settings(&self) -> &VadSettings {
        self.vad.settings()
    }
}

/// What the worker thread is told.
enum Input {
    /// Captured audio, the moment of its last sample, and what the
    /// loudspeaker played meanwhile (when known).
    Audio(Vec<i16>, Instant, Option<Vec<i16>>),
    Position(Box<Chess>, CastlingMode, u64),
    Talk(bool, Instant),
    FileStart(PathBuf),
    FileEnd(Instant),
    FilesDone,
    Failed(VoiceFailure),
    Stop,
}

/// What is under way between the input, the worker and the UI: on a
/// recordings' timeline the WAV source plays on only once everything it
/// played has been acted on.
#[derive(Debug, Default)]
struct Flow {
    /// Inputs sent to the worker and not yet handled by it.
    inputs: AtomicUsize,
    /// Events the worker (or the recordings' player) sent to the UI.
    emitted: AtomicU64,
    /// …of which the UI has acted on ([`LiveVoice::poll`] called again
    /// after them, or [`LiveVoice::acted`]).
    handled: AtomicU64,
}

impl Flow {
    fn settled(&self) -> bool {
        self.inputs.load(Ordering::SeqCst) == 0
            && self.handled.load(Ordering::SeqCst) >= self.emitted.load(Ordering::SeqCst)
    }
}

/// The worker's input, counting what is under way.
#[derive(Clone)]
struct WorkerTx {
    tx: Sender<Input>,
    flow: Arc<Flow>,
}

impl WorkerTx {
    fn send(&self, input: Input) -> Result<(), std::sync::mpsc::SendError<Input>> {
        self.flow.inputs.fetch_add(1, Ordering::SeqCst);
        let sent = self.tx.send(input);
        if sent.is_err() {
            self.flow.inputs.fetch_sub(1, Ordering::SeqCst);
        }
        sent
    }
}

/// The worker's input handled, with everything it led to sent (dropped at
/// the end of each turn of the worker's loop).
struct InputDone<'a>(&'a Flow);

impl Drop for InputDone<'_> {
    fn drop(&mut self) {
        self.0.inputs.fetch_sub(1, Ordering::SeqCst);
    }
}

/// Spoken moves for the play screen: a worker thread listens and decides;
/// the UI polls. Dropping it stops listening (and the microphone).
pub struct LiveVoice {
    tx: WorkerTx,
    /// Its own channel ([`LiveVoice::poll`]); `None` when its events go
    /// to a front end's loop.
    rx: Option<Receiver<(u64, VoiceEvent)>>,
    serial: AtomicU64,
    stopped: std::sync::atomic::AtomicBool,
    worker: Option<std::thread::JoinHandle<()>>,
    /// Events returned by [`poll`](Self::poll).
    returned: AtomicU64,
    clock: AudioClock,
    _quiet: QuietStderr,
}

/// How long dropping a [`LiveVoice`] waits for its worker to stop (it
/// stops within one utterance's decoding; a model still loading takes
/// longer, and the process then ends without waiting, see
/// [`super::recognizer::exit`]).
pub const STOP_WAIT: Duration = Duration::from_secs(3);

impl std::fmt::Debug for LiveVoice {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LiveVoice")
            .field("serial", &self.serial)
            .finish_non_exhaustive()
    }
}

impl LiveVoice {
    /// Loads the model in a background thread (model load takes seconds: the UI must not freeze) and starts listening.
    pub fn start(
        model_dir: PathBuf,
        vocab: Vocabulary,
        settings: DecisionSettings,
        source: VoiceSource,
        mode: CastlingMode,
    ) -> LiveVoice {
        LiveVoice::start_in(
            model_dir,
            vocab,
            settings,
            source,
            mode,
            Surroundings::default(),
        )
    }

    /// As [`start`](Self::start), deaf while annabella speaks (audio
    /// captured during `around.activity`'s speech and its tail reaches the
    /// recognizers as silence), in every source.
    pub fn start_in(
        model_dir: PathBuf,
        vocab: Vocabulary,
        settings: DecisionSettings,
        source: VoiceSource,
        mode: CastlingMode,
        around: Surroundings,
    ) -> LiveVoice {
        let (post, rx) = Post::channel();
        let mut v =
            LiveVoice::start_posting(model_dir, vocab, settings, source, mode, around, post);
        v.rx = Some(rx);
        v
    }

    /// As [`start_in`](Self::start_in), every event (with the serial of
    /// the position it was decided in) going to `post`, a front end's
    /// loop, which passes it through [`LiveVoice::accept`];
    /// [`LiveVoice::poll`] then gives nothing.
    pub fn start_posting(
        model_dir: PathBuf,
        vocab: Vocabulary,
        settings: DecisionSettings,
        source: VoiceSource,
        mode: CastlingMode,
        around: Surroundings,
        post: Post<(u64, VoiceEvent)>,
    ) -> LiveVoice {
        let quiet = quiet_to_log();
        let flow = Arc::new(Flow::default());
        let (tx, rx_in) = channel();
        let tx = WorkerTx {
            tx,
            flow: flow.clone(),
        };
        // Every event counted on its way to the UI.
        let post = {
            let flow = flow.clone();
            Post::new(move |m| {
                flow.emitted.fetch_add(1, Ordering::SeqCst);
                post.send(m)
            })
        };
        let clock = around.activity.clock().clone();
        let worker_tx = tx.clone();
        let worker_quiet = quiet.clone();
        let panic_post = post.clone();
        let end_post = post.clone();
        let failed_post = post.clone();
        let spawned = std::thread::Builder::new()
            .name("annabella-voice".to_owned())
            .spawn(move || {
                let _quiet = worker_quiet;
                // Dropped last: the loop learns that listening is over.
                let _ended = Ended(end_post);
                let _report = PanicReport(panic_post);
                worker(
                    model_dir, vocab, settings, source, mode, around, rx_in, worker_tx, post,
                );
            });
        let worker = match spawned {
            Ok(handle) => Some(handle),
            Err(e) => {
                // No thread: the UI is told once, as listening that ended.
                failed_post.send((0, VoiceEvent::Failed(VoiceFailure::no_thread(e))));
                failed_post.send((0, VoiceEvent::Stopped));
                None
            }
        };
        LiveVoice {
            tx,
            rx: None,
            serial: AtomicU64::new(0),
            stopped: std::sync::atomic::AtomicBool::new(false),
            worker,
            returned: AtomicU64::new(0),
            clock,
            _quiet: quiet,
        }
    }

    /// The position the next utterances are heard in (call after every move / takeback); the grammar is rebuilt for it.
    pub fn set_position(&self, pos: Chess, mode: CastlingMode) {
        let serial = self.serial.fetch_add(1, Ordering::SeqCst) + 1;
        let _ = self.tx.send(Input::Position(Box::new(pos), mode, serial));
    }

    /// Push-to-talk key down (`true`) or released (`false`); ignored by
    /// the hands-free sources.
    pub fn push_to_talk(&self, down: bool) {
        let _ = self.tx.send(Input::Talk(down, self.clock.now()));
    }

    /// A front end's loop has acted on `events` more of the events posted
    /// to it (everything they led to done: said, sent to the worker). A
    /// recordings' timeline waits for that before it plays on.
    pub fn acted(&self, events: u64) {
        self.tx.flow.handled.fetch_add(events, Ordering::SeqCst);
    }

    /// Non-blocking (its own channel; nothing when its events go to a
    /// front end's loop). Calling it again tells that the event it
    /// returned last has been acted on (a recordings' timeline waits for
    /// that).
    pub fn poll(&self) -> Option<VoiceEvent> {
        let rx = self.rx.as_ref()?;
        let handled = &self.tx.flow.handled;
        handled.store(self.returned.load(Ordering::SeqCst), Ordering::SeqCst);
        loop {
            let got = rx.try_recv();
            if got.is_ok() {
                self.returned.fetch_add(1, Ordering::SeqCst);
            }
            match got {
                Ok((serial, event)) => {
                    if let Some(e) = self.accept(serial, event)
                        && !matches!(e, VoiceEvent::Stopped)
                    {
                        return Some(e);
                    }
                    // Nothing for the UI to act on.
                    handled.store(self.returned.load(Ordering::SeqCst), Ordering::SeqCst);
                }
                Err(TryRecvError::Empty) => return None,
                Err(TryRecvError::Disconnected) => {
                    self.stopped.store(true, Ordering::SeqCst);
                    return None;
                }
            }
        }
    }

    /// An event from the worker, as the UI is to see it: `None` for a
    /// decision made in a position the game has left. [`VoiceEvent::Stopped`]
    /// marks listening as ended ([`LiveVoice::is_stopped`]).
    pub fn accept(&self, serial: u64, event: VoiceEvent) -> Option<VoiceEvent> {
        match event {
            // Decided in a position the game has left.
            VoiceEvent::Heard(_) if serial != self.serial.load(Ordering::SeqCst) => None,
            VoiceEvent::Stopped => {
                self.stopped.store(true, Ordering::SeqCst);
                Some(VoiceEvent::Stopped)
            }
            e => Some(e),
        }
    }

    /// `true` once the worker has stopped (after a failure that ends
    /// listening, such as no microphone or no model) and every event has
    /// been polled.
    pub fn is_stopped(&self) -> bool {
        self.stopped.load(Ordering::SeqCst)
    }

    /// Waits up to `timeout` for the next event (for tests and the CLI).
    pub fn wait(&self, timeout: Duration) -> Option<VoiceEvent> {
        let deadline = Instant::now() + timeout;
        loop {
            if let Some(e) = self.poll() {
                return Some(e);
            }
            let now = Instant::now();
            if now >= deadline {
                return None;
            }
            std::thread::sleep((deadline - now).min(Duration::from_millis(5)));
        }
    }
}

impl Drop for LiveVoice {
    fn drop(&mut self) {
        let _ = self.tx.send(Input::Stop);
        // The worker decodes with libvosk: it is waited for, so that no
        // decoding runs on while the program ends.
        let Some(worker) = self.worker.take() else {
            return;
        };
        let deadline = Instant::now() + STOP_WAIT;
        while !worker.is_finished() && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(5));
        }
        if worker.is_finished() {
            let _ = worker.join();
        }
    }
}

/// Tells the UI if the worker thread dies of a panic.
struct PanicReport(Post<(u64, VoiceEvent)>);

impl Drop for PanicReport {
    fn drop(&mut self) {
        if std::thread::panicking() {
            self.0
                .send((0, VoiceEvent::Failed(VoiceFailure::WorkerStopped)));
        }
    }
}

/// Tells the UI that the worker has ended, however it ended.
struct Ended(Post<(u64, VoiceEvent)>);

impl Drop for Ended {
    fn drop(&mut self) {
        self.0.send((0, VoiceEvent::Stopped));
    }
}

#[allow(clippy::too_many_arguments)]
fn worker(
    model_dir: PathBuf,
    vocab: Vocabulary,
    settings: DecisionSettings,
    source: VoiceSource,
    mode: CastlingMode,
    around: Surroundings,
    rx: Receiver<Input>,
    tx: WorkerTx,
    out: Post<(u64, VoiceEvent)>,
) {
    let flow = tx.flow.clone();
    let listener = match load_listener(vocab, &model_dir, settings) {
        Ok(l) => l,
        Err(e) => {
            out.send((0, VoiceEvent::Failed(VoiceFailure::Model(e))));
            return;
        }
    };
    let (hands_free, silence_ms) = match &source {
        VoiceSource::Microphone { silence_ms } => (true, *silence_ms),
        VoiceSource::PushToTalk => (false, VadSettings::default().silence_ms),
        VoiceSource::Files { .. } if around.talk_key.is_some() => {
            (false, VadSettings::default().silence_ms)
        }
        VoiceSource::Files { silence_ms, .. } => (true, *silence_ms),
    };
    let _mic = match source {
        VoiceSource::Microphone { .. } | VoiceSource::PushToTalk => {
            let mic_tx = tx.clone();
            // With annabella's own output, each block goes with what she
            // handed to the sound card meanwhile (the air mixes it in).
            let played = around.played.clone().filter(|_| hands_free);
            // Called on the capture thread (never on the audio thread):
            // `at` is when the chunk's last block was captured.
            let opened = super::mic::MicStream::open(move |chunk, at| {
                // No card speaker any more (speech reopened on another
                // output): no reference, so the mute, never a barge-in
                // on her voice missing from the reference.
                let reference = played
                    .as_ref()
                    .filter(|p| p.is_live())
                    .map(|p| p.pull(chunk.len(), at));
                let _ = mic_tx.send(Input::Audio(chunk, at, reference));
            });
            match opened {
                Ok(m) => Some(m),
                Err(e) => {
                    out.send((0, VoiceEvent::Failed(VoiceFailure::Microphone(e))));
                    return;
                }
            }
        }
        VoiceSource::Files { paths, gap_ms, .. } => {
            let player_tx = tx.clone();
            let room = around.room.clone();
            let activity = around.activity.clone();
            let over = around.speak_over;
            let talk = around.talk_key.map(|release| (release, out.clone()));
            let spawned = std::thread::Builder::new()
                .name("annabella-voice-files".to_owned())
                .spawn(move || {
                    let player = Player {
                        gap_ms,
                        activity: &activity,
                        room: room.as_ref(),
                        over,
                        talk,
                    };
                    play_files(&paths, &player, &player_tx);
                });
            if let Err(e) = spawned {
                out.send((0, VoiceEvent::Failed(VoiceFailure::no_thread(e))));
                return;
            }
            None
        }
    };
    drop(tx);
    out.send((
        0,
        VoiceEvent::Ready {
            missing_words: missing_words(&listener),
        },
    ));
    let vad = VadSettings {
        silence_ms,
        ..VadSettings::default()
    };
    let mut engine = LiveDecoder::new(&listener, Chess::default(), mode, hands_free, vad);
    engine.prepare();
    // Hands-free barge-in needs the gate on (else there is nothing to
    // barge through) and what annabella played (the simulated room, or
    // her own output on the sound card).
    let knows_played = around.room.is_some() || around.played.is_some();
    let mut barge = (hands_free && around.activity.enabled() && knows_played)
        .then(|| around.barge_in.canceller().map(BargeIn::new))
        .flatten();
    let mut serial = 0;
    let mut file: Option<PathBuf> = None;
    let mut heard_in_file = false;
    // Samples silenced since the recognizers last heard the room.
    let mut deaf = 0usize;
    let emit = |serial: u64,
                file: &Option<PathBuf>,
                heard_in_file: &mut bool,
                r: Result<Heard, RecognizerFailed>| {
        let event = match r {
            Ok(mut h) => {
                // In the audio log, for tests and bug reports: every
                // decision the recognizers led to.
                eprintln!("annabella voice: decision {:?}", h.decision);
                crate::trace::event("decided", &format!("{:?}", h.decision));
                h.file = file.clone();
                *heard_in_file = true;
                VoiceEvent::Heard(h)
            }
            Err(RecognizerFailed) => VoiceEvent::Failed(VoiceFailure::Recognizer),
        };
        out.send((serial, event))
    };
    while let Ok(input) = rx.recv() {
        // Handled, with everything it led to sent, at the end of the turn.
        let _done = InputDone(&flow);
        let mut results = Vec::new();
        match input {
            Input::Audio(mut samples, at, reference) => {
                let muted = match (barge.as_mut(), reference) {
                    (Some(b), Some(reference)) => {
                        let from = at.checked_sub(samples_to_time(samples.len())).unwrap_or(at);
                        let would = around.activity.muted(from, at);
                        let r = b.block(&mut samples, &reference, would, engine.talking());
                        if r.detected {
                            let speaking = around.activity.speaking();
                            eprintln!(
                                "annabella voice: barge-in (speaking {speaking}, ERLE {:.1} dB)",
                                b.canceller().stats().erle_db
                            );
                            if speaking && !out.send((serial, VoiceEvent::BargeIn)) {
                                return;
                            }
                        }
                        if !r.preroll.is_empty() {
                            let back = samples_to_time(samples.len());
                            results = engine.push(&r.preroll, at.checked_sub(back).unwrap_or(at));
                        }
                        would && samples.iter().all(|&s| s == 0)
                    }
                    _ => gate(&around.activity, &mut samples, at),
                };
                if muted {
                    deaf += samples.len();
                } else {
                    log_deaf(&mut deaf);
                }
                results.extend(engine.push(&samples, at));
            }
            Input::Position(pos, mode, s) => {
                serial = s;
                engine.set_position(*pos, mode);
            }
            Input::Talk(true, _) if !hands_free => {
                if let Err(e) = engine.press() {
                    results.push(Err(e));
                }
            }
            Input::Talk(false, at) if !hands_free => results.extend(engine.release(at)),
            Input::Talk(..) => {}
            Input::FileStart(p) => {
                file = Some(p);
                heard_in_file = false;
            }
            Input::FileEnd(at) => {
                results.extend(engine.flush(at));
                if results.is_empty() && !heard_in_file {
                    // A file without speech: nothing heard.
                    results.push(Ok(Heard {
                        decision: Decision::NotUnderstood {
                            heard: String::new(),
                        },
                        hearing: Hearing::default(),
                        json: String::new(),
                        grammar_time: Duration::ZERO,
                        finish_time: Duration::ZERO,
                        since_speech_end: None,
                        file: None,
                    }));
                }
            }
            Input::FilesDone => {
                log_deaf(&mut deaf);
                log_barge(barge.as_ref());
                if !out.send((serial, VoiceEvent::Finished)) {
                    return;
                }
            }
            Input::Failed(failure) => {
                if !out.send((serial, VoiceEvent::Failed(failure))) {
                    return;
                }
            }
            Input::Stop => {
                log_deaf(&mut deaf);
                log_barge(barge.as_ref());
                return;
            }
        }
        for r in results {
            if !emit(serial, &file, &mut heard_in_file, r) {
                return;
            }
        }
        engine.prepare();
    }
}

/// In the audio log: the echo canceller's figures.
fn log_barge(barge: Option<&BargeIn>) {
    if let Some(b) = barge {
        let s = b.canceller().stats();
        eprintln!(
            "annabella voice: echo canceller: ERLE {:.1} dB, {} barge-ins in {} s",
            s.erle_db,
            s.barge_ins,
            s.samples / u64::from(SAMPLE_RATE)
        );
    }
}

/// In the audio log: how long the recognizers were deaf (`deaf` samples
/// silenced since they last heard the room), once.
fn log_deaf(deaf: &mut usize) {
    if *deaf > 0 {
        let ms = *deaf * 1000 / SAMPLE_RATE as usize;
        eprintln!("annabella voice: deaf for {ms} ms while annabella spoke");
        *deaf = 0;
    }
}

/// Audio sent to the worker, each chunk stamped with the moment its last
/// sample would have been captured: in real time on the wall clock, or as
/// fast as the worker and the UI follow on a recordings' timeline (each
/// chunk once everything before it has been acted on; the timeline then
/// moves to its end). In a simulated room, annabella's speech is mixed in
/// as it plays.
struct Pacer<'a> {
    tx: &'a WorkerTx,
    room: Option<&'a Room>,
    activity: &'a SpeechActivity,
    chunk: usize,
    start: Instant,
    played: usize,
}

impl Pacer<'_> {
    fn clock(&self) -> &AudioClock {
        self.activity.clock()
    }

    /// Now, on the clock the audio is stamped with.
    fn now(&self) -> Instant {
        self.clock().now()
    }

    /// On a recordings' timeline: waits (at most [`SETTLE_LIMIT`]) until
    /// the worker has handled everything sent, the UI has acted on every
    /// event, and annabella's speech has started or ended wherever the room
    /// says it did (the UI notices the end of an utterance when it next
    /// looks).
    fn settle(&self) {
        let flow = &self.tx.flow;
        let limit = Instant::now() + SETTLE_LIMIT;
        while Instant::now() < limit {
            let unseen = self.room.is_some_and(|r| !r.busy()) && self.activity.speaking();
            if flow.settled() && !unseen {
                return;
            }
            std::thread::sleep(Duration::from_micros(200));
        }
        eprintln!("annabella voice: the recordings' timeline went on unsettled");
    }

    /// `false` when the worker has gone.
    fn send(&mut self, samples: &[i16]) -> bool {
        let timeline = self.clock().is_timeline();
        for c in samples.chunks(self.chunk) {
            if timeline {
                self.settle();
            }
            self.played += c.len();
            let due = self.clock().at(self.start, self.played as u64);
            if timeline {
                self.clock().advance(self.played as u64);
            } else {
                let now = Instant::now();
                if due > now {
                    std::thread::sleep(due - now);
                }
            }
            let mut block = c.to_vec();
            let reference = self.room.map(|room| room.mix_into(&mut block));
            if self.tx.send(Input::Audio(block, due, reference)).is_err() {
                return false;
            }
        }
        true
    }

    /// Sends `input` to the worker; on a recordings' timeline, once
    /// everything before it has been acted on, and waits until it has been
    /// too.
    fn tell(&self, input: Input) -> bool {
        let timeline = self.clock().is_timeline();
        if timeline {
            self.settle();
        }
        let sent = self.tx.send(input).is_ok();
        if timeline {
            self.settle();
        }
        sent
    }

    /// Presses or releases the talk key (told to the front end, which
    /// handles it as F2); on a recordings' timeline, once everything before
    /// it has been acted on, and waits until it has been too.
    fn key(&self, key: &Post<(u64, VoiceEvent)>, down: bool) -> bool {
        let timeline = self.clock().is_timeline();
        if timeline {
            self.settle();
        }
        let sent = key.send((0, VoiceEvent::TalkKey(down)));
        if timeline {
            self.settle();
        }
        sent
    }

    /// The player waits until annabella has been speaking for `over` (at
    /// most [`ROOM_WAIT`]), hearing the room meanwhile, to talk over her.
    /// Only what it has heard of her utterance counts (she may have
    /// begun before the source started).
    fn wait_speaking(&mut self, over: Duration) -> bool {
        let silence = vec![0i16; self.chunk];
        let limit = self.now() + ROOM_WAIT;
        let mut heard = Duration::ZERO;
        while self.now() < limit && heard < over {
            if !self.send(&silence) {
                return false;
            }
            let speaking = self.activity.speaking() || self.room.is_some_and(Room::busy);
            heard = if speaking {
                heard + samples_to_time(silence.len())
            } else {
                Duration::ZERO
            };
        }
        true
    }

    /// The player waits until annabella has been quiet for `gap` (at most
    /// [`ROOM_WAIT`]), hearing the room meanwhile: a player does not speak
    /// over her, and what is said while she speaks is muted anyway.
    fn wait_quiet(&mut self, gap: Duration) -> bool {
        let silence = vec![0i16; self.chunk];
        // At least `gap`: an answer to the last words may still be coming.
        let begun = self.now();
        let limit = begun + ROOM_WAIT;
        while self.now() < limit {
            if self.clock().is_timeline() {
                self.settle();
            }
            let busy = self.room.is_some_and(Room::busy);
            let quiet = !busy && self.activity.quiet_for().is_some_and(|q| q >= gap);
            if quiet && self.now().saturating_duration_since(begun) >= gap {
                break;
            }
            if !self.send(&silence) {
                return false;
            }
        }
        true
    }
}

/// How the WAV source's player behaves.
struct Player<'a> {
    gap_ms: u32,
    activity: &'a SpeechActivity,
    room: Option<&'a Room>,
    /// Talks over annabella once she has spoken this long.
    over: Option<Duration>,
    /// Holds the talk key during each recording, letting go this long
    /// after its last sound (told to the front end).
    talk: Option<(Duration, Post<(u64, VoiceEvent)>)>,
}

/// Plays WAV files into the worker: chunks of [`FILE_CHUNK_MS`] stamped
/// with the moment their last sample would have been captured, `gap_ms`
/// of silence after each file (see [`Pacer`] for the clock). Before each
/// file (and after the last) the player waits until annabella has been
/// quiet for `gap_ms` (or, talking over her, until she has spoken for
/// `over`). In a simulated room (`room`), her speech is mixed in.
fn play_files(paths: &[PathBuf], player: &Player<'_>, tx: &WorkerTx) {
    let gap_ms = player.gap_ms;
    let gap = vec![0i16; (gap_ms as usize * SAMPLE_RATE as usize) / 1000];
    let gap_time = Duration::from_millis(u64::from(gap_ms));
    let mut pacer = Pacer {
        tx,
        room: player.room,
        activity: player.activity,
        chunk: (FILE_CHUNK_MS * SAMPLE_RATE / 1000) as usize,
        start: player.activity.clock().now(),
        played: 0,
    };
    for path in paths {
        let samples = match audio::read_wav(path) {
            Ok(s) => s,
            Err(e) => {
                if !pacer.tell(Input::Failed(VoiceFailure::wav(path.clone(), e))) {
                    return;
                }
                continue;
            }
        };
        let waited = match player.over {
            Some(over) => pacer.wait_speaking(over),
            None => pacer.wait_quiet(gap_time),
        };
        if !waited || !pacer.tell(Input::FileStart(path.clone())) {
            return;
        }
        // Test only: when its first sample is "captured".
        crate::trace::event_at(
            pacer.start + samples_to_time(pacer.played),
            "file",
            &path.display().to_string(),
        );
        let sent = match &player.talk {
            None => pacer.send(&samples),
            Some((release, key)) => {
                // The key goes down, the recording is spoken, the key goes
                // up `release` after its last sound.
                let last = samples
                    .iter()
                    .rposition(|s| s.unsigned_abs() > 500)
                    .map_or(samples.len(), |i| i + 1);
                let hold = last + (release.as_millis() as usize) * SAMPLE_RATE as usize / 1000;
                let (held, rest) = samples.split_at(hold.min(samples.len()));
                let extra = hold.saturating_sub(samples.len());
                pacer.key(key, true)
                    && pacer.send(held)
                    && pacer.send(&vec![0; extra])
                    && {
                        crate::trace::event("talk-up", &path.display().to_string());
                        pacer.key(key, false)
                    }
                    && pacer.send(rest)
            }
        };
        if !sent || !pacer.send(&gap) {
            return;
        }
        let end = pacer.now();
        if !pacer.tell(Input::FileEnd(end)) {
            return;
        }
    }
    if !pacer.wait_quiet(gap_time) {
        return;
    }
    pacer.tell(Input::FilesDone);
}
