#!/usr/bin/env bash
# Upload WARC evidence files to GitHub releases, one release per month, and remove each
# local file once a release holds it, byte for byte.
#
#   usage: .github/scripts/upload-evidence.sh [DIR]        (DIR defaults to "evidence")
#
# DIR/<YYYY>-<MM>/<name>.warc.gz becomes the asset <name>.warc.gz of the release
# "evidence-<YYYY>-<MM>", created (never marked latest) when missing. GitHub holds at most
# 1,000 assets per release, so a full month goes on in "evidence-<YYYY>-<MM>-2", "-3" ...
#
# Nothing is ever replaced or lost:
# - a file is removed only when its upload succeeded, or when a release of its month
#   already holds the same bytes under its name (an earlier run was cut off after
#   uploading it);
# - an asset of the same name with other bytes is never replaced: the file is kept and
#   reported, for a person to compare them;
# - an asset left half-uploaded by an interrupted upload is deleted and uploaded again;
# - a file whose upload fails is kept for the next run.
# Exits 1 when any file was kept, after trying every file.
#
# Needs gh, authenticated with a token that may write the repository's contents (GH_TOKEN),
# and the repository in GH_REPO or as the git remote of the current directory.
set -euo pipefail

dir=${1:-evidence}
# GitHub's limit on the number of assets of one release
per_release=${EVIDENCE_ASSETS_PER_RELEASE:-1000}
kept=0
scratch=$(mktemp -d)
trap 'rm -rf -- "$scratch"' EXIT

keep() { # FILE REASON
  echo "::error::${1}: ${2}; kept for the next run"
  kept=$((kept + 1))
}

tag_of() { # MONTH PART
  if [[ $2 -eq 1 ]]; then echo "evidence-$1"; else echo "evidence-$1-$2"; fi
}

# The numeric id of release TAG, created when missing; fails when it can be neither found
# nor created.
release_id() { # TAG MONTH
  local id
  if id=$(gh api "repos/{owner}/{repo}/releases/tags/$1" --jq .id 2>/dev/null); then
    echo "$id"
    return 0
  fi
  if ! gh release create "$1" --latest=false --title "Evidence $2" \
    --notes "The raw responses quietedit archived in $2, as WARC files: the evidence behind the revisions in data/. Check them with quietedit verify --evidence (docs/github.md)." \
    >/dev/null; then
    echo "release $1 could not be created; looking again (another job may have created it)" >&2
  fi
  gh api "repos/{owner}/{repo}/releases/tags/$1" --jq .id
}

# One line per asset of release ID: name, size, state, asset id (tab-separated).
assets_of() { # ID
  gh api --paginate "repos/{owner}/{repo}/releases/$1/assets?per_page=100" \
    --jq '.[] | [.name, (.size | tostring), .state, (.id | tostring)] | @tsv'
}

# Upload FILE as NAME into the first release of MONTH that holds NAME or has room.
upload() { # FILE MONTH NAME
  local file=$1 month=$2 name=$3 part=1 tag id table line size state asset_id local_size
  local_size=$(wc -c <"$file" | tr -d ' ')
  while true; do
    tag=$(tag_of "$month" "$part")
    if ! id=$(release_id "$tag" "$month"); then
      keep "$file" "release $tag could not be found or created"
      return 0
    fi
    if ! table=$(assets_of "$id"); then
      keep "$file" "the assets of release $tag could not be listed"
      return 0
    fi
    line=$(awk -F '\t' -v name="$name" '$1 == name' <<<"$table")
    if [[ -n $line ]]; then
      IFS=$'\t' read -r _ size state asset_id <<<"$line"
      if [[ $state != uploaded ]]; then
        echo "$tag: $name was left half-uploaded ($state); uploading it again"
        if ! gh api -X DELETE "repos/{owner}/{repo}/releases/assets/$asset_id" >/dev/null; then
          keep "$file" "the half-uploaded $name in release $tag could not be deleted"
          return 0
        fi
      elif [[ $size != "$local_size" ]]; then
        keep "$file" "release $tag already holds another $name ($size bytes, this one $local_size); it is never replaced: compare the two by hand"
        return 0
      elif gh api -H "Accept: application/octet-stream" \
        "repos/{owner}/{repo}/releases/assets/$asset_id" >"$scratch/asset" &&
        cmp -s "$scratch/asset" "$file"; then
        echo "$tag already holds $name"
        rm -- "$file"
        return 0
      else
        keep "$file" "release $tag already holds another $name, or it could not be read back; it is never replaced: compare the two by hand"
        return 0
      fi
    elif [[ -n $table ]] && (($(wc -l <<<"$table") >= per_release)); then
      part=$((part + 1))
      continue
    fi
    if gh release upload "$tag" "$file"; then
      echo "uploaded $name to $tag"
      rm -- "$file"
    else
      keep "$file" "the upload to release $tag failed"
    fi
    return 0
  done
}

if [[ ! -d $dir ]]; then
  echo "no evidence to upload: $dir does not exist"
  exit 0
fi

while IFS= read -r -d '' file; do
  month=$(basename "$(dirname "$file")")
  name=$(basename "$file")
  if [[ ! $month =~ ^[0-9]{4}-[0-9]{2}$ || ! $name =~ ^[A-Za-z0-9][A-Za-z0-9._-]*\.warc\.gz$ ]]; then
    keep "$file" "not a month's WARC file (<YYYY>-<MM>/<name>.warc.gz)"
    continue
  fi
  upload "$file" "$month" "$name"
done < <(find "$dir" -mindepth 2 -maxdepth 2 -type f -name '*.warc.gz' -print0 | sort -z)

# month folders left empty; the folder itself stays, so the cache that carries it to the
# next run is saved even when it holds nothing
find "$dir" -mindepth 1 -type d -empty -delete

if ((kept > 0)); then
  echo "::error::${kept} evidence file(s) kept in ${dir}/ for the next run"
  exit 1
fi
