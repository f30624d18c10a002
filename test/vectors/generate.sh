#!/usr/bin/env bash
# Regenerates test/vectors/hash-vectors.json from the reference C in reference.c.
# Needs a C compiler (cc/gcc). The JSON is committed so tests never need one.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cc -O2 -std=c99 -Wall -Wextra -o "$tmp/reference" "$here/reference.c"
"$tmp/reference" > "$here/hash-vectors.json"
echo "wrote $here/hash-vectors.json"
