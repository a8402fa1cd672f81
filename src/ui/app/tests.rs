use super::*;
use crate::locale::MsgKey;
use crate::rules::Termination;
use shakmaty::Square;
use shakmaty::san::San;

const T0: Duration = Duration::ZERO;

fn uci(text: &str) -> UciMove {
    text.parse().expect("a UCI move")
}

fn app_with(code: &str, settings: Settings) -> (App, Vec<Effect>) {
    App::new(Vocabulary::builtin(code).unwrap(), settings, T0)
}

/// One keyboard for both sides (the boards are kept in step by the
/// program); the two-board flow has tests of its own below.
fn app(code: &str) -> App {
    let settings = Settings {
        mode: Mode::Hotseat,
        ..Settings::default()
    };
    app_with(code, settings).0
}

/// Types the lines one after another at time `T0` and returns what was
/// said by the last one.
fn type_lines(app: &mut App, lines: &[&str]) -> Vec<String> {
    let mut said = Vec::new();
    for l in lines {
        said = app
            .update(Msg::Line((*l).to_owned()), T0)
            .into_iter()
            .filter_map(|e| match e {
                Effect::Say(i) => Some(i.utterance.display),
                _ => None,
            })
            .collect();
    }
    said
}

#[test]
fn welcome_names_mode_side_and_help() {
    let (a, fx) = app_with("en", Settings::default());
    let Some(Effect::Say(Item { utterance: u, .. })) = fx.first() else {
        panic!("no welcome: {fx:?}")
    };
    assert!(u.display.contains("over-the-board play"), "{}", u.display);
    assert!(u.display.contains("White to move"), "{}", u.display);
    assert!(u.display.contains("help for help"), "{}", u.display);
    assert_eq!(a.current().moves().len(), 0);
}

#[test]
fn a_move_is_announced_then_completed_by_the_press() {
    let mut a = app("en");
    assert_eq!(type_lines(&mut a, &["Nf3"]), ["1. White: Knight f3"]);
    assert_eq!(a.unpressed().map(|u| u.by), Some(Color::White));
    assert_eq!(a.clock().moves(Color::White), 0);
    // The opponent cannot move before the press.
    let said = type_lines(&mut a, &["d5"]);
    assert!(said[0].contains("not pressed"), "{said:?}");
    assert_eq!(a.current().moves().len(), 1);
    assert_eq!(
        type_lines(&mut a, &["press"]),
        ["White pressed the clock. Black to move."]
    );
    assert_eq!(a.clock().moves(Color::White), 1);
    assert_eq!(a.clock().running(), Some(Color::Black));
    assert!(a.unpressed().is_none());
}

#[test]
fn appendix_d_words_in_the_fide_locale() {
    let mut a = app("fide");
    type_lines(&mut a, &["Springer Gustav eins Felix drei", "press"]);
    type_lines(&mut a, &["Bauer David sieben David fuenf", "press"]);
    assert_eq!(a.current().moves().len(), 2);
    // Scoresheet in the locale's letters: S for Springer.
    assert_eq!(a.sheet(Color::White), ["Sf3", "d5"]);
}

#[test]
fn slip_is_taken_back_before_the_press_only() {
    let mut a = app("en");
    type_lines(&mut a, &["e4"]);
    let said = type_lines(&mut a, &["take back"]);
    assert_eq!(
        said,
        ["Taken back: e4. White to move; type the right move."]
    );
    assert!(a.current().moves().is_empty());
    type_lines(&mut a, &["d4", "press"]);
    let said = type_lines(&mut a, &["takeback"]);
    assert!(
        said[0].starts_with("There is no unpressed move"),
        "{said:?}"
    );
    assert_eq!(a.current().moves().len(), 1);
}

#[test]
fn ambiguous_move_lists_candidates_and_a_number_picks() {
    let mut a = app("en");
    type_lines(
        &mut a,
        &["Nf3", "press", "a6", "press", "d3", "press", "a5", "press"],
    );
    let said = type_lines(&mut a, &["Nd2"]);
    assert_eq!(
        said,
        ["Which move? 1: Knight b1 d2 or 2: Knight f3 d2. Type its number."]
    );
    assert!(
        a.unpressed().is_none(),
        "nothing is played before the choice"
    );
    let said = type_lines(&mut a, &["3"]);
    assert!(said[0].starts_with("There is no choice 3"), "{said:?}");
    type_lines(&mut a, &["2"]);
    let u = a.unpressed().expect("the chosen move is made");
    assert_eq!(u.mv.from(), Some(Square::F3));
    assert_eq!(u.mv.to(), Square::D2);
}

#[test]
fn illegal_or_unknown_input_loses_nothing() {
    // Practice: an illegal move is refused with the reason.
    let mut a = app_with(
        "en",
        Settings {
            mode: Mode::Hotseat,
            practice: true,
            ..Settings::default()
        },
    )
    .0;
    type_lines(&mut a, &["e4", "press"]);
    let said = type_lines(&mut a, &["Ke5"]);
    assert!(said[0].starts_with("Not a move or command:"), "{said:?}");
    assert!(said[0].contains("help"), "{said:?}");
    let said = type_lines(&mut a, &["blah"]);
    assert!(said[0].contains("'blah'"), "{said:?}");
    assert_eq!(a.current().moves().len(), 1);
    assert_eq!(a.clock().running(), Some(Color::Black));
}

#[test]
fn a_tournament_game_makes_an_illegal_move_as_given_and_the_press_counts_it() {
    let mut a = app("en");
    type_lines(&mut a, &["e4", "press"]);
    // Nothing about its legality before the press (11.3).
    assert_eq!(type_lines(&mut a, &["Ke5"]), ["1. Black: Ke5"]);
    // It may be taken back, or replaced by another move.
    let said = type_lines(&mut a, &["take back"]);
    assert_eq!(said, ["Black takes the move back; Black to move."]);
    type_lines(&mut a, &["Ke5"]);
    let said = type_lines(&mut a, &["e5"]);
    assert_eq!(said, ["1. Black: e5"]);
    type_lines(&mut a, &["take back", "Ke5"]);
    let said = type_lines(&mut a, &["press"]);
    assert!(
        said.iter()
            .any(|l| l.contains("White receives 2 minutes more")),
        "{said:?}"
    );
    assert_eq!(a.current().moves().len(), 1);
    assert_eq!(a.clock().running(), Some(Color::Black));
    // Words that are no move are refused in both kinds of game.
    let said = type_lines(&mut a, &["blah"]);
    assert!(said[0].contains("'blah'"), "{said:?}");
}

