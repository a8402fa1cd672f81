//! The live voice worker the play screen listens through
//! (`annabella::voice::live`): real espeak-ng Korean speech, real libvosk,
//! the real Korean model (env ANNABELLA_TEST_MODEL).
//!
//! As in tests/voice_e2e.rs, synthetic Korean is recognized poorly, so the
//! tests check the plumbing and **safety**: events arrive in order, silence
//! is "nothing heard", and no move is ever decided that was not said.
//!
//! Needs espeak-ng, sox and the model; the tests that need them skip with a
//! printed reason when one is missing, but fail when ANNABELLA_REQUIRE_E2E=1.

mod common;

use common::{
    noise_heard_as_commands, sox, synthesize_ko, tones_heard_as_words,
    voice_prerequisites as prerequisites,
};

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use annabella::commands::Cmd;
use annabella::vocab::{Style, Vocabulary};
use annabella::voice::audio::{VadSettings, read_wav};
use annabella::voice::decide::{Decision, DecisionSettings};
use annabella::voice::listener::{Heard, Listener};
use annabella::voice::live::{LiveDecoder, LiveVoice, VoiceEvent, VoiceFailure, VoiceSource};
use annabella::voice::recognizer::VoskModel;
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, Move, Position};

fn uci(m: Move) -> String {
    UciMove::from_move(m, CastlingMode::Standard).to_string()
}

/// Checks a decision against the move that was said (None: nothing was).
fn assert_safe(pos: &Chess, said: Option<Move>, h: &Heard, what: &str) {
    match &h.decision {
        Decision::Move { mv, heard } => {
            let said = said.unwrap_or_else(|| panic!("{what}: a move from no speech: '{heard}'"));
            assert_eq!(
                uci(*mv),
                uci(said),
                "{what}: a move that was not said, from '{heard}' ({})",
                h.json
            );
        }
        Decision::Ask { candidates, .. } | Decision::DidYouMean { candidates, .. } => {
            assert!(said.is_some(), "{what}: a question from no speech");
            assert!(!candidates.is_empty());
            for c in candidates {
                assert!(pos.is_legal(*c), "{what}: candidates must be legal");
            }
        }
        Decision::NotUnderstood { .. } | Decision::Command { .. } | Decision::Number { .. } => {}
    }
}

#[test]
fn a_missing_model_folder_gives_one_clear_line_and_no_ready() {
    let dir = tempfile::tempdir().expect("temp dir");
    let missing = dir.path().join("no-model-here");
    let vocab = Vocabulary::builtin("en").expect("en");
    let live = LiveVoice::start(
        missing.clone(),
        vocab.clone(),
        DecisionSettings::default(),
        VoiceSource::Files {
            paths: Vec::new(),
            silence_ms: 300,
            gap_ms: 0,
        },
        CastlingMode::Standard,
    );
    let event = live.wait(Duration::from_secs(20));
    let Some(VoiceEvent::Failed(failure)) = event else {
        panic!("expected Failed, got {event:?}");
    };
    let line = failure.describe(vocab.locale());
    assert!(!line.contains('\n'), "one line: {line}");
    assert!(
        line.contains(&missing.display().to_string()),
        "names the folder: {line}"
    );
    assert!(line.contains("--model"), "says what to do: {line}");
    // Nothing follows: no Ready, no Finished.
    assert!(live.wait(Duration::from_millis(300)).is_none());
}

#[test]
fn the_model_folder_is_the_one_given_first() {
    let vocab = Vocabulary::builtin("ko").expect("ko");
    let given = PathBuf::from("/somewhere/else");
    assert_eq!(
        annabella::voice::live::model_dir(&vocab, Some(&given)),
        Ok(given)
    );
}

