//! libespeak-ng in process: a warm synthesizer for the card speaker
//! ([`super::played::CardSpeaker`]), so that the first samples of a
//! reply are ready a few milliseconds after it is asked for, not after an
//! espeak-ng process has started, loaded its voice and written the whole
//! utterance.
//!
//! The library is opened at run time (`dlopen`, no -dev package needed):
//! `libespeak-ng.so.1`, or the file named by env `ANNABELLA_LIBESPEAK`.
//! It keeps one global state per process, so it is initialized once and
//! used by one thread at a time (a process-wide lock, taken only by the
//! speakers' renderer threads, never by an audio callback or a front
//! end's loop). Synthesis is synchronous: each block of samples
//! (`BUFFER_MS` long) is handed to the caller's closure as soon as it is
//! synthesized, and the closure can stop it.
//!
//! When the library cannot be opened, the card speaker renders with the
//! espeak-ng program, as before, and says so once ([`Unavailable`]).

use std::cell::Cell;
use std::ffi::{CString, c_char, c_int, c_short, c_uint, c_void};
use std::ptr::NonNull;
use std::sync::{Mutex, MutexGuard, PoisonError};

/// The library's file name, unless env `ANNABELLA_LIBESPEAK` names one.
pub const LIBRARY: &str = "libespeak-ng.so.1";

/// Length of the blocks the library hands over (milliseconds): the first
/// block of a reply is ready once this much of it is synthesized.
const BUFFER_MS: c_int = 20;

// speak_lib.h
const AUDIO_OUTPUT_SYNCHRONOUS: c_int = 2;
const INITIALIZE_DONT_EXIT: c_int = 0x8000;
const PARAMETER_RATE: c_int = 1;
const POS_CHARACTER: c_int = 1;
const CHARS_UTF8: c_uint = 1;
const EE_OK: c_int = 0;

type SynthCallback = unsafe extern "C" fn(*mut c_short, c_int, *mut c_void) -> c_int;
type Initialize = unsafe extern "C" fn(c_int, c_int, *const c_char, c_int) -> c_int;
type SetSynthCallback = unsafe extern "C" fn(Option<SynthCallback>);
type SetVoiceByName = unsafe extern "C" fn(*const c_char) -> c_int;
type SetParameter = unsafe extern "C" fn(c_int, c_int, c_int) -> c_int;
type Synth = unsafe extern "C" fn(
    *const c_void,
    usize,
    c_uint,
    c_int,
    c_uint,
    c_uint,
    *mut c_uint,
    *mut c_void,
) -> c_int;

/// Why the library cannot be used (the card speaker then runs the
/// espeak-ng program, with one line saying so).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{library}: {detail}")]
pub struct Unavailable {
    /// The file asked for.
    pub library: String,
    /// What went wrong, worded from locale data.
    pub trouble: LibTrouble,
    /// The system's or the library's own (English) words: for logs and
    /// bug reports, never shown to the player.
    pub detail: String,
}

/// What is wrong with libespeak-ng ([`Unavailable::trouble`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LibTrouble {
    /// The file is missing, or is not a library for this system.
    NotLoadable,
    /// It lacks a function annabella calls (too old).
    MissingFunction,
    /// It could not start (its data, espeak-ng-data, missing).
    NoData,
    /// It has no voice of the name asked for.
    NoVoice,
    /// It refused the text.
    Refused,
    /// It is not open (an earlier failure).
    NotOpen,
}

impl LibTrouble {
    /// In `locale`'s words.
    pub fn describe(self, locale: &crate::locale::Locale) -> String {
        use crate::locale::MsgKey;
        let key = match self {
            LibTrouble::NotLoadable => MsgKey::SpeechLibNotLoadable,
            LibTrouble::MissingFunction => MsgKey::SpeechLibMissingFunction,
            LibTrouble::NoData => MsgKey::SpeechLibNoData,
            LibTrouble::NoVoice => MsgKey::SpeechLibNoVoice,
            LibTrouble::Refused => MsgKey::SpeechLibRefused,
            LibTrouble::NotOpen => MsgKey::SpeechLibNotOpen,
        };
        locale.message(key, &[])
    }
}

/// The opened, initialized library.
struct Loaded {
    _lib: libloading::Library,
    set_voice: SetVoiceByName,
    set_parameter: SetParameter,
    synth: Synth,
    rate: u32,
    /// The voice and speed set now (set again only when they change).
    voice: Option<Option<String>>,
    speed: Option<Option<u32>>,
}

/// The library, once opened (`Err`: it could not be, and will not be
/// tried again with the same name).
static STATE: Mutex<Option<(String, Result<Loaded, Unavailable>)>> = Mutex::new(None);

fn state() -> MutexGuard<'static, Option<(String, Result<Loaded, Unavailable>)>> {
    STATE.lock().unwrap_or_else(PoisonError::into_inner)
}

