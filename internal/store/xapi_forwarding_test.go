package store_test

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"journeyman/internal/apperr"
	"journeyman/internal/store"
	"journeyman/internal/store/storetest"
	"journeyman/internal/xapi"
)

func TestXAPIForwardingConfig(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		org := mustOrg(t, s, "Forwarding Org", "fwd").ID
		good := store.XAPIForwardingConfig{Endpoint: "https://lrs.example.org/xapi", Key: "k", Secret: "s3cret-value", Version: xapi.V103}

		t.Run("ErrInvalid", func(t *testing.T) {
			for _, tc := range []struct {
				name string
				edit func(*store.XAPIForwardingConfig)
				want string
			}{
				{"NoEndpoint", func(c *store.XAPIForwardingConfig) { c.Endpoint = " " }, "endpoint is required"},
				{"Relative", func(c *store.XAPIForwardingConfig) { c.Endpoint = "/xapi/" }, "not an absolute http(s) URL"},
				{"FTP", func(c *store.XAPIForwardingConfig) { c.Endpoint = "ftp://lrs.example.org/xapi/" }, "must use http or https, not ftp"},
				{"File", func(c *store.XAPIForwardingConfig) { c.Endpoint = "file:///etc/passwd" }, "must use http or https, not file"},
				{"NoHost", func(c *store.XAPIForwardingConfig) { c.Endpoint = "https:///xapi" }, "names no host"},
				{"UserInfo", func(c *store.XAPIForwardingConfig) { c.Endpoint = "https://u:p@lrs.example.org/xapi/" }, "must not carry a user name or password"},
				{"Query", func(c *store.XAPIForwardingConfig) { c.Endpoint = "https://lrs.example.org/xapi/?a=1" }, "must not have a query"},
				{"LongEndpoint", func(c *store.XAPIForwardingConfig) { c.Endpoint = "https://x.org/" + strings.Repeat("a", 2000) }, "endpoint must be at most 2000"},
				{"NoKey", func(c *store.XAPIForwardingConfig) { c.Key = "" }, "key is required"},
				{"LongKey", func(c *store.XAPIForwardingConfig) { c.Key = strings.Repeat("k", 201) }, "key must be at most 200"},
				{"ColonKey", func(c *store.XAPIForwardingConfig) { c.Key = "a:b" }, "key must not contain a colon"},
				{"LongSecret", func(c *store.XAPIForwardingConfig) { c.Secret = strings.Repeat("s", 201) }, "secret must be at most 200"},
				{"ControlSecret", func(c *store.XAPIForwardingConfig) { c.Secret = "a\nb" }, "secret must not contain control characters"},
				{"NoSecretFirstTime", func(c *store.XAPIForwardingConfig) { c.Secret = "" }, "secret is required"},
				{"Version", func(c *store.XAPIForwardingConfig) { c.Version = "1.0.0" }, `version "1.0.0" must be 1.0.3 or 2.0.0`},
			} {
				t.Run(tc.name, func(t *testing.T) {
					c := good
					tc.edit(&c)
					_, err := s.SetXAPIForwarding(ctx, org, c)
					if apperr.Code(err) != apperr.EINVALID || !strings.Contains(apperr.Message(err), tc.want) {
						t.Fatalf("err = %v, want EINVALID with %q", err, tc.want)
					}
				})
			}
			if st, err := s.GetXAPIForwarding(ctx, org); err != nil || st.Configured {
				t.Fatalf("after refusals: %+v, %v", st, err)
			}
		})

		t.Run("Set", func(t *testing.T) {
			st, err := s.SetXAPIForwarding(ctx, org, good)
			if err != nil {
				t.Fatal(err)
			}
			if !st.Configured || st.Endpoint != "https://lrs.example.org/xapi/" || st.Key != "k" || st.Version != "1.0.3" || st.Paused || st.NextAttemptAt == nil {
				t.Fatalf("status = %+v", st)
			}
			var sealed []byte
			if err := s.DB().QueryRowContext(ctx, `SELECT secret_sealed FROM xapi_forwarding WHERE org_id = $1`, org).Scan(&sealed); err != nil {
				t.Fatal(err)
			}
			if bytes.Contains(sealed, []byte(good.Secret)) {
				t.Fatal("the secret is stored in clear")
			}
		})

		t.Run("KeepSecret", func(t *testing.T) {
			c := good
			c.Secret, c.Version = "", xapi.V200
			if _, err := s.SetXAPIForwarding(ctx, org, c); err != nil {
				t.Fatalf("same endpoint and key without secret: %v", err)
			}
			for _, edit := range []func(*store.XAPIForwardingConfig){
				func(c *store.XAPIForwardingConfig) { c.Endpoint = "https://evil.example/xapi/" },
				func(c *store.XAPIForwardingConfig) { c.Key = "other" },
			} {
				c := c
				edit(&c)
				if _, err := s.SetXAPIForwarding(ctx, org, c); !strings.Contains(apperr.Message(err), "secret is required when the endpoint or key changes") {
					t.Fatalf("a changed endpoint or key kept the secret: %v", err)
				}
			}
			targets := mustClaimAfterStore(t, s, org)
			if len(targets) != 1 || targets[0].Secret != good.Secret || targets[0].Version != xapi.V200 {
				t.Fatalf("claimed %+v, want the kept secret and version 2.0.0", targets)
			}
		})

		t.Run("PauseDelete", func(t *testing.T) {
			st, err := s.PauseXAPIForwarding(ctx, org, true)
			if err != nil || !st.Paused {
				t.Fatalf("pause = %+v, %v", st, err)
			}
			if targets, err := s.ClaimXAPIForwarding(ctx, "other", time.Now().Add(time.Hour), time.Minute); err != nil || len(targets) != 0 {
				t.Fatalf("a paused organisation was claimed: %+v, %v", targets, err)
			}
			if st, err = s.PauseXAPIForwarding(ctx, org, false); err != nil || st.Paused {
				t.Fatalf("resume = %+v, %v", st, err)
			}
			if err := s.DeleteXAPIForwarding(ctx, org); err != nil {
				t.Fatal(err)
			}
			if st, err := s.GetXAPIForwarding(ctx, org); err != nil || st.Configured {
				t.Fatalf("after delete: %+v, %v", st, err)
			}
			if _, err := s.PauseXAPIForwarding(ctx, org, true); apperr.Code(err) != apperr.ENOTFOUND {
				t.Fatalf("pause unconfigured: %v, want ENOTFOUND", err)
			}
		})
	})
}