#[test]
fn live_voice_plays_files_in_real_time_and_never_hears_a_wrong_move() {
    let Some(model_dir) = prerequisites() else {
        return;
    };
    let dir = tempfile::tempdir().expect("temp dir");
    let vocab = Vocabulary::builtin("ko").expect("ko");
    let pos = Chess::default();
    let moves: Vec<Move> = pos.legal_moves().into_iter().collect();
    let mut files: Vec<(PathBuf, Option<Move>)> = Vec::new();
    // Not audio: a Failed line, and the other files still play.
    let bad = dir.path().join("bad.wav");
    std::fs::write(&bad, b"this is not audio").expect("write");
    for (i, n) in [0usize, 7, 15].into_iter().enumerate() {
        let m = moves[n % moves.len()];
        let style = if i % 2 == 0 {
            Style::Long
        } else {
            Style::Short
        };
        let f = dir.path().join(format!("m{i}.wav"));
        synthesize_ko(&vocab.announce(&pos, m, style).spoken, 160, 50, &f);
        files.push((f, Some(m)));
    }
    let silence = dir.path().join("silence.wav");
    sox(&[
        "-n",
        "-r",
        "16000",
        "-c",
        "1",
        silence.to_str().expect("utf8"),
        "trim",
        "0",
        "1.0",
    ]);
    files.insert(1, (silence.clone(), None));
    let mut paths = vec![bad.clone()];
    paths.extend(files.iter().map(|(f, _)| f.clone()));
    let start = Instant::now();
    let live = LiveVoice::start(
        model_dir,
        vocab.clone(),
        DecisionSettings::default(),
        VoiceSource::Files {
            paths,
            silence_ms: 300,
            gap_ms: 600,
        },
        CastlingMode::Standard,
    );
    live.set_position(pos.clone(), CastlingMode::Standard);
    let mut events = Vec::new();
    loop {
        let e = live
            .wait(Duration::from_secs(60).saturating_sub(start.elapsed()))
            .unwrap_or_else(|| panic!("no Finished within 60 s; events: {events:?}"));
        let done = matches!(e, VoiceEvent::Finished);
        events.push(e);
        if done {
            break;
        }
    }
    let took = start.elapsed();
    println!("live files: {:.1} s", took.as_secs_f64());
    // Paced by the wall clock (the one voice test that keeps real time;
    // the others play on the recordings' own timeline): the recordings and
    // the silence after each cannot have been heard in less time than they
    // last.
    let audio: f64 = files
        .iter()
        .map(|(f, _)| {
            annabella::voice::audio::read_wav(f)
                .expect("a recording")
                .len() as f64
                / 16_000.0
                + 0.6
        })
        .sum();
    assert!(
        took.as_secs_f64() >= audio,
        "{audio:.2} s of recordings heard in {:.2} s: not real time",
        took.as_secs_f64()
    );
    assert!(
        matches!(&events[0], VoiceEvent::Ready { missing_words } if missing_words.is_empty()),
        "Ready first: {events:?}"
    );
    let failed: Vec<String> = events
        .iter()
        .filter_map(|e| match e {
            VoiceEvent::Failed(f) => Some(f.describe(vocab.locale())),
            _ => None,
        })
        .collect();
    assert_eq!(failed.len(), 1, "{events:?}");
    assert!(failed[0].contains("bad.wav") && !failed[0].contains('\n'));
    assert!(
        events.iter().any(|e| matches!(
            e,
            VoiceEvent::Failed(VoiceFailure::Wav { file, .. }) if *file == bad
        )),
        "the bad recording, typed: {events:?}"
    );
    let heard: Vec<&Heard> = events
        .iter()
        .filter_map(|e| match e {
            VoiceEvent::Heard(h) => Some(h),
            _ => None,
        })
        .collect();
    for (file, said) in &files {
        let mine: Vec<&&Heard> = heard
            .iter()
            .filter(|h| h.file.as_deref() == Some(file.as_path()))
            .collect();
        assert!(
            !mine.is_empty(),
            "nothing for {}: {events:?}",
            file.display()
        );
        for h in &mine {
            assert_safe(&pos, *said, h, &file.display().to_string());
        }
        if said.is_none() {
            assert_eq!(mine.len(), 1, "{mine:?}");
            assert_eq!(
                mine[0].decision,
                Decision::NotUnderstood {
                    heard: String::new()
                },
                "silence is nothing heard"
            );
        } else {
            // Spoken: decided on the end of speech, with the time it took.
            assert!(
                mine.iter().all(|h| h.since_speech_end.is_some()),
                "{mine:?}"
            );
        }
    }
    assert_eq!(
        heard.len(),
        heard.iter().filter(|h| h.file.is_some()).count(),
        "every decision names its file"
    );
    let moves_heard = heard
        .iter()
        .filter(|h| matches!(h.decision, Decision::Move { .. }))
        .count();
    println!(
        "live files: {} decisions ({moves_heard} moves) for {} files",
        heard.len(),
        files.len()
    );
}

