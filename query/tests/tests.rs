//! The one integration-test binary of `intent-query`; topics are modules.

mod test_export;
mod test_intents;
mod test_search;
