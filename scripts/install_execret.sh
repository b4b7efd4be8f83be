#!/bin/sh
# Install the `execret` command: a two-line launcher in PREFIX/bin (default
# ~/.local/bin) that runs this checkout's scripts/execret (the one recipe that
# starts the CLI) with the Deno the Makefile uses, from any folder (outputs go
# to ./out there, or EXECRET_OUT). `make install` runs it after installing the
# dependencies; `make install PREFIX=/usr/local`.
# Usage: sh scripts/install_execret.sh DENO [PREFIX]
set -eu
deno="$1"
prefix="${2:-$HOME/.local}"
root="$(cd "$(dirname "$0")/.." && pwd)"
case "$deno" in
  /*) ;;
  */*) deno="$root/$deno" ;;
  *) deno="$(command -v "$deno")" ;;
esac
[ -x "$deno" ] || { echo "install_execret: no deno at $deno (run make deps first)" >&2; exit 1; }
mkdir -p "$prefix/bin"
launcher="$prefix/bin/execret"
cat > "$launcher.tmp" <<LAUNCHER
#!/bin/sh
# execret, from the checkout $root (installed by scripts/install_execret.sh)
EXECRET_DENO="\${EXECRET_DENO:-$deno}" exec "$root/scripts/execret" "\$@"
LAUNCHER
chmod +x "$launcher.tmp"
mv "$launcher.tmp" "$launcher"
echo "installed $launcher"
case ":$PATH:" in
  *":$prefix/bin:"*) ;;
  *) echo "add $prefix/bin to PATH to type execret anywhere" ;;
esac