fn load(model_dir: &Path) -> Listener {
    annabella::voice::stderr::quiet_vosk(true);
    let model = VoskModel::load(model_dir).expect("the test model loads");
    Listener::new(
        model,
        Vocabulary::builtin("ko").expect("ko"),
        DecisionSettings::default(),
    )
}

fn room(ms: usize) -> Vec<i16> {
    (0..ms * 16)
        .map(|k| ((k * 7919 % 61) as i16) - 30)
        .collect()
}

/// `said` synthesized in Korean at `speed`: the whole recording, and the
/// recording up to its last sound (espeak-ng adds 0.3 s of silence).
fn spoken(
    listener: &Listener,
    pos: &Chess,
    said: Move,
    style: Style,
    speed: u32,
) -> (Vec<i16>, Vec<i16>) {
    let dir = tempfile::tempdir().expect("temp dir");
    let wav = dir.path().join("said.wav");
    synthesize_ko(
        &listener.vocab.announce(pos, said, style).spoken,
        speed,
        50,
        &wav,
    );
    let speech = read_wav(&wav).expect("own WAV");
    let last = speech
        .iter()
        .rposition(|s| s.unsigned_abs() > 300)
        .unwrap_or(speech.len().saturating_sub(1));
    let trimmed = speech[..=last].to_vec();
    (speech, trimmed)
}

/// e2-e4 in long style, said in two parts: "pawn e2" and "e4" (each
/// synthesized on its own and cut after its last sound).
fn halves(pos: &Chess) -> (Vec<i16>, Vec<i16>) {
    let ko = Vocabulary::builtin("ko").expect("ko");
    let long = ko.announce(pos, e2e4(pos), Style::Long).spoken;
    let words: Vec<&str> = long.split_whitespace().collect();
    assert_eq!(words.len(), 5, "pawn, e, 2, e, 4: {long}");
    let dir = tempfile::tempdir().expect("temp dir");
    let cut = |text: &str, name: &str| {
        let wav = dir.path().join(name);
        synthesize_ko(text, 170, 50, &wav);
        let speech = read_wav(&wav).expect("own WAV");
        let last = speech
            .iter()
            .rposition(|s| s.unsigned_abs() > 300)
            .unwrap_or(speech.len().saturating_sub(1));
        speech[..=last].to_vec()
    };
    (
        cut(&words[..3].join(" "), "head.wav"),
        cut(&words[3..].join(" "), "tail.wav"),
    )
}

fn e2e4(pos: &Chess) -> Move {
    "e2e4"
        .parse::<UciMove>()
        .expect("uci")
        .to_move(pos)
        .expect("legal")
}

/// Feeds `audio` in 20 ms chunks (as fast as it can: the engine has no
/// clock of its own); returns the decisions.
fn feed(engine: &mut LiveDecoder<'_>, audio: &[i16]) -> Vec<Heard> {
    let mut out = Vec::new();
    for c in audio.chunks(320) {
        for r in engine.push(c, Instant::now()) {
            out.push(r.expect("recognizer starts"));
        }
    }
    out
}

