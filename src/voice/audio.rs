//! Audio in: WAV files (a streaming reader of its own, with limits), read
//! as a microphone is: in device-sized blocks at the file's rate and
//! channel count through the same [`InputConverter`] (the stateful,
//! anti-aliased conversion to 16 kHz mono of [`super::rate`]); and an
//! energy-based voice-activity detector (pure).
//!
//! A WAV file is untrusted: nothing is allocated from a length its header
//! claims, samples are streamed and mixed down as they are read, and the
//! sample rate, channels, sample format and duration must be within what
//! a spoken move needs ([`MIN_RATE`]–[`MAX_RATE`] Hz, at most
//! [`MAX_CHANNELS`] channels, at most [`MAX_SECONDS`] seconds), so reading
//! any file takes bounded time and memory.

use std::io::{self, Read, Seek, SeekFrom};
use std::path::Path;

use super::rate::InputConverter;
use super::recognizer::SAMPLE_RATE;
use crate::fsutil::{self, InputError};
use crate::locale::Locale;
use crate::locale::MsgKey;

/// The lowest sample rate read (telephone quality).
pub const MIN_RATE: u32 = 8_000;
/// The highest sample rate read.
pub const MAX_RATE: u32 = 192_000;
/// The most channels read (they are mixed down).
pub const MAX_CHANNELS: u16 = 8;
/// The longest recording read: a spoken move takes seconds.
pub const MAX_SECONDS: u32 = 60;
/// The most chunks before the audio (a real file has a handful).
const MAX_CHUNKS: usize = 1024;

/// The blocks a WAV file is read in, in frames: an odd size, as a sound
/// card's callback delivers them (the microphone's path, block edges and
/// all).
pub const DEVICE_BLOCK_FRAMES: usize = 1111;

/// Why a WAV file could not be used.
#[derive(Debug, thiserror::Error)]
pub enum WavError {
    /// Not a regular file, or not readable.
    #[error("{0}")]
    File(#[from] InputError),
    /// Not a WAV file at all.
    #[error("not a WAV file")]
    NotWav,
    /// A WAV file whose header is damaged or incomplete.
    #[error("the WAV header is damaged")]
    BadHeader,
    /// A sample rate outside [`MIN_RATE`]..=[`MAX_RATE`].
    #[error("sample rate {0} Hz")]
    Rate(u32),
    /// No channels, or more than [`MAX_CHANNELS`].
    #[error("{0} channels")]
    Channels(u16),
    /// A sample format this reader does not convert (format tag, bits).
    #[error("unsupported sample format {tag} with {bits} bits")]
    Format {
        /// The WAV format tag (1 PCM, 3 float, …).
        tag: u16,
        /// Bits per sample.
        bits: u16,
    },
    /// Longer than [`MAX_SECONDS`].
    #[error("longer than {MAX_SECONDS} s")]
    TooLong,
    /// The file ends before the length its header gives (cut short).
    #[error("the file is cut short after {0} samples")]
    Truncated(usize),
}

impl WavError {
    /// One localized phrase for the `{error}` of `voice.wav_error`: what
    /// is wrong, with the limit that was passed.
    pub fn describe(&self, locale: &Locale) -> String {
        let n = |v: u32| v.to_string();
        match self {
            WavError::File(e) => e.describe(locale),
            WavError::NotWav => locale.message(MsgKey::WavNotWav, &[]),
            WavError::BadHeader => locale.message(MsgKey::WavBadHeader, &[]),
            WavError::Rate(rate) => locale.message(
                MsgKey::WavRate,
                &[
                    ("rate", &n(*rate)),
                    ("min", &n(MIN_RATE)),
                    ("max", &n(MAX_RATE)),
                ],
            ),
            WavError::Channels(c) => locale.message(
                MsgKey::WavChannels,
                &[
                    ("channels", &c.to_string()),
                    ("max", &MAX_CHANNELS.to_string()),
                ],
            ),
            WavError::Format { tag, bits } => locale.message(
                MsgKey::WavFormat,
                &[("format", &tag.to_string()), ("bits", &bits.to_string())],
            ),
            WavError::TooLong => {
                locale.message(MsgKey::WavTooLong, &[("seconds", &n(MAX_SECONDS))])
            }
            WavError::Truncated(samples) => {
                locale.message(MsgKey::WavCutShort, &[("samples", &samples.to_string())])
            }
        }
    }

