//! The MCP client configurations shipped in `packaging/`: each starts the shim with the socket, locally
//! or over SSH.

use super::*;

/// The MCP server entry at `pointer` of the shipped client config
/// packaging/clients/`file`.
fn client_server(file: &str, pointer: &str) -> Value {
    let path = root().join("packaging/clients").join(file);
    let json: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap())
        .unwrap_or_else(|e| panic!("{file}: {e}"));
    json.pointer(pointer)
        .unwrap_or_else(|| panic!("{file}: no {pointer}"))
        .clone()
}

#[test]
fn client_configs_start_the_shim_with_socket() {
    let cases = [
        ("claude_desktop_config.json", "/mcpServers/ombi"),
        (".mcp.json", "/mcpServers/ombi"),
        (".vscode/mcp.json", "/servers/ombi"),
    ];
    for (file, pointer) in cases {
        let server = client_server(file, pointer);
        assert_eq!(server["command"], "ombi-mcp", "{file}");
        assert_eq!(
            server["args"],
            json!(["--socket", "/run/ombi-mcp/mcp.sock"]),
            "{file}"
        );
        if file != "claude_desktop_config.json" {
            assert_eq!(server["type"], "stdio", "{file}");
        }
    }
    let inspector = std::fs::read_to_string(root().join("packaging/clients/inspector.sh")).unwrap();
    assert!(inspector.contains("--cli ombi-mcp --socket"));
}

#[test]
fn ssh_client_configs_run_the_shim_on_the_server() {
    for (file, pointer) in [
        ("ssh/claude_desktop_config.json", "/mcpServers/ombi"),
        ("ssh/.mcp.json", "/mcpServers/ombi"),
        ("ssh/.vscode/mcp.json", "/servers/ombi"),
    ] {
        let server = client_server(file, pointer);
        assert_eq!(server["command"], "ssh", "{file}");
        assert_eq!(
            server["args"],
            json!(["-T", "server", "ombi-mcp"]),
            "{file}"
        );
        if file != "ssh/claude_desktop_config.json" {
            assert_eq!(server["type"], "stdio", "{file}");
        }
    }
    let ssh_config =
        std::fs::read_to_string(root().join("packaging/clients/ssh/ssh_config")).unwrap();
    assert!(ssh_config.contains("Host server") && ssh_config.contains("BatchMode yes"));
    assert!(
        ssh_config.contains("IdentityFile ~/.ssh/ombi-mcp")
            && ssh_config.contains("IdentitiesOnly yes"),
        "the client uses a key of its own, the one authorized for the shim only"
    );
    for doc in ["docs/install-nixos.md", "packaging/clients/README.md"] {
        let text = std::fs::read_to_string(root().join(doc)).unwrap();
        assert!(
            text.contains(r#""args": ["-T", "server", "ombi-mcp"]"#),
            "{doc} documents the SSH bridge"
        );
        // The key is authorized for the shim alone (tests/ssh_bridge.rs uses the shipped line).
        assert!(
            text.contains(r#"restrict,command="ombi-mcp" ssh-ed25519 "#)
                && (text.contains("packaging/clients/ssh/authorized_keys")
                    || text.contains("`authorized_keys`")),
            "{doc} shows the restricted authorized_keys entry"
        );
    }
}
