//! From what the recognizer heard to what annabella does (pure core).
//!
//! Vosk's final result (with alternatives, best first) is mapped through
//! [`Vocabulary::parse`] to legal moves and through the command words to
//! commands. The rule is conservative: annabella **never plays a move the
//! player did not say**. Only when the best alternative names exactly one
//! legal move, and every rival alternative (one scored close to the best)
//! names no other move, is the move taken — and even then it is announced
//! back before the clock is pressed (FIDE Appendix D.2.8). Disagreement
//! among the alternatives, low word confidence or the always-confirm setting
//! make annabella ask. What names no move exactly is scored against the
//! phrases of every legal move and command ([`super::nearmiss`]): a close
//! match becomes a question naming at most three moves, best first, which
//! the player answers with the number, yes (the first) or no. Anything else
//! is "not understood", naming what was heard.

use serde::{Deserialize, Serialize};
use shakmaty::{CastlingMode, Chess, Move};

use crate::vocab::{ParseError, Vocabulary};

pub use super::heard::{Alternative, HeardWord, Hearing};

use super::commands::{ChoiceNumbers, SpokenCommandWords};
use super::grammar::{Grammar, model_form};
use super::nearmiss::{NearMissRules, PhraseMeaning, PhraseWords, Scored, WordCosts, near_misses};
use crate::commands::Cmd;

/// How cautious the decision is.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct DecisionSettings {
    /// Ask before every move, even a clear one.
    pub always_confirm: bool,
    /// A word confidence below this (where the model gives word
    /// confidences) makes annabella ask instead of taking the move.
    pub min_word_confidence: f32,
    /// Alternatives scored within this of the best are rivals: if a rival
    /// names another move, annabella asks.
    pub rival_gap: f32,
    /// At most this many candidates are read out when asking.
    pub max_candidates: usize,
    /// Ask about near misses (words close to a legal move's phrase).
    pub near_miss: bool,
}

impl Default for DecisionSettings {
    fn default() -> DecisionSettings {
        DecisionSettings {
            always_confirm: false,
            min_word_confidence: 0.7,
            rival_gap: 20.0,
            max_candidates: 3,
            near_miss: true,
        }
    }
}

/// What to do with an utterance.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Decision {
    /// One clear legal move: announce it back, then play it.
    Move {
        /// The move.
        mv: Move,
        /// The transcript.
        heard: String,
    },
    /// Ask the player which move they meant (or to confirm the one
    /// candidate): nothing is played until they answer.
    Ask {
        /// The candidates, most likely first.
        candidates: Vec<Move>,
        /// The transcript.
        heard: String,
    },
    /// Nothing named a move exactly, but these moves are close to what
    /// was heard (best first, at most three): ask "did you mean 1: …, or
    /// 2: …?". Nothing is played until the player answers.
    DidYouMean {
        /// The candidates, closest first.
        candidates: Vec<Move>,
        /// The transcript.
        heard: String,
    },
    /// A number alone (a word of the locale or a digit): the answer to a
    /// numbered question.
    Number {
        /// 1, 2 or 3.
        number: usize,
        /// The transcript.
        heard: String,
    },
    /// A voice command.
    Command {
        /// Which.
        command: Cmd,
        /// The transcript.
        heard: String,
    },
    /// Nothing usable was heard.
    NotUnderstood {
        /// The transcript ("" for silence).
        heard: String,
    },
}

enum Meaning {
    Nothing,
    Command(Cmd),
    Moves(Vec<Move>),
}

fn meaning(
    vocab: &Vocabulary,
    commands: &SpokenCommandWords,
    pos: &Chess,
    mode: CastlingMode,
    text: &str,
) -> Meaning {
    if let Some(c) = commands.find(vocab, text) {
        return Meaning::Command(c);
    }
    match vocab.parse(pos, mode, text) {
        Ok(m) => Meaning::Moves(vec![m]),
        Err(ParseError::Ambiguous(ms)) => Meaning::Moves(ms),
        Err(_) => Meaning::Nothing,
    }
}

/// Decides what an utterance means in `pos`, with uniform word costs for
/// near misses (see [`decide_with`]).
pub fn decide(
    vocab: &Vocabulary,
    commands: &SpokenCommandWords,
    pos: &Chess,
    mode: CastlingMode,
    grammar: Option<&Grammar>,
    hearing: &Hearing,
    settings: &DecisionSettings,
) -> Decision {
    decide_with(
        vocab,
        commands,
        pos,
        mode,
        grammar,
        hearing,
        settings,
        &WordCosts::default(),
    )
}

