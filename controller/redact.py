"""Secrets never shown: URLs with their password replaced by ``***`` (``mqtt://user:***@host``).

Tiny and dependency-free, so the CLI's last-resort error printer can use it too.
"""

from __future__ import annotations

import re

_USERINFO = re.compile(r"(?P<scheme>[A-Za-z][A-Za-z0-9+.-]*://)(?P<user>[^:@/\s]*):[^/\s]*@")


def redact_url(text: str) -> str:
    """``text`` with the password of every URL in it replaced by ``***``; works on URLs that do
    not parse, and on whole messages."""
    return _USERINFO.sub(lambda m: f"{m['scheme']}{m['user']}:***@", text)
