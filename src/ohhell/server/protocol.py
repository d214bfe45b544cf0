"""The websocket protocol: typed, versioned JSON messages (see ``docs/protocol.md``).

Every message is one JSON object in one text frame with ``"v": 1`` and a
``"type"``.  :func:`parse_client_message` turns a frame from a client into a
:class:`ClientMessage` or raises :class:`ProtocolError` with a machine code and
a sentence for people; it never raises anything else, whatever the input.

>>> m = parse_client_message('{"v": 1, "type": "act", "action": "QS", "ref": 7}')
>>> m.type, m.fields["action"], m.ref
('act', 'QS', 7)
>>> parse_client_message('{"v": 1, "type": "act", "action": true}')
Traceback (most recent call last):
ohhell.server.protocol.ProtocolError: bad_field: act.action must be a bid (a whole number) or a card name such as "QS", not true
"""

from __future__ import annotations

import json
import unicodedata
from dataclasses import dataclass, field
from typing import Any, Callable

__all__ = ["VERSION", "MAX_MESSAGE_BYTES", "MAX_NAME_LENGTH", "CLIENT_TYPES", "ProtocolError",
           "ClientMessage", "parse_client_message", "clean_name", "clean_text", "encode", "error_message"]

#: The protocol version; a client that sends another gets a ``bad_version`` error.
VERSION = 1
#: The largest frame a client may send (bytes of UTF-8 text).
MAX_MESSAGE_BYTES = 4096
#: The longest display name (characters).
MAX_NAME_LENGTH = 24


class ProtocolError(ValueError):
    """A client message the server cannot accept; ``code`` is stable, the text is for people."""

    def __init__(self, code: str, message: str, ref: "int | str | None" = None) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message
        self.ref = ref


@dataclass
class ClientMessage:
    """A parsed, type-checked client message."""

    type: str
    fields: dict[str, Any] = field(default_factory=dict)
    ref: "int | str | None" = None


def _is_int(x: Any) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def _show(x: Any) -> str:
    text = json.dumps(x)
    return text if len(text) <= 40 else text[:37] + "..."


def _int(name: str, lo: int, hi: int) -> Callable[[str, Any], Any]:
    def check(t: str, x: Any) -> int:
        if not _is_int(x) or not lo <= x <= hi:
            raise ProtocolError("bad_field", f"{t}.{name} must be a whole number from {lo} to {hi}, "
                                             f"not {_show(x)}")
        return x
    return check


def _str(name: str, max_len: int, *, optional: bool = False) -> Callable[[str, Any], Any]:
    def check(t: str, x: Any) -> "str | None":
        if x is None and optional:
            return None
        if not isinstance(x, str) or not 0 < len(x) <= max_len:
            what = "a string" + (" or null" if optional else "")
            raise ProtocolError("bad_field", f"{t}.{name} must be {what} of 1 to {max_len} characters, "
                                             f"not {_show(x)}")
        return x
    return check


def _bool(name: str) -> Callable[[str, Any], Any]:
    def check(t: str, x: Any) -> bool:
        if not isinstance(x, bool):
            raise ProtocolError("bad_field", f"{t}.{name} must be true or false, not {_show(x)}")
        return x
    return check


def _action(t: str, x: Any) -> "int | str":
    if _is_int(x):
        if not 0 <= x <= 52:
            raise ProtocolError("bad_field", f"{t}.action: a bid is a whole number from 0 to the hand "
                                             f"size, not {x}")
        return x
    if isinstance(x, str) and 0 < len(x) <= 12:
        return x
    raise ProtocolError("bad_field", f"{t}.action must be a bid (a whole number) or a card name such as "
                                     f"\"QS\", not {_show(x)}")


_TOKEN = 128
#: type -> {field: (required, checker)}
_SCHEMA: dict[str, dict[str, tuple[bool, Callable[[str, Any], Any]]]] = {
    "hello": {"table": (True, _str("table", 64)), "token": (False, _str("token", _TOKEN, optional=True)),
              "admin": (False, _str("admin", _TOKEN, optional=True))},
    "join": {"seat": (True, _int("seat", 0, 6)), "name": (True, _str("name", 200)),
             "code": (False, _str("code", _TOKEN, optional=True))},
    "leave": {},
    "act": {"action": (True, _action)},
    "rematch": {},
    "reclaim": {},
    "replace": {"seat": (True, _int("seat", 0, 6)), "bot": (True, _str("bot", 40))},
    "set_seat": {"seat": (True, _int("seat", 0, 6)), "kind": (True, _str("kind", 16)),
                 "bot": (False, _str("bot", 40, optional=True))},
    "fill_bots": {"bot": (False, _str("bot", 40, optional=True))},
    "chat": {"text": (True, _str("text", 1000))},   # the table checks the cleaned length (config.CHAT_MAX_LENGTH)
    "chat_remove": {"id": (True, _int("id", 0, 2 ** 31 - 1))},
    "chat_setting": {"spectator_chat": (True, _str("spectator_chat", 16))},
    "hint": {},
    "undo": {},
    "allow_undo": {"on": (True, _bool("on"))},
    "ping": {},
}
#: The message types a client may send.
CLIENT_TYPES = tuple(_SCHEMA)


