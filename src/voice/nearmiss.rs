//! Near misses (pure core): what was heard, scored word by word against
//! the phrases of every legal move and voice command of the position.
//!
//! Vosk compiles a grammar into a small language model, not a strict
//! phrase list, so its best guesses are often one word off the phrase that
//! was said ("룩 델타 삼" heard as "룩 사 삼"). [`rank`] scores each heard
//! alternative (the n-best, best first) against every phrase of the
//! [`Grammar`] with a weighted edit distance over words: substituting,
//! inserting and deleting a word cost what the locale's [`WordCosts`] say
//! (learned from the recognizer's confusions, `locales/CODE.costs.toml`),
//! 1 by default. [`near_misses`] keeps the few moves close enough to ask
//! about, best first; it never makes a move (only a question: the player
//! answers with the number, yes or no).

use std::collections::HashMap;

use shakmaty::Move;

use crate::locale::{LocaleError, LocaleProblem};

use super::grammar::Grammar;
use super::heard::Hearing;
use crate::commands::Cmd;

/// Per-word costs of the edit distance between a phrase and a hearing, for
/// one locale (in the recognizer's spellings, lower-case).
#[derive(Debug, Clone, PartialEq)]
pub struct WordCosts {
    /// Said word → heard word → cost.
    substitute: HashMap<String, HashMap<String, f32>>,
    /// Heard word (not said) → cost.
    insert: HashMap<String, f32>,
    /// Said word (not heard) → cost.
    delete: HashMap<String, f32>,
    /// Said word heard as itself → cost (0 unless listed: a word the
    /// recognizer often mishears is weaker evidence when it is heard).
    keep: HashMap<String, f32>,
    /// Said word → two heard words it was heard as (joined by a space) →
    /// cost: the recognizer splits a long word into two short ones
    /// ("호텔" heard as "에코 퀸"). Unlisted splits cost a substitution and
    /// an insertion.
    split: HashMap<String, HashMap<String, HashMap<String, f32>>>,
    /// Cost of a substitution the table does not list.
    pub default_substitute: f32,
    /// Cost of an insertion the table does not list.
    pub default_insert: f32,
    /// Cost of a deletion the table does not list.
    pub default_delete: f32,
    /// The locale's decision thresholds in these costs' units (the
    /// `[rules]` table; [`NearMissRules::default`] without one).
    pub rules: NearMissRules,
}

impl Default for WordCosts {
    fn default() -> WordCosts {
        WordCosts {
            substitute: HashMap::new(),
            insert: HashMap::new(),
            delete: HashMap::new(),
            keep: HashMap::new(),
            split: HashMap::new(),
            default_substitute: 1.0,
            default_insert: 1.0,
            default_delete: 1.0,
            rules: NearMissRules::default(),
        }
    }
}

/// The highest cost a costs file may give (a finite number from 0).
pub const MAX_COST: f32 = 10.0;

/// Costs files of the built-in locales (a locale without one has the
/// uniform costs of [`WordCosts::default`]).
const BUILTIN: &[(&str, &str)] = &[("ko", include_str!("../../locales/ko.costs.toml"))];

const TOP_KEYS: &[&str] = &[
    "default_substitute",
    "default_insert",
    "default_delete",
    "substitute",
    "insert",
    "delete",
    "keep",
    "split",
    "rules",
];

/// The keys of the `[rules]` table (the fields of [`NearMissRules`]).
const RULE_KEYS: &[&str] = &[
    "max_cost",
    "per_word",
    "spread",
    "max_candidates",
    "rank_penalty",
    "confusable",
    "min_heard_words",
    "command_margin",
];

/// The largest threshold a `[rules]` table may give.
pub const MAX_RULE: f32 = 100.0;

impl WordCosts {
    /// The costs of a built-in locale (uniform if it has none).
    pub fn builtin(code: &str) -> WordCosts {
        BUILTIN
            .iter()
            .find(|(c, _)| *c == code)
            .and_then(|(c, text)| {
                WordCosts::from_toml(&format!("locales/{c}.costs.toml"), text).ok()
            })
            .unwrap_or_default()
    }

