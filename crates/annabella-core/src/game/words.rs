//! Wording (pure): the one place where what happened in a game
//! ([`GameEvent`]) and why a command was refused ([`GameError`]) become
//! words, from the locale's messages. A message that tells the user what to
//! do names the command in the words of the front end that shows it
//! ([`Verbs`]): the `play` script's syntax, the play screen's command words,
//! or the words said to the voice input.

use std::time::Duration;

use shakmaty::{CastlingMode, Color, Position};

use crate::clock::ClockError;
use crate::clock::talk::{Phrasebook, Verbosity, counted};
use crate::commands::{Cmd, Verbs};
use crate::locale::{MsgKey, PluralStem};
use crate::mirror::{
    BoardsSet, Entry, GameError, GameEvent, Mirror, Mismatch, MoveAt, PgnNotes, Stage, hms,
};
use crate::vocab::{Style, Utterance, Vocabulary};

mod adjourn;
mod quickplay;

/// Words for events and refusals in one locale, for one front end.
#[derive(Clone, Copy)]
pub struct Wording<'a> {
    vocab: &'a Vocabulary,
    style: Style,
    mode: CastlingMode,
    verbs: &'a dyn Verbs,
}

impl std::fmt::Debug for Wording<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Wording")
            .field("locale", &self.vocab.locale().code)
            .field("style", &self.style)
            .finish()
    }
}

fn plain(s: impl Into<String>) -> Utterance {
    Utterance::plain(s)
}