    /// The whole line for the player: `voice.wav_error` naming the file.
    pub fn line(&self, locale: &Locale, file: &Path) -> String {
        locale.message(
            MsgKey::VoiceWavError,
            &[
                ("file", &file.display().to_string()),
                ("error", &self.describe(locale)),
            ],
        )
    }
}

/// Reads a WAV file as 16 kHz mono 16-bit samples: its blocks of
/// [`DEVICE_BLOCK_FRAMES`] go through an [`InputConverter`] as a
/// microphone's would (channels mixed down, other rates resampled). Only a
/// regular file is opened (a FIFO or a device is refused at once).
///
/// # Errors
///
/// See [`WavError`].
pub fn read_wav(path: &Path) -> Result<Vec<i16>, WavError> {
    read_wav_blocks(path, DEVICE_BLOCK_FRAMES)
}

/// As [`read_wav`], in blocks of `frames` frames.
///
/// # Errors
///
/// See [`WavError`].
pub fn read_wav_blocks(path: &Path, frames: usize) -> Result<Vec<i16>, WavError> {
    let file = fsutil::open_regular(path)?;
    read_wav_from_blocks(io::BufReader::new(file), frames)
}

/// How the samples of a WAV file are stored.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Layout {
    rate: u32,
    channels: u16,
    /// Bytes per sample of one channel.
    width: usize,
    float: bool,
}

fn u16_at(b: &[u8], at: usize) -> u16 {
    u16::from_le_bytes([b[at], b[at + 1]])
}

fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]])
}

/// Reads exactly `buf.len()` bytes; `Ok(false)` at the end of the input.
fn fill(r: &mut impl Read, buf: &mut [u8]) -> Result<bool, WavError> {
    match r.read_exact(buf) {
        Ok(()) => Ok(true),
        Err(e) if e.kind() == io::ErrorKind::UnexpectedEof => Ok(false),
        Err(e) => Err(WavError::File(InputError::Io(e))),
    }
}

/// The `fmt ` chunk (16 to 40 bytes) as a layout within the limits.
fn layout(fmt: &[u8]) -> Result<Layout, WavError> {
    if fmt.len() < 16 {
        return Err(WavError::BadHeader);
    }
    let mut tag = u16_at(fmt, 0);
    let channels = u16_at(fmt, 2);
    let rate = u32_at(fmt, 4);
    let block = usize::from(u16_at(fmt, 12));
    let bits = u16_at(fmt, 14);
    if tag == 0xFFFE {
        // WAVE_FORMAT_EXTENSIBLE: the real format is the first two bytes
        // of the sub-format GUID.
        if fmt.len() < 40 {
            return Err(WavError::BadHeader);
        }
        tag = u16_at(fmt, 24);
    }
    let float = match (tag, bits) {
        (1, 8 | 16 | 24 | 32) => false,
        (3, 32 | 64) => true,
        _ => return Err(WavError::Format { tag, bits }),
    };
    if channels == 0 || channels > MAX_CHANNELS {
        return Err(WavError::Channels(channels));
    }
    if !(MIN_RATE..=MAX_RATE).contains(&rate) {
        return Err(WavError::Rate(rate));
    }
    let width = usize::from(bits / 8);
    if block != width * usize::from(channels) {
        return Err(WavError::BadHeader);
    }
    Ok(Layout {
        rate,
        channels,
        width,
        float,
    })
}

/// One sample (little-endian) as −1..1.
fn sample(b: &[u8], l: &Layout) -> f32 {
    match (l.float, l.width) {
        (true, 4) => f32::from_le_bytes([b[0], b[1], b[2], b[3]]),
        (true, _) => f64::from_le_bytes([b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7]]) as f32,
        (false, 1) => (f32::from(b[0]) - 128.0) / 128.0,
        (false, 2) => f32::from(i16::from_le_bytes([b[0], b[1]])) / 32_768.0,
        (false, 3) => (i32::from_le_bytes([0, b[0], b[1], b[2]]) >> 8) as f32 / 8_388_608.0,
        (false, _) => i32::from_le_bytes([b[0], b[1], b[2], b[3]]) as f32 / 2_147_483_648.0,
    }
}

