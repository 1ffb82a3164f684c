package server

import (
	"crypto/tls"
	"net/http/httptest"
	"net/netip"
	"slices"
	"testing"
)

func mustTrustedProxies(tb testing.TB, list string) []netip.Prefix {
	tb.Helper()
	p, err := ParseTrustedProxies(list)
	if err != nil {
		tb.Fatal(err)
	}
	return p
}

func TestClientAddr(t *testing.T) {
	s := &Server{trustedProxies: mustTrustedProxies(t, "10.0.0.0/8, 192.0.2.7, 2001:db8::/32")}
	tests := []struct {
		name   string
		peer   string
		xff    []string
		client string
	}{
		{"UntrustedPeer", "203.0.113.9:5000", nil, "203.0.113.9"},
		{"ErrSpoofedFromUntrustedPeer", "203.0.113.9:5000", []string{"198.51.100.1"}, "203.0.113.9"},
		{"ErrSpoofedChainFromUntrustedPeer", "203.0.113.9:5000", []string{"198.51.100.1, 10.0.0.1"}, "203.0.113.9"},
		{"TrustedPeerWithoutHeader", "10.1.2.3:5000", nil, "10.1.2.3"},
		{"TrustedPeer", "10.1.2.3:5000", []string{"198.51.100.1"}, "198.51.100.1"},
		{"SingleTrustedAddress", "192.0.2.7:5000", []string{"198.51.100.1"}, "198.51.100.1"},
		{"ErrNeighbourOfSingleAddressNotTrusted", "192.0.2.8:5000", []string{"198.51.100.1"}, "192.0.2.8"},
		{"ErrClientPrependsForgedEntries", "10.1.2.3:5000", []string{"1.1.1.1, 8.8.8.8, 198.51.100.1"}, "198.51.100.1"},
		{"ChainOfTrustedProxies", "10.1.2.3:5000", []string{"1.1.1.1, 198.51.100.1, 10.9.9.9, 10.8.8.8"}, "198.51.100.1"},
		{"SeveralHeaderLines", "10.1.2.3:5000", []string{"1.1.1.1", "198.51.100.1, 10.9.9.9"}, "198.51.100.1"},
		{"ErrClientClaimsTrustedAddress", "10.1.2.3:5000", []string{"10.6.6.6, 198.51.100.1"}, "198.51.100.1"},
		{"AllHopsTrusted", "10.1.2.3:5000", []string{"10.5.5.5, 10.6.6.6"}, "10.5.5.5"},
		{"EntryWithPort", "10.1.2.3:5000", []string{"198.51.100.1:4711"}, "198.51.100.1"},
		{"IPv6Entry", "10.1.2.3:5000", []string{"2001:db9::5"}, "2001:db9::5"},
		{"IPv6EntryWithPort", "10.1.2.3:5000", []string{"[2001:db9::5]:443"}, "2001:db9::5"},
		{"IPv6TrustedPeer", "[2001:db8::1]:5000", []string{"198.51.100.1"}, "198.51.100.1"},
		{"IPv4MappedPeer", "[::ffff:10.1.2.3]:5000", []string{"198.51.100.1"}, "198.51.100.1"},
		{"IPv4MappedEntry", "10.1.2.3:5000", []string{"::ffff:198.51.100.1"}, "198.51.100.1"},
		{"ErrGarbageLeftOfClient", "10.1.2.3:5000", []string{"<script>, 198.51.100.1"}, "198.51.100.1"},
		{"ErrGarbageFromTrustedProxyStopsAtIt", "10.1.2.3:5000", []string{"198.51.100.1, nonsense"}, "10.1.2.3"},
		{"ErrEmptyHeader", "10.1.2.3:5000", []string{""}, "10.1.2.3"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := httptest.NewRequest("GET", "/", nil)
			r.RemoteAddr = tt.peer
			for _, v := range tt.xff {
				r.Header.Add("X-Forwarded-For", v)
			}
			if got := s.clientAddr(r); got != netip.MustParseAddr(tt.client) {
				t.Fatalf("clientAddr = %v, want %s", got, tt.client)
			}
		})
	}

	t.Run("NoTrustedProxies", func(t *testing.T) {
		r := httptest.NewRequest("GET", "/", nil)
		r.RemoteAddr = "127.0.0.1:5000"
		r.Header.Set("X-Forwarded-For", "198.51.100.1")
		if got := (&Server{}).clientAddr(r); got != netip.MustParseAddr("127.0.0.1") {
			t.Fatalf("clientAddr = %v, want the peer 127.0.0.1", got)
		}
	})
}

func TestIsHTTPS(t *testing.T) {
	s := &Server{trustedProxies: mustTrustedProxies(t, "10.0.0.0/8")}
	tests := []struct {
		name  string
		peer  string
		tls   bool
		proto []string
		https bool
	}{
		{"PlainHTTP", "203.0.113.9:5000", false, nil, false},
		{"NativeTLS", "203.0.113.9:5000", true, nil, true},
		{"NativeTLSWhateverTheHeader", "203.0.113.9:5000", true, []string{"http"}, true},
		{"ErrSpoofedFromUntrustedPeer", "203.0.113.9:5000", false, []string{"https"}, false},
		{"TrustedProxySaysHTTPS", "10.0.0.1:5000", false, []string{"https"}, true},
		{"TrustedProxySaysHTTPSUpperCase", "10.0.0.1:5000", false, []string{"HTTPS"}, true},
		{"TrustedProxySaysHTTP", "10.0.0.1:5000", false, []string{"http"}, false},
		{"TrustedProxyWithoutHeader", "10.0.0.1:5000", false, nil, false},
		{"ErrClientHeaderBeforeProxysOwn", "10.0.0.1:5000", false, []string{"https, http"}, false},
		{"ErrClientHeaderLineBeforeProxysOwn", "10.0.0.1:5000", false, []string{"https", "http"}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := httptest.NewRequest("GET", "/", nil)
			r.RemoteAddr = tt.peer
			if tt.tls {
				r.TLS = &tls.ConnectionState{}
			}
			for _, v := range tt.proto {
				r.Header.Add("X-Forwarded-Proto", v)
			}
			if got := s.isHTTPS(r); got != tt.https {
				t.Fatalf("isHTTPS = %v, want %v", got, tt.https)
			}
		})
	}
}

func TestParseTrustedProxies(t *testing.T) {
	tests := []struct {
		name, list string
		want       []string
		err        bool
	}{
		{"Empty", "", nil, false},
		{"Blank", " , ", nil, false},
		{"Addresses", "127.0.0.1, ::1", []string{"127.0.0.1/32", "::1/128"}, false},
		{"Prefixes", "10.0.0.0/8,fd00::/8", []string{"10.0.0.0/8", "fd00::/8"}, false},
		{"PrefixWithHostBits", "10.1.2.3/8", []string{"10.0.0.0/8"}, false},
		{"IPv4Mapped", "::ffff:10.0.0.0/104", []string{"10.0.0.0/8"}, false},
		{"ErrHostname", "proxy.internal", nil, true},
		{"ErrBadPrefix", "10.0.0.0/33", nil, true},
		{"ErrPort", "10.0.0.1:80", nil, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseTrustedProxies(tt.list)
			if tt.err {
				if err == nil {
					t.Fatalf("ParseTrustedProxies(%q) = %v, want an error", tt.list, got)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var s []string
			for _, p := range got {
				s = append(s, p.String())
			}
			if !slices.Equal(s, tt.want) {
				t.Fatalf("ParseTrustedProxies(%q) = %v, want %v", tt.list, s, tt.want)
			}
		})
	}
}
