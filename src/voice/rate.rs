//! Sample-rate conversion: one stateful, anti-aliased resampler for every
//! stream of audio annabella takes in or plays out.
//!
//! - [`Resampler`]: mono `f32` at one rate in, mono `f32` at another out,
//!   fed in blocks of any size. It keeps its state between blocks (the
//!   filter's history and the fraction of a sample between two output
//!   samples), so a stream cut into blocks comes out exactly as the whole
//!   stream would: no sample lost or doubled at a block edge, no drift over
//!   hours. The filter is a windowed sinc (rubato's asynchronous sinc
//!   resampler), so what lies above the lower rate's Nyquist frequency is
//!   removed instead of folding back into the speech band. Its delay is
//!   taken off: output sample `k` belongs to the moment `k / to` of the
//!   input, and [`Resampler::finish`] gives the tail, so a whole recording
//!   comes out `round(len * to / from)` samples long.
//! - [`InputConverter`]: what a microphone (or a WAV file read as one)
//!   delivers — interleaved blocks at the device's rate and channel count,
//!   in `f32`, `i16` or `i32` — to the 16 kHz mono 16-bit samples the
//!   recognizers take: channels averaged, then resampled. One converter per
//!   input stream; in steady state it allocates nothing.
//! - [`resample`]: a whole buffer at once (speech rendered for the
//!   loudspeaker).

use rubato::audioadapter_buffers::direct::InterleavedSlice;
use rubato::{
    Async, FixedAsync, Resampler as _, SincInterpolationParameters, SincInterpolationType,
    WindowFunction,
};

use super::recognizer::SAMPLE_RATE;

/// Length of the sinc filter in samples of the input (of the output when
/// upsampling): the pass band reaches 7.5 kHz at 16 kHz (the band the
/// recognizers' features use), what lies above 8 kHz is stopped.
const SINC_LEN: usize = 256;

/// Why a resampler could not be made (a rate of zero).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("cannot convert {from} Hz to {to} Hz")]
pub struct RateError {
    /// The input rate.
    pub from: u32,
    /// The output rate.
    pub to: u32,
}

/// A stateful anti-aliased resampler for one mono stream (see the module
/// documentation). `from == to` passes samples through unchanged.
pub struct Resampler {
    from: u32,
    to: u32,
    inner: Option<Async<f32>>,
    /// Input chunk the filter takes at a time, and how much of it is filled.
    chunk: Vec<f32>,
    filled: usize,
    /// The filter's output for one chunk.
    block: Vec<f32>,
    /// Output samples still to drop: the filter's delay (silence is fed
    /// before the stream so that it is a whole number of them).
    skip: usize,
    /// Samples taken in and given out (after the delay).
    taken: u64,
    given: u64,
}

impl std::fmt::Debug for Resampler {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Resampler")
            .field("from", &self.from)
            .field("to", &self.to)
            .field("taken", &self.taken)
            .field("given", &self.given)
            .finish_non_exhaustive()
    }
}

impl Resampler {
    /// A resampler from `from` Hz to `to` Hz.
    ///
    /// # Errors
    ///
    /// A rate of zero.
    pub fn new(from: u32, to: u32) -> Result<Resampler, RateError> {
        let err = RateError { from, to };
        if from == 0 || to == 0 {
            return Err(err);
        }
        let mut r = Resampler {
            from,
            to,
            inner: None,
            chunk: Vec::new(),
            filled: 0,
            block: Vec::new(),
            skip: 0,
            taken: 0,
            given: 0,
        };
        if from == to {
            return Ok(r);
        }
        // 10 ms of input per chunk: the latency it adds, at most.
        let chunk = (from as usize / 100).max(16);
        let params = SincInterpolationParameters {
            sinc_len: SINC_LEN,
            f_cutoff: None,
            interpolation: SincInterpolationType::Cubic,
            oversampling_factor: 128,
            window: WindowFunction::BlackmanHarris2,
        };
        let ratio = f64::from(to) / f64::from(from);
        let inner = Async::<f32>::new_sinc(ratio, 1.0, &params, chunk, 1, FixedAsync::Input)
            .map_err(|_| err)?;
        r.chunk = vec![0.0; chunk];
        r.block = vec![0.0; inner.output_frames_max()];
        r.inner = Some(inner);
        r.reset();
        Ok(r)
    }