/// Reads WAV data from `r` (see [`read_wav`]): the work and memory are
/// bounded by [`MAX_SECONDS`] of audio at the file's rate, whatever its
/// header claims.
///
/// # Errors
///
/// See [`WavError`].
pub fn read_wav_from(r: impl Read + Seek) -> Result<Vec<i16>, WavError> {
    read_wav_from_blocks(r, DEVICE_BLOCK_FRAMES)
}

/// As [`read_wav_from`], in blocks of `frames` frames.
///
/// # Errors
///
/// See [`WavError`].
pub fn read_wav_from_blocks(mut r: impl Read + Seek, frames: usize) -> Result<Vec<i16>, WavError> {
    let mut head = [0u8; 12];
    if !fill(&mut r, &mut head)? || &head[0..4] != b"RIFF" || &head[8..12] != b"WAVE" {
        return Err(WavError::NotWav);
    }
    let mut format: Option<Layout> = None;
    for _ in 0..MAX_CHUNKS {
        let mut h = [0u8; 8];
        if !fill(&mut r, &mut h)? {
            // The end before any audio.
            return Err(WavError::BadHeader);
        }
        let size = u32_at(&h, 4);
        match &h[0..4] {
            b"fmt " => {
                if format.is_some() || !(16..=40).contains(&size) {
                    return Err(WavError::BadHeader);
                }
                let mut fmt = [0u8; 40];
                let fmt = &mut fmt[..size as usize];
                if !fill(&mut r, fmt)? {
                    return Err(WavError::BadHeader);
                }
                format = Some(layout(fmt)?);
                if size % 2 == 1 {
                    r.seek(SeekFrom::Current(1)).map_err(InputError::Io)?;
                }
            }
            b"data" => {
                let l = format.ok_or(WavError::BadHeader)?;
                return read_samples(&mut r, &l, size, frames.max(1));
            }
            _ => {
                let skip = i64::from(size) + i64::from(size % 2);
                r.seek(SeekFrom::Current(skip)).map_err(InputError::Io)?;
            }
        }
    }
    Err(WavError::BadHeader)
}

/// The `data` chunk of `size` bytes (`u32::MAX`: unknown, as streaming
/// recorders write it; read to the end) as 16 kHz mono, fed to the
/// converter in blocks of `block` frames.
fn read_samples(
    r: &mut impl Read,
    l: &Layout,
    size: u32,
    block: usize,
) -> Result<Vec<i16>, WavError> {
    let frame = l.width * usize::from(l.channels);
    let most = u64::from(MAX_SECONDS) * u64::from(l.rate);
    let declared = (size != u32::MAX).then(|| u64::from(size) / frame as u64);
    if declared.is_some_and(|frames| frames > most) {
        return Err(WavError::TooLong);
    }
    let wanted = declared.unwrap_or(most + 1);
    let mut converter =
        InputConverter::new(l.rate, usize::from(l.channels)).map_err(|_| WavError::Rate(l.rate))?;
    // Grows with the samples actually read, never with the header's claim.
    let mut out: Vec<i16> = Vec::new();
    let per_block = block * usize::from(l.channels);
    let mut device = Vec::with_capacity(per_block);
    let mut buf = vec![0u8; frame * 4096];
    let mut got: u64 = 0;
    let mut pending = 0usize;
    'read: while got < wanted {
        let frames_left = usize::try_from(wanted - got).unwrap_or(usize::MAX);
        let room = buf.len().min(frames_left.saturating_mul(frame));
        let n = match r.read(&mut buf[pending..room.max(pending + 1)]) {
            Ok(0) => break 'read,
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(WavError::File(InputError::Io(e))),
        };
        let filled = pending + n;
        let whole = filled / frame * frame;
        for f in buf[..whole].chunks_exact(frame) {
            device.extend(f.chunks_exact(l.width).map(|s| sample(s, l)));
            if device.len() >= per_block {
                out.extend_from_slice(converter.push(&device));
                device.clear();
            }
        }
        got += (whole / frame) as u64;
        if got > most {
            return Err(WavError::TooLong);
        }
        buf.copy_within(whole..filled, 0);
        pending = filled - whole;
    }
    if declared.is_some_and(|frames| got < frames) {
        return Err(WavError::Truncated(
            usize::try_from(got).unwrap_or(usize::MAX),
        ));
    }
    out.extend_from_slice(converter.push(&device));
    out.extend_from_slice(converter.finish());
    Ok(out)
}

