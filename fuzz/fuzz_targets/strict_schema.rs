#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| tackle_fuzz::strict_schema(data));
