//! The microphone adapter (cpal): captures the default input device,
//! converts its blocks (at the device's rate and channel count) to 16 kHz
//! mono through one stateful [`InputConverter`] per stream, and hands the
//! samples over a channel. On a
//! machine without a usable input device (headless), [`Microphone::open`]
//! returns an error the caller prints as one line; the keyboard keeps
//! working.

use std::sync::mpsc::{Receiver, channel};

#[cfg(feature = "voice")]
use cpal::traits::{DeviceTrait, HostTrait, StreamTrait};

/// An open input stream (none without the `voice` feature: no cpal, no
/// ALSA).
#[cfg(feature = "voice")]
type Stream = cpal::Stream;
#[cfg(not(feature = "voice"))]
type Stream = std::convert::Infallible;

use super::rate::{DeviceSample, InputConverter};

/// Why the microphone cannot be used.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MicError {
    /// No input device, or it cannot be opened (headless machine, no
    /// permission, device busy).
    #[error("{0}")]
    Unavailable(String),
}

/// An open microphone stream. Samples arrive on [`Microphone::samples`]
/// (16 kHz mono); dropping it stops the capture.
pub struct Microphone {
    _stream: Stream,
    /// 16 kHz mono chunks.
    pub samples: Receiver<Vec<i16>>,
    /// Device description for messages.
    pub name: String,
}

impl std::fmt::Debug for Microphone {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Microphone")
            .field("name", &self.name)
            .finish()
    }
}

/// What an input stream does with the blocks the device delivers: each
/// goes through the stream's one converter (its state carries over from
/// block to block), and the 16 kHz mono samples it completes to `sink`.
pub struct Capture<F> {
    converter: InputConverter,
    sink: F,
}

impl<F: FnMut(Vec<i16>)> Capture<F> {
    /// Capture of a stream at `rate` Hz with `channels` interleaved
    /// channels into `sink`.
    ///
    /// # Errors
    ///
    /// A rate of zero.
    pub fn new(rate: u32, channels: usize, sink: F) -> Result<Capture<F>, MicError> {
        let converter = InputConverter::new(rate, channels)
            .map_err(|e| MicError::Unavailable(e.to_string()))?;
        Ok(Capture { converter, sink })
    }

    /// One block from the device (interleaved).
    pub fn block<S: DeviceSample>(&mut self, data: &[S]) {
        let chunk = self.converter.push(data);
        if !chunk.is_empty() {
            (self.sink)(chunk.to_vec());
        }
    }
}

/// The callback of an input stream.
#[cfg(feature = "voice")]
fn callback<S: DeviceSample, F: FnMut(Vec<i16>) + Send + 'static>(
    mut capture: Capture<F>,
) -> impl FnMut(&[S], &cpal::InputCallbackInfo) + Send + 'static {
    move |data: &[S], _: &cpal::InputCallbackInfo| capture.block(data)
}

impl Microphone {
    /// Opens the default input device; chunks arrive on
    /// [`Microphone::samples`].
    pub fn open() -> Result<Microphone, MicError> {
        let (tx, rx) = channel();
        let (stream, name) = open_stream(move |chunk| {
            let _ = tx.send(chunk);
        })?;
        Ok(Microphone {
            _stream: stream,
            samples: rx,
            name,
        })
    }
}

/// An open input stream that hands its 16 kHz mono chunks to a function
/// (called on the audio thread); dropping it stops the capture.
pub struct MicStream {
    _stream: Stream,
    /// Device description for messages.
    pub name: String,
}

impl std::fmt::Debug for MicStream {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MicStream")
            .field("name", &self.name)
            .finish()
    }
}

impl MicStream {
    /// Opens the default input device; `sink` gets every chunk as it is
    /// captured.
    pub fn open(sink: impl FnMut(Vec<i16>) + Send + 'static) -> Result<MicStream, MicError> {
        let (stream, name) = open_stream(sink)?;
        Ok(MicStream {
            _stream: stream,
            name,
        })
    }
}

/// Built without the `voice` feature: there is no microphone.
#[cfg(not(feature = "voice"))]
fn open_stream(_sink: impl FnMut(Vec<i16>) + Send + 'static) -> Result<(Stream, String), MicError> {
    Err(MicError::Unavailable(
        "built without the microphone (feature voice)".to_owned(),
    ))
}