#[test]
fn board_queries() {
    let mut a = app("en");
    type_lines(&mut a, &["Nf3", "press"]);
    assert_eq!(type_lines(&mut a, &["what e1"]), ["e1: White King."]);
    assert_eq!(type_lines(&mut a, &["what e4"]), ["e4: empty."]);
    assert_eq!(
        type_lines(&mut a, &["where knight"]),
        ["White Knight: b1, f3. Black Knight: b8, g8."]
    );
    assert_eq!(
        type_lines(&mut a, &["where black queen"]),
        ["Black Queen: d8."]
    );
    assert_eq!(
        type_lines(&mut a, &["file e"]),
        ["e: White King e1, White Pawn e2, Black Pawn e7, Black King e8."]
    );
    assert_eq!(type_lines(&mut a, &["rank 4"]), ["4: empty."]);
    assert_eq!(
        type_lines(&mut a, &["last"]),
        ["Last move, White: Knight f3."]
    );
    // A tournament game lists no legal moves (11.3: help with the
    // player's own move); practice does.
    let said = type_lines(&mut a, &["legal b1"]);
    assert_eq!(
        said,
        [
            "In a tournament game annabella does not list legal moves (Article 11.3: no help with a player's own move); in practice (--practice) she does."
        ]
    );
    let mut p = app_with(
        "en",
        Settings {
            practice: true,
            ..Settings::default()
        },
    )
    .0;
    type_lines(&mut p, &["Nf3", "press"]);
    let said = type_lines(&mut p, &["legal b1"]);
    assert_eq!(said, ["Knight on b1 can move to: Knight a3, Knight c3."]);
    let said = type_lines(&mut a, &["pieces white"]);
    assert!(
        said[0].starts_with("White: King e1, Queen d1, Rook a1, Rook h1,"),
        "{said:?}"
    );
    // A query changes nothing.
    assert_eq!(a.current().moves().len(), 1);
}

#[test]
fn clock_queries_on_request() {
    let control: TimeControl = "5m".parse().unwrap();
    let (mut a, _) = app_with(
        "en",
        Settings {
            control,
            ..Settings::default()
        },
    );
    a.update(Msg::Line("e4".into()), Duration::from_secs(10));
    a.update(Msg::Line("press".into()), Duration::from_secs(10));
    let fx = a.update(Msg::Line("time".into()), Duration::from_secs(40));
    let Some(Effect::Say(Item { utterance: u, .. })) = fx.last() else {
        panic!("{fx:?}")
    };
    // White used 10 s of 5 minutes, Black 30 s so far.
    // Time left, and (D.2.10.4) the time used.
    assert_eq!(
        u.display,
        "White: 4:50. Black: 4:30. White has used 0:10. Black has used 0:30."
    );
    let fx = a.update(Msg::Line("count".into()), Duration::from_secs(40));
    let Some(Effect::Say(Item { utterance: u, .. })) = fx.last() else {
        panic!("{fx:?}")
    };
    assert!(u.display.starts_with("White: 1 move"), "{}", u.display);
    assert!(u.display.contains("Black: 0 moves"), "{}", u.display);
}

#[test]
fn repeat_says_the_last_announcement_again() {
    let mut a = app("en");
    type_lines(&mut a, &["Nf3"]);
    assert_eq!(type_lines(&mut a, &["repeat"]), ["1. White: Knight f3"]);
}

#[test]
fn resign_ends_the_game_and_moves_are_refused_after() {
    let mut a = app("en");
    // Said back first, naming the side; anything but yes changes nothing:
    // another line drops the question (said) and is carried out.
    let en = crate::locale::builtin("en").unwrap();
    let confirm = |side: &str| {
        en.message(
            MsgKey::UiConfirmResign,
            &[("side", side), ("yes", "yes"), ("no", "no")],
        )
    };
    assert_eq!(type_lines(&mut a, &["resign"]), [confirm("White")]);
    let said = type_lines(&mut a, &["count"]);
    assert_eq!(
        said[0],
        en.message(MsgKey::UiQuestionDropped, &[("yes", "yes"), ("no", "no")])
    );
    assert_eq!(said.len(), 2, "{said:?}");
    assert!(said[1].starts_with("White: 0 moves"), "{said:?}");
    assert!(a.current().result().is_none());
    assert_eq!(type_lines(&mut a, &["resign"]), [confirm("White")]);
    assert_eq!(
        type_lines(&mut a, &["no"]),
        [en.message(MsgKey::UiNotConfirmed, &[])]
    );
    assert!(a.current().result().is_none());
    assert_eq!(type_lines(&mut a, &["resign black"]), [confirm("Black")]);
    type_lines(&mut a, &["no"]);
    assert!(a.current().result().is_none());
    type_lines(&mut a, &["resign"]);
    let said = type_lines(&mut a, &["yes"]);
    assert!(said[0].starts_with("The game is over:"), "{said:?}");
    let r = a.current().result().unwrap();
    assert_eq!(r.termination, Termination::Resignation);
    assert_eq!(r.winner, Some(Color::Black));
    let said = type_lines(&mut a, &["e4"]);
    assert!(said[0].starts_with("The game is over:"), "{said:?}");
    assert!(a.current().moves().is_empty());
}

#[test]
fn draw_offer_accept_and_decline() {
    let mut a = app("en");
    type_lines(&mut a, &["e4"]);
    // Said back first: an offer cannot be withdrawn.
    let said = type_lines(&mut a, &["draw"]);
    assert_eq!(
        said,
        ["White offers a draw? An offer cannot be withdrawn. Say yes to offer, or no."]
    );
    let said = type_lines(&mut a, &["yes"]);
    assert_eq!(
        said,
        ["White offers a draw. Black: type accept or decline."]
    );
    let said = type_lines(&mut a, &["accept white"]);
    assert!(said[0].contains("only Black can accept"), "{said:?}");
    type_lines(&mut a, &["decline"]);
    assert!(a.current().result().is_none());
    // Only one player has moved: no draw by agreement yet (5.2.3).
    let said = type_lines(&mut a, &["press", "draw black", "yes", "accept", "yes"]);
    assert!(said[0].contains("at least one move"), "{said:?}");
    assert!(a.current().result().is_none());
    let said = type_lines(&mut a, &["e5", "draw black", "yes", "accept"]);
    assert!(said[0].starts_with("White accepts the draw?"), "{said:?}");
    type_lines(&mut a, &["yes"]);
    assert_eq!(
        a.current().result().map(|r| r.termination),
        Some(Termination::Agreement)
    );
}

#[test]
fn incorrect_claim_gives_the_opponent_two_minutes() {
    let control: TimeControl = "90m".parse().unwrap();
    let (mut a, _) = app_with(
        "en",
        Settings {
            control,
            ..Settings::default()
        },
    );
    let said = type_lines(&mut a, &["claim", "yes"]);
    assert!(
        said[0].starts_with("Draw claim by White rejected"),
        "{said:?}"
    );
    assert_eq!(
        a.clock().remaining(Color::Black, T0),
        Duration::from_secs(90 * 60 + 120)
    );
    assert!(a.current().result().is_none());
}

#[test]
fn incorrect_claim_in_blitz_gives_the_opponent_one_minute() {
    let control: TimeControl = "5m".parse().unwrap();
    let (mut a, _) = app_with(
        "en",
        Settings {
            control,
            ..Settings::default()
        },
    );
    type_lines(&mut a, &["claim", "yes"]);
    assert_eq!(
        a.clock().remaining(Color::Black, T0),
        Duration::from_secs(5 * 60 + 60)
    );
}

