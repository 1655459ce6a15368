"""``quietedit post``: new edits posted to Mastodon and Bluesky, each article a thread.

``compose`` (which edits, what each post says) and ``ledger`` (what was posted) are pure;
``mastodon`` and ``bluesky`` hold one library each; ``run`` gathers, decides and applies.
"""