    /// Reads a costs file: `default_substitute`, `default_insert`,
    /// `default_delete` (numbers), and the lists `substitute` (tables with
    /// `said`, `heard`, `cost`), `insert` (`heard`, `cost`) and `delete`
    /// (`said`, `cost`), `keep` (`said`, `cost`: a word heard as itself),
    /// `split` (`said`, `first`, `second`, `cost`: one word heard as two),
    /// and the table `rules` (the thresholds of [`NearMissRules`] in these
    /// costs' units: numbers from 0 to [`MAX_RULE`]; `max_candidates` and
    /// `min_heard_words` whole numbers from 1 to 10).
    /// Every cost is a number from 0 to [`MAX_COST`].
    /// Size and errors as for locale files: the file, the dotted key and
    /// what is allowed there.
    ///
    /// # Errors
    ///
    /// The first problem found.
    pub fn from_toml(file: &str, text: &str) -> Result<WordCosts, LocaleError> {
        let bad = |key: String, problem: LocaleProblem| LocaleError::Invalid {
            file: file.to_owned(),
            key,
            problem,
        };
        if text.len() as u64 > crate::locale::MAX_LOCALE_BYTES {
            return Err(bad(String::new(), LocaleProblem::TooLarge));
        }
        let table: toml::Table = text.parse().map_err(|e: toml::de::Error| {
            let at = e.span().map_or(0, |s| s.start).min(text.len());
            let before = text.get(..at).unwrap_or("");
            LocaleError::Syntax {
                file: file.to_owned(),
                line: before.matches('\n').count() + 1,
                column: before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1,
            }
        })?;
        let cost = |key: String, v: &toml::Value| -> Result<f32, LocaleError> {
            let x = match v {
                toml::Value::Float(f) => *f,
                toml::Value::Integer(i) => *i as f64,
                _ => return Err(bad(key, LocaleProblem::BadCost)),
            };
            if x.is_finite() && (0.0..=f64::from(MAX_COST)).contains(&x) {
                Ok(x as f32)
            } else {
                Err(bad(key, LocaleProblem::BadCost))
            }
        };
        let word = |key: String, v: Option<&toml::Value>| -> Result<String, LocaleError> {
            match v {
                None => Err(bad(key, LocaleProblem::Missing)),
                Some(toml::Value::String(s)) => {
                    let w = super::grammar::model_form(s);
                    if w.is_empty() {
                        Err(bad(key, LocaleProblem::EmptySpelling))
                    } else {
                        Ok(w)
                    }
                }
                Some(_) => Err(bad(key, LocaleProblem::ExpectedText)),
            }
        };
        let mut out = WordCosts::default();
        for (key, value) in &table {
            match key.as_str() {
                "rules" => {
                    let toml::Value::Table(t) = value else {
                        return Err(bad(key.clone(), LocaleProblem::ExpectedTable));
                    };
                    out.rules = read_rules(t, &bad)?;
                }
                "default_substitute" => out.default_substitute = cost(key.clone(), value)?,
                "default_insert" => out.default_insert = cost(key.clone(), value)?,
                "default_delete" => out.default_delete = cost(key.clone(), value)?,
                "substitute" | "insert" | "delete" | "keep" | "split" => {
                    let toml::Value::Array(list) = value else {
                        return Err(bad(key.clone(), LocaleProblem::ExpectedList));
                    };
                    let allowed: &[&str] = match key.as_str() {
                        "substitute" => &["said", "heard", "cost"],
                        "split" => &["said", "first", "second", "cost"],
                        "insert" => &["heard", "cost"],
                        _ => &["said", "cost"],
                    };
                    for (i, entry) in list.iter().enumerate() {
                        let at = format!("{key}[{i}]");
                        let toml::Value::Table(t) = entry else {
                            return Err(bad(at, LocaleProblem::ExpectedTable));
                        };
                        if let Some(k) = t.keys().find(|k| !allowed.contains(&k.as_str())) {
                            return Err(bad(
                                format!("{at}.{k}"),
                                LocaleProblem::UnknownKey {
                                    allowed: allowed.join(", "),
                                },
                            ));
                        }
                        let c = match t.get("cost") {
                            Some(v) => cost(format!("{at}.cost"), v)?,
                            None => return Err(bad(format!("{at}.cost"), LocaleProblem::Missing)),
                        };
                        match key.as_str() {
                            "substitute" => {
                                let said = word(format!("{at}.said"), t.get("said"))?;
                                let heard = word(format!("{at}.heard"), t.get("heard"))?;
                                out.substitute.entry(said).or_default().insert(heard, c);
                            }
                            "split" => {
                                let said = word(format!("{at}.said"), t.get("said"))?;
                                let first = word(format!("{at}.first"), t.get("first"))?;
                                let second = word(format!("{at}.second"), t.get("second"))?;
                                out.split
                                    .entry(said)
                                    .or_default()
                                    .entry(first)
                                    .or_default()
                                    .insert(second, c);
                            }
                            "insert" => {
                                let heard = word(format!("{at}.heard"), t.get("heard"))?;
                                out.insert.insert(heard, c);
                            }
                            "keep" => {
                                let said = word(format!("{at}.said"), t.get("said"))?;
                                out.keep.insert(said, c);
                            }
                            _ => {
                                let said = word(format!("{at}.said"), t.get("said"))?;
                                out.delete.insert(said, c);
                            }
                        }
                    }
                }
                other => {
                    return Err(bad(
                        other.to_owned(),
                        LocaleProblem::UnknownKey {
                            allowed: TOP_KEYS.join(", "),
                        },
                    ));
                }
            }
        }
        Ok(out)
    }

