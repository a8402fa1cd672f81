//! The small template language of locale messages, kept apart from the
//! locale data so that it can be read and tested on its own:
//!
//! - `{name}`: the value of the argument `name`.
//! - `{name:case}`: that value put in a grammatical case by the locale's
//!   `[cases.CASE]` table. A form of the table that is the whole value
//!   replaces it ("Białe" → "Białych"); otherwise every form that stands as
//!   whole words inside the value is replaced, the longest first, so a
//!   time of several units takes the case in each unit ("jedna godzina i
//!   jedna minuta" → "jedną godzinę i jedną minutę").
//! - `{name|one:…|few:…|other:…}`: a choice by the plural category (CLDR)
//!   of the number the value `name` carries. The chosen text is filled
//!   like the message, so it may hold placeholders itself
//!   (`{seconds|one:jedna sekunda|other:{seconds} sekund}`). A verb that
//!   agrees with a count, or the noun after a bare number, is written this
//!   way. `other` is needed and taken for a category without a text.
//!
//! An argument that is not given leaves its placeholder as it is written,
//! so a gap is seen and never fatal.

use std::collections::BTreeMap;

use crate::plural::PluralCategory;

/// The grammatical cases of a locale: for each case (`gen`, `acc`), the
/// form of words in that case by their plain form.
pub type Cases = BTreeMap<String, BTreeMap<String, String>>;

/// What a template needs from its locale beyond the arguments.
pub trait Grammar {
    /// The locale's case tables.
    fn cases(&self) -> &Cases;
    /// The plural category of the number that `value` carries (digits, a
    /// number word, a counted phrase of the locale).
    fn category_of(&self, value: &str) -> PluralCategory;
}

/// No cases, and every value counts as `other`: for templates that are not
/// a locale's messages.
pub struct NoGrammar;

impl Grammar for NoGrammar {
    fn cases(&self) -> &Cases {
        static EMPTY: Cases = BTreeMap::new();
        &EMPTY
    }
    fn category_of(&self, _value: &str) -> PluralCategory {
        PluralCategory::Other
    }
}

/// One `{…}` of a template.
#[derive(Debug, PartialEq, Eq)]
pub enum Placeholder<'t> {
    /// `{name}` or `{name:case}`.
    Value {
        /// The argument.
        name: &'t str,
        /// The case, when one is named.
        case: Option<&'t str>,
    },
    /// `{name|category:text|…}`.
    Select {
        /// The argument whose number chooses.
        name: &'t str,
        /// The texts by category key (`one`, `few`, `other`), as written.
        branches: Vec<(&'t str, &'t str)>,
    },
}

impl<'t> Placeholder<'t> {
    /// The argument the placeholder reads.
    pub fn name(&self) -> &'t str {
        match self {
            Placeholder::Value { name, .. } | Placeholder::Select { name, .. } => name,
        }
    }

    fn parse(inner: &'t str) -> Placeholder<'t> {
        let parts = split_top(inner, '|');
        if parts.len() > 1 {
            let branches = parts[1..]
                .iter()
                .map(|b| b.split_once(':').unwrap_or((b, "")))
                .collect();
            return Placeholder::Select {
                name: parts[0],
                branches,
            };
        }
        match inner.split_once(':') {
            Some((name, case)) => Placeholder::Value {
                name,
                case: Some(case),
            },
            None => Placeholder::Value {
                name: inner,
                case: None,
            },
        }
    }
}

/// The pieces of a template: text, or a placeholder with the text it was
/// written as.
enum Piece<'t> {
    Text(&'t str),
    Slot(&'t str, Placeholder<'t>),
}

/// The index of the `}` that closes the `{` before `s` (nested braces
/// counted), if any.
fn closing(s: &str) -> Option<usize> {
    let mut depth = 0usize;
    for (i, c) in s.char_indices() {
        match c {
            '{' => depth += 1,
            '}' if depth == 0 => return Some(i),
            '}' => depth -= 1,
            _ => {}
        }
    }
    None
}

