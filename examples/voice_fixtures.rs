//! Chooses, by measuring, the recordings of `tests/fixtures/voice/`: a
//! game's first ten moves, "yes" and "clock" in Korean, each one the model
//! hears clearly, so that the voice tests can require the right moves to
//! be played (liveness), not only no wrong one (safety).
//!
//!     cargo run --release --example voice_fixtures [-- --out DIR --tries N --from K --bin PATH]
//!
//! `--bin target/release/annabella` (how the fixtures are chosen): every
//! candidate that passes the `LiveDecoder` sieve below is said to the
//! real binary, after the game so far, exactly as
//! tests/voice_moves_played.rs says it, hands-free and push-to-talk; it
//! is kept only if both end with the game's moves so far and this one on
//! the board and pressed ("yes" and "clock" are kept as they are). Without
//! `--bin`, the older choice by `LiveDecoder` alone, which the binary did
//! not reproduce (see tests/fixtures/voice/README.md).
//!
//! `--enough N`: a move's search stops after N candidates once one is
//! kept (else it goes on to `--tries`); so does a command's.
//!
//! `--from K`: the moves before the K-th (1-based) keep the recordings
//! already in DIR (heard again for the manifest); a run can go on where
//! one stopped.
//!
//! For every move of the game (a Ruy Lopez (Berlin) to move 5) espeak-ng speaks
//! annabella's own words for it (`announce --spoken`, short and long
//! style) in several voices, speeds and pitches. Each candidate is heard
//! in its position through the play screen's paths: the live decoder
//! hands-free (room noise before and after, the detector ends the
//! utterance) and push-to-talk (key pressed before, released after), each
//! twice. A candidate is kept
//! only if every one of those hearings ends as the right move played: the
//! move taken, or asked alone (or first, "did you mean") so that "yes"
//! plays it. Among the kept, a move taken in every hearing is preferred;
//! then the shortest. "Yes" must be heard as that command in every position a move is
//! asked in, "clock" in every position after a move, in every path.
//!
//! Writes `NN-SAN.wav` (16 kHz mono 16-bit, silence trimmed to 60 ms),
//! `yes.wav`, `clock.wav` and `manifest.tsv` (file, what is said, voice,
//! speed, pitch, what every hearing gave). Needs espeak-ng and the Korean
//! model (env `ANNABELLA_TEST_MODEL`).

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use annabella::commands::Cmd;
use annabella::game::{Command as GameCommand, Side};
use annabella::vocab::{Style, Vocabulary};
use annabella::voice::audio::{VadSettings, read_wav};
use annabella::voice::decide::{Decision, DecisionSettings};
use annabella::voice::listener::Listener;
use annabella::voice::live::LiveDecoder;
use annabella::voice::recognizer::VoskModel;
use shakmaty::san::San;
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, Move, Position};

/// The game: a Ruy Lopez, Berlin, to move 5 (both sides castle; no 3...a6: the model heard no recording of it in 130 tries).
pub const GAME: [&str; 10] = [
    "e4", "e5", "Nf3", "Nc6", "Bb5", "Nf6", "O-O", "Be7", "Re1", "O-O",
];

const MODE: CastlingMode = CastlingMode::Standard;

/// Push-to-talk through the binary: the key goes up this long after the
/// recording's last sound, as tests/voice_moves_played.rs says it (a
/// player lets go of the key after speaking, not on the last sample).
const RELEASE_MS: &str = "200";

fn fail(what: &str) -> ! {
    eprintln!("voice_fixtures: {what}");
    std::process::exit(1)
}

/// How a hearing ends for a move said: 3 taken, 2 asked alone (yes plays
/// it), 1 first of a "did you mean" (yes plays it), 0 not played, -1 a
/// wrong move taken.
fn rank(d: &Decision, said: Move) -> i32 {
    match d {
        Decision::Move { mv, .. } if *mv == said => 3,
        Decision::Move { .. } => -1,
        Decision::Ask { candidates, .. } if candidates.as_slice() == [said] => 2,
        Decision::DidYouMean { candidates, .. } if candidates.first() == Some(&said) => 1,
        _ => 0,
    }
}

fn short(d: &Decision) -> String {
    match d {
        Decision::Move { .. } => "taken".into(),
        Decision::Ask { candidates, .. } => format!("ask{}", candidates.len()),
        Decision::DidYouMean { candidates, .. } => format!("dym{}", candidates.len()),
        Decision::Command { command, .. } => format!("{command:?}").to_lowercase(),
        Decision::Number { .. } => "number".into(),
        Decision::NotUnderstood { heard } if heard.is_empty() => "nothing".into(),
        Decision::NotUnderstood { .. } => "not-understood".into(),
    }
}

