//! The games: the rules of each, behind the [`Game`](crate::game::Game)
//! trait. Nothing here knows the search, the engine or the protocols; the
//! variant names become types in [`crate::registry`].

pub mod nemoroth;
pub mod nimrod;
pub mod vyremorn;