    /// The input rate.
    pub fn from_rate(&self) -> u32 {
        self.from
    }

    /// The output rate.
    pub fn to_rate(&self) -> u32 {
        self.to
    }

    /// Samples taken in so far.
    pub fn taken(&self) -> u64 {
        self.taken
    }

    /// Samples given out so far.
    pub fn given(&self) -> u64 {
        self.given
    }

    /// Output samples the input taken so far stands for
    /// (`round(taken * to / from)`).
    fn due(&self) -> u64 {
        let (to, from) = (u128::from(self.to), u128::from(self.from));
        ((u128::from(self.taken) * to + from / 2) / from) as u64
    }

    /// Resamples `input` (the next samples of the stream), appending what
    /// can be given out so far to `out`.
    pub fn push(&mut self, input: &[f32], out: &mut Vec<f32>) {
        self.taken += input.len() as u64;
        if self.inner.is_none() {
            out.extend_from_slice(input);
            self.given += input.len() as u64;
            return;
        }
        let mut rest = input;
        while !rest.is_empty() {
            let n = (self.chunk.len() - self.filled).min(rest.len());
            self.chunk[self.filled..self.filled + n].copy_from_slice(&rest[..n]);
            self.filled += n;
            rest = &rest[n..];
            if self.filled == self.chunk.len() {
                self.run(out, usize::MAX);
            }
        }
    }

    /// One chunk through the filter; gives out at most `most` samples.
    fn run(&mut self, out: &mut Vec<f32>, most: usize) {
        self.filled = 0;
        let Some(inner) = self.inner.as_mut() else {
            return;
        };
        let frames = self.chunk.len();
        let capacity = self.block.len();
        let written = match (
            InterleavedSlice::new(&self.chunk[..], 1, frames),
            InterleavedSlice::new_mut(&mut self.block[..], 1, capacity),
        ) {
            (Ok(input), Ok(mut output)) => inner
                .process_into_buffer(&input, &mut output, None)
                .map_or(0, |(_, written)| written),
            _ => 0,
        };
        let drop = self.skip.min(written);
        self.skip -= drop;
        let give = (written - drop).min(most);
        out.extend_from_slice(&self.block[drop..drop + give]);
        self.given += give as u64;
    }

    /// The end of the stream: gives out the rest, so that the whole
    /// stream came out `round(taken * to / from)` samples long. The
    /// resampler starts a new stream afterwards.
    pub fn finish(&mut self, out: &mut Vec<f32>) {
        let due = self.due();
        if self.inner.is_some() {
            // Silence after the end pushes the last samples through the
            // filter's delay.
            let mut guard = 0;
            while self.given < due && guard < 1000 {
                self.chunk[self.filled..].fill(0.0);
                let most = usize::try_from(due - self.given).unwrap_or(usize::MAX);
                self.run(out, most);
                guard += 1;
            }
        }
        self.reset();
    }

    /// Forgets the stream (a new one starts).
    pub fn reset(&mut self) {
        self.filled = 0;
        self.taken = 0;
        self.given = 0;
        let Some(inner) = self.inner.as_mut() else {
            return;
        };
        inner.reset();
        // The filter's output lags by half its length in input samples,
        // less one output sample (measured: a tone's phase). With `lead`
        // samples of silence before the stream, that delay is a whole
        // number of output samples, `skip`, taken off exactly.
        let (from, to) = (u64::from(self.from), u64::from(self.to));
        let period = from / gcd(from, to);
        let delay = (SINC_LEN / 2) as u64;
        let lead = ((period - delay % period) % period) as usize;
        self.skip = ((delay + lead as u64) * to / from).saturating_sub(1) as usize;
        // A lead longer than a chunk (low rates) goes in whole chunks of
        // silence first; nothing of it is given out.
        let mut left = lead;
        let mut none = Vec::new();
        while left >= self.chunk.len() {
            self.chunk.fill(0.0);
            left -= self.chunk.len();
            self.run(&mut none, usize::MAX);
        }
        self.chunk[..left].fill(0.0);
        self.filled = left;
        self.given = 0;
    }
}

