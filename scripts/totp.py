#!/usr/bin/env python3
"""Prints the current TOTP code (RFC 6238: HMAC-SHA1, 6 digits, 30 s) of a base32 secret.

For the demo staff accounts (`carthage seed` prints their secrets) and the benches; any
authenticator app does the same. `--next` prints the code of the next step instead (a code
signs in once: a second sign-in within the same 30 s takes the next step's code).

    python3 scripts/totp.py INQXE5DIMFTWKRDFNVXUCZDNNFXCCIJB
"""
import base64
import hashlib
import hmac
import struct
import sys
import time


def code(secret: str, step: int) -> str:
    key = base64.b32decode(secret.upper() + "=" * (-len(secret) % 8))
    digest = hmac.new(key, struct.pack(">Q", step), hashlib.sha1).digest()
    offset = digest[-1] & 0x0F
    value = struct.unpack(">I", digest[offset : offset + 4])[0] & 0x7FFFFFFF
    return f"{value % 1_000_000:06d}"


if __name__ == "__main__":
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    if len(args) != 1:
        sys.exit(__doc__)
    step = int(time.time()) // 30 + (1 if "--next" in sys.argv else 0)
    print(code(args[0], step))
