//! The NixOS module (`nixos/module.nix`) evaluated with nixpkgs' `lib` alone: what it renders, what it
//! asserts and warns, and the VM test's evaluation.

use super::*;

#[test]
fn nixos_module_renders_units_and_asserts() {
    let Some((nix, lib_dir)) = nix_with_lib() else {
        return;
    };

    let v = eval_module(&nix, &lib_dir, "api_key");
    assert_eq!(v["failedAssertions"], json!([]));
    let socket = &v["socket"];
    assert_eq!(socket["listenStreams"], json!(["/run/ombi/mcp.sock"]));
    assert_eq!(socket["wantedBy"], json!(["sockets.target"]));
    for (key, want) in [
        ("FileDescriptorName", "mcp"),
        ("SocketMode", "0660"),
        ("SocketGroup", "media"),
        ("DirectoryMode", "0755"),
    ] {
        assert_eq!(socket["socketConfig"][key], want, "socketConfig.{key}");
    }
    let svc = &v["service"];
    let sc = &svc["serviceConfig"];
    assert_eq!(
        sc["LoadCredential"],
        json!(["ombi-api-key:/run/secrets/ombi-api-key"])
    );
    assert_eq!(sc["DynamicUser"], true);
    assert_eq!(sc["Type"], "notify");
    assert_eq!(sc["RestartPreventExitStatus"], 78);
    // Room for 64 sessions and 16 Ombi calls; the syscall filter forbids raising it inside.
    assert_eq!(sc["LimitNOFILE"], 8192);
    assert!(
        sc.get("PrivateUsers").is_none(),
        "PrivateUsers hides peer uids"
    );
    assert!(
        sc.get("RuntimeDirectory").is_none(),
        "would delete the socket's directory"
    );
    // The module and the packaged unit keep the same hardening set. With every option set the
    // module adds the opt-in network allow-list, which the packaged unit shows commented out.
    let module_keys: BTreeSet<String> = sc.as_object().unwrap().keys().cloned().collect();
    let unit_keys = unit_service_keys();
    let only_unit: Vec<_> = unit_keys.difference(&module_keys).collect();
    let only_module: Vec<_> = module_keys.difference(&unit_keys).collect();
    assert!(
        only_unit.is_empty(),
        "keys only in packaging/systemd/ombi-mcp.service: {only_unit:?}"
    );
    assert_eq!(
        only_module,
        ["IPAddressAllow", "IPAddressDeny"],
        "keys only in nixos/module.nix"
    );
    let unit = std::fs::read_to_string(root().join("packaging/systemd/ombi-mcp.service")).unwrap();
    assert!(
        unit.contains("\n#IPAddressDeny=any\n") && unit.contains("\n#IPAddressAllow=localhost ")
    );
    assert!(unit.contains("\nLimitNOFILE=8192\n"));

    let env = &svc["environment"];
    for (key, want) in [
        ("OMBI_URL", "https://media.example.org/ombi"),
        ("OMBI_AUTH_MODE", "api_key"),
        ("OMBI_USER_NAME", "household"),
        ("OMBI_BUNDLES", "core,moderation"),
        ("OMBI_HTTP_TIMEOUT", "45"),
        ("OMBI_CONFIRM", "require"),
        ("OMBI_CONFIRM_TIMEOUT", "30"),
        ("OMBI_POLL_INTERVAL", "15"),
        ("OMBI_LOCKDOWN", "true"),
        ("OMBI_MCP_SOCKET", "/run/ombi/mcp.sock"),
        ("RUST_LOG", "debug,rmcp=warn"),
        ("EXTRA_FLAG", "1"),
    ] {
        assert_eq!(env[key], want, "environment.{key}");
    }
    for secret_var in [
        "OMBI_PASSWORD",
        "OMBI_API_KEY",
        "OMBI_API_KEY_FILE",
        "OMBI_PASSWORD_FILE",
    ] {
        assert!(
            env.get(secret_var).is_none(),
            "{secret_var} must not be in the environment"
        );
    }
    // A fixed path, the store file behind it a reload trigger: a new policy reloads the daemon
    // on a switch instead of restarting it.
    assert_eq!(env["OMBI_MCP_POLICY"], "/etc/ombi-mcp/policy.json");
    let store = v["policyStorePath"].as_str().unwrap();
    assert!(store.ends_with("-ombi-mcp-policy.json"), "{store}");
    assert_eq!(v["service"]["reloadTriggers"], json!([store]));
    assert_eq!(
        v["service"]["serviceConfig"]["ExecReload"],
        "kill -HUP $MAINPID"
    );
    let policy: Value = serde_json::from_str(v["policyText"].as_str().unwrap()).unwrap();
    let expected = json!({"peers": [
        {"uid": 1000, "bundles": ["core", "moderation"], "read_only": false, "ombi_user": "alice"},
        {"user": "bob", "bundles": ["core"], "read_only": true, "ombi_user": "bob"},
        {"group": "ombi-mcp", "bundles": ["core"], "read_only": true}
    ]});
    assert_eq!(
        policy, expected,
        "the module renders peers as docs/configuration.md's example"
    );

    let jwt = eval_module(&nix, &lib_dir, "jwt");
    assert_eq!(jwt["failedAssertions"], json!([]));
    let jwt_sc = &jwt["service"]["serviceConfig"];
    assert_eq!(
        jwt_sc["LoadCredential"],
        json!(["ombi-password:/run/secrets/ombi-password"])
    );
    assert_eq!(jwt["service"]["environment"]["OMBI_USERNAME"], "mcp");
    // The defaults of this wave's settings, as the daemon's own.
    for (key, want) in [
        ("OMBI_CONFIRM", "ask"),
        ("OMBI_CONFIRM_TIMEOUT", "120"),
        ("OMBI_POLL_INTERVAL", "60"),
        ("OMBI_LOCKDOWN", "false"),
    ] {
        assert_eq!(jwt["service"]["environment"][key], want, "default {key}");
    }
    for key in ["EnvironmentFile", "IPAddressDeny", "IPAddressAllow"] {
        assert!(jwt_sc.get(key).is_none(), "{key} is opt-in");
    }
    assert_eq!(
        jwt["service"]["environment"]["OMBI_MCP_POLICY"],
        Value::Null
    );
    assert_eq!(jwt["socket"]["socketConfig"]["SocketGroup"], "ombi-mcp");
    assert_eq!(jwt["groups"], json!(["ombi-mcp"]));

    for (case, needle) in [
        (
            "jwt_without_password",
            "needs both username and passwordFile",
        ),
        ("api_key_without_key", "needs apiKeyFile"),
        (
            "jwt_with_ombi_user",
            "ombiUser needs authMode = \"api_key\"",
        ),
        ("two_matchers", "exactly one of uid, user, group"),
    ] {
        let v = eval_module(&nix, &lib_dir, case);
        let failed = v["failedAssertions"].as_array().unwrap();
        assert!(
            failed.len() == 1 && failed[0].as_str().unwrap().contains(needle),
            "{case}: want one failed assertion containing {needle:?}, got {failed:?}"
        );
    }
}

