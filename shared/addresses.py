"""This machine's addresses as the other players' machines would use them, best first.

The address a guest types or a phone's QR code opens must be the LAN one: the default
route's address (what a UDP ``connect`` picks) is a VPN's or a container bridge's on many
laptops. :func:`ranked` orders every interface's addresses: private IPv4 addresses on
ordinary interfaces first (192.168/16, then 10/8, then 172.16/12), other IPv4 ones, the
adapters of VPNs and containers (by interface name, and the 100.64/10 range of carrier
NAT and mesh VPNs) after, IPv6 global addresses last; loopback and link-local ones never.
"""
from __future__ import annotations

import ipaddress
from typing import Iterable

#: Interface name prefixes of VPNs, containers and virtual machines' bridges.
VIRTUAL_PREFIXES = ("docker", "br-", "veth", "virbr", "vmnet", "vboxnet", "tun", "tap", "wg", "tailscale",
                    "zt", "utun", "ham", "lxc", "lxd", "cni", "flannel", "podman", "vEthernet")
_CGNAT = ipaddress.ip_network("100.64.0.0/10")
_PRIVATE_ORDER = (ipaddress.ip_network("192.168.0.0/16"), ipaddress.ip_network("10.0.0.0/8"),
                  ipaddress.ip_network("172.16.0.0/12"))


def rank(interface: str, address: str) -> tuple[int, int] | None:
    """``address`` (of ``interface``)'s rank, lower is better; None for an address nobody
    else can use (loopback, link-local, unspecified, not an address)."""
    try:
        ip = ipaddress.ip_address(address.split("%")[0])
    except ValueError:
        return None
    if ip.is_loopback or ip.is_link_local or ip.is_unspecified or ip.is_multicast:
        return None
    virtual = interface.startswith(VIRTUAL_PREFIXES)
    if ip.version == 6:
        return (4, 0)
    if virtual or ip in _CGNAT:
        return (3, 0)
    for i, net in enumerate(_PRIVATE_ORDER):
        if ip in net:
            return (1, i)
    return (2, 0)


def ranked(pairs: Iterable[tuple[str, str]]) -> list[str]:
    """The addresses of ``(interface, address)`` pairs, best first (:func:`rank`),
    each once, unusable ones left out."""
    scored = []
    for n, (interface, address) in enumerate(pairs):
        r = rank(interface, address)
        if r is not None:
            scored.append((r, n, address.split("%")[0]))
    out: list[str] = []
    for _, _, address in sorted(scored):
        if address not in out:
            out.append(address)
    return out


def interface_addresses() -> list[tuple[str, str]]:
    """``(interface name, address)`` of every address of this machine (``ifaddr``, a
    dependency of zeroconf); [] when it cannot tell."""
    try:
        import ifaddr
    except ImportError:
        return []
    out = []
    for adapter in ifaddr.get_adapters():
        for ip in adapter.ips:
            raw = ip.ip[0] if isinstance(ip.ip, tuple) else ip.ip
            out.append((str(adapter.nice_name or adapter.name), str(raw)))
    return out


def lan_addresses() -> list[str]:
    """This machine's usable addresses, best first (:func:`ranked`)."""
    return ranked(interface_addresses())
