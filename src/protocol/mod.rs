//! Text protocols around the engine. The protocol is an adapter: it parses
//! lines, calls a [`Session`](crate::variants::Session) and prints replies;
//! the rules and the search never know which protocol is talking.

pub mod uci;

pub use uci::Uci;
