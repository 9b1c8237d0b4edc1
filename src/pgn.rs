//! PGN as ghast writes it, for `ghast match` and the web board: tags,
//! and movetext with a `{score/depth time}` comment per engine move in
//! lines of at most [`LINE_WIDTH`] characters.

use crate::search::Score;

/// Longest movetext line.
const LINE_WIDTH: usize = 79;

/// Appends the tag pair `[key "value"]`, with `\` and `"` escaped.
pub fn tag(out: &mut String, key: &str, value: &str) {
    let value = value.replace('\\', "\\\\").replace('"', "\\\"");
    out.push_str(&format!("[{key} \"{value}\"]\n"));
}

/// The comment of a move the engine chose: score (`?` if none), depth and
/// seconds spent.
pub fn engine_comment(score: Option<Score>, depth: u32, seconds: f64) -> String {
    let score = match score {
        Some(Score::Cp(c)) => format!("{:+.2}", c as f64 / 100.0),
        Some(Score::Mate(k)) if k > 0 => format!("+M{k}"),
        Some(Score::Mate(k)) => format!("-M{}", -k),
        None => "?".into(),
    };
    format!("{{{score}/{depth} {seconds:.3}s}}")
}

/// One move of the movetext.
pub struct MoveText<'a> {
    pub notation: &'a str,
    /// Whether the first player (White, Alabaster) made it.
    pub by_white: bool,
    pub comment: Option<String>,
}

/// Numbered movetext from move number `first_number`, ending in `result`.
pub fn movetext<'a>(
    moves: impl IntoIterator<Item = MoveText<'a>>,
    first_number: u32,
    result: &str,
) -> String {
    let mut number = first_number;
    let mut out = String::new();
    let mut line = String::new();
    for (i, m) in moves.into_iter().enumerate() {
        let mut token = String::new();
        if m.by_white {
            token.push_str(&format!("{number}. "));
        } else if i == 0 {
            token.push_str(&format!("{number}... "));
        }
        token.push_str(m.notation);
        if let Some(c) = &m.comment {
            token.push(' ');
            token.push_str(c);
        }
        if !m.by_white {
            number += 1;
        }
        if line.len() + token.len() > LINE_WIDTH {
            out.push_str(line.trim_end());
            out.push('\n');
            line.clear();
        }
        line.push_str(&token);
        line.push(' ');
    }
    line.push_str(result);
    out.push_str(&line);
    out
}

/// Today's date as PGN writes it (`YYYY.MM.DD`, UTC).
pub fn today() -> String {
    // Civil date from the Unix day count (no calendar crate needed).
    let days = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs() / 86_400)
        .unwrap_or(0) as i64;
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + (m <= 2) as i64;
    format!("{y:04}.{m:02}.{d:02}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn movetext_numbers_comments_and_wraps() {
        let moves = (0..30).map(|i| MoveText {
            notation: "e2e4",
            by_white: i % 2 == 1,
            comment: (i == 1).then(|| engine_comment(Some(Score::Mate(-2)), 7, 0.25)),
        });
        let text = movetext(moves, 3, "*");
        assert!(
            text.starts_with("3... e2e4 4. e2e4 {-M2/7 0.250s} e2e4 5. "),
            "{text}"
        );
        assert!(text.lines().all(|l| l.len() <= LINE_WIDTH), "{text}");
        assert!(text.ends_with(" *"), "{text}");
    }

    #[test]
    fn tags_are_escaped() {
        let mut s = String::new();
        tag(&mut s, "Event", "a \"b\" \\c");
        assert_eq!(s, "[Event \"a \\\"b\\\" \\\\c\"]\n");
        assert_eq!(today().len(), 10);
    }
}
