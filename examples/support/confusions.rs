//! Word confusions counted from the real model's hearings, and the word
//! costs learned from them (`locales/CODE.costs.toml`, read by
//! `annabella::voice::nearmiss::WordCosts`). Shared by the accuracy
//! examples (`voice_accuracy --learn`, `voice_holdout --learn`); each uses
//! a part.

#![allow(dead_code)]

use std::collections::BTreeMap;

use annabella::voice::decide::Hearing;
use annabella::voice::grammar::{Grammar, model_form};
use shakmaty::Move;

/// Word confusions counted from the real model's hearings: each heard
/// alternative (weighted 1/(rank+1), normalized) aligned with the said
/// phrase by a unit-cost edit distance.
#[derive(Default)]
pub struct Confusions {
    pub utterances: f64,
    said: BTreeMap<String, f64>,
    sub: BTreeMap<(String, String), f64>,
    del: BTreeMap<String, f64>,
    ins: BTreeMap<String, f64>,
    split: BTreeMap<(String, String, String), f64>,
}

enum Op {
    Same,
    Sub(usize, usize),
    /// A said word heard as two words (the second is `j + 1`).
    Split(usize, usize),
    Del(usize),
    Ins(usize),
}

/// Unit-cost alignment (in halves: a substitution, insertion or
/// deletion costs 2, a word heard as two words that are both not it
/// costs 3, cheaper than a substitution and an insertion).
fn align(s: &[&str], h: &[&str]) -> Vec<Op> {
    let (n, m) = (s.len(), h.len());
    let mut d = vec![vec![0usize; m + 1]; n + 1];
    for (i, row) in d.iter_mut().enumerate() {
        row[0] = 2 * i;
    }
    for (j, cell) in d[0].iter_mut().enumerate() {
        *cell = 2 * j;
    }
    let sub = |i: usize, j: usize| 2 * usize::from(s[i] != h[j]);
    let split_ok = |i: usize, j: usize| j >= 2 && s[i - 1] != h[j - 2] && s[i - 1] != h[j - 1];
    for i in 1..=n {
        for j in 1..=m {
            let mut best = (d[i - 1][j - 1] + sub(i - 1, j - 1))
                .min(d[i - 1][j] + 2)
                .min(d[i][j - 1] + 2);
            if split_ok(i, j) {
                best = best.min(d[i - 1][j - 2] + 3);
            }
            d[i][j] = best;
        }
    }
    let (mut i, mut j) = (n, m);
    let mut ops = Vec::new();
    while i > 0 || j > 0 {
        if i > 0 && j > 0 && d[i][j] == d[i - 1][j - 1] + sub(i - 1, j - 1) {
            ops.push(if s[i - 1] == h[j - 1] {
                Op::Same
            } else {
                Op::Sub(i - 1, j - 1)
            });
            i -= 1;
            j -= 1;
        } else if i > 0 && split_ok(i, j) && d[i][j] == d[i - 1][j - 2] + 3 {
            ops.push(Op::Split(i - 1, j - 2));
            i -= 1;
            j -= 2;
        } else if i > 0 && d[i][j] == d[i - 1][j] + 2 {
            ops.push(Op::Del(i - 1));
            i -= 1;
        } else {
            ops.push(Op::Ins(j - 1));
            j -= 1;
        }
    }
    ops
}

impl Confusions {
    /// Counts one utterance of the move `mv` (said as `spoken`) in the
    /// position of `g`.
    pub fn add(&mut self, g: &Grammar, spoken: &str, mv: Move, h: &Hearing) {
        let said = model_form(spoken);
        let phrase = if g.moves.iter().any(|(p, m)| *p == said && *m == mv) {
            said
        } else {
            match g.moves.iter().find(|(_, m)| *m == mv) {
                Some((p, _)) => p.clone(),
                None => return,
            }
        };
        self.add_phrase(&phrase, h);
    }

    /// Counts one utterance of the words `phrase` (in the model's
    /// spellings).
    pub fn add_phrase(&mut self, phrase: &str, h: &Hearing) {
        let s: Vec<&str> = phrase.split(' ').collect();
        let alts: Vec<Vec<String>> = h
            .alternatives
            .iter()
            .map(|a| a.text.split_whitespace().map(str::to_lowercase).collect())
            .collect();
        let total: f64 = (0..alts.len()).map(|i| 1.0 / (i as f64 + 1.0)).sum();
        if total == 0.0 {
            return;
        }
        self.utterances += 1.0;
        for (i, alt) in alts.iter().enumerate() {
            let w = 1.0 / (i as f64 + 1.0) / total;
            let hw: Vec<&str> = alt.iter().map(String::as_str).collect();
            for word in &s {
                *self.said.entry((*word).to_owned()).or_default() += w;
            }
            for op in align(&s, &hw) {
                match op {
                    Op::Same => {}
                    Op::Sub(a, b) => {
                        *self
                            .sub
                            .entry((s[a].to_owned(), hw[b].to_owned()))
                            .or_default() += w;
                    }
                    Op::Split(a, b) => {
                        *self
                            .split
                            .entry((s[a].to_owned(), hw[b].to_owned(), hw[b + 1].to_owned()))
                            .or_default() += w;
                    }
                    Op::Del(a) => *self.del.entry(s[a].to_owned()).or_default() += w,
                    Op::Ins(b) => *self.ins.entry(hw[b].to_owned()).or_default() += w,
                }
            }
        }
    }

