//! The one integration-test binary of `intent-query`; topics are modules.

mod test_export;
mod test_intents;
mod test_search;

/// A test file that no `mod` line names is never compiled, so its tests silently
/// never run.
#[test]
fn every_test_file_is_registered() {
    let here = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests");
    let main = std::fs::read_to_string(here.join("tests.rs")).unwrap();
    for entry in std::fs::read_dir(&here).unwrap() {
        let name = entry.unwrap().file_name().into_string().unwrap();
        if let Some(module) = name.strip_suffix(".rs") {
            if module != "tests" {
                assert!(
                    main.contains(&format!("mod {module};")),
                    "tests/{name} is not registered in tests/tests.rs"
                );
            }
        }
    }
}
