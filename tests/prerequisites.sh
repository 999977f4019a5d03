#!/usr/bin/env bash
# Installs what the test suite needs beyond Java 17 and Maven, when it is missing:
# Debian's headless Chromium (tests render the scaler's SVG charts and web page in it), and
# schemathesis (PyPI), which fuzzes the scaler's API against its OpenAPI document.
set -euo pipefail

if ! command -v schemathesis >/dev/null 2>&1; then
  echo "kcscale: installing schemathesis for the tests (pip)" >&2
  python3 -m pip install --quiet --disable-pip-version-check 'schemathesis>=4,<5' >&2 \
    || { echo "kcscale: the tests need schemathesis: python3 -m pip install schemathesis" >&2; exit 1; }
  hash -r
fi

missing=()
command -v chromium >/dev/null 2>&1 || missing+=(chromium)

[ ${#missing[@]} -eq 0 ] && exit 0
if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "kcscale: installing ${missing[*]} for the tests (apt-get)" >&2
  apt-get update -qq >&2
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
else
  echo "kcscale: the tests need ${missing[*]}: install it (Debian: sudo apt-get install ${missing[*]}) and run again" >&2
  exit 1
fi
