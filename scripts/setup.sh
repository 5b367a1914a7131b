#!/usr/bin/env bash
# Idempotent machine + project setup, shared by `npm start` and `npm test`.
#
# On a fresh machine it installs, in order:
#   a) the project's node_modules (`npm ci`), again whenever package-lock.json changes;
#   b) the Debian packages the VS Code runtime needs (chromium for the browser checks,
#      libkrb5-dev to compile code-server's kerberos module, ripgrep for the cache below);
#   c) the @vscode/ripgrep download cache, seeded from Debian's rg because GitHub is unreachable;
#   d) code-server 4.100.3 (the newest that runs on Node 20) in tools/vscode-runtime.
# When everything is already there it prints nothing and takes well under a second.
#
# Usage: scripts/setup.sh [--node-only | --runtime-only]
#   --node-only     step a only (desktop VS Code needs no more)
#   --runtime-only  steps b–d only: what the end-to-end tests need; `npm test` runs it in the
#                   background while its other checks run (they only need step a)
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

NODE=1
RUNTIME=1
for arg in "$@"; do
  case "$arg" in
    --node-only) RUNTIME=0 ;;
    --runtime-only) NODE=0 ;;
    *) echo "setup: unknown argument: $arg" >&2; exit 2 ;;
  esac
done

say() { echo "setup: $*" >&2; }

# --- a) root node_modules ----------------------------------------------------------------
# The stamp is written only after a successful `npm ci`; `npm ci` deletes node_modules first,
# so an interrupted install leaves no stamp and is retried next time.
ROOT_STAMP=node_modules/.swe-explore-setup-stamp
# A node_modules made by hand (no stamp yet) that satisfies package.json is adopted rather than
# reinstalled; a later change to package-lock.json still triggers `npm ci`.
if [ "$NODE" = 1 ]; then
  if [ -d node_modules ] && [ ! -f "$ROOT_STAMP" ] && npm ls --all >/dev/null 2>&1; then
    touch "$ROOT_STAMP"
  fi
  if [ ! -d node_modules ] || [ ! -f "$ROOT_STAMP" ] || [ package-lock.json -nt "$ROOT_STAMP" ]; then
    say "installing node_modules (npm ci)…"
    npm ci --no-audit --no-fund
    touch "$ROOT_STAMP"
  fi
fi
[ "$RUNTIME" = 0 ] && exit 0

# --- b) Debian packages ------------------------------------------------------------------
installed() { [ "$(dpkg-query -W -f='${Status}' "$1" 2>/dev/null)" = "install ok installed" ]; }
missing=()
for pkg in chromium libkrb5-dev ripgrep; do
  installed "$pkg" || missing+=("$pkg")
done
# code-server's postinstall compiles native modules with node-gyp; base images normally have
# a toolchain, but ask for one if it is not there.
command -v make >/dev/null && command -v g++ >/dev/null || missing+=(build-essential)
command -v python3 >/dev/null || missing+=(python3)
if [ "${#missing[@]}" -gt 0 ]; then
  if [ "$(id -u)" -ne 0 ]; then
    echo "setup: missing Debian packages: ${missing[*]}" >&2
    echo "setup: install them with:" >&2
    echo "  sudo apt-get update && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y ${missing[*]}" >&2
    echo "setup: then run this command again." >&2
    exit 1
  fi
  say "installing Debian packages: ${missing[*]}…"
  export DEBIAN_FRONTEND=noninteractive
  # Wait (up to 10 min) instead of failing if another apt/dpkg run holds the lock.
  apt-get -o DPkg::Lock::Timeout=600 update
  apt-get -o DPkg::Lock::Timeout=600 install -y --no-install-recommends "${missing[@]}"
fi

# --- c) ripgrep download cache -----------------------------------------------------------
# @vscode/ripgrep's postinstall (inside code-server's lib/vscode) first looks for its archive in
# $TMPDIR/vscode-ripgrep-cache-<version>/ before trying api.github.com. code-server 4.100.3 pins
# @vscode/ripgrep 1.15.11, which wants ripgrep v13.0.0-10 as a tarball with `rg` at its top level.
RG_PKG_VERSION=1.15.11
RG_VERSION=v13.0.0-10
case "$(uname -m)" in
  x86_64) RG_TARGET=x86_64-unknown-linux-musl ;;
  aarch64 | arm64) RG_TARGET=aarch64-unknown-linux-musl ;;
  *) RG_TARGET="" ;;
esac
if [ -n "$RG_TARGET" ]; then
  RG_CACHE="${TMPDIR:-/tmp}/vscode-ripgrep-cache-$RG_PKG_VERSION"
  RG_ARCHIVE="$RG_CACHE/ripgrep-$RG_VERSION-$RG_TARGET.tar.gz"
  if [ ! -s "$RG_ARCHIVE" ]; then
    rg_bin="$(command -v rg)"
    mkdir -p "$RG_CACHE"
    t="$(mktemp -d)"
    cp "$rg_bin" "$t/rg"
    tar czf "$RG_ARCHIVE.tmp" -C "$t" rg
    mv "$RG_ARCHIVE.tmp" "$RG_ARCHIVE"
    rm -rf "$t"
  fi
else
  say "warning: no seeded ripgrep for $(uname -m); code-server's install will try GitHub"
fi

# --- d) code-server ----------------------------------------------------------------------
# Its install (npm ci plus native modules built for this Node) is 300 MB and takes minutes, so a
# finished one is also kept in a cache shared by every clone on the machine, keyed by the lockfile,
# the Node ABI and the CPU; a fresh clone then copies it (seconds). SWE_EXPLORE_CACHE=off skips it.
RT=tools/vscode-runtime
RT_STAMP="$RT/node_modules/.swe-explore-setup-stamp"
if [ ! -x "$RT/node_modules/.bin/code-server" ] || [ ! -f "$RT_STAMP" ] || [ "$RT/package-lock.json" -nt "$RT_STAMP" ]; then
  CACHE=""
  if [ "${SWE_EXPLORE_CACHE:-}" != off ]; then
    key="$(cat "$RT/package-lock.json" <(node -p 'process.versions.modules + process.arch') | sha256sum | cut -c1-16)"
    CACHE="${SWE_EXPLORE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/swe-explore-inspector}/vscode-runtime-$key"
  fi
  rm -rf "$RT/node_modules"
  if [ -n "$CACHE" ] && [ -f "$CACHE/complete" ]; then
    say "copying code-server into $RT from the cache ($CACHE)…"
    cp -a "$CACHE/node_modules" "$RT/node_modules"
  else
    say "installing code-server into $RT (npm ci, about 1–2 minutes)…"
    # unsafe_perm: code-server's postinstall refuses to run as root without it (npm 11 warns
    #   "Unknown env config", harmless: the script reads the variable itself).
    # yes: node-pty's postinstall runs `npx node-gyp`, which this machine's npm config would cancel.
    (cd "$RT" && npm_config_unsafe_perm=true npm_config_yes=true npm ci --no-audit --no-fund)
    if [ -n "$CACHE" ]; then
      # Copied aside, then moved in whole: a cache entry is complete or absent, whatever runs at once.
      mkdir -p "$(dirname "$CACHE")"
      staging="$(mktemp -d "$CACHE.XXXXXX")"
      if cp -a "$RT/node_modules" "$staging/node_modules" && touch "$staging/complete" && mv -T "$staging" "$CACHE" 2>/dev/null; then
        say "kept a copy in $CACHE for other clones"
      else
        rm -rf "$staging"
      fi
    fi
  fi
  touch "$RT_STAMP"
fi
