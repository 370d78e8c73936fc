"""The preview's HTTP side: the site's files, never cached, the server-sent events a page reloads on, and
the checks every request passes before it is answered (only this machine's, well-formed GET and HEAD)."""

from __future__ import annotations

import http.server
import ipaddress
import json
import os
import re
import socket
import sys
import urllib.parse
from collections.abc import Sequence
from dataclasses import dataclass
from http import HTTPStatus
from pathlib import Path
from typing import Any

from rulebook.errors import UserError
from rulebook.serve.news import EVERY_PAGE, News

EVENTS_PATH = "/__rulebook_events__"
RELOAD_SCRIPT = """// Reloads the page, where it was scrolled to, as soon as `rulebook serve` has written it again.
(function () {
  var here = location.pathname.replace(/index\\.html$/, "");
  var key = "rulebook-serve-scroll:" + here;
  var saved = sessionStorage.getItem(key);
  if (saved !== null) {
    sessionStorage.removeItem(key);
    var restore = function () { window.scrollTo(0, Number(saved)); };
    restore();
    window.addEventListener("load", restore);
  }
  var events = new EventSource("EVENTS_PATH?page=" + encodeURIComponent(here));
  events.onmessage = function (message) {
    var written = JSON.parse(message.data);
    if (written.indexOf("EVERY_PAGE") !== -1 || written.indexOf(here) !== -1) {
      sessionStorage.setItem(key, String(window.scrollY));
      events.close();
      location.reload();
    }
  };
})();
""".replace("EVENTS_PATH", EVENTS_PATH).replace("EVERY_PAGE", EVERY_PAGE)
LOCAL_HOSTS = frozenset({"127.0.0.1", "localhost", "::1"})
"""The host names a request to the preview may give (the ``Host`` header, without its port)."""
LOCAL = "127.0.0.1"
"""Where the preview listens unless ``--host`` says otherwise: this machine alone."""


@dataclass(frozen=True, slots=True)
class Audience:
    """The hosts a request may name (its ``Host`` header): this machine's names, and, when the preview listens
    beyond it (``--host``), any IP address and the machine's own names. A page elsewhere whose name was pointed
    at the preview's address (DNS rebinding) names its own host, never an address: it is refused either way."""

    names: frozenset[str] = LOCAL_HOSTS
    addresses: bool = False
    """Any IP address as the host: a phone on the network names the address it reached."""

    def allows(self, host: str) -> bool:
        host = host.strip("[]").lower()
        return host in self.names or (self.addresses and _is_address(host))


def audience(host: str) -> Audience:
    """Who may ask the preview listening on ``host``: this machine only for a loopback address or name."""
    if host.lower() in LOCAL_HOSTS or (_is_address(host) and ipaddress.ip_address(host.strip("[]")).is_loopback):
        return Audience()
    machine = socket.gethostname().lower()
    return Audience(LOCAL_HOSTS | {host.strip("[]").lower(), machine, f"{machine}.local"}, addresses=True)


def _is_address(host: str) -> bool:
    try:
        ipaddress.ip_address(host.strip("[]"))
    except ValueError:
        return False
    return True


def make_server(port: int, host: str = LOCAL) -> http.server.ThreadingHTTPServer:
    """The server's socket, bound before anything is built: a busy port or an address not this machine's is said
    at once."""
    kind = Server6 if ":" in host else Server
    try:
        return kind((host.strip("[]"), port), Handler, bind_and_activate=True)
    except OSError as error:
        reason = (error.strerror or str(error)).lower()
        where = f"port {port}" if host == LOCAL else f"{host}, port {port}"
        raise UserError(
            f"cannot serve on {where}: {reason} (choose another with --port, or 0 for any"
            + (")" if host == LOCAL else "; --host: an address of this machine, or 0.0.0.0 for all)")
        ) from None


class Server(http.server.ThreadingHTTPServer):
    """The preview's server: a request that fails is never a traceback on the editor's terminal."""

    def handle_error(self, request: Any, client_address: Any) -> None:
        error = sys.exc_info()[1]
        if isinstance(error, ConnectionError):  # the browser went away (a page reloaded, a tab closed)
            return
        if os.environ.get("RULEBOOK_DEBUG"):
            super().handle_error(request, client_address)
            return
        print(
            f"rulebook: internal error answering a request: {type(error).__name__}: {error}\n"
            "This is a bug in the rulebook compiler; set RULEBOOK_DEBUG=1 to see the traceback.",
            file=sys.stderr,
        )


class Server6(Server):
    """The preview's server on an IPv6 address (``--host ::``)."""

    address_family = socket.AF_INET6


