//! ghast: an engine for Nimrod Chess, Vyrémorn Chess and The Game of Nemoroth.
//!
//! Layers, from the bottom:
//! - [`game`]: the [`game::Game`] trait every variant implements and that
//!   everything above is generic over;
//! - [`params_file`]: the evaluation-weights file format, shared by every
//!   evaluator;
//! - [`variants`]: the rules of each game (they know nothing above them);
//! - [`perft`]: move-generation counts, generic over the trait;
//! - [`search`]: alpha-beta with a shared transposition table, and MCTS,
//!   generic over the trait (it names no game and no protocol);
//! - [`engine`]: the one layer every front end talks to: a typed engine per
//!   game behind an object-safe handle, and the option table;
//! - [`registry`]: the one place where a variant name becomes a type;
//! - [`protocol`]: the UCI-dialect and CECP loops, adapters around an
//!   [`engine::Engine`];
//! - [`tournament`]: `ghast match`, games refereed by the rules library;
//! - [`tune`]: self-play data generation and the Texel tuner;
//! - [`commands`]: `ghast bench`, `analyse` and `perft`;
//! - [`web`]: `ghast serve`, the web board, an adapter like the protocols.

pub mod bitboard;
pub mod board_view;
pub mod commands;
pub mod engine;
pub mod game;
pub mod params_file;
pub mod perft;
pub mod pgn;
pub mod protocol;
pub mod registry;
pub mod search;
pub mod tournament;
pub mod tune;
pub mod variants;
pub mod web;
