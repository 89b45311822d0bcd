//! Any bytes as a game file: parsing and (when it parses) validation
//! against the shipped scripts must not panic.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(src) = std::str::from_utf8(data) {
        let _ = tabula::definition::source::parse_source(std::path::Path::new("fuzz.yaml"), src);
    }
});
