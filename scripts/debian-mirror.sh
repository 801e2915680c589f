#!/usr/bin/env bash
# debian-mirror.sh — print the Debian archive URIs this machine's apt uses, the first one first
# (deb822 .sources files, then one-line lists), skipping the security archive, which carries no
# packages of other suites. The fetch scripts of pinned Debian sources (fetch-quickjs.sh,
# fetch-quickjs-ng.sh) build their private apt lists from it, so no host is written into our code.
# Owns nothing; trusts /etc/apt.
set -uo pipefail
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
