package store_test

import (
	"bytes"
	"context"
	"path/filepath"
	"slices"
	"testing"

	"journeyman/internal/store"
	"journeyman/internal/store/storetest"
	"journeyman/internal/twin"
)

// TestMQTTDeviceSecret reopens the database: the secret must be the one a
// restarted process, or another process on the same database, reads, or
// every device's password would change.
func TestMQTTDeviceSecret(t *testing.T) {
	dsns := map[string]func(*testing.T) string{
		"sqlite":   func(t *testing.T) string { return filepath.Join(t.TempDir(), "j.db") },
		"postgres": func(t *testing.T) string { return storetest.PostgresURL(t) },
	}
	for name, dsn := range dsns {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			url := dsn(t)
			read := func() []byte {
				s, err := store.Open(ctx, url)
				if err != nil {
					t.Fatal(err)
				}
				defer s.Close()
				secret, err := s.MQTTDeviceSecret(ctx)
				if err != nil {
					t.Fatal(err)
				}
				again, err := s.MQTTDeviceSecret(ctx)
				if err != nil || !bytes.Equal(secret, again) {
					t.Fatalf("second read = %x, %v; want %x", again, err, secret)
				}
				return secret
			}
			first := read()
			if len(first) != 32 || bytes.Equal(first, make([]byte, 32)) {
				t.Fatalf("secret = %x", first)
			}
			if reopened := read(); !bytes.Equal(first, reopened) {
				t.Fatalf("after reopening the secret is %x; want %x", reopened, first)
			}
			s, err := store.Open(ctx, url)
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			guest, err := s.ServerSecret(ctx, "guest_token_key", 32)
			if err != nil || bytes.Equal(guest, first) {
				t.Fatalf("the guest token key is the device secret: %x, %v", guest, err)
			}
		})
	}
}

func TestEquipmentIDs(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		t.Run("Empty", func(t *testing.T) {
			ids, err := s.EquipmentIDs(ctx)
			if err != nil || len(ids) != 0 {
				t.Fatalf("ids = %v, %v; want none", ids, err)
			}
		})
		t.Run("OK", func(t *testing.T) {
			seed := twin.SeedEquipment()
			if err := s.SeedEquipment(ctx, seed); err != nil {
				t.Fatal(err)
			}
			ids, err := s.EquipmentIDs(ctx)
			if err != nil || len(ids) != len(seed) {
				t.Fatalf("ids = %v, %v; want %d", ids, err, len(seed))
			}
			for _, eq := range seed {
				if !slices.Contains(ids, eq.ID) {
					t.Errorf("%s missing from %v", eq.ID, ids)
				}
			}
		})
	})
}
