# python3 stdlib: a Stop gate that reads the transcript file the payload names, as loop hooks do.
import json, sys

data = json.load(sys.stdin)
path = data.get("transcript_path")
last = ""
if path:
    with open(path) as f:
        for raw in f:
            if not raw.strip():
                continue
            entry = json.loads(raw)
            if entry.get("type") == "assistant":
                for block in entry.get("message", {}).get("content", []):
                    if isinstance(block, dict) and block.get("type") == "text":
                        last = block.get("text", "")
if "tests pass" not in last:
    print(json.dumps({"decision": "block", "reason": "RULE-STOP-TRANSCRIPT: run the tests before you stop (last: %s)" % (last or "nothing")}))