#[test]
fn nixos_module_keeps_secrets_out_of_the_url_and_the_store() {
    let Some((nix, lib_dir)) = nix_with_lib() else {
        return;
    };
    for (case, what) in [
        ("url_with_user_info", "user-info"),
        ("url_with_query", "a query"),
        ("url_with_fragment", "a fragment"),
    ] {
        let v = eval_module(&nix, &lib_dir, case);
        let failed = v["failedAssertions"].as_array().unwrap();
        assert_eq!(failed.len(), 1, "{case}: {failed:?}");
        let message = failed[0].as_str().unwrap();
        assert!(
            message.starts_with(&format!("services.ombi-mcp.url must not carry {what}")),
            "{case}: {message}"
        );
        assert!(
            !message.contains("hunter2-url-secret"),
            "{case}: the message repeats the secret"
        );
    }
    // The path type refuses them before any assertion: the evaluation itself fails.
    for (case, option) in [
        ("relative_secret", "passwordFile"),
        ("store_secret", "passwordFile"),
        ("store_api_key", "apiKeyFile"),
    ] {
        let stderr = eval_module_error(&nix, &lib_dir, case);
        assert!(
            stderr.contains(&format!("services.ombi-mcp.{option}"))
                && stderr.contains("absolute path not in the Nix store"),
            "{case}:\n{stderr}"
        );
    }
}

