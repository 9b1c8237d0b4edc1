//! The one interface between the rules of a game and everything that uses
//! them (perft, search, protocol, tournaments).
//!
//! Design:
//! - A position is a value: [`Game::play`] is *copy-make*, returning the
//!   child position. Positions are small (a few hundred bytes), so copying is
//!   cheaper than the bookkeeping an unmake would need, and a racing search
//!   thread can never observe a half-made move.
//! - Moves are small `Copy` values chosen by each game. A move is only
//!   meaningful in the position that generated it.
//! - Legality may depend on the history of the game (Nemoroth forbids any
//!   configuration that occurred before). Every call that needs it receives a
//!   [`History`]: a multiset of [`Game::repetition_key`]s of the positions
//!   played so far, maintained by the caller. Games whose legality ignores the
//!   history say so with [`Game::LEGALITY_USES_HISTORY`] so perft and search
//!   can skip maintaining it.
//! - The hash is computed on demand with ahash at fixed seeds over a canonical
//!   encoding of the position (see [`hash_words`]); there are no Zobrist
//!   tables to keep in sync.
//! - Move lists are fixed-capacity buffers on the stack: generating moves
//!   never allocates.

use std::fmt;
use std::hash::Hash;
use std::mem::MaybeUninit;

/// The two players. In Nemoroth, `White` is Alabaster and `Black` Obsidian.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Color {
    White = 0,
    Black = 1,
}

impl Color {
    #[inline(always)]
    pub const fn flip(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }

    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }
}

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Termination {
    Checkmate,
    Stalemate,
    /// The side to move has no legal move and loses (Nemoroth).
    NoLegalMove,
    FiftyMoves,
    Repetition,
    InsufficientMaterial,
}

impl fmt::Display for Termination {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Termination::Checkmate => "checkmate",
            Termination::Stalemate => "stalemate",
            Termination::NoLegalMove => "no legal move",
            Termination::FiftyMoves => "50-move rule",
            Termination::Repetition => "threefold repetition",
            Termination::InsufficientMaterial => "insufficient material",
        })
    }
}

/// The result of a finished game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    Win(Color, Termination),
    Draw(Termination),
}

/// Every error a game reports: bad FEN, unparsable or illegal move.
/// The message is meant for a human and names what is wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameError(pub String);

impl GameError {
    pub fn new(msg: impl Into<String>) -> Self {
        GameError(msg.into())
    }
}

impl fmt::Display for GameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for GameError {}

/// Shorthand for an `Err(GameError)`.
pub fn err<T>(msg: impl Into<String>) -> Result<T, GameError> {
    Err(GameError::new(msg))
}

/// The largest move counter (half-move clock, capture clock, fullmove
/// number, ply count) a position string may give, in every variant. Far
/// below `u32::MAX`, so counting on from it in any game or search can
/// never overflow; far above any real game.
pub const MAX_MOVE_COUNTER: u32 = 999_999_999;

/// Parses the move counter `name` of a position string: decimal digits
/// only, in `min..=MAX_MOVE_COUNTER`.
pub fn parse_move_counter(name: &str, text: &str, min: u32) -> Result<u32, GameError> {
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return err(format!("{name} '{text}' is not a number"));
    }
    match text.parse::<u32>() {
        Ok(n) if (min..=MAX_MOVE_COUNTER).contains(&n) => Ok(n),
        _ => err(format!(
            "{name} '{text}' is out of range ({min} to {MAX_MOVE_COUNTER})"
        )),
    }
}

/// A fixed-capacity list of moves that lives on the stack.
pub struct MoveList<M: Copy, const N: usize> {
    len: usize,
    moves: [MaybeUninit<M>; N],
}

impl<M: Copy, const N: usize> MoveList<M, N> {
    #[inline(always)]
    pub fn new() -> Self {
        MoveList {
            len: 0,
            moves: [const { MaybeUninit::uninit() }; N],
        }
    }
}

impl<M: Copy, const N: usize> Default for MoveList<M, N> {
    fn default() -> Self {
        Self::new()
    }
}

/// What the search and perft need of a move buffer, whatever its capacity.
pub trait MoveBuffer<M: Copy>: Default {
    fn clear(&mut self);
    fn push(&mut self, m: M);
    fn as_slice(&self) -> &[M];
    fn as_mut_slice(&mut self) -> &mut [M];
    #[inline(always)]
    fn len(&self) -> usize {
        self.as_slice().len()
    }
    #[inline(always)]
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

impl<M: Copy, const N: usize> MoveBuffer<M> for MoveList<M, N> {
    #[inline(always)]
    fn clear(&mut self) {
        self.len = 0;
    }

