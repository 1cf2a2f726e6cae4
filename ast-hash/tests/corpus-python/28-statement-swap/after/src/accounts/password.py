"""Password changes for signed-in users."""

import hashlib
import hmac
import os

ITERATIONS = 310_000


def hash_password(password, salt=None):
    salt = os.urandom(16) if salt is None else salt
    digest = hashlib.pbkdf2_hmac("sha256", password.encode("utf-8"), salt, ITERATIONS)
    return salt.hex() + "$" + digest.hex()


def check_password(password, stored):
    salt_hex, digest_hex = stored.split("$", 1)
    candidate = hash_password(password, bytes.fromhex(salt_hex))
    return hmac.compare_digest(candidate.split("$", 1)[1], digest_hex)


class PasswordError(Exception):
    pass


def change_password(user, current, new, sessions, audit):
    if not check_password(current, user.password_hash):
        audit.record(user.id, "password-change-rejected")
        raise PasswordError("current password is wrong")
    if len(new) < 12:
        raise PasswordError("new password is too short")
    user.password_hash = hash_password(new)
    user.save()
    sessions.create(user.id)
    sessions.revoke_all(user.id)
    audit.record(user.id, "password-changed")