#[cfg(feature = "voice")]
fn open_stream(sink: impl FnMut(Vec<i16>) + Send + 'static) -> Result<(Stream, String), MicError> {
    {
        let host = cpal::default_host();
        let device = host
            .default_input_device()
            .ok_or_else(|| MicError::Unavailable("no input device".to_owned()))?;
        let name = device
            .description()
            .map(|d| d.to_string())
            .unwrap_or_else(|_| "default".to_owned());
        let supported = device
            .default_input_config()
            .map_err(|e| MicError::Unavailable(e.to_string()))?;
        let config = supported.config();
        let channels = usize::from(config.channels.max(1));
        let rate = config.sample_rate;
        let err_fn = |_e: cpal::Error| {};
        let capture = Capture::new(rate, channels, sink)?;
        let stream = match supported.sample_format() {
            cpal::SampleFormat::F32 => {
                device.build_input_stream(config, callback::<f32, _>(capture), err_fn, None)
            }
            cpal::SampleFormat::I16 => {
                device.build_input_stream(config, callback::<i16, _>(capture), err_fn, None)
            }
            cpal::SampleFormat::I32 => {
                device.build_input_stream(config, callback::<i32, _>(capture), err_fn, None)
            }
            other => {
                return Err(MicError::Unavailable(format!(
                    "unsupported sample format {other:?}"
                )));
            }
        }
        .map_err(|e| MicError::Unavailable(e.to_string()))?;
        stream
            .play()
            .map_err(|e| MicError::Unavailable(e.to_string()))?;
        Ok((stream, name))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const RATE: u32 = 48_000;

    /// Block sizes as devices deliver them: odd, changing, some tiny.
    const BLOCKS: [usize; 8] = [441, 1, 1023, 17, 4097, 333, 960, 2];

    /// `seconds` of 48 kHz stereo: the same 1 kHz tone on both channels,
    /// and on the right one also a 10 kHz tone (above 16 kHz's Nyquist
    /// frequency: it must not come back as a 6 kHz tone).
    fn stereo(seconds: usize) -> Vec<f32> {
        let w = |hz: f64, i: usize| {
            (2.0 * std::f64::consts::PI * hz * i as f64 / f64::from(RATE)).sin()
        };
        (0..seconds * RATE as usize)
            .flat_map(|i| {
                let speech = 0.3 * w(1000.0, i);
                [speech as f32, (speech + 0.3 * w(10_000.0, i)) as f32]
            })
            .collect()
    }

    /// Feeds `audio` in [`BLOCKS`] to `convert` (one device block in, its
    /// 16 kHz samples out) and checks what came out: as many samples as
    /// the time fed (less the converter's latency, at most 15 ms) and the
    /// 1 kHz tone alone, at its place in time (within 1% of its level).
    fn check(audio: &[f32], mut convert: impl FnMut(&[f32]) -> Vec<i16>) -> Result<(), String> {
        let mut out = Vec::new();
        let mut rest = audio;
        for n in BLOCKS.iter().cycle() {
            if rest.is_empty() {
                break;
            }
            let n = (n * 2).min(rest.len());
            out.extend(convert(&rest[..n]));
            rest = &rest[n..];
        }
        let fed = audio.len() / 2 / 3;
        let latency = 15 * 16;
        let mut wrong = Vec::new();
        if out.len() > fed || out.len() + latency < fed {
            wrong.push(format!("{} samples for {fed} fed", out.len()));
        }
        let ideal =
            |k: usize| 0.3 * (2.0 * std::f64::consts::PI * 1000.0 * k as f64 / 16_000.0).sin();
        let (mut err, mut n) = (0.0f64, 0usize);
        for (k, &s) in out.iter().enumerate().skip(160) {
            let e = f64::from(s) / 32767.0 - ideal(k);
            err += e * e;
            n += 1;
        }
        let err = (err / n.max(1) as f64).sqrt() / (0.3 / 2f64.sqrt());
        if err > 0.01 {
            wrong.push(format!("off by {:.1}% of the tone", 100.0 * err));
        }
        if wrong.is_empty() {
            Ok(())
        } else {
            Err(wrong.join("; "))
        }
    }

    #[test]
    fn stereo_48k_in_odd_blocks_comes_out_as_16k_mono_without_loss_drift_or_alias() {
        let audio = stereo(30);
        // As the microphone hands its chunks over: through a channel.
        let (tx, rx) = channel();
        let mut capture = Capture::new(RATE, 2, move |c| {
            let _ = tx.send(c);
        })
        .expect("a converter");
        let r = check(&audio, |block| {
            capture.block(block);
            rx.try_iter().flatten().collect()
        });
        assert_eq!(r, Ok(()));
        // The same through the device's integer formats.
        let as_i16: Vec<i16> = audio.iter().map(|s| (s * 32767.0) as i16).collect();
        let (tx, rx) = channel();
        let mut capture = Capture::new(RATE, 2, move |c| {
            let _ = tx.send(c);
        })
        .expect("a converter");
        let mut pos = 0;
        let r = check(&audio, |block| {
            capture.block(&as_i16[pos..pos + block.len()]);
            pos += block.len();
            rx.try_iter().flatten().collect()
        });
        assert_eq!(r, Ok(()));
    }

    /// The check above can fail: the conversion this stream had before (a
    /// fresh linear interpolation of every block, without a filter) fails
    /// it, losing the fraction of a sample at each block's edge and
    /// folding the 10 kHz tone back.
    #[test]
    fn the_check_fails_on_a_stateless_linear_resampling_of_each_block() {
        fn linear(input: &[f32], from: u32, to: u32) -> Vec<f32> {
            let ratio = f64::from(from) / f64::from(to);
            let out_len = ((input.len() as f64) / ratio).floor() as usize;
            (0..out_len)
                .map(|i| {
                    let pos = i as f64 * ratio;
                    let idx = pos.floor() as usize;
                    let frac = (pos - idx as f64) as f32;
                    let a = input[idx.min(input.len() - 1)];
                    let b = input[(idx + 1).min(input.len() - 1)];
                    a + (b - a) * frac
                })
                .collect()
        }
        let r = check(&stereo(30), |block| {
            let mono: Vec<f32> = block.chunks(2).map(|f| (f[0] + f[1]) / 2.0).collect();
            linear(&mono, RATE, 16_000)
                .iter()
                .map(|s| (s.clamp(-1.0, 1.0) * 32767.0).round() as i16)
                .collect()
        });
        assert!(r.is_err(), "{r:?}");
        println!("per-block linear interpolation: {}", r.unwrap_err());
    }

    #[test]
    fn ten_minutes_of_44k_stereo_in_odd_blocks_do_not_drift() {
        // A click at every minute; the stream in changing odd blocks.
        const RATE: u32 = 44_100;
        let minute = 60 * RATE as usize;
        let frames = 10 * minute + RATE as usize;
        let (tx, rx) = channel();
        let mut capture = Capture::new(RATE, 2, move |c| {
            let _ = tx.send(c);
        })
        .expect("a converter");
        let mut block = Vec::new();
        let mut fed = 0usize;
        let mut out: Vec<i16> = Vec::new();
        for n in BLOCKS.iter().cycle() {
            if fed == frames {
                break;
            }
            let n = (*n).min(frames - fed);
            block.clear();
            for i in fed..fed + n {
                let click = if i > 0 && i % minute == 0 { 0.9 } else { 0.0 };
                block.extend([click, click]);
            }
            capture.block(&block);
            out.extend(rx.try_iter().flatten());
            fed += n;
        }
        // Each click is where its minute is at 16 kHz, to the sample.
        for k in 1..=10usize {
            let at = k * 60 * 16_000;
            assert!(out.len() > at + 100, "{} samples", out.len());
            let peak = (at - 100..at + 100)
                .max_by_key(|&i| out[i].unsigned_abs())
                .unwrap_or(0);
            assert_eq!(peak, at, "minute {k}");
        }
        // And the stream has as many samples as its time, less the
        // converter's latency (at most 15 ms).
        let want = 601 * 16_000;
        assert!(
            out.len() <= want && out.len() + 15 * 16 >= want,
            "{}",
            out.len()
        );
    }
}
