# NixOS VM test (checks.<system>.vm): the module end to end, with a stub Ombi (stub-ombi.py)
# and a real MCP session through the shim (mcp-call.py).
#   machine: jwt over HTTP. The service is started by the first client (socket activation);
#            alice (socket group + policy) completes read_server status; exactly one login carried
#            the configured password; mallory is refused by the policy, eve by the socket's mode;
#            the password stays out of the daemon's environment and journal.
#   apikey:  api_key over HTTPS with a test CA (security.pki.certificateFiles), a group peer with
#            ombiUser: the stub sees the API key and the peer's UserName; the key stays out of
#            the journal.
# Run: nix build .#checks.x86_64-linux.vm -L  (needs KVM to be quick). tests/it/packaging/nixos.rs
# evaluates this file without nixpkgs (eval-vm.nix) and checks the test script's syntax.
{ pkgs }:

let
  inherit (pkgs) lib;

  # The secrets. In the VM they live outside the store (tmpfiles writes them root-only, as
  # agenix or sops-nix would); here, in the test's own source, they are test data.
  password = "vm-test-password-4c1d9e";
  apiKey = "0123456789abcdef0123456789abcdef";

  # A CA and a certificate for ombi.test signed by it.
  tls = pkgs.runCommand "ombi-mcp-test-tls" {
    nativeBuildInputs = [ pkgs.openssl ];
  } "sh ${./make-test-ca.sh} $out ombi.test";

  # The stub Ombi as a service; its secret arrives like the daemon's, by LoadCredential.
  stubOmbi = port: credential: extraArgs: {
    wantedBy = [ "multi-user.target" ];
    serviceConfig = {
      ExecStart = lib.escapeShellArgs (
        [
          "${pkgs.python3}/bin/python3"
          "${./stub-ombi.py}"
          "--port"
          (toString port)
          "--log"
          "/var/lib/stub-ombi/requests.jsonl"
        ]
        ++ extraArgs
      );
      DynamicUser = true;
      StateDirectory = "stub-ombi";
      LoadCredential = [ credential ];
    };
  };

  secretFiles = name: value: [
    "d /var/lib/ombi-secrets 0700 root root -"
    "f /var/lib/ombi-secrets/${name} 0600 root root - ${value}"
  ];

  # initialize, notifications/initialized, tools/call read_server {"action":"status"} through the
  # shim on PATH; prints the call's reply.
  callStatus = pkgs.writeShellScript "mcp-call-status" ''
    exec timeout 120 ${pkgs.python3}/bin/python3 ${./mcp-call.py} \
      read_server '{"action":"status"}' ombi-mcp
  '';

  # One initialize line, readable by every test user.
  initLine = pkgs.writeText "init.jsonl" (
    builtins.toJSON {
      jsonrpc = "2.0";
      id = 1;
      method = "initialize";
      params = {
        protocolVersion = "2025-11-25";
        capabilities = { };
        clientInfo = {
          name = "nixos-vm-test";
          version = "0";
        };
      };
    }
    + "\n"
  );