#[test]
fn threefold_claim_with_the_written_move() {
    let mut a = app("en");
    type_lines(
        &mut a,
        &[
            "Nf3", "press", "Nf6", "press", "Ng1", "press", "Ng8", "press", "Nf3", "press", "Nf6",
            "press", "Ng1", "press", "Ng8",
        ],
    );
    // Black has made Ng8 (the third occurrence) but not pressed: claims.
    let said = type_lines(&mut a, &["claim", "yes"]);
    assert!(said[0].starts_with("The game is over:"), "{said:?}");
    let r = a.mirror().result().unwrap();
    assert_eq!(r.termination, Termination::ThreefoldRepetition);
    assert_eq!(r.by, Some(Color::Black));
}

#[test]
fn quit_needs_confirmation() {
    let mut a = app("en");
    let said = type_lines(&mut a, &["quit"]);
    assert_eq!(said, ["Quit the game? Type yes to quit or no to go on."]);
    type_lines(&mut a, &["no"]);
    assert!(!a.should_quit());
    type_lines(&mut a, &["quit"]);
    let fx = a.update(Msg::Line("yes".into()), T0);
    assert!(fx.contains(&Effect::Quit));
    assert!(a.should_quit());
}

#[test]
fn flag_fall_is_announced_and_ends_the_game() {
    let control: TimeControl = "1m".parse().unwrap();
    let (mut a, _) = app_with(
        "en",
        Settings {
            control,
            ..Settings::default()
        },
    );
    assert!(a.update(Msg::Tick, Duration::from_secs(59)).is_empty());
    let fx = a.update(Msg::Tick, Duration::from_secs(61));
    let said: Vec<String> = fx
        .iter()
        .filter_map(|e| match e {
            Effect::Say(i) => Some(i.utterance.display.clone()),
            _ => None,
        })
        .collect();
    assert!(said[0].contains("White's flag has fallen"), "{said:?}");
    let r = a.current().result().unwrap();
    assert_eq!(r.termination, Termination::Time);
    assert_eq!(r.winner, Some(Color::Black));
    // Said once only.
    assert!(a.update(Msg::Tick, Duration::from_secs(62)).is_empty());
}

#[test]
fn arbiter_adjusts_time_and_penalizes() {
    let control: TimeControl = "5m".parse().unwrap();
    let (mut a, _) = app_with(
        "en",
        Settings {
            control,
            ..Settings::default()
        },
    );
    let said = type_lines(&mut a, &["arbiter"]);
    assert!(said[0].starts_with("Arbiter menu."), "{said:?}");
    let said = type_lines(&mut a, &["add black 60"]);
    assert_eq!(
        said,
        ["Arbiter: Black receives 1 minute; Black now has 6:00."]
    );
    assert_eq!(
        a.clock().remaining(Color::Black, T0),
        Duration::from_secs(360)
    );
    let said = type_lines(&mut a, &["add 60"]);
    assert!(
        said[0].starts_with("Say the side and the seconds"),
        "{said:?}"
    );
    type_lines(&mut a, &["penalty white"]);
    // 5 minutes is blitz: the penalty is one minute (Appendix B.3).
    assert_eq!(
        a.clock().remaining(Color::Black, T0),
        Duration::from_secs(420)
    );
    type_lines(&mut a, &["penalty white"]);
    assert_eq!(
        a.mirror().result().map(|r| r.termination),
        Some(Termination::IllegalMoves)
    );
    let said = type_lines(&mut a, &["back"]);
    assert_eq!(said, ["Back to the game."]);
}

#[test]
fn engine_is_asked_and_its_move_announced_and_pressed() {
    let (mut a, fx) = app_with(
        "en",
        Settings {
            mode: Mode::Engine,
            engine_side: EngineSide::White,
            ..Settings::default()
        },
    );
    let ask = fx
        .iter()
        .find(|e| matches!(e, Effect::AskEngine { .. }))
        .expect("engine asked at once when it plays White");
    assert_eq!(
        ask,
        &Effect::AskEngine {
            fen: "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1".into(),
            moves: vec![],
        }
    );
    let said = type_lines(&mut a, &["e5"]);
    assert_eq!(
        said,
        ["It is the engine's turn (White); wait for its move."]
    );
    let fx = a.update(Msg::EngineMove(uci("e2e4")), T0);
    let said: Vec<&str> = fx
        .iter()
        .filter_map(|e| match e {
            Effect::Say(i) => Some(i.utterance.display.as_str()),
            _ => None,
        })
        .collect();
    assert_eq!(
        said,
        ["1. White: e4", "White pressed the clock. Black to move."]
    );
    a.update(Msg::Line("e5".into()), T0);
    let fx = a.update(Msg::Line("press".into()), T0);
    assert!(fx.contains(&Effect::AskEngine {
        fen: "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1".into(),
        moves: vec![uci("e2e4"), uci("e7e5")],
    }));
}

#[test]
fn missing_engine_is_one_line_and_play_goes_on() {
    let (mut a, _) = app_with(
        "en",
        Settings {
            mode: Mode::Engine,
            engine_side: EngineSide::Black,
            ..Settings::default()
        },
    );
    let fx = a.update(
        Msg::EngineFailed(crate::engine::EngineError::Start {
            path: "/usr/games/stockfish".into(),
            kind: std::io::ErrorKind::NotFound,
            code: None,
        }),
        T0,
    );
    assert_eq!(fx.len(), 1);
    type_lines(&mut a, &["e4", "press"]);
    // Without the engine, Black's move is typed.
    assert_eq!(type_lines(&mut a, &["e5"]), ["1. Black: e5"]);
}

#[test]
fn help_lists_commands_of_the_locale() {
    let mut a = app("en");
    let fx = a.update(Msg::HelpKey, T0);
    let Some(Effect::Say(Item { utterance: u, .. })) = fx.first() else {
        panic!()
    };
    for w in ["press", "takeback", "resign", "quit", "where", "claim"] {
        assert!(u.display.contains(w), "{w} missing in {}", u.display);
    }
    let mut de = app("de");
    let fx = de.update(Msg::Line("hilfe".into()), T0);
    let Some(Effect::Say(Item { utterance: u, .. })) = fx.first() else {
        panic!()
    };
    assert!(u.display.contains("aufgeben"), "{}", u.display);
}

