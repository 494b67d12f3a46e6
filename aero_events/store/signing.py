"""Ed25519 signatures of exported games: proof that a record was not altered after its players signed it.

A game's JSON Lines export (:func:`~aero_events.store.transfer.export_jsonl`) is canonical: the same
stored game always exports to the same bytes, in any store it was imported into. Each player (or a
tournament organiser) signs those bytes with a private key; the signatures are kept beside the export in
``GAME.jsonl.sig``, one JSON line each, so a record may carry two signatures (both players) or more.
Anyone holding the public keys checks them (``aero verify FILE --key alice.pub --key bob.pub``): every
signature in the file must hold over the export's bytes, and each key asked for must have signed.

What is signed: ``b"aero-events/jsonl-signature/1\\n" + sha256(export bytes)`` (a fixed prefix, so a
signature made for something else never passes as one of these). Keys are PEM files (PKCS#8 private,
SubjectPublicKeyInfo public, as :func:`generate_key` writes them) or 64 hex digits of a raw Ed25519 key.
Signing uses the ``cryptography`` package.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import msgspec
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from aero_events.core.errors import DataError
from aero_events.core.ids import check_label

SIGNATURE_FORMAT = "aero-events/signature"
SIGNATURE_VERSION = 1
_DOMAIN = b"aero-events/jsonl-signature/1\n"


class Signature(msgspec.Struct, frozen=True, kw_only=True):
    """One line of a ``.sig`` file."""

    format: str
    version: int
    signer: str
    public_key: str
    sha256: str
    signature: str


class SignatureCheck(msgspec.Struct, frozen=True, kw_only=True):
    """What :func:`check_signatures` found: ``ok`` when every signature holds and every key asked for signed."""

    sha256: str
    valid: tuple[str, ...]
    invalid: tuple[str, ...]
    missing: tuple[str, ...]

    @property
    def ok(self) -> bool:
        return not self.invalid and not self.missing and bool(self.valid)

    def summary(self) -> str:
        parts = []
        if self.valid:
            parts.append("signed by " + ", ".join(self.valid))
        if self.invalid:
            parts.append("INVALID signature by " + ", ".join(self.invalid)
                         + " (the record was altered after it was signed)")
        if self.missing:
            parts.append("NOT signed by " + ", ".join(self.missing))
        if not parts:
            parts.append("no signatures")
        return "; ".join(parts)


def signature_path(export_path: str | os.PathLike) -> Path:
    """Where the signatures of an export are kept: beside it, with ``.sig`` appended."""
    return Path(f"{os.fspath(export_path)}.sig")


def message(data: bytes) -> bytes:
    return _DOMAIN + hashlib.sha256(data).digest()


def generate_key(private_path: str | os.PathLike, public_path: str | os.PathLike | None = None) -> Path:
    """Write a new Ed25519 private key (PEM, file mode 0600) and its public key; returns the public key's path."""
    key = Ed25519PrivateKey.generate()
    private_path = Path(private_path)
    public = Path(public_path) if public_path is not None else private_path.with_suffix(".pub")
    if private_path.exists():
        raise DataError("refusing to overwrite an existing key file", source=os.fspath(private_path))
    fd = os.open(private_path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "wb") as out:
        out.write(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                    serialization.NoEncryption()))
    public.write_bytes(key.public_key().public_bytes(serialization.Encoding.PEM,
                                                     serialization.PublicFormat.SubjectPublicKeyInfo))
    return public


def _read(path: str | os.PathLike) -> bytes:
    try:
        return Path(path).read_bytes()
    except OSError as err:
        raise DataError(f"cannot read the key: {err.strerror or err}", source=os.fspath(path)) from None


def load_private_key(path: str | os.PathLike) -> Ed25519PrivateKey:
    data = _read(path)
    try:
        if data.strip().startswith(b"-----"):
            key = serialization.load_pem_private_key(data, password=None)
        else:
            key = Ed25519PrivateKey.from_private_bytes(bytes.fromhex(data.decode().strip()))
    except (ValueError, TypeError, UnicodeDecodeError) as err:
        raise DataError(f"not an unencrypted Ed25519 private key (PEM or 64 hex digits): {err}",
                        source=os.fspath(path)) from None
    if not isinstance(key, Ed25519PrivateKey):
        raise DataError(f"a {type(key).__name__}, not an Ed25519 private key", source=os.fspath(path))
    return key


