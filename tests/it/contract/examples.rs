//! Each tool's example calls (`Tool::examples`, in the tool's own file) are
//! its first tests: every one answers as it says (`ok` or not) against a
//! fresh sample Ombi, through the one call path and the checks every result
//! is held to (`Rig::call`: outputSchema, text copy, budget, no secret).

use ombi_mcp::tools::TOOLS;

use crate::support::examples::filled;
use crate::support::fake_ombi::Options;
use crate::support::rig::Rig;

#[tokio::test]
async fn every_example_answers_as_it_says() {
    let mut wrong = Vec::new();
    for t in TOOLS {
        for (text, ok) in t.examples {
            let rig = Rig::start_with(Options::default(), Some("alice")).await;
            let args = filled(&rig, text).await;
            let env = rig.call(t.def.name, args).await;
            if env["ok"] != *ok {
                wrong.push(format!("{} {text}: {env}", t.def.name));
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "examples that answer otherwise: {wrong:#?}"
    );
}
