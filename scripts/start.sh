#!/usr/bin/env bash
# `npm start`: build and package the extension, install it into a project-local code-server
# (VS Code 1.100.3 in the browser) and serve it on 127.0.0.1 with the demo/ folder open.
#
#   npm start                  serve on http://127.0.0.1:8080/ (PORT=9000 npm start for another port)
#   npm start -- --desktop     use a desktop VS Code (`code` on PATH) in extension development mode;
#                              falls back to code-server when there is none
#
# Environment: PORT (default 8080), SWE_EXPLORE_WORKSPACE (folder to open; default demo/).
# All of code-server's state lives in tools/vscode-runtime/state/ (gitignored).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

DESKTOP=0
for arg in "$@"; do
  case "$arg" in
    --desktop) DESKTOP=1 ;;
    -h | --help) sed -n '2,11p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "start: unknown argument: $arg (try --desktop)" >&2; exit 2 ;;
  esac
done

if [ -n "${SWE_EXPLORE_WORKSPACE:-}" ]; then
  WS="$(cd "$SWE_EXPLORE_WORKSPACE" && pwd)"
elif [ -d demo ]; then
  WS="$ROOT/demo"
else
  echo "start: demo/ not found; opening the repository root instead" >&2
  WS="$ROOT"
fi

if [ "$DESKTOP" = 1 ]; then
  if command -v code >/dev/null 2>&1; then
    bash scripts/setup.sh --node-only
    npm run --silent build
    echo "start: launching desktop VS Code in extension development mode on $WS"
    exec code --extensionDevelopmentPath="$ROOT" "$WS"
  fi
  echo "start: no desktop VS Code found (no \`code\` on PATH); serving VS Code in the browser instead." >&2
fi

PORT="${PORT:-8080}"
HOST=127.0.0.1 # loopback only: the server runs with --auth none
if (exec 3<>"/dev/tcp/$HOST/$PORT") 2>/dev/null; then
  echo "start: port $PORT on $HOST is already in use; stop what uses it or run: PORT=<other port> npm start" >&2
  exit 1
fi

bash scripts/setup.sh
npm run --silent build
npm run --silent package

STATE=tools/vscode-runtime/state
CS=tools/vscode-runtime/node_modules/.bin/code-server
VSIX=dist/swe-explore-inspector.vsix
mkdir -p "$STATE/exts" "$STATE/user-data/User" "$STATE/xdg-config" "$STATE/xdg-data"
printf 'bind-addr: %s:%s\nauth: none\ncert: false\n' "$HOST" "$PORT" > "$STATE/config.yaml"
SETTINGS="$STATE/user-data/User/settings.json"
if [ ! -f "$SETTINGS" ]; then
  # No walkthrough editor, no update checks, no gallery or telemetry traffic.
  cat > "$SETTINGS" <<'JSON'
{
  "workbench.startupEditor": "none",
  "workbench.tips.enabled": false,
  "extensions.autoCheckUpdates": false,
  "extensions.autoUpdate": false,
  "extensions.ignoreRecommendations": true,
  "telemetry.telemetryLevel": "off",
  "update.mode": "none",
  "security.workspace.trust.enabled": false,
  "git.openRepositoryInParentFolders": "never"
}
JSON
fi

# XDG_*: code-server writes a default config and its logs under these; keep them in $STATE.
# EXTENSIONS_GALLERY: no marketplace requests (they fail offline and show error toasts).
export XDG_CONFIG_HOME="$ROOT/$STATE/xdg-config" XDG_DATA_HOME="$ROOT/$STATE/xdg-data"
export EXTENSIONS_GALLERY='{"serviceUrl":""}'
CS_ARGS=(--config "$STATE/config.yaml" --user-data-dir "$STATE/user-data" --extensions-dir "$STATE/exts")

"$CS" "${CS_ARGS[@]}" --install-extension "$VSIX" --force >/dev/null
echo "start: installed $VSIX into $STATE/exts"

# The dev-mode URL loads the extension straight from this checkout (like F5 in desktop VS Code);
# it takes precedence over the installed copy in that window.
payload="[[\"extensionDevelopmentPath\",\"vscode-remote://$HOST:$PORT$ROOT\"]]"
urlencode() { node -e 'process.stdout.write(encodeURIComponent(process.argv[1]))' "$1"; }
DEV_URL="http://$HOST:$PORT/?folder=$(urlencode "$WS")&payload=$(urlencode "$payload")"

cat <<EOF

  SWE-Explore Inspector in $("$CS" --config "$STATE/config.yaml" --version 2>/dev/null | sed -n 's/^\([0-9.]*\) .* with Code \(.*\)$/code-server \1 (VS Code \2)/p')

  Open:      http://$HOST:$PORT/
  Dev mode:  $DEV_URL
             (extension loaded from $ROOT; after \`npm run build\`, reload the window)
  Folder:    $WS

  On a remote machine, forward the port first and then open the URL locally:
    ssh -L $PORT:$HOST:$PORT <user>@$(hostname -f 2>/dev/null || hostname)

  Stop with Ctrl+C.

EOF

# code-server runs in its own session/process group so that stopping this script (Ctrl+C, or a
# SIGTERM from npm or `timeout`) ends code-server together with the extension hosts it forked.
setsid "$CS" "${CS_ARGS[@]}" --bind-addr "$HOST:$PORT" --auth none \
  --disable-telemetry --disable-update-check --disable-workspace-trust \
  --disable-getting-started-override --ignore-last-opened "$WS" &
CS_PID=$!
stop() {
  trap - EXIT INT TERM HUP
  kill -TERM -- "-$CS_PID" 2>/dev/null || true
  for _ in $(seq 50); do kill -0 -- "-$CS_PID" 2>/dev/null || return 0; sleep 0.1; done
  kill -KILL -- "-$CS_PID" 2>/dev/null || true
}
trap 'stop; exit 130' INT TERM HUP
trap stop EXIT
wait "$CS_PID"
