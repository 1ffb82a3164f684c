package server

import (
	"net"
	"net/http"
	"net/netip"
	"strings"
)

// clientAddr is the address of the person behind a request: the peer's, or,
// when the peer is a trusted proxy, the right-most address of
// X-Forwarded-For that is not itself a trusted proxy.
func (s *Server) clientAddr(r *http.Request) netip.Addr {
	peer := addrOf(r.RemoteAddr)
	if !s.trusted(peer) {
		return peer
	}
	hops := strings.Split(strings.Join(r.Header.Values("X-Forwarded-For"), ","), ",")
	for i := len(hops) - 1; i >= 0; i-- {
		a, err := netip.ParseAddr(strings.TrimSpace(hops[i]))
		if err != nil {
			return peer
		}
		if a = a.Unmap(); !s.trusted(a) {
			return a
		}
	}
	return peer
}

// isHTTPS reports whether the browser reached us over TLS: natively, or
// through a trusted proxy that says so.
func (s *Server) isHTTPS(r *http.Request) bool {
	if r.TLS != nil {
		return true
	}
	return s.trusted(addrOf(r.RemoteAddr)) && strings.EqualFold(r.Header.Get("X-Forwarded-Proto"), "https")
}

func (s *Server) trusted(a netip.Addr) bool {
	for _, p := range s.trustedProxies {
		if p.Contains(a) {
			return true
		}
	}
	return false
}

func addrOf(remote string) netip.Addr {
	host, _, err := net.SplitHostPort(remote)
	if err != nil {
		host = remote
	}
	a, _ := netip.ParseAddr(host)
	return a.Unmap()
}