impl<'a> Wording<'a> {
    /// Words in `vocab`, moves announced in `style`, commands named by
    /// `verbs`.
    pub fn new(
        vocab: &'a Vocabulary,
        style: Style,
        mode: CastlingMode,
        verbs: &'a dyn Verbs,
    ) -> Wording<'a> {
        Wording {
            vocab,
            style,
            mode,
            verbs,
        }
    }

    /// Words for the game `mirror` (its locale, style and castling rules).
    pub fn of(mirror: &'a Mirror, verbs: &'a dyn Verbs) -> Wording<'a> {
        let c = mirror.config();
        Wording::new(mirror.vocab(), c.style, c.mode, verbs)
    }

    /// The vocabulary.
    pub fn vocab(&self) -> &'a Vocabulary {
        self.vocab
    }

    fn msg(&self, key: MsgKey, args: &[(&str, &Utterance)]) -> Utterance {
        self.vocab.message(key, args)
    }

    /// A clock time as the talking clock shows and says it (`1:12:05`,
    /// `4:05`, `0:09.5`; "4 minutes 5 seconds"): one format for every
    /// message about the clock.
    pub(super) fn time(&self, d: Duration) -> Utterance {
        Phrasebook::new(self.vocab.locale().clone()).duration(d, Verbosity::Brief)
    }

    /// An amount of time given, taken or allowed ("2 minutes"), in words
    /// as the talking clock says them.
    pub(super) fn amount(&self, d: Duration) -> Utterance {
        Phrasebook::new(self.vocab.locale().clone()).duration(d, Verbosity::Full)
    }

    fn side(&self, c: Color) -> Utterance {
        self.vocab.side(c)
    }

    fn verb(&self, v: Cmd) -> Utterance {
        self.verbs.verb(v)
    }

    /// A number (a move number, a count): digits on screen, the locale's
    /// number word when spoken (a Hebrew voice says no digits at all).
    fn num(&self, n: impl std::fmt::Display) -> Utterance {
        self.vocab.number(n)
    }

    /// A move in the position it was made in (coordinates if illegal).
    pub fn move_at(&self, m: &MoveAt) -> Utterance {
        if m.before.is_legal(m.mv) {
            self.vocab.announce(&m.before, m.mv, self.style)
        } else {
            plain(m.mv.to_uci(self.mode).to_string())
        }
    }

    /// `n` things with the plural form of the locale's language: the
    /// message `STEM.CATEGORY` ("count.moves.one" = "ein Zug"), the number
    /// in digits on screen and as the locale's number word when spoken.
    fn count(&self, stem: PluralStem, n: u64) -> Utterance {
        counted(self.vocab.locale(), stem, n)
    }

    /// "move 6 of White" for the last move kept, or "no moves yet".
    fn up_to(&self, last: Option<(Color, u32)>) -> Utterance {
        match last {
            Some((side, number)) => self.msg(
                MsgKey::MirrorUpTo,
                &[("number", &self.num(number)), ("side", &self.side(side))],
            ),
            None => self.msg(MsgKey::JournalNoMoves, &[]),
        }
    }

    fn entry(&self, e: &Entry) -> Utterance {
        match e {
            Entry::Move(m) => self.move_at(m),
            Entry::Text(t) => plain(t.clone()),
            Entry::Nothing => self.msg(MsgKey::MirrorNothing, &[]),
        }
    }

    /// What happened, as one line to print and speak.
    pub fn event(&self, e: &GameEvent) -> Utterance {
        let s = |c: Color| self.side(c);
        match e {
            GameEvent::Made { side, mv } => self.msg(
                MsgKey::MirrorMade,
                &[("side", &s(*side)), ("move", &self.move_at(mv))],
            ),
            GameEvent::MadeFinal { side, mv } => self.msg(
                MsgKey::MirrorMadeFinal,
                &[("side", &s(*side)), ("move", &self.move_at(mv))],
            ),
            GameEvent::MadeAsGiven { side, text } => self.msg(
                MsgKey::MirrorMade,
                &[("side", &s(*side)), ("move", &plain(text.clone()))],
            ),
            GameEvent::NotLegal(err) => self.error(err),
            GameEvent::IllegalMade { side } => {
                self.msg(MsgKey::MirrorIllegalMade, &[("side", &s(*side))])
            }
            GameEvent::PromotionMissing { side } => self.msg(
                MsgKey::MirrorPromotionMissing,
                &[
                    ("side", &s(*side)),
                    ("queen", &self.vocab.piece(shakmaty::Role::Queen)),
                ],
            ),
            GameEvent::PressedWithoutMove { side } => {
                self.msg(MsgKey::MirrorPressedWithoutMove, &[("side", &s(*side))])
            }
            GameEvent::BecameQueen { side, mv } => self.msg(
                MsgKey::MirrorBecameQueen,
                &[("side", &s(*side)), ("move", &self.move_at(mv))],
            ),
            GameEvent::WinClaimable { side, stands } => self.msg(
                if *stands {
                    MsgKey::MirrorWinClaimableStands
                } else {
                    MsgKey::MirrorWinClaimable
                },
                &[
                    ("side", &s(*side)),
                    ("opponent", &s(!*side)),
                    ("claim", &self.verb(Cmd::Claim)),
                ],
            ),
            GameEvent::Announced {
                number,
                side,
                mv,
                corrected,
            } => self.msg(
                if *corrected {
                    MsgKey::MirrorSlipCorrected
                } else {
                    MsgKey::MirrorAnnounced
                },
                &[
                    ("number", &self.num(number)),
                    ("side", &s(*side)),
                    ("move", &self.move_at(mv)),
                ],
            ),
            GameEvent::AnnouncedAsGiven { number, side, text } => self.msg(
                MsgKey::MirrorAnnounced,
                &[
                    ("number", &self.num(number)),
                    ("side", &s(*side)),
                    ("move", &plain(text.clone())),
                ],
            ),
            GameEvent::AnnouncedIllegal { number, side, text } => self.msg(
                MsgKey::MirrorAnnouncedIllegal,
                &[
                    ("number", &self.num(number)),
                    ("side", &s(*side)),
                    ("move", &plain(text.clone())),
                ],
            ),
            GameEvent::Slip { side, said, mv } => self.msg(
                MsgKey::MirrorSlip,
                &[
                    ("side", &s(*side)),
                    ("said", &self.move_at(said)),
                    ("move", &self.move_at(mv)),
                ],
            ),
            GameEvent::TakenBack { side } => {
                self.msg(MsgKey::MirrorTakenBack, &[("side", &s(*side))])
            }
            GameEvent::Pressed {
                side,
                mv,
                remaining,
            } => self.msg(
                MsgKey::MirrorPressed,
                &[
                    ("side", &s(*side)),
                    ("opponent", &s(!*side)),
                    ("move", &self.move_at(mv)),
                    ("time", &self.time(*remaining)),
                ],
            ),
            GameEvent::PeriodReached { side, added } => self.msg(
                MsgKey::MirrorPeriodReached,
                &[("side", &s(*side)), ("time", &self.amount(*added))],
            ),
            GameEvent::IllegalCompleted { side } => {
                self.msg(MsgKey::MirrorIllegalCompleted, &[("side", &s(*side))])
            }
            GameEvent::UnpromotedCompleted { side } => {
                self.msg(MsgKey::MirrorUnpromotedCompleted, &[("side", &s(*side))])
            }
            GameEvent::Penalty { side, to, extra } => self.msg(
                MsgKey::PenaltyIllegalMove,
                &[
                    ("side", &s(*side)),
                    ("opponent", &s(*to)),
                    (
                        "minutes",
                        &self.count(PluralStem::TimeMinutes, extra.as_secs() / 60),
                    ),
                ],
            ),
            GameEvent::Repeated { side, mv } => self.msg(
                MsgKey::MirrorRepeated,
                &[("side", &s(*side)), ("move", &self.move_at(mv))],
            ),
            GameEvent::RepeatDiffers { side, heard, mv } => self.msg(
                MsgKey::MirrorRepeatDiffers,
                &[
                    ("side", &s(*side)),
                    ("heard", &self.move_at(heard)),
                    ("move", &self.move_at(mv)),
                ],
            ),
            GameEvent::Executed { board, mv, next } => match next {
                Some(next) => self.msg(
                    MsgKey::MirrorExecuted,
                    &[
                        ("side", &s(*board)),
                        ("move", &self.move_at(mv)),
                        ("next", &s(*next)),
                    ],
                ),
                None => self.msg(
                    MsgKey::MirrorExecutedFinal,
                    &[("side", &s(*board)), ("move", &self.move_at(mv))],
                ),
            },
            GameEvent::SheetRecorded {
                sheet,
                number,
                side,
                entry,
                offer,
            } => self.msg(
                MsgKey::MirrorSheetRecorded,
                &[
                    ("sheet", &s(*sheet)),
                    ("number", &self.num(number)),
                    ("side", &s(*side)),
                    ("entry", &self.entry(entry)),
                    ("offer", &plain(if *offer { " (=)" } else { "" })),
                ],
            ),
            GameEvent::Mismatch {
                found,
                number,
                side,
                white,
                black,
            } => self.mismatch(found, *number, *side, white, black),
            GameEvent::DrawOffered { side } => {
                self.msg(MsgKey::MirrorDrawOffered, &[("side", &s(*side))])
            }
            GameEvent::DrawDeclined { side } => {
                self.msg(MsgKey::MirrorDrawDeclined, &[("side", &s(*side))])
            }
            GameEvent::DrawOfferLapsed { side } => self.msg(
                MsgKey::MirrorDrawOfferLapsed,
                &[("side", &s(*side)), ("opponent", &s(!*side))],
            ),
            GameEvent::ClaimIsOffer { side } => self.msg(
                MsgKey::MirrorClaimIsOffer,
                &[
                    ("side", &s(*side)),
                    ("opponent", &s(!*side)),
                    ("accept", &self.verb(Cmd::Accept)),
                    ("decline", &self.verb(Cmd::Decline)),
                ],
            ),
            GameEvent::ClaimMoveToMake { side, mv } => self.msg(
                MsgKey::MirrorClaimMoveToMake,
                &[("side", &s(*side)), ("move", &self.move_at(mv))],
            ),
            GameEvent::SheetOfferUnmarked {
                sheet,
                number,
                side,
            } => self.msg(
                MsgKey::MirrorSheetOfferUnmarked,
                &[
                    ("sheet", &s(*sheet)),
                    ("number", &self.num(number)),
                    ("side", &s(*side)),
                ],
            ),
            GameEvent::ClaimRejected {
                side,
                repetitions,
                halfmoves,
                extra,
            } => self.msg(
                MsgKey::UiClaimRejected,
                &[
                    ("side", &s(*side)),
                    ("opponent", &s(!*side)),
                    (
                        "repetitions",
                        &self.count(PluralStem::CountTimes, *repetitions as u64),
                    ),
                    (
                        "halfmoves",
                        &self.count(PluralStem::CountHalfmoves, u64::from(*halfmoves)),
                    ),
                    (
                        "minutes",
                        &self.count(PluralStem::TimeMinutes, extra.as_secs() / 60),
                    ),
                ],
            ),
            GameEvent::ClockPaused { side } => self.msg(
                MsgKey::GamePaused,
                &[("side", &s(*side)), ("resume", &self.verb(Cmd::Resume))],
            ),
            GameEvent::ClockResumed { side } => {
                self.msg(MsgKey::ClockResumed, &[("side", &s(*side))])
            }
            GameEvent::ClocksFromPgn { white, black } => {
                let t = |d: &Option<Duration>| match d {
                    Some(d) => plain(hms(*d)),
                    None => self.msg(MsgKey::MirrorNameUnknown, &[]),
                };
                self.msg(
                    MsgKey::MirrorClocksFromPgn,
                    &[("white", &t(white)), ("black", &t(black))],
                )
            }
            GameEvent::ClockAdjusted {
                side,
                amount,
                add,
                remaining,
            } => self.msg(
                if *add {
                    MsgKey::MirrorAdjustAdd
                } else {
                    MsgKey::MirrorAdjustRemove
                },
                &[
                    ("side", &s(*side)),
                    ("time", &self.amount(*amount)),
                    ("remaining", &self.time(*remaining)),
                ],
            ),
            GameEvent::Sealed {
                side,
                number,
                used,
                resumption,
            } => self.msg(
                MsgKey::MirrorSealed,
                &[
                    ("side", &s(*side)),
                    ("number", &self.num(number)),
                    ("white", &self.time(used[0])),
                    ("black", &self.time(used[1])),
                    ("resumption", &self.resumption(resumption)),
                ],
            ),
            GameEvent::EnvelopeContents { names, fen } => self.envelope_contents(names, fen, true),
            GameEvent::OpponentPresent { side } => self.msg(
                MsgKey::MirrorPresent,
                &[
                    ("side", &s(*side)),
                    ("open_seal", &self.verb(Cmd::OpenSeal)),
                ],
            ),
            GameEvent::SealOpened { mv } => {
                self.msg(MsgKey::MirrorSealOpened, &[("move", &self.move_at(mv))])
            }
            GameEvent::CorrectedSheet {
                sheet,
                number,
                side,
                old,
                new,
            } => self.msg(
                MsgKey::MirrorCorrectedSheet,
                &[
                    ("sheet", &s(*sheet)),
                    ("number", &self.num(number)),
                    ("side", &s(*side)),
                    ("old", &plain(old.clone())),
                    ("new", &plain(new.clone())),
                ],
            ),
            GameEvent::CorrectedBoards { boards, last, turn } => {
                let boards = match boards {
                    BoardsSet::One(c) => self.msg(MsgKey::MirrorBoardOf, &[("side", &s(*c))]),
                    BoardsSet::Both => self.msg(MsgKey::MirrorBothBoards, &[]),
                };
                self.msg(
                    MsgKey::MirrorCorrectedBoard,
                    &[
                        ("boards", &boards),
                        ("last", &self.up_to(*last)),
                        ("turn", &s(*turn)),
                    ],
                )
            }
            GameEvent::Retraced { number, last, turn } => self.msg(
                MsgKey::MirrorCorrectedRetrace,
                &[
                    ("number", &self.num(number)),
                    ("last", &self.up_to(*last)),
                    ("turn", &s(*turn)),
                    ("add_time", &self.verb(Cmd::Add)),
                ],
            ),
            GameEvent::NothingToCorrect => self.msg(MsgKey::MirrorCorrectedNothing, &[]),
            GameEvent::TouchNotHonoured { side, square } => self.msg(
                MsgKey::MirrorTouchNotHonoured,
                &[("side", &s(*side)), ("square", &self.vocab.square(*square))],
            ),
            GameEvent::Touched {
                side,
                square,
                piece,
            } => {
                let what = match piece {
                    Some(p) => self.msg(
                        MsgKey::MirrorPieceOf,
                        &[
                            ("piece", &self.vocab.piece(p.role)),
                            ("side", &self.side(p.color)),
                        ],
                    ),
                    None => self.msg(MsgKey::MirrorNothing, &[]),
                };
                self.msg(
                    MsgKey::MirrorTouched,
                    &[
                        ("side", &s(*side)),
                        ("square", &self.vocab.square(*square)),
                        ("piece", &what),
                    ],
                )
            }
            GameEvent::GameOver(r) => self.vocab.describe_result(r),
            GameEvent::Quickplay(e) => self.quickplay_event(e),
            GameEvent::SealWritten { .. }
            | GameEvent::SealFaulty { .. }
            | GameEvent::EnvelopeDrawOffer { .. }
            | GameEvent::DrawOfferStands { .. }
            | GameEvent::PlayerPresent { .. }
            | GameEvent::PlayerAbsent { .. }
            | GameEvent::PlayerArrived { .. }
            | GameEvent::AbsentClockStarted { .. }
            | GameEvent::SealInvalid { .. }
            | GameEvent::DefaultTimeSet { .. }
            | GameEvent::Excused { .. } => self.adjournment(e),
        }
    }

    fn mismatch(
        &self,
        found: &Mismatch,
        number: u32,
        side: Color,
        white: &Entry,
        black: &Entry,
    ) -> Utterance {
        let correct = self.verb(Cmd::Correct);
        let pause = self.verb(Cmd::Pause);
        let common = |key: MsgKey| {
            self.msg(
                key,
                &[
                    ("number", &self.num(number)),
                    ("side", &self.side(side)),
                    ("black", &self.entry(black)),
                    ("white", &self.entry(white)),
                    ("correct", &correct),
                    ("pause", &pause),
                ],
            )
        };
        match found {
            Mismatch::Boards { .. } => common(MsgKey::MirrorBoardsDiffer),
            Mismatch::Sheets { .. } => common(MsgKey::MirrorSheetsDiffer),
            Mismatch::SheetInvalid { color, .. } => {
                let entry = match color {
                    Color::White => white,
                    Color::Black => black,
                };
                let text = match entry {
                    Entry::Text(t) => plain(t.clone()),
                    other => self.entry(other),
                };
                self.msg(
                    MsgKey::MirrorSheetInvalid,
                    &[
                        ("sheet", &self.side(*color)),
                        ("number", &self.num(number)),
                        ("side", &self.side(side)),
                        ("entry", &text),
                        ("correct", &correct),
                    ],
                )
            }
        }
    }

    /// Why a command was refused, saying what to do.
    pub fn error(&self, e: &GameError) -> Utterance {
        let s = |c: Color| self.side(c);
        match e {
            GameError::NotYourTurn { board, mover } => self.msg(
                MsgKey::MirrorErrNotYourTurn,
                &[("board", &s(*board)), ("side", &s(*mover))],
            ),
            GameError::AlreadyMade(c) => self.msg(
                MsgKey::MirrorErrAlreadyMade,
                &[
                    ("side", &s(*c)),
                    ("announce", &self.verb(Cmd::Announce)),
                    ("press", &self.verb(Cmd::Press)),
                    ("takeback", &self.verb(Cmd::TakeBack)),
                ],
            ),
            GameError::NoMove(c) => self.msg(MsgKey::MirrorErrNoMove, &[("side", &s(*c))]),
            GameError::NotAnnounced(c) => {
                self.msg(MsgKey::MirrorErrNotAnnounced, &[("side", &s(*c))])
            }
            GameError::SlipUncorrected {
                color,
                mv: made,
                said,
                before,
            } => {
                let at = |m| {
                    self.move_at(&MoveAt {
                        before: (**before).clone(),
                        mv: m,
                    })
                };
                self.msg(
                    MsgKey::MirrorErrSlipUncorrected,
                    &[
                        ("side", &s(*color)),
                        ("move", &at(*made)),
                        ("said", &at(*said)),
                    ],
                )
            }
            GameError::TooLate(c) => self.msg(
                MsgKey::MirrorErrTooLate,
                &[("side", &s(*c)), ("correct", &self.verb(Cmd::Correct))],
            ),
            GameError::AwaitExecution {
                board,
                mv: m,
                before,
            } => self.msg(
                MsgKey::MirrorErrAwaitExecution,
                &[
                    ("side", &s(*board)),
                    ("opponent", &s(!*board)),
                    (
                        "move",
                        &self.move_at(&MoveAt {
                            before: (**before).clone(),
                            mv: *m,
                        }),
                    ),
                ],
            ),
            GameError::NotPressed(c) => self.msg(MsgKey::MirrorErrNotPressed, &[("side", &s(*c))]),
            GameError::MissedMove {
                board,
                mv: m,
                before,
                number,
            } => self.msg(
                MsgKey::MirrorMissedMove,
                &[
                    ("side", &s(*board)),
                    ("opponent", &s(!*board)),
                    ("number", &self.num(number)),
                    (
                        "move",
                        &self.move_at(&MoveAt {
                            before: (**before).clone(),
                            mv: *m,
                        }),
                    ),
                ],
            ),
            GameError::BoardsDiffer => self.msg(
                MsgKey::MirrorErrBoardsDiffer,
                &[("correct", &self.verb(Cmd::Correct))],
            ),
            GameError::BadMove { board, pos, error } => {
                let why = self.vocab.describe_error(pos, error);
                self.msg(
                    MsgKey::MirrorErrBadMove,
                    &[("board", &s(*board)), ("reason", &why)],
                )
            }
            GameError::GameOver(r) => self.msg(
                MsgKey::MirrorErrGameOver,
                &[("result", &self.vocab.describe_result(r))],
            ),
            GameError::Adjourned => self.msg(
                MsgKey::MirrorErrAdjourned,
                &[
                    ("present", &self.verb(Cmd::Present)),
                    ("open_seal", &self.verb(Cmd::OpenSeal)),
                ],
            ),
            GameError::NotAdjourned => self.msg(MsgKey::MirrorErrNotAdjourned, &[]),
            GameError::OpponentAbsent(c) => self.msg(
                MsgKey::MirrorErrOpponentAbsent,
                &[("side", &s(*c)), ("present", &self.verb(Cmd::Present))],
            ),
            GameError::NoDrawOffer => self.msg(MsgKey::MirrorErrNoDrawOffer, &[]),
            GameError::DrawTooEarly => self.msg(MsgKey::MirrorErrDrawTooEarly, &[]),
            GameError::ClaimAfterTouch(c) => {
                self.msg(MsgKey::MirrorErrClaimAfterTouch, &[("side", &s(*c))])
            }
            GameError::ClaimMoveRequired { side, mv, before } => self.msg(
                MsgKey::MirrorErrClaimMoveRequired,
                &[
                    ("side", &s(*side)),
                    (
                        "move",
                        &self.move_at(&MoveAt {
                            before: (**before).clone(),
                            mv: *mv,
                        }),
                    ),
                ],
            ),
            GameError::MoveStands(c) => self.msg(
                MsgKey::MirrorErrMoveStands,
                &[("side", &s(*c)), ("press", &self.verb(Cmd::Press))],
            ),
            GameError::OwnDrawOffer(c) => {
                self.msg(MsgKey::MirrorErrOwnDrawOffer, &[("side", &s(*c))])
            }
            GameError::TimeWentBackwards { latest } => self.msg(
                MsgKey::MirrorErrTimeBackwards,
                &[("time", &self.time(*latest))],
            ),
            GameError::Clock(e) => self.clock_error(e),
            GameError::BadSquare(text) => self.msg(
                MsgKey::MirrorErrBadSquare,
                &[("text", &plain(text.clone()))],
            ),
            GameError::Quickplay(e) => self.quickplay_error(e),
            GameError::Sealing(c) => self.msg(
                MsgKey::MirrorErrSealing,
                &[
                    ("side", &s(*c)),
                    ("seal", &self.verb(Cmd::Seal)),
                    ("press", &self.verb(Cmd::Press)),
                ],
            ),
            GameError::SealNotMade { side, mv, before } => self.msg(
                MsgKey::MirrorErrSealNotMade,
                &[
                    ("side", &s(*side)),
                    (
                        "move",
                        &self.move_at(&MoveAt {
                            before: (**before).clone(),
                            mv: *mv,
                        }),
                    ),
                ],
            ),
        }
    }

    /// A clock refusal, in the locale's words.
    pub fn clock_error(&self, e: &ClockError) -> Utterance {
        let s = |c: Color| self.side(c);
        match e {
            ClockError::Paused { .. } => self.msg(
                MsgKey::GameClockPaused,
                &[("resume", &self.verb(Cmd::Resume))],
            ),
            ClockError::NotPaused => self.msg(MsgKey::GameClockNotPaused, &[]),
            ClockError::FlagFallen { color, .. } => {
                self.msg(MsgKey::GameClockFlagFallen, &[("side", &s(*color))])
            }
            ClockError::RemovalExceedsRemaining {
                color,
                remaining,
                requested,
            } => self.msg(
                MsgKey::GameClockCannotTake,
                &[
                    ("side", &s(*color)),
                    ("time", &self.amount(*requested)),
                    ("left", &self.time(*remaining)),
                ],
            ),
            ClockError::TimeWentBackwards { latest, .. } => self.msg(
                MsgKey::MirrorErrTimeBackwards,
                &[("time", &self.time(*latest))],
            ),
            ClockError::NotStarted
            | ClockError::AlreadyStarted
            | ClockError::IncrementAlreadySet { .. }
            | ClockError::InvalidIncrement(_)
            | ClockError::Overflow => self.msg(MsgKey::GameClockRefused, &[]),
        }
    }

    /// Both clocks and move counts, as the talking clock reads them (D.2.6),
    /// and the time each player has used (D.2.10.4).
    pub fn clock_reading(&self, mirror: &Mirror, now: Duration) -> Utterance {
        let r = |c: Color| mirror.clock().reading(c, now);
        let (w, b) = (r(Color::White), r(Color::Black));
        let mut u = self.msg(
            MsgKey::MirrorClockReading,
            &[
                ("white", &self.time(w.remaining)),
                ("black", &self.time(b.remaining)),
                (
                    "white_moves",
                    &self.count(PluralStem::CountMoves, u64::from(w.moves)),
                ),
                (
                    "black_moves",
                    &self.count(PluralStem::CountMoves, u64::from(b.moves)),
                ),
            ],
        );
        for reading in [&w, &b] {
            let used = self.msg(
                MsgKey::ClockTimeUsed,
                &[
                    ("side", &self.side(reading.color)),
                    ("time", &plain(hms(reading.used))),
                ],
            );
            crate::query::append(&mut u, &used);
        }
        u
    }

    /// "Move N, SIDE to move. White h:mm:ss, Black h:mm:ss." (with the
    /// result first once the game is over).
    pub fn state_line(&self, m: &Mirror) -> Utterance {
        let (mover, number) = m.move_under_way();
        let t = |c: Color| self.time(m.clock().remaining(c, m.now()));
        let mut text = self.msg(
            MsgKey::JournalState,
            &[
                ("number", &self.num(number)),
                ("side", &self.side(mover)),
                ("white", &t(Color::White)),
                ("black", &t(Color::Black)),
            ],
        );
        if let Some(r) = m.result() {
            let r = self.vocab.describe_result(&r);
            text.display = format!("{} {}", r.display, text.display);
            text.spoken = format!("{} {}", r.spoken, text.spoken);
        }
        if let Stage::Adjourned { sealed, .. } = m.stage() {
            let e = self.envelope(sealed);
            text.display = format!("{} {}", text.display, e.display);
            text.spoken = format!("{} {}", text.spoken, e.spoken);
        }
        text
    }

    /// The last move on the boards, as "N. SAN", for messages.
    pub fn last_move(&self, m: &Mirror) -> Utterance {
        let moves = m.game().moves();
        match moves.split_last() {
            None => self.msg(MsgKey::JournalNoMoves, &[]),
            Some((last, before)) => {
                let (color, number) = m.ply_number(before.len());
                let dots = if color == Color::White { "." } else { "..." };
                plain(format!("{number}{dots} {}", m.san(before, *last)))
            }
        }
    }

    /// What waits in the game now, for a player who comes back to it (a
    /// resumed journal) or asks (`status`): the result, a mismatch for the
    /// arbiter, a move to press or to execute, and a draw offer not yet
    /// answered; or nothing.
    pub fn waiting(&self, m: &Mirror) -> Option<Utterance> {
        if let Some(r) = m.result() {
            return Some(self.vocab.describe_result(&r));
        }
        if let Some(found) = m.mismatch() {
            return Some(self.event(&m.mismatch_event(found)));
        }
        if let Some(u) = self.quickplay_waiting(m) {
            return Some(u);
        }
        let first = match m.stage() {
            Stage::Pressed { .. } => m.await_execution().map(|e| self.error(&e)),
            Stage::Adjourned { sealed, .. } => return Some(self.envelope(sealed)),
            _ => None,
        };
        match (first, self.open_offer(m)) {
            (Some(mut a), Some(b)) => {
                a.display = format!("{} {}", a.display, b.display);
                a.spoken = format!("{} {}", a.spoken, b.spoken);
                Some(a)
            }
            (a, b) => a.or(b),
        }
    }

    /// A draw offer that waits for its answer (9.1.2): who offered, and
    /// how the opponent answers.
    pub fn open_offer(&self, m: &Mirror) -> Option<Utterance> {
        let side = m.draw_offer()?;
        if m.result().is_some() {
            return None;
        }
        Some(self.msg(
            MsgKey::MirrorDrawOfferOpen,
            &[
                ("side", &self.vocab.side(side)),
                ("opponent", &self.vocab.side(!side)),
                ("accept", &self.verb(Cmd::Accept)),
                ("decline", &self.verb(Cmd::Decline)),
            ],
        ))
    }
}

impl PgnNotes for Wording<'_> {
    fn record(&self, event: &GameEvent) -> String {
        match event {
            // The PGN gives the position by its FEN; the pieces in words
            // are for the ear.
            GameEvent::EnvelopeContents { names, fen } => {
                self.envelope_contents(names, fen, false).display
            }
            _ => self.event(event).display,
        }
    }

    fn corrected(&self) -> String {
        self.msg(MsgKey::MirrorPgnCorrected, &[]).display
    }
}
