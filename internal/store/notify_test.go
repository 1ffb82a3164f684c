package store_test

import (
	"context"
	"log/slog"
	"testing"
	"time"

	"journeyman/internal/store"
	"journeyman/internal/store/storetest"
)

func TestNotify(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		got := make(chan string, 2)
		s.Listen(ctx, "test_channel", func(p string) { got <- p }, slog.Default())
		if err := s.Notify(ctx, "test_channel", "alert-42"); err != nil {
			t.Fatal(err)
		}
		select {
		case p := <-got:
			if p != "alert-42" {
				t.Fatalf("payload = %q, want alert-42", p)
			}
		case <-time.After(5 * time.Second):
			t.Fatal("no notification within 5 s")
		}
		if err := s.Notify(ctx, "test_channel", string(make([]byte, store.MaxNotifyPayload+1))); err == nil {
			t.Fatal("an oversized payload was accepted")
		}
	})
}

// Two stores on one PostgreSQL database stand for two server processes.
func TestNotifyAcrossProcesses(t *testing.T) {
	dsn := storetest.PostgresURL(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	a, err := store.Open(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	b, err := store.Open(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	got := make(chan string, 1)
	b.Listen(ctx, "cross", func(p string) { got <- p }, slog.Default())
	if err := a.Notify(ctx, "cross", "from-a"); err != nil {
		t.Fatal(err)
	}
	select {
	case p := <-got:
		if p != "from-a" {
			t.Fatalf("payload = %q", p)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("b did not hear a's notification")
	}
}

// Processes starting together on one PostgreSQL database all migrate safely.
func TestMigrateConcurrently(t *testing.T) {
	dsn := storetest.PostgresURL(t)
	errs := make(chan error, 3)
	for range 3 {
		go func() {
			s, err := store.Open(context.Background(), dsn)
			if err == nil {
				err = s.Close()
			}
			errs <- err
		}()
	}
	for range 3 {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
}