    #[inline(always)]
    fn push(&mut self, m: M) {
        // A game sizes N above its maximum number of legal moves; overflowing
        // would be a bug in that bound, so fail loudly rather than write past it.
        assert!(self.len < N, "move list capacity {N} exceeded");
        self.moves[self.len] = MaybeUninit::new(m);
        self.len += 1;
    }

    #[inline(always)]
    fn as_slice(&self) -> &[M] {
        // Safety: the first `len` elements were initialised by `push`, and
        // `MaybeUninit<M>` has the same layout as `M`.
        unsafe { std::slice::from_raw_parts(self.moves.as_ptr() as *const M, self.len) }
    }

    #[inline(always)]
    fn as_mut_slice(&mut self) -> &mut [M] {
        // Safety: as in `as_slice`; the borrow is unique.
        unsafe { std::slice::from_raw_parts_mut(self.moves.as_mut_ptr() as *mut M, self.len) }
    }
}

/// The positions played so far in a game (and along a search path), as a
/// multiset of repetition keys. A counting filter over the keys' low bits
/// answers most membership questions without a search; only a key whose
/// slot is taken is looked for among the keys. The search pushes and pops
/// a key at every node, so both must be cheap.
#[derive(Clone, Debug)]
pub struct History {
    keys: Vec<u64>,
    /// How many keys fall in each slot (indexed by `slot`).
    filter: Vec<u32>,
}

/// Slots of the filter: with a few hundred keys, a new key finds its slot
/// empty nearly always.
const HISTORY_FILTER_SLOTS: usize = 4096;

impl Default for History {
    fn default() -> Self {
        Self::new()
    }
}

impl History {
    pub fn new() -> Self {
        History {
            keys: Vec::new(),
            filter: vec![0; HISTORY_FILTER_SLOTS],
        }
    }

    #[inline(always)]
    fn slot(key: u64) -> usize {
        key as usize % HISTORY_FILTER_SLOTS
    }

    #[inline]
    pub fn push(&mut self, key: u64) {
        self.keys.push(key);
        self.filter[Self::slot(key)] += 1;
    }

    #[inline]
    pub fn pop(&mut self) -> Option<u64> {
        let key = self.keys.pop()?;
        self.filter[Self::slot(key)] -= 1;
        Some(key)
    }

    #[inline]
    pub fn contains(&self, key: u64) -> bool {
        self.filter[Self::slot(key)] != 0 && self.keys.contains(&key)
    }

    pub fn count(&self, key: u64) -> u32 {
        if self.filter[Self::slot(key)] == 0 {
            return 0;
        }
        self.keys.iter().filter(|&&k| k == key).count() as u32
    }

    pub fn len(&self) -> usize {
        self.keys.len()
    }

    pub fn is_empty(&self) -> bool {
        self.keys.is_empty()
    }

    pub fn keys(&self) -> &[u64] {
        &self.keys
    }

    pub fn clear(&mut self) {
        self.keys.clear();
        self.filter.fill(0);
    }
}

/// The fixed ahash seeds every position hash uses, so hashes are the same
/// in every run and every process (reproducible searches and bench counts).
const HASH_SEEDS: [u64; 4] = [
    0x243f_6a88_85a3_08d3,
    0x1319_8a2e_0370_7344,
    0xa409_3822_299f_31d0,
    0x082e_fa98_ec4e_6c89,
];

/// Hashes a canonical encoding of a position, given as machine words.
#[inline]
pub fn hash_words(words: &[u64]) -> u64 {
    static STATE: std::sync::LazyLock<ahash::RandomState> = std::sync::LazyLock::new(|| {
        ahash::RandomState::with_seeds(HASH_SEEDS[0], HASH_SEEDS[1], HASH_SEEDS[2], HASH_SEEDS[3])
    });
    STATE.hash_one(words)
}

/// The rules of one game, as the search, perft and the protocol see them.
pub trait Game: Clone + Send + Sync + Sized + 'static {
    /// A move; only meaningful in the position that generated it.
    type Move: Copy + Eq + Hash + fmt::Debug + Send + Sync + 'static;
    /// A buffer large enough for every legal move list of this game.
    type Moves: MoveBuffer<Self::Move>;

