#!/bin/sh
# deps.sh PKG... — make sure the named Debian packages are installed.
# As root, installs the missing ones with apt-get; otherwise prints the exact
# apt-get line to run and fails, so `make run` / `make test` stop early.
missing=""
for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
if [ "$(id -u)" = 0 ]; then
    echo "deps: installing:$missing" >&2
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq >&2 || exit 1
    apt-get install -y -qq --no-install-recommends $missing >&2 || exit 1
    exit 0
fi
echo "deps: missing packages; run as root:" >&2
echo "  sudo apt-get install -y$missing" >&2
exit 1
