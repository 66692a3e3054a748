"""Which names `serve` answers to: the rule every request passes before anything is read, apart from
the socket so that it can be tested alone.

A page on another site can make its own name resolve to 127.0.0.1 (DNS rebinding): the browser
then takes this server for that site and lets the page read the answers. The one thing such a
request cannot hide is the name it was made to, in its Host header, so every request must name
this server: a loopback name with the port served, or the address it was started on (over the
LAN, the address the e-reader was shown). Anything else gets 421 and a line of plain text.
"""

from __future__ import annotations

import ipaddress

# The names a browser on this machine uses for the server. Lower case: a host name is matched
# without regard to case (RFC 3986 3.2.2), and browsers send it lowered.
LOOPBACK_NAMES = ("localhost", "127.0.0.1", "[::1]")
# Addresses that mean "every network": listened on, never a name anyone is sent to.
WILDCARDS = frozenset({"0.0.0.0", "::", "[::]", ""})
DEFAULT_PORT = 80  # a Host without a port names this one (RFC 9110 4.2.1)


def as_host(address: str) -> str:
    """An address as a Host header names it: IPv6 in brackets, lower case (::1 → [::1])."""
    address = address.strip().lower()
    return f"[{address}]" if ":" in address and not address.startswith("[") else address


def allowed_hosts(port: int, *served: str | None) -> frozenset[str]:
    """The Host headers the server answers: every loopback name, and each address it was started on
    or shown at (the --host given, the LAN address), with `port`; without one too on port 80."""
    names = set(LOOPBACK_NAMES) | {
        as_host(a) for a in served if a is not None and as_host(a) not in WILDCARDS
    }
    return frozenset({f"{name}:{port}" for name in names} | (names if port == DEFAULT_PORT else set()))


def host_refusal(values: list[str], allowed: frozenset[str]) -> tuple[int, str] | None:
    """(status, why) a request naming the Host `values` (every Host header it carries) is not
    answered; None: it is. The answer says which names are served, never anything of the book."""
    served = ", ".join(sorted(h for h in allowed if ":" in h.rpartition("]")[2]))
    if len(values) != 1:  # none, or two that disagree: RFC 9112 3.2 asks for 400
        return 400, f"a request must name one Host; this server answers to {served}"
    if values[0].strip().lower() not in allowed:
        # No trailing-dot or other spellings: an exact list is one a rebinding name cannot reach.
        return 421, f"this server answers only to {served}: open the page at one of those addresses"
    return None


def is_loopback(host: str) -> bool:
    """Whether an address (a client's, or a --host) is this machine only (localhost, 127.0.0.0/8,
    ::1 with or without brackets, ::ffff:127.x): what no other machine on the LAN can reach."""
    name = host.strip().lower().removeprefix("[").removesuffix("]").rstrip(".")
    if name == "localhost" or name.endswith(".localhost"):  # RFC 6761 6.3: always loopback
        return True
    try:
        ip = ipaddress.ip_address(name.split("%")[0])
    except ValueError:
        return False
    return ip.is_loopback or bool(getattr(ip, "ipv4_mapped", None) and ip.ipv4_mapped.is_loopback)


def lan_refusal(host: str) -> str | None:
    """Why `serve --lan --host HOST` cannot be done (None: it can)."""
    if is_loopback(host):
        return (
            f"{host} is loopback, reachable from this machine only, and --lan needs an address other "
            "machines can reach: drop --host (--lan alone listens on every network) or give this machine's "
            "LAN address"
        )
    return None
