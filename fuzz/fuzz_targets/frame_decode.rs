//! Frame reading: bytes in arbitrary chunks through the line splitter, each
//! line through `decode`; every error reply must be one line of JSON-RPC
//! with an `id` member.
#![no_main]

use libfuzzer_sys::fuzz_target;
use ombi_mcp::transport::frame::{Frame, LineSplitter, Split, decode};

fuzz_target!(|data: &[u8]| {
    let Some((&head, rest)) = data.split_first() else {
        return;
    };
    // The first byte picks the cap and the chunk size.
    let max = 1 + usize::from(head) * 4;
    let chunk = 1 + usize::from(head % 17);
    let mut s = LineSplitter::new(max);
    for piece in rest.chunks(chunk) {
        let mut buf = piece;
        while !buf.is_empty() {
            let (used, event) = s.feed(buf);
            assert!(used > 0 && used <= buf.len());
            if event == Some(Split::Line) {
                assert!(s.line().len() <= max && !s.line().contains(&b'\n'));
                if let Frame::Reply(r) = decode(s.line()) {
                    let line = r.to_line();
                    let v: serde_json::Value = serde_json::from_slice(&line).expect("a JSON reply");
                    assert!(v.as_object().is_some_and(|o| o.contains_key("id")));
                }
            }
            buf = &buf[used..];
        }
    }
    // And the whole input as one line.
    let _ = decode(rest);
});
