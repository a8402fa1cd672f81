//! The room test (issue 14): annabella never hears herself.
//!
//! annabella speaks through a loudspeaker while the microphone listens.
//! Here the room is simulated with real parts: the real binary, the real
//! Korean model, real espeak-ng audio. The hidden option `--room-echo`
//! renders each of annabella's own announcements with espeak-ng and mixes
//! it into the audio the WAV source (`--voice-wav`) plays, at the moment
//! she speaks it, as a loudspeaker would into a microphone; the player
//! waits for her to finish before speaking again.
//!
//! espeak-ng's Korean is recognized poorly (see the voice stack facts), so
//! a move heard from the echo is unlikely even without the mute. What is
//! counted is every decision the recognizers lead to (a move, a question,
//! a command, "not understood", "nothing heard"): the worker writes one
//! line per decision to the audio log. With the mute, the announcements
//! alone lead to none, and a game spoken by the player gets exactly one
//! decision per thing he said.
//!
//! The proof that these tests can fail: run them with
//! `ANNABELLA_NO_SELF_MUTE=1` (the mute switched off, test only; the
//! binary and the engine test read it). Every test here then fails:
//! annabella answers her own echo, and the answers echo again.
//!
//! Needs espeak-ng, sox and the model (env ANNABELLA_TEST_MODEL); skips
//! with a reason when missing, unless ANNABELLA_REQUIRE_E2E=1.

mod common;

use std::io::Write;
use std::path::{Path, PathBuf};

use common::room::{game_moves, silence, typed_game, uci};
use common::{synthesize_ko, voice_prerequisites as model};

use annabella::commands::Cmd;
use annabella::game::{Command as GameCommand, Side};
use annabella::locale::MsgKey;
use annabella::speech::activity::NO_MUTE_ENV;
use annabella::vocab::{Style, Vocabulary};

/// What one run in the room left behind.
#[derive(Debug)]
struct Room {
    /// Standard output (plain mode: every line said).
    lines: Vec<String>,
    /// Every decision of the recognizers (from the audio log).
    decisions: Vec<String>,
    /// How long (ms) the recognizers were deaf because annabella spoke.
    deaf: usize,
    /// The moves made on White's board, in UCI, from the journal.
    moves: Vec<String>,
}

/// Runs the play screen in the room: hotseat, Korean, speech on (into the
/// room), the player's recordings `files`, `typed` on standard input.
/// `ANNABELLA_NO_SELF_MUTE` passes through to the binary.
fn in_the_room(model: &Path, dir: &Path, files: &[PathBuf], typed: &str) -> Room {
    let data = tempfile::tempdir_in(dir).expect("a data folder");
    let journal = data.path().join("game.jsonl");
    let mut args: Vec<String> = [
        "--plain",
        "-l",
        "ko",
        "--mode",
        "hotseat",
        "--speak",
        "--room-echo",
        // The recordings' own timeline: the room as in real time, in a
        // fraction of it (tests/voice_live.rs keeps real time).
        "--wav-clock",
        common::wav_clock(),
        "--model",
    ]
    .iter()
    .map(|s| (*s).to_owned())
    .collect();
    args.push(model.to_string_lossy().into_owned());
    // A short journal name (run in the data folder): its line is spoken.
    args.push("--journal".into());
    args.push("game.jsonl".into());
    for f in files {
        args.push("--voice-wav".into());
        args.push(f.to_string_lossy().into_owned());
    }
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let mut cmd = common::annabella(&args, data.path());
    cmd.env("XDG_CACHE_HOME", data.path())
        .current_dir(data.path());
    if std::env::var(NO_MUTE_ENV).as_deref() == Ok("1") {
        eprintln!("{NO_MUTE_ENV}=1: the mute is off, this test is to fail");
    }
    let mut child = cmd.spawn().expect("the binary starts");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(typed.as_bytes())
        .expect("typed input");
    let out = child.wait_with_output().expect("the binary ends");
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(out.status.success(), "exit {:?}: {stderr}", out.status);
    let lines: Vec<String> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(str::to_owned)
        .collect();
    let log = std::fs::read_to_string(data.path().join("annabella").join("audio.log"))
        .unwrap_or_default();
    let decisions = log
        .lines()
        .filter_map(|l| l.strip_prefix("annabella voice: decision "))
        .map(str::to_owned)
        .collect();
    let deaf = log
        .lines()
        .filter_map(|l| l.strip_prefix("annabella voice: deaf for "))
        .filter_map(|l| l.split(' ').next()?.parse::<usize>().ok())
        .sum();
    let loaded = annabella::journal::read(&journal).expect("journal");
    let moves = loaded
        .records
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
    Room {
        lines,
        decisions,
        deaf,
        moves,
    }
}

