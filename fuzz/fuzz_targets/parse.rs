//! The parser alone (`solve::parse`, the library's entry to it): any bytes
//! must give an AST or a diagnostic, never a panic.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        let _ = cspi::solve::parse(cspi::solve::ModelSource::text("fuzz.csp", text));
    }
});
