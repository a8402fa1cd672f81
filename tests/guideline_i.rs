//! Guideline I of the FIDE Laws (adjourned games), clause by clause, with
//! the real binary: `play --script` with injected game time, `resume` of an
//! adjourned journal, its PGN export, and the play screen in `--plain`.
//! Expected sentences come from the locale data (fide speaks German: the de
//! messages), never from the code under test.

mod common;

use std::path::Path;
use std::process::{Command, Output};

use common::{de, de_word};
use shakmaty::fen::Fen;
use shakmaty::san::San;
use shakmaty::{CastlingMode, Chess};

use annabella::locale::MsgKey;
use annabella::vocab::{Style, Vocabulary};

fn bin() -> &'static str {
    env!("CARGO_BIN_EXE_annabella")
}

fn run(args: &[&str], dir: &Path) -> Output {
    let o = Command::new(bin())
        .args(args)
        .current_dir(dir)
        .env("HOME", dir)
        .env("XDG_DATA_HOME", dir.join("data"))
        .output()
        .expect("run annabella");
    assert!(
        o.status.success(),
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    o
}

fn lines(o: &Output) -> Vec<String> {
    String::from_utf8_lossy(&o.stdout)
        .lines()
        .map(str::to_owned)
        .collect()
}

/// `annabella play --script` of `script` (journal g.jsonl in the returned
/// folder), 90 minutes plus 30 seconds a move, and `args`.
fn play(script: &str, args: &[&str]) -> (tempfile::TempDir, Vec<String>) {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("s.txt"), script).unwrap();
    let mut all = vec![
        "play",
        "--script",
        "s.txt",
        "--journal",
        "g.jsonl",
        "--control",
        "90m+30s",
    ];
    all.extend_from_slice(args);
    let o = run(&all, dir.path());
    (dir, lines(&o))
}

fn has(lines: &[String], line: &str) {
    assert!(
        lines.iter().any(|l| l == line),
        "missing line:\n{line}\nin:\n{}",
        lines.join("\n")
    );
}

/// Index of the line, which must be there.
fn at(lines: &[String], line: &str) -> usize {
    has(lines, line);
    lines.iter().position(|l| l == line).unwrap_or_default()
}

fn white() -> String {
    de(MsgKey::SideWhite, &[])
}

fn black() -> String {
    de(MsgKey::SideBlack, &[])
}

/// A move in the words of the fide locale (long style, as `play`
/// announces), in `pos`.
fn words(pos: &Chess, san: &str) -> String {
    words_in(pos, san, Style::Long)
}

/// A move in the words of the fide locale, in `pos`.
fn words_in(pos: &Chess, san: &str, style: Style) -> String {
    let vocab = Vocabulary::builtin("fide").unwrap();
    let m = San::from_ascii(san.as_bytes())
        .unwrap()
        .to_move(pos)
        .unwrap();
    vocab.announce(pos, m, style).display
}

fn position(fen: &str) -> Chess {
    fen.parse::<Fen>()
        .unwrap()
        .into_position(CastlingMode::Standard)
        .unwrap()
}

/// After 1. e4 e5 White thinks 55 seconds and seals Nf3, offers a draw with
/// it, and stops the clock at 1:10 of game time.
const ADJOURN: &str = "\
white board: e4
announce
press
black board: e4
time 5
black board: e5
announce
press
white board: e5
time 60
seal: Nf3 @ Montag 10 Uhr, Saal B
white offer draw
time 70
press
";

/// After 1. Nf3 d5 2. d4 Nc6: White to move; `Nd2` fits two knights.
const OPENING: &str = "r1bqkbnr/ppp1pppp/2n5/3p4/3P4/5N2/PPP1PPPP/RNBQKB1R w KQkq - 2 3";
/// White mates with Ra8.
const MATE_IN_ONE: &str = "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 30";
/// White has a rook, Black a bare king: Black cannot mate.
const BARE_KING: &str = "8/8/8/4k3/8/8/8/R3K3 w - - 0 40";