/// The player speaks the whole game (each move, then the clock command),
/// in annabella's own Korean words (`announce --spoken`).
fn spoken_game(dir: &Path) -> (Vec<PathBuf>, Vec<String>) {
    let ko = Vocabulary::builtin("ko").expect("ko");
    let clock = ko
        .locale()
        .message(Cmd::Press.row().spoken.expect("press is spoken"), &[]);
    let clock = clock.split('|').next().unwrap_or_default().to_owned();
    let clock_wav = dir.join("clock.wav");
    synthesize_ko(&clock, 150, 50, &clock_wav);
    let mut files = Vec::new();
    let mut said = Vec::new();
    for (i, (pos, mv)) in game_moves().into_iter().enumerate() {
        let f = dir.join(format!("move{i}.wav"));
        synthesize_ko(&ko.announce(&pos, mv, Style::Long).spoken, 150, 50, &f);
        files.push(f);
        files.push(clock_wav.clone());
        said.push(uci(mv));
    }
    (files, said)
}

/// Announcements alone (the player types and stays silent) lead to no
/// decision at all: the one recording of silence is the only thing heard
/// ("nothing heard"), and the game's moves are exactly the typed ones.
fn check_silent_player(room: &Room) -> Result<(), String> {
    let typed: Vec<String> = game_moves().into_iter().map(|(_, m)| uci(m)).collect();
    if room.moves != typed {
        return Err(format!(
            "moves {:?} are not the typed {typed:?}",
            room.moves
        ));
    }
    if room.decisions.len() != 1 {
        return Err(format!(
            "{} decisions for one recording of silence: {:#?}",
            room.decisions.len(),
            room.decisions
        ));
    }
    Ok(())
}

/// A game spoken by the player: exactly one decision per recording, and
/// no move the player did not say.
fn check_spoken_game(room: &Room, files: usize, said: &[String]) -> Result<(), String> {
    if let Some(m) = room.moves.iter().find(|m| !said.contains(m)) {
        return Err(format!("a move nobody said: {m}"));
    }
    if room.decisions.len() != files {
        return Err(format!(
            "{} decisions for {files} recordings: {:#?}",
            room.decisions.len(),
            room.decisions
        ));
    }
    Ok(())
}

#[test]
fn annabellas_announcements_alone_lead_to_no_decision() {
    let Some(model) = model() else { return };
    let dir = tempfile::tempdir().expect("temp dir");
    let files = vec![silence(dir.path())];
    let room = in_the_room(&model, dir.path(), &files, &typed_game());
    check_silent_player(&room).unwrap_or_else(|e| panic!("{e}\n{room:#?}"));
    // Her voice was in the input (every announcement of the game, some
    // ten seconds of it), and the recognizers were deaf to it.
    assert!(room.deaf >= 5000, "{room:#?}");
    let ko = Vocabulary::builtin("ko").expect("ko");
    let nothing = ko.locale().message(MsgKey::VoiceNothingHeard, &[]);
    assert!(room.lines.contains(&nothing), "{room:#?}");
}

#[test]
fn a_game_spoken_in_the_room_is_heard_once_per_utterance_never_from_her_voice() {
    let Some(model) = model() else { return };
    let dir = tempfile::tempdir().expect("temp dir");
    let (files, said) = spoken_game(dir.path());
    let room = in_the_room(&model, dir.path(), &files, "");
    check_spoken_game(&room, files.len(), &said).unwrap_or_else(|e| panic!("{e}\n{room:#?}"));
    assert!(room.deaf >= 1000, "{room:#?}");
    eprintln!("{room:#?}");
}