#[test]
fn the_engine_decides_once_per_utterance_and_redecodes_when_speech_resumes() {
    let Some(model_dir) = prerequisites() else {
        return;
    };
    let listener = load(&model_dir);
    let pos = Chess::default();
    let moves: Vec<Move> = pos.legal_moves().into_iter().collect();
    let said = moves[3];
    let (speech, trimmed) = spoken(&listener, &pos, said, Style::Long, 170);
    let hands_free = |p: &Chess| {
        LiveDecoder::new(
            &listener,
            p.clone(),
            CastlingMode::Standard,
            true,
            VadSettings::default(),
        )
    };

    // One utterance: decided once, during the silence (early), and the
    // decision is given at the detector's end of speech.
    let mut engine = hands_free(&pos);
    engine.prepare();
    let mut audio = room(300);
    audio.extend_from_slice(&trimmed);
    audio.extend(room(800));
    let heard = feed(&mut engine, &audio);
    assert_eq!(heard.len(), 1, "{heard:?}");
    assert_safe(&pos, Some(said), &heard[0], "one utterance");
    let stats = engine.stats();
    assert!(stats.early >= 1 && stats.early_used == 1, "{stats:?}");
    assert!(!engine.talking());

    // A pause within a phrase, longer than the early finish but shorter
    // than the silence that ends the utterance: still one utterance; the
    // early decision is dropped and the whole utterance decoded again.
    // (What is heard before the pause is no whole phrase: nothing is
    // decided early, see `hands_free_never_cuts_a_phrase_short`.)
    let (head, tail) = halves(&pos);
    let mut engine = hands_free(&pos);
    let mut audio = room(300);
    audio.extend_from_slice(&head);
    audio.extend(room(220));
    audio.extend_from_slice(&tail);
    audio.extend(room(800));
    let heard = feed(&mut engine, &audio);
    assert_eq!(heard.len(), 1, "one utterance: {heard:?}");
    let stats = engine.stats();
    assert!(stats.redecoded >= 1, "{stats:?}");
    assert!(stats.early >= 2, "{stats:?}");
    assert_safe(&pos, Some(e2e4(&pos)), &heard[0], "with a pause");

    // The position changes while the player speaks: the decision is made
    // in the new position (every candidate legal there).
    let mut after = pos.clone();
    after.play_unchecked(moves[0]);
    let mut engine = hands_free(&pos);
    let mut audio = room(300);
    audio.extend_from_slice(&trimmed);
    let (first, rest) = audio.split_at(300 * 16 + trimmed.len() / 2);
    assert!(feed(&mut engine, first).is_empty());
    assert!(engine.talking(), "speech has started");
    engine.set_position(after.clone(), CastlingMode::Standard);
    let mut rest = rest.to_vec();
    rest.extend(room(800));
    let heard = feed(&mut engine, &rest);
    assert_eq!(heard.len(), 1, "{heard:?}");
    match &heard[0].decision {
        Decision::Move { mv, .. } => assert!(after.is_legal(*mv)),
        Decision::Ask { candidates, .. } | Decision::DidYouMean { candidates, .. } => {
            assert!(candidates.iter().all(|c| after.is_legal(*c)))
        }
        _ => {}
    }

    // Push-to-talk: a release without speech is "nothing heard" at once;
    // with speech, one decision; a release without a press, none.
    let mut engine = LiveDecoder::new(
        &listener,
        pos.clone(),
        CastlingMode::Standard,
        false,
        VadSettings::default(),
    );
    assert!(engine.release(Instant::now()).is_none());
    engine.press().expect("recognizer");
    assert!(feed(&mut engine, &room(600)).is_empty());
    let h = engine
        .release(Instant::now())
        .expect("a decision")
        .expect("recognizer");
    assert_eq!(
        h.decision,
        Decision::NotUnderstood {
            heard: String::new()
        }
    );
    engine.press().expect("recognizer");
    let mut audio = room(100);
    audio.extend_from_slice(&speech);
    assert!(
        feed(&mut engine, &audio).is_empty(),
        "push-to-talk waits for the release"
    );
    let h = engine
        .release(Instant::now())
        .expect("a decision")
        .expect("recognizer");
    assert_safe(&pos, Some(said), &h, "push-to-talk");
    assert!(h.since_speech_end.is_some());
}

