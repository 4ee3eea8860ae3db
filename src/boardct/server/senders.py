"""The notices' channels: e-mail over SMTP (the standard library's smtplib and email) and every
notification URL Apprise knows (Discord, Matrix, Slack, ntfy, Telegram, a JSON webhook
`json://host/path`...). Blocking calls: the sender (server/notices.py) runs them in a thread.

Each delivery carries the notice's idempotency key: the e-mail as its Message-ID
(`<key@boardct.notices>`), a notification URL as the last line of its text (`ref: key`), so a
receiver that sees one twice (a crash after delivering, before it was marked sent) can tell.
"""

from __future__ import annotations

import email.utils
import ipaddress
import smtplib
import socket
import ssl
from dataclasses import dataclass
from email.message import EmailMessage
from typing import Any
from urllib.parse import parse_qs, unquote, urlsplit

SMTP_TIMEOUT = 20.0  # seconds one SMTP conversation may take
TRUE = ("1", "true", "yes", "on")


class DeliveryError(Exception):
    """A channel refused or failed to take a notice (retried later, with back-off)."""


@dataclass(frozen=True)
class SmtpSettings:
    """Where e-mail goes: smtp://[user:pass@]host[:port][?starttls=1&from=addr] (plain SMTP,
    optionally upgraded with STARTTLS), or smtps://... (TLS from the start)."""

    host: str
    port: int
    user: str | None
    password: str | None
    tls: bool  # smtps: TLS from the first byte
    starttls: bool
    sender: str

    @classmethod
    def parse(cls, url: str) -> SmtpSettings:
        parts = urlsplit(url)
        if parts.scheme not in ("smtp", "smtps") or not parts.hostname:
            raise ValueError("an SMTP URL is smtp://[user:password@]host[:port] or smtps://... "
                             "(options: ?starttls=1&from=address)")
        query = {k: v[-1] for k, v in parse_qs(parts.query).items()}
        tls = parts.scheme == "smtps"
        try:
            port = parts.port or (465 if tls else 25)
        except ValueError:
            raise ValueError("the SMTP URL's port is a number") from None
        sender = query.get("from") or f"boardct@{parts.hostname}"
        return cls(parts.hostname, port, unquote(parts.username) if parts.username else None,
                   unquote(parts.password) if parts.password else None, tls,
                   query.get("starttls", "").lower() in TRUE, sender)


def message_id(key: str) -> str:
    return f"<{key}@boardct.notices>"


def build_email(settings: SmtpSettings, to: str, subject: str, body: str, key: str,
                unsubscribe: str | None) -> EmailMessage:
    """The e-mail of a notice: its Message-ID from the idempotency key, and (RFC 8058) a
    one-click List-Unsubscribe with the link repeated at the end of the text."""
    msg = EmailMessage()
    msg["From"] = settings.sender
    msg["To"] = to
    msg["Subject"] = subject
    msg["Date"] = email.utils.formatdate(localtime=False)
    msg["Message-ID"] = message_id(key)
    msg["Auto-Submitted"] = "auto-generated"
    text = body
    if unsubscribe:
        msg["List-Unsubscribe"] = f"<{unsubscribe}>"
        msg["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"
        text += f"\n\n--\nNo more e-mail from this server: {unsubscribe}"
    msg.set_content(text)
    return msg


def send_email(settings: SmtpSettings, msg: EmailMessage) -> None:
    """Hand `msg` to the SMTP server; any refusal or failure is a DeliveryError."""
    try:
        if settings.tls:
            smtp: smtplib.SMTP = smtplib.SMTP_SSL(settings.host, settings.port,
                                                  timeout=SMTP_TIMEOUT,
                                                  context=ssl.create_default_context())
        else:
            smtp = smtplib.SMTP(settings.host, settings.port, timeout=SMTP_TIMEOUT)
        with smtp:
            if settings.starttls:
                smtp.starttls(context=ssl.create_default_context())
            if settings.user:
                smtp.login(settings.user, settings.password or "")
            smtp.send_message(msg)
    except smtplib.SMTPResponseException as exc:
        raise DeliveryError(f"the mail server refused it: {exc.smtp_code} "
                            f"{_text(exc.smtp_error)}") from None
    except smtplib.SMTPRecipientsRefused as exc:
        codes = ", ".join(f"{c} {_text(m)}" for c, m in exc.recipients.values())
        raise DeliveryError(f"the mail server refused the address: {codes}") from None
    except (smtplib.SMTPException, OSError) as exc:
        raise DeliveryError(f"the mail server could not be reached: {exc}") from None


def _text(value: Any) -> str:
    return value.decode("utf-8", "replace") if isinstance(value, bytes) else str(value)


# The Apprise services whose URL names the host the server will post to (a webhook, a
# self-hosted Matrix or Gotify, ntfy): that host must be on the internet, not inside the
# server's own network (a player could otherwise make the server post to its neighbours),
# unless the server allows it (`ServerConfig.notice_private_urls`: tests, a LAN). The other
# services post to their own company's host whatever the URL holds.
HOSTED = {"json", "jsons", "xml", "xmls", "form", "forms", "matrix", "matrixs", "gotify",
          "gotifys", "ntfy", "ntfys", "apprise", "apprises"}


def private_host(host: str) -> str | None:
    """Why `host` may not be posted to (None: every address it has is a public one)."""
    try:
        infos = socket.getaddrinfo(host.strip("[]"), None, proto=socket.IPPROTO_TCP)
    except (OSError, UnicodeError):
        return f"{host}: no such host"
    for info in infos:
        address = ipaddress.ip_address(str(info[4][0]).split("%")[0])
        if not address.is_global:
            return (f"{host} is inside this server's network ({address}): only hosts on the "
                    "internet")
    return None


def check_apprise_url(url: str, allow_private: bool = False) -> str | None:
    """Why Apprise cannot use `url` (None: it can)."""
    try:
        import apprise
    except ImportError:
        return "notification URLs need the server extra (apprise)"
    if not isinstance(url, str) or not url or len(url) > 500:
        return "a notification URL of at most 500 characters"
    plugin = apprise.Apprise.instantiate(url)
    if plugin is None:
        return "not a notification URL Apprise knows (e.g. json://host/path, ntfy://topic)"
    scheme = url.split("://", 1)[0].lower()
    host = getattr(plugin, "host", None)
    if scheme in HOSTED and host and not allow_private:
        return private_host(str(host))
    return None


def send_apprise(url: str, subject: str, body: str, key: str,
                 allow_private: bool = False) -> None:
    """Notify through one Apprise URL (its host checked again: names can change what they
    point to); a failure is a DeliveryError."""
    import apprise

    problem = check_apprise_url(url, allow_private)
    if problem:
        raise DeliveryError(f"the notification URL cannot be used: {problem}")
    sender = apprise.Apprise()
    if not sender.add(url):
        raise DeliveryError("the notification URL is not one Apprise knows")
    if not sender.notify(title=subject, body=f"{body}\n\nref: {key}"):
        raise DeliveryError("the notification service did not take it")