def parse_client_message(data: "str | bytes") -> ClientMessage:
    """Parse and type-check one frame from a client.

    :raises ProtocolError: ``too_large``, ``binary``, ``bad_json``, ``not_object``,
        ``bad_version``, ``bad_type``, ``unknown_type``, ``missing_field`` or
        ``bad_field``, with a sentence that says what is wrong.
    """
    if isinstance(data, (bytes, bytearray)):
        raise ProtocolError("binary", "binary frames are not part of the protocol; send JSON text")
    size = len(data.encode("utf-8", "surrogatepass")) if len(data) * 4 > MAX_MESSAGE_BYTES else len(data)
    if size > MAX_MESSAGE_BYTES:
        raise ProtocolError("too_large", f"message of {size} bytes is over the limit of "
                                         f"{MAX_MESSAGE_BYTES} bytes")
    try:
        obj = json.loads(data, parse_constant=_no_constant)
    except ProtocolError:
        raise
    except (ValueError, RecursionError) as e:
        where = f" at column {e.colno}" if isinstance(e, json.JSONDecodeError) else ""
        reason = e.msg if isinstance(e, json.JSONDecodeError) else "not JSON"
        raise ProtocolError("bad_json", f"not valid JSON ({reason}{where})") from None
    if not isinstance(obj, dict):
        raise ProtocolError("not_object", f"a message is a JSON object, not {type(obj).__name__}")
    ref = obj.get("ref")
    if ref is not None and not (_is_int(ref) and abs(ref) < 2 ** 53 or isinstance(ref, str) and len(ref) <= 64):
        raise ProtocolError("bad_field", f"ref must be a whole number or a short string, not {_show(ref)}")
    try:
        return _check(obj, ref)
    except ProtocolError as e:
        e.ref = ref
        raise


def _check(obj: dict, ref: "int | str | None") -> ClientMessage:
    v = obj.get("v")
    if not _is_int(v) or v != VERSION:
        raise ProtocolError("bad_version", f"this server speaks protocol version {VERSION}; the message "
                                           f"has v={_show(v)}")
    t = obj.get("type")
    if not isinstance(t, str):
        raise ProtocolError("bad_type", f"type must be a string, not {_show(t)}")
    schema = _SCHEMA.get(t)
    if schema is None:
        raise ProtocolError("unknown_type", f"unknown message type {_show(t)}; the types are "
                                            f"{', '.join(CLIENT_TYPES)}")
    fields = {}
    for name, (required, check) in schema.items():
        if name not in obj:
            if required:
                raise ProtocolError("missing_field", f"{t} needs the field {name!r}")
            fields[name] = None
            continue
        fields[name] = check(t, obj[name])
    return ClientMessage(t, fields, ref)


def _no_constant(name: str) -> Any:
    raise ProtocolError("bad_json", f"not valid JSON ({name} is not a JSON value)")


def clean_text(text: str) -> str:
    """Text made safe to show: every character of Unicode's "other" categories removed
    (controls, format characters such as the bidi overrides U+202A-U+202E and U+2066-U+2069,
    lone surrogates, unassigned and private-use code points), runs of spaces collapsed.

    >>> clean_text("a\\u202eb\\x00c  d")
    'abc d'
    """
    text = "".join(" " if ch.isspace() else ch for ch in unicodedata.normalize("NFC", text)
                   if ch.isspace() or unicodedata.category(ch)[0] != "C")
    return " ".join(text.split())


def clean_name(name: str) -> str:
    """A display name made safe to show (see :func:`clean_text`).

    :raises ProtocolError: ``bad_name`` when nothing printable is left or it is too long.
    """
    text = clean_text(name)
    if not text:
        raise ProtocolError("bad_name", "the name is empty; choose a name people will see")
    if len(text) > MAX_NAME_LENGTH:
        raise ProtocolError("bad_name", f"the name is {len(text)} characters; the limit is "
                                        f"{MAX_NAME_LENGTH}")
    return text


def encode(message: dict) -> str:
    """A server message as compact JSON text (with ``"v"``)."""
    return json.dumps({"v": VERSION, **message}, separators=(",", ":"), ensure_ascii=False,
                      allow_nan=False)


def error_message(code: str, message: str, ref: "int | str | None" = None,
                  reason: "dict | None" = None) -> str:
    """An ``error`` frame (``reason``: a refused bid or card's code and facts)."""
    msg: dict[str, Any] = {"type": "error", "code": code, "message": message}
    if reason is not None:
        msg["reason"] = reason
    if ref is not None:
        msg["ref"] = ref
    return encode(msg)

