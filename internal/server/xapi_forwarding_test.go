package server

import (
	"context"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"journeyman/internal/identity"
	"journeyman/internal/store"
	"journeyman/internal/store/storetest"
	"journeyman/internal/xapiforward"
)

func TestXAPIForwardingAPI(t *testing.T) {
	storetest.Each(t, func(t *testing.T, st *store.Store) {
		s := MustOpenXRServer(t, st)
		mustAccount(t, s, "Fern", "Forwarding Org", identity.Admin)
		mustAccount(t, s, "Olaf", "Other Forwarding Org", identity.Admin)
		const path = "/api/organisation/xapi/forwarding"
		// The external LRS is this same server, another organisation's
		// records: forwarding needs nothing more than an xAPI endpoint.
		hs := httptest.NewServer(s)
		t.Cleanup(hs.Close)
		cred := xapiCredential(t, s, "External Org", true, true)

		t.Run("Unconfigured", func(t *testing.T) {
			res := call(t, s, "Fern", "GET", path, "")
			checkError(t, res, 200, "")
			got := decode[store.XAPIForwardingStatus](t, res)
			if got.Configured || got.QueueLength != 0 {
				t.Fatalf("unconfigured = %+v", got)
			}
			checkError(t, call(t, s, "Fern", "POST", path+"/pause", ""), 404, "configure one first")
			checkError(t, call(t, s, "Fern", "POST", path+"/resume", ""), 404, "configure one first")
		})

		t.Run("ErrInvalid", func(t *testing.T) {
			for _, tc := range []struct{ name, body, want string }{
				{"NoEndpoint", `{"key":"k","secret":"s","version":"2.0.0"}`, "endpoint is required"},
				{"Scheme", `{"endpoint":"gopher://lrs.example.org/","key":"k","secret":"s","version":"2.0.0"}`, "must use http or https"},
				{"NoKey", `{"endpoint":"https://lrs.example.org/xapi/","secret":"s","version":"2.0.0"}`, "key is required"},
				{"NoSecret", `{"endpoint":"https://lrs.example.org/xapi/","key":"k","version":"2.0.0"}`, "secret is required"},
				{"LongSecret", `{"endpoint":"https://lrs.example.org/xapi/","key":"k","secret":"` + strings.Repeat("s", 201) + `","version":"2.0.0"}`, "secret must be at most 200"},
				{"Version", `{"endpoint":"https://lrs.example.org/xapi/","key":"k","secret":"s","version":"0.95"}`, `version "0.95" must be 1.0.3 or 2.0.0`},
				{"UnknownField", `{"endpoint":"https://lrs.example.org/xapi/","key":"k","secret":"s","version":"2.0.0","batch":5}`, `unknown field "batch"`},
			} {
				t.Run(tc.name, func(t *testing.T) {
					checkError(t, call(t, s, "Fern", "PUT", path, tc.body), 400, tc.want)
				})
			}
		})

		own := xapiCredential(t, s, "Forwarding Org", true, true)
		for range 3 {
			checkError(t, do(t, s, xapiRequest("POST", "/xapi/statements", testStatement("", "learner@example.com", xverb), own)), 200, "")
		}

		t.Run("Configure", func(t *testing.T) {
			// Nothing listens there: the first attempt fails.
			ln, err := net.Listen("tcp", "127.0.0.1:0")
			if err != nil {
				t.Fatal(err)
			}
			dead := "http://" + ln.Addr().String() + "/xapi"
			ln.Close()
			res := call(t, s, "Fern", "PUT", path, `{"endpoint":"`+dead+`","key":"`+cred[0]+`","secret":"`+cred[1]+`","version":"1.0.3"}`)
			checkError(t, res, 200, "")
			if strings.Contains(res.body, cred[1]) || strings.Contains(res.body, "secret") {
				t.Fatalf("the answer %s shows the secret", res.body)
			}
			got := decode[store.XAPIForwardingStatus](t, res)
			if !got.Configured || got.Endpoint != dead+"/" || got.Key != cred[0] || got.Version != "1.0.3" || got.QueueLength != 3 || got.Paused {
				t.Fatalf("configured = %+v", got)
			}
			if other := decode[store.XAPIForwardingStatus](t, call(t, s, "Olaf", "GET", path, "")); other.Configured {
				t.Fatalf("another organisation's admin sees %+v", other)
			}
			forwardOnce(t, st)
			got = decode[store.XAPIForwardingStatus](t, call(t, s, "Fern", "GET", path, ""))
			if !strings.Contains(got.LastError, "could not reach the external LRS") || got.LastErrorAt == nil || got.LastSuccessAt != nil || got.QueueLength != 3 {
				t.Fatalf("after a refused connection = %+v", got)
			}
		})

		t.Run("WrongSecret", func(t *testing.T) {
			body := `{"endpoint":"` + hs.URL + `/xapi/","key":"` + cred[0] + `","secret":"wrong","version":"2.0.0"}`
			checkError(t, call(t, s, "Fern", "PUT", path, body), 200, "")
			forwardOnce(t, st)
			got := decode[store.XAPIForwardingStatus](t, call(t, s, "Fern", "GET", path, ""))
			if !strings.Contains(got.LastError, "401 Unauthorized: the xAPI key or secret is wrong") || got.QueueLength != 3 {
				t.Fatalf("after a wrong secret = %+v", got)
			}
		})

		t.Run("PauseResume", func(t *testing.T) {
			body := `{"endpoint":"` + hs.URL + `/xapi/","key":"` + cred[0] + `","secret":"` + cred[1] + `","version":"2.0.0"}`
			checkError(t, call(t, s, "Fern", "PUT", path, body), 200, "")
			res := call(t, s, "Fern", "POST", path+"/pause", "")
			checkError(t, res, 200, "")
			if got := decode[store.XAPIForwardingStatus](t, res); !got.Paused {
				t.Fatalf("pause answered %+v", got)
			}
			forwardOnce(t, st)
			if got := decode[store.XAPIForwardingStatus](t, call(t, s, "Fern", "GET", path, "")); got.QueueLength != 3 || got.LastSuccessAt != nil {
				t.Fatalf("paused, yet forwarded: %+v", got)
			}
			res = call(t, s, "Fern", "POST", path+"/resume", "")
			checkError(t, res, 200, "")
			if got := decode[store.XAPIForwardingStatus](t, res); got.Paused {
				t.Fatalf("resume answered %+v", got)
			}
			forwardOnce(t, st)
			got := decode[store.XAPIForwardingStatus](t, call(t, s, "Fern", "GET", path, ""))
			if got.QueueLength != 0 || got.LastSuccessAt == nil || got.ForwardedThrough == nil || !got.ForwardedThrough.Equal(storetest.FixedNow) {
				t.Fatalf("after resume = %+v", got)
			}
		})

		t.Run("KeepSecret", func(t *testing.T) {
			body := `{"endpoint":"` + hs.URL + `/xapi/","key":"` + cred[0] + `","version":"1.0.3"}`
			checkError(t, call(t, s, "Fern", "PUT", path, body), 200, "")
			checkError(t, call(t, s, "Fern", "PUT", path, `{"endpoint":"https://elsewhere.example/xapi/","key":"`+cred[0]+`","version":"1.0.3"}`),
				400, "secret is required when the endpoint or key changes")
		})

		t.Run("Delete", func(t *testing.T) {
			checkError(t, call(t, s, "Olaf", "DELETE", path, ""), 204, "")
			if got := decode[store.XAPIForwardingStatus](t, call(t, s, "Fern", "GET", path, "")); !got.Configured {
				t.Fatal("another organisation's admin removed the forwarding")
			}
			checkError(t, call(t, s, "Fern", "DELETE", path, ""), 204, "")
			if got := decode[store.XAPIForwardingStatus](t, call(t, s, "Fern", "GET", path, "")); got.Configured {
				t.Fatalf("after delete = %+v", got)
			}
		})
	})
}

var forwardClock time.Duration

// forwardOnce runs one forwarding round, each an hour after the one
// before, past any back-off.
func forwardOnce(t *testing.T, st *store.Store) {
	t.Helper()
	forwardClock += time.Hour
	at := time.Now().Add(forwardClock)
	f := xapiforward.New(st, slog.New(slog.DiscardHandler), &http.Client{}, "test")
	f.Timeout = 5 * time.Second
	f.Now = func() time.Time { return at }
	if err := f.Forward(context.Background()); err != nil {
		t.Fatal(err)
	}
}
