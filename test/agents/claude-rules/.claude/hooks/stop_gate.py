# python3 stdlib: a Stop gate that reads the transcript file the payload names, as loop hooks do.
import json, sys, time

data = json.load(sys.stdin)
path = data.get("transcript_path")


def last_text():
    last = ""
    with open(path) as f:
        for raw in f:
            if not raw.strip():
                continue
            try:
                entry = json.loads(raw)
            except ValueError:
                continue  # a line still being written
            if entry.get("type") == "assistant":
                for block in entry.get("message", {}).get("content", []):
                    if isinstance(block, dict) and block.get("type") == "text":
                        last = block.get("text", "")
    return last


last = ""
if path:
    # Claude Code may write the answer that ends the turn to the transcript after its Stop hooks start: a careful gate
    # waits (a few seconds at most) until the file holds the answer the payload names.
    expected = data.get("last_assistant_message")
    deadline = time.monotonic() + 5
    last = last_text()
    while expected and last != expected and time.monotonic() < deadline:
        time.sleep(0.05)
        last = last_text()
if "tests pass" not in last:
    print(json.dumps({"decision": "block", "reason": "RULE-STOP-TRANSCRIPT: run the tests before you stop (last: %s)" % (last or "nothing")}))