/// The library file to open.
pub fn library_name() -> String {
    crate::environment::get()
        .libespeak
        .clone()
        .unwrap_or_else(|| LIBRARY.to_owned())
}

fn open(name: &str) -> Result<Loaded, Unavailable> {
    let fail = |trouble: LibTrouble, detail: String| Unavailable {
        library: name.to_owned(),
        trouble,
        detail,
    };
    // SAFETY: libespeak-ng's initializers only set up its own state.
    let lib = unsafe { libloading::Library::new(name) }
        .map_err(|e| fail(LibTrouble::NotLoadable, e.to_string()))?;
    // SAFETY: the types are those of speak_lib.h (espeak-ng 1.49 and later).
    let (initialize, set_callback, set_voice, set_parameter, synth) = unsafe {
        let f = |e: libloading::Error| fail(LibTrouble::MissingFunction, e.to_string());
        (
            *lib.get::<Initialize>(b"espeak_Initialize\0").map_err(f)?,
            *lib.get::<SetSynthCallback>(b"espeak_SetSynthCallback\0")
                .map_err(f)?,
            *lib.get::<SetVoiceByName>(b"espeak_SetVoiceByName\0")
                .map_err(f)?,
            *lib.get::<SetParameter>(b"espeak_SetParameter\0")
                .map_err(f)?,
            *lib.get::<Synth>(b"espeak_Synth\0").map_err(f)?,
        )
    };
    // SAFETY: a null path takes the data where the library was built to
    // find it; DONT_EXIT makes a missing data folder an error value.
    let rate = unsafe {
        initialize(
            AUDIO_OUTPUT_SYNCHRONOUS,
            BUFFER_MS,
            std::ptr::null(),
            INITIALIZE_DONT_EXIT,
        )
    };
    let rate = u32::try_from(rate).ok().filter(|&r| r > 0).ok_or_else(|| {
        fail(
            LibTrouble::NoData,
            "espeak_Initialize failed (no espeak-ng-data?)".to_owned(),
        )
    })?;
    // SAFETY: `on_synth` has the callback's signature.
    unsafe { set_callback(Some(on_synth)) };
    Ok(Loaded {
        _lib: lib,
        set_voice,
        set_parameter,
        synth,
        rate,
        voice: None,
        speed: None,
    })
}

type Sink = dyn FnMut(&[i16]) -> bool;

thread_local! {
    /// Where the synthesizing thread's samples go during its
    /// `espeak_Synth` call.
    static SINK: Cell<Option<NonNull<Sink>>> = const { Cell::new(None) };
}

unsafe extern "C" fn on_synth(wav: *mut c_short, n: c_int, _events: *mut c_void) -> c_int {
    let Ok(n) = usize::try_from(n) else { return 0 };
    if wav.is_null() || n == 0 {
        return 0;
    }
    // SAFETY: the library hands `n` samples at `wav`, valid during the call.
    let samples = unsafe { std::slice::from_raw_parts(wav.cast_const(), n) };
    let go = SINK.with(|s| match s.get() {
        // SAFETY: set by `Synthesizer::stream` on this thread for the
        // duration of its `espeak_Synth` call, which this call is within.
        Some(mut sink) => unsafe { sink.as_mut()(samples) },
        None => true,
    });
    c_int::from(!go)
}

/// Clears the sink when the synthesis is over (or unwinds).
struct SinkGuard;

impl Drop for SinkGuard {
    fn drop(&mut self) {
        SINK.with(|s| s.set(None));
    }
}

/// The in-process synthesizer with a chosen voice and speed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Synthesizer {
    voice: Option<String>,
    speed: Option<u32>,
}

impl Synthesizer {
    /// Opens the library (once per process) and sets `voice` (`None`:
    /// espeak-ng's default) and `speed` (words a minute), so that the
    /// first utterance finds them loaded.
    ///
    /// # Errors
    ///
    /// [`Unavailable`] when the library cannot be opened or initialized,
    /// or has no such voice.
    pub fn open(voice: Option<&str>, speed: Option<u32>) -> Result<Synthesizer, Unavailable> {
        let s = Synthesizer {
            voice: voice.map(str::to_owned),
            speed,
        };
        let name = library_name();
        let mut state = state();
        if state.as_ref().is_none_or(|(n, _)| *n != name) {
            *state = Some((name.clone(), open(&name)));
        }
        match state.as_mut() {
            Some((_, Ok(lib))) => s.configure(lib).map(|()| s),
            Some((_, Err(e))) => Err(e.clone()),
            None => Err(Unavailable {
                library: name,
                trouble: LibTrouble::NotOpen,
                detail: String::new(),
            }),
        }
    }

