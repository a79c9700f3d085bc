#!/usr/bin/env bash
# Installs what the tests need on a fresh clone: the npm packages from the lock file, Chromium
# (Debian's package) for the browser tests of the rendered reference, and PostgreSQL (Debian's
# package) for the tests on PostgreSQL. Safe to run again.
set -euo pipefail
cd "$(dirname "$0")/.."
export NODE_RUNNING_NPM="$(node --version)"

# npm runs on the machine's Node, which may be older than the Node 24 the project runs on (the
# `node` devDependency puts Node 24 first in every npm script). On Node 20 or 22, npm warns with a
# five-line EBADENGINE block for each package that needs a newer Node: expected, and harmless, so
# scripts/engine-warnings.awk sums those blocks up in one line and shows every other line as it is.
npm ci --no-audit --no-fund 2>&1 | awk -f scripts/engine-warnings.awk

# Installs Debian's package $1 (for $2) as root, or stops with $3 when this shell cannot.
install_debian_package() {
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    echo "Installing $2 (Debian package '$1')"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$1" >/dev/null
  else
    echo "$3" >&2
    exit 1
  fi
}

chromium_path="${CHROMIUM_PATH:-/usr/bin/chromium}"
if [ ! -x "$chromium_path" ]; then
  install_debian_package chromium "Chromium for the browser tests" \
    "Chromium is missing: install Debian's 'chromium' package, or set CHROMIUM_PATH to a Chromium binary."
fi
# PostgreSQL (Debian's package) for the tests that run the server on it: they start a private
# cluster of their own (server/test-support/postgres-cluster.ts); the package's own cluster is not used.
if ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then
  install_debian_package postgresql "PostgreSQL for the tests on PostgreSQL" \
    "PostgreSQL is missing: install Debian's 'postgresql' package (the tests need initdb and pg_ctl)."
fi
echo "setup done: npm packages installed, Chromium at $chromium_path, PostgreSQL in $(ls -d /usr/lib/postgresql/*/bin | tail -1)"
