#!/usr/bin/env bash
# watch.sh SECONDS LANES: every 20 s, pack /tmp/res into $OUT/results.tgz and consistent copies of the
# searches' SQLite databases (sqlite3's backup: what their WAL holds included) into $OUT/dbs.tgz, until
# LANES lanes are done or SECONDS pass; then print the tails of the logs. A call returns at most 8 files.
limit=$1 lanes=$2 start=$SECONDS
pack() {
  tar czf "$OUT/results.tgz.tmp" --exclude='runs-*' -C /tmp res 2>/dev/null && mv "$OUT/results.tgz.tmp" "$OUT/results.tgz"
  python3 - <<'PY'
import glob, os, sqlite3, tarfile
os.makedirs("/tmp/dbs", exist_ok=True)
for path in glob.glob("/tmp/res/runs-*/*/*.db"):
    copy = "/tmp/dbs/" + os.path.basename(path)
    try:
        with sqlite3.connect(path) as src, sqlite3.connect(copy) as dst:
            src.backup(dst)
    except sqlite3.Error:
        pass
with tarfile.open(os.environ["OUT"] + "/dbs.tgz.tmp", "w:gz") as tar:
    for copy in sorted(glob.glob("/tmp/dbs/*.db"), key=os.path.getsize)[:12]:
        tar.add(copy, arcname=os.path.basename(copy))
os.replace(os.environ["OUT"] + "/dbs.tgz.tmp", os.environ["OUT"] + "/dbs.tgz")
PY
}
while [ $((SECONDS - start)) -lt "$limit" ]; do
  pack
  [ "$(ls /tmp/res/DONE-* 2>/dev/null | wc -l)" -ge "$lanes" ] && break
  sleep 20
done
pack
ls /tmp/res
for f in /tmp/res/search-*.log /tmp/res/lane-*.log; do echo "== $f"; tail -n 6 "$f"; done
nvidia-smi --query-gpu=index,utilization.gpu,memory.used --format=csv