    fn configure(&self, lib: &mut Loaded) -> Result<(), Unavailable> {
        if lib.voice.as_ref() != Some(&self.voice) {
            if let Some(v) = &self.voice {
                let fail = |detail: String| Unavailable {
                    library: library_name(),
                    trouble: LibTrouble::NoVoice,
                    detail,
                };
                let c = CString::new(v.as_str()).map_err(|e| fail(e.to_string()))?;
                // SAFETY: a NUL-terminated name.
                if unsafe { (lib.set_voice)(c.as_ptr()) } != EE_OK {
                    lib.voice = None;
                    return Err(fail(format!("no voice '{v}'")));
                }
            }
            lib.voice = Some(self.voice.clone());
        }
        if lib.speed != Some(self.speed) {
            // espeak-ng's default rate when none is asked for.
            let wpm = self.speed.unwrap_or(175);
            // SAFETY: plain values.
            unsafe { (lib.set_parameter)(PARAMETER_RATE, c_int::try_from(wpm).unwrap_or(175), 0) };
            lib.speed = Some(self.speed);
        }
        Ok(())
    }

    /// Synthesizes `text`, handing each block (at the library's own rate,
    /// the second argument) to `chunk` as soon as it is ready; `chunk`
    /// returns `false` to stop.
    ///
    /// # Errors
    ///
    /// [`Unavailable`] when the library is gone or refuses the text.
    pub fn stream(
        &self,
        text: &str,
        mut chunk: impl FnMut(&[i16], u32) -> bool,
    ) -> Result<(), Unavailable> {
        let mut state = state();
        let Some((_, Ok(lib))) = state.as_mut() else {
            return Err(Unavailable {
                library: library_name(),
                trouble: LibTrouble::NotOpen,
                detail: "not open".to_owned(),
            });
        };
        self.configure(lib)?;
        let rate = lib.rate;
        let text = CString::new(text.replace('\0', " ")).map_err(|e| Unavailable {
            library: library_name(),
            trouble: LibTrouble::Refused,
            detail: e.to_string(),
        })?;
        let mut sink = |s: &[i16]| chunk(s, rate);
        let sink: &mut (dyn FnMut(&[i16]) -> bool + '_) = &mut sink;
        // SAFETY: only the lifetime is erased; the pointer is cleared
        // (SinkGuard) before `sink` goes out of scope.
        let sink: NonNull<Sink> = unsafe {
            std::mem::transmute::<NonNull<dyn FnMut(&[i16]) -> bool + '_>, NonNull<Sink>>(
                NonNull::from(sink),
            )
        };
        SINK.with(|s| s.set(Some(sink)));
        let _guard = SinkGuard;
        let bytes = text.as_bytes_with_nul();
        // SAFETY: NUL-terminated UTF-8 text of the size given; the
        // callback runs on this thread within this call.
        let r = unsafe {
            (lib.synth)(
                bytes.as_ptr().cast(),
                bytes.len(),
                0,
                POS_CHARACTER,
                0,
                CHARS_UTF8,
                std::ptr::null_mut(),
                std::ptr::null_mut(),
            )
        };
        if r == EE_OK {
            Ok(())
        } else {
            Err(Unavailable {
                library: library_name(),
                trouble: LibTrouble::Refused,
                detail: format!("espeak_Synth returned {r}"),
            })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The library as installed (libespeak-ng1 comes with espeak-ng):
    /// speech comes in blocks, the first long before the end, and a
    /// closure returning `false` stops it.
    #[test]
    fn the_library_streams_blocks_and_stops_when_told() {
        let s = match Synthesizer::open(Some("en"), None) {
            Ok(s) => s,
            Err(e) => {
                crate::test_skip::skip(&format!("libespeak-ng: {e}"));
                return;
            }
        };
        let mut blocks = Vec::new();
        s.stream("Knight f3. Black to move. Ten minutes left.", |b, rate| {
            blocks.push((b.len(), rate));
            true
        })
        .expect("synthesized");
        let total: usize = blocks.iter().map(|b| b.0).sum();
        let rate = blocks.first().map_or(0, |b| b.1);
        assert!(rate >= 16_000, "rate {rate}");
        assert!(total > rate as usize, "more than a second: {total}");
        assert!(blocks.len() > 10, "in blocks: {}", blocks.len());
        assert!(blocks[0].0 < rate as usize / 10, "a short first block");
        let mut n = 0;
        s.stream("Knight f3. Black to move. Ten minutes left.", |_, _| {
            n += 1;
            n < 3
        })
        .expect("stopped, not failed");
        assert_eq!(n, 3, "nothing after the stop");
    }

    #[test]
    fn a_missing_library_is_an_error_value() {
        let e = open("/nonexistent/libespeak-ng.so.1")
            .err()
            .expect("missing");
        assert_eq!(e.library, "/nonexistent/libespeak-ng.so.1");
        assert_eq!(e.trouble, LibTrouble::NotLoadable);
        assert!(!e.detail.is_empty());
    }
}
