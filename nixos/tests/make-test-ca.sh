#!/bin/sh
# A throwaway CA and a server certificate for HOST signed by it, for the HTTPS stub Ombi of the
# VM test (vm.nix); tests/it/clients/nixos_vm_parts.rs makes one the same way. Needs openssl >= 1.1.1.
#   make-test-ca.sh OUTDIR HOST   ->  OUTDIR/ca.crt, OUTDIR/server.crt, OUTDIR/server.key
set -eu
out=$1
host=$2
mkdir -p "$out"
cd "$out"
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 3650 \
  -subj "/CN=ombi-mcp test CA" -keyout ca.key -out ca.crt \
  -addext basicConstraints=critical,CA:TRUE -addext keyUsage=critical,keyCertSign,cRLSign \
  2>/dev/null
openssl req -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes \
  -subj "/CN=$host" -keyout server.key -out server.csr 2>/dev/null
printf 'subjectAltName=DNS:%s\nbasicConstraints=critical,CA:FALSE\nkeyUsage=critical,digitalSignature\nextendedKeyUsage=serverAuth\n' \
  "$host" >server.ext
openssl x509 -req -in server.csr -CA ca.crt -CAkey ca.key -CAcreateserial -days 3650 \
  -extfile server.ext -out server.crt 2>/dev/null
rm -f server.csr server.ext ca.srl ca.key