/// The engine the play screen's worker runs, behind the same gate, fed
/// with stamped chunks (20 ms) of a simulated clock.
mod engine_behind_the_gate {
    use std::time::{Duration, Instant};

    use annabella::locale::MsgKey;
    use annabella::speech::Voice;
    use annabella::speech::activity::{CUT_TAIL_MS, SpeechActivity};
    use annabella::speech::espeak::EspeakNg;
    use annabella::vocab::{Style, Utterance, Vocabulary};
    use annabella::voice::audio::VadSettings;
    use annabella::voice::decide::{Decision, DecisionSettings};
    use annabella::voice::listener::{Heard, Listener};
    use annabella::voice::live::{LiveDecoder, gate};
    use annabella::voice::recognizer::VoskModel;
    use shakmaty::san::San;
    use shakmaty::{CastlingMode, Chess, Color, Position};

    const CHUNK: usize = 320;

    fn ms(n: usize) -> Duration {
        Duration::from_millis(n as u64)
    }

    /// The moment of sample `n` (16 kHz), exactly.
    fn sample(n: usize) -> Duration {
        Duration::from_secs_f64(n as f64 / 16_000.0)
    }

    fn silence(n_ms: usize) -> Vec<i16> {
        vec![0; n_ms * 16]
    }

    /// Feeds `audio` from `t0` on, through the gate when `activity` is
    /// given; presses the key at sample `press` and releases it at the
    /// end when `press` is given (push-to-talk), else hands-free.
    fn run(
        engine: &mut LiveDecoder<'_>,
        audio: &[i16],
        t0: Instant,
        activity: Option<&SpeechActivity>,
        press: Option<usize>,
    ) -> Vec<Heard> {
        let mut out = Vec::new();
        let mut fed = 0usize;
        for c in audio.chunks(CHUNK) {
            if press.is_some_and(|p| fed >= p && fed < p + CHUNK) {
                engine.press().expect("recognizer");
            }
            fed += c.len();
            let at = t0 + sample(fed);
            let mut block = c.to_vec();
            if let Some(a) = activity {
                gate(a, &mut block, at);
            }
            out.extend(
                engine
                    .push(&block, at)
                    .into_iter()
                    .map(|r| r.expect("decodes")),
            );
        }
        if press.is_some() {
            out.extend(
                engine
                    .release(t0 + sample(fed))
                    .map(|r| r.expect("decodes")),
            );
        } else {
            out.extend(engine.flush(t0 + sample(fed)).map(|r| r.expect("decodes")));
        }
        out
    }

    fn heard_words(h: &Heard) -> String {
        match &h.decision {
            Decision::Move { heard, .. }
            | Decision::Ask { heard, .. }
            | Decision::DidYouMean { heard, .. }
            | Decision::Number { heard, .. }
            | Decision::Command { heard, .. }
            | Decision::NotUnderstood { heard } => heard.clone(),
        }
    }