/// `s` split at `sep` outside nested braces.
fn split_top(s: &str, sep: char) -> Vec<&str> {
    let mut parts = Vec::new();
    let mut depth = 0usize;
    let mut start = 0;
    for (i, c) in s.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth = depth.saturating_sub(1),
            c if c == sep && depth == 0 => {
                parts.push(&s[start..i]);
                start = i + c.len_utf8();
            }
            _ => {}
        }
    }
    parts.push(&s[start..]);
    parts
}

fn pieces(template: &str) -> Vec<Piece<'_>> {
    let mut out = Vec::new();
    let mut rest = template;
    while let Some(start) = rest.find('{') {
        if start > 0 {
            out.push(Piece::Text(&rest[..start]));
        }
        let after = &rest[start + 1..];
        match closing(after) {
            Some(end) => {
                let inner = &after[..end];
                out.push(Piece::Slot(
                    &rest[start..start + end + 2],
                    Placeholder::parse(inner),
                ));
                rest = &after[end + 1..];
            }
            None => {
                out.push(Piece::Text(&rest[start..]));
                rest = "";
            }
        }
    }
    if !rest.is_empty() {
        out.push(Piece::Text(rest));
    }
    out
}

/// How many choices may sit one inside another's text. A deeper one (only a
/// hostile locale file writes one) is not filled and is refused when the
/// file is loaded, so no template can exhaust the stack.
pub const MAX_DEPTH: usize = 4;

/// Every placeholder of `template`, those inside a choice's texts too (to
/// [`MAX_DEPTH`]).
pub fn placeholders(template: &str) -> Vec<Placeholder<'_>> {
    let mut out = Vec::new();
    collect(template, 0, &mut out);
    out
}

/// The placeholders of `template` at `depth`; whether some sit deeper than
/// [`MAX_DEPTH`].
fn collect<'t>(template: &'t str, depth: usize, out: &mut Vec<Placeholder<'t>>) -> bool {
    let mut too_deep = false;
    for piece in pieces(template) {
        if let Piece::Slot(_, p) = piece {
            if let Placeholder::Select { branches, .. } = &p {
                if depth >= MAX_DEPTH {
                    too_deep = true;
                } else {
                    for (_, text) in branches {
                        too_deep |= collect(text, depth + 1, out);
                    }
                }
            }
            out.push(p);
        }
    }
    too_deep
}

/// What is wrong with a choice in `template`: a category that is not a
/// CLDR one, or no `other`. `None` when every choice is well formed.
pub fn select_problem(template: &str) -> Option<String> {
    const KEYS: [&str; 6] = ["zero", "one", "two", "few", "many", "other"];
    let mut all = Vec::new();
    if collect(template, 0, &mut all) {
        return Some(format!("{{…|other:{}}}", "{…".repeat(MAX_DEPTH + 1)));
    }
    all.into_iter().find_map(|p| match p {
        Placeholder::Select { name, branches } => {
            if let Some((bad, _)) = branches.iter().find(|(k, _)| !KEYS.contains(k)) {
                Some(format!("{{{name}|{bad}:…}}"))
            } else if !branches.iter().any(|(k, _)| *k == "other") {
                Some(format!("{{{name}|…|other:…}}"))
            } else {
                None
            }
        }
        Placeholder::Value { .. } => None,
    })
}

/// `template` filled with `args` in the grammar `g`.
pub fn fill(template: &str, args: &[(&str, &str)], g: &dyn Grammar) -> String {
    fill_at(template, args, g, 0)
}

fn fill_at(template: &str, args: &[(&str, &str)], g: &dyn Grammar, depth: usize) -> String {
    let mut out = String::with_capacity(template.len() + 16);
    for piece in pieces(template) {
        match piece {
            Piece::Text(t) => out.push_str(t),
            Piece::Slot(written, p) => {
                let Some(value) = args.iter().find(|(k, _)| *k == p.name()).map(|(_, v)| *v) else {
                    out.push_str(written);
                    continue;
                };
                match p {
                    Placeholder::Value { case: None, .. } => out.push_str(value),
                    Placeholder::Value {
                        case: Some(case), ..
                    } => match g.cases().get(case) {
                        Some(forms) => out.push_str(&inflect(value, forms)),
                        None => out.push_str(value),
                    },
                    Placeholder::Select { .. } if depth >= MAX_DEPTH => out.push_str(written),
                    Placeholder::Select { branches, .. } => {
                        let category = g.category_of(value).key();
                        let text = branches
                            .iter()
                            .find(|(k, _)| *k == category)
                            .or_else(|| branches.iter().find(|(k, _)| *k == "other"))
                            .map_or("", |(_, t)| t);
                        out.push_str(&fill_at(text, args, g, depth + 1));
                    }
                }
            }
        }
    }
    out
}

