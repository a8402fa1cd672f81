//! Everything needed to turn speech into decisions in one locale: the
//! loaded model, the locale's words in the model's spellings, and the
//! decision settings.

use std::time::{Duration, Instant};

use shakmaty::{CastlingMode, Chess};

use crate::vocab::Vocabulary;

use super::commands::SpokenCommandWords;
use super::decide::{Decision, DecisionSettings, Hearing, decide_with};
use super::grammar::{Grammar, MissingWord, Spellings};
use super::nearmiss::WordCosts;
use super::recognizer::VoskModel;
use super::voicing::{self, VoicingSettings};

/// A model and a locale, ready to listen.
#[derive(Debug)]
pub struct Listener {
    /// The loaded model.
    pub model: VoskModel,
    /// The active locale.
    pub vocab: Vocabulary,
    /// Its command words.
    pub commands: SpokenCommandWords,
    /// Its words as the model spells them.
    pub spellings: Spellings,
    /// How cautious decisions are.
    pub settings: DecisionSettings,
    /// The locale's word costs for near misses (`locales/CODE.costs.toml`).
    pub costs: WordCosts,
    /// How much voiced speech an utterance needs to be decided at all
    /// (noise is heard as words; see [`voicing`]).
    pub voicing: VoicingSettings,
}

/// The result of one utterance, with timings.
#[derive(Debug, Clone)]
pub struct Heard {
    /// What to do.
    pub decision: Decision,
    /// What the recognizer said.
    pub hearing: Hearing,
    /// Vosk's result JSON (for fixtures and logs).
    pub json: String,
    /// Time to build the grammar.
    pub grammar_time: Duration,
    /// Time from the last sample to the decision (the final results and
    /// the decision; for a decision prepared during the silence that ends
    /// an utterance, the time it took then).
    pub finish_time: Duration,
    /// Live listening: the time from the end of speech (hands-free: the
    /// end of the last loud frame; push-to-talk: the key release) to the
    /// decision, on the capture clock of the audio.
    pub since_speech_end: Option<Duration>,
    /// The WAV file this was heard in ([`VoiceSource::Files`](super::live::VoiceSource::Files)).
    pub file: Option<std::path::PathBuf>,
}

/// The voicing check's settings: the default, or off when env
/// `ANNABELLA_VOICING=off` (a diagnostic switch, for comparing with the
/// behaviour before the check).
fn voicing_from_env() -> VoicingSettings {
    if crate::environment::get().voicing_off {
        VoicingSettings::off()
    } else {
        VoicingSettings::default()
    }
}

impl Listener {
    /// Checks the locale's words against the model (start-up word check).
    pub fn new(mut model: VoskModel, vocab: Vocabulary, settings: DecisionSettings) -> Listener {
        let commands = SpokenCommandWords::from_vocab(&vocab);
        let spellings = Spellings::choose(&vocab, &commands, &mut model);
        let costs = WordCosts::builtin(&vocab.locale().code);
        Listener {
            model,
            vocab,
            commands,
            spellings,
            settings,
            costs,
            voicing: voicing_from_env(),
        }
    }

    /// Words of the locale the model does not know.
    pub fn missing_words(&self) -> &[MissingWord] {
        &self.spellings.missing
    }

    /// True if the model knows too few of the locale's words to be of any
    /// use (probably a model for another language).
    pub fn wrong_language(&self) -> bool {
        // Files, ranks and pieces: 22 words; without most of them no move
        // can be said.
        let core = self
            .spellings
            .missing
            .iter()
            .filter(|m| {
                m.key.starts_with("files.")
                    || m.key.starts_with("ranks.")
                    || m.key.starts_with("pieces.")
            })
            .count();
        core > 11
    }

    /// The grammar of a position.
    pub fn grammar(&self, pos: &Chess, mode: CastlingMode) -> Grammar {
        Grammar::build(&self.vocab, &self.spellings, pos, mode)
    }

    /// Recognizes one whole utterance (16 kHz mono) and decides. An
    /// utterance without enough voiced speech ([`Listener::voicing`]) is
    /// "nothing heard", whatever the recognizer made of it.
    pub fn hear(&self, pos: &Chess, mode: CastlingMode, samples: &[i16]) -> Option<Heard> {
        let voiced = voicing::has_voice(samples, self.voicing);
        let t = Instant::now();
        let grammar = self.grammar(pos, mode);
        let grammar_time = t.elapsed();
        let mut u = self.model.recognizer(&grammar)?;
        for chunk in samples.chunks(1600) {
            u.feed(chunk);
        }
        let t = Instant::now();
        // The word-loop check is waited for only when a move would be
        // taken (see `Decoding::finish_deciding`).
        let (decision, hearing, json) =
            u.finish_deciding(|h| self.decide_voiced(voiced, pos, mode, &grammar, h));
        Some(Heard {
            decision,
            hearing,
            json,
            grammar_time,
            finish_time: t.elapsed(),
            since_speech_end: None,
            file: None,
        })
    }

    /// Decides on a result of an utterance that did (`voiced`) or did not
    /// hold enough voiced speech: without, it is "nothing heard".
    pub fn decide_voiced(
        &self,
        voiced: bool,
        pos: &Chess,
        mode: CastlingMode,
        grammar: &Grammar,
        hearing: &Hearing,
    ) -> Decision {
        if voiced {
            self.decide(pos, mode, grammar, hearing)
        } else {
            Decision::NotUnderstood {
                heard: String::new(),
            }
        }
    }

    /// Decides on a result.
    pub fn decide(
        &self,
        pos: &Chess,
        mode: CastlingMode,
        grammar: &Grammar,
        hearing: &Hearing,
    ) -> Decision {
        decide_with(
            &self.vocab,
            &self.commands,
            pos,
            mode,
            Some(grammar),
            hearing,
            &self.settings,
            &self.costs,
        )
    }
}