fn gcd(a: u64, b: u64) -> u64 {
    if b == 0 { a.max(1) } else { gcd(b, a % b) }
}

/// A whole buffer from `from` Hz to `to` Hz (`round(len * to / from)`
/// samples); a rate of zero returns it unchanged.
pub fn resample(input: &[f32], from: u32, to: u32) -> Vec<f32> {
    match Resampler::new(from, to) {
        Ok(mut r) => {
            let mut out = Vec::with_capacity(
                (input.len() as u64 * u64::from(to) / u64::from(from.max(1))) as usize + 1,
            );
            r.push(input, &mut out);
            r.finish(&mut out);
            out
        }
        Err(_) => input.to_vec(),
    }
}

/// A sample as a device or a WAV file gives it.
pub trait DeviceSample: Copy {
    /// As −1..1.
    fn to_f32(self) -> f32;
}

impl DeviceSample for f32 {
    fn to_f32(self) -> f32 {
        self
    }
}

impl DeviceSample for i16 {
    fn to_f32(self) -> f32 {
        f32::from(self) / 32_768.0
    }
}

impl DeviceSample for i32 {
    fn to_f32(self) -> f32 {
        self as f32 / 2_147_483_648.0
    }
}

/// One input stream (a microphone, or a WAV file read as one) to what the
/// recognizers take: interleaved blocks at the device's rate and channel
/// count in, 16 kHz mono 16-bit out (see the module documentation).
#[derive(Debug)]
pub struct InputConverter {
    channels: usize,
    /// The channels of a frame summed so far, and how many.
    sum: f32,
    seen: usize,
    mono: Vec<f32>,
    resampler: Resampler,
    resampled: Vec<f32>,
    out: Vec<i16>,
}

impl InputConverter {
    /// A converter for a stream of `channels` interleaved channels at
    /// `rate` Hz.
    ///
    /// # Errors
    ///
    /// A rate of zero.
    pub fn new(rate: u32, channels: usize) -> Result<InputConverter, RateError> {
        Ok(InputConverter {
            channels: channels.max(1),
            sum: 0.0,
            seen: 0,
            mono: Vec::new(),
            resampler: Resampler::new(rate, SAMPLE_RATE)?,
            resampled: Vec::new(),
            out: Vec::new(),
        })
    }

    /// The device's rate.
    pub fn rate(&self) -> u32 {
        self.resampler.from_rate()
    }

    /// The device's channels.
    pub fn channels(&self) -> usize {
        self.channels
    }

    /// The next block (interleaved; it may end within a frame): the 16 kHz
    /// mono samples it completes.
    pub fn push<S: DeviceSample>(&mut self, block: &[S]) -> &[i16] {
        self.mono.clear();
        let n = self.channels as f32;
        for s in block {
            self.sum += s.to_f32();
            self.seen += 1;
            if self.seen == self.channels {
                self.mono.push((self.sum / n).clamp(-1.0, 1.0));
                self.sum = 0.0;
                self.seen = 0;
            }
        }
        self.resampled.clear();
        self.resampler.push(&self.mono, &mut self.resampled);
        self.quantized()
    }

    /// The end of the stream: the last samples (the filter's tail). The
    /// converter starts a new stream afterwards.
    pub fn finish(&mut self) -> &[i16] {
        self.sum = 0.0;
        self.seen = 0;
        self.resampled.clear();
        self.resampler.finish(&mut self.resampled);
        self.quantized()
    }

