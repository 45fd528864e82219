#!/usr/bin/env bash
# Refresh constraints.txt, the exact versions CI installs (.ci/run sets PIP_CONSTRAINT to it):
# in a fresh venv, without constraints, install the newest of everything the README's test
# command pulls in (`pip install -e '.[dev]'`), then record them all (`pip freeze --all`, the
# project itself left out). Run it with the Python CI uses (Debian's python3, 3.11):
#
#     tools/refresh_constraints.sh            # or PYTHON=python3.11 tools/refresh_constraints.sh
#
# then run the tests and commit constraints.txt with what the new versions needed.
set -euo pipefail
cd "$(dirname "$0")/.."

python="${PYTHON:-python3}"
venv="$(mktemp -d "${TMPDIR:-/tmp}/ludotheque-constraints-XXXXXX")"
trap 'rm -rf "$venv"' EXIT
# the old pins must not choose the new ones; the project's sources are what the venv imports
unset PIP_CONSTRAINT PYTHONPATH VIRTUAL_ENV
export PIP_DISABLE_PIP_VERSION_CHECK=1
# the editable install leaves the compiled cores beside their sources alone
export LUDOTHEQUE_PURE_PYTHON=1

"$python" -m venv "$venv"
"$venv/bin/python" -m pip install --quiet --upgrade pip
"$venv/bin/python" -m pip install --quiet -e '.[dev]'
"$venv/bin/python" -m pip check

version="$("$venv/bin/python" -c 'import platform; print(platform.python_version())')"
{
  echo "# The exact versions CI installs: .ci/run exports PIP_CONSTRAINT=constraints.txt before"
  echo "# the README's test command (pip install -e '.[dev]' && pytest)."
  echo "# Made by tools/refresh_constraints.sh (a fresh venv, pip install -e '.[dev]' without"
  echo "# constraints, pip freeze --all --exclude-editable) on $(date -u +%Y-%m-%d)"
  echo "# with Python $version on $(uname -s) $(uname -m). Do not edit: run the script again."
  "$venv/bin/python" -m pip freeze --all --exclude-editable
} >constraints.txt.new
mv constraints.txt.new constraints.txt
echo "constraints.txt: $(grep -cv '^#' constraints.txt) pins (Python $version)"
