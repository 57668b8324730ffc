#!/usr/bin/env bash
# DynamoDB Local (the embedded store of `npm start` and the tests) runs on Java 17+.
# Installs it with apt when missing and we may; otherwise says what to install.
set -euo pipefail
if [ -n "${DYNAMODB_ENDPOINT:-}" ] || java -version >/dev/null 2>&1; then
  exit 0
fi
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  echo "Java not found: installing openjdk-17-jre-headless with apt-get" >&2
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq openjdk-17-jre-headless >/dev/null
  java -version
  exit 0
fi
echo "DynamoDB Local needs Java 17 or later. Install it, e.g.: sudo apt-get install -y openjdk-17-jre-headless" >&2
echo "(or set DYNAMODB_ENDPOINT to a running DynamoDB-compatible endpoint)" >&2
exit 1
