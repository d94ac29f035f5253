#!/usr/bin/env bash
# bash + jq, as most published guards are: a JSON deny on stdout, then exit 1.
cmd=$(jq -r '.tool_input.command // empty')
if [[ "$cmd" == *"rm -rf"* ]]; then
  jq -n '{hookSpecificOutput: {hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: "RULE-EXIT1-JSON: rm -rf is not allowed"}}'
  exit 1
fi