in
pkgs.testers.runNixOSTest {
  name = "ombi-mcp";

  nodes.machine =
    { ... }:
    {
      imports = [ ../module.nix ];

      systemd.services.stub-ombi = stubOmbi 5000 "password:/var/lib/ombi-secrets/password" [
        "--username"
        "mcp"
        "--password-file"
        "%d/password"
      ];
      systemd.tmpfiles.rules = secretFiles "password" password;

      services.ombi-mcp = {
        enable = true;
        url = "http://127.0.0.1:5000";
        authMode = "jwt";
        username = "mcp";
        passwordFile = "/var/lib/ombi-secrets/password";
        peers = [
          {
            user = "alice";
            bundles = [ "core" ];
          }
        ];
      };

      users.users = {
        # Allowed: in the socket's group and named by the policy.
        alice = {
          isNormalUser = true;
          extraGroups = [ "ombi-mcp" ];
        };
        # Passes the socket's permissions, refused by the daemon's peer policy.
        mallory = {
          isNormalUser = true;
          extraGroups = [ "ombi-mcp" ];
        };
        # Not in the socket's group: the kernel refuses the connection.
        eve.isNormalUser = true;
      };
    };

  nodes.apikey =
    { ... }:
    {
      imports = [ ../module.nix ];

      networking.hosts."127.0.0.1" = [ "ombi.test" ];
      security.pki.certificateFiles = [ "${tls}/ca.crt" ];

      systemd.services.stub-ombi = stubOmbi 5443 "api-key:/var/lib/ombi-secrets/api-key" [
        "--api-key-file"
        "%d/api-key"
        "--cert"
        "${tls}/server.crt"
        "--key"
        "${tls}/server.key"
      ];
      systemd.tmpfiles.rules = secretFiles "api-key" apiKey;

      services.ombi-mcp = {
        enable = true;
        url = "https://ombi.test:5443";
        authMode = "api_key";
        apiKeyFile = "/var/lib/ombi-secrets/api-key";
        peers = [
          {
            group = "ombi-mcp";
            ombiUser = "alice-in-ombi";
          }
        ];
      };

      users.users.alice = {
        isNormalUser = true;
        extraGroups = [ "ombi-mcp" ];
      };
    };

  testScript = ''
    import json

    def stub_log(node):
        return [json.loads(line) for line in node.succeed("cat /var/lib/stub-ombi/requests.jsonl").splitlines()]

    def call_status(node, user):
        out = node.succeed(f"su -l {user} -c ${callStatus}")
        reply = json.loads(out)
        assert reply["result"]["structuredContent"]["ok"] is True, out
        return reply

    start_all()

    machine.wait_for_unit("stub-ombi.service")
    machine.wait_for_open_port(5000)
    machine.wait_for_unit("ombi-mcp.socket")

    with subtest("socket is owned by systemd, 0660 root:ombi-mcp; the service waits for a client"):
        machine.succeed("test -S /run/ombi-mcp/mcp.sock")
        machine.succeed("test \"$(stat -c '%a %U %G' /run/ombi-mcp/mcp.sock)\" = '660 root ombi-mcp'")
        machine.succeed("test \"$(stat -c '%a %U' /run/ombi-mcp)\" = '755 root'")
        state = machine.succeed("systemctl show -p ActiveState --value ombi-mcp.service").strip()
        assert state == "inactive", f"ombi-mcp.service is {state} before any client"

    with subtest("hardening: exposure at most 1.5"):
        print(machine.succeed("systemd-analyze security --threshold=15 ombi-mcp.service | tail -n 1"))

    with subtest("alice completes a tool call through the shim; the first client starts the service"):
        call_status(machine, "alice")
        machine.wait_for_unit("ombi-mcp.service")

    with subtest("exactly one login, carrying the configured user and password"):
        log = stub_log(machine)
        logins = [r for r in log if r["path"] == "/api/v1/Token"]
        assert len(logins) == 1 and logins[0]["login_ok"] is True, log
        status_calls = [r for r in log if r["path"].startswith("/api/v1/Status")]
        assert len(status_calls) == 3 and all(r["bearer"] for r in status_calls), log

    with subtest("the password never reaches the daemon's environment or journal"):
        pid = machine.succeed("systemctl show -p MainPID --value ombi-mcp.service").strip()
        machine.fail(f"tr '\\0' '\\n' < /proc/{pid}/environ | grep -qF '${password}'")
        machine.succeed(f"tr '\\0' '\\n' < /proc/{pid}/environ | grep -qx OMBI_USERNAME=mcp")
        machine.succeed("journalctl -u ombi-mcp.service | grep -q .")
        machine.fail("journalctl -u ombi-mcp.service | grep -qF '${password}'")

    with subtest("user refused by the peer policy: exit 77, nothing on stdout"):
        status, out = machine.execute("su -l mallory -c 'timeout 60 ombi-mcp' < ${initLine} 2>/tmp/mallory.err")
        assert status == 77, f"exit {status}, stdout {out!r}"
        assert out == "", out
        print(machine.succeed("cat /tmp/mallory.err"))

    with subtest("user outside the socket's group: exit 77"):
        status, out = machine.execute("su -l eve -c 'timeout 60 ombi-mcp' < ${initLine}")
        assert status == 77, f"exit {status}, stdout {out!r}"

    with subtest("stopping the service keeps the socket; the next client starts it again"):
        machine.succeed("systemctl stop ombi-mcp.service")
        machine.succeed("test -S /run/ombi-mcp/mcp.sock")
        call_status(machine, "alice")

    apikey.wait_for_unit("stub-ombi.service")
    apikey.wait_for_open_port(5443)
    apikey.wait_for_unit("ombi-mcp.socket")

    with subtest("api_key over HTTPS (test CA): the stub sees the key and the peer's UserName"):
        call_status(apikey, "alice")
        log = stub_log(apikey)
        status_calls = [r for r in log if r["path"].startswith("/api/v1/Status")]
        assert len(status_calls) == 3, log
        for r in status_calls:
            assert r["api_key_ok"] is True and r["user_name"] == "alice-in-ombi", log
        assert not [r for r in log if r["path"] == "/api/v1/Token"], log

    with subtest("the API key never reaches the journal"):
        apikey.succeed("journalctl -u ombi-mcp.service | grep -q .")
        apikey.fail("journalctl -u ombi-mcp.service | grep -qF '${apiKey}'")
  '';
}
