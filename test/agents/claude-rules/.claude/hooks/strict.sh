#!/usr/bin/env bash
# Strict mode and one `read -r`: the payload must end with a newline, or read fails and the guard exits 1.
set -euo pipefail
read -r payload
if [[ "$payload" == *"curl"* ]]; then
  echo "RULE-STDERR: curl is refused" >&2
  echo '{"decision": "block", "reason": "RULE-JSON-WINS: no network from the shell"}'
  exit 2
fi
