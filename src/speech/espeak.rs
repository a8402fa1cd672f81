//! espeak-ng adapter: renders speech to 16 kHz mono samples (WAV file,
//! memory buffer, or a stream of chunks), or plays it on the sound card.
//!
//! espeak-ng is run as a program (`espeak-ng -v LANG --stdout -- TEXT`);
//! its 22 050 Hz output is resampled in Rust ([`resample`]), so no other
//! tool is needed.

use std::io::{BufWriter, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};

use super::{Failure, Priority, Speaker, SpeechError, Voice};
use crate::vocab::Utterance;

/// The sample rate of everything this module renders (what speech
/// recognizers such as Vosk expect).
pub const SAMPLE_RATE: u32 = 16_000;

/// The program run, unless `ANNABELLA_ESPEAK` names another.
pub const PROGRAM: &str = "espeak-ng";

/// espeak-ng with a chosen voice and rate.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EspeakNg {
    program: String,
    voice: Option<String>,
    speed: Option<u32>,
}

/// espeak-ng's words per minute for a rate from -100 to 100 (its own range
/// is 80 to 450, default 175).
pub fn words_per_minute(rate: i32) -> u32 {
    let rate = rate.clamp(-100, 100);
    let wpm = if rate < 0 {
        175 + rate * (175 - 80) / 100
    } else {
        175 + rate * (450 - 175) / 100
    };
    u32::try_from(wpm).unwrap_or(175)
}

/// A WAV writer's error as the system's: its I/O error, else "invalid
/// argument" (a format the writer refuses; the program writes only one).
fn wav_error(e: &hound::Error) -> crate::input::SystemError {
    match e {
        hound::Error::IoError(io) => io.into(),
        _ => std::io::Error::from_raw_os_error(libc::EINVAL).into(),
    }
}

fn spawn_error(program: &str, e: &std::io::Error) -> SpeechError {
    SpeechError::NoEngine {
        program: program.to_owned(),
        error: e.into(),
    }
}

impl EspeakNg {
    /// Checks that espeak-ng runs and has a voice for `voice.language` (or
    /// the named voice). Without the voice it still works with espeak-ng's
    /// default voice; the second value then says why, for a one-line
    /// notice.
    ///
    /// # Errors
    ///
    /// [`SpeechError::NoEngine`] when the program cannot be run.
    pub fn probe(voice: &Voice) -> Result<(EspeakNg, Option<SpeechError>), SpeechError> {
        let program = crate::environment::get()
            .espeak
            .clone()
            .unwrap_or_else(|| PROGRAM.to_owned());
        let wanted = voice.name.clone().unwrap_or_else(|| voice.language.clone());
        let status = Command::new(&program)
            .args(["-q", "-v", &wanted, "--", ""])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .map_err(|e| spawn_error(&program, &e))?;
        let speed = voice.rate.map(words_per_minute);
        if status.success() {
            Ok((
                EspeakNg {
                    program,
                    voice: Some(wanted),
                    speed,
                },
                None,
            ))
        } else {
            Ok((
                EspeakNg {
                    program,
                    voice: None,
                    speed,
                },
                Some(SpeechError::NoVoice {
                    engine: "espeak-ng".to_owned(),
                    language: wanted,
                }),
            ))
        }
    }

    /// The voice used (`None`: espeak-ng's default).
    pub fn voice(&self) -> Option<&str> {
        self.voice.as_deref()
    }

    /// The speed asked for (words a minute; `None`: espeak-ng's default).
    pub fn speed(&self) -> Option<u32> {
        self.speed
    }

    fn command(&self, text: &str, to_stdout: bool) -> Command {
        let mut cmd = Command::new(&self.program);
        if let Some(v) = &self.voice {
            cmd.args(["-v", v]);
        }
        if let Some(s) = self.speed {
            cmd.args(["-s", &s.to_string()]);
        }
        if to_stdout {
            cmd.arg("--stdout");
        }
        cmd.arg("--").arg(text);
        cmd.stdin(Stdio::null()).stderr(Stdio::piped());
        cmd
    }