fn written(side: &str, number: &str) -> String {
    de(
        MsgKey::MirrorSealWritten,
        &[
            ("side", side),
            ("number", number),
            ("seal", "seal: MOVE"),
            ("press", "press"),
        ],
    )
}

fn sealed(side: &str, number: &str, used: [&str; 2], resumption: &str) -> String {
    de(
        MsgKey::MirrorSealed,
        &[
            ("side", side),
            ("number", number),
            ("white", used[0]),
            ("black", used[1]),
            ("resumption", resumption),
        ],
    )
}

fn offer(key: MsgKey, side: &str, opponent: &str) -> String {
    de(
        key,
        &[
            ("side", side),
            ("opponent", opponent),
            ("accept", "accept draw"),
            ("decline", "decline draw"),
        ],
    )
}

fn faulty(side: &str, fault: MsgKey) -> String {
    de(
        MsgKey::MirrorSealFaulty,
        &[
            ("side", side),
            ("fault", &de(fault, &[])),
            ("seal", "seal: MOVE"),
            ("press", "press"),
        ],
    )
}

fn opened(mv: &str) -> String {
    de(MsgKey::MirrorSealOpened, &[("move", mv)])
}

/// The clock read out: both times and the moves each has completed (German
/// plural: one, other); the time each has used follows (D.2.10.4).
fn clock(white: &str, black: &str, white_moves: u32, black_moves: u32) -> String {
    let moves = |n: u32| {
        let key = if n == 1 {
            MsgKey::CountMovesOne
        } else {
            MsgKey::CountMovesOther
        };
        de(key, &[("n", &n.to_string())])
    };
    de(
        MsgKey::MirrorClockReading,
        &[
            ("white", white),
            ("black", black),
            ("white_moves", &moves(white_moves)),
            ("black_moves", &moves(black_moves)),
        ],
    )
}

#[test]
fn guideline_i_1_1_the_sealed_move_may_be_changed_until_the_clock_is_stopped() {
    let script = "\
time 30
seal: Nd2 @ Montag
seal: Nbd2
white board: Nbd2
time 40
press
";
    // Practice: the sealer is warned (in a tournament game he is not).
    let (_dir, out) = play(script, &["--fen", OPENING, "--practice"]);
    let (w, b) = (white(), black());
    // An ambiguous sealed move is said to the sealer at once, without the
    // move, while he may still change it.
    let first = at(&out, &written(&w, "3"));
    assert_eq!(
        out[first + 1],
        faulty(&w, MsgKey::MirrorSealFaultAmbiguous),
        "{out:#?}"
    );
    assert_eq!(out[first + 2], written(&w, "3"));
    // The board waits while he seals.
    let sealing = de(
        MsgKey::MirrorErrSealing,
        &[("side", &w), ("seal", "seal: MOVE"), ("press", "press")],
    );
    assert_eq!(
        out[first + 3],
        de(MsgKey::PlayLineError, &[("line", "4"), ("error", &sealing)])
    );
    // Stopping the clock closes the envelope: 40 seconds used.
    assert_eq!(
        out[first + 4],
        sealed(&w, "3", ["0:40", "0:00.0"], "Montag")
    );
    assert!(
        !out.iter()
            .any(|l| l.contains("David zwei") || l.contains("d2")),
        "the sealed move stays secret: {out:#?}"
    );
    let _ = b;
}

#[test]
fn guideline_i_2_6_the_envelope_holds_the_draw_offer_and_says_so() {
    let script = format!("{ADJOURN}time 100\npresent\nopen seal\n");
    let (_dir, out) = play(&script, &[]);
    let (w, b) = (white(), black());
    let close = at(
        &out,
        &sealed(&w, "2", ["1:05", "0:05.0"], "Montag 10 Uhr, Saal B"),
    );
    let in_envelope = offer(MsgKey::MirrorEnvelopeDrawOffer, &w, &b);
    // After the names and the position (I.2.1, I.2.2).
    assert_eq!(out[close + 2], in_envelope);
    // Said again when the envelope is opened.
    let after_e5 = position("rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2");
    let open = at(&out, &opened(&words(&after_e5, "Nf3")));
    assert_eq!(out[open + 1], in_envelope);
}

