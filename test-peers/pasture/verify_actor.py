# fediverse-pasture's verify_actor on HOST:PORT. Its command line binds 0.0.0.0, which the tests
# must not; this is the same app, run as its CLI runs it, on the address given.
# Usage: python verify_actor.py HOST PORT  (run in an empty folder: it writes data.toml there)
import sys

from fediverse_pasture.verify_actor import build_app

host, port = sys.argv[1], int(sys.argv[2])
app = build_app(False, f"{host}:{port}", False, 10)
app.run(host=host, port=port, use_reloader=False)