    /// Streams the speech of `text` as espeak-ng produces it: `chunk` gets
    /// the samples at espeak-ng's own rate (the second argument) as they
    /// arrive, and returns `false` to stop early (the program is then
    /// killed).
    ///
    /// # Errors
    ///
    /// [`SpeechError::NoEngine`] or [`SpeechError::Failed`] (bad output).
    pub fn stream(
        &self,
        text: &str,
        mut chunk: impl FnMut(&[i16], u32) -> bool,
    ) -> Result<(), SpeechError> {
        let mut child = self
            .command(text, true)
            .stdout(Stdio::piped())
            .spawn()
            .map_err(|e| spawn_error(&self.program, &e))?;
        let result = read_stream(&mut child, &mut chunk);
        if result.as_ref().is_ok_and(|finished| !finished) {
            let _ = child.kill();
        }
        let status = child
            .wait()
            .map_err(|e| SpeechError::Failed(Failure::from(&e)))?;
        let finished = result?;
        if finished && !status.success() {
            let mut err = String::new();
            if let Some(mut e) = child.stderr.take() {
                let _ = e.read_to_string(&mut err);
            }
            return Err(SpeechError::Failed(Failure::Exited {
                program: self.program.clone(),
                code: status.code(),
                detail: err.trim().to_owned(),
            }));
        }
        Ok(())
    }

    /// Renders `text` to 16 kHz mono samples.
    ///
    /// # Errors
    ///
    /// As [`stream`](Self::stream).
    pub fn render(&self, text: &str) -> Result<Vec<i16>, SpeechError> {
        let mut samples = Vec::new();
        let mut rate = SAMPLE_RATE;
        self.stream(text, |s, r| {
            samples.extend_from_slice(s);
            rate = r;
            true
        })?;
        Ok(resample(&samples, rate, SAMPLE_RATE))
    }

    /// Starts playing `text` on the sound card (espeak-ng's own output).
    /// Its error output is piped (never shown on the terminal): see
    /// [`playback_error`].
    ///
    /// # Errors
    ///
    /// [`SpeechError::NoEngine`].
    pub fn play(&self, text: &str) -> Result<Child, SpeechError> {
        self.command(text, false)
            .stdout(Stdio::null())
            .spawn()
            .map_err(|e| spawn_error(&self.program, &e))
    }
}

/// Reads espeak-ng's WAV stream. `Ok(true)`: read to the end; `Ok(false)`:
/// the callback stopped it.
fn read_stream(
    child: &mut Child,
    chunk: &mut impl FnMut(&[i16], u32) -> bool,
) -> Result<bool, SpeechError> {
    let Some(mut out) = child.stdout.take() else {
        return Err(SpeechError::Failed(Failure::NoOutput));
    };
    let mut header = Vec::with_capacity(64);
    let mut buf = vec![0u8; 4096];
    let mut rate = None;
    let mut carry: Option<u8> = None;
    let mut samples = Vec::with_capacity(2048);
    loop {
        let n = out
            .read(&mut buf)
            .map_err(|e| SpeechError::Failed(Failure::from(&e)))?;
        if n == 0 {
            return if rate.is_some() || header.is_empty() {
                Ok(true)
            } else {
                Err(SpeechError::Failed(Failure::NotWav("not a WAV stream")))
            };
        }
        let mut data = &buf[..n];
        let r = match rate {
            Some(r) => r,
            None => {
                header.extend_from_slice(data);
                match parse_wav_header(&header)? {
                    None => continue,
                    Some((r, offset)) => {
                        rate = Some(r);
                        // The rest of the header buffer is audio.
                        let rest = header.split_off(offset);
                        samples.clear();
                        push_samples(&rest, &mut carry, &mut samples);
                        if !samples.is_empty() && !chunk(&samples, r) {
                            return Ok(false);
                        }
                        data = &[];
                        r
                    }
                }
            }
        };
        if !data.is_empty() {
            samples.clear();
            push_samples(data, &mut carry, &mut samples);
            if !samples.is_empty() && !chunk(&samples, r) {
                return Ok(false);
            }
        }
    }
}

fn push_samples(bytes: &[u8], carry: &mut Option<u8>, out: &mut Vec<i16>) {
    let mut bytes = bytes;
    if let Some(lo) = carry.take() {
        if let Some((&hi, rest)) = bytes.split_first() {
            out.push(i16::from_le_bytes([lo, hi]));
            bytes = rest;
        } else {
            *carry = Some(lo);
            return;
        }
    }
    let mut pairs = bytes.chunks_exact(2);
    for p in &mut pairs {
        out.push(i16::from_le_bytes([p[0], p[1]]));
    }
    if let [last] = pairs.remainder() {
        *carry = Some(*last);
    }
}