#[test]
fn guideline_i_4_a_draw_offered_after_sealing_stands_until_answered() {
    let script = "\
time 30
seal: e4
press
time 100
black offer draw
time 200
present
open seal
black board: e4
time 210
black board: e5
announce
press
white board: e5
white accept draw
";
    let (_dir, out) = play(script, &["--fen", OPENING]);
    let (w, b) = (white(), black());
    has(&out, &offer(MsgKey::MirrorDrawOfferStands, &b, &w));
    // The sealed move is played; the offer still stands and is accepted.
    let open = at(&out, &opened(&words(&position(OPENING), "e4")));
    assert_eq!(out[open + 1], offer(MsgKey::MirrorDrawOfferStands, &b, &w));
    has(&out, &de(MsgKey::ResultAgreement, &[]));
}

#[test]
fn guideline_i_6_a_resignation_before_resumption_concludes_the_game() {
    let script = format!("{ADJOURN}time 100\nwhite resign\nopen seal\n");
    let (_dir, out) = play(&script, &[]);
    let (w, b) = (white(), black());
    let result = de(MsgKey::ResultResignation, &[("loser", &w), ("winner", &b)]);
    let i = at(&out, &result);
    // The envelope is never opened.
    let over = de(MsgKey::MirrorErrGameOver, &[("result", &result)]);
    assert_eq!(
        out[i + 1],
        de(MsgKey::PlayLineError, &[("line", "17"), ("error", &over)])
    );
}

#[test]
fn guideline_i_6_a_draw_agreed_before_resumption_concludes_the_game() {
    // White's offer is in the envelope; Black accepts it before the
    // resumption.
    let script = format!("{ADJOURN}time 100\nblack accept draw\n");
    let (_dir, out) = play(&script, &[]);
    has(&out, &de(MsgKey::ResultAgreement, &[]));
}

#[test]
fn guideline_i_7_the_envelope_is_opened_only_with_the_responder_present() {
    let script = format!(
        "{ADJOURN}time 100\narbiter: default time 1h\nabsent black\nopen seal\n\
         time 160\narrived black\nopen seal\n"
    );
    let (_dir, out) = play(&script, &[]);
    let b = black();
    let absent = de(
        MsgKey::MirrorErrOpponentAbsent,
        &[("side", &b), ("present", "present")],
    );
    has(
        &out,
        &de(MsgKey::PlayLineError, &[("line", "18"), ("error", &absent)]),
    );
    has(
        &out,
        &de(
            MsgKey::MirrorArrivedOpen,
            &[("side", &b), ("open_seal", "open seal")],
        ),
    );
    let after_e5 = position("rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2");
    has(&out, &opened(&words(&after_e5, "Nf3")));
}

/// White seals `text` in `fen`; Black is present and the envelope opened.
fn opened_in(fen: &str, text: &str) -> Vec<String> {
    let script = format!("time 30\nseal: {text}\npress\ntime 100\npresent\nopen seal\n");
    play(&script, &["--fen", fen]).1
}

fn invalid(text: &str, fault: MsgKey) -> String {
    de(
        MsgKey::MirrorSealInvalid,
        &[
            ("side", &white()),
            ("text", text),
            ("fault", &de(fault, &[])),
        ],
    )
}

/// White's sealed `text` cannot be played (`fault`): he loses.
fn sealed_move_loses(text: &str, fault: MsgKey) {
    let out = opened_in(OPENING, text);
    let i = at(&out, &invalid(text, fault));
    let result = de(
        MsgKey::ResultSealedMove,
        &[("loser", &white()), ("winner", &black())],
    );
    assert_eq!(out[i + 1], result);
}

