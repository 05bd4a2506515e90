//! Argument validation: any JSON object as the arguments of any tool either
//! validates or fails with INVALID_ARGUMENT naming a field.
#![no_main]

use libfuzzer_sys::fuzz_target;
use ombi_mcp::contract::ErrorCode;
use ombi_mcp::tools::TOOLS;

fuzz_target!(|data: &[u8]| {
    let Some((&head, rest)) = data.split_first() else {
        return;
    };
    let def = &TOOLS[usize::from(head) % TOOLS.len()].def;
    let Ok(serde_json::Value::Object(args)) = serde_json::from_slice(rest) else {
        return;
    };
    if let Err(e) = def.validate(Some(&args)) {
        assert_eq!(e.code, ErrorCode::InvalidArgument, "{} {e:?}", def.name);
        assert!(e.field.as_deref().is_some_and(|f| f.starts_with('/')), "{} {e:?}", def.name);
    }
});
