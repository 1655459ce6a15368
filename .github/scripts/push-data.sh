#!/usr/bin/env bash
# Commit what the run wrote under data/ and push it to BRANCH of origin. When the push is
# rejected because another commit landed first (a push race), rebase onto it and try again,
# up to five pushes; then fail loudly. Never pushes with force.
#
#   usage: .github/scripts/push-data.sh BRANCH MESSAGE
#
# Works in the hourly job's shallow sparse clone made without trees: it fetches only
# the commits pushed since the clone (down to the commit the clone holds, which they descend
# from), without their trees; then `quietedit fetch-trees` fetches, level by level, the
# folder listings the rebase reads (those of the folders checked out and of the folders
# this run wrote), before git would fetch a missing tree with every tree below it (for
# data/, the whole archive's); git fetches the few blobs the rebase reads lazily. In a
# clone with every tree (the posting job's), a plain fetch.
set -euo pipefail

branch=$1
message=$2
attempts=5
# seconds to wait before the n-th retry: n times this
delay=${PUSH_RETRY_SECONDS:-5}

# --sparse: a run may write a partition the sparse checkout does not hold (a document first
# seen just after midnight UTC); plain `git add` would refuse to add it
git add --sparse data/
if git diff --cached --quiet; then
  echo "No new revisions"
  exit 0
fi
# the folders this run wrote (from the index: a diff of two commits would read, and so
# fetch, the trees of folders they share)
written=$(git diff --cached --no-renames --name-only | xargs -r -n 200 dirname | sort -u)
git commit --quiet -m "$message"

# a clone made without trees (the hourly job's): there a rejected push would itself fetch
# the commit that beat it, and with it every tree of that commit (git's lazy fetch of a
# missing object asks for all below it). So the commits pushed since the clone are fetched
# first, without trees, and a lost race is seen, and rebased, before the push.
partial=""
if [ "$(git config --bool --default false --get remote.origin.promisor)" = "true" ]; then
  partial=1
fi

rebase_without_trees() {
  # the folder listings the rebase reads alone: those of the folders checked out and of
  # the folders this run wrote, at the fetched commit, level by level
  printf '%s\n' "${written}" | quietedit fetch-trees --revision FETCH_HEAD --stdin ||
    echo "::warning::the server refused folder listings by id; git fetches them itself"
  git rebase --quiet FETCH_HEAD
}

for attempt in $(seq "$attempts"); do
  if [ -n "${partial}" ]; then
    if ! git fetch --quiet --no-tags --filter=tree:0 origin "${branch}"; then
      # a passing failure (the network, the server): the commit stays, and the next
      # attempt fetches again
      echo "::warning::could not fetch ${branch} (attempt ${attempt})"
      sleep $((attempt * delay))
      continue
    fi
    if ! git merge-base --is-ancestor FETCH_HEAD HEAD; then
      echo "${branch} moved on (attempt ${attempt}); rebasing onto ${branch}"
      if ! rebase_without_trees; then
        echo "::error::could not rebase the new revisions onto ${branch}: a conflict means the run wrote a file another commit changed"
        exit 1
      fi
    fi
  fi
  # GIT_NO_LAZY_FETCH (git 2.45 on): a push that loses a race now does not fetch its trees
  if GIT_NO_LAZY_FETCH=1 git push origin "HEAD:${branch}"; then
    exit 0
  fi
  if ((attempt == attempts)); then
    break
  fi
  echo "push rejected (attempt ${attempt}); rebasing onto ${branch}"
  sleep $((attempt * delay))
  if [ -z "${partial}" ] && ! git pull --rebase origin "${branch}"; then
    echo "::error::could not rebase the new revisions onto ${branch}: a conflict means the run wrote a file another commit changed"
    exit 1
  fi
done
echo "::error::could not push the new revisions after ${attempts} attempts"
exit 1