#[test]
fn nixos_module_warns_about_options_of_the_other_auth_mode() {
    let Some((nix, lib_dir)) = nix_with_lib() else {
        return;
    };
    let v = eval_module(&nix, &lib_dir, "jwt_with_api_key_options");
    assert_eq!(v["failedAssertions"], json!([]));
    assert_eq!(
        v["warnings"][0],
        "services.ombi-mcp: authMode = \"jwt\" ignores apiKeyFile and apiUserName (used only with authMode = \"api_key\")."
    );
    // Ignored indeed: neither the key nor the acting user reaches the service.
    let svc = &v["service"];
    assert_eq!(
        svc["serviceConfig"]["LoadCredential"],
        json!(["ombi-password:/run/secrets/ombi-password"])
    );
    assert!(svc["environment"].get("OMBI_USER_NAME").is_none());

    let v = eval_module(&nix, &lib_dir, "api_key_with_jwt_options");
    assert_eq!(
        v["warnings"],
        json!([
            "services.ombi-mcp: authMode = \"api_key\" ignores username (used only with authMode = \"jwt\")."
        ])
    );
    assert!(v["service"]["environment"].get("OMBI_USERNAME").is_none());
    for case in ["api_key", "peer_settings"] {
        assert_eq!(
            eval_module(&nix, &lib_dir, case)["warnings"],
            json!([]),
            "{case}"
        );
    }
}

const NO_PEER_WARNING: &str = "services.ombi-mcp.peers is empty: only root can connect, and every \
     other user's ombi-mcp exits 77. Set services.ombi-mcp.peers, e.g. [ { group = \"ombi-mcp\"; } ] \
     for the socket's group.";

/// With no peer only root passes the daemon's policy: the module says so, naming the option.
#[test]
fn nixos_module_warns_when_no_peer_is_configured() {
    let Some((nix, lib_dir)) = nix_with_lib() else {
        return;
    };
    let v = eval_module(&nix, &lib_dir, "jwt");
    assert_eq!(v["failedAssertions"], json!([]));
    assert_eq!(v["warnings"], json!([NO_PEER_WARNING]));
    let v = eval_module(&nix, &lib_dir, "jwt_with_api_key_options");
    assert_eq!(v["warnings"][1], NO_PEER_WARNING, "beside other warnings");
    // One peer is enough.
    assert_eq!(
        eval_module(&nix, &lib_dir, "peer_settings")["warnings"],
        json!([])
    );
}

/// What `--check-config` finds on the machine, the module finds where it can: a peer whose
/// bundles all lie outside `bundles` is asserted, a declared user outside the socket's group warned.
#[test]
fn nixos_module_checks_peers_like_check_config() {
    let Some((nix, lib_dir)) = nix_with_lib() else {
        return;
    };
    let v = eval_module(&nix, &lib_dir, "peer_outside_bundles");
    assert_eq!(
        v["failedAssertions"],
        json!([
            "services.ombi-mcp.peers.0 { bundles = [ \"administration\" ]; uid = 1000; }: none of its bundles is in services.ombi-mcp.bundles (core,moderation): every connection it matches would be refused."
        ])
    );
    let v = eval_module(&nix, &lib_dir, "peer_outside_socket_group");
    assert_eq!(v["failedAssertions"], json!([]));
    assert_eq!(
        v["warnings"],
        json!([
            "services.ombi-mcp.peers.0 { user = \"carol\"; }: users.users.carol is not in group ombi-mcp (services.ombi-mcp.socket.group), so the socket's mode 0660 keeps it out (its ombi-mcp exits 77). Add \"ombi-mcp\" to users.users.carol.extraGroups."
        ])
    );
}

