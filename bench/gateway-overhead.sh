#!/usr/bin/env bash
# Gateway overhead next to peers: runs the shared harness (../shared/bench, see its README)
# from a scratch copy with boternity's target line enabled. Figures land in
# bench/results/gateway-<timestamp>/. QUICK=1 for a smoke run; ONLY=… to pick targets;
# BASE=<checkout> adds that build as `boternity-base`;
# FLOOR=1 adds `relay-floor` (bench/relay-floor.mjs: a relay that only moves lines to and from
# the same stdio upstream) to the run, as the floor of any stdio gateway.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
project=$(cd "$here/.." && pwd)
harness=${BENCH_HARNESS:-$project/../shared/bench}
[ -d "$harness" ] || { echo "no harness at $harness (set BENCH_HARNESS)" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp -r "$harness"/. "$work"/
cp "$here/boternity.json.tmpl" "$work/configs/boternity.json.tmpl"
sed -i 's#^\#boternity           | http  | {PROJECT}/<path of the bnity bin> serve#boternity           | http  | {NODE} {PROJECT}/bin/bnity.js serve#' "$work/run.sh"
grep -q '^boternity ' "$work/run.sh" || { echo "could not enable the boternity target in run.sh" >&2; exit 1; }
if [ "${FLOOR:-}" = 1 ]; then
  cp "$here/relay-floor.mjs" "$work/relay-floor.mjs"
  sed -i '/^boternity /a relay-floor          | http  | {NODE} relay-floor.mjs {PORT} upstream.mjs | http://127.0.0.1:{PORT}/mcp |' "$work/run.sh"
  grep -q '^relay-floor ' "$work/run.sh" || { echo "could not add the relay-floor target to run.sh" >&2; exit 1; }
  case "${ONLY:-}" in '' | *relay-floor*) ;; *) export ONLY="$ONLY,relay-floor" ;; esac
fi
# BASE=<another checkout, built>: that build runs too, as the target `boternity-base`, in the
# same rounds (its own home): a change measured against the code before it, next to the peers.
if [ -n "${BASE:-}" ]; then
  base=$(cd "$BASE" && pwd)
  [ -f "$base/dist/bnity.cjs" ] || { echo "BASE=$BASE has no build (npm run build there)" >&2; exit 1; }
  sed -i "/^boternity /a boternity-base       | http  | {NODE} $base/bin/bnity.js serve --config {CFG}/boternity.json --home {RUN}/bhome-base --port {PORT} | http://127.0.0.1:{PORT}/mcp |" "$work/run.sh"
  grep -q '^boternity-base ' "$work/run.sh" || { echo "could not add the boternity-base target to run.sh" >&2; exit 1; }
  case "${ONLY:-}" in '' | *boternity-base*) ;; *) export ONLY="$ONLY,boternity-base" ;; esac
fi
(cd "$work" && npm ci --no-audit --no-fund >/dev/null)
token=bench-$RANDOM$RANDOM
(cd "$work" && BENCH_BEARER=$token BOTERNITY_ADMIN_TOKEN=$token BENCH_PROJECT=$project ./run.sh)
mkdir -p "$here/results"
latest=$(ls -1d "$work"/results/*/ | tail -n 1)
dest="$here/results/gateway-$(basename "$latest")"
cp -r "$latest" "$dest"
echo "results copied to $dest"
