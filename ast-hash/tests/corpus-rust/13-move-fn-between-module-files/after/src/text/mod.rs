//! Text helpers for terminal output. The submodules are private; everything
//! public is re-exported from here, so callers write `crate::text::wrap`.

mod trim;
mod wrap;

pub use self::trim::*;
pub use self::wrap::*;
