"""A stand-in W&B server on 127.0.0.1 for `wandb sync` (capture only; never a real service).

Answers the GraphQL operations wandb-core's sync sends (Viewer, ServerInfo, ServerFeaturesQuery,
UpsertBucket, CreateRunFiles, RunStoppedStatus, ...), the file_stream endpoint, and the file uploads,
and logs every request (method, path, body) as JSON lines to REQUEST_LOG. Uploaded files are stored
under UPLOAD_DIR/<name>.

    python fake_wandb_server.py PORT REQUEST_LOG UPLOAD_DIR
"""
import json
import os
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

PORT = int(sys.argv[1])
LOG = open(sys.argv[2], "a")
UPLOADS = sys.argv[3]
os.makedirs(UPLOADS, exist_ok=True)
LOCK = threading.Lock()
BASE = f"http://127.0.0.1:{PORT}"
STOP_AFTER = time.time() + 1200  # stop by itself after 20 minutes


def log(entry):
    with LOCK:
        LOG.write(json.dumps(entry) + "\n")
        LOG.flush()


def graphql(body):
    q = body.get("query", "")
    op = body.get("operationName") or ""
    v = body.get("variables") or {}
    if "viewer" in q:
        return {"viewer": {"id": "VXNlcjox", "entity": "lp-entity", "username": "lp-user",
                           "email": "lp@example.invalid", "flags": "{}", "admin": False,
                           "teams": {"edges": [{"node": {"name": "lp-entity"}}]}}}
    if "upsertBucket" in q:
        return {"upsertBucket": {"inserted": True, "bucket": {
            "id": "UnVuOjE=", "name": v.get("name") or "run", "displayName": "offline-run",
            "description": None, "config": "{}", "sweepName": None, "historyLineCount": 0,
            "project": {"id": "UHJvamVjdDox", "name": v.get("project") or "lp",
                        "entity": {"id": "RW50aXR5OjE=", "name": v.get("entity") or "lp-entity"}}}}}
    if "createRunFiles" in q:
        return {"createRunFiles": {"runID": "UnVuOjE=", "uploadHeaders": [],
                                   "files": [{"name": f, "uploadUrl": f"{BASE}/upload/{f}"}
                                             for f in v.get("files", [])]}}
    if "markRunFilesUploaded" in q:
        return {"markRunFilesUploaded": {"success": True}}
    if "features" in q and "serverInfo" in q:
        return {"serverInfo": {"features": []}}
    if "serverInfo" in q:
        return {"serverInfo": {"cliVersionInfo": {}, "latestLocalVersionInfo": None}}
    if "stopped" in q:
        return {"project": {"run": {"stopped": False}}}
    if "__type" in q or "__schema" in q:
        return {"__type": None}
    return {}


class H(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def _body(self):
        n = int(self.headers.get("Content-Length") or 0)
        return self.rfile.read(n) if n else b""

    def _send(self, code, obj):
        data = json.dumps(obj).encode()
        self.send_response(code)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self):
        log({"t": time.time(), "method": "GET", "path": self.path})
        self._send(200, {})

    def do_POST(self):
        raw = self._body()
        try:
            body = json.loads(raw or b"{}")
        except ValueError:
            body = {"_raw": raw[:2000].decode("utf-8", "replace")}
        log({"t": time.time(), "method": "POST", "path": self.path, "body": body})
        if self.path.startswith("/graphql"):
            self._send(200, {"data": graphql(body)})
        elif self.path.endswith("/file_stream"):
            self._send(200, {"exitcode": None, "limits": {}})
        else:
            self._send(200, {})

    def do_PUT(self):
        raw = self._body()
        name = self.path.split("/upload/", 1)[-1]
        log({"t": time.time(), "method": "PUT", "path": self.path, "bytes": len(raw)})
        dest = os.path.join(UPLOADS, name)
        os.makedirs(os.path.dirname(dest), exist_ok=True)
        with open(dest, "wb") as fh:
            fh.write(raw)
        self._send(200, {})

    def log_message(self, *a):
        pass


srv = ThreadingHTTPServer(("127.0.0.1", PORT), H)
threading.Thread(target=lambda: (time.sleep(max(0, STOP_AFTER - time.time())), srv.shutdown()),
                 daemon=True).start()
srv.serve_forever()