/// The real binary, hearing a candidate as tests/voice_moves_played.rs
/// says it: the game so far (the recordings kept, each with "yes" and
/// "clock"), then the candidate, "yes" and "clock", all by `--voice-wav`
/// (digital silence around, `--wav-clock fast`), hands-free or
/// push-to-talk, from the start position. `hear` returns the rank (3
/// taken, 1 asked and played by the spoken "yes", 0 not played or not
/// pressed, -1 a move other than the game's) and the decisions of the
/// candidate, its yes and its clock.
struct Binary {
    bin: PathBuf,
    model: PathBuf,
}

impl Binary {
    /// `played`: the game's moves before the one said (their recordings
    /// in `files` first, each with "yes" and "clock"), `said` the move
    /// whose recording (with "yes" and "clock") ends `files`.
    fn hear(&self, played: &[Move], said: Move, files: &[PathBuf], ptt: bool) -> (i32, String) {
        let dir = tempfile::tempdir().unwrap_or_else(|e| fail(&e.to_string()));
        let journal = dir.path().join("game.jsonl");
        let mut cmd = Command::new(&self.bin);
        cmd.args([
            "--plain",
            "-l",
            "ko",
            "--mode",
            "hotseat",
            "--wav-clock",
            "fast",
        ])
        .arg("--model")
        .arg(&self.model)
        .arg("--journal")
        .arg(&journal);
        if ptt {
            cmd.args(["--push-to-talk", "--release-ms", RELEASE_MS]);
        }
        for f in files {
            cmd.arg("--voice-wav").arg(f);
        }
        let out = cmd
            .env("XDG_DATA_HOME", dir.path())
            .env("XDG_CONFIG_HOME", dir.path())
            .env("XDG_CACHE_HOME", dir.path())
            .stdin(std::process::Stdio::null())
            .output()
            .unwrap_or_else(|e| fail(&format!("{}: {e}", self.bin.display())));
        if !out.status.success() {
            fail(&format!(
                "the binary failed: {}",
                String::from_utf8_lossy(&out.stderr)
            ));
        }
        let log = std::fs::read_to_string(dir.path().join("annabella").join("audio.log"))
            .unwrap_or_default();
        let decisions: Vec<String> = log
            .lines()
            .filter_map(|l| l.strip_prefix("annabella voice: decision "))
            .map(|d| {
                d.split([' ', '{', '('])
                    .next()
                    .unwrap_or_default()
                    .to_lowercase()
            })
            .collect();
        let records = annabella::journal::read(&journal)
            .map(|l| l.records)
            .unwrap_or_default();
        let moves: Vec<String> = records
            .iter()
            .filter_map(|r| match &r.event {
                GameCommand::Board {
                    side: Side::White,
                    uci,
                    ..
                } => uci.clone(),
                _ => None,
            })
            .collect();
        let presses = records
            .iter()
            .filter(|r| matches!(r.event, GameCommand::Press))
            .count();
        let want: Vec<String> = played
            .iter()
            .chain([&said])
            .map(|m| UciMove::from_move(*m, MODE).to_string())
            .collect();
        let n = want.len();
        let rank = if moves.iter().zip(&want).any(|(m, w)| m != w) || moves.len() > n {
            -1
        } else if moves.len() != n || presses != n {
            0
        } else if decisions.get(3 * (n - 1)).is_some_and(|d| d == "move") {
            3
        } else {
            1
        };
        let last = decisions.get(3 * (n - 1)..).unwrap_or_default();
        (rank, last.join("+"))
    }
}

/// Quiet room noise (as tests/voice_live.rs).
fn room(ms: usize) -> Vec<i16> {
    (0..ms * 16)
        .map(|k| ((k * 7919 % 61) as i16) - 30)
        .collect()
}

fn feed(engine: &mut LiveDecoder<'_>, audio: &[i16]) -> Vec<Decision> {
    let mut out = Vec::new();
    for c in audio.chunks(320) {
        for r in engine.push(c, Instant::now()) {
            out.push(r.unwrap_or_else(|_| fail("no recognizer")).decision);
        }
    }
    out
}

