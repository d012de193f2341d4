#!/usr/bin/env python3
"""Opens and seals OpenSecurityKit's modern envelopes with the openssl CLI and python3's standard library only,
for servers and for the interoperability tests (Tests/OpenSecurityKitTests/EnvelopeInteropTests.swift).

    scripts/envelope.py open --key recipient.pem [--sender sender-public.pem] [--id-field id] < envelope.json
    scripts/envelope.py seal --recipient recipient-public.pem --id ID [--signer sender.pem] < message > envelope.json

The modern profile (docs/design/kit.md):
  encryptkey  base64 of the 32-byte message key wrapped with RSA-OAEP (SHA-256 for hash and MGF1)
  id          the sender's identifier, in clear; the AES-GCM associated data (its UTF-8)
  data        base64 of nonce (12 bytes) || AES-256-GCM ciphertext || tag (16 bytes)
  sign        optional: base64 RSA PKCS#1 v1.5 SHA-256 signature over
              "OpenSecurityKit envelope v1\\n" || u32(len id) || id || u32(len key) || key || u64(len data) || data

RSA and signatures go through `openssl pkeyutl` / `openssl dgst`. `openssl enc` has no AEAD mode and python3's
standard library has no AES, so AES-256-GCM goes through libcrypto's EVP functions by ctypes (the same OpenSSL);
without libcrypto the script exits with status 3. Exit status 1: the envelope does not open. Only RSA recipients.
"""
import argparse
import base64
import ctypes
import ctypes.util
import json
import os
import struct
import subprocess
import sys
import tempfile

LABEL = b"OpenSecurityKit envelope v1\n"
EVP_CTRL_GCM_SET_IVLEN = 0x9
EVP_CTRL_GCM_GET_TAG = 0x10
EVP_CTRL_GCM_SET_TAG = 0x11


class Unavailable(Exception):
    pass


def libcrypto():
    name = ctypes.util.find_library("crypto")
    candidates = [name] if name else []
    candidates += ["libcrypto.so.3", "libcrypto.so"]
    for candidate in candidates:
        try:
            lib = ctypes.CDLL(candidate)
        except OSError:
            continue
        lib.EVP_CIPHER_CTX_new.restype = ctypes.c_void_p
        lib.EVP_aes_256_gcm.restype = ctypes.c_void_p
        lib.EVP_CIPHER_CTX_free.argtypes = [ctypes.c_void_p]
        for function in ("EVP_EncryptInit_ex", "EVP_DecryptInit_ex"):
            getattr(lib, function).argtypes = [ctypes.c_void_p] * 5
        for function in ("EVP_EncryptUpdate", "EVP_DecryptUpdate"):
            getattr(lib, function).argtypes = [
                ctypes.c_void_p, ctypes.c_void_p, ctypes.POINTER(ctypes.c_int), ctypes.c_void_p, ctypes.c_int]
        for function in ("EVP_EncryptFinal_ex", "EVP_DecryptFinal_ex"):
            getattr(lib, function).argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.POINTER(ctypes.c_int)]
        lib.EVP_CIPHER_CTX_ctrl.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.c_int, ctypes.c_void_p]
        return lib
    raise Unavailable("libcrypto not found for AES-GCM")


def gcm(encrypt, key, nonce, aad, data, tag=None):
    """AES-256-GCM through libcrypto: (ciphertext, tag) when encrypting, the plaintext or None when decrypting."""
    lib = libcrypto()
    ctx = lib.EVP_CIPHER_CTX_new()
    init, update, final = (
        (lib.EVP_EncryptInit_ex, lib.EVP_EncryptUpdate, lib.EVP_EncryptFinal_ex) if encrypt else
        (lib.EVP_DecryptInit_ex, lib.EVP_DecryptUpdate, lib.EVP_DecryptFinal_ex))
    try:
        ok = init(ctx, lib.EVP_aes_256_gcm(), None, None, None) == 1
        ok = ok and lib.EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_GCM_SET_IVLEN, len(nonce), None) == 1
        ok = ok and init(ctx, None, None, key, nonce) == 1
        length = ctypes.c_int(0)
        if aad:
            ok = ok and update(ctx, None, ctypes.byref(length), aad, len(aad)) == 1
        out = ctypes.create_string_buffer(len(data) + 16)
        ok = ok and update(ctx, out, ctypes.byref(length), data, len(data)) == 1
        written = length.value
        if not encrypt:
            tag_buffer = ctypes.create_string_buffer(tag, len(tag))
            ok = ok and lib.EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_GCM_SET_TAG, len(tag), tag_buffer) == 1
        final_ok = final(ctx, ctypes.byref(out, written), ctypes.byref(length)) == 1
        if encrypt:
            tag_out = ctypes.create_string_buffer(16)
            ok = ok and final_ok and lib.EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_GCM_GET_TAG, 16, tag_out) == 1
            if not ok:
                raise RuntimeError("AES-GCM encryption failed")
            return out.raw[:written], tag_out.raw
        return out.raw[:written] if ok and final_ok else None
    finally:
        lib.EVP_CIPHER_CTX_free(ctx)