#[test]
fn save_writes_pgn_with_the_moves() {
    let mut a = app("en");
    type_lines(&mut a, &["e4", "press", "e5", "press", "Nf3"]);
    let fx = a.update(Msg::Line("save".into()), T0);
    let Some(Effect::Save { text, .. }) = fx.first() else {
        panic!("{fx:?}")
    };
    assert!(text.contains("[Result \"*\"]"), "{text}");
    // White's board, with the time left after each completed move.
    assert!(
        text.contains("\n1. e4 {[%clk 1:30:30]} e5 {[%clk 1:30:30]} 2. Nf3 *\n"),
        "{text}"
    );
    let denied = std::io::Error::from(std::io::ErrorKind::PermissionDenied);
    let said = a.update(
        Msg::Saved {
            path: "/x/named.pgn".into(),
            result: Err(crate::input::SystemError::from(&denied)),
        },
        T0,
    );
    let Some(Effect::Say(Item { utterance: u, .. })) = said.first() else {
        panic!()
    };
    let en = crate::locale::builtin("en").unwrap();
    let why = en.message(MsgKey::IoPermission, &[]);
    assert!(
        u.display.contains(&why)
            && u.display.contains("nothing was lost")
            && u.display.contains("/x/named.pgn"),
        "{}",
        u.display
    );
}

fn said_at(a: &mut App, secs: u64) -> Vec<String> {
    a.update(Msg::Tick, Duration::from_secs(secs))
        .into_iter()
        .filter_map(|e| match e {
            Effect::Say(i) => Some(i.utterance.display),
            _ => None,
        })
        .collect()
}

#[test]
fn low_time_is_announced_except_in_assistant_mode() {
    for (mode, expect_warning) in [(Mode::Board, true), (Mode::Assistant, false)] {
        let (mut a, _) = app_with(
            "en",
            Settings {
                mode,
                control: "5m".parse().unwrap(),
                ..Settings::default()
            },
        );
        let mut all = Vec::new();
        for t in [1, 100, 200, 241, 245, 271, 275] {
            all.extend(said_at(&mut a, t));
        }
        // Below one minute (at 241 s) the board mode warns; the assistant
        // is told only on request.
        assert_eq!(!all.is_empty(), expect_warning, "{mode:?}: {all:?}");
        // Flag fall is announced in every mode.
        let flag = said_at(&mut a, 301);
        assert!(flag[0].contains("flag has fallen"), "{mode:?}: {flag:?}");
    }
}

#[test]
fn autosave_after_every_completed_move_when_asked() {
    let (mut a, _) = app_with(
        "en",
        Settings {
            autosave: true,
            ..Settings::default()
        },
    );
    let fx = a.update(Msg::Line("e4".into()), T0);
    assert!(!fx.iter().any(|e| matches!(e, Effect::Autosave { .. })));
    let fx = a.update(Msg::Line("press".into()), T0);
    let text = fx
        .iter()
        .find_map(|e| match e {
            Effect::Autosave { text, .. } => Some(text.clone()),
            _ => None,
        })
        .expect("saved after the press");
    assert!(text.contains("\n1. e4 {[%clk 1:30:30]} *\n"), "{text}");
    // Nothing is said about a successful autosave.
    assert!(
        !fx.iter()
            .any(|e| matches!(e, Effect::Say(i) if i.utterance.display.contains("saved")))
    );
    // Black's move is saved once it is on White's board (the board the
    // save is made from): on main the save lagged a half move behind.
    for line in ["e4", "e5", "press"] {
        a.update(Msg::Line(line.into()), T0);
    }
    let fx = a.update(Msg::Line("e5".into()), T0);
    let text = fx
        .iter()
        .find_map(|e| match e {
            Effect::Autosave { text, .. } => Some(text.clone()),
            _ => None,
        })
        .expect("saved when White's board shows Black's move");
    assert!(text.contains(" e5 "), "{text}");
}

// ---- two boards (Appendix D) and the journal ----

fn board_app() -> App {
    app_with("en", Settings::default()).0
}

/// A journal store double: keeps the records it is given, or refuses
/// them as a full disk does while `fail` is set.
#[derive(Clone, Default)]
struct Shelf(std::sync::Arc<std::sync::Mutex<(Vec<crate::journal::Record>, bool)>>);

impl Shelf {
    fn records(&self) -> Vec<crate::journal::Record> {
        self.0.lock().unwrap().0.clone()
    }
    fn fail(&self, fail: bool) {
        self.0.lock().unwrap().1 = fail;
    }
}

impl Store for Shelf {
    type Error = std::io::Error;
    fn append_all(&mut self, records: &[crate::journal::Record]) -> std::io::Result<()> {
        let mut s = self.0.lock().unwrap();
        if s.1 {
            return Err(std::io::Error::from_raw_os_error(28));
        }
        s.0.extend_from_slice(records);
        Ok(())
    }
}

/// A two-board game whose journal records go to a [`Shelf`].
fn shelved(settings: Settings) -> (App, Vec<Effect>, Shelf) {
    let vocab = Vocabulary::builtin("en").unwrap();
    let game = Game::new(vocab.clone(), settings.config(), T0);
    let shelf = Shelf::default();
    let (a, fx) = App::start(vocab, settings, game, Box::new(shelf.clone()), T0);
    (a, fx, shelf)
}

#[test]
fn two_boards_the_opponent_makes_the_move_on_his_board() {
    let mut a = board_app();
    type_lines(&mut a, &["e4"]);
    let said = type_lines(&mut a, &["press"]);
    assert!(
        said[0].contains("make it on the board of Black"),
        "{said:?}"
    );
    assert_eq!(a.board(Color::White).moves().len(), 1);
    assert_eq!(a.board(Color::Black).moves().len(), 0);
    assert_eq!(a.to_execute().map(|(c, _)| c), Some(Color::Black));
    // Black's own reply before executing White's move is refused.
    let said = type_lines(&mut a, &["e5"]);
    assert!(said[0].contains("does not show move 1"), "{said:?}");
    let said = type_lines(&mut a, &["e4"]);
    assert!(said[0].contains("both boards agree"), "{said:?}");
    assert_eq!(a.board(Color::Black).moves(), a.board(Color::White).moves());
    // Both scoresheets have the move.
    assert_eq!(a.sheet(Color::White), ["e4"]);
    assert_eq!(a.sheet(Color::Black), ["e4"]);
}

#[test]
fn a_mismatch_is_said_and_blocks_play_until_the_arbiter_corrects() {
    let mut a = board_app();
    // Black makes d4 on his board instead of White's e4.
    let said = type_lines(&mut a, &["e4", "press", "d4"]);
    let text = said.join(" ");
    assert!(text.contains("The boards differ at move 1"), "{said:?}");
    assert!(matches!(
        a.mirror().mismatch(),
        Some(crate::mirror::Mismatch::Boards { ply: 0, .. })
    ));
    let said = type_lines(&mut a, &["e5"]);
    assert!(said[0].contains("differ"), "{said:?}");
    // The arbiter sets Black's board to the scoresheets (both say e4).
    let said = type_lines(&mut a, &["arbiter", "correct"]);
    assert!(said.join(" ").starts_with("Arbiter:"), "{said:?}");
    assert!(a.mirror().mismatch().is_none());
    assert_eq!(a.board(Color::Black).moves(), a.board(Color::White).moves());
    type_lines(&mut a, &["back", "e5"]);
    assert_eq!(a.board(Color::Black).moves().len(), 2);
}