    /// The cost of the words `heard` as the phrase `said` (both split into
    /// words): [`WordCosts::distance`] on phrases.
    pub fn phrase_distance(&self, said: &str, heard: &str) -> f32 {
        let s: Vec<&str> = said.split_whitespace().collect();
        let h: Vec<&str> = heard.split_whitespace().collect();
        self.distance(&s, &h)
    }

    /// Cost of hearing `heard` where `said` was said (for the same word,
    /// its `keep` cost, 0 unless listed).
    pub fn substitute(&self, said: &str, heard: &str) -> f32 {
        if said == heard {
            return self.keep.get(said).copied().unwrap_or(0.0);
        }
        self.substitute
            .get(said)
            .and_then(|m| m.get(heard))
            .copied()
            .unwrap_or(self.default_substitute)
    }

    /// Cost of hearing `heard` where nothing was said.
    pub fn insert(&self, heard: &str) -> f32 {
        self.insert
            .get(heard)
            .copied()
            .unwrap_or(self.default_insert)
    }

    /// Cost of hearing the two words `first second` where `said` was said
    /// (a listed split; otherwise a substitution and an insertion).
    pub fn split(&self, said: &str, first: &str, second: &str) -> f32 {
        let unlisted = (self.substitute(said, first) + self.insert(second))
            .min(self.insert(first) + self.substitute(said, second));
        self.split
            .get(said)
            .and_then(|m| m.get(first))
            .and_then(|m| m.get(second))
            .map_or(unlisted, |&c| c.min(unlisted))
    }

    /// Cost of hearing nothing where `said` was said.
    pub fn delete(&self, said: &str) -> f32 {
        self.delete
            .get(said)
            .copied()
            .unwrap_or(self.default_delete)
    }

    /// The weighted edit distance from the phrase `said` to the words
    /// `heard`: the cheapest way to turn one into the other with the
    /// per-word costs.
    pub fn distance(&self, said: &[&str], heard: &[&str]) -> f32 {
        // One row of the table at a time; phrases have a handful of words.
        let mut prev: Vec<f32> = Vec::with_capacity(heard.len() + 1);
        prev.push(0.0);
        for h in heard {
            let last = prev[prev.len() - 1];
            prev.push(last + self.insert(h));
        }
        let mut row = vec![0.0f32; heard.len() + 1];
        for s in said {
            row[0] = prev[0] + self.delete(s);
            for (j, h) in heard.iter().enumerate() {
                let sub = prev[j] + self.substitute(s, h);
                let del = prev[j + 1] + self.delete(s);
                let ins = row[j] + self.insert(h);
                let mut best = sub.min(del).min(ins);
                if j > 0 && self.split.contains_key(*s) {
                    best = best.min(prev[j - 1] + self.split(s, heard[j - 1], h));
                }
                row[j + 1] = best;
            }
            std::mem::swap(&mut prev, &mut row);
        }
        prev[heard.len()]
    }
}