/// confirm, confirmTimeout, pollInterval and lockdown, daemon-wide and per peer: typed (a wrong
/// value fails the evaluation, naming the option) and rendered under the daemon's names.
#[test]
fn nixos_module_types_and_renders_confirm_poll_and_lockdown() {
    let Some((nix, lib_dir)) = nix_with_lib() else {
        return;
    };
    for (case, option, type_text) in [
        (
            "bad_confirm",
            "services.ombi-mcp.confirm'",
            "one of \"ask\", \"require\", \"off\"",
        ),
        (
            "bad_confirm_timeout",
            "services.ombi-mcp.confirmTimeout'",
            "integer between 1 and 600",
        ),
        (
            "bad_poll_interval",
            "services.ombi-mcp.pollInterval'",
            "integer between 10 and 86400",
        ),
        ("bad_lockdown", "services.ombi-mcp.lockdown'", "boolean"),
        (
            "bad_peer_confirm",
            ".confirm'",
            "null or one of \"ask\", \"require\", \"off\"",
        ),
        ("bad_peer_lockdown", ".lockdown'", "null or boolean"),
    ] {
        let stderr = eval_module_error(&nix, &lib_dir, case);
        assert!(
            stderr.contains(option) && stderr.contains(&format!("is not of type `{type_text}")),
            "{case}:\n{stderr}"
        );
        if case.starts_with("bad_peer") {
            assert!(
                stderr.contains("services.ombi-mcp.peers."),
                "{case}:\n{stderr}"
            );
        }
    }
    // Per peer: set keys appear in the policy under the daemon's names; unset ones are left
    // out, so the daemon-wide setting applies.
    let v = eval_module(&nix, &lib_dir, "peer_settings");
    let policy: Value = serde_json::from_str(v["policyText"].as_str().unwrap()).unwrap();
    assert_eq!(
        policy,
        json!({"peers": [
            {"user": "alice", "confirm": "require", "lockdown": false, "read_only": false},
            {"group": "ombi-mcp", "confirm": "off", "lockdown": true, "read_only": false},
            {"uid": 1000, "read_only": false},
        ]})
    );
}

