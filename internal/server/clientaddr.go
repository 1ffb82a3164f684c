package server

import (
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"strings"
)

// clientAddr returns the address of the client that made r: the TCP peer,
// or, when the peer is a trusted proxy, the right-most X-Forwarded-For
// address that is not itself a trusted proxy. Entries left of that one were
// written by whoever sent the request to the first trusted proxy, so they
// may be forged; the right-most untrusted hop is the one a trusted proxy
// saw. An unparsable entry stops the walk there: what lies to its left
// cannot be believed either.
func (s *Server) clientAddr(r *http.Request) netip.Addr {
	peer := peerAddr(r)
	if !s.trusted(peer) {
		return peer
	}
	addr := peer
	hops := r.Header.Values("X-Forwarded-For")
	for i := len(hops) - 1; i >= 0; i-- {
		list := strings.Split(hops[i], ",")
		for j := len(list) - 1; j >= 0; j-- {
			hop, err := parseForwardedAddr(list[j])
			if err != nil {
				return addr
			}
			addr = hop
			if !s.trusted(hop) {
				return hop
			}
		}
	}
	return addr
}

// isHTTPS reports whether the client reached us over TLS: natively, or
// through a trusted proxy that says so in X-Forwarded-Proto. The header of
// an untrusted peer is ignored, as anyone can send it.
func (s *Server) isHTTPS(r *http.Request) bool {
	if r.TLS != nil {
		return true
	}
	if !s.trusted(peerAddr(r)) {
		return false
	}
	// A chain of proxies appends; the last value is the nearest proxy's.
	protos := r.Header.Values("X-Forwarded-Proto")
	if len(protos) == 0 {
		return false
	}
	list := strings.Split(protos[len(protos)-1], ",")
	return strings.EqualFold(strings.TrimSpace(list[len(list)-1]), "https")
}

func (s *Server) trusted(a netip.Addr) bool {
	if !a.IsValid() {
		return false
	}
	for _, p := range s.trustedProxies {
		if p.Contains(a) {
			return true
		}
	}
	return false
}

// peerAddr is the TCP peer of r; the zero Addr when RemoteAddr does not
// hold one (a test request without it, a Unix socket).
func peerAddr(r *http.Request) netip.Addr {
	ap, err := netip.ParseAddrPort(r.RemoteAddr)
	if err != nil {
		a, _ := netip.ParseAddr(r.RemoteAddr)
		return a.Unmap()
	}
	return ap.Addr().Unmap()
}

// parseForwardedAddr reads one X-Forwarded-For entry: an IP, possibly with a
// port, IPv6 possibly in brackets.
func parseForwardedAddr(s string) (netip.Addr, error) {
	s = strings.TrimSpace(s)
	if a, err := netip.ParseAddr(s); err == nil {
		return a.Unmap(), nil
	}
	if host, _, err := net.SplitHostPort(s); err == nil {
		s = host
	}
	a, err := netip.ParseAddr(strings.TrimSuffix(strings.TrimPrefix(s, "["), "]"))
	if err != nil {
		return netip.Addr{}, err
	}
	return a.Unmap(), nil
}

// ParseTrustedProxies reads a comma-separated list of CIDR prefixes and
// single addresses (a /32 or /128 of their own), as the -trusted-proxies
// flag takes it. Empty means no proxy is trusted.
func ParseTrustedProxies(list string) ([]netip.Prefix, error) {
	var out []netip.Prefix
	for item := range strings.SplitSeq(list, ",") {
		item = strings.TrimSpace(item)
		if item == "" {
			continue
		}
		if strings.Contains(item, "/") {
			p, err := netip.ParsePrefix(item)
			if err != nil {
				return nil, fmt.Errorf("trusted proxies: %q is not an address or CIDR prefix (like 10.0.0.0/8 or 192.0.2.7)", item)
			}
			// Peers are compared unmapped, so an IPv4-mapped prefix is
			// turned into the IPv4 prefix it means.
			if p.Addr().Is4In6() && p.Bits() >= 96 {
				p = netip.PrefixFrom(p.Addr().Unmap(), p.Bits()-96)
			}
			out = append(out, p.Masked())
			continue
		}
		a, err := netip.ParseAddr(item)
		if err != nil {
			return nil, fmt.Errorf("trusted proxies: %q is not an address or CIDR prefix (like 10.0.0.0/8 or 192.0.2.7)", item)
		}
		a = a.Unmap()
		out = append(out, netip.PrefixFrom(a, a.BitLen()))
	}
	return out, nil
}