    /// The raw weighted counts, for tuning the cost formula.
    pub fn to_json(&self) -> String {
        let pairs: Vec<(String, String, f64)> = self
            .sub
            .iter()
            .map(|((a, b), n)| (a.clone(), b.clone(), *n))
            .collect();
        serde_json::json!({
            "utterances": self.utterances,
            "said": self.said,
            "sub": pairs,
            "del": self.del,
            "ins": self.ins,
        })
        .to_string()
    }

    /// A confusion seen with probability p costs -ln(p)/3, from 0.1
    /// to 1; only confusions seen at least twice (by weight 1.5) and
    /// cheaper than 0.95 are written.
    pub fn to_toml(&self) -> String {
        let cost = |p: f64| (-p.ln() / 3.0).clamp(0.1, 1.0);
        let mut out = String::from(
            "# Per-word costs of near-miss recovery (src/voice/nearmiss.rs), learned by\n\
             #   cargo run --release --example voice_accuracy -- --learn locales/ko.costs.toml\n\
             # from espeak-ng Korean through the Korean Vosk model (training positions and\n\
             # voices disjoint from the benchmark's). A confusion heard with probability p\n\
             # costs -ln(p)/3 (0.1 to 1); anything not listed costs the default. A word\n\
             # heard as itself costs -ln(p)/3 of hearing it right (`keep`, 0 if unlisted).\n\n\
             default_substitute = 1.0\ndefault_insert = 1.0\ndefault_delete = 1.0\n\n",
        );
        let fmt = |c: f64| format!("{c:.2}");
        out.push_str("substitute = [\n");
        for ((s, h), n) in &self.sub {
            let total = self.said.get(s).copied().unwrap_or(0.0);
            if *n < 1.5 || total == 0.0 {
                continue;
            }
            let c = cost(n / total);
            if c < 0.95 {
                out.push_str(&format!(
                    "  {{ said = \"{s}\", heard = \"{h}\", cost = {} }},\n",
                    fmt(c)
                ));
            }
        }
        out.push_str("]\n\nkeep = [\n");
        for (s, total) in &self.said {
            let wrong: f64 = self
                .sub
                .iter()
                .filter(|((a, _), _)| a == s)
                .map(|(_, n)| n)
                .sum::<f64>()
                + self.del.get(s).copied().unwrap_or(0.0)
                + self
                    .split
                    .iter()
                    .filter(|((a, _, _), _)| a == s)
                    .map(|(_, n)| n)
                    .sum::<f64>();
            let p = ((total - wrong) / total).max(1e-3);
            let c = -p.ln() / 3.0;
            if *total >= 1.5 && c >= 0.01 {
                out.push_str(&format!(
                    "  {{ said = \"{s}\", cost = {} }},\n",
                    fmt(c.min(1.0))
                ));
            }
        }
        out.push_str("]\n\ndelete = [\n");
        for (s, n) in &self.del {
            let total = self.said.get(s).copied().unwrap_or(0.0);
            if *n < 1.5 || total == 0.0 {
                continue;
            }
            let c = cost(n / total);
            if c < 0.95 {
                out.push_str(&format!("  {{ said = \"{s}\", cost = {} }},\n", fmt(c)));
            }
        }
        out.push_str("]\n\nsplit = [\n");
        for ((s, a, b), n) in &self.split {
            let total = self.said.get(s).copied().unwrap_or(0.0);
            if *n < 1.5 || total == 0.0 {
                continue;
            }
            let c = cost(n / total);
            if c < 0.95 {
                out.push_str(&format!(
                    "  {{ said = \"{s}\", first = \"{a}\", second = \"{b}\", cost = {} }},\n",
                    fmt(c)
                ));
            }
        }
        out.push_str("]\n\ninsert = [\n");
        for (h, n) in &self.ins {
            if *n < 1.5 || self.utterances == 0.0 {
                continue;
            }
            let c = cost(n / self.utterances);
            if c < 0.95 {
                out.push_str(&format!("  {{ heard = \"{h}\", cost = {} }},\n", fmt(c)));
            }
        }
        out.push_str("]\n");
        out
    }
}

