"""Helpers shared by the interop tests: end-user tokens and clients, raw-call metadata.

Sources: docs/reference/firestore-wire.md §2.2 (auth in the emulator), §4.4 (emulator ID
tokens), §7 (Python client metadata); docs/reference/grpc-and-listen.md §11.
"""

from __future__ import annotations

import base64
import json
import time

from google.cloud import firestore


def unsigned_jwt(uid: str, project: str, **claims) -> str:
    """An unsigned (`alg: none`) ID token as the Auth emulator issues (docs/reference/firestore-wire.md §4.4)."""
    now = int(time.time())
    payload = {
        "iss": f"https://securetoken.google.com/{project}", "aud": project, "auth_time": now,
        "user_id": uid, "sub": uid, "iat": now, "exp": now + 3600,
        "firebase": {"identities": {}, "sign_in_provider": "custom"}, **claims,
    }

    def segment(obj) -> str:
        return base64.urlsafe_b64encode(json.dumps(obj, separators=(",", ":")).encode()).rstrip(b"=").decode()

    return f"{segment({'alg': 'none', 'typ': 'JWT'})}.{segment(payload)}."


class UserClient(firestore.Client):
    """A google-cloud-firestore client that authenticates as an end user (or nobody).

    In emulator mode the client appends `authorization: Bearer owner` to every call's
    metadata (base_client.py `_rpc_metadata`), and a credential's `id_token` only ends up in
    a channel *option*, never in a header. Every RPC — unary, server streaming and the
    Listen stream (watch.py) — takes its metadata from `_rpc_metadata`, so replacing the
    authorization entry there is the one place that changes what goes on the wire.
    `token=None` sends no authorization header at all (unauthenticated).
    """

    def __init__(self, *, token: str | None, **kwargs):
        super().__init__(**kwargs)
        self._user_token = token

    @property
    def _rpc_metadata(self):
        metadata = [(k, v) for k, v in super()._rpc_metadata if k != "authorization"]
        if self._user_token is not None:
            metadata.append(("authorization", f"Bearer {self._user_token}"))
        return metadata


def owner_metadata(project: str):
    return [("google-cloud-resource-prefix", f"projects/{project}/databases/(default)"),
            ("authorization", "Bearer owner")]
