//! The evaluation-parameters file format, shared by every evaluator.
//!
//! Each evaluator keeps all its weights in one struct (`EvalParams` in
//! `variants::*::eval`) whose values live in a text file under `tuning/`
//! (documented in `tuning/README.md`):
//!
//! ```text
//! # a comment: from '#' to the end of the line, anywhere
//! name = value                 # a single integer
//! name = mg eg                 # a midgame/endgame pair
//! name = v1 v2 v3 ...          # a table
//! ```
//!
//! - One parameter per line; blank lines and comments are ignored.
//! - Values are decimal integers within ±[`PARAM_LIMIT`].
//! - Every parameter appears exactly once: a missing, unknown or repeated
//!   name is an error, as is a wrong number of values, so a file cannot
//!   silently mean something else after the evaluator changes.
//! - Errors name the line and the problem; parsing never panics.
//! - [`to_text`] writes the canonical form (grouped under a comment per
//!   section) and `parse(&to_text(p)) == Ok(p)`.
//! - The tuner sees the *flat* view: every scalar weight in file order,
//!   named `name` (one value), `name.mg` / `name.eg` (a pair) or `name[i]`
//!   (a table); [`with_flat`] clamps to what [`parse`] accepts.
//!
//! Design: an evaluator describes its parameters once, by implementing
//! [`ParamSet::visit`]: it walks its fields in file order and hands each
//! one to a [`Visitor`] with its name, its section comment and a mutable
//! view of its values. Parsing, printing and the flat view are written once
//! here, generic over [`ParamSet`], on top of that single walk; the
//! `param_set_methods!` macro gives each `EvalParams` the inherent methods
//! (`parse`, `to_text`, `flat_names`, `to_flat`, `with_flat`) the rest of
//! the crate calls.

use std::collections::HashMap;

/// Parameter values must lie within ±this, which keeps every sum in range.
pub const PARAM_LIMIT: i32 = 30_000;

/// A set of evaluation weights stored in a params file.
///
/// `Default` is only the starting point of [`parse`], which overwrites every
/// value (for the built-in weights see each evaluator's `default_params`).
pub trait ParamSet: Clone + Default {
    /// The comment lines that open [`to_text`] (each ending in `\n`).
    const HEADER: &'static str;
    /// Names are padded to this width in [`to_text`].
    const NAME_WIDTH: usize;

    /// Hands every parameter to `v`, in file order. This is the one
    /// description of the file's contents; everything else is built on it.
    fn visit(&mut self, v: &mut Visitor<'_>);
}

/// The values of one parameter: a single integer or a fixed-size table.
pub trait Values {
    fn values_mut(&mut self) -> &mut [i32];
}

impl Values for i32 {
    fn values_mut(&mut self) -> &mut [i32] {
        std::slice::from_mut(self)
    }
}

impl<const N: usize> Values for [i32; N] {
    fn values_mut(&mut self) -> &mut [i32] {
        self
    }
}

/// A line of a table whose rows differ in length (a triangle).
impl Values for [i32] {
    fn values_mut(&mut self) -> &mut [i32] {
        self
    }
}

/// One parameter as the visitor hands it out.
struct Entry<'a> {
    section: &'static str,
    name: String,
    values: &'a mut [i32],
    /// A divisor or total: a single value that must be at least 1.
    positive: bool,
}

/// Receives the parameters of a [`ParamSet`] in file order. The methods
/// chain: `v.section("...").param("a", &mut self.a).param("b", &mut self.b)`.
pub struct Visitor<'f> {
    section: &'static str,
    f: &'f mut dyn FnMut(Entry<'_>),
}

impl Visitor<'_> {
    /// Starts a group: the parameters that follow are printed under this
    /// comment.
    pub fn section(&mut self, comment: &'static str) -> &mut Self {
        self.section = comment;
        self
    }

    /// A parameter with one value (`i32`) or a fixed number of values (a
    /// pair `[i32; 2]` is `midgame endgame`).
    pub fn param(&mut self, name: &str, v: &mut (impl Values + ?Sized)) -> &mut Self {
        self.entry(name.to_string(), v.values_mut(), false)
    }

    /// A single value that must be positive (a divisor or a total): `parse`
    /// rejects anything below 1 and `with_flat` clamps to at least 1.
    pub fn positive(&mut self, name: &str, v: &mut i32) -> &mut Self {
        self.entry(name.to_string(), std::slice::from_mut(v), true)
    }

    /// One parameter per kind, named `base.kind`.
    pub fn per_kind<T: Values, const N: usize>(
        &mut self,
        base: &str,
        kinds: &[&str; N],
        arr: &mut [T; N],
    ) -> &mut Self {
        for (kind, v) in kinds.iter().zip(arr.iter_mut()) {
            self.entry(format!("{base}.{kind}"), v.values_mut(), false);
        }
        self
    }

    fn entry(&mut self, name: String, values: &mut [i32], positive: bool) -> &mut Self {
        (self.f)(Entry {
            section: self.section,
            name,
            values,
            positive,
        });
        self
    }
}