    /// The engine's name for the variant, as used by `UCI_Variant`.
    const VARIANT: &'static str;
    /// Whether [`Game::legal_moves`] reads the history.
    const LEGALITY_USES_HISTORY: bool;
    /// Board extent, as reported to GUIs (`info string variant ...`).
    const FILES: u32;
    const RANKS: u32;

    fn startpos() -> Self;
    /// Parses the game's position notation, rejecting impossible positions
    /// with a reason.
    fn from_fen(fen: &str) -> Result<Self, GameError>;
    /// Canonical position notation; `from_fen(p.to_fen())` reproduces `p`.
    fn to_fen(&self) -> String;

    fn side_to_move(&self) -> Color;

    /// Appends every legal move to `out` (which is cleared first).
    fn legal_moves(&self, history: &History, out: &mut Self::Moves);

    /// The number of legal moves; games may count faster than they list.
    fn count_legal_moves(&self, history: &History) -> u64 {
        let mut moves = Self::Moves::default();
        self.legal_moves(history, &mut moves);
        moves.len() as u64
    }

    /// The position after `mv`, which must be legal here.
    fn play(&self, mv: Self::Move) -> Self;

    /// Hash of the canonical encoding (ahash, fixed seeds).
    fn hash(&self) -> u64;

    /// The key the game's repetition rules compare; by default the hash.
    fn repetition_key(&self) -> u64 {
        self.hash()
    }

    /// [`Game::hash`] and [`Game::repetition_key`] together, for the search,
    /// which needs both at every node; a game whose repetition key is its
    /// hash computes it once.
    fn hash_and_repetition_key(&self) -> (u64, u64) {
        (self.hash(), self.repetition_key())
    }

    /// `Some` when the game is over, given the positions before this one.
    fn outcome(&self, history: &History) -> Option<Outcome>;

    /// Canonical move notation.
    fn move_to_string(&self, mv: Self::Move) -> String;

    /// Parses a move in the game's notation and checks that it is legal here.
    fn parse_move(&self, history: &History, text: &str) -> Result<Self::Move, GameError>;

    /// A human-readable drawing of the position for the `d` command.
    fn display(&self) -> String;

    /// The position described for drawing: cells, occupants, effects.
    fn board_view(&self) -> crate::board_view::BoardView;

    /// A legal move of this position described for a front end.
    fn move_view(&self, mv: Self::Move) -> crate::board_view::MoveView;

    // ---- What the search needs to know about the game. ----

    /// Number of slots in history-heuristic tables; [`Game::history_index`]
    /// is below it.
    const HISTORY_SIZE: usize;

    /// Moves the time manager plans the clock for when the host sends no
    /// `movestogo` and `tm_moves_to_go` is 0: a shorter plan spends more
    /// of the clock early. Measured per game (README, "Strength").
    const CLOCK_MOVES: u32 = 30;

    /// Whether the side to move is in check (games without royalty: false).
    fn in_check(&self) -> bool {
        false
    }

    /// Whether the legal move `mv` gives check. The search asks before it
    /// plays a move it may prune; games with a test cheaper than playing
    /// the move override this.
    fn gives_check(&self, mv: Self::Move) -> bool {
        self.play(mv).in_check()
    }

    /// What a position knows once about checks it could give, so that
    /// [`Game::gives_check_with`] can answer for many moves at the cost of
    /// one lookup each (Stockfish's check squares and discovered-check
    /// candidates).
    type CheckInfo: Copy;

    /// The check information of this position (the side to move checking).
    fn check_info(&self) -> Self::CheckInfo;

    /// [`Game::gives_check`], with the position's [`Game::check_info`].
    fn gives_check_with(&self, _info: &Self::CheckInfo, mv: Self::Move) -> bool {
        self.gives_check(mv)
    }

    /// Moves the quiescence search must try: captures, promotions, and
    /// whatever else changes the balance at once.
    fn is_tactical(&self, mv: Self::Move) -> bool;

    /// The legal moves for which [`Game::is_tactical`] holds; games may
    /// generate them faster than by filtering the full list.
    fn tactical_moves(&self, history: &History, out: &mut Self::Moves) {
        let mut all = Self::Moves::default();
        self.legal_moves(history, &mut all);
        out.clear();
        for &mv in all.as_slice() {
            if self.is_tactical(mv) {
                out.push(mv);
            }
        }
    }

