//! The microphone adapter (cpal): captures the default input device,
//! converts to 16 kHz mono and hands the samples over a channel. On a
//! machine without a usable input device (headless), [`Microphone::open`]
//! returns an error the caller prints as one line; the keyboard keeps
//! working.

use std::sync::mpsc::{Receiver, channel};

use cpal::traits::{DeviceTrait, HostTrait, StreamTrait};

use super::audio::{downmix, resample, to_i16};
use super::recognizer::SAMPLE_RATE;

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
    _stream: cpal::Stream,
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

fn convert(data: &[f32], channels: usize, rate: u32) -> Vec<i16> {
    let mono = downmix(data, channels);
    to_i16(&resample(&mono, rate, SAMPLE_RATE))
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
    _stream: cpal::Stream,
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

fn open_stream(
    mut sink: impl FnMut(Vec<i16>) + Send + 'static,
) -> Result<(cpal::Stream, String), MicError> {
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
        let stream = match supported.sample_format() {
            cpal::SampleFormat::F32 => device.build_input_stream(
                config,
                move |data: &[f32], _: &cpal::InputCallbackInfo| {
                    sink(convert(data, channels, rate))
                },
                err_fn,
                None,
            ),
            cpal::SampleFormat::I16 => device.build_input_stream(
                config,
                move |data: &[i16], _: &cpal::InputCallbackInfo| {
                    let f: Vec<f32> = data.iter().map(|&s| f32::from(s) / 32768.0).collect();
                    sink(convert(&f, channels, rate))
                },
                err_fn,
                None,
            ),
            cpal::SampleFormat::I32 => device.build_input_stream(
                config,
                move |data: &[i32], _: &cpal::InputCallbackInfo| {
                    let f: Vec<f32> = data.iter().map(|&s| s as f32 / 2_147_483_648.0).collect();
                    sink(convert(&f, channels, rate))
                },
                err_fn,
                None,
            ),
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
