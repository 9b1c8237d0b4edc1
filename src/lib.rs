//! ghast: an engine for Nimrod Chess, Vyrémorn Chess and The Game of Nemoroth.
//!
//! Layers, from the bottom:
//! - [`game`]: the [`game::Game`] trait every variant implements and that
//!   everything above is generic over;
//! - [`params_file`]: the evaluation-weights file format, shared by every
//!   evaluator;
//! - [`variants`]: the rules of each game, and the one place where a variant
//!   name is turned into a concrete type ([`variants::new_session`]);
//! - [`perft`]: move-generation counts, generic over the trait;
//! - [`search`]: alpha-beta with a shared transposition table, generic over
//!   the trait;
//! - [`protocol`]: the UCI-dialect loop, an adapter around a
//!   [`variants::Session`];
//! - [`tournament`]: `ghast match`, games refereed by the rules library;
//! - [`tune`]: self-play data generation and the Texel tuner.

pub mod bitboard;
pub mod board_view;
pub mod game;
pub mod params_file;
pub mod perft;
pub mod protocol;
pub mod search;
pub mod tournament;
pub mod tune;
pub mod variants;
