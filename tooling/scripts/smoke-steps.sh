# The progress and failure lines of the smoke scripts, sourced by them after setting
# smoke_name (the script, in a failure line) and smoke_tag (the prefix of a step line).
# shellcheck shell=bash
started=$(date +%s)
step() { printf '\n--- %s: %s (%ss)\n' "$smoke_tag" "$1" "$(($(date +%s) - started))"; }
# fail MESSAGE [LOG]: says what failed, shows the end of LOG when there is one, and exits 1.
fail() {
  printf '\n%s: FAILED: %s\n' "$smoke_name" "$1" >&2
  [ -n "${2:-}" ] && [ -f "$2" ] && { echo "--- last lines of $2:" >&2; tail -n 40 "$2" >&2; }
  exit 1
}