def load_public_key(path: str | os.PathLike) -> Ed25519PublicKey:
    data = _read(path)
    try:
        if data.strip().startswith(b"-----"):
            key = serialization.load_pem_public_key(data)
        else:
            key = Ed25519PublicKey.from_public_bytes(bytes.fromhex(data.decode().strip()))
    except (ValueError, TypeError, UnicodeDecodeError) as err:
        raise DataError(f"not an Ed25519 public key (PEM or 64 hex digits): {err}", source=os.fspath(path)) from None
    if not isinstance(key, Ed25519PublicKey):
        raise DataError(f"a {type(key).__name__}, not an Ed25519 public key", source=os.fspath(path))
    return key


def public_hex(key: Ed25519PublicKey) -> str:
    return key.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw).hex()


def sign_bytes(data: bytes, key: Ed25519PrivateKey, signer: str) -> Signature:
    check_label(signer, "signer")
    return Signature(format=SIGNATURE_FORMAT, version=SIGNATURE_VERSION, signer=signer,
                     public_key=public_hex(key.public_key()), sha256=hashlib.sha256(data).hexdigest(),
                     signature=key.sign(message(data)).hex())


def read_signatures(path: str | os.PathLike) -> list[Signature]:
    """The signatures in a ``.sig`` file (none if it does not exist); a malformed line is a DataError."""
    path = Path(path)
    if not path.exists():
        return []
    found = []
    for number, line in enumerate(path.read_bytes().splitlines(), start=1):
        if not line.strip():
            continue
        try:
            signature = msgspec.json.decode(line, type=Signature)
        except (msgspec.DecodeError, RecursionError) as err:
            raise DataError(f"not a signature line: {err}", source=os.fspath(path), location=number) from None
        if signature.format != SIGNATURE_FORMAT or signature.version != SIGNATURE_VERSION:
            raise DataError(f"expected {SIGNATURE_FORMAT!r} version {SIGNATURE_VERSION}", source=os.fspath(path),
                            location=number, field="format")
        found.append(signature)
    return found


def sign_export(export_path: str | os.PathLike, key_path: str | os.PathLike, signer: str | None = None) -> Signature:
    """Sign an export's bytes with the private key at ``key_path``; the signature is added to its ``.sig`` file
    (replacing an earlier one by the same key, keeping the others)."""
    key = load_private_key(key_path)
    data = _read_export(export_path)
    signature = sign_bytes(data, key, signer or Path(key_path).stem)
    sig_path = signature_path(export_path)
    kept = [s for s in read_signatures(sig_path) if s.public_key != signature.public_key]
    sig_path.write_bytes(b"".join(msgspec.json.encode(s) + b"\n" for s in (*kept, signature)))
    return signature


def _read_export(path: str | os.PathLike) -> bytes:
    try:
        return Path(path).read_bytes()
    except OSError as err:
        raise DataError(f"cannot read the export: {err.strerror or err}", source=os.fspath(path)) from None


def check_signatures(data: bytes, signatures: list[Signature],
                     public_keys: list[Ed25519PublicKey] | None = None) -> SignatureCheck:
    """Check every signature over ``data``; each of ``public_keys`` must be among the valid signers."""
    digest = hashlib.sha256(data).hexdigest()
    valid, invalid, valid_keys = [], [], set()
    for signature in signatures:
        name = f"{signature.signer} ({signature.public_key[:16]})"
        try:
            Ed25519PublicKey.from_public_bytes(bytes.fromhex(signature.public_key)).verify(
                bytes.fromhex(signature.signature), message(data))
        except (InvalidSignature, ValueError):
            invalid.append(name)
            continue
        valid.append(name)
        valid_keys.add(signature.public_key)
    missing = [public_hex(key)[:16] for key in public_keys or () if public_hex(key) not in valid_keys]
    return SignatureCheck(sha256=digest, valid=tuple(valid), invalid=tuple(invalid), missing=tuple(missing))


def verify_export(export_path: str | os.PathLike, key_paths: list[str | os.PathLike] = (),  # type: ignore[assignment]
                  signatures_path: str | os.PathLike | None = None) -> SignatureCheck:
    """Check an export's signatures (from ``signatures_path``, default its ``.sig`` file) against its bytes."""
    data = _read_export(export_path)
    signatures = read_signatures(signatures_path or signature_path(export_path))
    return check_signatures(data, signatures, [load_public_key(path) for path in key_paths])