/// Reads a RIFF/WAVE header of 16-bit mono PCM as streamed by espeak-ng
/// (whose sizes are placeholders). `Ok(None)`: more bytes are needed;
/// `Ok(Some((rate, offset)))`: the sample rate and where the samples start.
///
/// # Errors
///
/// [`SpeechError::Failed`] for anything but 16-bit mono PCM WAV.
pub fn parse_wav_header(b: &[u8]) -> Result<Option<(u32, usize)>, SpeechError> {
    let bad = |what: &'static str| SpeechError::Failed(Failure::NotWav(what));
    if b.len() < 12 {
        return Ok(None);
    }
    if &b[0..4] != b"RIFF" || &b[8..12] != b"WAVE" {
        return Err(bad("not RIFF/WAVE"));
    }
    let mut pos = 12;
    let mut rate = None;
    loop {
        let Some(head) = b.get(pos..pos + 8) else {
            return Ok(None);
        };
        let id = &head[0..4];
        let size = u32::from_le_bytes([head[4], head[5], head[6], head[7]]);
        let body = pos + 8;
        if id == b"data" {
            return match rate {
                Some(r) => Ok(Some((r, body))),
                None => Err(bad("data before fmt")),
            };
        }
        let size = usize::try_from(size).map_err(|_| bad("chunk size"))?;
        let Some(chunk) = b.get(body..body + size) else {
            return Ok(None);
        };
        if id == b"fmt " {
            if chunk.len() < 16 {
                return Err(bad("short fmt chunk"));
            }
            let format = u16::from_le_bytes([chunk[0], chunk[1]]);
            let channels = u16::from_le_bytes([chunk[2], chunk[3]]);
            let r = u32::from_le_bytes([chunk[4], chunk[5], chunk[6], chunk[7]]);
            let bits = u16::from_le_bytes([chunk[14], chunk[15]]);
            if format != 1 || channels != 1 || bits != 16 || r == 0 {
                return Err(bad("not 16-bit mono PCM"));
            }
            rate = Some(r);
        }
        pos = body + size + (size & 1);
    }
}

/// Resamples mono `input` from `from` Hz to `to` Hz through the same
/// anti-aliased resampler as every stream of annabella's
/// ([`crate::voice::rate`]): `round(len * to / from)` samples, the filter's
/// delay taken off.
pub fn resample(input: &[i16], from: u32, to: u32) -> Vec<i16> {
    if from == to || input.is_empty() || from == 0 || to == 0 {
        return input.to_vec();
    }
    let x: Vec<f32> = input.iter().map(|&s| f32::from(s) / 32_768.0).collect();
    crate::voice::rate::resample(&x, from, to)
        .iter()
        .map(|s| {
            (s * 32_768.0)
                .round()
                .clamp(f32::from(i16::MIN), f32::from(i16::MAX)) as i16
        })
        .collect()
}

/// Writes 16 kHz mono 16-bit samples as a WAV file.
///
/// # Errors
///
/// [`SpeechError::File`].
pub fn write_wav(path: &Path, samples: &[i16]) -> Result<(), SpeechError> {
    let file_err = |e: &hound::Error| SpeechError::File {
        path: path.to_owned(),
        error: wav_error(e),
    };
    let mut w = hound::WavWriter::create(path, wav_spec()).map_err(|e| file_err(&e))?;
    for s in samples {
        w.write_sample(*s).map_err(|e| file_err(&e))?;
    }
    w.finalize().map_err(|e| file_err(&e))
}

fn wav_spec() -> hound::WavSpec {
    hound::WavSpec {
        channels: 1,
        sample_rate: SAMPLE_RATE,
        bits_per_sample: 16,
        sample_format: hound::SampleFormat::Int,
    }
}

/// Silence put between utterances in a file: 0.3 s.
const GAP: usize = (SAMPLE_RATE as usize) * 3 / 10;

/// Speaks into one WAV file: every utterance is appended (with a short
/// silence between), and the file is kept valid after each one, so a crash
/// loses nothing already said.
pub struct WavFileSpeaker {
    engine: EspeakNg,
    path: PathBuf,
    writer: hound::WavWriter<BufWriter<std::fs::File>>,
    samples: u64,
}