#[test]
fn guideline_i_8_1_an_ambiguous_sealed_move_loses() {
    sealed_move_loses("Nd2", MsgKey::MirrorSealFaultAmbiguous);
}

#[test]
fn guideline_i_8_2_a_sealed_move_whose_meaning_cannot_be_established_loses() {
    sealed_move_loses("Qxx9", MsgKey::MirrorSealFaultUnclear);
}

#[test]
fn guideline_i_8_3_an_illegal_sealed_move_loses() {
    sealed_move_loses("Ke3", MsgKey::MirrorSealFaultIllegal);
}

#[test]
fn guideline_i_8_draws_when_the_opponent_cannot_mate() {
    // Article 6.9's exception, which I.8 names.
    let out = opened_in(BARE_KING, "Ra9");
    has(
        &out,
        &de(
            MsgKey::ResultSealedMoveDraw,
            &[("loser", &white()), ("winner", &black())],
        ),
    );
}

#[test]
fn guideline_i_9_1_the_sealed_move_is_made_and_the_responders_clock_started() {
    let script = format!("{ADJOURN}time 1000\npresent\nopen seal\ntime 1060\nclock\n");
    let (_dir, out) = play(&script, &[]);
    let b = black();
    has(
        &out,
        &de(
            MsgKey::MirrorPresent,
            &[("side", &b), ("open_seal", "open seal")],
        ),
    );
    let after_e5 = position("rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2");
    let nf3 = words(&after_e5, "Nf3");
    let i = at(&out, &opened(&nf3));
    // Made on White's board and announced as move 2.
    has(
        &out[i..],
        &de(
            MsgKey::MirrorAnnounced,
            &[("number", "2"), ("side", &white()), ("move", &nf3)],
        ),
    );
    // No time ran while adjourned: White used 65 s (+30 s twice), Black
    // 5 s (+30 s) before and 60 s since the opening.
    assert!(
        out[out.len() - 2].starts_with(&clock("1:29:55", "1:29:25", 2, 1)),
        "{out:#?}"
    );
}

#[test]
fn guideline_i_9_2_an_absent_responders_clock_runs_until_he_arrives() {
    let script = format!(
        "{ADJOURN}time 1000\narbiter: default time 1h\nabsent black\ntime 1600\n\
         arrived black\ntime 1700\nclock\nopen seal\ntime 1760\nclock\n"
    );
    let (_dir, out) = play(&script, &[]);
    let b = black();
    has(
        &out,
        &de(
            MsgKey::MirrorPlayerAbsentClock,
            &[("side", &b), ("time", "eine Stunde")],
        ),
    );
    // Ten minutes away, then he stopped his clock.
    let i = at(
        &out,
        &de(
            MsgKey::MirrorArrivedOpen,
            &[("side", &b), ("open_seal", "open seal")],
        ),
    );
    assert!(
        out[i + 1].starts_with(&clock("1:29:25", "1:20:25", 1, 1)),
        "{out:#?}"
    );
    // The sealed move made, his clock restarted.
    let after_e5 = position("rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2");
    has(&out[i..], &opened(&words(&after_e5, "Nf3")));
    assert!(
        out[out.len() - 2].starts_with(&clock("1:29:55", "1:19:25", 2, 1)),
        "{out:#?}"
    );
}

