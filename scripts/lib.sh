# Helpers shared by the scripts in this folder (sourced, not run).

say() { printf '\033[1m[protokoll]\033[0m %s\n' "$*"; }

hash_of() { sha256sum "$1" | cut -c1-16; }

# A Python >= 3.12: the usual names, then pyenv's and the system's versioned interpreters.
find_python() {
  local candidate
  for candidate in "${PYTHON:-}" python3.13 python3.12 python3 \
      "$HOME"/.pyenv/versions/3.13*/bin/python3 "$HOME"/.pyenv/versions/3.12*/bin/python3 \
      /root/.pyenv/versions/3.13*/bin/python3 /root/.pyenv/versions/3.12*/bin/python3 \
      /usr/bin/python3.13 /usr/bin/python3.12 /usr/local/bin/python3.13 /usr/local/bin/python3.12; do
    [ -n "$candidate" ] || continue
    if "$candidate" -c 'import sys; sys.exit(sys.version_info < (3, 12))' >/dev/null 2>&1; then
      command -v "$candidate"
      return 0
    fi
  done
  echo "Protokoll needs Python 3.12 or newer (Django 6). None was found: install python3.12" \
       "(e.g. 'apt-get install python3.12' or 'pyenv install 3.12') or set PYTHON=/path/to/python." >&2
  exit 1
}

# Install Debian packages, as root or through sudo.
apt_install() {
  local sudo=""
  [ "$(id -u)" = 0 ] || sudo="sudo"
  say "installing Debian packages: $*"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "$@" >/dev/null
}