    fn quantized(&mut self) -> &[i16] {
        self.out.clear();
        self.out.extend(
            self.resampled
                .iter()
                .map(|s| (s.clamp(-1.0, 1.0) * 32767.0).round() as i16),
        );
        &self.out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A sine of `hz` at `rate`, `n` samples, amplitude `amp`, starting at
    /// sample `from`.
    fn sine(hz: f64, rate: u32, from: usize, n: usize, amp: f64) -> Vec<f32> {
        (from..from + n)
            .map(|i| {
                (amp * (2.0 * std::f64::consts::PI * hz * i as f64 / f64::from(rate)).sin()) as f32
            })
            .collect()
    }

    fn rms(x: &[f32]) -> f64 {
        (x.iter().map(|&s| f64::from(s) * f64::from(s)).sum::<f64>() / x.len().max(1) as f64).sqrt()
    }

    /// Odd block sizes, as devices deliver them.
    const ODD: [usize; 7] = [441, 1, 1023, 17, 4097, 333, 960];

    #[test]
    fn a_stream_in_blocks_comes_out_as_the_whole_and_as_long_as_it_should() {
        for (from, to) in [
            (48_000, 16_000),
            (44_100, 16_000),
            (16_000, 48_000),
            (22_050, 16_000),
        ] {
            let x = sine(440.0, from, 0, from as usize * 3 / 2 + 7, 0.5);
            let whole = resample(&x, from, to);
            let mut r = Resampler::new(from, to).unwrap();
            let mut parts = Vec::new();
            let mut rest = &x[..];
            for n in ODD.iter().cycle() {
                if rest.is_empty() {
                    break;
                }
                let n = (*n).min(rest.len());
                r.push(&rest[..n], &mut parts);
                rest = &rest[n..];
            }
            r.finish(&mut parts);
            let want = (x.len() as u64 * u64::from(to) + u64::from(from) / 2) / u64::from(from);
            assert_eq!(whole.len() as u64, want, "{from} -> {to}");
            assert_eq!(parts, whole, "{from} -> {to}: blocks differ from the whole");
        }
    }

    #[test]
    fn the_delay_is_taken_off_and_a_tone_keeps_its_phase() {
        for (from, to) in [(48_000, 16_000), (44_100, 16_000), (16_000, 44_100)] {
            let x = sine(1000.0, from, 0, from as usize, 0.5);
            let y = resample(&x, from, to);
            let ideal = sine(1000.0, to, 0, y.len(), 0.5);
            // Away from the ends (the filter sees silence beyond them).
            let m = to as usize / 20;
            let err: Vec<f32> = y[m..y.len() - m]
                .iter()
                .zip(&ideal[m..y.len() - m])
                .map(|(a, b)| a - b)
                .collect();
            assert!(rms(&err) < 0.002, "{from} -> {to}: error {}", rms(&err));
        }
    }

    #[test]
    fn what_the_lower_rate_cannot_hold_is_filtered_out_not_folded_back() {
        // 10 kHz is above 16 kHz's Nyquist frequency: resampled naively it
        // comes back as a 6 kHz tone in the speech band.
        let x = sine(10_000.0, 48_000, 0, 48_000, 0.5);
        let y = resample(&x, 48_000, 16_000);
        let m = 800;
        assert!(
            rms(&y[m..y.len() - m]) < 0.5 / 2f64.sqrt() * 0.001,
            "alias at {} of the tone's level",
            rms(&y[m..y.len() - m]) / (0.5 / 2f64.sqrt())
        );
        // The speech band is kept: 6 kHz whole, 7 kHz nearly.
        for (hz, least) in [(6_000.0, 0.99), (7_000.0, 0.9)] {
            let x = sine(hz, 48_000, 0, 48_000, 0.5);
            let y = resample(&x, 48_000, 16_000);
            let level = rms(&y[m..y.len() - m]) / (0.5 / 2f64.sqrt());
            assert!(level > least, "{hz} Hz at {level}");
        }
    }

    #[test]
    fn the_same_rate_passes_unchanged_and_zero_is_refused() {
        let x: Vec<f32> = (0..1000).map(|i| i as f32 / 1000.0).collect();
        assert_eq!(resample(&x, 16_000, 16_000), x);
        assert!(Resampler::new(0, 16_000).is_err());
        assert!(Resampler::new(16_000, 0).is_err());
        assert_eq!(resample(&x, 0, 16_000), x);
        assert!(resample(&[], 44_100, 16_000).is_empty());
    }
}
