//! One module per subcommand: its arguments and its `run`.

pub mod accept;
pub mod append;
pub mod attest;
pub mod bench;
pub mod classify;
pub mod confine;
pub mod demo;
pub mod doctor;
mod doctor_languages;
pub mod export;
pub mod helper;
pub mod hook;
pub mod init;
pub mod lessons;
pub mod log;
pub mod mcp;
pub mod rebuild;
mod repair;
pub mod review;
pub mod search;
pub mod select;
pub mod show;
pub mod status;
pub mod sync;
pub mod validate;
pub mod verify;
pub mod why;