/// Grammar-aware end of an utterance (issue 23): a whole phrase no other
/// goes on from is decided after a short silence, anything else waits for
/// the full one; no phrase is cut short at a pause within it.
#[test]
fn hands_free_never_cuts_a_phrase_short() {
    let Some(model_dir) = prerequisites() else {
        return;
    };
    let listener = load(&model_dir);
    let pos = Chess::default();
    let hands_free = || {
        LiveDecoder::new(
            &listener,
            pos.clone(),
            CastlingMode::Standard,
            true,
            VadSettings::default(),
        )
    };
    // "Pawn e2", a pause of 200 ms (longer than the short silence, shorter
    // than the full one), "e4": one utterance, decided once, never e2-e3
    // or anything else from its first part. Spoken at other pauses too.
    let (head, tail) = halves(&pos);
    for pause in [150, 200, 250] {
        let mut engine = hands_free();
        engine.prepare();
        let mut audio = room(300);
        audio.extend_from_slice(&head);
        audio.extend(room(pause));
        audio.extend_from_slice(&tail);
        audio.extend(room(800));
        let heard = feed(&mut engine, &audio);
        assert_eq!(heard.len(), 1, "pause {pause} ms: {heard:?}");
        assert_safe(&pos, Some(e2e4(&pos)), &heard[0], "pause");
    }
    // Its liveness twin: whole moves said alone are decided once, safely,
    // and those heard as a whole phrase no other goes on from are decided
    // after the short silence.
    let moves: Vec<Move> = pos.legal_moves().into_iter().collect();
    let mut short = 0;
    for (i, m) in moves.iter().enumerate().take(10) {
        let style = if i % 2 == 0 {
            Style::Short
        } else {
            Style::Long
        };
        let (_, trimmed) = spoken(&listener, &pos, *m, style, 150 + 10 * (i as u32 % 5));
        let mut engine = hands_free();
        engine.prepare();
        let mut audio = room(300);
        audio.extend_from_slice(&trimmed);
        audio.extend(room(800));
        let heard = feed(&mut engine, &audio);
        assert_eq!(heard.len(), 1, "{m:?}: {heard:?}");
        assert_safe(&pos, Some(*m), &heard[0], "alone");
        short += engine.stats().short;
    }
    assert!(short >= 1, "no move was decided after the short silence");
}

/// Korean phrases that are the beginning of others (issue 23 item 5):
/// "무승부" (a draw offer) while "무승부 수락" (the offer accepted) is a
/// command too. Said whole, with a pause after "무승부" longer than the
/// short silence and shorter than the full one, the utterance is never
/// cut short into the draw offer, and is decided once; said without a
/// pause, it is the accepted draw (its liveness twin), decided after the
/// short silence.
#[test]
fn hands_free_never_cuts_a_command_short_into_the_one_it_begins_with() {
    let Some(model_dir) = prerequisites() else {
        return;
    };
    let listener = load(&model_dir);
    let pos = Chess::default();
    let dir = tempfile::tempdir().expect("temp dir");
    let cut = |text: &str, name: &str, speed: u32, pitch: u32| {
        let wav = dir.path().join(name);
        synthesize_ko(text, speed, pitch, &wav);
        let speech = read_wav(&wav).expect("own WAV");
        let last = speech
            .iter()
            .rposition(|s| s.unsigned_abs() > 300)
            .unwrap_or(speech.len().saturating_sub(1));
        speech[..=last].to_vec()
    };
    let hands_free = || {
        LiveDecoder::new(
            &listener,
            pos.clone(),
            CastlingMode::Standard,
            true,
            VadSettings::default(),
        )
    };
    let accepted = |h: &Heard| {
        matches!(
            h.decision,
            Decision::Command {
                command: Cmd::Accept,
                ..
            }
        )
    };
    let offered = |h: &Heard| {
        matches!(
            h.decision,
            Decision::Command {
                command: Cmd::Draw,
                ..
            }
        )
    };
    // Synthetic Korean is often misheard: the voice is one in which the
    // whole phrase, said alone, is heard as the accepted draw; it must be
    // decided after the short silence (its liveness twin).
    let (speed, pitch) = [
        (150, 50),
        (130, 50),
        (170, 50),
        (150, 35),
        (150, 65),
        (190, 50),
        (110, 50),
    ]
    .into_iter()
    .find(|&(speed, pitch)| {
        let whole = cut("무승부 수락", "whole.wav", speed, pitch);
        let mut engine = hands_free();
        engine.prepare();
        let mut audio = room(300);
        audio.extend_from_slice(&whole);
        audio.extend(room(800));
        let heard = feed(&mut engine, &audio);
        assert_eq!(heard.len(), 1, "{heard:?}");
        let yes = accepted(&heard[0]);
        if yes {
            assert_eq!(engine.stats().short, 1, "{:?}", engine.stats());
        }
        yes
    })
    .expect("a voice whose 무승부 수락 is heard as the accepted draw");
    let head = cut("무승부", "head.wav", speed, pitch);
    let tail = cut("수락", "tail.wav", speed, pitch);
    for pause in [150, 200, 250] {
        let mut engine = hands_free();
        engine.prepare();
        let mut audio = room(300);
        audio.extend_from_slice(&head);
        audio.extend(room(pause));
        audio.extend_from_slice(&tail);
        audio.extend(room(800));
        let heard = feed(&mut engine, &audio);
        assert_eq!(heard.len(), 1, "pause {pause} ms: {heard:?}");
        assert!(
            !offered(&heard[0]),
            "pause {pause} ms: cut short: {heard:?}"
        );
        assert!(
            !matches!(heard[0].decision, Decision::Move { .. }),
            "pause {pause} ms: a move from a command: {heard:?}"
        );
    }
    // The first part alone: the draw offer, which another command goes
    // on from, waits for the full silence.
    let mut engine = hands_free();
    engine.prepare();
    let mut audio = room(300);
    audio.extend_from_slice(&head);
    audio.extend(room(800));
    let heard = feed(&mut engine, &audio);
    assert_eq!(heard.len(), 1, "{heard:?}");
    assert_eq!(engine.stats().short, 0, "{heard:?}");
}

