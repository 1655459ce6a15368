"""``quietedit capture``: a public copy of each new revision's page, made by the Internet
Archive's Save Page Now 2 API, linked from the edit's page (``settings.archive_org``)."""
