#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| tackle_fuzz::gemini_schema(data));
