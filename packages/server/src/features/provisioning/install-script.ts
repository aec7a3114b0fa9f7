/**
 * `GET /download/agent/install.sh`: the POSIX sh script behind the Add device dialog's
 * "Linux with Docker or Podman" command
 *
 *   curl -fsSL <server>/download/agent/install.sh | sh -s -- --api <server> --fleet <id> \
 *     --device-type <slug> --provisioning-key <key>
 *
 * It checks Node ≥ 20 and a Docker/Podman socket, downloads the single-file agent from
 * `<server>/download/agent`, writes the agent's config.json (balenaOS's shape, the fields
 * `flotilla-agent run --config` needs) and starts the agent: as a systemd service when
 * systemd runs and the script is root, else in the background (or, with `--foreground` /
 * FLOTILLA_FOREGROUND=1, in place of the script). FLOTILLA_PREFIX puts every file under a
 * directory (a DESTDIR, for tests). The script is the same for every fleet: all that differs
 * is in the command's arguments, so no secret is ever in a URL. The one thing the server
 * fills in is its registry's host (`installScript`): image locations name it, and the agent
 * sends its device key only to the registries config.json names.
 *
 * Written without `${…}` so it can live in this raw template literal unescaped.
 */
export const INSTALL_SCRIPT = String.raw`#!/bin/sh
# Flotilla agent installer: installs and starts flotilla-agent on a Linux host with
# Node.js >= 20 and Docker or Podman. Usage:
#   curl -fsSL <server>/download/agent/install.sh | sh -s -- --api <server> --fleet <id> \
#     --device-type <slug> --provisioning-key <key> [--name <device name>] [--foreground]
# Environment: FLOTILLA_PREFIX (install under this directory; default: /),
#   FLOTILLA_AGENT_ENGINE (docker | podman | none; default docker),
#   FLOTILLA_SYSTEMD=0 (never install a systemd service), FLOTILLA_FOREGROUND=1,
#   DOCKER_HOST (the engine's socket, e.g. unix:///run/podman/podman.sock).
set -eu

say() { printf 'flotilla: %s\n' "$*" >&2; }
fail() { printf 'flotilla: error: %s\n' "$*" >&2; exit 1; }

API=''
FLEET=''
DEVICE_TYPE=''
KEY=''
NAME=''
REGISTRY='@@REGISTRY_HOST@@'
FOREGROUND="$(printenv FLOTILLA_FOREGROUND || true)"
while [ $# -gt 0 ]; do
  case "$1" in
    --api) [ $# -ge 2 ] || fail "--api needs a value"; API="$2"; shift 2 ;;
    --fleet) [ $# -ge 2 ] || fail "--fleet needs a value"; FLEET="$2"; shift 2 ;;
    --device-type) [ $# -ge 2 ] || fail "--device-type needs a value"; DEVICE_TYPE="$2"; shift 2 ;;
    --provisioning-key) [ $# -ge 2 ] || fail "--provisioning-key needs a value"; KEY="$2"; shift 2 ;;
    --name) [ $# -ge 2 ] || fail "--name needs a value"; NAME="$2"; shift 2 ;;
    --foreground) FOREGROUND=1; shift ;;
    -h|--help) say "usage: install.sh --api <server URL> --fleet <id> --device-type <slug> --provisioning-key <key> [--name <device name>] [--foreground]"; exit 0 ;;
    *) fail "unknown option: $1 (see the Add device dialog for the command)" ;;
  esac
done

case "$API" in
  http://?*|https://?*) API="$(printf '%s' "$API" | sed 's#/*$##')" ;;
  *) fail "--api must be the server's http(s) URL" ;;
esac
case "$FLEET" in ''|*[!0-9]*) fail "--fleet must be the fleet's numeric id" ;; esac
case "$DEVICE_TYPE" in ''|*[!a-z0-9-]*) fail "--device-type must be a device type slug (e.g. generic-amd64)" ;; esac
case "$KEY" in ''|*[!A-Za-z0-9]*) fail "--provisioning-key must be the provisioning key from the Add device dialog" ;; esac

# Node.js >= 20 runs the agent.
NODE="$(command -v node || true)"
[ -n "$NODE" ] || fail "Node.js >= 20 is required and 'node' is not on PATH (install it from your distribution or https://nodejs.org)"
"$NODE" -e 'process.exit(Number(process.versions.node.split(".")[0]) >= 20 ? 0 : 1)' ||
  fail "Node.js >= 20 is required; this host has $("$NODE" --version)"

# A container engine speaking the Docker API: Docker, or Podman's Docker-compatible socket.
ENGINE="$(printenv FLOTILLA_AGENT_ENGINE || true)"
[ -n "$ENGINE" ] || ENGINE=docker
SOCKET_HOST="$(printenv DOCKER_HOST || true)"
case "$ENGINE" in
  none) say "FLOTILLA_AGENT_ENGINE=none: the agent will simulate its services (no container engine used)" ;;
  docker|podman)
    if [ -z "$SOCKET_HOST" ]; then
      RUNTIME_DIR="$(printenv XDG_RUNTIME_DIR || true)"
      for s in /var/run/docker.sock /run/podman/podman.sock "$RUNTIME_DIR/podman/podman.sock"; do
        if [ -S "$s" ]; then SOCKET_HOST="unix://$s"; break; fi
      done
    fi
    case "$SOCKET_HOST" in
      unix://*) [ -S "$(printf '%s' "$SOCKET_HOST" | sed 's#^unix://##')" ] || fail "DOCKER_HOST=$SOCKET_HOST is not a socket" ;;
      tcp://*|http://*|https://*) ;;
      '') fail "no Docker or Podman socket found (looked for DOCKER_HOST, /var/run/docker.sock, /run/podman/podman.sock, \$XDG_RUNTIME_DIR/podman/podman.sock). Install Docker, or Podman and run 'systemctl enable --now podman.socket'" ;;
      *) fail "DOCKER_HOST must be unix://, tcp:// or http(s)://" ;;
    esac
    say "container engine: $SOCKET_HOST" ;;
  *) fail "FLOTILLA_AGENT_ENGINE must be docker, podman or none" ;;
esac

ROOT="$(printenv FLOTILLA_PREFIX || true)"
ROOT="$(printf '%s' "$ROOT" | sed 's#/*$##')"
LIB_DIR="$ROOT/usr/local/lib/flotilla"
CONF_DIR="$ROOT/etc/flotilla"
AGENT="$LIB_DIR/flotilla-agent.mjs"
CONFIG="$CONF_DIR/config.json"
mkdir -p "$LIB_DIR" "$CONF_DIR" || fail "cannot create $LIB_DIR and $CONF_DIR (run as root, or set FLOTILLA_PREFIX)"

# The agent: one file from this server.
say "downloading the agent from $API/download/agent"
if command -v curl >/dev/null 2>&1; then
  curl -fsSL -o "$AGENT.part" "$API/download/agent" || fail "could not download $API/download/agent"
elif command -v wget >/dev/null 2>&1; then
  wget -q -O "$AGENT.part" "$API/download/agent" || fail "could not download $API/download/agent"
else
  fail "curl or wget is required to download the agent"
fi
mv "$AGENT.part" "$AGENT"

# config.json: kept when this host is already a device (re-running updates the agent only).
if [ -s "$CONFIG" ]; then
  say "keeping the existing $CONFIG (this host is already a device; remove the file to add it again)"
else
  umask 077
  FLOTILLA_API="$API" FLOTILLA_FLEET="$FLEET" FLOTILLA_DEVICE_TYPE="$DEVICE_TYPE" FLOTILLA_KEY="$KEY" FLOTILLA_NAME="$NAME" FLOTILLA_REGISTRY="$REGISTRY" \
    "$NODE" -e '
      const e = process.env;
      const c = { apiEndpoint: e.FLOTILLA_API, registryEndpoint: e.FLOTILLA_REGISTRY, applicationId: Number(e.FLOTILLA_FLEET), deviceType: e.FLOTILLA_DEVICE_TYPE, apiKey: e.FLOTILLA_KEY };
      if (e.FLOTILLA_NAME) c.deviceName = e.FLOTILLA_NAME;
      require("node:fs").writeFileSync(process.argv[1], JSON.stringify(c, null, 2) + "\n", { mode: 0o600 });
    ' "$CONFIG.part" || fail "could not write $CONFIG"
  mv "$CONFIG.part" "$CONFIG"
  say "wrote $CONFIG"
fi

SYSTEMD="$(printenv FLOTILLA_SYSTEMD || true)"
if [ "$FOREGROUND" != 1 ] && [ "$SYSTEMD" != 0 ] && [ -d /run/systemd/system ] && command -v systemctl >/dev/null 2>&1 && [ "$(id -u)" = 0 ] && [ -z "$ROOT" ]; then
  UNIT=/etc/systemd/system/flotilla-agent.service
  {
    printf '[Unit]\nDescription=Flotilla device agent\nWants=network-online.target\nAfter=network-online.target docker.service podman.socket\n\n'
    printf '[Service]\nEnvironment=FLOTILLA_AGENT_ENGINE=%s\n' "$ENGINE"
    [ -z "$SOCKET_HOST" ] || printf 'Environment=DOCKER_HOST=%s\n' "$SOCKET_HOST"
    printf 'ExecStart=%s %s run --config %s\nRestart=always\nRestartSec=5\n\n' "$NODE" "$AGENT" "$CONFIG"
    printf '[Install]\nWantedBy=multi-user.target\n'
  } >"$UNIT"
  systemctl daemon-reload
  systemctl enable flotilla-agent.service >/dev/null 2>&1 || true
  systemctl restart flotilla-agent.service
  say "started the flotilla-agent service (journalctl -u flotilla-agent -f shows its log)"
  exit 0
fi

if [ -n "$SOCKET_HOST" ]; then DOCKER_HOST="$SOCKET_HOST"; export DOCKER_HOST; fi
FLOTILLA_AGENT_ENGINE="$ENGINE"
export FLOTILLA_AGENT_ENGINE
if [ "$FOREGROUND" = 1 ]; then
  say "starting the agent in the foreground"
  exec "$NODE" "$AGENT" run --config "$CONFIG"
fi
LOG_DIR="$ROOT/var/log"
mkdir -p "$LOG_DIR"
nohup "$NODE" "$AGENT" run --config "$CONFIG" >>"$LOG_DIR/flotilla-agent.log" 2>&1 &
echo $! >"$LIB_DIR/flotilla-agent.pid"
say "started the agent in the background (pid $!, log $LOG_DIR/flotilla-agent.log); without systemd it does not start again after a reboot"
`;

/** The script as this server serves it: with the host its image locations name. */
export function installScript(registryHost: string): string {
  // A host[:port] (the config schema and URL parsing guarantee it); checked again because it
  // lands inside shell quotes.
  if (!/^[A-Za-z0-9.:[\]-]+$/.test(registryHost)) throw new Error(`not a registry host: ${registryHost}`);
  return INSTALL_SCRIPT.replace('@@REGISTRY_HOST@@', registryHost);
}