/// Reads a `[rules]` table: every key optional, the rest as
/// [`NearMissRules::default`].
fn read_rules(
    t: &toml::Table,
    bad: &impl Fn(String, LocaleProblem) -> LocaleError,
) -> Result<NearMissRules, LocaleError> {
    let mut r = NearMissRules::default();
    for (k, v) in t {
        let key = format!("rules.{k}");
        let x = match v {
            toml::Value::Float(f) => *f,
            toml::Value::Integer(i) => *i as f64,
            _ => return Err(bad(key, LocaleProblem::BadCost)),
        };
        if !x.is_finite() || !(0.0..=f64::from(MAX_RULE)).contains(&x) {
            return Err(bad(key, LocaleProblem::BadCost));
        }
        let count = || -> Result<usize, LocaleError> {
            if x.fract() == 0.0 && (1.0..=10.0).contains(&x) {
                Ok(x as usize)
            } else {
                Err(bad(format!("rules.{k}"), LocaleProblem::BadCost))
            }
        };
        match k.as_str() {
            "max_cost" => r.max_cost = x as f32,
            "per_word" => r.per_word = x as f32,
            "spread" => r.spread = x as f32,
            "max_candidates" => r.max_candidates = count()?,
            "rank_penalty" => r.rank_penalty = x as f32,
            "confusable" => r.confusable = x as f32,
            "min_heard_words" => r.min_heard_words = count()?,
            "command_margin" => r.command_margin = x as f32,
            _ => {
                return Err(bad(
                    key,
                    LocaleProblem::UnknownKey {
                        allowed: RULE_KEYS.join(", "),
                    },
                ));
            }
        }
    }
    Ok(r)
}

/// What a phrase of the grammar means.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PhraseMeaning {
    /// A legal move.
    Move(Move),
    /// A voice command.
    Command(Cmd),
}

/// The phrases of a position split into words once (built from its
/// [`Grammar`]), to be scored against hearings.
#[derive(Debug, Clone)]
pub struct PhraseWords<'g> {
    phrases: Vec<(Vec<&'g str>, PhraseMeaning)>,
}

impl<'g> PhraseWords<'g> {
    /// Every move and command phrase of `grammar`, in its order.
    pub fn new(grammar: &'g Grammar) -> PhraseWords<'g> {
        let moves = grammar
            .moves
            .iter()
            .map(|(p, m)| (p.split(' ').collect(), PhraseMeaning::Move(*m)));
        let commands = grammar
            .commands
            .iter()
            .map(|(p, c)| (p.split(' ').collect(), PhraseMeaning::Command(*c)));
        PhraseWords {
            phrases: moves.chain(commands).collect(),
        }
    }

    /// How many phrases.
    pub fn len(&self) -> usize {
        self.phrases.len()
    }

    /// No phrases at all.
    pub fn is_empty(&self) -> bool {
        self.phrases.is_empty()
    }
}

/// One meaning with its best score over every phrase and alternative.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Scored {
    /// What it means.
    pub meaning: PhraseMeaning,
    /// The lowest cost of any of its phrases against any alternative
    /// (plus the alternative's rank penalty).
    pub cost: f32,
    /// How many words the phrase of that lowest cost has.
    pub words: usize,
}

/// Every meaning scored against every alternative of `hearing` (an
/// alternative of rank `i` adds `i * rank_penalty`), best first; equal
/// costs keep the grammar's order (deterministic).
pub fn rank(
    costs: &WordCosts,
    phrases: &PhraseWords<'_>,
    hearing: &Hearing,
    rank_penalty: f32,
) -> Vec<Scored> {
    let heard: Vec<Vec<String>> = hearing
        .alternatives
        .iter()
        .map(|a| {
            a.text
                .split_whitespace()
                .map(str::to_lowercase)
                .collect::<Vec<_>>()
        })
        .collect();
    let mut best: Vec<Scored> = Vec::new();
    for (words, meaning) in &phrases.phrases {
        let mut cost = f32::INFINITY;
        for (i, h) in heard.iter().enumerate() {
            if h.is_empty() {
                continue;
            }
            let h: Vec<&str> = h.iter().map(String::as_str).collect();
            let c = costs.distance(words, &h) + i as f32 * rank_penalty;
            cost = cost.min(c);
        }
        if !cost.is_finite() {
            continue;
        }
        match best.iter_mut().find(|s| s.meaning == *meaning) {
            Some(s) => {
                if cost < s.cost {
                    s.cost = cost;
                    s.words = words.len();
                }
            }
            None => best.push(Scored {
                meaning: *meaning,
                cost,
                words: words.len(),
            }),
        }
    }
    // Stable: ties keep the grammar's order.
    best.sort_by(|a, b| a.cost.total_cmp(&b.cost));
    best
}

