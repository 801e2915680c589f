#!/usr/bin/env bash
# private-apt.sh — run apt-get against a private apt state for one Debian suite, on the mirror this
# machine's apt already uses, for the fetch scripts of pinned Debian sources (fetch-quickjs.sh,
# fetch-quickjs-ng.sh). The machine's own apt lists are untouched; the archive keyring checks the
# signed index, so what apt hands over is what the archive published.
#
#   private-apt.sh TYPE SUITE STATE_DIR WORK_DIR APT-GET-ARGS...
#
# TYPE is deb or deb-src. STATE_DIR is emptied and holds the list and apt's caches; the command runs
# in WORK_DIR (downloads land there). Exit 1 with a message when no mirror is configured; otherwise
# apt-get's own status. Owns STATE_DIR; trusts /etc/apt. No host is written into our code: the
# mirror is the first non-security URI of the machine's deb822 .sources, then of one-line lists.
set -euo pipefail
[ $# -ge 5 ] || { echo "usage: private-apt.sh deb|deb-src SUITE STATE_DIR WORK_DIR APT-GET-ARGS..." >&2; exit 2; }
type=$1 suite=$2 state=$3 work=$4
shift 4

debian_mirrors() {
  local f
  for f in /etc/apt/sources.list.d/*.sources; do
    [ -f "$f" ] || continue
    awk '
      BEGIN { RS=""; FS="\n" }
      {
        uri=""; suites=""; types="";
        for (i = 1; i <= NF; i++) {
          if ($i ~ /^URIs:/)   { sub(/^URIs:[ \t]*/, "", $i); split($i, u, /[ \t]+/); uri = u[1] }
          if ($i ~ /^Suites:/) { suites = $i }
          if ($i ~ /^Types:/)  { types = $i }
        }
        if (uri != "" && types ~ /deb/ && suites !~ /-security/ && uri !~ /security/) { print uri; exit }
      }' "$f"
  done
  for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
    [ -f "$f" ] || continue
    awk '$1 == "deb" || $1 == "deb-src" {
           i = 2; if ($i ~ /^\[/) { while ($i !~ /\]$/) i++; i++ }
           if ($(i+1) !~ /-security/ && $i !~ /security/) { print $i; exit }
         }' "$f"
  done
}

mirror=$(debian_mirrors | grep -m1 -E '^(https?|file|mirror\+[a-z]+)://' || true)
if [ -z "$mirror" ]; then
  echo "private-apt: no Debian mirror found in /etc/apt sources" >&2
  exit 1
fi
rm -rf "$state"
mkdir -p "$state/sources.list.d" "$state/lists/partial" "$state/cache/archives/partial" "$work"
printf 'Types: %s\nURIs: %s\nSuites: %s\nComponents: main\nSigned-By: %s\n' \
  "$type" "$mirror" "$suite" /usr/share/keyrings/debian-archive-keyring.gpg > "$state/sources.list.d/private.sources"
apt_opts=(
  -o "Dir::Etc::SourceList=/dev/null"
  -o "Dir::Etc::SourceParts=$state/sources.list.d"
  -o "Dir::Etc::Preferences=/dev/null"
  -o "Dir::Etc::PreferencesParts=/dev/null"
  -o "Dir::State::Lists=$state/lists"
  -o "Dir::Cache=$state/cache"
  -o "APT::Sandbox::User=root"
  -o "Debug::NoLocking=1"
)
apt-get -qq "${apt_opts[@]}" update >&2
cd "$work"
apt-get -qq "${apt_opts[@]}" "$@" >&2