/// The header fields of a WAV file made by [`wav_bytes`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WavSpec {
    /// The format tag (1 integer PCM, 3 float).
    pub tag: u16,
    /// Channels.
    pub channels: u16,
    /// Sample rate in Hz.
    pub rate: u32,
    /// Bits per sample.
    pub bits: u16,
}

/// A WAV file in memory with `data` (already encoded as `spec` says) and
/// the data length `claim` in its header (`None`: the real one): for
/// tests and tools that make recordings, also damaged ones.
pub fn wav_bytes(spec: &WavSpec, claim: Option<u32>, data: &[u8]) -> Vec<u8> {
    let block = spec.channels.wrapping_mul(spec.bits.div_ceil(8));
    let real = u32::try_from(data.len()).unwrap_or(u32::MAX);
    let mut v = b"RIFF".to_vec();
    v.extend(real.saturating_add(36).to_le_bytes());
    v.extend(b"WAVEfmt ");
    v.extend(16u32.to_le_bytes());
    v.extend(spec.tag.to_le_bytes());
    v.extend(spec.channels.to_le_bytes());
    v.extend(spec.rate.to_le_bytes());
    v.extend(spec.rate.wrapping_mul(u32::from(block)).to_le_bytes());
    v.extend(block.to_le_bytes());
    v.extend(spec.bits.to_le_bytes());
    v.extend(b"data");
    v.extend(claim.unwrap_or(real).to_le_bytes());
    v.extend(data);
    v
}

/// Averages interleaved channels into one.
pub fn downmix(interleaved: &[f32], channels: usize) -> Vec<f32> {
    if channels <= 1 {
        return interleaved.to_vec();
    }
    interleaved
        .chunks(channels)
        .map(|frame| frame.iter().sum::<f32>() / frame.len() as f32)
        .collect()
}

/// A whole recording from `from` Hz to `to` Hz, through the same
/// anti-aliased resampler as every stream ([`super::rate::resample`]).
pub fn resample(input: &[f32], from: u32, to: u32) -> Vec<f32> {
    super::rate::resample(input, from, to)
}

/// Samples in −1..1 to 16-bit.
pub fn to_i16(samples: &[f32]) -> Vec<i16> {
    samples
        .iter()
        .map(|s| (s.clamp(-1.0, 1.0) * 32767.0).round() as i16)
        .collect()
}

/// Settings of the voice-activity detector.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct VadSettings {
    /// Frame length in milliseconds.
    pub frame_ms: u32,
    /// An utterance ends after this much silence.
    pub silence_ms: u32,
    /// Speech must last this long to start an utterance.
    pub min_speech_ms: u32,
    /// Frames louder than the noise floor times this are speech.
    pub ratio: f32,
    /// …and louder than this RMS level (0–32767).
    pub min_rms: f32,
}

impl Default for VadSettings {
    fn default() -> VadSettings {
        VadSettings {
            frame_ms: 10,
            silence_ms: 300,
            min_speech_ms: 50,
            ratio: 3.0,
            min_rms: 300.0,
        }
    }
}

/// What the detector noticed, with the sample index (from the first sample
/// ever pushed) where it happened.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum VadEvent {
    /// Speech began at this sample (the start of the first loud frame).
    SpeechStart(usize),
    /// Speech ended: the last loud frame ended at this sample, and the
    /// silence after it has lasted long enough.
    SpeechEnd(usize),
}

/// An energy-based voice-activity detector with an adaptive noise floor.
/// Feed it 16 kHz samples in any chunk size.
#[derive(Debug, Clone)]
pub struct Vad {
    settings: VadSettings,
    frame: Vec<i16>,
    frame_len: usize,
    pos: usize,
    floor: Option<f32>,
    in_speech: bool,
    loud_run: usize,
    loud_start: usize,
    quiet_run: usize,
    last_loud_end: usize,
}

