//! The registry of games: the one place where a variant name becomes a
//! type. Each entry gives a game's name (the type's `Game::VARIANT`), its
//! default search and adjudication, its tuning hooks and its presentation
//! to XBoard; the command line, the protocols, the tuner and the
//! tournament all read it. Adding a game means adding one entry here and
//! one folder under `src/variants/`.

use crate::engine::{self, Engine, Session, Settings};
use crate::game::{Game, GameState};
use crate::protocol::xboard_variants::{self as xb, XbVariant};
use crate::search::SearchKind;
use crate::tournament::game::Adjudication;
use crate::tune::texel::{DataFilter, TuneOptions, TuneReport};
use crate::tune::{Tunable, datagen};
use crate::variants::{nemoroth, nimrod, vyremorn};

/// The variant played when none is chosen.
pub const DEFAULT_VARIANT: &str = "nimrod";

/// `ghast tune` for one game: data file, output, initial params file,
/// position limit, data filter and tuner settings.
pub type TuneHook = fn(
    &str,
    &str,
    Option<&str>,
    Option<usize>,
    DataFilter,
    &TuneOptions,
) -> Result<TuneReport, String>;

/// Everything ghast knows about one game besides its rules.
pub struct GameEntry {
    /// `UCI_Variant` name, also the CECP variant name.
    pub name: &'static str,
    /// The evaluator's compiled-in weights: `tuning/<params>.params`.
    pub params: &'static str,
    /// The search played when the `Search` option is not set.
    pub default_search: SearchKind,
    /// `ghast match`'s adjudication unless told otherwise.
    pub adjudication: Adjudication,
    /// Piece table, Betza strings and board size for XBoard.
    pub xboard: &'static XbVariant,
    /// A new engine at the start position.
    pub new_engine: fn(Settings) -> Result<Box<dyn Engine>, String>,
    /// A new game at the start position, without a search.
    pub new_session: fn() -> Box<dyn Session>,
    /// `ghast datagen`.
    pub datagen: fn(&datagen::DatagenConfig) -> Result<(), String>,
    /// `ghast tune`.
    pub tune: TuneHook,
}

fn session<G: Game>() -> Box<dyn Session> {
    Box::new(GameState::new(G::startpos()))
}

const fn entry<G: Tunable>(
    params: &'static str,
    default_search: SearchKind,
    adjudication: Adjudication,
    xboard: &'static XbVariant,
) -> GameEntry {
    GameEntry {
        name: G::VARIANT,
        params,
        default_search,
        adjudication,
        xboard,
        new_engine: engine::new_engine::<G>,
        new_session: session::<G>,
        datagen: datagen::run::<G>,
        tune: crate::tune::texel::run::<G>,
    }
}

/// Nimrod's adjudication (all four forms).
const NIMROD_ADJUDICATION: Adjudication = Adjudication {
    draw: Some((40, 8, 10)),
    resign: Some((4, 800)),
    max_plies: 400,
};

/// Every game, in the order `uci` lists them.
pub const GAMES: [GameEntry; 6] = [
    entry::<nimrod::Nimrod>(
        "nimrod",
        SearchKind::AlphaBeta,
        NIMROD_ADJUDICATION,
        &xb::NIMROD,
    ),
    entry::<nimrod::NimrodCorner>(
        "nimrod",
        SearchKind::AlphaBeta,
        NIMROD_ADJUDICATION,
        &xb::NIMROD_CORNER,
    ),
    entry::<nimrod::DragonNimrod>(
        "nimrod",
        SearchKind::AlphaBeta,
        NIMROD_ADJUDICATION,
        &xb::DRAGON_NIMROD,
    ),
    entry::<nimrod::DragonNimrodCorner>(
        "nimrod",
        SearchKind::AlphaBeta,
        NIMROD_ADJUDICATION,
        &xb::DRAGON_NIMROD_CORNER,
    ),
    entry::<vyremorn::Vyremorn>(
        "vyremorn",
        SearchKind::AlphaBeta,
        Adjudication {
            draw: Some((60, 10, 10)),
            resign: Some((4, 1000)),
            max_plies: 600,
        },
        &xb::VYREMORN,
    ),
    // No draws in Nemoroth's rules and long compulsion fights: only a
    // resignation and a long cap.
    entry::<nemoroth::Nemoroth>(
        "nemoroth",
        SearchKind::AlphaBeta,
        Adjudication {
            draw: None,
            resign: Some((5, 2000)),
            max_plies: 600,
        },
        &xb::NEMOROTH,
    ),
];

/// Every variant name, in the order of [`GAMES`].
pub const NAMES: [&str; GAMES.len()] = {
    let mut names = [""; GAMES.len()];
    let mut i = 0;
    while i < GAMES.len() {
        names[i] = GAMES[i].name;
        i += 1;
    }
    names
};

/// The entry of variant `name` (exact, lower case).
pub fn find(name: &str) -> Option<&'static GameEntry> {
    GAMES.iter().find(|g| g.name == name)
}

/// The error for a variant name that is not in the registry.
pub fn unknown(name: &str) -> String {
    format!(
        "unknown variant '{name}'; known variants: {}",
        NAMES.join(", ")
    )
}

/// The entry of variant `name`, or an error naming the known variants.
pub fn get(name: &str) -> Result<&'static GameEntry, String> {
    find(name).ok_or_else(|| unknown(name))
}

/// A new game of variant `name` at its start position.
pub fn new_session(name: &str) -> Result<Box<dyn Session>, String> {
    Ok((get(name)?.new_session)())
}

#[cfg(test)]
mod tests {
    use super::*;

    const ROOT: &str = env!("CARGO_MANIFEST_DIR");

    /// Every game has its compiled-in weights, a bench line, an openings
    /// file and an XBoard presentation of its own board size, and its
    /// entry builds the game it names.
    #[test]
    fn every_game_has_its_files_and_entries() {
        let bench = std::fs::read_to_string(format!("{ROOT}/positions/bench.txt")).unwrap();
        for g in &GAMES {
            let params = format!("{ROOT}/tuning/{}.params", g.params);
            assert!(std::path::Path::new(&params).is_file(), "{params}");
            let openings = format!("{ROOT}/positions/{}.openings", g.name);
            assert!(std::path::Path::new(&openings).is_file(), "{openings}");
            assert!(
                bench
                    .lines()
                    .any(|l| l.split_whitespace().next() == Some(g.name)),
                "no bench line for {}",
                g.name
            );
            let session = (g.new_session)();
            assert_eq!(session.variant(), g.name);
            assert_eq!(
                (g.xboard.files, g.xboard.ranks),
                (session.files(), session.ranks())
            );
            let engine = (g.new_engine)(Settings::default()).unwrap();
            assert_eq!(engine.session().variant(), g.name);
        }
        let mut names = NAMES.to_vec();
        names.dedup();
        assert_eq!(names.len(), GAMES.len(), "duplicate names");
        assert!(find(DEFAULT_VARIANT).is_some());
        assert!(
            get("chess")
                .err()
                .unwrap()
                .contains("known variants: nimrod,")
        );
    }
}