/// Hands-free: `speech` between room noise, the detector ends it.
fn hands_free(listener: &Listener, pos: &Chess, speech: &[i16]) -> Option<Decision> {
    let mut engine = LiveDecoder::new(listener, pos.clone(), MODE, true, VadSettings::default());
    engine.prepare();
    let mut audio = room(400);
    audio.extend_from_slice(speech);
    audio.extend(room(1000));
    let mut got = feed(&mut engine, &audio);
    got.extend(
        engine
            .flush(Instant::now())
            .map(|r| r.unwrap_or_else(|_| fail("no recognizer")).decision),
    );
    (got.len() == 1).then(|| got.remove(0))
}

/// Push-to-talk: the key pressed before `speech`, released after.
fn push_to_talk(listener: &Listener, pos: &Chess, speech: &[i16]) -> Option<Decision> {
    let mut engine = LiveDecoder::new(listener, pos.clone(), MODE, false, VadSettings::default());
    engine.prepare();
    let _ = engine.press();
    let mut audio = room(200);
    audio.extend_from_slice(speech);
    audio.extend(room(200));
    let mut got = feed(&mut engine, &audio);
    got.extend(
        engine
            .release(Instant::now())
            .map(|r| r.unwrap_or_else(|_| fail("no recognizer")).decision),
    );
    (got.len() == 1).then(|| got.remove(0))
}

/// Every hearing of `speech` in `pos` the play screen can make:
/// hands-free and push-to-talk, each twice (`first`: a hands-free one
/// made already). `None` for a path that gave not exactly one decision.
fn hearings(
    listener: &Listener,
    pos: &Chess,
    speech: &[i16],
    first: Option<Decision>,
) -> Vec<Option<Decision>> {
    let first = match first {
        Some(d) => Some(d),
        None => hands_free(listener, pos, speech),
    };
    vec![
        first,
        hands_free(listener, pos, speech),
        push_to_talk(listener, pos, speech),
        push_to_talk(listener, pos, speech),
    ]
}

/// espeak-ng's `text` in `voice` as 16 kHz mono, its silence trimmed to
/// 60 ms at each end.
fn say(text: &str, voice: &str, speed: u32, pitch: u32, tmp: &Path) -> Vec<i16> {
    let raw = tmp.join("say.wav");
    let ok = Command::new("espeak-ng")
        .args([
            "-v",
            voice,
            "-s",
            &speed.to_string(),
            "-p",
            &pitch.to_string(),
            "-w",
        ])
        .arg(&raw)
        .arg(text)
        .status()
        .is_ok_and(|s| s.success());
    if !ok {
        fail("espeak-ng failed");
    }
    let s = read_wav(&raw).unwrap_or_else(|e| fail(&e.to_string()));
    let first = s.iter().position(|v| v.unsigned_abs() > 300).unwrap_or(0);
    let last = s
        .iter()
        .rposition(|v| v.unsigned_abs() > 300)
        .unwrap_or(s.len());
    let margin = 60 * 16;
    s[first.saturating_sub(margin)..(last + margin).min(s.len())].to_vec()
}

fn write(path: &Path, samples: &[i16]) {
    let spec = hound::WavSpec {
        channels: 1,
        sample_rate: 16_000,
        bits_per_sample: 16,
        sample_format: hound::SampleFormat::Int,
    };
    let mut w = hound::WavWriter::create(path, spec).unwrap_or_else(|e| fail(&e.to_string()));
    for s in samples {
        w.write_sample(*s).unwrap_or_else(|e| fail(&e.to_string()));
    }
    w.finalize().unwrap_or_else(|e| fail(&e.to_string()));
}

/// splitmix64: the order candidates are tried in.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}

#[derive(Clone)]
struct Candidate {
    voice: &'static str,
    speed: u32,
    pitch: u32,
    style: Option<Style>,
    text: String,
}

fn candidates(texts: &[(Option<Style>, String)], rng: &mut Rng) -> Vec<Candidate> {
    let voices = ["ko", "ko+f3", "ko+m3", "ko+m7", "ko+f2", "ko+m2"];
    let mut out = Vec::new();
    for (style, text) in texts {
        for voice in voices {
            for speed in [130, 150, 170] {
                for pitch in [35, 50, 65] {
                    out.push((
                        rng.next(),
                        Candidate {
                            voice,
                            speed,
                            pitch,
                            style: *style,
                            text: text.clone(),
                        },
                    ));
                }
            }
        }
    }
    out.sort_by_key(|c| c.0);
    out.into_iter().map(|c| c.1).collect()
}