class Handler(http.server.SimpleHTTPRequestHandler):
    """The site's files, never cached (a page may be written again within the second), and the events.

    Every request is checked before it is answered (:func:`refusal`): whatever a web page or a program sends,
    the answer is a page or a 4xx status, never a traceback."""

    default_request_version = "HTTP/1.0"
    """So that a request refused before its version is read still gets a status line (http.server's default,
    HTTP/0.9, answers with a bare page)."""

    def __init__(self, news: News, folder: Path, *args: Any, audience: Audience = Audience(), **kwargs: Any) -> None:
        self.news = news
        self.audience = audience
        self.refused_method = False
        super().__init__(*args, directory=str(folder), **kwargs)

    def parse_request(self) -> bool:
        """The request line and headers as http.server reads them, then the preview's own checks."""
        if not super().parse_request():
            return False
        hosts = self.headers.get_all("Host") or []
        refused = refusal(self.command, self.path, hosts, self.request_version, self.audience)
        if refused is None:
            return True
        self.refused_method = refused[0] == HTTPStatus.METHOD_NOT_ALLOWED
        self.send_error(*refused)
        return False

    def do_GET(self) -> None:
        if urllib.parse.urlsplit(self.path).path == EVENTS_PATH:
            self._send_events()
            return
        del self.headers["If-Modified-Since"]
        super().do_GET()

    def list_directory(self, path: str | os.PathLike[str]) -> None:
        """A folder without a page is not found, as on the published site (http.server listed its files)."""
        self.send_error(HTTPStatus.NOT_FOUND, None, "No page here: a folder without index.html")

    def end_headers(self) -> None:
        self.send_header("Cache-Control", "no-store")
        if self.refused_method:
            self.send_header("Allow", "GET, HEAD")
        super().end_headers()

    def _send_events(self) -> None:
        """Server-sent events: each names the pages written again (a page reloads when it is among them)."""
        query = urllib.parse.parse_qs(urllib.parse.urlsplit(self.path).query)
        page = query.get("page", ["/"])[0]
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.end_headers()
        serial = self.news.serial()
        with self.news.viewing(page):
            try:
                self.wfile.write(b": listening\n\n")
                self.wfile.flush()
                while not self.news.closed:
                    serial, written = self.news.wait(serial, timeout=15)
                    self.wfile.write(f"data: {json.dumps(written)}\n\n".encode() if written else b": still here\n\n")
                    self.wfile.flush()
            except OSError:
                pass  # the page was closed or reloaded

    def log_message(self, format: str, *args: object) -> None:
        pass


MAX_TARGET = 2048
"""Characters of a request's target (path and query): the site's longest URL is a small part of it."""
_METHOD = re.compile(r"[!#$%&'*+.^_`|~0-9A-Za-z-]+")
"""A method, as HTTP writes one (a token)."""
_PERCENT = re.compile(r"%(?![0-9A-Fa-f]{2})")
"""A percent sign that does not start an escape."""
_HOST = re.compile(r"(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9._~!$&'()*+,;=-]+)(:[0-9]{0,5})?")
"""A ``Host`` header: a name, an IPv4 address or a bracketed IPv6 address, then maybe a port."""


def refusal(
    method: str, target: str, hosts: Sequence[str], version: str, audience: Audience = Audience()
) -> tuple[HTTPStatus, str] | None:
    """Why the preview refuses a request (its status and a message), or None to answer it.

    ``hosts``: every ``Host`` header the request gave. A malformed request is 400, a method other than GET and
    HEAD 405, an overlong target 414; a request that names a host other than this machine (a page elsewhere
    whose name was pointed at 127.0.0.1: DNS rebinding) is 403, refused the editor's drafts; ``audience`` says which
    hosts are this machine's (more of them when the preview listens beyond it)."""
    if not _METHOD.fullmatch(method):
        return HTTPStatus.BAD_REQUEST, "Bad request method"
    if method not in ("GET", "HEAD"):
        return HTTPStatus.METHOD_NOT_ALLOWED, "This preview answers GET and HEAD only"
    if len(target) > MAX_TARGET:
        return (
            HTTPStatus.REQUEST_URI_TOO_LONG,
            f"A target of {len(target):,} characters (at most {MAX_TARGET:,})",
        )
    problem = _target_problem(target)
    if problem is not None:
        return HTTPStatus.BAD_REQUEST, problem
    if len(hosts) > 1:
        return HTTPStatus.BAD_REQUEST, "More than one Host header"
    if not hosts and version != "HTTP/1.0":
        return HTTPStatus.BAD_REQUEST, "No Host header"
    found = _HOST.fullmatch(hosts[0]) if hosts else None
    if hosts and found is None:
        return HTTPStatus.BAD_REQUEST, "Bad Host header"
    if found is not None and not audience.allows(found.group(1)):
        if audience.addresses:
            return HTTPStatus.FORBIDDEN, "This preview answers only to this machine's addresses and names"
        return HTTPStatus.FORBIDDEN, "This preview answers only to 127.0.0.1 and localhost"
    return None


def _target_problem(target: str) -> str | None:
    """What is wrong with a request's target (None when it is a path, with a query maybe, that names a file)."""
    if not (target.startswith("/") and target.isascii() and target.isprintable()):
        return "Bad request target (a path such as /index.html)"
    if _PERCENT.search(target):
        return "Bad percent-encoding"
    try:
        path = urllib.parse.unquote_to_bytes(urllib.parse.urlsplit(target).path).decode("utf-8")
    except UnicodeDecodeError:
        return "Bad percent-encoding (not UTF-8)"
    if any(ord(c) < 0x20 or 0x7F <= ord(c) < 0xA0 for c in path):  # NUL among them: no file name holds one
        return "Bad path (a control character)"
    return None