impl Vad {
    /// A detector for 16 kHz audio.
    pub fn new(settings: VadSettings) -> Vad {
        let frame_len = (SAMPLE_RATE as usize * settings.frame_ms.max(1) as usize / 1000).max(1);
        Vad {
            settings,
            frame: Vec::with_capacity(frame_len),
            frame_len,
            pos: 0,
            floor: None,
            in_speech: false,
            loud_run: 0,
            loud_start: 0,
            quiet_run: 0,
            last_loud_end: 0,
        }
    }

    /// Is an utterance under way?
    pub fn in_speech(&self) -> bool {
        self.in_speech
    }

    /// The detector's settings.
    pub fn settings(&self) -> &VadSettings {
        &self.settings
    }

    /// Where the last loud frame ended (sample index from the first
    /// sample pushed; 0 before any).
    pub fn last_loud_end(&self) -> usize {
        self.last_loud_end
    }

    /// Samples pushed so far (whole frames and the part of a frame
    /// waiting to be completed).
    pub fn pushed(&self) -> usize {
        self.pos + self.frame.len()
    }

    /// During an utterance: how long it has been quiet since the last
    /// loud frame, in samples (0 while loud or outside an utterance).
    pub fn quiet_samples(&self) -> usize {
        if self.in_speech {
            self.pos.saturating_sub(self.last_loud_end)
        } else {
            0
        }
    }

    /// Forgets the utterance under way (the noise floor is kept).
    pub fn reset_speech(&mut self) {
        self.in_speech = false;
        self.loud_run = 0;
        self.quiet_run = 0;
    }

    /// Feeds samples; returns what happened in them.
    pub fn push(&mut self, samples: &[i16]) -> Vec<VadEvent> {
        let mut events = Vec::new();
        for &s in samples {
            self.frame.push(s);
            if self.frame.len() == self.frame_len {
                self.end_frame(&mut events);
                self.frame.clear();
            }
        }
        events
    }

    fn end_frame(&mut self, events: &mut Vec<VadEvent>) {
        let start = self.pos;
        self.pos += self.frame_len;
        let energy = (self
            .frame
            .iter()
            .map(|&s| f64::from(s) * f64::from(s))
            .sum::<f64>()
            / self.frame_len as f64)
            .sqrt() as f32;
        // Noise floor by minimum statistics: it drops at once to a quieter
        // frame and rises slowly (doubling in about 0.7 s), so steady
        // noise soon counts as quiet while the dips between syllables keep
        // it low during speech.
        let floor = match self.floor {
            None => energy,
            Some(f) => f.mul_add(1.01, 1e-3).min(energy.max(1.0)),
        };
        self.floor = Some(floor);
        let loud = energy > self.settings.min_rms && energy > floor * self.settings.ratio;
        let frames = |ms: u32| (ms / self.settings.frame_ms.max(1)).max(1) as usize;
        if loud {
            if self.loud_run == 0 {
                self.loud_start = start;
            }
            self.loud_run += 1;
            self.quiet_run = 0;
            self.last_loud_end = self.pos;
            if !self.in_speech && self.loud_run >= frames(self.settings.min_speech_ms) {
                self.in_speech = true;
                events.push(VadEvent::SpeechStart(self.loud_start));
            }
        } else {
            self.loud_run = 0;
            if self.in_speech {
                self.quiet_run += 1;
                if self.quiet_run >= frames(self.settings.silence_ms) {
                    self.in_speech = false;
                    self.quiet_run = 0;
                    events.push(VadEvent::SpeechEnd(self.last_loud_end));
                }
            }
        }
    }
}