#[test]
fn journal_records_come_before_anything_is_said_and_replay_exactly() {
    let (mut a, _, shelf) = shelved(Settings::default());
    let lines = [
        "e4",
        "press",
        "e4",
        "e5",
        "press",
        "e5",
        "Nf3",
        "take back",
        "Nc3",
        "press",
        "d4",
        "draw",
        "decline",
        "arbiter",
        "add black 30",
        "correct",
        "back",
    ];
    for (i, l) in lines.iter().enumerate() {
        let at = Duration::from_secs(3 * i as u64 + 1);
        a.update(Msg::Line((*l).to_owned()), at);
        // What an update did is saved before its effects are handed out.
        assert!(!a.game.has_records(), "{l}: records left unsaved");
    }
    let all = shelf.records();
    assert!(all.len() >= 15, "{}", all.len());
    let config = a.settings().config();
    let replayed = Game::replay(a.vocab().clone(), config, &all).expect("replays");
    let replayed = replayed.mirror();
    for c in [Color::White, Color::Black] {
        assert_eq!(replayed.board(c).moves(), a.board(c).moves());
        assert_eq!(replayed.sheet(c), a.mirror().sheet(c));
        // The app's clock has seen later ticks: compare at its time.
        let t = a.mirror().now();
        assert_eq!(replayed.clock().remaining(c, t), a.clock().remaining(c, t));
    }
    assert_eq!(replayed.mismatch(), a.mirror().mismatch());
}

#[test]
fn a_journal_that_cannot_be_written_undoes_the_update() {
    let (mut a, _, shelf) = shelved(Settings::default());
    let log_before = a.log.len();
    let saved_before = shelf.records().len();
    shelf.fail(true);
    let fx = a.update(Msg::Line("e4".into()), T0);
    // Nothing of the undone update is said or done: only the failure.
    assert!(
        fx.iter()
            .all(|e| matches!(e, Effect::Say(_) | Effect::Position { .. })),
        "{fx:?}"
    );
    let said: Vec<String> = fx
        .iter()
        .filter_map(|e| match e {
            Effect::Say(i) => Some(i.utterance.display.clone()),
            _ => None,
        })
        .collect();
    assert_eq!(said.len(), 1, "{said:?}");
    assert!(said[0].contains("NOT saved and NOT applied"), "{said:?}");
    assert!(!said[0].contains("e4"), "{said:?}");
    assert_eq!(a.board(Color::White).moves().len(), 0);
    assert!(a.unpressed().is_none());
    assert_eq!(shelf.records().len(), saved_before);
    // The announcement of the undone move left the log: only the failure
    // was added.
    assert_eq!(a.log.len(), log_before + 1);
    // Entered again once the disk has room, it is saved and played.
    shelf.fail(false);
    type_lines(&mut a, &["e4"]);
    assert_eq!(a.board(Color::White).moves().len(), 1);
    assert_eq!(shelf.records().len(), saved_before + 2);
}

#[test]
fn a_resumed_game_says_what_waits() {
    let (mut a, _, shelf) = shelved(Settings::default());
    for l in ["e4", "press"] {
        a.update(Msg::Line(l.into()), T0);
    }
    let all = shelf.records();
    let game = Game::replay(a.vocab().clone(), a.settings().config(), &all).unwrap();
    let (b, fx) = App::resume(
        a.vocab().clone(),
        Settings::default(),
        game,
        Box::new(crate::journal::Nowhere),
    );
    let said: Vec<String> = fx
        .iter()
        .filter_map(|e| match e {
            Effect::Say(i) => Some(i.utterance.display.clone()),
            _ => None,
        })
        .collect();
    assert!(said[0].contains("Black must first make"), "{said:?}");
    assert_eq!(b.to_execute().map(|(c, _)| c), Some(Color::Black));
}

#[test]
fn the_engine_moves_on_both_boards() {
    let (mut a, fx, shelf) = shelved(Settings {
        mode: Mode::Engine,
        engine_side: EngineSide::Black,
        ..Settings::default()
    });
    assert!(!fx.iter().any(|e| matches!(e, Effect::AskEngine { .. })));
    type_lines(&mut a, &["e4", "press"]);
    let saved = shelf.records().len();
    a.update(Msg::EngineMove(uci("e7e5")), T0);
    assert!(shelf.records().len() > saved);
    assert_eq!(a.board(Color::White).moves().len(), 2);
    assert_eq!(a.board(Color::Black).moves(), a.board(Color::White).moves());
    assert_eq!(a.sheet(Color::White), ["e4", "e5"]);
}

#[test]
fn scoresheets_get_the_move_as_written_before_it_was_made() {
    let mut a = app("en");
    type_lines(
        &mut a,
        &[
            "Nf3", "press", "d5", "press", "d3", "press", "e5", "press", "Nbd2", "press",
        ],
    );
    // Two knights could go to d2: the entry says which.
    assert_eq!(a.sheet(Color::White), ["Nf3", "d5", "d3", "e5", "Nbd2"]);
    assert_eq!(a.sheet(Color::Black), a.sheet(Color::White));
}

// ---- spoken moves ----

fn heard(a: &mut App, d: Decision) -> Vec<String> {
    a.update(Msg::Heard(d), T0)
        .into_iter()
        .filter_map(|e| match e {
            Effect::Say(i) => Some(i.utterance.display),
            _ => None,
        })
        .collect()
}

fn mv(a: &App, san: &str) -> Move {
    san.parse::<San>()
        .unwrap()
        .to_move(&a.hearing_position())
        .unwrap()
}

#[test]
fn a_clearly_heard_move_is_made_and_said_back_and_can_be_said_again() {
    let mut a = app("en");
    let e4 = mv(&a, "e4");
    let said = heard(
        &mut a,
        Decision::Move {
            mv: e4,
            heard: "pawn e two e four".into(),
        },
    );
    assert_eq!(said, ["1. White: e4"]);
    assert_eq!(a.unpressed().map(|u| u.mv), Some(e4));
    // Said again before the press (D.2.8): the new move replaces it.
    let d4 = mv(&a, "d4");
    let said = heard(
        &mut a,
        Decision::Move {
            mv: d4,
            heard: "pawn d two d four".into(),
        },
    );
    assert_eq!(said, ["1. White: d4"]);
    assert_eq!(a.board(Color::White).moves(), [d4]);
    // "Clock" presses it.
    heard(
        &mut a,
        Decision::Command {
            command: Cmd::Press,
            heard: "clock".into(),
        },
    );
    assert_eq!(a.clock().moves(Color::White), 1);
}

