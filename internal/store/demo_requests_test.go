package store_test

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"journeyman/internal/apperr"
	"journeyman/internal/outreach"
	"journeyman/internal/store"
	"journeyman/internal/store/storetest"
)

var testDemoRequest = outreach.DemoRequestInput{
	Name: "Ada Lovelace", Email: "ada@example.com", Organisation: "Local 26 JATC",
	Message: "Please show us the welding modules.", Interest: "welding",
}

func mustLearner(tb testing.TB, s *store.Store, id string) {
	tb.Helper()
	if _, err := s.EnsureLearner(context.Background(), id, "Guest"); err != nil {
		tb.Fatal(err)
	}
}

func TestDemoRequests(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		mustLearner(t, s, learnerA)
		mustLearner(t, s, learnerB)

		t.Run("CreateAndList", func(t *testing.T) {
			r, err := s.CreateDemoRequest(ctx, learnerA, testDemoRequest)
			if err != nil {
				t.Fatal(err)
			}
			if len(r.ID) != 32 || !r.CreatedAt.Equal(storetest.FixedNow) || r.Name != testDemoRequest.Name || r.Interest != "welding" {
				t.Fatalf("created %+v", r)
			}
			list, err := s.ListDemoRequests(ctx, learnerA)
			if err != nil {
				t.Fatal(err)
			}
			if len(list) != 1 || list[0] != r {
				t.Fatalf("ListDemoRequests = %+v, want [%+v]", list, r)
			}
			other, err := s.ListDemoRequests(ctx, learnerB)
			if err != nil || len(other) != 0 {
				t.Fatalf("another learner's list = %+v, %v; want empty", other, err)
			}
		})

		t.Run("ErrRateLimit", func(t *testing.T) {
			// A already sent one above.
			for i := 1; i < outreach.DemoRequestLimit; i++ {
				if _, err := s.CreateDemoRequest(ctx, learnerA, testDemoRequest); err != nil {
					t.Fatalf("request %d: %v", i+1, err)
				}
			}
			_, err := s.CreateDemoRequest(ctx, learnerA, testDemoRequest)
			if apperr.Code(err) != apperr.ERATELIMIT {
				t.Fatalf("request %d: err = %v, want rate limit", outreach.DemoRequestLimit+1, err)
			}
			if _, err := s.CreateDemoRequest(ctx, learnerB, testDemoRequest); err != nil {
				t.Fatalf("another learner is limited too: %v", err)
			}
			list, _ := s.ListDemoRequests(ctx, learnerA)
			if len(list) != outreach.DemoRequestLimit {
				t.Fatalf("stored %d requests, want %d (the refused one not stored)", len(list), outreach.DemoRequestLimit)
			}
		})

		t.Run("LimitLiftsAfterWindow", func(t *testing.T) {
			s.Now = func() time.Time { return storetest.FixedNow.Add(outreach.DemoRequestWindow + time.Second) }
			defer func() { s.Now = func() time.Time { return storetest.FixedNow } }()
			if _, err := s.CreateDemoRequest(ctx, learnerA, testDemoRequest); err != nil {
				t.Fatalf("after the window: %v", err)
			}
		})
	})
}

// TestDemoRequestsSurviveRestart closes the database and opens it again, as a
// server restart does, and finds the request still there.
func TestDemoRequestsSurviveRestart(t *testing.T) {
	dsns := map[string]func(t *testing.T) string{
		"sqlite":   func(t *testing.T) string { return filepath.Join(t.TempDir(), "journeyman.db") },
		"postgres": func(t *testing.T) string { return storetest.PostgresURL(t) },
	}
	for _, name := range []string{"sqlite", "postgres"} {
		t.Run(name, func(t *testing.T) {
			dsn := dsns[name](t)
			ctx := context.Background()
			first, err := store.Open(ctx, dsn)
			if err != nil {
				t.Fatal(err)
			}
			mustLearner(t, first, learnerA)
			created, err := first.CreateDemoRequest(ctx, learnerA, testDemoRequest)
			if err != nil {
				t.Fatal(err)
			}
			if err := first.Close(); err != nil {
				t.Fatal(err)
			}
			second, err := store.Open(ctx, dsn)
			if err != nil {
				t.Fatal(err)
			}
			defer second.Close()
			list, err := second.ListDemoRequests(ctx, learnerA)
			if err != nil {
				t.Fatal(err)
			}
			if len(list) != 1 || list[0].ID != created.ID || list[0].Message != testDemoRequest.Message || !list[0].CreatedAt.Equal(created.CreatedAt) {
				t.Fatalf("after reopening: %+v, want [%+v]", list, created)
			}
		})
	}
}