def openssl(arguments, data=None):
    result = subprocess.run(["openssl"] + arguments, input=data, capture_output=True)
    return result.returncode, result.stdout


def signed_bytes(identifier, key, payload):
    ident = identifier.encode("utf-8")
    return (LABEL + struct.pack(">I", len(ident)) + ident + struct.pack(">I", len(key)) + key
            + struct.pack(">Q", len(payload)) + payload)


OAEP = ["-pkeyopt", "rsa_padding_mode:oaep", "-pkeyopt", "rsa_oaep_md:sha256", "-pkeyopt", "rsa_mgf1_md:sha256"]


def open_envelope(arguments):
    envelope = json.loads(sys.stdin.buffer.read())
    identifier = envelope[arguments.id_field]
    wrapped = base64.b64decode(envelope["encryptkey"], validate=True)
    payload = base64.b64decode(envelope["data"], validate=True)
    with tempfile.TemporaryDirectory() as directory:
        if arguments.sender:
            message = os.path.join(directory, "signed")
            signature = os.path.join(directory, "signature")
            with open(message, "wb") as handle:
                handle.write(signed_bytes(identifier, wrapped, payload))
            with open(signature, "wb") as handle:
                handle.write(base64.b64decode(envelope.get("sign", ""), validate=True))
            status, _ = openssl(["dgst", "-sha256", "-verify", arguments.sender, "-signature", signature, message])
            if status != 0:
                return 1
        status, key = openssl(["pkeyutl", "-decrypt", "-inkey", arguments.key] + OAEP, wrapped)
    if status != 0 or len(key) != 32 or len(payload) < 28:
        return 1
    plaintext = gcm(False, key, payload[:12], identifier.encode("utf-8"), payload[12:-16], payload[-16:])
    if plaintext is None:
        return 1
    sys.stdout.buffer.write(plaintext)
    return 0


def seal_envelope(arguments):
    plaintext = sys.stdin.buffer.read()
    key = os.urandom(32)
    nonce = os.urandom(12)
    status, wrapped = openssl(["pkeyutl", "-encrypt", "-pubin", "-inkey", arguments.recipient] + OAEP, key)
    if status != 0:
        return 2
    ciphertext, tag = gcm(True, key, nonce, arguments.id.encode("utf-8"), plaintext)
    payload = nonce + ciphertext + tag
    envelope = {
        "encryptkey": base64.b64encode(wrapped).decode(), arguments.id_field: arguments.id,
        "data": base64.b64encode(payload).decode(),
    }
    if arguments.signer:
        status, signature = openssl(
            ["dgst", "-sha256", "-sign", arguments.signer], signed_bytes(arguments.id, wrapped, payload))
        if status != 0:
            return 2
        envelope["sign"] = base64.b64encode(signature).decode()
    sys.stdout.write(json.dumps(envelope))
    return 0


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="command", required=True)
    opening = commands.add_parser("open")
    opening.add_argument("--key", required=True)
    opening.add_argument("--sender")
    opening.add_argument("--id-field", default="id")
    sealing = commands.add_parser("seal")
    sealing.add_argument("--recipient", required=True)
    sealing.add_argument("--id", required=True)
    sealing.add_argument("--signer")
    sealing.add_argument("--id-field", default="id")
    arguments = parser.parse_args()
    try:
        return open_envelope(arguments) if arguments.command == "open" else seal_envelope(arguments)
    except Unavailable as error:
        sys.stderr.write(f"envelope.py: {error}\n")
        return 3
    except (ValueError, KeyError) as error:
        sys.stderr.write(f"envelope.py: not an envelope: {error}\n")
        return 1


if __name__ == "__main__":
    sys.exit(main())
