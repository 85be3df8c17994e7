#!/usr/bin/env bash
# Builds the browser's rules and engine (crates/wasm) to WebAssembly and writes the module
# and its JS glue to crates/server/assets/wasm/ (checked in: `chimere serve` needs no wasm
# toolchain). The route is ../shared/design/wasm.md: Debian's compiler for browsers and a
# wasm linker, the standard library built from source, wasm-bindgen-cli at the version
# crates/wasm/Cargo.toml pins:
#
#   apt-get install -y --no-install-recommends rustc-web cargo-web rust-web-src lld-22
#   cargo install wasm-bindgen-cli --version =0.2.130 --no-default-features
#
# Usage: web/wasm/build.sh [OUT_DIR]   (default crates/server/assets/wasm)
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
out="${1:-$root/crates/server/assets/wasm}"
pinned="$(sed -n 's/^wasm-bindgen = "=\(.*\)"/\1/p' "$root/crates/wasm/Cargo.toml")"
bindgen="$(command -v wasm-bindgen || echo "$HOME/.cargo/bin/wasm-bindgen")"
have="$("$bindgen" --version 2>/dev/null | awk '{print $2}')" || true
if [ "$have" != "$pinned" ]; then
  echo "build.sh: wasm-bindgen-cli $pinned is needed (found: ${have:-none});" \
       "cargo install wasm-bindgen-cli --version =$pinned --no-default-features" >&2
  exit 2
fi
for tool in /usr/bin/rustc /usr/bin/cargo wasm-ld-22; do
  command -v "$tool" >/dev/null || { echo "build.sh: $tool missing (see ../shared/design/wasm.md)" >&2; exit 2; }
done
cd "$root"
# Its own target directory: the std built from source stays apart from the native builds.
export CARGO_TARGET_DIR="$root/target/wasm"
RUSTC_BOOTSTRAP=1 RUSTC=/usr/bin/rustc \
CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_LINKER=wasm-ld-22 \
  /usr/bin/cargo build --release --target wasm32-unknown-unknown \
    -Z build-std=std,panic_abort -p chimere-wasm
mkdir -p "$out"
"$bindgen" --target web --out-dir "$out" \
  "$CARGO_TARGET_DIR/wasm32-unknown-unknown/release/chimere_wasm.wasm"
ls -l "$out"
