package store_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"testing"

	"journeyman/internal/store"
	"journeyman/internal/store/storetest"
)

// TestOPCUACertificate reopens the database: a restarted process, or
// another on the same database, must present the certificate clients were
// told to trust.
func TestOPCUACertificate(t *testing.T) {
	dsns := map[string]func(*testing.T) string{
		"sqlite":   func(t *testing.T) string { return filepath.Join(t.TempDir(), "j.db") },
		"postgres": func(t *testing.T) string { return storetest.PostgresURL(t) },
	}
	for name, dsn := range dsns {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			url := dsn(t)
			made := 0
			generate := func() ([]byte, error) {
				made++
				return fmt.Appendf(nil, "-----BEGIN CERTIFICATE-----\n%d\n", made), nil
			}
			read := func(host string) []byte {
				t.Helper()
				s, err := store.Open(ctx, url)
				if err != nil {
					t.Fatal(err)
				}
				defer s.Close()
				pem, err := s.OPCUACertificate(ctx, host, generate)
				if err != nil {
					t.Fatal(err)
				}
				return pem
			}
			first := read("127.0.0.1")
			if made != 1 || !bytes.HasPrefix(first, []byte("-----BEGIN CERTIFICATE-----")) {
				t.Fatalf("made %d, got %q", made, first)
			}
			if again := read("127.0.0.1"); !bytes.Equal(again, first) || made != 1 {
				t.Fatalf("after reopening: %q (made %d); want %q, made once", again, made, first)
			}
			if other := read("10.0.0.5"); bytes.Equal(other, first) || made != 2 {
				t.Fatalf("another host's certificate = %q (made %d)", other, made)
			}
			t.Run("ErrGenerate", func(t *testing.T) {
				s, err := store.Open(ctx, url)
				if err != nil {
					t.Fatal(err)
				}
				defer s.Close()
				boom := errors.New("no entropy")
				if _, err := s.OPCUACertificate(ctx, "192.0.2.1", func() ([]byte, error) { return nil, boom }); !errors.Is(err, boom) {
					t.Fatalf("err = %v", err)
				}
				if _, err := s.OPCUACertificate(ctx, "192.0.2.1", generate); err != nil {
					t.Fatalf("after a failed attempt: %v", err)
				}
			})
		})
	}
}