fn is_word_char(c: char) -> bool {
    c.is_alphanumeric() || matches!(c, '\u{0591}'..='\u{05C7}' | '\u{064B}'..='\u{065F}')
}

/// `value` in the case of `forms`: the whole value's form, else each form
/// that stands as whole words in it, the longest first; a part that was
/// replaced is not looked at again. A form of digits only ("2" → "두")
/// replaces only a whole value.
pub fn inflect(value: &str, forms: &BTreeMap<String, String>) -> String {
    if let Some(whole) = forms.get(value) {
        return whole.clone();
    }
    // A number is replaced only when it is the whole value: "3" inside
    // "0.3" or "1:30" is not a number of its own.
    let mut keys: Vec<&String> = forms
        .keys()
        .filter(|k| !k.is_empty() && !k.chars().all(|c| c.is_ascii_digit()))
        .collect();
    keys.sort_by_key(|k| std::cmp::Reverse(k.len()));
    let mut out = String::with_capacity(value.len() + 8);
    let mut i = 0;
    let mut before: Option<char> = None;
    'scan: while i < value.len() {
        let rest = &value[i..];
        if !before.is_some_and(is_word_char) {
            for k in &keys {
                if let Some(after) = rest.strip_prefix(k.as_str())
                    && !after.chars().next().is_some_and(is_word_char)
                {
                    out.push_str(&forms[*k]);
                    before = k.chars().last();
                    i += k.len();
                    continue 'scan;
                }
            }
        }
        let Some(c) = rest.chars().next() else { break };
        out.push(c);
        before = Some(c);
        i += c.len_utf8();
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Pl(Cases);

    impl Grammar for Pl {
        fn cases(&self) -> &Cases {
            &self.0
        }
        fn category_of(&self, value: &str) -> PluralCategory {
            match value.split(' ').next().and_then(|n| n.parse::<u64>().ok()) {
                Some(n) => crate::plural::plural_category("pl", n),
                None if value.starts_with("jedn") => PluralCategory::One,
                None => PluralCategory::Other,
            }
        }
    }

    fn pl() -> Pl {
        let mut cases = Cases::new();
        let acc: BTreeMap<String, String> = [
            ("jedna minuta", "jedną minutę"),
            ("jedna godzina", "jedną godzinę"),
        ]
        .into_iter()
        .map(|(a, b)| (a.to_owned(), b.to_owned()))
        .collect();
        let gen_: BTreeMap<String, String> = [
            ("Białe", "Białych"),
            ("minuty", "minut"),
            ("jedna minuta", "jednej minuty"),
        ]
        .into_iter()
        .map(|(a, b)| (a.to_owned(), b.to_owned()))
        .collect();
        cases.insert("acc".into(), acc);
        cases.insert("gen".into(), gen_);
        Pl(cases)
    }

    #[test]
    fn values_and_unknown_placeholders() {
        let g = NoGrammar;
        assert_eq!(fill("a {x} b {y} c {", &[("x", "1")], &g), "a 1 b {y} c {");
        assert_eq!(fill("{x:gen}", &[("x", "Białe")], &g), "Białe");
        assert_eq!(fill("}{}{x}", &[("x", "1")], &g), "}{}1");
    }

    #[test]
    fn a_case_replaces_the_whole_value_or_whole_words_inside_it() {
        let g = pl();
        let f = |t: &str, v: &str| fill(t, &[("t", v)], &g);
        assert_eq!(f("Reklamacja {t:gen}", "Białe"), "Reklamacja Białych");
        assert_eq!(
            f("otrzymują {t:acc}", "jedna godzina i jedna minuta"),
            "otrzymują jedną godzinę i jedną minutę"
        );
        assert_eq!(f("odjąć {t:gen}", "2 minuty"), "odjąć 2 minut");
        // Only whole words: "minutyx" is not "minuty".
        assert_eq!(f("{t:gen}", "2 minutyx"), "2 minutyx");
        // The longest form first, and a replaced part is not read again.
        assert_eq!(f("{t:gen}", "jedna minuta"), "jednej minuty");
        // Digits are replaced only as the whole value, never inside a
        // decimal or a time.
        let native = Pl(Cases::from([(
            "native".to_owned(),
            BTreeMap::from([("3".to_owned(), "세 ".to_owned())]),
        )]));
        let n = |v: &str| fill("{t:native}개", &[("t", v)], &native);
        assert_eq!(n("3"), "세 개");
        assert_eq!(n("0.3"), "0.3개");
        assert_eq!(n("3 3"), "3 3개");
        // An unknown case leaves the value as it is.
        assert_eq!(f("{t:dat}", "Białe"), "Białe");
    }

    #[test]
    fn a_choice_follows_the_plural_category_of_the_value() {
        let g = pl();
        let t = "{t|one:Została|few:Zostały|other:Zostało} {t}.";
        let f = |v: &str| fill(t, &[("t", v)], &g);
        assert_eq!(f("jedna minuta"), "Została jedna minuta.");
        assert_eq!(f("2 minuty"), "Zostały 2 minuty.");
        assert_eq!(f("22 minuty"), "Zostały 22 minuty.");
        assert_eq!(f("5 minut"), "Zostało 5 minut.");
        // many has no text: other is taken.
        assert_eq!(f("12 minut"), "Zostało 12 minut.");
    }

    #[test]
    fn a_choice_may_hold_placeholders_and_cases() {
        let g = pl();
        let t = "{n|one:jedną sekundę|few:{n} sekundy|other:{n} sekund} ({who:gen})";
        let f = |n: &str| fill(t, &[("n", n), ("who", "Białe")], &g);
        assert_eq!(f("1"), "jedną sekundę (Białych)");
        assert_eq!(f("3"), "3 sekundy (Białych)");
        assert_eq!(f("25"), "25 sekund (Białych)");
        // Without the argument, the whole choice stays as written.
        assert_eq!(fill(t, &[], &g), t);
    }

    #[test]
    fn placeholders_are_found_inside_choices() {
        let names: Vec<&str> = placeholders("{a} {b|one:x {c:gen}|other:{b}}")
            .iter()
            .map(Placeholder::name)
            .collect();
        assert_eq!(names, ["a", "c", "b", "b"]);
    }

    #[test]
    fn a_choice_needs_other_and_known_categories() {
        assert_eq!(select_problem("{n|one:a|other:b}"), None);
        assert_eq!(select_problem("plain {n}"), None);
        assert_eq!(
            select_problem("{n|one:a|few:b}").as_deref(),
            Some("{n|…|other:…}")
        );
        assert_eq!(
            select_problem("{n|single:a|other:b}").as_deref(),
            Some("{n|single:…}")
        );
        assert!(select_problem("x {m|one:{n|one:a}|other:b}").is_some());
    }

    #[test]
    fn choices_nested_without_end_neither_crash_nor_pass_the_check() {
        // A hostile locale file: a million bytes of choices in choices.
        let depth = 100_000;
        let hostile = format!("{}x{}", "{n|other:".repeat(depth), "}".repeat(depth));
        assert!(select_problem(&hostile).is_some());
        let filled = fill(&hostile, &[("n", "1")], &NoGrammar);
        assert!(filled.len() <= hostile.len(), "{}", filled.len());
        // MAX_DEPTH choices one in another are filled all the way; one more
        // is refused.
        let nested = |d: usize| format!("{}x{}", "{n|other:".repeat(d), "}".repeat(d));
        assert_eq!(select_problem(&nested(MAX_DEPTH)), None);
        assert_eq!(fill(&nested(MAX_DEPTH), &[("n", "1")], &NoGrammar), "x");
        assert!(select_problem(&nested(MAX_DEPTH + 1)).is_some());
    }
}
