//! The XBoard/WinBoard protocol (CECP version 2) with H.G. Muller's
//! engine-defined variants, documented in `protocol.md`, section "CECP".
//!
//! Like the UCI loop, this is an adapter around an [`Engine`]: the protocol
//! thread keeps reading while the engine's search thread thinks. The game
//! record (start position and move list, who plays what) lives behind a
//! mutex. A search that ends on its own (or by `?`) records its move,
//! prints `move ...` and, when the game is over, the result, all under that
//! lock; the protocol thread plays the recorded move on the engine's board
//! before it handles the next command, so that command always sees the
//! move. Commands that change the game (`new`, `force`, `undo`,
//! `setboard`, ...) first cancel the search, which then plays nothing.

use super::xboard_variants::{XbVariant, fen_row, parse_square, square_range, xb_variant};
use crate::engine::options::{self, OptionKind, OptionSpec};
use crate::engine::{self, Applied, Engine, Info, Limits, Score, SearchReply, Session, Settings};
use crate::engine::{Color, Outcome, Termination};
use crate::registry::{self, DEFAULT_VARIANT};
use std::io::{BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

use super::uci::{ENGINE_NAME, Flow};

/// XBoard's convention for mate scores: 100000 + moves to mate.
const XB_MATE: i32 = 100_000;
/// Thinking time per move when no time control was given.
const DEFAULT_MOVE_MS: u64 = 1000;

/// Options CECP sets with commands of its own (`memory`, `cores`,
/// `variant`) or does not use (`Ponder`: XBoard says `hard`/`easy`).
const NOT_FEATURE_OPTIONS: [&str; 4] = ["UCI_Variant", "Hash", "Threads", "Ponder"];

/// The game record as both threads see it.
struct Game {
    /// Position the game started from (None: the variant's start).
    start: Option<String>,
    /// Moves played since, in ghast's notation.
    moves: Vec<String>,
    /// The colour ghast plays; None in force mode.
    engine: Option<Color>,
    /// A result was printed or received: no more thinking.
    over: bool,
    /// A move the search played and announced, not yet on the engine's
    /// board.
    pending: Option<String>,
}

/// The result line if the game in `session` is over.
fn result_line(session: &dyn Session) -> Option<String> {
    let outcome = session.outcome()?;
    Some(result_text(outcome, session.side_to_move()))
}

/// A `feature option` line for one row of the option table.
pub fn feature_option(spec: &OptionSpec) -> String {
    let body = match spec.kind {
        OptionKind::Spin { default, min, max } => format!("-spin {default} {min} {max}"),
        OptionKind::Check { default } => format!("-check {}", u8::from(default)),
        OptionKind::Combo { default, values } => {
            let vars: Vec<String> = values
                .iter()
                .map(|v| {
                    if *v == default {
                        format!("*{v}")
                    } else {
                        v.to_string()
                    }
                })
                .collect();
            format!("-combo {}", vars.join(" /// "))
        }
        OptionKind::Text { default } => format!("-string {default}"),
        OptionKind::Button => "-button".to_string(),
    };
    format!("feature option=\"{} {body}\"", spec.name)
}

/// `1-0 {White mates}` and the like.
pub fn result_text(outcome: Outcome, to_move: Color) -> String {
    let name = |c: Color| if c == Color::White { "White" } else { "Black" };
    match outcome {
        Outcome::Win(winner, Termination::Checkmate) => {
            let score = if winner == Color::White { "1-0" } else { "0-1" };
            format!("{score} {{{} mates}}", name(winner))
        }
        Outcome::Win(winner, why) => {
            let score = if winner == Color::White { "1-0" } else { "0-1" };
            let loser = if why == Termination::NoLegalMove {
                format!("{} has no legal move", name(to_move))
            } else {
                why.to_string()
            };
            format!("{score} {{{loser}}}")
        }
        Outcome::Draw(why) => {
            let text = match why {
                Termination::Stalemate => "Stalemate".to_string(),
                Termination::FiftyMoves => "Draw by 50-move rule".to_string(),
                Termination::Repetition => "Draw by repetition".to_string(),
                Termination::InsufficientMaterial => "Draw by insufficient material".to_string(),
                other => format!("Draw ({other})"),
            };
            format!("1/2-1/2 {{{text}}}")
        }
    }
}

/// One line of thinking output: `ply score time nodes pv`.
pub fn format_thinking(info: &Info, pv: &str) -> String {
    let score = match info.score {
        Score::Cp(c) => c,
        Score::Mate(m) if m > 0 => XB_MATE + m,
        Score::Mate(m) => -XB_MATE + m,
    };
    format!(
        "{} {} {} {} {}",
        info.depth,
        score,
        info.time_ms / 10,
        info.nodes,
        pv
    )
}

/// Time control as `level`, `st`, `sd`, `time` and `otim` set it.
#[derive(Clone, Debug, Default)]
struct Clock {
    moves_per_session: u32,
    base_ms: u64,
    inc_ms: u64,
    /// `st`: exact time per move.
    st_ms: Option<u64>,
    /// `sd`: depth limit.
    depth: Option<u32>,
    /// `time` / `otim`: remaining clocks of engine and opponent.
    mine_ms: Option<u64>,
    theirs_ms: Option<u64>,
}

/// The CECP loop.
pub struct XBoard<W: Write + Send + 'static> {
    engine: Box<dyn Engine>,
    game: Arc<Mutex<Game>>,
    out: Arc<Mutex<W>>,
    /// Set when the running search must end without playing its move.
    cancel: Arc<AtomicBool>,
    clock: Clock,
    post: bool,
    analyzing: bool,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

fn write_line<W: Write>(out: &Mutex<W>, line: &str) {
    let mut o = lock(out);
    let _ = writeln!(o, "{line}");
    let _ = o.flush();
}

impl<W: Write + Send + 'static> XBoard<W> {
    pub fn new(out: W) -> Self {
        let engine = engine::for_variant(DEFAULT_VARIANT, Settings::default())
            .expect("the default engine fits in memory");
        XBoard {
            engine,
            game: Arc::new(Mutex::new(Game {
                start: None,
                moves: Vec::new(),
                engine: Some(Color::Black),
                over: false,
                pending: None,
            })),
            out: Arc::new(Mutex::new(out)),
            cancel: Arc::new(AtomicBool::new(false)),
            clock: Clock::default(),
            post: false,
            analyzing: false,
        }
    }

    /// Reads commands until `quit` or end of input.
    pub fn run(&mut self, input: impl BufRead) -> std::io::Result<()> {
        for line in input.split(b'\n') {
            let line = line?;
            let line = String::from_utf8_lossy(&line);
            if self.handle(line.trim_end_matches('\r')) == Flow::Quit {
                break;
            }
        }
        self.stop_search(true);
        Ok(())
    }

    fn say(&self, line: &str) {
        write_line(&self.out, line);
    }

    fn error(&self, kind: &str, command: &str) {
        self.say(&format!("Error ({kind}): {command}"));
    }

    /// Ends a running search; with `cancel` its move is not played.
    fn stop_search(&mut self, cancel: bool) {
        if cancel {
            self.cancel.store(true, Ordering::Release);
        }
        self.engine.stop();
        self.sync();
    }

    /// Plays the move the search announced on the engine's board.
    fn sync(&mut self) {
        let pending = lock(&self.game).pending.take();
        if let Some(mv) = pending
            && let Err(e) = self.engine.session_mut().play_move(&mv)
        {
            self.say(&format!("# search move {mv} refused: {e}"));
        }
    }

    /// True while a search thread is alive.
    pub fn searching(&mut self) -> bool {
        let searching = self.engine.is_searching();
        self.sync();
        searching
    }

    /// Plays a move and returns the result line if the game is now over.
    fn play(&mut self, mv: &str) -> Result<Option<String>, String> {
        let canonical = self
            .engine
            .session_mut()
            .play_move(mv)
            .map_err(|e| e.to_string())?;
        let mut g = lock(&self.game);
        g.moves.push(canonical);
        let line = result_line(self.engine.session());
        g.over |= line.is_some();
        Ok(line)
    }

    /// Rebuilds the position without the last `n` moves.
    fn retract(&mut self, n: usize) -> Result<(), String> {
        let mut g = lock(&self.game);
        if n > g.moves.len() {
            return Err("no move to undo".into());
        }
        let keep = g.moves.len() - n;
        let moves: Vec<&str> = g.moves[..keep].iter().map(|s| s.as_str()).collect();
        self.engine
            .session_mut()
            .set_position(g.start.as_deref(), &moves)
            .map_err(|e| e.to_string())?;
        g.moves.truncate(keep);
        g.over = false;
        Ok(())
    }

    fn xb(&self) -> &'static XbVariant {
        xb_variant(self.engine.session().variant()).expect("every variant has an XBoard form")
    }

    /// Handles one line of input.
    pub fn handle(&mut self, line: &str) -> Flow {
        let line = line.trim();
        let (command, rest) = match line.split_once(char::is_whitespace) {
            Some((c, r)) => (c, r.trim()),
            None => (line, ""),
        };
        if command.is_empty() {
            return Flow::Continue;
        }
        // The search thread may just have finished: reap it.
        self.searching();
        match command {
            "xboard" | "accepted" | "rejected" | "computer" | "name" | "random" | "ics"
            | "hard" | "easy" | "hint" | "bk" | "draw" | "otherside" | "nps" | "egtpath"
            | "hover" | "." => {}
            "protover" => self.protover(),
            "new" => self.new_game(),
            "variant" => self.variant(rest),
            "setboard" => self.setboard(rest),
            "usermove" => self.usermove(rest),
            // Silence would leave a host waiting for a move that never comes.
            "go" if self.analyzing => self.error("analysing; send exit first", line),
            "go" if lock(&self.game).over => self.error("game is over", line),
            "go" => {
                self.stop_search(true);
                lock(&self.game).engine = Some(self.engine.session().side_to_move());
                self.think();
            }
            "force" => {
                self.stop_search(true);
                lock(&self.game).engine = None;
            }
            "playother" => {
                self.stop_search(true);
                lock(&self.game).engine = Some(self.engine.session().side_to_move().flip());
            }
            "white" | "black" => {
                // Obsolete (colors=0 asks XBoard not to send them).
                self.stop_search(true);
                let mut g = lock(&self.game);
                g.engine = Some(if command == "white" {
                    Color::Black
                } else {
                    Color::White
                });
            }
            "level" => self.level(rest, line),
            "st" => match rest.parse::<f64>() {
                Ok(s) if s > 0.0 => self.clock.st_ms = Some((s * 1000.0) as u64),
                _ => self.error("bad argument", line),
            },
            "sd" => match rest.parse::<u32>() {
                Ok(d) if d > 0 => self.clock.depth = Some(d.min(1000)),
                _ => self.error("bad argument", line),
            },
            "time" => match rest.parse::<i64>() {
                Ok(cs) => self.clock.mine_ms = Some(cs.max(0) as u64 * 10),
                Err(_) => self.error("bad argument", line),
            },
            "otim" => match rest.parse::<i64>() {
                Ok(cs) => self.clock.theirs_ms = Some(cs.max(0) as u64 * 10),
                Err(_) => self.error("bad argument", line),
            },
            "?" => {
                if !self.analyzing {
                    self.stop_search(false);
                }
            }
            "ping" => self.say(&format!("pong {rest}")),
            "post" => self.post = true,
            "nopost" => self.post = false,
            "analyze" => {
                self.stop_search(true);
                self.analyzing = true;
                lock(&self.game).engine = None;
                self.think();
            }
            "exit" => {
                self.stop_search(true);
                self.analyzing = false;
            }
            "undo" | "remove" => {
                self.stop_search(true);
                let n = if command == "undo" { 1 } else { 2 };
                match self.retract(n) {
                    Ok(()) => {
                        if self.analyzing {
                            self.think();
                        }
                    }
                    Err(e) => self.error(&e, line),
                }
            }
            "result" => {
                self.stop_search(true);
                let mut g = lock(&self.game);
                g.over = true;
                g.engine = None;
            }
            // What XBoard allows, capped at the option table's maximum.
            "memory" => self.capped_option("Hash", rest, line),
            "cores" => self.capped_option("Threads", rest, line),
            "option" => self.option(rest, line),
            "lift" => self.lift(rest),
            "put" => self.put(rest),
            "d" => {
                let text = self.engine.session().display();
                for l in text.trim_end().lines() {
                    self.say(&format!("# {l}"));
                }
            }
            "eval" => {
                if let Some(trace) = self.engine.eval_trace() {
                    for line in super::eval_trace_lines(&trace) {
                        self.say(&format!("# {line}"));
                    }
                }
                let text = super::static_eval_text(self.engine.static_eval());
                self.say(&format!("# {text}"));
            }
            "quit" => {
                self.stop_search(true);
                return Flow::Quit;
            }
            _ => {
                // Moves without `usermove` (protocol version 1 hosts).
                if square_range(command).is_some() && rest.is_empty() {
                    self.usermove(command);
                } else {
                    self.error("unknown command", command);
                }
            }
        }
        Flow::Continue
    }

    fn protover(&self) {
        self.say(&format!(
            "feature myname=\"{ENGINE_NAME}\" variants=\"{}\" setboard=1 usermove=1 ping=1 memory=1 smp=1 colors=0 sigint=0 sigterm=0 highlight=1 analyze=1 san=0 time=1 draw=0 reuse=1 name=0 debug=1",
            registry::NAMES.join(",")
        ));
        for spec in options::table() {
            if !NOT_FEATURE_OPTIONS.contains(&spec.name) {
                self.say(&feature_option(&spec));
            }
        }
        self.say("feature done=1");
    }

    /// `memory N` / `cores N`: the option `name` at N, or at its maximum.
    fn capped_option(&mut self, name: &str, rest: &str, line: &str) {
        let Some(OptionKind::Spin { max, .. }) = options::find(name).map(|s| s.kind) else {
            return self.error("no such option", line);
        };
        let value = match rest.trim().parse::<u64>() {
            Ok(v) if v >= 1 => v.min(max as u64),
            _ => return self.error("bad argument", line),
        };
        self.stop_search(true);
        self.set_option(name, Some(&value.to_string()), line);
    }

    /// `option NAME=VALUE` (or `option NAME` for a button).
    fn option(&mut self, rest: &str, line: &str) {
        let (name, value) = match rest.split_once('=') {
            Some((n, v)) => (n.trim(), Some(v.trim())),
            None => (rest.trim(), None),
        };
        if NOT_FEATURE_OPTIONS
            .iter()
            .any(|o| o.eq_ignore_ascii_case(name))
        {
            return self.error("not an option of this protocol", line);
        }
        self.stop_search(true);
        self.set_option(name, value, line);
    }

    fn set_option(&mut self, name: &str, value: Option<&str>, line: &str) {
        match engine::set_option(&mut self.engine, name, value) {
            Ok(Applied::Note(note)) => self.say(&format!("# {note}")),
            Ok(_) => {}
            Err(e) => self.error(&e, line),
        }
    }

    fn new_game(&mut self) {
        self.stop_search(true);
        self.analyzing = false;
        self.clock.st_ms = None;
        self.clock.depth = None;
        self.engine.new_game();
        let mut g = lock(&self.game);
        g.start = None;
        g.moves.clear();
        g.engine = Some(Color::Black);
        g.over = false;
    }

    fn variant(&mut self, name: &str) {
        self.stop_search(true);
        let name = name.trim().to_ascii_lowercase();
        // Board-size prefixes (8x8+0_nimrod) are accepted for our own sizes.
        let name = name.rsplit('_').next().unwrap_or("").to_string();
        let Some(xb) = xb_variant(&name) else {
            return self.error("unsupported variant", &name);
        };
        if !xb.playable {
            self.say(
                "telluser ghast: XBoard cannot show Nemoroth's stacks, statues and screams; \
                 play it through UCI or 'ghast analyse' instead",
            );
            return self.error("variant not playable in XBoard", &name);
        }
        match engine::set_option(&mut self.engine, "UCI_Variant", Some(&name)) {
            Ok(Applied::Variant {
                warning: Some(warning),
            }) => self.say(&format!("telluser ghast: {warning}")),
            Ok(_) => {}
            Err(e) => return self.error(&e, &name),
        }
        {
            let mut g = lock(&self.game);
            g.start = None;
            g.moves.clear();
            g.over = false;
        }
        self.say(&xb.setup_command(self.engine.session()));
        for p in xb.piece_commands() {
            self.say(&p);
        }
    }

    fn setboard(&mut self, fen: &str) {
        self.stop_search(true);
        let xb = self.xb();
        let mut g = lock(&self.game);
        let Some(ghast_fen) = xb.fen_from_xboard(fen, self.engine.session()) else {
            drop(g);
            return self.say(&format!(
                "tellusererror Illegal position: XBoard's FEN cannot carry this variant's state: {fen}"
            ));
        };
        match self
            .engine
            .session_mut()
            .set_position(Some(&ghast_fen), &[])
        {
            Ok(()) => {
                g.start = Some(ghast_fen);
                g.moves.clear();
                g.over = false;
            }
            Err(e) => {
                drop(g);
                self.say(&format!("tellusererror Illegal position: {e}"));
            }
        }
    }

    fn usermove(&mut self, text: &str) {
        let text = text.trim();
        if text.is_empty() {
            return self.error("missing move", "usermove");
        }
        self.stop_search(true);
        let xb = self.xb();
        let Some(mv) = xb.move_from_xboard(self.engine.session(), text) else {
            let reason = if self.engine.session().legal_moves().is_empty() {
                "game is over"
            } else if square_range(text).is_none() && xb.playable {
                "not a move"
            } else {
                "not legal here"
            };
            return self.say(&format!("Illegal move ({reason}): {text}"));
        };
        match self.play(&mv) {
            Ok(Some(line)) => self.say(&line),
            Ok(None) => {}
            Err(e) => return self.say(&format!("Illegal move ({e}): {text}")),
        }
        let engine_to_move = {
            let g = lock(&self.game);
            !g.over && g.engine == Some(self.engine.session().side_to_move())
        };
        if self.analyzing || engine_to_move {
            self.think();
        }
    }

    fn level(&mut self, rest: &str, line: &str) {
        let parts: Vec<&str> = rest.split_whitespace().collect();
        let parsed = (|| -> Option<Clock> {
            let [mps, base, inc] = parts[..] else {
                return None;
            };
            let mps: u32 = mps.parse().ok()?;
            let base_ms = match base.split_once(':') {
                Some((m, s)) => m.parse::<u64>().ok()? * 60_000 + s.parse::<u64>().ok()? * 1000,
                None => (base.parse::<f64>().ok()? * 60_000.0) as u64,
            };
            let inc: f64 = inc.parse().ok()?;
            Some(Clock {
                moves_per_session: mps,
                base_ms,
                inc_ms: (inc.max(0.0) * 1000.0) as u64,
                st_ms: None,
                depth: self.clock.depth,
                mine_ms: Some(base_ms),
                theirs_ms: Some(base_ms),
            })
        })();
        match parsed {
            Some(c) => self.clock = c,
            None => self.error("bad argument", line),
        }
    }

    fn limits(&self, side: Color, plies: usize) -> Limits {
        let mut limits = Limits {
            depth: self.clock.depth,
            ..Limits::default()
        };
        if let Some(st) = self.clock.st_ms {
            limits.movetime = Some(st.max(1));
        } else if let Some(mine) = self
            .clock
            .mine_ms
            .or(Some(self.clock.base_ms).filter(|&b| b > 0))
        {
            let me = side.index();
            limits.time[me] = Some(mine);
            limits.time[1 - me] = Some(self.clock.theirs_ms.unwrap_or(mine));
            limits.inc = [self.clock.inc_ms; 2];
            if self.clock.moves_per_session > 0 {
                let done = (plies / 2) as u32;
                limits.movestogo =
                    Some(self.clock.moves_per_session - done % self.clock.moves_per_session);
            }
        } else if self.clock.depth.is_none() {
            limits.movetime = Some(DEFAULT_MOVE_MS);
        }
        limits
    }

    /// Starts a search: analysis (infinite, prints thinking, plays nothing)
    /// or the engine's move.
    fn think(&mut self) {
        let xb = self.xb();
        let limits = {
            let mut g = lock(&self.game);
            if !self.analyzing {
                if g.over {
                    return;
                }
                if let Some(line) = result_line(self.engine.session()) {
                    g.over = true;
                    drop(g);
                    return self.say(&line);
                }
            }
            if self.analyzing {
                Limits {
                    infinite: true,
                    ..Limits::default()
                }
            } else {
                self.limits(self.engine.session().side_to_move(), g.moves.len())
            }
        };
        let analyzing = self.analyzing;
        let post = self.post || analyzing;
        let game = Arc::clone(&self.game);
        let info_out = Arc::clone(&self.out);
        let out = Arc::clone(&self.out);
        let cancel = Arc::new(AtomicBool::new(false));
        self.cancel = Arc::clone(&cancel);
        let root = self.engine.session().clone_box();
        let mut board = root.clone_box();
        let on_info = move |info: &Info| {
            if post && info.multipv == 1 {
                let pv = xboard_pv(xb, root.as_ref(), &info.pv);
                write_line(&info_out, &format_thinking(info, &pv));
            }
        };
        let on_done = move |reply: SearchReply| {
            if let Some(e) = &reply.error {
                write_line(&out, &format!("# error: {e}"));
            }
            if analyzing {
                return;
            }
            let mut g = lock(&game);
            if cancel.load(Ordering::Acquire) {
                return;
            }
            let Some(best) = reply.best else {
                if let Some(line) = result_line(board.as_ref()) {
                    g.over = true;
                    write_line(&out, &line);
                }
                return;
            };
            let text = xb.move_to_xboard(board.as_ref(), &best);
            match board.play_move(&best) {
                Ok(canonical) => {
                    write_line(&out, &format!("move {text}"));
                    g.moves.push(canonical.clone());
                    g.pending = Some(canonical);
                    if let Some(line) = result_line(board.as_ref()) {
                        g.over = true;
                        write_line(&out, &line);
                    }
                }
                Err(e) => write_line(&out, &format!("# search move {best} refused: {e}")),
            }
        };
        if let Err(e) = self.engine.go(limits, Box::new(on_info), Box::new(on_done)) {
            self.say(&format!("# error: {e}"));
        }
    }

    /// `lift SQ`: highlight where the piece there can go.
    fn lift(&self, square: &str) {
        let Some(from) = parse_square(square) else {
            return;
        };
        let xb = self.xb();
        let (files, ranks) = (xb.files, xb.ranks);
        let mut marks = vec![vec!['.'; files as usize]; ranks as usize];
        for mv in self.engine.session().legal_moves() {
            let Some((f, t)) = square_range(&mv) else {
                continue;
            };
            if f != from || t.0 >= files || t.1 >= ranks {
                continue;
            }
            let cell = &mut marks[t.1 as usize][t.0 as usize];
            let promotes = xb.own_fen
                && mv.len() > 4
                && mv.chars().last().is_some_and(|c| c.is_ascii_alphabetic());
            let forced = mv.ends_with('+');
            *cell = match (*cell, promotes, forced) {
                (_, true, _) => 'M',
                (_, _, true) => 'B',
                ('.', _, _) => 'Y',
                (c, _, _) => c,
            };
        }
        let rows: Vec<String> = marks
            .iter()
            .rev()
            .map(|row| fen_row(row.iter().map(|&c| (c != '.').then_some(c))))
            .collect();
        self.say(&format!("highlight {}", rows.join("/")));
    }

    /// `put SQ`: for a promotion, tell XBoard which pieces it may offer.
    fn put(&self, square: &str) {
        let Some(to) = parse_square(square) else {
            return;
        };
        let xb = self.xb();
        let mut choices = String::new();
        for mv in self.engine.session().legal_moves() {
            if square_range(&mv).map(|(_, t)| t) != Some(to) {
                continue;
            }
            let text = xb.move_to_xboard(self.engine.session(), &mv);
            if mv.len() > 4
                && let Some(c) = text.chars().last().filter(|c| c.is_ascii_alphabetic())
            {
                let c = c.to_ascii_uppercase();
                if !choices.contains(c) {
                    choices.push(c);
                }
            }
        }
        if !choices.is_empty() {
            // Queen first: the default choice.
            if let Some(i) = choices.find('Q') {
                choices.remove(i);
                choices.insert(0, 'Q');
            }
            self.say(&format!("choice {choices}"));
        }
    }
}

/// A principal variation in XBoard's move format, replayed from `root`
/// (a promotion's letter depends on the moving piece).
fn xboard_pv(xb: &XbVariant, root: &dyn Session, pv: &[String]) -> String {
    let mut s = root.clone_box();
    let mut out = Vec::new();
    for m in pv {
        out.push(xb.move_to_xboard(s.as_ref(), m));
        if s.play_move(m).is_err() {
            break;
        }
    }
    out.join(" ")
}