// mustClaimAfterStore stores one statement in org and claims as "tester"
// far enough ahead to be due.
func mustClaimAfterStore(t *testing.T, s *store.Store, org string) []store.XAPIForwardTarget {
	t.Helper()
	mustStore(t, s, org, statementJSON("", "claim@example.com", "http://example.com/v", "http://example.com/a", ""))
	targets, err := s.ClaimXAPIForwarding(context.Background(), "tester", time.Now().Add(time.Hour), time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.ReleaseXAPIForwarding(context.Background(), "tester"); err != nil {
		t.Fatal(err)
	}
	return targets
}

func TestXAPIForwardingQueue(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		org := mustOrg(t, s, "Queue Org", "q").ID
		other := mustOrg(t, s, "Other Queue Org", "oq").ID
		for i := range 5 {
			mustStore(t, s, org, statementJSON(fmt.Sprintf("00000000-0000-4000-8000-0000000001%02d", i), "q@example.com", "http://example.com/v", "http://example.com/a", ""))
			mustStore(t, s, other, statementJSON("", "o@example.com", "http://example.com/v", "http://example.com/a", ""))
		}
		now := time.Now().UTC()
		if targets, err := s.ClaimXAPIForwarding(ctx, "p1", now, time.Minute); err != nil || len(targets) != 0 {
			t.Fatalf("claimed %+v, %v before any configuration", targets, err)
		}
		st, err := s.SetXAPIForwarding(ctx, org, store.XAPIForwardingConfig{Endpoint: "http://10.0.0.5:8080/xapi/", Key: "k", Secret: "s", Version: xapi.V200})
		if err != nil {
			t.Fatal(err)
		}
		// The organisation's records from the beginning, the other's not.
		if st.QueueLength != 5 || st.ForwardedThrough != nil || st.LastSuccessAt != nil {
			t.Fatalf("status = %+v, want 5 queued", st)
		}
		// The store's clock is fixed in the past: now is after next_attempt_at.
		targets, err := s.ClaimXAPIForwarding(ctx, "p1", now, time.Minute)
		if err != nil || len(targets) != 1 || targets[0].OrgID != org || targets[0].ForwardedSeq != 0 {
			t.Fatalf("claim = %+v, %v", targets, err)
		}
		tg := targets[0]

		t.Run("LeaseHeld", func(t *testing.T) {
			if got, err := s.ClaimXAPIForwarding(ctx, "p2", now.Add(30*time.Second), time.Minute); err != nil || len(got) != 0 {
				t.Fatalf("another process took a live lease: %+v, %v", got, err)
			}
		})

		batch, err := s.XAPIForwardBatch(ctx, org, tg.ForwardedSeq, 3)
		if err != nil || len(batch) != 3 {
			t.Fatalf("batch = %d, %v", len(batch), err)
		}
		for i := 1; i < len(batch); i++ {
			if batch[i].Seq <= batch[i-1].Seq {
				t.Fatalf("batch out of order: %+v", batch)
			}
		}

		t.Run("AckStale", func(t *testing.T) {
			for _, tc := range []struct {
				name   string
				edit   func(*store.XAPIForwardTarget)
				holder string
			}{
				{"OtherHolder", func(*store.XAPIForwardTarget) {}, "p2"},
				{"MovedCursor", func(t *store.XAPIForwardTarget) { t.ForwardedSeq = 1 << 40 }, "p1"},
				{"OldConfig", func(t *store.XAPIForwardTarget) { t.ConfigID = "old" }, "p1"},
			} {
				t.Run(tc.name, func(t *testing.T) {
					stale := tg
					tc.edit(&stale)
					if ok, err := s.AckXAPIForwarding(ctx, stale, tc.holder, batch[2].Seq, now, time.Minute); err != nil || ok {
						t.Fatalf("stale ack = %v, %v", ok, err)
					}
				})
			}
			if st, _ := s.GetXAPIForwarding(ctx, org); st.QueueLength != 5 {
				t.Fatalf("a stale ack moved the cursor: %+v", st)
			}
		})

		t.Run("Ack", func(t *testing.T) {
			ok, err := s.AckXAPIForwarding(ctx, tg, "p1", batch[2].Seq, now, time.Minute)
			if err != nil || !ok {
				t.Fatalf("ack = %v, %v", ok, err)
			}
			st, err := s.GetXAPIForwarding(ctx, org)
			if err != nil || st.QueueLength != 2 || st.ForwardedThrough == nil || !st.ForwardedThrough.Equal(storetest.FixedNow) ||
				!near(st.LastSuccessAt, now) {
				t.Fatalf("after ack: %+v, %v", st, err)
			}
			// The same batch acknowledged twice (a retry) moves nothing.
			if ok, _ := s.AckXAPIForwarding(ctx, tg, "p1", batch[2].Seq, now, time.Minute); ok {
				t.Fatal("a second ack from the old cursor succeeded")
			}
		})

		t.Run("Fail", func(t *testing.T) {
			tg.ForwardedSeq = batch[2].Seq
			next := now.Add(8 * time.Second)
			if err := s.FailXAPIForwarding(ctx, tg, "p1", "503 Service Unavailable", now, next); err != nil {
				t.Fatal(err)
			}
			st, _ := s.GetXAPIForwarding(ctx, org)
			if st.LastError != "503 Service Unavailable" || st.LastErrorAt == nil || !near(st.NextAttemptAt, next) || st.QueueLength != 2 {
				t.Fatalf("after failure: %+v", st)
			}
			// Not due before next; then any process may take it (lease given up).
			if got, _ := s.ClaimXAPIForwarding(ctx, "p2", now.Add(time.Second), time.Minute); len(got) != 0 {
				t.Fatalf("claimed during back-off: %+v", got)
			}
			got, err := s.ClaimXAPIForwarding(ctx, "p2", next.Add(time.Second), time.Minute)
			if err != nil || len(got) != 1 || got[0].Failures != 1 || got[0].ForwardedSeq != batch[2].Seq {
				t.Fatalf("claim after back-off = %+v, %v", got, err)
			}
		})

		t.Run("ExpiredLease", func(t *testing.T) {
			// p2 died holding the lease: p1 takes over once it expires.
			late := now.Add(10 * time.Minute)
			got, err := s.ClaimXAPIForwarding(ctx, "p1", late, time.Minute)
			if err != nil || len(got) != 1 {
				t.Fatalf("claim of an expired lease = %+v, %v", got, err)
			}
		})

		t.Run("Reconfigure", func(t *testing.T) {
			st, err := s.SetXAPIForwarding(ctx, org, store.XAPIForwardingConfig{Endpoint: "http://10.0.0.5:8080/xapi/", Key: "k", Secret: "s2", Version: xapi.V200})
			if err != nil || st.QueueLength != 2 {
				t.Fatalf("a new configuration lost the cursor: %+v, %v", st, err)
			}
			if err := s.DeleteXAPIForwarding(ctx, org); err != nil {
				t.Fatal(err)
			}
			st, err = s.SetXAPIForwarding(ctx, org, store.XAPIForwardingConfig{Endpoint: "http://10.0.0.5:8080/xapi/", Key: "k", Secret: "s2", Version: xapi.V200})
			if err != nil || st.QueueLength != 5 {
				t.Fatalf("configured after delete: %+v, %v; want the whole record again", st, err)
			}
		})
	})
}

// near reports whether t is want to the microsecond (PostgreSQL keeps
// microseconds, SQLite nanoseconds).
func near(t *time.Time, want time.Time) bool {
	return t != nil && t.Sub(want).Abs() < time.Microsecond
}