/// Decides what an utterance means in `pos`; near misses are scored with
/// the locale's word `costs` against the phrases of `grammar`.
#[allow(clippy::too_many_arguments)]
pub fn decide_with(
    vocab: &Vocabulary,
    commands: &SpokenCommandWords,
    pos: &Chess,
    mode: CastlingMode,
    grammar: Option<&Grammar>,
    hearing: &Hearing,
    settings: &DecisionSettings,
    costs: &WordCosts,
) -> Decision {
    let exact = decide_exact(
        vocab, commands, pos, mode, grammar, hearing, settings, costs,
    );
    if let Decision::Move { mv, heard } = &exact
        && settings.near_miss
        && let Some(grammar) = grammar
    {
        let others = doubts(vocab, pos, mode, grammar, hearing, settings, costs, *mv);
        if !others.is_empty() {
            // Another move is as plausible: ask, the heard move first.
            let mut candidates = vec![*mv];
            candidates.extend(others);
            candidates.truncate(settings.max_candidates.clamp(1, 3));
            return Decision::Ask {
                candidates,
                heard: heard.clone(),
            };
        }
    }
    let Decision::NotUnderstood { heard } = exact else {
        return exact;
    };
    if heard.is_empty() || !settings.near_miss {
        return Decision::NotUnderstood { heard };
    }
    let Some(grammar) = grammar else {
        return Decision::NotUnderstood { heard };
    };
    let rules = NearMissRules {
        max_candidates: settings.max_candidates.clamp(1, 3),
        ..costs.rules
    };
    let candidates = near_misses(costs, &PhraseWords::new(grammar), hearing, &rules);
    if candidates.is_empty() {
        Decision::NotUnderstood { heard }
    } else {
        Decision::DidYouMean { candidates, heard }
    }
}

/// Other moves that make taking `mv` doubtful: a move whose phrase is
/// one of the locale's learned confusions away from the best transcript
/// (less than the locale's [`NearMissRules::confusable`] further than `mv`'s own
/// phrase: the recognizer is known to hear that move's words as these), and a move that a close rival
/// alternative (within `rival_gap` of the best, naming no move itself) is
/// at least as near to as it is to `mv`.
#[allow(clippy::too_many_arguments)]
fn doubts(
    vocab: &Vocabulary,
    pos: &Chess,
    mode: CastlingMode,
    grammar: &Grammar,
    hearing: &Hearing,
    settings: &DecisionSettings,
    costs: &WordCosts,
    mv: Move,
) -> Vec<Move> {
    let mut out: Vec<Move> = Vec::new();
    let Some(top) = hearing.alternatives.first() else {
        return out;
    };
    let rules = costs.rules;
    let phrases = PhraseWords::new(grammar);
    let best = Hearing {
        alternatives: vec![top.clone()],
    };
    let scored = super::nearmiss::rank(costs, &phrases, &best, 0.0);
    let own = scored
        .iter()
        .find(|s| s.meaning == PhraseMeaning::Move(mv))
        .map_or(0.0, |s| s.cost);
    for s in scored {
        if s.cost >= own + rules.confusable {
            break;
        }
        if let PhraseMeaning::Move(m) = s.meaning
            && m != mv
            && !out.contains(&m)
        {
            out.push(m);
        }
    }
    for alt in hearing.alternatives.iter().skip(1) {
        let close = match (top.confidence, alt.confidence) {
            (Some(t), Some(c)) => t - c <= settings.rival_gap,
            _ => true,
        };
        let text = alt.text.trim();
        if !close || text.is_empty() || vocab.parse(pos, mode, text).is_ok() {
            continue;
        }
        let single = Hearing {
            alternatives: vec![alt.clone()],
        };
        let scored = super::nearmiss::rank(costs, &phrases, &single, 0.0);
        let to_mv = scored
            .iter()
            .find(|s| s.meaning == PhraseMeaning::Move(mv))
            .map_or(f32::INFINITY, |s| s.cost);
        let other = scored.iter().find(|s| match s.meaning {
            PhraseMeaning::Move(m) => {
                m != mv && s.cost <= rules.allowance(s.words) && s.cost <= to_mv
            }
            PhraseMeaning::Command(_) => false,
        });
        if let Some(Scored {
            meaning: PhraseMeaning::Move(m),
            ..
        }) = other
            && !out.contains(m)
        {
            out.push(*m);
        }
    }
    out
}

/// What a command or number heard exactly means.
#[derive(Clone, Copy, PartialEq)]
enum Said {
    Command(Cmd),
    Number(usize),
}