#[test]
fn doubt_is_asked_and_nothing_is_played_until_answered() {
    let mut a = app("en");
    let nf3 = mv(&a, "Nf3");
    let said = heard(
        &mut a,
        Decision::Ask {
            candidates: vec![nf3],
            heard: "knight f three".into(),
        },
    );
    assert!(said[0].starts_with("Did you say Knight g1 f3?"), "{said:?}");
    assert!(a.unpressed().is_none());
    heard(
        &mut a,
        Decision::Command {
            command: Cmd::No,
            heard: "no".into(),
        },
    );
    assert!(a.unpressed().is_none());
    heard(
        &mut a,
        Decision::Ask {
            candidates: vec![nf3],
            heard: "knight f three".into(),
        },
    );
    heard(
        &mut a,
        Decision::Command {
            command: Cmd::Yes,
            heard: "yes".into(),
        },
    );
    assert_eq!(a.unpressed().map(|u| u.mv), Some(nf3));
    // Several candidates: a typed number picks one.
    let mut b = app("en");
    let (e3, e4) = (mv(&b, "e3"), mv(&b, "e4"));
    let said = heard(
        &mut b,
        Decision::Ask {
            candidates: vec![e3, e4],
            heard: "pawn e".into(),
        },
    );
    assert!(said[0].starts_with("Which move did you mean"), "{said:?}");
    type_lines(&mut b, &["2"]);
    assert_eq!(b.unpressed().map(|u| u.mv), Some(e4));
}

#[test]
fn nothing_understood_plays_nothing() {
    let mut a = app("en");
    for h in ["", "banana"] {
        let said = heard(&mut a, Decision::NotUnderstood { heard: h.into() });
        assert_eq!(said.len(), 1, "{said:?}");
        assert!(said[0].contains("again"), "{said:?}");
    }
    assert!(a.unpressed().is_none());
    assert!(a.current().moves().is_empty());
}

#[test]
fn a_near_miss_is_asked_with_numbers_and_answered_by_number_yes_or_no() {
    // "Did you mean 1: …, or 2: …?": nothing is played before the answer.
    let mut a = app("en");
    let (nf3, nh3) = (mv(&a, "Nf3"), mv(&a, "Nh3"));
    let ask = |a: &mut App| {
        heard(
            a,
            Decision::DidYouMean {
                candidates: vec![nf3, nh3],
                heard: "knight f tree".into(),
            },
        )
    };
    let said = ask(&mut a);
    assert_eq!(
        said,
        [
            "Did you mean 1: Knight g1 f3 or 2: Knight g1 h3? Say the number, yes for the first, or no."
        ]
    );
    assert!(a.unpressed().is_none());
    // No: nothing played.
    heard(
        &mut a,
        Decision::Command {
            command: Cmd::No,
            heard: "no".into(),
        },
    );
    assert!(a.unpressed().is_none());
    // A number with no question open means nothing.
    let said = heard(
        &mut a,
        Decision::Number {
            number: 2,
            heard: "two".into(),
        },
    );
    assert!(said[0].contains("two"), "{said:?}");
    assert!(a.unpressed().is_none());
    // The spoken number picks that candidate.
    ask(&mut a);
    heard(
        &mut a,
        Decision::Number {
            number: 2,
            heard: "two".into(),
        },
    );
    assert_eq!(a.unpressed().map(|u| u.mv), Some(nh3));
    // Yes picks the first.
    let mut b = app("en");
    ask(&mut b);
    heard(
        &mut b,
        Decision::Command {
            command: Cmd::Yes,
            heard: "yes".into(),
        },
    );
    assert_eq!(b.unpressed().map(|u| u.mv), Some(nf3));
    // A number beyond the list is refused and the question stays open;
    // a typed number answers too.
    let mut c = app("en");
    ask(&mut c);
    heard(
        &mut c,
        Decision::Number {
            number: 3,
            heard: "three".into(),
        },
    );
    assert!(c.unpressed().is_none());
    type_lines(&mut c, &["1"]);
    assert_eq!(c.unpressed().map(|u| u.mv), Some(nf3));
    // Typed "yes" to a near miss picks the first as well.
    let mut d = app("en");
    ask(&mut d);
    type_lines(&mut d, &["yes"]);
    assert_eq!(d.unpressed().map(|u| u.mv), Some(nf3));
}

#[test]
fn every_locale_words_the_near_miss_question() {
    for code in ["de", "en", "pl", "he", "ar", "el", "ko", "fide"] {
        let mut a = app(code);
        let (nf3, nh3) = (mv(&a, "Nf3"), mv(&a, "Nh3"));
        let said = heard(
            &mut a,
            Decision::DidYouMean {
                candidates: vec![nf3, nh3],
                heard: "x".into(),
            },
        );
        assert_eq!(said.len(), 1, "{code}: {said:?}");
        assert!(
            said[0].contains("1: ") && said[0].contains("2: "),
            "{code}: {said:?}"
        );
        assert!(!said[0].contains('{'), "{code}: {said:?}");
    }
}

fn spoken(a: &mut App, command: Cmd) -> Vec<String> {
    heard(
        a,
        Decision::Command {
            command,
            heard: command.name().into(),
        },
    )
}

#[test]
fn what_cannot_be_undone_is_said_back_by_voice_and_acts_only_after_yes() {
    let en = Vocabulary::builtin("en").unwrap();
    let msg = |key: MsgKey| {
        let m = en.locale().message(key, &[]);
        m.split('{').next().unwrap_or_default().to_owned()
    };
    // Resignation: asked; "no" and "cancel" drop it; "yes" resigns.
    let mut a = app("en");
    let said = spoken(&mut a, Cmd::Resign);
    assert!(said[0].starts_with("White resigns?"), "{said:?}");
    assert!(a.game.mirror().result().is_none());
    for drop in [Cmd::No, Cmd::Cancel] {
        let said = spoken(&mut a, drop);
        assert!(
            said[0].starts_with(&msg(MsgKey::UiNotConfirmed)),
            "{said:?}"
        );
        assert!(a.game.mirror().result().is_none());
        // A yes after the drop does nothing.
        spoken(&mut a, Cmd::Yes);
        assert!(a.game.mirror().result().is_none());
        spoken(&mut a, Cmd::Resign);
    }
    spoken(&mut a, Cmd::Yes);
    assert!(a.game.mirror().result().is_some(), "resigned after yes");
    // A draw offer: asked, made after yes; its acceptance: asked, the
    // game drawn after yes (both have moved: Article 5.2.3).
    let mut b = app("en");
    type_lines(&mut b, &["e4", "press", "e5", "press"]);
    let said = spoken(&mut b, Cmd::Draw);
    assert!(said[0].starts_with("White offers a draw?"), "{said:?}");
    assert_eq!(b.game.mirror().draw_offer(), None);
    spoken(&mut b, Cmd::Yes);
    assert_eq!(b.game.mirror().draw_offer(), Some(Color::White));
    let said = spoken(&mut b, Cmd::Accept);
    assert!(said[0].starts_with("Black accepts the draw?"), "{said:?}");
    assert!(b.game.mirror().result().is_none());
    spoken(&mut b, Cmd::No);
    assert!(b.game.mirror().result().is_none());
    let asked = spoken(&mut b, Cmd::Accept);
    let said = spoken(&mut b, Cmd::Yes);
    assert!(
        b.game.mirror().result().is_some(),
        "drawn after yes: {asked:?} {said:?}"
    );
    // A claim: asked first.
    let mut c = app("en");
    let said = spoken(&mut c, Cmd::Claim);
    assert!(said[0].starts_with("White claims?"), "{said:?}");
    spoken(&mut c, Cmd::Cancel);
    assert!(c.game.mirror().result().is_none());
    // Declining a draw offered is not asked about.
    let mut d = app("en");
    spoken(&mut d, Cmd::Draw);
    spoken(&mut d, Cmd::Yes);
    spoken(&mut d, Cmd::Decline);
    assert_eq!(d.game.mirror().draw_offer(), None);
    assert!(d.game.mirror().result().is_none());
}

