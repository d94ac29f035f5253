# python3 stdlib: an answer whose hookSpecificOutput does not name its event, which Claude Code ignores.
import json, sys

data = json.load(sys.stdin)
if "touch ignored.txt" in data.get("tool_input", {}).get("command", ""):
    print(json.dumps({"hookSpecificOutput": {"permissionDecision": "deny", "permissionDecisionReason": "RULE-NAMELESS"}}))