fn main() {
    let mut out_dir = PathBuf::from("tests/fixtures/voice");
    let mut tries = 30usize;
    let mut from = 1usize;
    let mut enough = usize::MAX;
    let mut bin: Option<PathBuf> = None;
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let value = it.next().unwrap_or_default();
        match flag.as_str() {
            "--out" => out_dir = PathBuf::from(value),
            "--tries" => tries = value.parse().unwrap_or(30),
            "--from" => from = value.parse().unwrap_or(1),
            "--enough" => enough = value.parse().unwrap_or(usize::MAX),
            "--bin" => bin = Some(PathBuf::from(value)),
            other => fail(&format!("unknown option {other}")),
        }
    }
    let model = std::env::var_os("ANNABELLA_TEST_MODEL")
        .map(PathBuf::from)
        .unwrap_or_else(|| fail("set ANNABELLA_TEST_MODEL to the Korean model's folder"));
    let binary = bin.map(|bin| Binary {
        bin,
        model: model.clone(),
    });
    annabella::voice::stderr::quiet_vosk(true);
    let vocab = Vocabulary::builtin("ko").unwrap_or_else(|e| fail(&format!("{e:?}")));
    let listener = Listener::new(
        VoskModel::load(&model).unwrap_or_else(|e| fail(&e.to_string())),
        vocab.clone(),
        DecisionSettings::default(),
    );
    let tmp = tempfile::tempdir().unwrap_or_else(|e| fail(&e.to_string()));
    std::fs::create_dir_all(&out_dir).unwrap_or_else(|e| fail(&e.to_string()));
    let mut rng = Rng(25);
    let mut manifest = String::from(if binary.is_some() {
        "file\tsays\tvoice\tspeed\tpitch\thearings through the binary (hands-free, push-to-talk; rank 3 taken, 1 asked and confirmed: decisions of the move, yes, clock)\n"
    } else {
        "file\tsays\tvoice\tspeed\tpitch\thearings (hands-free twice, push-to-talk twice)\n"
    });
    let mut positions = Vec::new();
    let mut after = Vec::new();
    // Through the binary: the game so far, said with the recordings kept.
    let mut played: Vec<Move> = Vec::new();
    let mut prefix: Vec<PathBuf> = Vec::new();
    let mut pos = Chess::default();
    for (ply, san) in GAME.iter().enumerate() {
        let mv = san
            .parse::<San>()
            .ok()
            .and_then(|s| s.to_move(&pos).ok())
            .unwrap_or_else(|| fail(&format!("{san} is not legal")));
        positions.push(pos.clone());
        let name = format!("{:02}-{}.wav", ply + 1, san.replace('-', ""));
        if ply + 1 < from {
            let seen: Vec<String> = match &binary {
                Some(b) => {
                    let mut files = prefix.clone();
                    files.extend([
                        out_dir.join(&name),
                        out_dir.join("yes.wav"),
                        out_dir.join("clock.wav"),
                    ]);
                    [false, true]
                        .into_iter()
                        .map(|ptt| {
                            let (r, d) = b.hear(&played, mv, &files, ptt);
                            format!("{r}:{d}")
                        })
                        .collect()
                }
                None => {
                    let speech =
                        read_wav(&out_dir.join(&name)).unwrap_or_else(|e| fail(&e.to_string()));
                    hearings(&listener, &pos, &speech, None)
                        .iter()
                        .map(|d| d.as_ref().map_or("none".into(), short))
                        .collect()
                }
            };
            manifest.push_str(&format!(
                "{name}\t(kept: see chosen.log)\t-\t-\t-\t{}\n",
                seen.join(" ")
            ));
            println!("=> {name}: kept ({})", seen.join(" "));
            pos.play_unchecked(mv);
            after.push(pos.clone());
            played.push(mv);
            prefix.extend([
                out_dir.join(&name),
                out_dir.join("yes.wav"),
                out_dir.join("clock.wav"),
            ]);
            continue;
        }
        let texts: Vec<(Option<Style>, String)> = [Style::Short, Style::Long]
            .into_iter()
            .map(|st| (Some(st), vocab.announce(&pos, mv, st).spoken))
            .collect();
        let mut best: Option<(i32, usize, Candidate, Vec<i16>, String)> = None;
        for (k, c) in candidates(&texts, &mut rng).into_iter().enumerate() {
            if k >= tries || best.as_ref().is_some_and(|b| b.0 == 3 || k >= enough) {
                break;
            }
            let speech = say(&c.text, c.voice, c.speed, c.pitch, tmp.path());
            let first = hands_free(&listener, &pos, &speech);
            if first.as_ref().is_none_or(|d| rank(d, mv) < 1) {
                continue;
            }
            let (worst, seen): (i32, Vec<String>) = match &binary {
                // As the binary hears it: the move, "yes", "clock", from
                // this position, hands-free and push-to-talk.
                Some(b) => {
                    let wav = tmp.path().join("candidate.wav");
                    write(&wav, &speech);
                    let mut files = prefix.clone();
                    files.extend([wav, out_dir.join("yes.wav"), out_dir.join("clock.wav")]);
                    let mut worst = 3;
                    let mut seen = Vec::new();
                    for ptt in [false, true] {
                        let (r, d) = b.hear(&played, mv, &files, ptt);
                        worst = worst.min(r);
                        seen.push(format!("{r}:{d}"));
                        if r < 1 {
                            break;
                        }
                    }
                    (worst, seen)
                }
                None => {
                    let all = hearings(&listener, &pos, &speech, first);
                    (
                        all.iter()
                            .map(|d| d.as_ref().map_or(0, |d| rank(d, mv)))
                            .min()
                            .unwrap_or(0),
                        all.iter()
                            .map(|d| d.as_ref().map_or("none".into(), short))
                            .collect(),
                    )
                }
            };
            println!(
                "{:>2} {san:<4} {} s{} p{} {:?}: {}",
                ply + 1,
                c.voice,
                c.speed,
                c.pitch,
                c.style,
                seen.join(" ")
            );
            if worst < 1 {
                continue;
            }
            let better = match &best {
                None => true,
                Some(b) => worst > b.0 || (worst == b.0 && speech.len() < b.1),
            };
            if better {
                best = Some((worst, speech.len(), c, speech, seen.join(" ")));
            }
        }
        let Some((worst, _, c, speech, seen)) = best else {
            fail(&format!(
                "no recording of {san} is heard clearly: try more (--tries)"
            ));
        };
        write(&out_dir.join(&name), &speech);
        manifest.push_str(&format!(
            "{name}\t{}\t{}\t{}\t{}\t{seen}\n",
            c.text, c.voice, c.speed, c.pitch
        ));
        println!("=> {name}: worst {worst} ({seen})");
        pos.play_unchecked(mv);
        after.push(pos.clone());
        played.push(mv);
        prefix.extend([
            out_dir.join(&name),
            out_dir.join("yes.wav"),
            out_dir.join("clock.wav"),
        ]);
    }
    // The commands, heard in three positions of the game. Through the
    // binary, "yes" and "clock" are kept and heard with every move above.
    for (command, name) in [(Cmd::Yes, "yes"), (Cmd::Press, "clock")] {
        if binary.is_some() {
            manifest.push_str(&format!(
                "{name}.wav\t(kept)\t-\t-\t-\theard after every move above\n"
            ));
            continue;
        }
        let words = vocab
            .locale()
            .message(command.row().spoken.expect("a spoken command"), &[]);
        let texts: Vec<(Option<Style>, String)> =
            words.split('|').map(|w| (None, w.to_owned())).collect();
        let mut best: Option<(usize, Candidate, Vec<i16>, String)> = None;
        for (k, c) in candidates(&texts, &mut rng).into_iter().enumerate() {
            if k >= tries || (best.is_some() && k >= enough) {
                break;
            }
            let speech = say(&c.text, c.voice, c.speed, c.pitch, tmp.path());
            let mut seen = Vec::new();
            let mut clear = true;
            // "Yes" is said in the position the move was asked in; the
            // press ("clock") after the move, in the position it made.
            let wheres: Vec<&Chess> = if command == Cmd::Yes {
                positions.iter().collect()
            } else {
                after.iter().collect()
            };
            for p in wheres {
                for d in hearings(&listener, p, &speech, None) {
                    let ok = matches!(&d, Some(Decision::Command { command: got, .. }) if *got == command);
                    clear &= ok;
                    seen.push(d.as_ref().map_or("none".into(), short));
                }
                if !clear {
                    break;
                }
            }
            println!(
                "{name} '{}' {} s{} p{}: {}",
                c.text,
                c.voice,
                c.speed,
                c.pitch,
                seen.join(" ")
            );
            if clear && best.as_ref().is_none_or(|b| speech.len() < b.0) {
                best = Some((speech.len(), c, speech, seen.join(" ")));
            }
        }
        let Some((_, c, speech, seen)) = best else {
            fail(&format!("no recording of {name} is heard clearly"));
        };
        write(&out_dir.join(format!("{name}.wav")), &speech);
        manifest.push_str(&format!(
            "{name}.wav\t{}\t{}\t{}\t{}\t{seen}\n",
            c.text, c.voice, c.speed, c.pitch
        ));
    }
    std::fs::write(out_dir.join("manifest.tsv"), manifest).unwrap_or_else(|e| fail(&e.to_string()));
}