#[test]
fn push_to_talk_decides_during_the_pause_before_the_key_is_released() {
    let Some(model_dir) = prerequisites() else {
        return;
    };
    let listener = load(&model_dir);
    let pos = Chess::default();
    let moves: Vec<Move> = pos.legal_moves().into_iter().collect();
    let said = moves[5];
    let (_, trimmed) = spoken(&listener, &pos, said, Style::Short, 160);
    let push_to_talk = || {
        LiveDecoder::new(
            &listener,
            pos.clone(),
            CastlingMode::Standard,
            false,
            VadSettings::default(),
        )
    };
    let release = |engine: &mut LiveDecoder<'_>| {
        engine
            .release(Instant::now())
            .expect("a decision at the release")
            .expect("recognizer")
    };

    // The key held before speaking prepares nothing; the pause after the
    // last word does, and the release gives that decision.
    let mut engine = push_to_talk();
    engine.prepare();
    engine.press().expect("recognizer");
    assert!(feed(&mut engine, &room(500)).is_empty());
    assert_eq!(engine.stats().early, 0, "no speech yet: nothing to decide");
    let mut audio = trimmed.clone();
    audio.extend(room(300));
    assert!(
        feed(&mut engine, &audio).is_empty(),
        "waits for the release"
    );
    assert_eq!(engine.stats().early, 1, "decided during the pause");
    let h = release(&mut engine);
    assert_eq!(engine.stats().early_used, 1, "{:?}", engine.stats());
    assert_safe(&pos, Some(said), &h, "released after a pause");
    assert!(!engine.talking());

    // Released with the last sound: nothing was prepared; the final
    // results are made at the release.
    let mut engine = push_to_talk();
    engine.press().expect("recognizer");
    let mut audio = room(100);
    audio.extend_from_slice(&trimmed);
    assert!(feed(&mut engine, &audio).is_empty());
    let h = release(&mut engine);
    let stats = engine.stats();
    assert_eq!((stats.early, stats.early_used), (0, 0), "{stats:?}");
    assert_safe(&pos, Some(said), &h, "released with the last sound");

    // Speech resumes after a pause, the key still down: the prepared
    // decision is dropped, the whole utterance decoded again, and the
    // release gives one decision on all of it.
    let mut engine = push_to_talk();
    engine.press().expect("recognizer");
    let mut audio = trimmed.clone();
    audio.extend(room(180));
    audio.extend_from_slice(&trimmed);
    audio.extend(room(300));
    assert!(feed(&mut engine, &audio).is_empty());
    let stats = engine.stats();
    assert!(stats.early >= 2 && stats.redecoded >= 1, "{stats:?}");
    let h = release(&mut engine);
    assert_eq!(engine.stats().early_used, 1, "{:?}", engine.stats());
    assert_safe(&pos, Some(said), &h, "said twice, key held");
}