#[test]
fn guideline_i_9_3_an_absent_sealer_gets_the_reply_in_a_fresh_envelope() {
    let script = format!(
        "{ADJOURN}time 1000\narbiter: default time 1h\nabsent white\npresent black\n\
         open seal\nblack board: Nf3\ntime 1100\nseal: Nc6\ntime 1120\npress\n\
         time 1300\narrived white\nopen seal\nwhite board: Nc6\nclock\n"
    );
    let (_dir, out) = play(&script, &[]);
    let (w, b) = (white(), black());
    // The reply sealed, White's clock started instead.
    let i = at(&out, &written(&b, "2"));
    let unknown = de(MsgKey::MirrorResumptionUnknown, &[]);
    assert_eq!(out[i + 1], sealed(&b, "2", ["1:05", "2:05"], &unknown));
    has(
        &out[i..],
        &de(MsgKey::MirrorAbsentClockStarted, &[("side", &w)]),
    );
    // Opened when White arrives: Black's reply is played.
    let j = at(
        &out,
        &de(
            MsgKey::MirrorArrivedOpen,
            &[("side", &w), ("open_seal", "open seal")],
        ),
    );
    let after_nf3 = position("rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2");
    has(&out[j..], &opened(&words(&after_nf3, "Nc6")));
    // White lost the 3 minutes he was away; Black's reply took 2 minutes
    // (each has had 30 s for each of his two moves).
    assert!(
        out[out.len() - 2].starts_with(&clock("1:26:55", "1:28:55", 2, 2)),
        "{out:#?}"
    );
}

#[test]
fn guideline_i_10_a_player_arriving_after_the_default_time_loses() {
    let script = format!(
        "{ADJOURN}time 1000\narbiter: default time 30m\nabsent black\ntime 2801\n\
         arrived black\n"
    );
    let (_dir, out) = play(&script, &[]);
    let result = de(
        MsgKey::ResultAbsence,
        &[("loser", &black()), ("winner", &white())],
    );
    has(&out, &result);
}

#[test]
fn guideline_i_10_a_sealed_move_that_ends_the_game_stands() {
    // The sealer is absent past the default time, but his sealed move
    // mates.
    let script = "\
time 30
seal: Ra8
press
time 100
absent white
present black
time 101
";
    let (_dir, out) = play(script, &["--fen", MATE_IN_ONE]);
    let i = at(&out, &opened(&words(&position(MATE_IN_ONE), "Ra8")));
    assert_eq!(
        out[i + 1],
        de(MsgKey::ResultCheckmate, &[("winner", &white())])
    );
}

#[test]
fn guideline_i_10_unless_the_arbiter_decides_otherwise() {
    let script = format!(
        "{ADJOURN}time 1000\nabsent black\narbiter: excuse black\ntime 1600\n\
         arrived black\nopen seal\n"
    );
    let (_dir, out) = play(&script, &[]);
    has(&out, &de(MsgKey::MirrorExcused, &[("side", &black())]));
    let after_e5 = position("rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2");
    has(&out, &opened(&words(&after_e5, "Nf3")));
    let lost = de(
        MsgKey::ResultAbsence,
        &[("loser", &black()), ("winner", &white())],
    );
    assert!(!out.contains(&lost), "{out:#?}");
}

#[test]
fn an_adjourned_game_resumes_from_its_journal_and_exports_its_envelope() {
    let (dir, _) = play(ADJOURN, &[]);
    let (w, b) = (white(), black());
    // The PGN of the adjourned game: the envelope's public data as a
    // comment, never the sealed move.
    let o = run(&["export", "--board", "white", "g.jsonl"], dir.path());
    let pgn = String::from_utf8_lossy(&o.stdout).into_owned();
    let envelope = sealed(&w, "2", ["1:05", "0:05.0"], "Montag 10 Uhr, Saal B");
    assert!(pgn.contains(&envelope), "{pgn}");
    assert!(
        pgn.contains(&offer(MsgKey::MirrorEnvelopeDrawOffer, &w, &b)),
        "{pgn}"
    );
    assert!(pgn.contains("[Result \"*\"]"), "{pgn}");
    for secret in ["Nf3", "Springer", "Gustav", "Felix"] {
        assert!(!pgn.contains(secret), "{secret} in {pgn}");
    }
    // Resumed from the journal: the envelope is said, then the game goes
    // on from the position and times of the adjournment.
    // The script goes on where the journal ends (its lines are skipped).
    let more = format!("{ADJOURN}time 1000\npresent\nopen seal\nclock\n");
    std::fs::write(dir.path().join("r.txt"), more).unwrap();
    let o = run(
        &["resume", "g.jsonl", "--script", "r.txt", "--locale", "de"],
        dir.path(),
    );
    let out = lines(&o);
    let adjourned = de(
        MsgKey::MirrorAdjourned,
        &[
            ("side", &w),
            ("number", "2"),
            ("white", "1:05"),
            ("black", "0:05.0"),
            ("resumption", "Montag 10 Uhr, Saal B"),
        ],
    );
    assert!(out[0].contains(&adjourned), "{out:#?}");
    assert!(
        out[0].contains(&offer(MsgKey::MirrorEnvelopeDrawOffer, &w, &b)),
        "{out:#?}"
    );
    let after_e5 = position("rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2");
    has(&out, &opened(&words(&after_e5, "Nf3")));
    let reading = clock("1:29:55", "1:30:25", 2, 1);
    assert!(out.iter().any(|l| l.starts_with(&reading)), "{out:#?}");
    // The journal replays exactly: exported again, the move is there.
    let o = run(&["export", "--board", "white", "g.jsonl"], dir.path());
    let pgn = String::from_utf8_lossy(&o.stdout).into_owned();
    assert!(pgn.contains("2. Nf3"), "{pgn}");
}

