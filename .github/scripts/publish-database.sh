#!/usr/bin/env bash
# Attach a database export to a release of its own, "database-<DAY>", marked latest, so
# that <repository>/releases/latest/download/quietedit.db.gz is always the newest one
# (evidence releases are never marked latest).
#
#   usage: .github/scripts/publish-database.sh DIR DAY
#
# DIR holds quietedit.db.gz and quietedit.metadata.json (quietedit export sqlite, then
# gzip); DAY is the export's date, YYYY-MM-DD. A rerun on the same day uploads only what
# the release does not hold yet; an asset left half-uploaded by an interrupted upload is
# deleted and uploaded again. Nothing else is ever replaced.
#
# Needs gh, authenticated with a token that may write the repository's contents (GH_TOKEN),
# and the repository in GH_REPO or as the git remote of the current directory.
set -euo pipefail

dir=$1
day=$2
if [[ ! $day =~ ^[0-9]{4}-[0-9]{2}-[0-9]{2}$ ]]; then
  echo "DAY must be YYYY-MM-DD, not '$day'" >&2
  exit 2
fi
tag="database-$day"
files=(quietedit.db.gz quietedit.metadata.json)
# GitHub refuses a release asset of 2 GiB or more
limit=${DATABASE_ASSET_LIMIT:-2147483648}
for name in "${files[@]}"; do
  [[ -f "$dir/$name" ]] || { echo "$dir/$name is missing: run quietedit export sqlite first" >&2; exit 2; }
  size=$(stat -c %s "$dir/$name")
  if ((size >= limit)); then
    echo "$dir/$name is $size bytes, over GitHub's limit of $limit for a release asset: the archive needs an export in parts" >&2
    exit 1
  fi
done

if ! gh api "repos/{owner}/{repo}/releases/tags/$tag" --jq .id >/dev/null 2>&1; then
  gh release create "$tag" --latest --title "Database $day" \
    --notes "The whole archive as one SQLite database (quietedit export sqlite), with Datasette's metadata: gunzip quietedit.db.gz, then datasette quietedit.db -m quietedit.metadata.json (docs/commands.md)." \
    >/dev/null
fi
assets=$(gh api "repos/{owner}/{repo}/releases/tags/$tag" \
  --jq '.assets[] | [.name, .state, (.id | tostring)] | @tsv')
for name in "${files[@]}"; do
  state=$(awk -F '\t' -v n="$name" '$1 == n { print $2 }' <<<"$assets")
  if [[ $state == uploaded ]]; then
    echo "$tag already holds $name"
    continue
  fi
  if [[ -n $state ]]; then  # cut off by an earlier run: GitHub keeps it in state "starter"
    id=$(awk -F '\t' -v n="$name" '$1 == n { print $3 }' <<<"$assets")
    gh api -X DELETE "repos/{owner}/{repo}/releases/assets/$id"
  fi
  gh release upload "$tag" "$dir/$name"
  echo "uploaded $name to $tag"
done
