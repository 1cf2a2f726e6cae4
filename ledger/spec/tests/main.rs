//! The one integration-test binary of `intent-spec`; topics are modules.

mod edit;
mod specs;