#[test]
fn help_names_the_stop_word_and_the_keys_only_where_there_are_keys() {
    for code in crate::locale::builtin_codes() {
        let loc = Vocabulary::builtin(code).unwrap();
        let quiet = loc.locale().message(MsgKey::UiCmdQuiet, &[]);
        let quiet = quiet.split('|').next().unwrap();
        let stop = loc
            .locale()
            .message(MsgKey::UiHelpStop, &[("quiet", quiet)]);
        let keys = loc.locale().message(MsgKey::UiHelpKeys, &[]);
        let mut screen = app(code);
        let said = type_lines(&mut screen, &["help"]);
        assert!(said[0].contains(&stop), "{code}: {said:?}");
        assert!(said[0].ends_with(&keys), "{code}: {said:?}");
        let mut plain = app(code);
        plain.settings.front = Front::Plain;
        let said = type_lines(&mut plain, &["help"]);
        assert!(said[0].ends_with(&stop), "{code}: {said:?}");
        assert!(
            !said[0].contains("F1") && !said[0].contains("F3"),
            "{code}: plain lines have no F keys: {said:?}"
        );
    }
}

#[test]
fn help_with_a_command_word_explains_that_command() {
    for code in crate::locale::builtin_codes() {
        let mut a = app(code);
        let loc = a.vocab.locale().clone();
        for cmd in [Cmd::Claim, Cmd::Status, Cmd::Correct] {
            let word = a.words.shown(cmd).to_owned();
            let help_word = a.words.shown(Cmd::Help).to_owned();
            let said = type_lines(&mut a, &[&format!("{help_word} {word}")]);
            let line = loc.message(cmd.help_key(), &[]);
            assert!(
                said[0].starts_with(&word) && said[0].contains(&line),
                "{code}: {said:?}"
            );
        }
    }
}

/// A game that ends with the move (5.1.1) goes on both scoresheets in the
/// scoresheet letters the screen shows; those must read back as the same
/// move in every locale (a Korean mate once gave "Black's 2nd move '퀸h4'
/// is not legal there", because the parser did not read the letters the
/// screen itself writes).
#[test]
fn a_mating_move_is_recorded_without_a_mismatch_in_every_locale() {
    // Fool's mate (queen), Legal's mate (knight), Loyd's stalemate in ten
    // (queen, after rook and king moves) and the scholar's mate.
    let games: [&[&str]; 4] = [
        &["f3", "e5", "g4", "Qh4"],
        &[
            "e4", "e5", "Nf3", "d6", "Bc4", "Bg4", "Nc3", "g6", "Nxe5", "Bxd1", "Bxf7", "Ke7",
            "Nd5",
        ],
        &[
            "e3", "a5", "Qh5", "Ra6", "Qxa5", "h5", "h4", "Rah6", "Qxc7", "f6", "Qxd7", "Kf7",
            "Qxb7", "Qd3", "Qxb8", "Qh7", "Qxc8", "Kg6", "Qe6",
        ],
        &["e4", "e5", "Bc4", "Nc6", "Qh5", "Nf6", "Qxf7"],
    ];
    for code in crate::locale::builtin_codes() {
        for game in games {
            let mut a = app(code);
            for mv in game {
                type_lines(&mut a, &[mv, "press"]);
            }
            let mirror = a.game.mirror();
            assert!(mirror.result().is_some(), "{code}: {game:?} did not end");
            assert_eq!(
                mirror.mismatch(),
                None,
                "{code}: {game:?}: {:?}",
                a.sheet(Color::White)
            );
            for c in [Color::White, Color::Black] {
                let sheet = mirror.sheet(c).entries();
                assert_eq!(sheet.len(), game.len(), "{code}: {c:?}'s sheet {sheet:?}");
                assert!(
                    sheet.iter().all(|e| e.mv.is_some()),
                    "{code}: {c:?}'s sheet {sheet:?}"
                );
            }
        }
    }
}

#[test]
fn a_spoken_command_drops_the_question_it_does_not_answer() {
    let en = crate::locale::builtin("en").unwrap();
    let mut a = app("en");
    type_lines(&mut a, &["resign"]);
    // "time" heard instead of yes or no: the resignation is dropped
    // (said), and the time is said.
    let said = heard(
        &mut a,
        Decision::Command {
            command: Cmd::Time,
            heard: "time".into(),
        },
    );
    assert_eq!(
        said[0],
        en.message(MsgKey::UiQuestionDropped, &[("yes", "yes"), ("no", "no")])
    );
    assert!(said[1].starts_with("White: "), "{said:?}");
    // A yes now answers nothing: the game goes on.
    heard(
        &mut a,
        Decision::Command {
            command: Cmd::Yes,
            heard: "yes".into(),
        },
    );
    assert!(a.current().result().is_none());
    // Liveness: a spoken yes to the question resigns.
    type_lines(&mut a, &["resign"]);
    heard(
        &mut a,
        Decision::Command {
            command: Cmd::Yes,
            heard: "yes".into(),
        },
    );
    assert!(a.current().result().is_some());
}

#[test]
fn the_last_five_moves_are_read_when_asked_by_voice() {
    let mut a = app("en");
    for m in ["e4", "press", "e5", "press", "Nf3", "press", "Nc6", "press"] {
        type_lines(&mut a, &[m]);
    }
    type_lines(&mut a, &["Bb5", "press", "a6", "press"]);
    let said = heard(
        &mut a,
        Decision::Command {
            command: Cmd::LastFive,
            heard: "last five".into(),
        },
    );
    assert_eq!(
        said,
        [
            "Last moves: 1. Black: e5, 2. White: Knight f3, 2. Black: Knight c6, \
          3. White: Bishop b5, 3. Black: a6."
        ]
    );
}

#[test]
fn the_alarm_set_in_play_is_what_the_clock_says() {
    let (mut a, _) = app_with(
        "en",
        Settings {
            control: "5m".parse().unwrap(),
            ..Settings::default()
        },
    );
    // A warning at two minutes only, no countdown.
    let said = type_lines(&mut a, &["alarm 2m", "alarm countdown 0"]);
    assert!(said[0].contains("2:00"), "{said:?}");
    let mut all = Vec::new();
    for t in [1, 100, 170, 181, 185, 241, 245, 271, 275, 291, 295, 299] {
        all.extend(said_at(&mut a, t));
    }
    // One warning (at 2:00 left), none at 1:00 or 0:30, no countdown.
    assert_eq!(all.len(), 1, "{all:?}");
    assert!(
        all[0].contains("2:00") || all[0].contains("1:59"),
        "{all:?}"
    );
    // Refused words change nothing.
    let said = type_lines(&mut a, &["alarm soon"]);
    assert!(said[0].starts_with("'soon' is not understood"), "{said:?}");
    assert_eq!(a.settings().alarm.warnings, [Duration::from_secs(120)]);
}

