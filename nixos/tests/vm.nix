# NixOS VM test: the module with a stub Ombi, an allowed user and two refused ones.
# Run: nix build .#checks.x86_64-linux.vm -L  (needs KVM for speed).
{ pkgs }:

let
  # Just enough of Ombi's API for a JWT login and a status probe (shapes: shared/ombi/auth.md).
  stubOmbi = pkgs.writeText "stub-ombi.py" ''
    import json
    from http.server import BaseHTTPRequestHandler, HTTPServer

    class Ombi(BaseHTTPRequestHandler):
        def reply(self, code, body):
            data = json.dumps(body).encode()
            self.send_response(code)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def do_POST(self):
            length = int(self.headers.get("Content-Length", "0"))
            body = json.loads(self.rfile.read(length) or b"{}")
            if self.path == "/api/v1/Token":
                if body.get("username") == "mcp" and body.get("password") == "stub-password":
                    self.reply(200, {"access_token": "aGVhZGVy.cGF5bG9hZA.c2ln", "expiration": "2099-01-01T00:00:00Z"})
                else:
                    self.send_response(401)
                    self.send_header("Content-Length", "0")
                    self.end_headers()
            else:
                self.reply(404, {})

        def do_GET(self):
            if self.path == "/api/v1/Status":
                self.reply(200, 200)
            elif self.path == "/api/v1/Status/info":
                self.reply(200, "4.47.1")
            elif self.path == "/api/v1/Identity":
                self.reply(200, {"id": "0b7f6a52-4d0a-4e07-9d7c-2f4e7c1f3b11", "userName": "mcp", "alias": "", "claims": []})
            else:
                self.reply(404, {})

    HTTPServer(("127.0.0.1", 5000), Ombi).serve_forever()
  '';

  # One MCP request line, readable by every test user.
  initLine = pkgs.writeText "init.jsonl" (initialize + "\n");
  initialize = builtins.toJSON {
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
  };
in
pkgs.testers.runNixOSTest {
  name = "ombi-mcp";

  nodes.machine =
    { ... }:
    {
      imports = [ ../module.nix ];

      systemd.services.stub-ombi = {
        wantedBy = [ "multi-user.target" ];
        before = [ "ombi-mcp.service" ];
        serviceConfig = {
          ExecStart = "${pkgs.python3}/bin/python3 ${stubOmbi}";
          DynamicUser = true;
        };
      };

      # The secret lives outside the store, root-only, as with agenix or sops-nix.
      systemd.tmpfiles.rules = [
        "d /var/lib/ombi-secrets 0700 root root -"
        "f /var/lib/ombi-secrets/password 0600 root root - stub-password"
      ];

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

  testScript = ''
    start_all()
    machine.wait_for_unit("stub-ombi.service")
    machine.wait_for_open_port(5000)
    machine.wait_for_unit("ombi-mcp.socket")

    with subtest("socket is owned by systemd, 0660 root:ombi-mcp"):
        machine.succeed("test -S /run/ombi-mcp/mcp.sock")
        machine.succeed("test \"$(stat -c '%a %U %G' /run/ombi-mcp/mcp.sock)\" = '660 root ombi-mcp'")
        machine.succeed("test \"$(stat -c '%a %U' /run/ombi-mcp)\" = '755 root'")

    with subtest("hardening: exposure at most 1.5"):
        print(machine.succeed("systemd-analyze security --threshold=15 ombi-mcp.service | tail -n 1"))

    with subtest("allowed user gets an initialize reply through the shim"):
        out = machine.succeed(
            "(cat ${initLine}; sleep 3) | su alice -s /bin/sh -c 'timeout 60 ombi-mcp --socket /run/ombi-mcp/mcp.sock'"
        )
        print(out)
        assert '"protocolVersion"' in out and '"id":1' in out.replace(" ", ""), out
        machine.wait_for_unit("ombi-mcp.service")

    with subtest("the password never reaches the daemon's environment"):
        pid = machine.succeed("systemctl show -p MainPID --value ombi-mcp.service").strip()
        machine.fail(f"tr '\\0' '\\n' < /proc/{pid}/environ | grep -q stub-password")
        machine.succeed(f"tr '\\0' '\\n' < /proc/{pid}/environ | grep -qx OMBI_USERNAME=mcp")

    with subtest("user refused by the peer policy: exit 77, nothing on stdout"):
        status, out = machine.execute(
            "su mallory -s /bin/sh -c 'timeout 60 ombi-mcp' < ${initLine} 2>/tmp/mallory.err"
        )
        assert status == 77, f"exit {status}, stdout {out!r}"
        assert out == "", out
        print(machine.succeed("cat /tmp/mallory.err"))

    with subtest("user outside the socket's group: exit 77"):
        status, out = machine.execute("su eve -s /bin/sh -c 'timeout 60 ombi-mcp' < ${initLine}")
        assert status == 77, f"exit {status}, stdout {out!r}"

    with subtest("stopping the service keeps the socket; the next client starts it again"):
        machine.succeed("systemctl stop ombi-mcp.service")
        machine.succeed("test -S /run/ombi-mcp/mcp.sock")
        out = machine.succeed("(cat ${initLine}; sleep 3) | su alice -s /bin/sh -c 'timeout 60 ombi-mcp'")
        assert '"protocolVersion"' in out, out
  '';
}
