#!/usr/bin/env bash
# Attach a database export to a release of its own, "database-<DAY>", marked latest, so
# that <repository>/releases/latest, which the site's about page links, is always the
# newest one (evidence releases are never marked latest).
#
#   usage: .github/scripts/publish-database.sh DIR DAY
#
# DIR holds quietedit.db.gz and quietedit.metadata.json (quietedit export sqlite, then
# gzip); DAY is the export's date, YYYY-MM-DD. A database of GitHub's limit for a release
# asset (2 GiB) or more goes up in numbered parts, quietedit.db.gz.part-000, -001, …, each
# under the limit, with quietedit.db.gz.sha256, the SHA-256 of every part and of the whole;
# `cat quietedit.db.gz.part-* | gunzip > quietedit.db` joins them (the release notes say
# so). A rerun on the same day uploads only what the release does not hold yet; an asset
# left half-uploaded by an interrupted upload is deleted and uploaded again. Nothing else
# is ever replaced.
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
database=quietedit.db.gz
for name in "$database" quietedit.metadata.json; do
  [[ -f "$dir/$name" ]] || { echo "$dir/$name is missing: run quietedit export sqlite first" >&2; exit 2; }
done
# GitHub refuses a release asset of 2 GiB or more
limit=${DATABASE_ASSET_LIMIT:-2147483648}
part=${DATABASE_PART_SIZE:-$((limit - limit / 16))}  # 1.875 GiB: well under the limit
if ((part <= 0 || part >= limit)); then
  echo "DATABASE_PART_SIZE must be between 1 and $((limit - 1)) bytes, not $part" >&2
  exit 2
fi
size=$(stat -c %s "$dir/$database")
notes="The whole archive as one SQLite database (quietedit export sqlite), with Datasette's metadata: gunzip $database, then datasette quietedit.db -m quietedit.metadata.json (docs/commands.md)."
files=("$database" quietedit.metadata.json)
if ((size >= limit)); then
  # Split into parts under the limit (the same file always splits the same way, so a
  # rerun finds the parts it uploaded), with their checksums beside them.
  rm -f "$dir/$database".part-* "$dir/$database.sha256"
  split --bytes="$part" --numeric-suffixes --suffix-length=3 "$dir/$database" "$dir/$database.part-"
  parts=()
  for path in "$dir/$database".part-*; do parts+=("${path##*/}"); done
  (cd "$dir" && sha256sum "${parts[@]}" "$database") >"$dir/$database.sha256"
  files=("$database.sha256" "${parts[@]}" quietedit.metadata.json)
  notes="The whole archive as one SQLite database (quietedit export sqlite), with Datasette's metadata. The gzipped database is $size bytes, over GitHub's limit for one file, so it comes in ${#parts[@]} parts: download them and $database.sha256, check them with sha256sum --ignore-missing -c $database.sha256, then join them with: cat $database.part-* | gunzip > quietedit.db (then datasette quietedit.db -m quietedit.metadata.json; docs/commands.md)."
  echo "$database is $size bytes, over GitHub's limit of $limit for a release asset: uploading it in ${#parts[@]} parts"
fi
for name in "${files[@]}"; do
  asset=$(stat -c %s "$dir/$name")
  if ((asset >= limit)); then
    echo "$dir/$name is $asset bytes, over GitHub's limit of $limit for a release asset" >&2
    exit 1
  fi
done

if ! gh api "repos/{owner}/{repo}/releases/tags/$tag" --jq .id >/dev/null 2>&1; then
  gh release create "$tag" --latest --title "Database $day" --notes "$notes" >/dev/null
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