/// How much further from `heard` the nearest phrase of `grammar` that
/// means something else (a move, another command or number) is than the
/// nearest phrase meaning `own`.
fn margin(costs: &WordCosts, grammar: &Grammar, heard: &str, own: Said) -> f32 {
    let mut mine = f32::INFINITY;
    let mut other = f32::INFINITY;
    let mut score = |phrase: &str, is_own: bool| {
        let c = costs.phrase_distance(phrase, heard);
        if is_own {
            mine = mine.min(c);
        } else {
            other = other.min(c);
        }
    };
    for (p, _) in &grammar.moves {
        score(p, false);
    }
    for (p, c) in &grammar.commands {
        score(p, own == Said::Command(*c));
    }
    for (p, n) in &grammar.numbers {
        score(p, own == Said::Number(*n));
    }
    other - mine
}

/// Is a command or number heard exactly clear enough to act on (the
/// locale's [`NearMissRules::command_margin`])?
fn clear_enough(costs: &WordCosts, grammar: Option<&Grammar>, heard: &str, own: Said) -> bool {
    let need = costs.rules.command_margin;
    match grammar {
        Some(g) if need > 0.0 => margin(costs, g, heard, own) >= need,
        _ => true,
    }
}

/// The decision on exact readings alone (no near misses).
#[allow(clippy::too_many_arguments)]
fn decide_exact(
    vocab: &Vocabulary,
    commands: &SpokenCommandWords,
    pos: &Chess,
    mode: CastlingMode,
    grammar: Option<&Grammar>,
    hearing: &Hearing,
    settings: &DecisionSettings,
    costs: &WordCosts,
) -> Decision {
    let heard = hearing.best_text().to_owned();
    let Some(top) = hearing.alternatives.first() else {
        return Decision::NotUnderstood { heard };
    };
    if heard.is_empty() {
        return Decision::NotUnderstood { heard };
    }
    if let Some(number) = ChoiceNumbers::from_vocab(vocab).find(vocab, &heard) {
        // A number picks a move: it is taken only when the word-loop
        // decoding heard the same word and was sure of it (a number word
        // is short, and the move grammar hears one in many an utterance).
        let sure = top
            .words
            .iter()
            .all(|w| w.conf.is_some_and(|c| c >= settings.min_word_confidence));
        if !sure || !clear_enough(costs, grammar, &heard, Said::Number(number)) {
            return Decision::NotUnderstood { heard };
        }
        return Decision::Number { number, heard };
    }
    let rivals: Vec<&Alternative> = hearing
        .alternatives
        .iter()
        .filter(|a| match (top.confidence, a.confidence) {
            (Some(t), Some(c)) => t - c <= settings.rival_gap,
            _ => true,
        })
        .collect();
    let meanings: Vec<Meaning> = rivals
        .iter()
        .map(|a| meaning(vocab, commands, pos, mode, a.text.trim()))
        .collect();
    match &meanings[0] {
        Meaning::Nothing => Decision::NotUnderstood { heard },
        Meaning::Command(c) => {
            // A rival that is another command or a move: do nothing.
            let agree = meanings[1..].iter().all(|m| match m {
                Meaning::Command(x) => x == c,
                Meaning::Nothing => true,
                Meaning::Moves(_) => false,
            });
            if agree && clear_enough(costs, grammar, &heard, Said::Command(*c)) {
                Decision::Command { command: *c, heard }
            } else {
                Decision::NotUnderstood { heard }
            }
        }
        Meaning::Moves(first) => {
            let mut candidates: Vec<Move> = Vec::new();
            for m in &meanings {
                if let Meaning::Moves(ms) = m {
                    for mv in ms {
                        if !candidates.contains(mv) {
                            candidates.push(*mv);
                        }
                    }
                }
            }
            candidates.truncate(settings.max_candidates.max(1));
            if candidates.len() > 1 || first.len() != 1 {
                return Decision::Ask { candidates, heard };
            }
            let low_confidence = top
                .words
                .iter()
                .filter_map(|w| w.conf)
                .any(|c| c < settings.min_word_confidence);
            // A transcript the grammar did not offer (Vosk's grammar is a
            // language model, so word sequences can be stitched together)
            // is a sign of doubt: ask.
            let offered = grammar.is_none_or(|g| {
                let said = model_form(&heard);
                g.moves.iter().any(|(p, m)| *p == said && *m == first[0])
            });
            if settings.always_confirm || low_confidence || !offered {
                Decision::Ask { candidates, heard }
            } else {
                Decision::Move {
                    mv: first[0],
                    heard,
                }
            }
        }
    }
}

#[cfg(test)]
mod tests;
