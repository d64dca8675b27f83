#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| tackle_fuzz::bedrock_stream(data));