#[test]
fn guideline_i_on_the_play_screen() {
    // The same procedures typed on the play screen (plain lines), in the
    // screen's own command words.
    let seal = de_word(MsgKey::UiCmdSeal);
    let press = de_word(MsgKey::UiCmdPress);
    let script = format!(
        "Eva vier\n{press}\nEva vier\nEva fuenf\n{press}\nEva fuenf\n\
         {seal} Springer David zwei @ Montag\n{seal} Springer Gustav eins Felix drei\n{press}\n\
         {draw} {black}\n{default} 1h\n{absent} {black}\n{present} {black}\n{open}\n\
         {quit}\n{yes}\n",
        draw = de_word(MsgKey::UiCmdDraw),
        black = black().to_lowercase(),
        default = de_word(MsgKey::UiCmdDefault),
        absent = de_word(MsgKey::UiCmdAbsent),
        present = de_word(MsgKey::UiCmdPresent),
        open = de_word(MsgKey::UiCmdOpenSeal),
        quit = de_word(MsgKey::UiCmdQuit),
        yes = de_word(MsgKey::UiCmdYes),
    );
    // Practice: the sealer is warned of the illegal sealed move.
    let (out, _) = common::run_with_input(
        &["--plain", "-l", "fide", "--control", "90m", "--practice"],
        &script,
    );
    let (w, b) = (white(), black());
    let verbs = [("seal", seal.as_str()), ("press", press.as_str())];
    let written = de(
        MsgKey::MirrorSealWritten,
        &[("side", &w), ("number", "2"), verbs[0], verbs[1]],
    );
    let i = at(&out, &written);
    assert_eq!(
        out[i + 1],
        de(
            MsgKey::MirrorSealFaulty,
            &[
                ("side", &w),
                ("fault", &de(MsgKey::MirrorSealFaultIllegal, &[])),
                verbs[0],
                verbs[1],
            ]
        )
    );
    let stands = de(
        MsgKey::MirrorDrawOfferStands,
        &[
            ("side", &b),
            ("opponent", &w),
            ("accept", &de_word(MsgKey::UiCmdAccept)),
            ("decline", &de_word(MsgKey::UiCmdDecline)),
        ],
    );
    has(&out, &stands);
    has(
        &out,
        &de(MsgKey::MirrorDefaultTime, &[("time", "eine Stunde")]),
    );
    has(
        &out,
        &de(
            MsgKey::MirrorPlayerAbsentClock,
            &[("side", &b), ("time", "eine Stunde")],
        ),
    );
    let open = de_word(MsgKey::UiCmdOpenSeal);
    has(
        &out,
        &de(
            MsgKey::MirrorArrivedOpen,
            &[("side", &b), ("open_seal", &open)],
        ),
    );
    // The play screen announces in the short style.
    let after_e5 = position("rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2");
    has(&out, &opened(&words_in(&after_e5, "Nf3", Style::Short)));
}