/// Smoothed confusion probabilities as costs in nats: what
/// [`Confusions::to_toml_nats`] writes.
pub struct NatCosts {
    /// Add-alpha smoothing over the words the model can hear.
    pub alpha: f64,
    /// Confusions seen less than this (in weight) are not listed (they
    /// cost the default).
    pub min_weight: f64,
    /// Splits (one word heard as two) seen less than this are not listed.
    pub min_split_weight: f64,
}

impl Default for NatCosts {
    fn default() -> NatCosts {
        NatCosts {
            alpha: 0.5,
            min_weight: 0.2,
            min_split_weight: 0.5,
        }
    }
}

impl Confusions {
    /// Every word said or heard.
    fn vocabulary(&self) -> usize {
        let mut words: std::collections::BTreeSet<&str> =
            self.said.keys().map(String::as_str).collect();
        for (a, b) in self.sub.keys() {
            words.insert(a);
            words.insert(b);
        }
        for h in self.ins.keys() {
            words.insert(h);
        }
        words.len().max(1)
    }

    /// The costs as a costs file in nats: a said word `a` heard as `b`
    /// costs `-ln((n(a,b) + alpha) / (n(a) + alpha * (V + 2)))`, with `n`
    /// the weighted counts and `V` the words the model can hear (the two
    /// more: deletion and splits); heard as itself (`keep`), deleted and
    /// split likewise; a word heard where nothing was said costs
    /// `-ln((n(b) + alpha) / (U + alpha * V))` over `U` utterances. A
    /// confusion never seen costs the smoothing floor of the most-said
    /// word (the defaults), at most `MAX_COST`. `rules` (TOML lines) is
    /// written as the `[rules]` table.
    pub fn to_toml_nats(&self, p: &NatCosts, header: &str, rules: &str) -> String {
        let cap = |c: f64| c.clamp(0.0, f64::from(annabella::voice::nearmiss::MAX_COST));
        let v = self.vocabulary() as f64;
        let total = |a: &str| self.said.get(a).copied().unwrap_or(0.0) + p.alpha * (v + 2.0);
        let most = self.said.values().fold(0.0f64, |m, x| m.max(*x)) + p.alpha * (v + 2.0);
        let floor = cap(-(p.alpha / most).ln());
        let ins_total = self.utterances + p.alpha * v;
        let ins_floor = cap(-(p.alpha / ins_total.max(1.0)).ln());
        let fmt = |c: f64| format!("{:.2}", cap(c));
        let mut out = String::from(header);
        out.push_str(&format!(
            "default_substitute = {}\ndefault_insert = {}\ndefault_delete = {}\n\n",
            fmt(floor),
            fmt(ins_floor),
            fmt(floor)
        ));
        out.push_str("substitute = [\n");
        for ((s, h), n) in &self.sub {
            if *n < p.min_weight {
                continue;
            }
            let c = -((n + p.alpha) / total(s)).ln();
            if c < floor {
                out.push_str(&format!(
                    "  {{ said = \"{s}\", heard = \"{h}\", cost = {} }},\n",
                    fmt(c)
                ));
            }
        }
        out.push_str("]\n\nkeep = [\n");
        for (s, t) in &self.said {
            let wrong: f64 = self
                .sub
                .iter()
                .filter(|((a, _), _)| a == s)
                .map(|(_, n)| n)
                .sum::<f64>()
                + self.del.get(s).copied().unwrap_or(0.0)
                + self
                    .split
                    .iter()
                    .filter(|((a, _, _), _)| a == s)
                    .map(|(_, n)| n)
                    .sum::<f64>();
            let c = -(((t - wrong).max(0.0) + p.alpha) / total(s)).ln();
            out.push_str(&format!("  {{ said = \"{s}\", cost = {} }},\n", fmt(c)));
        }
        out.push_str("]\n\ndelete = [\n");
        for s in self.said.keys() {
            let n = self.del.get(s).copied().unwrap_or(0.0);
            let c = -((n + p.alpha) / total(s)).ln();
            if c < floor {
                out.push_str(&format!("  {{ said = \"{s}\", cost = {} }},\n", fmt(c)));
            }
        }
        out.push_str("]\n\nsplit = [\n");
        for ((s, a, b), n) in &self.split {
            if *n < p.min_split_weight {
                continue;
            }
            let c = -((n + p.alpha) / total(s)).ln();
            if c < floor {
                out.push_str(&format!(
                    "  {{ said = \"{s}\", first = \"{a}\", second = \"{b}\", cost = {} }},\n",
                    fmt(c)
                ));
            }
        }
        out.push_str("]\n\ninsert = [\n");
        for (h, n) in &self.ins {
            if *n < p.min_weight {
                continue;
            }
            let c = -((n + p.alpha) / ins_total.max(1.0)).ln();
            if c < ins_floor {
                out.push_str(&format!("  {{ heard = \"{h}\", cost = {} }},\n", fmt(c)));
            }
        }
        out.push_str("]\n");
        if !rules.is_empty() {
            out.push_str("\n[rules]\n");
            out.push_str(rules);
        }
        out
    }
}
