#!/usr/bin/env bash
# The compilers of the starter bots (arbiter init): g++ and a JDK, for the
# tests that build and check every starter. Installs only what is missing,
# quietly; a machine without apt-get (or without root) is left as it is
# and those tests skip the language with a message.
set -euo pipefail

missing=()
command -v g++ >/dev/null 2>&1 || missing+=(g++)
{ command -v javac >/dev/null 2>&1 && command -v java >/dev/null 2>&1; } || missing+=(default-jdk-headless)
[ ${#missing[@]} -eq 0 ] && exit 0

if ! command -v apt-get >/dev/null 2>&1; then
	echo "deps.sh: ${missing[*]} missing and no apt-get here; the starter tests will skip them" >&2
	exit 0
fi
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo -n"
if ! $sudo true 2>/dev/null; then
	echo "deps.sh: ${missing[*]} missing and no root here; the starter tests will skip them" >&2
	exit 0
fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq >/dev/null
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
