#!/usr/bin/env bash
# Commit what the run wrote under data/ and push it to BRANCH of origin. When the push is
# rejected because another commit landed first (a push race), rebase onto it and try again,
# up to five pushes; then fail loudly. Never pushes with force.
#
#   usage: .github/scripts/push-data.sh BRANCH MESSAGE
#
# Works in the hourly job's shallow, blob-less, sparse clone: `git pull --rebase` fetches
# only the commits pushed since the clone (down to the commit the clone holds, which they
# descend from) and, lazily, the few blobs the rebase reads.
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
git commit --quiet -m "$message"
for attempt in $(seq "$attempts"); do
  if git push origin "HEAD:${branch}"; then
    exit 0
  fi
  if ((attempt == attempts)); then
    break
  fi
  echo "push rejected (attempt ${attempt}); rebasing onto ${branch}"
  sleep $((attempt * delay))
  if ! git pull --rebase origin "${branch}"; then
    echo "::error::could not rebase the new revisions onto ${branch}: a conflict means the run wrote a file another commit changed"
    exit 1
  fi
done
echo "::error::could not push the new revisions after ${attempts} attempts"
exit 1