/// The play screen keeps its game in the one save sequence
/// ([`Journaled`]) over the real journal store, as the `play` script does
/// (`cli::play::tests`): a full disk undoes the update and says so, and
/// what is durable replays to exactly the game on the screen.
#[test]
fn the_play_screen_saves_through_the_journal_store_and_rolls_back_on_a_full_disk() {
    use crate::journal::fault::{Disk, Faults};
    use crate::journal::{self, Loaded, Writer};
    const HEADER: &str = r#"{"format":"annabella-journal","version":2,"created":"2026-11-21T22:00:00Z","white":"","black":"","control":"90m/40+30m+30s","locale":"en"}"#;
    let header: journal::Header = serde_json::from_str(HEADER).unwrap();
    let bytes = journal::encode_line(&header).unwrap().into_bytes();
    let loaded: Loaded = journal::parse(&bytes).unwrap();
    // The second save finds the disk full.
    let disk = Disk::new(
        &bytes,
        Faults {
            full_at_write: Some(2),
            ..Faults::default()
        },
    );
    let writer = Writer::over(
        Box::new(disk.clone()),
        std::path::Path::new("g.jsonl"),
        &loaded,
    );
    let vocab = Vocabulary::builtin("en").unwrap();
    let settings = Settings::default();
    let game = Game::new(vocab.clone(), settings.config(), T0);
    let (mut a, _) = App::start(vocab.clone(), settings.clone(), game, Box::new(writer), T0);
    let said = type_lines(&mut a, &["e4"]);
    assert!(!said.join(" ").contains("NOT saved"), "{said:?}");
    assert_eq!(a.board(Color::White).moves().len(), 1);
    let said = type_lines(&mut a, &["press"]);
    assert_eq!(said.len(), 1, "{said:?}");
    assert!(said[0].contains("NOT saved and NOT applied"), "{said:?}");
    assert!(a.unpressed().is_some(), "the press was undone");
    // The disk has room again: the press is saved and played.
    disk.state().faults.full_at_write = None;
    let said = type_lines(&mut a, &["press"]);
    assert!(!said.join(" ").contains("NOT saved"), "{said:?}");
    assert!(a.unpressed().is_none());
    let durable = journal::parse(&disk.state().durable).unwrap();
    let replayed = Game::replay(vocab, settings.config(), &durable.records).unwrap();
    for c in [Color::White, Color::Black] {
        assert_eq!(replayed.mirror().board(c).moves(), a.board(c).moves());
        assert_eq!(replayed.mirror().sheet(c), a.mirror().sheet(c));
    }
    assert_eq!(replayed.mirror().stage(), a.mirror().stage());
}

#[test]
fn words_after_a_command_that_takes_none_are_refused_not_dropped() {
    let mut a = app("en");
    type_lines(&mut a, &["e4"]);
    // `press e5`: neither the press nor a move; the words are named.
    let said = type_lines(&mut a, &["press e5"]);
    assert!(
        said.len() == 1 && said[0].contains("press takes nothing") && said[0].contains("e5"),
        "{said:?}"
    );
    assert!(a.unpressed().is_some(), "the clock was pressed");
    assert_eq!(a.current().moves().len(), 1);
    // Liveness: the command alone acts, and so do commands that take words.
    type_lines(&mut a, &["press"]);
    assert!(a.unpressed().is_none());
    assert_eq!(a.clock().moves(Color::White), 1);
    let said = type_lines(&mut a, &["what e4"]);
    assert!(said[0].contains("White Pawn"), "{said:?}");
    // `quit now` does not ask to quit; German too.
    let said = type_lines(&mut a, &["quit now"]);
    assert!(said[0].contains("takes nothing"), "{said:?}");
    assert!(
        type_lines(&mut a, &["yes"])
            .iter()
            .all(|s| !s.contains("journal"))
    );
    let mut de = app("de");
    let said = type_lines(&mut de, &["zeit bitte"]);
    assert!(said[0].starts_with("Nach zeit folgt nichts"), "{said:?}");
}

#[test]
fn save_with_a_file_name_saves_into_that_file() {
    let mut a = app("en");
    type_lines(&mut a, &["e4", "press"]);
    let path_of = |fx: Vec<Effect>| match fx.into_iter().next() {
        Some(Effect::Save { path, .. }) => path,
        other => panic!("{other:?}"),
    };
    let fx = a.update(Msg::Line("save /tmp/x/mine.pgn".into()), T0);
    assert_eq!(path_of(fx), std::path::Path::new("/tmp/x/mine.pgn"));
    let fx = a.update(Msg::Line("save \"my game.pgn\"".into()), T0);
    assert_eq!(path_of(fx), std::path::Path::new("my game.pgn"));
    // Alone: the --save file (the default here), also after a named save.
    let fx = a.update(Msg::Line("save".into()), T0);
    assert_eq!(path_of(fx), Settings::default().save_path);
    let fx = a.update(Msg::Line("save ''".into()), T0);
    assert_eq!(path_of(fx), Settings::default().save_path);
}

/// espeak-ng's Hebrew voice reads no digits: the numbers of a choice are
/// said as words (they stay digits on screen), and the right one is played.
#[test]
fn the_numbers_of_a_choice_are_spoken_as_words_where_the_voice_reads_no_digits() {
    let mut a = app("he");
    let say = |a: &mut App, line: &str| -> Vec<Utterance> {
        a.update(Msg::Line(line.to_owned()), T0)
            .into_iter()
            .filter_map(|e| match e {
                Effect::Say(i) => Some(i.utterance),
                _ => None,
            })
            .collect()
    };
    for line in ["Nf3", "press", "a6", "press", "d3", "press", "a5", "press"] {
        say(&mut a, line);
    }
    let asked = say(&mut a, "Nd2");
    let question = asked.first().expect("a question");
    assert!(
        question.display.contains("1: ") && question.display.contains("2: "),
        "{question:?}"
    );
    assert!(
        question.spoken.contains("אחת: ") && question.spoken.contains("שתיים: "),
        "{question:?}"
    );
    assert!(
        !question.spoken.chars().any(|c| c.is_ascii_digit()),
        "{question:?}"
    );
    let refused = say(&mut a, "3");
    let refused = refused.first().expect("a refusal");
    assert!(
        refused.spoken.contains("שלוש") && refused.spoken.contains("שתיים"),
        "{refused:?}"
    );
    assert!(
        a.unpressed().is_none(),
        "nothing is played on a wrong number"
    );
    say(&mut a, "2");
    let u = a.unpressed().expect("the chosen move is made");
    assert_eq!((u.mv.from(), u.mv.to()), (Some(Square::F3), Square::D2));
}