/// Calls `f` with every parameter of `p`, in file order.
fn each<P: ParamSet>(p: &mut P, mut f: impl FnMut(Entry<'_>)) {
    p.visit(&mut Visitor {
        section: "",
        f: &mut f,
    });
}

/// Parses the params format. Every parameter must be given exactly once;
/// errors name the line and the problem. Never panics.
pub fn parse<P: ParamSet>(text: &str) -> Result<P, String> {
    let mut p = P::default();
    // Name and number of values of every parameter, in file order.
    let mut layout: Vec<(String, usize)> = Vec::new();
    each(&mut p, |e| layout.push((e.name, e.values.len())));
    let index: HashMap<&str, usize> = layout
        .iter()
        .enumerate()
        .map(|(i, (name, _))| (name.as_str(), i))
        .collect();
    // Per parameter: the line it was given on and its values.
    let mut given: Vec<Option<(usize, Vec<i32>)>> = vec![None; layout.len()];
    for (i, raw) in text.lines().enumerate() {
        let line_no = i + 1;
        let line = raw.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let Some((name, rest)) = line.split_once('=') else {
            return Err(format!(
                "line {line_no}: expected 'name = value ...', found '{line}'"
            ));
        };
        let name = name.trim();
        if name.is_empty() {
            return Err(format!("line {line_no}: no parameter name before '='"));
        }
        let Some(&k) = index.get(name) else {
            return Err(format!("line {line_no}: unknown parameter '{name}'"));
        };
        let want = layout[k].1;
        let mut values = Vec::with_capacity(want);
        for tok in rest.split_whitespace() {
            let v: i32 = tok.parse().map_err(|_| {
                format!("line {line_no}: value '{tok}' of '{name}' is not an integer")
            })?;
            if v.abs() > PARAM_LIMIT {
                return Err(format!(
                    "line {line_no}: value {v} of '{name}' is outside -{PARAM_LIMIT}..={PARAM_LIMIT}"
                ));
            }
            values.push(v);
        }
        if values.len() != want {
            let what = match want {
                1 => "1 value".to_string(),
                2 => "2 values (midgame endgame)".to_string(),
                n => format!("{n} values"),
            };
            return Err(format!(
                "line {line_no}: '{name}' needs {what}, found {}",
                values.len()
            ));
        }
        if let Some((first, _)) = &given[k] {
            return Err(format!(
                "line {line_no}: '{name}' given twice (first on line {first})"
            ));
        }
        given[k] = Some((line_no, values));
    }
    let missing: Vec<&str> = layout
        .iter()
        .zip(&given)
        .filter(|(_, g)| g.is_none())
        .map(|((name, _), _)| name.as_str())
        .collect();
    if !missing.is_empty() {
        let shown: Vec<&str> = missing.iter().take(5).copied().collect();
        let more = if missing.len() > 5 {
            format!(" and {} more", missing.len() - 5)
        } else {
            String::new()
        };
        return Err(format!(
            "missing parameter{} {}{more} (every parameter must be given)",
            if missing.len() > 1 { "s" } else { "" },
            shown.join(", ")
        ));
    }
    // Every entry is given now; store the values, checking the positive
    // ones (the first failure in file order is reported).
    let mut error = None;
    let mut given = given.into_iter().flatten();
    each(&mut p, |e| {
        let Some((line_no, values)) = given.next() else {
            return;
        };
        e.values.copy_from_slice(&values);
        if e.positive && values[0] <= 0 && error.is_none() {
            error = Some(format!("line {line_no}: '{}' must be positive", e.name));
        }
    });
    match error {
        Some(e) => Err(e),
        None => Ok(p),
    }
}

/// The canonical text: [`ParamSet::HEADER`], then one parameter per line,
/// grouped under a comment per section. `parse(&to_text(p)) == Ok(p)`.
pub fn to_text<P: ParamSet>(p: &P) -> String {
    let mut out = String::from(P::HEADER);
    let mut section = "";
    each(&mut p.clone(), |e| {
        if e.section != section {
            section = e.section;
            out.push_str(&format!("\n# {section}\n"));
        }
        let vals: Vec<String> = e.values.iter().map(|v| v.to_string()).collect();
        out.push_str(&format!(
            "{:<width$} = {}\n",
            e.name,
            vals.join(" "),
            width = P::NAME_WIDTH
        ));
    });
    out
}

/// The tuner's view: every scalar weight in file order, named `name` (one
/// value), `name.mg`/`name.eg` (a pair) or `name[i]` (a table).
pub fn flat_names<P: ParamSet>(p: &P) -> Vec<String> {
    let mut out = Vec::new();
    each(&mut p.clone(), |e| match e.values.len() {
        1 => out.push(e.name),
        2 => {
            out.push(format!("{}.mg", e.name));
            out.push(format!("{}.eg", e.name));
        }
        n => out.extend((0..n).map(|i| format!("{}[{i}]", e.name))),
    });
    out
}

/// Every scalar weight in the order of [`flat_names`].
pub fn to_flat<P: ParamSet>(p: &P) -> Vec<i32> {
    let mut out = Vec::new();
    each(&mut p.clone(), |e| out.extend_from_slice(e.values));
    out
}

/// A copy of `p` with the weights of `flat` (as [`to_flat`]), clamped to
/// what [`parse`] accepts. Panics if `flat` has the wrong length.
pub fn with_flat<P: ParamSet>(p: &P, flat: &[i32]) -> P {
    let mut q = p.clone();
    let mut i = 0;
    each(&mut q, |e| {
        for v in e.values.iter_mut() {
            let x = flat[i].clamp(-PARAM_LIMIT, PARAM_LIMIT);
            *v = if e.positive { x.max(1) } else { x };
            i += 1;
        }
    });
    assert_eq!(i, flat.len(), "flat parameter count");
    q
}

/// Gives a [`ParamSet`] type the inherent methods `parse`, `to_text`,
/// `flat_names`, `to_flat` and `with_flat`, forwarding to this module, so
/// callers need no trait import.
macro_rules! param_set_methods {
    ($t:ty) => {
        impl $t {
            /// Parses the params format (`tuning/README.md`,
            /// [`crate::params_file`]). Every parameter must be given exactly
            /// once; errors name the line and the problem. Never panics.
            pub fn parse(text: &str) -> Result<Self, String> {
                $crate::params_file::parse(text)
            }

            /// The canonical params text; `parse(&p.to_text()) == Ok(p)`.
            pub fn to_text(&self) -> String {
                $crate::params_file::to_text(self)
            }

            /// The tuner's view: every scalar weight in file order, named
            /// `name` (one value), `name.mg`/`name.eg` (a pair) or `name[i]`.
            pub fn flat_names(&self) -> Vec<String> {
                $crate::params_file::flat_names(self)
            }

            /// Every scalar weight in the order of `flat_names`.
            pub fn to_flat(&self) -> Vec<i32> {
                $crate::params_file::to_flat(self)
            }

            /// A copy with the weights of `flat` (as `to_flat`), clamped to
            /// what `parse` accepts.
            pub fn with_flat(&self, flat: &[i32]) -> Self {
                $crate::params_file::with_flat(self, flat)
            }
        }
    };
}
pub(crate) use param_set_methods;

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Clone, Debug, Default, PartialEq, Eq)]
    struct Toy {
        piece: [[i32; 2]; 2],
        table: [i32; 3],
        div: i32,
        tempo: i32,
    }

    impl ParamSet for Toy {
        const HEADER: &'static str = "# toy\n";
        const NAME_WIDTH: usize = 8;
        fn visit(&mut self, v: &mut Visitor<'_>) {
            v.section("Pieces.")
                .per_kind("piece", &["a", "b"], &mut self.piece)
                .param("table", &mut self.table);
            v.section("Other.")
                .positive("div", &mut self.div)
                .param("tempo", &mut self.tempo);
        }
    }

    const TEXT: &str = "# toy\n\n# Pieces.\npiece.a  = 1 2\npiece.b  = 3 4\ntable    = 5 6 7\n\n# Other.\ndiv      = 8\ntempo    = -9\n";

    #[test]
    fn text_round_trips_and_flattens() {
        let p: Toy = parse(TEXT).unwrap();
        assert_eq!(to_text(&p), TEXT);
        assert_eq!(
            flat_names(&p),
            [
                "piece.a.mg",
                "piece.a.eg",
                "piece.b.mg",
                "piece.b.eg",
                "table[0]",
                "table[1]",
                "table[2]",
                "div",
                "tempo"
            ]
        );
        assert_eq!(to_flat(&p), [1, 2, 3, 4, 5, 6, 7, 8, -9]);
        let q = with_flat(&p, &[0, 0, 0, 0, 0, 0, 99_999, -5, -99_999]);
        assert_eq!(
            to_flat(&q),
            [0, 0, 0, 0, 0, 0, PARAM_LIMIT, 1, -PARAM_LIMIT]
        );
    }

    #[test]
    fn errors_name_the_line() {
        let err = |text: &str| parse::<Toy>(text).unwrap_err();
        assert_eq!(
            err(&TEXT.replace("div      = 8", "div = 0")),
            "line 9: 'div' must be positive"
        );
        assert_eq!(
            err(&TEXT.replace("= 5 6 7", "= 5 6")),
            "line 6: 'table' needs 3 values, found 2"
        );
        assert_eq!(
            err(&format!("{TEXT}tempo = 1\n")),
            "line 11: 'tempo' given twice (first on line 10)"
        );
        assert_eq!(
            err("tempo = 1"),
            "missing parameters piece.a, piece.b, table, div (every parameter must be given)"
        );
    }
}
