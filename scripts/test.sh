#!/usr/bin/env bash
# `npm test`: every suite — type check, lint, unit and integration tests (Vitest), and the
# end-to-end suite in a real Chromium (Playwright). Ends with one "N passed, N failed" line.
set -uo pipefail
cd "$(dirname "$0")/.."
export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1

chromium_path() {
  for c in "${CHROMIUM_PATH:-}" /usr/bin/chromium /usr/bin/chromium-browser; do
    [ -n "$c" ] && [ -x "$c" ] && { echo "$c"; return 0; }
  done
  return 1
}

if ! chromium_path >/dev/null; then
  if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null; then
    echo "Installing Debian's chromium for the end-to-end tests…"
    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null) || {
      echo "apt-get could not install chromium"; exit 1; }
  else
    echo "The end-to-end tests need Chromium. Install it with: sudo apt-get install chromium" >&2
    echo "(or set CHROMIUM_PATH to a Chromium binary)" >&2
    exit 1
  fi
fi
export CHROMIUM_PATH="$(chromium_path)"

# Debian packages some suites use as real peers, installed when missing (as root, as CI runs):
# Info-ZIP's unzip checks archives as recipients' tools would; clamd scans files in the scanning tests;
# ffmpeg makes the video and the sound the preview tests play. Recommended packages are not needed.
install_package() { # install_package <package> <why>
  if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null; then
    echo "Installing Debian's $1 ($2)…"
    { DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$1" >/dev/null 2>&1 ||
      { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$1" >/dev/null; }; } ||
      { echo "apt-get could not install $1"; exit 1; }
  else
    echo "$2 need $1. Install it with: sudo apt-get install $1" >&2; exit 1
  fi
}
need_package() { # need_package <command> <package> <why>
  command -v "$1" >/dev/null || [ -x "/usr/sbin/$1" ] || install_package "$2" "$3"
}
need_package unzip unzip "the zip tests"
need_package clamd clamav-daemon "the virus-scanning tests"
need_package ffmpeg ffmpeg "the media preview tests"
# A Japanese font (3.5 MB), so the pages in Japanese are laid out with real glyphs, as their readers see them.
# Without it (and not root) the tests still pass; screenshots of those pages then show boxes.
if [ ! -f /usr/share/fonts/opentype/ipafont-gothic/ipag.ttf ] && [ "$(id -u)" = "0" ]; then install_package fonts-ipafont-gothic "the pages in Japanese"; fi

# TEST_REPORTS_DIR keeps the JSON reports (per-file times for docs/testing.md); otherwise they are temporary.
if [ -n "${TEST_REPORTS_DIR:-}" ]; then
  reports="$TEST_REPORTS_DIR" && mkdir -p "$reports"
else
  reports="$(mktemp -d)" && trap 'rm -rf "$reports"' EXIT
fi
status=0
# Each step heading says when it started, so a run's log shows where the minutes went.
step() { echo; echo "== $*  (+${SECONDS} s)"; }

# The type check and lint are single-threaded and independent: they run side by side on the two
# cores, each into a log printed when both are done.
step "type check and lint"
npx tsc --noEmit -p tsconfig.json > "$reports/tsc.log" 2>&1 & tsc_pid=$!
npx eslint . --max-warnings=0 > "$reports/eslint.log" 2>&1 & eslint_pid=$!
wait $tsc_pid && echo "type check: no errors" || { status=1; echo "type check failed:"; cat "$reports/tsc.log"; }
wait $eslint_pid && echo "lint: no problems" || { status=1; echo "lint failed:"; cat "$reports/eslint.log"; }
step "unit and integration tests" && npx vitest run --reporter=default --reporter=json --outputFile.json="$reports/vitest.json" || status=1
# The build (CPU) runs beside the MCP conformance suite (which mostly waits on its clients and server,
# and serves no page): each alone left a core idle.
step "MCP conformance (the official suite against a real /mcp), the web app built beside it"
npx vite build --logLevel warn > "$reports/build.log" 2>&1 & build_pid=$!
npx tsx scripts/mcp-conformance.ts || status=1
wait $build_pid && { cat "$reports/build.log"; echo "build: done"; } || { status=1; echo "build failed:"; cat "$reports/build.log"; }
step "first-load JavaScript budget (150 KB as sent, no upload code, no source maps)" && node scripts/check-bundle-budget.mjs || status=1
step "end-to-end tests (Chromium)" && PLAYWRIGHT_JSON_OUTPUT_NAME="$reports/playwright.json" npx playwright test --reporter=list,json || status=1

step "time budget per test file (docs/testing.md)" && node scripts/test-budget.mjs "$reports/vitest.json" "$reports/playwright.json" || status=1

echo "(npm test took ${SECONDS} s)"
node scripts/test-summary.mjs "$reports/vitest.json" "$reports/playwright.json"
exit $status