impl std::fmt::Debug for WavFileSpeaker {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("WavFileSpeaker")
            .field("engine", &self.engine)
            .field("path", &self.path)
            .field("samples", &self.samples)
            .finish_non_exhaustive()
    }
}

impl WavFileSpeaker {
    /// Creates (or replaces) `path`: the WAV file is begun under a
    /// temporary name in the same folder, then renamed into place, and
    /// written on from there (whether `path` may be written is the
    /// caller's check: [`crate::output::check`]).
    ///
    /// # Errors
    ///
    /// [`SpeechError::File`].
    pub fn create(engine: EspeakNg, path: &Path) -> Result<WavFileSpeaker, SpeechError> {
        let file_err = |e: &std::io::Error| SpeechError::File {
            path: path.to_owned(),
            error: e.into(),
        };
        let dir = path
            .parent()
            .filter(|d| !d.as_os_str().is_empty())
            .unwrap_or(Path::new("."));
        let tmp = dir.join(format!(".annabella-{}.wav.tmp", std::process::id()));
        let begun = (|| {
            let file = std::fs::OpenOptions::new()
                .write(true)
                .create_new(true)
                .open(&tmp)
                .map_err(|e| file_err(&e))?;
            let wav_err = |e: hound::Error| SpeechError::File {
                path: path.to_owned(),
                error: wav_error(&e),
            };
            let mut writer =
                hound::WavWriter::new(BufWriter::new(file), wav_spec()).map_err(wav_err)?;
            writer.flush().map_err(wav_err)?;
            std::fs::rename(&tmp, path).map_err(|e| file_err(&e))?;
            Ok(writer)
        })();
        if begun.is_err() {
            let _ = std::fs::remove_file(&tmp);
        }
        let writer = begun?;
        Ok(WavFileSpeaker {
            engine,
            path: path.to_owned(),
            writer,
            samples: 0,
        })
    }

    /// Samples written so far.
    pub fn samples(&self) -> u64 {
        self.samples
    }

    /// Seconds of audio written so far.
    pub fn seconds(&self) -> f64 {
        self.samples as f64 / f64::from(SAMPLE_RATE)
    }

    fn file_err(&self, e: &hound::Error) -> SpeechError {
        SpeechError::File {
            path: self.path.clone(),
            error: wav_error(e),
        }
    }

    /// Finishes the file.
    ///
    /// # Errors
    ///
    /// [`SpeechError::File`].
    pub fn finish(self) -> Result<(), SpeechError> {
        let path = self.path.clone();
        self.writer.finalize().map_err(|e| SpeechError::File {
            path,
            error: wav_error(&e),
        })
    }
}

impl Speaker for WavFileSpeaker {
    fn speak(&mut self, u: &Utterance, _priority: Priority) -> Result<(), SpeechError> {
        let samples = self.engine.render(&u.spoken)?;
        if self.samples > 0 {
            for _ in 0..GAP {
                self.writer
                    .write_sample(0i16)
                    .map_err(|e| self.file_err(&e))?;
            }
            self.samples += GAP as u64;
        }
        for s in &samples {
            self.writer
                .write_sample(*s)
                .map_err(|e| self.file_err(&e))?;
        }
        self.samples += samples.len() as u64;
        self.writer.flush().map_err(|e| self.file_err(&e))
    }
    fn stop(&mut self) {}
    fn name(&self) -> &str {
        "espeak-ng (file)"
    }
}

/// What espeak-ng's error output says about a failed playback (it exits 0
/// even when no audio device can be opened): `None` when it played.
pub fn playback_error(stderr: &str) -> Option<SpeechError> {
    let lines: Vec<&str> = stderr
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    let failed = lines.iter().any(|l| {
        let l = l.to_ascii_lowercase();
        l.starts_with("error") || l.contains("unknown pcm") || l.contains("cannot open")
    });
    failed.then(|| SpeechError::NoAudio {
        engine: "espeak-ng".to_owned(),
        detail: lines.last().copied().unwrap_or("").to_owned(),
    })
}

/// Plays through espeak-ng's own audio output, one utterance at a time
/// (the fallback when speech-dispatcher is missing). The program's error
/// output is read on a thread of its own, which wakes the front end's loop
/// when the program ends (the utterance is over).
#[derive(Debug)]
pub struct Player {
    engine: EspeakNg,
    child: Option<Child>,
    /// The error output of the utterance under way, read to its end.
    stderr: Option<std::thread::JoinHandle<String>>,
    /// When the utterance under way started and how long it may take.
    deadline: Option<(std::time::Instant, std::time::Duration)>,
    error: Option<SpeechError>,
    waker: crate::wake::Waker,
}