/// Does this recording contain speech at all (by the detector)?
pub fn has_speech(samples: &[i16], settings: VadSettings) -> bool {
    let mut vad = Vad::new(settings);
    vad.push(samples)
        .iter()
        .any(|e| matches!(e, VadEvent::SpeechStart(_)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Cursor;

    fn wav(
        tag: u16,
        channels: u16,
        rate: u32,
        bits: u16,
        claim: Option<u32>,
        data: &[u8],
    ) -> Vec<u8> {
        wav_bytes(
            &WavSpec {
                tag,
                channels,
                rate,
                bits,
            },
            claim,
            data,
        )
    }

    fn read(bytes: Vec<u8>) -> Result<Vec<i16>, WavError> {
        read_wav_from(Cursor::new(bytes))
    }

    fn pcm16(samples: impl IntoIterator<Item = i16>) -> Vec<u8> {
        samples.into_iter().flat_map(i16::to_le_bytes).collect()
    }

    #[test]
    fn a_one_hertz_header_is_refused_before_anything_is_allocated() {
        // On main: "memory allocation of 67108864000 bytes failed", abort.
        let r = read(wav(1, 1, 1, 8, None, &vec![0x80; 1 << 20]));
        assert!(matches!(r, Err(WavError::Rate(1))), "{r:?}");
        let r = read(wav(1, 1, 100, 16, None, &[0; 1000]));
        assert!(matches!(r, Err(WavError::Rate(100))), "{r:?}");
        let r = read(wav(1, 1, 192_001, 16, None, &[0; 1000]));
        assert!(matches!(r, Err(WavError::Rate(192_001))), "{r:?}");
    }

    #[test]
    fn an_unknown_data_length_is_read_to_the_end() {
        // 0xffffffff: what streaming recorders write; on main it reserved
        // 17 GB.
        let data = pcm16((0..8000).map(|i| (i % 100) as i16 * 100));
        let r = read(wav(1, 1, 16_000, 16, Some(u32::MAX), &data)).unwrap();
        assert_eq!(r.len(), 8000);
        assert_eq!(r[1], 100);
    }

    #[test]
    fn more_than_a_minute_is_refused_even_when_the_header_does_not_say() {
        // The header claims ten minutes: refused without reading on.
        let ten_minutes = 600 * 16_000 * 2;
        let r = read(wav(1, 1, 16_000, 16, Some(ten_minutes), &[0; 64]));
        assert!(matches!(r, Err(WavError::TooLong)), "{r:?}");
        // An unknown length with 61 s behind it.
        let data = vec![0u8; 61 * 16_000 * 2];
        let r = read(wav(1, 1, 16_000, 16, Some(u32::MAX), &data));
        assert!(matches!(r, Err(WavError::TooLong)), "{r:?}");
        // 60 s exactly is a recording.
        let data = vec![0u8; 60 * 8_000 * 2];
        assert_eq!(
            read(wav(1, 1, 8_000, 16, None, &data)).unwrap().len(),
            960_000
        );
    }

    #[test]
    fn formats_rates_and_channels_are_converted_to_16k_mono() {
        let tone: Vec<f32> = (0..4410).map(|i| (i as f32 * 0.05).sin() * 0.5).collect();
        // 44.1 kHz stereo 24 bit, the same tone on both channels.
        let mut data = Vec::new();
        for s in &tone {
            let v = ((*s * 8_388_607.0) as i32).to_le_bytes();
            data.extend_from_slice(&v[..3]);
            data.extend_from_slice(&v[..3]);
        }
        let got = read(wav(1, 2, 44_100, 24, None, &data)).unwrap();
        let expected = to_i16(&resample(&tone, 44_100, 16_000));
        assert_eq!(got.len(), expected.len());
        assert!(got.iter().zip(&expected).all(|(a, b)| (a - b).abs() <= 2));
        // 32-bit float and 8 bit mono.
        let data: Vec<u8> = tone.iter().flat_map(|s| s.to_le_bytes()).collect();
        let got = read(wav(3, 1, 44_100, 32, None, &data)).unwrap();
        assert!(got.iter().zip(&expected).all(|(a, b)| (a - b).abs() <= 2));
        let data: Vec<u8> = tone.iter().map(|s| (s * 128.0 + 128.0) as u8).collect();
        let got = read(wav(1, 1, 44_100, 8, None, &data)).unwrap();
        assert!(got.iter().zip(&expected).all(|(a, b)| (a - b).abs() <= 300));
    }

    #[test]
    fn a_file_is_read_as_a_device_delivers_it_whatever_the_block_size() {
        // 1.3 s of a chord at 44.1 and 48 kHz, mono and stereo (the right
        // channel a little quieter), 16-bit.
        for rate in [44_100u32, 48_000] {
            for channels in [1u16, 2] {
                let n = rate as usize * 13 / 10;
                let mut data = Vec::new();
                let mut mono = Vec::new();
                for i in 0..n {
                    let t = i as f32 / rate as f32;
                    let s = 0.3 * (t * 2.0 * std::f32::consts::PI * 440.0).sin()
                        + 0.2 * (t * 2.0 * std::f32::consts::PI * 3100.0).sin();
                    let l = (s * 32767.0).round() as i16;
                    let r = (s * 0.8 * 32767.0).round() as i16;
                    data.extend(l.to_le_bytes());
                    if channels == 2 {
                        data.extend(r.to_le_bytes());
                        mono.push((f32::from(l) + f32::from(r)) / 2.0 / 32_768.0);
                    } else {
                        mono.push(f32::from(l) / 32_768.0);
                    }
                }
                let bytes = wav(1, channels, rate, 16, None, &data);
                let whole = to_i16(&resample(&mono, rate, 16_000));
                assert_eq!(whole.len(), n * 16_000 / rate as usize);
                for block in [1, 17, 441, 1111, 4097, n + 5] {
                    let got = read_wav_from_blocks(Cursor::new(bytes.clone()), block).unwrap();
                    assert_eq!(
                        got, whole,
                        "{rate} Hz, {channels} channels, blocks of {block}"
                    );
                }
            }
        }
    }

    #[test]
    fn broken_headers_are_errors_not_guesses() {
        let data = pcm16([1, 2, 3, 4]);
        let r = read(wav(1, 0, 16_000, 16, None, &data));
        assert!(matches!(r, Err(WavError::Channels(0))), "{r:?}");
        let r = read(wav(1, 9, 16_000, 16, None, &[0; 9 * 2 * 4]));
        assert!(matches!(r, Err(WavError::Channels(9))), "{r:?}");
        for (tag, bits) in [(1, 12), (1, 0), (3, 16), (2, 4), (0x1234, 16)] {
            let r = read(wav(tag, 1, 16_000, bits, None, &data));
            assert!(
                matches!(r, Err(WavError::Format { .. })),
                "{tag} {bits}: {r:?}"
            );
        }
        let mut bad_block = wav(1, 1, 16_000, 16, None, &data);
        bad_block[32] = 7;
        assert!(matches!(read(bad_block), Err(WavError::BadHeader)));
        let good = wav(1, 1, 16_000, 16, None, &data);
        assert!(matches!(
            read(good[..30].to_vec()),
            Err(WavError::BadHeader)
        ));
        assert!(matches!(read(good[..8].to_vec()), Err(WavError::NotWav)));
        assert!(matches!(read(b"Eva vier".to_vec()), Err(WavError::NotWav)));
        let r = read(good[..good.len() - 3].to_vec());
        assert!(matches!(r, Err(WavError::Truncated(2))), "{r:?}");
        // A chunk that claims 4 GB before the data: skipped, then the end.
        let mut junk = good[..36].to_vec();
        junk.extend(b"LIST\xff\xff\xff\xff");
        junk.extend(&good[36..]);
        assert!(matches!(read(junk), Err(WavError::BadHeader)));
    }

    #[cfg(unix)]
    #[test]
    fn a_fifo_is_refused_at_once() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("speech.wav");
        let c = std::ffi::CString::new(p.to_str().unwrap()).unwrap();
        // SAFETY: mkfifo with a valid C string.
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
        let r = read_wav(&p);
        assert!(
            matches!(r, Err(WavError::File(InputError::NotRegular(_)))),
            "{r:?}"
        );
    }

    #[test]
    fn the_line_names_the_file_and_the_limit_in_the_locale() {
        let ko = crate::locale::builtin("ko").unwrap();
        let line = WavError::Rate(1).line(&ko, Path::new("a.wav"));
        let reason = ko.message(
            MsgKey::WavRate,
            &[("rate", "1"), ("min", "8000"), ("max", "192000")],
        );
        assert_eq!(
            line,
            ko.message(
                MsgKey::VoiceWavError,
                &[("file", "a.wav"), ("error", &reason)]
            )
        );
        assert!(line.contains("a.wav") && line.contains("8000"), "{line}");
    }

    fn tone(ms: usize, amp: f32) -> Vec<i16> {
        (0..ms * 16)
            .map(|i| ((i as f32 * 0.2).sin() * amp) as i16)
            .collect()
    }

    #[test]
    fn resample_and_downmix() {
        let x: Vec<f32> = (0..441).map(|i| i as f32 / 441.0).collect();
        let y = resample(&x, 44_100, 16_000);
        assert_eq!(y.len(), 160);
        assert!((y[80] - x[220]).abs() < 0.01, "{} vs {}", y[80], x[220]);
        assert_eq!(downmix(&[1.0, 0.0, 0.5, 0.5], 2), vec![0.5, 0.5]);
        assert_eq!(to_i16(&[1.0, -2.0, 0.0]), vec![32767, -32767, 0]);
    }

    #[test]
    fn vad_finds_speech_and_its_end_after_the_silence() {
        let mut audio = tone(200, 10.0); // quiet room
        audio.extend(tone(500, 8000.0)); // speech
        audio.extend(tone(600, 10.0));
        let mut vad = Vad::new(VadSettings::default());
        let events = vad.push(&audio);
        assert_eq!(events.len(), 2, "{events:?}");
        assert_eq!(events[0], VadEvent::SpeechStart(200 * 16));
        assert_eq!(events[1], VadEvent::SpeechEnd(700 * 16));
    }

    #[test]
    fn vad_ignores_steady_noise_and_silence_and_short_clicks() {
        assert!(!has_speech(&vec![0; 16_000], VadSettings::default()));
        assert!(!has_speech(&tone(1000, 3000.0), VadSettings::default()));
        let mut click = tone(300, 10.0);
        click.extend(tone(20, 9000.0));
        click.extend(tone(300, 10.0));
        assert!(!has_speech(&click, VadSettings::default()));
    }

    #[test]
    fn vad_finds_speech_that_starts_with_the_recording() {
        // Syllables with short dips between them, no silence before.
        let mut audio = Vec::new();
        for _ in 0..4 {
            audio.extend(tone(150, 8000.0));
            audio.extend(tone(50, 100.0));
        }
        assert!(has_speech(&audio, VadSettings::default()));
        assert!(
            !has_speech(&tone(2000, 8000.0), VadSettings::default()),
            "a steady hum is no speech"
        );
    }

    #[test]
    fn vad_works_in_small_chunks() {
        let mut audio = tone(200, 10.0);
        audio.extend(tone(400, 8000.0));
        audio.extend(tone(400, 10.0));
        let mut vad = Vad::new(VadSettings::default());
        let mut events = Vec::new();
        for chunk in audio.chunks(37) {
            events.extend(vad.push(chunk));
        }
        assert_eq!(
            events,
            [VadEvent::SpeechStart(3200), VadEvent::SpeechEnd(600 * 16)]
        );
    }

    #[test]
    fn vad_tells_how_long_it_has_been_quiet_during_speech() {
        let mut vad = Vad::new(VadSettings::default());
        vad.push(&tone(200, 10.0));
        assert_eq!(vad.quiet_samples(), 0, "no utterance yet");
        vad.push(&tone(400, 8000.0));
        assert!(vad.in_speech());
        assert_eq!(vad.last_loud_end(), 600 * 16);
        assert_eq!(vad.quiet_samples(), 0);
        vad.push(&tone(150, 10.0));
        assert_eq!(vad.quiet_samples(), 150 * 16);
        assert_eq!(vad.pushed(), 750 * 16);
        // Speech resumes: the quiet count starts again.
        vad.push(&tone(100, 8000.0));
        assert_eq!(vad.quiet_samples(), 0);
        assert_eq!(vad.last_loud_end(), 850 * 16);
        vad.reset_speech();
        assert!(!vad.in_speech());
        assert_eq!(vad.quiet_samples(), 0);
    }
}
