//! Layer 5, text: what people read and type. Moves parsed from text
//! (parse.rs), events phrased as sentences (phrase.rs), a state rendered for
//! a viewer (view.rs).

pub mod cards;
pub mod grid;
mod parse;
pub mod phrase;
mod rules;
pub mod view;

pub use parse::{clip, label, option_label};
pub use phrase::phrase;
pub use rules::rules_text;