impl Player {
    /// Plays with `engine`.
    pub fn new(engine: EspeakNg) -> Player {
        Player {
            engine,
            child: None,
            stderr: None,
            deadline: None,
            error: None,
            waker: crate::wake::Waker::default(),
        }
    }

    /// Collects a finished child's error output.
    fn check(&mut self, mut child: Child) {
        let _ = child.wait();
        let err = self
            .stderr
            .take()
            .and_then(|h| h.join().ok())
            .unwrap_or_default();
        if let Some(e) = playback_error(&err) {
            self.error = Some(e);
        }
    }
}

impl Speaker for Player {
    fn speak(&mut self, u: &Utterance, _priority: Priority) -> Result<(), SpeechError> {
        self.stop();
        let mut child = self.engine.play(&u.spoken)?;
        // Its error output ends when it does: then the loop is woken.
        self.stderr = child.stderr.take().and_then(|mut e| {
            let waker = self.waker.clone();
            std::thread::Builder::new()
                .name("espeak-ng-stderr".to_owned())
                .spawn(move || {
                    let mut err = String::new();
                    let _ = e.read_to_string(&mut err);
                    waker.wake();
                    err
                })
                .ok()
        });
        self.child = Some(child);
        let limit = super::dispatcher::speaking_limit(&u.spoken);
        self.deadline = Some((std::time::Instant::now(), limit));
        Ok(())
    }
    fn stop(&mut self) {
        self.deadline = None;
        if let Some(mut c) = self.child.take() {
            let _ = c.kill();
            let _ = c.wait();
        }
        self.stderr = None;
    }
    fn is_speaking(&mut self) -> bool {
        let done = match &mut self.child {
            Some(c) => !matches!(c.try_wait(), Ok(None)),
            None => return false,
        };
        // An audio device that never takes the sound: stopped at the
        // utterance's time limit.
        if !done
            && let Some((since, limit)) = self.deadline
            && since.elapsed() > limit
        {
            self.stop();
            self.error = Some(SpeechError::Stuck {
                engine: "espeak-ng".to_owned(),
                seconds: limit.as_secs(),
            });
            return false;
        }
        if done && let Some(child) = self.child.take() {
            self.check(child);
        }
        !done
    }
    fn name(&self) -> &str {
        "espeak-ng"
    }
    fn take_error(&mut self) -> Option<SpeechError> {
        self.error.take()
    }
    fn set_waker(&mut self, waker: crate::wake::Waker) {
        self.waker = waker;
    }
    fn deadline(&mut self) -> Option<std::time::Instant> {
        self.child.as_ref()?;
        self.deadline
            .map(|(since, limit)| since + limit + std::time::Duration::from_millis(1))
    }
}

impl Drop for Player {
    fn drop(&mut self) {
        self.stop();
    }
}

/// Root mean square and peak of samples (for checks of rendered audio).
pub fn loudness(samples: &[i16]) -> (f64, i32) {
    if samples.is_empty() {
        return (0.0, 0);
    }
    let sum: f64 = samples.iter().map(|s| f64::from(*s).powi(2)).sum();
    let peak = samples
        .iter()
        .map(|s| i32::from(*s).abs())
        .max()
        .unwrap_or(0);
    ((sum / samples.len() as f64).sqrt(), peak)
}