#[test]
fn noise_is_never_heard_as_a_command_move_number_or_question() {
    let Some(model_dir) = prerequisites() else {
        return;
    };
    let mut listener = load(&model_dir);
    let dir = tempfile::tempdir().expect("temp dir");
    let pos = Chess::default();
    let files = noise_heard_as_commands(dir.path());
    let hear_all = |listener: &Listener| -> Vec<(String, Decision)> {
        let mut out = Vec::new();
        for f in &files {
            let mut engine = LiveDecoder::new(
                listener,
                pos.clone(),
                CastlingMode::Standard,
                true,
                VadSettings::default(),
            );
            let mut audio = room(300);
            audio.extend(read_wav(f).expect("own WAV"));
            audio.extend(room(800));
            for h in feed(&mut engine, &audio) {
                out.push((f.display().to_string(), h.decision));
            }
        }
        out
    };
    // The premise: without the voicing check, the recognizers make words
    // of this noise: command words (whole files, tests/voice_e2e.rs) or,
    // cut by the detector with its pre-roll, questions about moves.
    listener.voicing = annabella::voice::voicing::VoicingSettings::off();
    let before = hear_all(&listener);
    let acted = before
        .iter()
        .filter(|(_, d)| !matches!(d, Decision::NotUnderstood { .. }))
        .count();
    assert!(
        acted > 0,
        "nothing heard in the noise without the check: {before:?}"
    );
    // With it (the default): every utterance of noise is "nothing heard".
    listener.voicing = annabella::voice::voicing::VoicingSettings::default();
    let after = hear_all(&listener);
    assert!(!after.is_empty(), "the detector heard no utterance at all");
    for (f, d) in &after {
        assert_eq!(
            *d,
            Decision::NotUnderstood {
                heard: String::new()
            },
            "{f}"
        );
    }
    println!(
        "noise: {} utterances, {acted} decided (command, move, number or question) without the voicing check, none with it",
        after.len()
    );
}

#[test]
fn a_sustained_tone_or_chord_is_never_heard_as_a_command_move_number_or_question() {
    let Some(model_dir) = prerequisites() else {
        return;
    };
    let mut listener = load(&model_dir);
    let dir = tempfile::tempdir().expect("temp dir");
    let pos = Chess::default();
    let files = tones_heard_as_words(dir.path());
    let hear_all = |listener: &Listener| -> Vec<(String, Decision)> {
        let mut out = Vec::new();
        for f in &files {
            let mut engine = LiveDecoder::new(
                listener,
                pos.clone(),
                CastlingMode::Standard,
                true,
                VadSettings::default(),
            );
            let mut audio = room(300);
            audio.extend(read_wav(f).expect("own WAV"));
            audio.extend(room(800));
            for h in feed(&mut engine, &audio) {
                out.push((f.display().to_string(), h.decision));
            }
        }
        out
    };
    // The premise: the voicing check as it was (enough voiced frames, no
    // tone check) lets these tones through, and the recognizers make
    // words of them.
    listener.voicing = annabella::voice::voicing::VoicingSettings {
        tone_max_movement: 0.0,
        ..Default::default()
    };
    let before = hear_all(&listener);
    let acted = before
        .iter()
        .filter(|(_, d)| !matches!(d, Decision::NotUnderstood { .. }))
        .count();
    assert!(
        acted > 0,
        "nothing heard in the tones without the tone check: {before:?}"
    );
    // With it (the default): every one is "nothing heard".
    listener.voicing = annabella::voice::voicing::VoicingSettings::default();
    let after = hear_all(&listener);
    assert!(!after.is_empty(), "the detector heard no utterance at all");
    for (f, d) in &after {
        assert_eq!(
            *d,
            Decision::NotUnderstood {
                heard: String::new()
            },
            "{f}"
        );
    }
    println!(
        "tones: {} utterances, {acted} decided (command, move, number or question) without the tone check, none with it",
        after.len()
    );
}
