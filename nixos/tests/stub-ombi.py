"""A stand-in for Ombi in the NixOS VM test (vm.nix); tests/it/clients/nixos_vm_parts.rs runs it too.

It answers the login (POST /api/v1/Token) and the three routes read_server's `status` action
reads, over HTTP or, with --cert/--key, HTTPS. Every request becomes one JSON line in --log with
what the tests assert on: whether a login carried the expected user name and password, whether
the ApiKey header matched, the UserName header. The secrets themselves are never logged.

    stub-ombi.py --port N --log FILE [--username U --password-file F] [--api-key-file F]
                 [--cert CRT --key KEY]
"""

import argparse
import json
import ssl
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


def read_secret(path):
    if path is None:
        return None
    with open(path, encoding="utf-8") as f:
        return f.read().strip()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--log", required=True)
    parser.add_argument("--username")
    parser.add_argument("--password-file")
    parser.add_argument("--api-key-file")
    parser.add_argument("--cert")
    parser.add_argument("--key")
    args = parser.parse_args()
    password = read_secret(args.password_file)
    api_key = read_secret(args.api_key_file)
    lock = threading.Lock()
    log = open(args.log, "a", encoding="utf-8")

    class Ombi(BaseHTTPRequestHandler):
        def record(self, **fields):
            entry = {
                "method": self.command,
                "path": self.path,
                # None: no ApiKey header; else whether it is the configured key.
                "api_key_ok": None
                if "ApiKey" not in self.headers
                else self.headers["ApiKey"] == api_key,
                "user_name": self.headers.get("UserName"),
                "bearer": self.headers.get("Authorization", "").startswith("Bearer "),
            }
            entry.update(fields)
            with lock:
                log.write(json.dumps(entry) + "\n")
                log.flush()

        def reply(self, code, body):
            data = b"" if body is None else json.dumps(body).encode()
            self.send_response(code)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def do_POST(self):
            length = int(self.headers.get("Content-Length", "0"))
            try:
                body = json.loads(self.rfile.read(length) or b"{}")
            except ValueError:
                body = {}
            if self.path != "/api/v1/Token":
                self.record()
                self.reply(404, None)
                return
            ok = (
                password is not None
                and body.get("username") == args.username
                and body.get("password") == password
            )
            self.record(login_ok=ok)
            if ok:
                self.reply(
                    200,
                    {
                        "access_token": "aGVhZGVy.cGF5bG9hZA.c2ln",
                        "expiration": "2099-01-01T00:00:00Z",
                    },
                )
            else:
                self.reply(401, None)

        def do_GET(self):
            self.record()
            routes = {
                # Ombi answers its HttpStatusCode enum: the number 200.
                "/api/v1/Status": 200,
                "/api/v1/Status/info": "4.59.3",
                "/api/v1/Status/Wizard": {"result": True},
            }
            if self.path in routes:
                self.reply(200, routes[self.path])
            else:
                self.reply(404, None)

        def log_message(self, format, *args):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", args.port), Ombi)
    if args.cert:
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(args.cert, args.key)
        server.socket = context.wrap_socket(server.socket, server_side=True)
    print(f"stub-ombi listening on 127.0.0.1:{server.server_address[1]}", flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