    /// Ordering of tactical moves, higher first (e.g. MVV-LVA).
    fn tactical_score(&self, _mv: Self::Move) -> i32 {
        0
    }

    /// Static exchange test: does `mv` win at least `threshold`? Games
    /// without a cheap exchange evaluator answer `true`.
    fn see_at_least(&self, _mv: Self::Move, _threshold: i32) -> bool {
        true
    }

    /// Whether [`Game::see_at_least`] plays the whole exchange out, so that
    /// the search may prune moves by it. A cruder estimate (Vyrémorn's
    /// victim-minus-capturer when the square is attacked at all) still
    /// orders moves, but pruning by it throws away sound moves.
    const SEE_IS_EXACT: bool = false;

    /// Whether the game has checks and [`Game::gives_check`] tells them
    /// without playing the move, so that quiescence can afford to look
    /// for quiet checks among all the moves.
    const CHECK_TEST_IS_CHEAP: bool = false;

    /// [`Game::see_at_least`] with the piece values of `params`, the
    /// weights the search evaluates with (`EvalFile`), so that exchanges
    /// and the evaluation agree. By default the compiled-in values.
    fn see_at_least_with(
        &self,
        _params: &Self::EvalParams,
        mv: Self::Move,
        threshold: i32,
    ) -> bool {
        self.see_at_least(mv, threshold)
    }

    /// The evaluator's weights (one params file, `tuning/*.params`).
    type EvalParams: Send + Sync + 'static;

    /// The compiled-in weights (`tuning/<game>.params`).
    fn default_eval_params() -> &'static Self::EvalParams;

    /// Parses a params file for this game; errors name the line.
    fn parse_eval_params(text: &str) -> Result<Self::EvalParams, String>;

    /// Static evaluation with the given weights, in centipawns from the
    /// side to move's view. The search calls this with the weights of its
    /// [`Config`](crate::search::Config) (the `EvalFile` option), so
    /// nothing global is read in the hot path.
    fn evaluate_with(&self, params: &Self::EvalParams) -> i32;

    /// Static evaluation with the compiled-in weights.
    fn evaluate(&self) -> i32 {
        self.evaluate_with(Self::default_eval_params())
    }

    /// The static evaluation split by term, for `eval`; `None` where the
    /// evaluator gives the total only.
    fn eval_trace(&self, _params: &Self::EvalParams) -> Option<EvalTrace> {
        None
    }

    /// A key of the position's slow-changing structure (in chess, the
    /// pawns), under which the search learns how far the static
    /// evaluation tends to be off (correction history). `None`: the game
    /// has no such structure and the evaluation is used as it is.
    fn structure_key(&self) -> Option<u64> {
        None
    }

    /// The position with the turn passed, when a null move is a sound
    /// pruning tool here; `None` where zugzwang is common (or the game is
    /// all zugzwang, as Nemoroth).
    fn null_move(&self) -> Option<Self> {
        None
    }

    /// Whether having no legal move loses (mate, or Nemoroth's rule) rather
    /// than draws (stalemate).
    fn no_moves_loses(&self) -> bool;

    /// A draw by the game's rules (move counter, repetition of a position in
    /// `history`, insufficient material). The search treats one earlier
    /// occurrence as a repetition. `repetition_key` is this position's
    /// [`Game::repetition_key`], which the caller has at hand.
    fn is_rule_draw(&self, _history: &History, _repetition_key: u64) -> bool {
        false
    }

    /// A compact, nonzero encoding of a move for the transposition table.
    fn encode_move(mv: Self::Move) -> u32;

    /// Slot of a move in history tables (usually from/to squares).
    fn history_index(&self, mv: Self::Move) -> usize;

    /// Slots of [`Game::piece_to_index`]; 0 where the game has none (the
    /// search then keeps no counter moves, and its capture history uses
    /// [`Game::history_index`]).
    const PIECE_TO_SIZE: usize = 0;

    /// The moving piece (with its colour) and its destination as one slot
    /// below [`Game::PIECE_TO_SIZE`], for counter moves (which reply
    /// refuted which move) and capture history.
    fn piece_to_index(&self, _mv: Self::Move) -> usize {
        0
    }

    /// What a node knows once about the opponent's threats, for ordering
    /// its quiet moves ([`Game::threat_order`]).
    type Threats: Copy;

    /// The opponent's threats in this position.
    fn threats(&self) -> Self::Threats;

