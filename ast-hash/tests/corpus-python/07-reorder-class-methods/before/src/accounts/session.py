"""Server-side sessions kept in a key-value store."""

import secrets
import time

SESSION_TTL = 30 * 60


class SessionStore:
    """Stores session dicts under random tokens with a sliding expiry."""

    prefix = "sess:"

    def __init__(self, backend, ttl=SESSION_TTL, clock=time.time):
        self._backend = backend
        self._ttl = ttl
        self._clock = clock

    def create(self, user_id):
        token = self.new_token()
        self._backend.set(self._key(token), {"user_id": user_id}, self._ttl)
        return token

    def destroy(self, token):
        self._backend.delete(self._key(token))

    def load(self, token):
        data = self._backend.get(self._key(token))
        if data is None:
            return None
        self.touch(token, data)
        return data

    def touch(self, token, data):
        data["seen_at"] = self._clock()
        self._backend.set(self._key(token), data, self._ttl)

    def _key(self, token):
        return self.prefix + token

    @staticmethod
    def new_token():
        return secrets.token_urlsafe(32)

    @classmethod
    def in_memory(cls):
        from .backends import MemoryBackend

        return cls(MemoryBackend())

    @property
    def ttl(self):
        return self._ttl