    #[test]
    fn her_announcement_never_reaches_the_recognizers_and_a_barge_in_is_heard() {
        let Some(model) = super::model() else { return };
        annabella::voice::stderr::quiet_vosk(true);
        let ko = Vocabulary::builtin("ko").expect("ko");
        let listener = Listener::new(
            VoskModel::load(&model).expect("model"),
            ko.clone(),
            DecisionSettings::default(),
        );
        let start = Chess::default();
        let e4 = "e4"
            .parse::<San>()
            .expect("san")
            .to_move(&start)
            .expect("legal");
        let mut after = start.clone();
        after.play_unchecked(e4);
        // White's move announced (what Black's board expects next).
        let said = ko.message(
            MsgKey::MirrorAnnounced,
            &[
                ("number", &Utterance::plain("1")),
                ("side", &ko.side(Color::White)),
                ("move", &ko.announce(&start, e4, Style::Short)),
            ],
        );
        let voice = Voice {
            language: "ko".into(),
            ..Voice::default()
        };
        let (espeak, _) = EspeakNg::probe(&voice).expect("espeak-ng");
        let echo = espeak.render(&said.spoken).expect("rendered");
        assert!(echo.len() > 16_000 / 2, "half a second of speech at least");
        let vad = VadSettings::default();
        let mode = CastlingMode::Standard;

        // Hands-free: her announcement alone.
        let mut input = silence(500);
        input.extend_from_slice(&echo);
        input.extend(silence(1500));
        let t0 = Instant::now();
        // Switched off by ANNABELLA_NO_SELF_MUTE=1 (to see this fail).
        let mute_tail = ms(annabella::speech::activity::DEFAULT_TAIL_MS as usize);
        let activity = SpeechActivity::from_env(mute_tail);
        activity.started_at(t0 + ms(500));
        activity.ended_at(t0 + ms(500) + sample(echo.len()));
        let mut engine = LiveDecoder::new(&listener, after.clone(), mode, true, vad);
        let muted = run(&mut engine, &input, t0, Some(&activity), None);
        assert!(muted.is_empty(), "heard her own voice: {muted:?}");
        // Without the gate the same audio leads to a decision.
        let mut engine = LiveDecoder::new(&listener, after.clone(), mode, true, vad);
        let open = run(&mut engine, &input, t0, None, None);
        assert!(!open.is_empty(), "the echo must be audible to the engine");

        // Push-to-talk barge-in: the player presses the key halfway
        // through her announcement; speech is cut (its last CUT_TAIL_MS
        // still sound), then he says his move.
        let black_e5 = {
            let e5 = "e5"
                .parse::<San>()
                .expect("san")
                .to_move(&after)
                .expect("legal");
            let dir = tempfile::tempdir().expect("temp dir");
            let f = dir.path().join("e5.wav");
            super::synthesize_ko(&ko.announce(&after, e5, Style::Long).spoken, 150, 50, &f);
            annabella::voice::audio::read_wav(&f).expect("wav")
        };
        let half = echo.len() / 2;
        let tail = CUT_TAIL_MS as usize * 16;
        let mut input = echo[..half + tail].to_vec();
        input.extend(silence(200));
        input.extend_from_slice(&black_e5);
        input.extend(silence(300));
        let t0 = Instant::now();
        let activity = SpeechActivity::from_env(mute_tail);
        activity.started_at(t0);
        activity.cut_at(t0 + sample(half));
        let mut engine = LiveDecoder::new(&listener, after.clone(), mode, false, vad);
        let barged = run(&mut engine, &input, t0, Some(&activity), Some(half));
        // The same words alone, key pressed in silence.
        let mut alone = vec![0i16; half + tail + 200 * 16];
        let press_at = half;
        alone.extend_from_slice(&black_e5);
        alone.extend(silence(300));
        let mut engine = LiveDecoder::new(&listener, after.clone(), mode, false, vad);
        let clean = run(&mut engine, &alone, t0, None, Some(press_at));
        assert_eq!(barged.len(), 1, "{barged:?}");
        assert_eq!(clean.len(), 1, "{clean:?}");
        // What reaches the recognizers is exactly the player's words: her
        // voice is silence, his audio untouched. (The decisions on equal
        // audio are printed, not compared: libvosk's n-best can differ
        // between runs on a busy machine.)
        let mut gated = Vec::new();
        let mut fed = 0usize;
        for c in input.chunks(CHUNK) {
            fed += c.len();
            let mut block = c.to_vec();
            gate(&activity, &mut block, t0 + sample(fed));
            gated.extend(block);
        }
        let first = gated.iter().zip(&alone).position(|(a, b)| a != b);
        assert!(
            gated.len() == alone.len() && first.is_none(),
            "the recognizers heard other audio than his words: from sample {first:?} \
             (her voice ended at {}; {} and {} samples)",
            half + tail,
            gated.len(),
            alone.len()
        );
        // Without the gate, her voice is in the utterance.
        let mut engine = LiveDecoder::new(&listener, after, mode, false, vad);
        let mixed = run(&mut engine, &input, t0, None, Some(half));
        println!(
            "barge-in: heard '{}' (alone: '{}'; without the gate: '{}')",
            heard_words(&barged[0]),
            heard_words(&clean[0]),
            mixed.first().map(heard_words).unwrap_or_default()
        );
    }
}