    /// How the quiet move `mv` meets `threats`: 1 where it takes a piece out
    /// of a cheap attack to safety, -1 where it puts one into such an
    /// attack, 0 otherwise (and in games that tell no threats).
    fn threat_order(&self, _threats: &Self::Threats, _mv: Self::Move) -> i32 {
        0
    }
}

/// A game together with the history of the positions that led to it.
#[derive(Clone, Debug)]
pub struct GameState<G: Game> {
    pub position: G,
    /// Keys of every position before `position` (not including it).
    pub history: History,
}

impl<G: Game> GameState<G> {
    pub fn new(position: G) -> Self {
        GameState {
            position,
            history: History::new(),
        }
    }

    /// Sets up `fen` (or the start position) and plays `moves`, each parsed
    /// and checked for legality. On error nothing is returned, so a caller
    /// keeps its previous state.
    pub fn from_setup(fen: Option<&str>, moves: &[&str]) -> Result<Self, GameError> {
        let position = match fen {
            Some(f) => G::from_fen(f)?,
            None => G::startpos(),
        };
        let mut state = GameState::new(position);
        for (i, text) in moves.iter().enumerate() {
            let mv = state
                .position
                .parse_move(&state.history, text)
                .map_err(|e| GameError(format!("move {} '{}': {}", i + 1, text, e)))?;
            state.play(mv);
        }
        Ok(state)
    }

    pub fn play(&mut self, mv: G::Move) {
        self.history.push(self.position.repetition_key());
        self.position = self.position.play(mv);
    }

    pub fn legal_moves(&self) -> G::Moves {
        let mut moves = G::Moves::default();
        self.position.legal_moves(&self.history, &mut moves);
        moves
    }

    pub fn outcome(&self) -> Option<Outcome> {
        self.position.outcome(&self.history)
    }
}

/// One term of an [`EvalTrace`]: its midgame and endgame score for each
/// side, each from that side's own view, in centipawns.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TraceTerm {
    pub name: &'static str,
    pub white: [i32; 2],
    pub black: [i32; 2],
}

/// The static evaluation split by term ([`Game::eval_trace`]). The
/// evaluation is the sum of White's minus Black's scores, midgame and
/// endgame tapered by `phase` out of `phase_total` (all midgame at
/// `phase_total`), then taken from the side to move's view.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EvalTrace {
    pub terms: Vec<TraceTerm>,
    pub phase: i32,
    pub phase_total: i32,
}

impl EvalTrace {
    /// White's total minus Black's, midgame and endgame.
    pub fn totals(&self) -> [i32; 2] {
        let mut sum = [0, 0];
        for t in &self.terms {
            sum[0] += t.white[0] - t.black[0];
            sum[1] += t.white[1] - t.black[1];
        }
        sum
    }

    /// The tapered total from White's view, in centipawns (before the
    /// evaluator's clamp).
    pub fn white_score(&self) -> i32 {
        let [mg, eg] = self.totals();
        taper(mg, eg, self.phase, self.phase_total)
    }
}

/// A midgame and an endgame score blended by the game phase: all midgame
/// at `phase_total` (at least 1) and above, all endgame at 0 and below.
pub fn taper(mg: i32, eg: i32, phase: i32, phase_total: i32) -> i32 {
    let total = i64::from(phase_total.max(1));
    let ph = i64::from(phase).clamp(0, total);
    let v = (i64::from(mg) * ph + i64::from(eg) * (total - ph)) / total;
    v.clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32
}

#[cfg(test)]
mod tests {
    use super::History;

    /// Pushes and pops keys that often share a filter slot, and compares
    /// every answer with a plain list.
    #[test]
    fn history_answers_as_a_plain_list() {
        let mut history = History::new();
        let mut model: Vec<u64> = Vec::new();
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        for step in 0..20_000 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            // Few distinct keys, most of them in the same few slots.
            let key = ((seed % 7) << 12) | ((seed >> 40) % 3);
            if seed % 5 < 3 || model.is_empty() {
                history.push(key);
                model.push(key);
            } else {
                assert_eq!(history.pop(), model.pop());
            }
            let probe = (((seed >> 20) % 7) << 12) | ((seed >> 50) % 4);
            let want = model.iter().filter(|&&k| k == probe).count() as u32;
            assert_eq!(history.count(probe), want, "step {step}");
            assert_eq!(history.contains(probe), want > 0, "step {step}");
            assert_eq!(history.keys(), model.as_slice());
        }
        history.clear();
        assert!(history.is_empty() && !history.contains(0));
    }
}