/// extraEnvironment cannot override what the module sets or checks (a URL with a password, a
/// secret, a typed setting): one failed assertion per variable, naming it and the option to
/// use, never repeating the value. Other variables pass.
#[test]
fn nixos_module_refuses_its_own_variables_in_extra_environment() {
    let Some((nix, lib_dir)) = nix_with_lib() else {
        return;
    };
    let v = eval_module(&nix, &lib_dir, "extra_environment_owned");
    let failed: Vec<&str> = v["failedAssertions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap())
        .collect();
    assert_eq!(
        failed,
        [
            "services.ombi-mcp.extraEnvironment.OMBI_API_KEY: the module sets it from \
             services.ombi-mcp.apiKeyFile (a credential, never the world-readable store); set \
             that option instead.",
            "services.ombi-mcp.extraEnvironment.OMBI_CONFIRM: the module sets it from \
             services.ombi-mcp.confirm (typed and checked there); set that option instead.",
            "services.ombi-mcp.extraEnvironment.OMBI_URL: the module sets it from \
             services.ombi-mcp.url (typed and checked there); set that option instead.",
            "services.ombi-mcp.extraEnvironment.RUST_LOG: the module sets it from \
             services.ombi-mcp.logLevel (typed and checked there); set that option instead.",
        ]
    );
    assert!(failed.iter().all(|m| !m.contains("hunter2-env-secret")));
    assert_eq!(v["service"]["environment"]["OMBI_MCP_INIT_TIMEOUT"], "10");
    // Every variable the module renders is one it owns, so none can be overridden unasserted.
    let module = std::fs::read_to_string(root().join("nixos/module.nix")).unwrap();
    let api_key = eval_module(&nix, &lib_dir, "api_key");
    for key in api_key["service"]["environment"]
        .as_object()
        .unwrap()
        .keys()
    {
        if key != "EXTRA_FLAG" {
            assert!(
                module.contains(&format!("    {key} = \"")),
                "{key} is rendered but not in ownedVariables"
            );
        }
    }
}

/// environmentFile (sops/agenix templates) becomes EnvironmentFile=, outside the store only;
/// the plain secret variables are unset whatever their source, in the module and the packaged
/// unit alike.
#[test]
fn nixos_module_environment_file_never_carries_secrets() {
    let Some((nix, lib_dir)) = nix_with_lib() else {
        return;
    };
    let v = eval_module(&nix, &lib_dir, "api_key");
    let sc = &v["service"]["serviceConfig"];
    assert_eq!(sc["EnvironmentFile"], "/run/secrets/rendered/ombi-mcp.env");
    assert_eq!(
        sc["UnsetEnvironment"],
        json!(["OMBI_PASSWORD", "OMBI_API_KEY"])
    );
    let unit = std::fs::read_to_string(root().join("packaging/systemd/ombi-mcp.service")).unwrap();
    assert!(unit.contains("\nUnsetEnvironment=OMBI_PASSWORD OMBI_API_KEY\n"));
    let stderr = eval_module_error(&nix, &lib_dir, "store_environment_file");
    assert!(
        stderr.contains("services.ombi-mcp.environmentFile")
            && stderr.contains("absolute path not in the Nix store"),
        "{stderr}"
    );
}

/// restrictNetwork: off by default; on, IPAddressDeny=any with loopback and the admin's Ombi
/// addresses allowed; addresses only (a host name fails the type); without addresses only a
/// loopback URL passes.
#[test]
fn nixos_module_restricts_the_network_on_request() {
    let Some((nix, lib_dir)) = nix_with_lib() else {
        return;
    };
    let v = eval_module(&nix, &lib_dir, "api_key");
    let sc = &v["service"]["serviceConfig"];
    assert_eq!(sc["IPAddressDeny"], "any");
    assert_eq!(
        sc["IPAddressAllow"],
        json!(["localhost", "192.168.1.20", "fd00::20/128"])
    );
    let v = eval_module(&nix, &lib_dir, "restrict_loopback");
    assert_eq!(v["failedAssertions"], json!([]));
    assert_eq!(
        v["service"]["serviceConfig"]["IPAddressAllow"],
        json!(["localhost"])
    );
    let v = eval_module(&nix, &lib_dir, "restrict_without_addresses");
    assert_eq!(
        v["failedAssertions"],
        json!([
            "services.ombi-mcp.restrictNetwork.ombiAddresses is empty, but url names a host other \
             than loopback: with restrictNetwork.enable the daemon could not reach Ombi. List the \
             Ombi host's IP addresses."
        ])
    );
    let stderr = eval_module_error(&nix, &lib_dir, "restrict_by_host_name");
    assert!(
        stderr.contains("services.ombi-mcp.restrictNetwork.ombiAddresses"),
        "{stderr}"
    );
}

/// A socket.path other than the shim's default reaches the shim: the module puts a wrapper
/// named ombi-mcp ahead of the package's on PATH. Run here with the built shim against absent
/// sockets: it tries the module's path, a caller's OMBI_MCP_SOCKET or --socket still win. At
/// the default path no wrapper is installed.
#[test]
fn nixos_module_socket_path_reaches_the_shim() {
    let Some((nix, lib_dir)) = nix_with_lib() else {
        return;
    };
    let v = eval_module(&nix, &lib_dir, "api_key");
    let packages = v["systemPackages"].as_array().unwrap();
    assert_eq!(packages.len(), 2, "{packages:?}");
    let wrapper = &packages[1];
    assert_eq!(wrapper["name"], "ombi-mcp");
    assert!(
        wrapper["priority"].as_i64().unwrap() < 0,
        "the wrapper wins over the package's bin/ombi-mcp: {wrapper}"
    );
    let package_shim = "/nix/store/00000000000000000000000000000000-ombi-mcp-0.1.0/bin/ombi-mcp";
    let script = wrapper["text"].as_str().unwrap();
    assert!(script.contains(package_shim), "{script}");
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("ombi-mcp");
    std::fs::write(
        &path,
        script.replace(package_shim, env!("CARGO_BIN_EXE_ombi-mcp")),
    )
    .unwrap();
    let tried = |env: Option<&str>, args: &[&str]| -> String {
        let mut cmd = Command::new("sh");
        cmd.arg(&path)
            .args(args)
            .env_remove("OMBI_MCP_SOCKET")
            .stdin(std::process::Stdio::null());
        if let Some(socket) = env {
            cmd.env("OMBI_MCP_SOCKET", socket);
        }
        let out = run(&mut cmd);
        assert_eq!(out.status.code(), Some(69), "{}", text(&out.stderr));
        text(&out.stderr)
    };
    assert!(
        tried(None, &[]).contains("/run/ombi/mcp.sock"),
        "the wrapper's default is socket.path"
    );
    let own = dir.path().join("own.sock").display().to_string();
    assert!(
        tried(Some(&own), &[]).contains(&own),
        "OMBI_MCP_SOCKET wins"
    );
    let flag = dir.path().join("flag.sock").display().to_string();
    assert!(
        tried(Some(&own), &["--socket", &flag]).contains(&flag),
        "--socket wins"
    );

    let jwt = eval_module(&nix, &lib_dir, "jwt");
    assert_eq!(
        jwt["systemPackages"],
        json!([{"name": "ombi-mcp-0.1.0", "priority": null, "text": null}]),
        "the default path needs no wrapper"
    );
}

#[test]
fn nixos_module_names_a_peer_entry_without_matcher() {
    let Some((nix, lib_dir)) = nix_with_lib() else {
        return;
    };
    let v = eval_module(&nix, &lib_dir, "no_matcher");
    let failed = v["failedAssertions"].as_array().unwrap();
    assert_eq!(
        failed,
        &[json!(
            "services.ombi-mcp.peers.1 { bundles = [ \"core\" ]; ombiUser = \"household\"; }: set exactly one of uid, user, group."
        )]
    );
}

/// The VM test (nixos/tests/vm.nix) evaluates: its nodes pass the module's checks without a
/// warning, render the two set-ups it tests, and its Python parts compile.
#[test]
fn vm_test_evaluates_and_its_python_compiles() {
    let Some((nix, lib_dir)) = nix_with_lib() else {
        return;
    };
    // --readonly-mode: the test's own files get store paths without being copied.
    let out = run(Command::new(&nix)
        .current_dir(root())
        .args([
            "--eval",
            "--strict",
            "--json",
            "--readonly-mode",
            "nixos/tests/eval-vm.nix",
        ])
        .args(["--arg", "lib", &format!("import {lib_dir}")]));
    assert!(out.status.success(), "{}", text(&out.stderr));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    let nodes = v["nodes"].as_object().unwrap();
    assert_eq!(
        nodes.keys().collect::<Vec<_>>(),
        ["apikey", "machine"],
        "the VM test's nodes"
    );
    for (name, node) in nodes {
        assert_eq!(node["failedAssertions"], json!([]), "{name}");
        assert_eq!(node["warnings"], json!([]), "{name}");
    }
    let env = |node: &str, key: &str| nodes[node]["service"]["environment"][key].clone();
    assert_eq!(env("machine", "OMBI_AUTH_MODE"), "jwt");
    assert_eq!(env("apikey", "OMBI_AUTH_MODE"), "api_key");
    assert!(
        env("apikey", "OMBI_URL")
            .as_str()
            .unwrap()
            .starts_with("https://")
    );

    let Some(python) = require_tool("python3", "python3") else {
        return;
    };
    let script = v["testScript"].as_str().unwrap();
    let mut child = Command::new(&python)
        .args([
            "-c",
            "import sys; compile(sys.stdin.read(), 'testScript', 'exec')",
        ])
        .stdin(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write;
    child
        .stdin
        .take()
        .unwrap()
        .write_all(script.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "testScript:\n{}", text(&out.stderr));
    for file in ["stub-ombi.py", "mcp-call.py"] {
        let path = root().join("nixos/tests").join(file);
        let out = run(Command::new(&python).args([
            "-c",
            "import sys; compile(open(sys.argv[1]).read(), sys.argv[1], 'exec')",
            path.to_str().unwrap(),
        ]));
        assert!(out.status.success(), "{file}:\n{}", text(&out.stderr));
    }
}