/// How close is close enough to ask.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct NearMissRules {
    /// The best candidate costs at most `max_cost + per_word * n` for a
    /// phrase of `n` words (1 = one word off with no learned confusion).
    pub max_cost: f32,
    /// See `max_cost`: longer phrases may be further off.
    pub per_word: f32,
    /// Further candidates cost at most this more than the best.
    pub spread: f32,
    /// At most this many candidates (and if more than this many tie with
    /// the best, the hearing is too unclear to ask about).
    pub max_candidates: usize,
    /// Added per rank of the alternative a phrase matched.
    pub rank_penalty: f32,
    /// A move heard exactly is still asked about when another legal move's
    /// phrase is less than this further from what was heard than the
    /// move's own phrase (only learned confusions cost less than 1).
    pub confusable: f32,
    /// Alternatives of fewer words are not asked about (noise is often
    /// heard as one word, which is near many moves).
    pub min_heard_words: usize,
    /// A command or number heard exactly is acted on only when every
    /// phrase of another meaning (a move, another command or number) is at
    /// least this much further from what was heard than its own phrase;
    /// otherwise it is "not understood" (0: always acted on). Single words
    /// are easily heard for one another.
    pub command_margin: f32,
}

impl NearMissRules {
    /// The largest cost asked about for a phrase of `words` words.
    pub fn allowance(&self, words: usize) -> f32 {
        self.max_cost + self.per_word * words as f32
    }
}

impl Default for NearMissRules {
    fn default() -> NearMissRules {
        NearMissRules {
            max_cost: 1.0,
            per_word: 0.7,
            spread: 0.5,
            max_candidates: 3,
            rank_penalty: 0.1,
            confusable: 0.95,
            min_heard_words: 2,
            command_margin: 0.0,
        }
    }
}

/// The moves close enough to `hearing` to ask about, best first, at most
/// `rules.max_candidates`; empty when nothing is close, when only
/// alternatives shorter than `rules.min_heard_words` were heard, when a voice
/// command is at least as close as the best move, or when more moves than
/// can be named tie with the best.
pub fn near_misses(
    costs: &WordCosts,
    phrases: &PhraseWords<'_>,
    hearing: &Hearing,
    rules: &NearMissRules,
) -> Vec<Move> {
    // Short alternatives are left out, keeping each one's rank.
    let long_enough = Hearing {
        alternatives: hearing
            .alternatives
            .iter()
            .map(|a| {
                if a.text.split_whitespace().count() >= rules.min_heard_words {
                    a.clone()
                } else {
                    super::heard::Alternative::default()
                }
            })
            .collect(),
    };
    let scored = rank(costs, phrases, &long_enough, rules.rank_penalty);
    let Some(first) = scored.first() else {
        return Vec::new();
    };
    let best = first.cost;
    if best > rules.allowance(first.words) {
        return Vec::new();
    }
    // A command heard (in any alternative, short ones too) as near as the
    // best move: not a move to ask about.
    let command = rank(costs, phrases, hearing, rules.rank_penalty)
        .into_iter()
        .find(|s| matches!(s.meaning, PhraseMeaning::Command(_)))
        .map_or(f32::INFINITY, |s| s.cost);
    if command <= best + 1e-4 {
        return Vec::new();
    }
    let tied = scored.iter().filter(|s| s.cost <= best + 1e-4).count();
    if tied > rules.max_candidates.max(1) {
        return Vec::new();
    }
    let mut out = Vec::new();
    for s in &scored {
        if s.cost > best + rules.spread {
            break;
        }
        if s.cost > rules.allowance(s.words) {
            continue;
        }
        match s.meaning {
            // A command as close as the best: not a move to ask about.
            PhraseMeaning::Command(_) if s.cost <= best + 1e-4 => return Vec::new(),
            PhraseMeaning::Command(_) => {}
            PhraseMeaning::Move(m) => {
                if out.len() < rules.max_candidates.max(1) {
                    out.push(m);
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests;