/// Writes `samples` as raw little-endian bytes (for piping to other tools).
///
/// # Errors
///
/// What the writer says.
pub fn write_raw(out: &mut impl Write, samples: &[i16]) -> std::io::Result<()> {
    for s in samples {
        out.write_all(&s.to_le_bytes())?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sine(freq: f64, rate: u32, secs: f64) -> Vec<i16> {
        let n = (f64::from(rate) * secs) as usize;
        (0..n)
            .map(|i| {
                let t = i as f64 / f64::from(rate);
                (10000.0 * (2.0 * std::f64::consts::PI * freq * t).sin()) as i16
            })
            .collect()
    }

    /// Amplitude of `freq` in `x` (single-bin DFT), normalized to the sine
    /// amplitude.
    fn amplitude(x: &[i16], rate: u32, freq: f64) -> f64 {
        let (mut re, mut im) = (0.0, 0.0);
        for (i, s) in x.iter().enumerate() {
            let ph = 2.0 * std::f64::consts::PI * freq * i as f64 / f64::from(rate);
            re += f64::from(*s) * ph.cos();
            im += f64::from(*s) * ph.sin();
        }
        2.0 * (re * re + im * im).sqrt() / x.len() as f64
    }

    #[test]
    fn resampling_keeps_length_and_a_tone_in_the_passband() {
        let x = sine(1000.0, 22050, 1.0);
        let y = resample(&x, 22050, 16000);
        assert_eq!(y.len(), 16000);
        // Ignore the filter's edges.
        let mid = &y[400..15600];
        let a = amplitude(mid, 16000, 1000.0);
        assert!((a - 10000.0).abs() < 300.0, "1 kHz amplitude {a}");
    }

    #[test]
    fn resampling_removes_what_the_new_rate_cannot_carry() {
        // 10 kHz is above the new Nyquist frequency (8 kHz): it must not
        // fold back as a 6 kHz alias.
        let x = sine(10_000.0, 22050, 1.0);
        let y = resample(&x, 22050, 16000);
        let mid = &y[400..15600];
        let alias = amplitude(mid, 16000, 6000.0);
        assert!(alias < 200.0, "alias amplitude {alias}");
        let (rms, _) = loudness(mid);
        assert!(rms < 200.0, "rms {rms}");
    }

    #[test]
    fn same_rate_is_a_copy() {
        let x = vec![1, -2, 3];
        assert_eq!(resample(&x, 16000, 16000), x);
        assert!(resample(&[], 22050, 16000).is_empty());
    }

    #[test]
    fn wav_headers_stream_in_pieces() {
        let mut h = Vec::new();
        h.extend_from_slice(b"RIFF");
        h.extend_from_slice(&0x7fff_f024u32.to_le_bytes());
        h.extend_from_slice(b"WAVEfmt ");
        h.extend_from_slice(&16u32.to_le_bytes());
        h.extend_from_slice(&1u16.to_le_bytes());
        h.extend_from_slice(&1u16.to_le_bytes());
        h.extend_from_slice(&22050u32.to_le_bytes());
        h.extend_from_slice(&44100u32.to_le_bytes());
        h.extend_from_slice(&2u16.to_le_bytes());
        h.extend_from_slice(&16u16.to_le_bytes());
        h.extend_from_slice(b"data");
        h.extend_from_slice(&0x7fff_f000u32.to_le_bytes());
        for cut in 0..h.len() {
            assert_eq!(parse_wav_header(&h[..cut]), Ok(None), "cut at {cut}");
        }
        assert_eq!(parse_wav_header(&h), Ok(Some((22050, 44))));
        let mut stereo = h.clone();
        stereo[22] = 2;
        assert!(parse_wav_header(&stereo).is_err());
        assert!(parse_wav_header(b"RIFX\0\0\0\0WAVE").is_err());
    }

    #[test]
    fn samples_split_across_reads_are_joined() {
        let mut carry = None;
        let mut out = Vec::new();
        push_samples(&[0x01, 0x02, 0x03], &mut carry, &mut out);
        push_samples(&[0x04], &mut carry, &mut out);
        push_samples(&[0xff, 0x7f], &mut carry, &mut out);
        assert_eq!(out, [0x0201, 0x0403, 0x7fff]);
        assert_eq!(carry, None);
    }

    #[test]
    fn playback_errors_are_recognized() {
        let headless = "ALSA lib confmisc.c:855:(parse_card) cannot find card '0'\n\
                        ALSA lib pcm.c:2666:(snd_pcm_open_noupdate) Unknown PCM default\n\
                        error: No such file or directory\n";
        let Some(SpeechError::NoAudio { detail, .. }) = playback_error(headless) else {
            panic!("not recognized")
        };
        assert_eq!(detail, "error: No such file or directory");
        assert_eq!(playback_error(""), None);
        assert_eq!(playback_error("\n  \n"), None);
    }

    #[test]
    fn rates_map_to_words_per_minute() {
        assert_eq!(words_per_minute(0), 175);
        assert_eq!(words_per_minute(-100), 80);
        assert_eq!(words_per_minute(100), 450);
        assert_eq!(words_per_minute(1000), 450);
    }
}
