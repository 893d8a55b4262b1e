#!/usr/bin/env bash
# Screenshots a report page with headless Chromium, so anyone can look at what `verity report` drew:
#   npm run report:screenshot -- reports/<run>/report.html /tmp/report.png
# Window size: REPORT_SCREENSHOT_SIZE (default 1280,2000). Chromium: `apt-get install -y chromium`.
set -euo pipefail

if [ $# -ne 2 ]; then
  echo "usage: npm run report:screenshot -- <report.html> <out.png>" >&2
  exit 2
fi
html=$1
out=$2
[ -f "$html" ] || { echo "report-screenshot: no such file: $html" >&2; exit 2; }

browser=""
for candidate in chromium chromium-browser google-chrome; do
  if command -v "$candidate" >/dev/null 2>&1; then browser=$candidate; break; fi
done
[ -n "$browser" ] || { echo "report-screenshot: no Chromium found (Debian: apt-get install -y chromium)" >&2; exit 1; }

profile=$(mktemp -d)
trap 'rm -rf "$profile"' EXIT
url="file://$(cd "$(dirname "$html")" && pwd)/$(basename "$html")"
mkdir -p "$(dirname "$out")"
out_abs="$(cd "$(dirname "$out")" && pwd)/$(basename "$out")"

# No network, no first-run or background services: the page is self-contained.
"$browser" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
  --disable-background-networking --disable-component-update --disable-sync \
  --user-data-dir="$profile" --hide-scrollbars \
  --screenshot="$out_abs" --window-size="${REPORT_SCREENSHOT_SIZE:-1280,2000}" "$url" >/dev/null 2>&1
[ -s "$out_abs" ] || { echo "report-screenshot: Chromium wrote no screenshot" >&2; exit 1; }
echo "$out_abs"
