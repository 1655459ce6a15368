#!/usr/bin/env bash
# Download last week's database export, for `quietedit export sqlite --update`: the
# latest release's quietedit.db.gz (publish-database.sh attaches it to a release of its
# own, marked latest; evidence releases never are), or its numbered parts, checked
# against quietedit.db.gz.sha256 and joined, unpacked to DIR/quietedit.db.
#
#   usage: .github/scripts/download-database.sh DIR
#
# Exits 1, leaving no DIR/quietedit.db, when there is no such release or its database
# cannot be downloaded, checked or unpacked: the caller then exports the archive whole.
# The update itself checks what the file holds (a database it cannot trust gives a full
# export too).
#
# Needs gh, authenticated (GH_TOKEN), and the repository in GH_REPO or as the git remote
# of the current directory.
set -euo pipefail

dir=$1
database=quietedit.db.gz
work="$dir/.last-week"
out="$dir/quietedit.db"
fail() {
  echo "no database of last week: $1" >&2
  rm -rf "$work" "$out"
  exit 1
}
rm -rf "$work" "$out"
mkdir -p "$work"

tag=$(gh api "repos/{owner}/{repo}/releases/latest" --jq .tag_name 2>/dev/null) ||
  fail "no latest release"
[[ $tag == database-* ]] || fail "the latest release, '$tag', is not a database release"
gh release download "$tag" --dir "$work" --pattern "$database*" >/dev/null 2>&1 ||
  fail "the assets of $tag cannot be downloaded"

if [[ -f $work/$database.sha256 ]]; then  # in parts: each part checked, then the whole
  parts=()
  while read -r _ name; do
    [[ $name == "$database".part-* ]] && parts+=("$name")
  done <"$work/$database.sha256"
  ((${#parts[@]} > 0)) || fail "$database.sha256 of $tag lists no parts"
  (cd "$work" && sha256sum --quiet --ignore-missing -c "$database.sha256") ||
    fail "a part of $tag does not match its checksum"
  for name in "${parts[@]}"; do
    [[ -f $work/$name ]] || fail "$tag lacks $name"
  done
  whole=$(awk -v n="$database" '$2 == n { print $1 }' "$work/$database.sha256")
  joined=$(cd "$work" && cat "${parts[@]}" | sha256sum | cut -d' ' -f1)
  [[ -n $whole && $whole == "$joined" ]] || fail "the parts of $tag do not join into $database"
  (cd "$work" && cat "${parts[@]}") | gunzip >"$out" || fail "$database of $tag cannot be unpacked"
elif [[ -f $work/$database ]]; then
  gunzip -c "$work/$database" >"$out" || fail "$database of $tag cannot be unpacked"
else
  fail "$tag holds no $database"
fi
rm -rf "$work"
echo "last week's database: $tag ($(stat -c %s "$out") bytes unpacked)"
