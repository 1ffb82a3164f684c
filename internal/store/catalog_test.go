package store_test

import (
	"context"
	"log/slog"
	"reflect"
	"testing"
	"time"

	"journeyman/internal/apperr"
	"journeyman/internal/catalog"
	"journeyman/internal/store"
	"journeyman/internal/store/storetest"
)

var (
	testTrades = []catalog.Trade{
		{ID: "electrical", Name: "Electrical", Description: "Power systems.", Certifications: []string{"NFPA 70E"}},
		{ID: "hvac", Name: "HVAC", Description: "Heating and cooling.", Certifications: []string{"EPA Section 608"}},
	}
	testModules = []catalog.Module{
		{ID: "electrical-basics", TradeID: "electrical", Title: "Electrical Basics", Description: "Ohm's law.", Difficulty: catalog.Beginner,
			EstimatedDuration: 30, LearningObjectives: []string{"Apply Ohm's law"}, SafetyPoints: []string{"Test before touch"},
			Prerequisites: []string{}, Categories: []string{"technical"}},
		{ID: "electrical-loto", TradeID: "electrical", Title: "Lockout/Tagout", Description: "Isolate energy.", Difficulty: catalog.Intermediate,
			EstimatedDuration: 45, LearningObjectives: []string{"Apply a lock"}, SafetyPoints: []string{"Verify zero energy"},
			Prerequisites: []string{"electrical-basics"}, Categories: []string{"safety"}},
		{ID: "hvac-gauges", TradeID: "hvac", Title: "Reading Gauges", Description: "Manifold gauges.", Difficulty: catalog.Beginner,
			EstimatedDuration: 40, LearningObjectives: []string{"Read superheat"}, SafetyPoints: []string{"Wear gloves"},
			Prerequisites: []string{}, Categories: []string{"technical"}},
	}
)

func TestCatalog(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		t.Run("EmptyBeforeSeed", func(t *testing.T) {
			modules, err := s.ListModules(ctx)
			if err != nil || len(modules) != 0 {
				t.Fatalf("ListModules = %v, %v; want empty", modules, err)
			}
		})
		t.Run("SeedAndList", func(t *testing.T) {
			if err := s.SeedCatalog(ctx, testTrades, testModules); err != nil {
				t.Fatal(err)
			}
			trades, err := s.ListTrades(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(trades, testTrades) {
				t.Fatalf("trades = %+v, want %+v", trades, testTrades)
			}
			modules, err := s.ListModules(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(modules, testModules) {
				t.Fatalf("modules = %+v, want %+v", modules, testModules)
			}
		})
		t.Run("SeedAgainKeepsEdits", func(t *testing.T) {
			if _, err := s.DB().ExecContext(ctx, `UPDATE training_modules SET title = 'Edited' WHERE id = 'electrical-loto'`); err != nil {
				t.Fatal(err)
			}
			if err := s.SeedCatalog(ctx, testTrades, testModules); err != nil {
				t.Fatal(err)
			}
			m, err := s.GetModule(ctx, "electrical-loto")
			if err != nil || m.Title != "Edited" {
				t.Fatalf("GetModule = %+v, %v; want the edited title kept", m, err)
			}
		})
		t.Run("ErrUnknownModule", func(t *testing.T) {
			_, err := s.GetModule(ctx, "nope")
			if apperr.Code(err) != apperr.ENOTFOUND {
				t.Fatalf("err = %v, want not found", err)
			}
		})
	})
}

func TestEnsureLearner(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		first, err := s.EnsureLearner(ctx, "0123456789abcdef0123456789abcdef", "Guest 0123")
		if err != nil {
			t.Fatal(err)
		}
		again, err := s.EnsureLearner(ctx, first.ID, "Another name")
		if err != nil {
			t.Fatal(err)
		}
		if again != first {
			t.Fatalf("second EnsureLearner = %+v, want the stored %+v", again, first)
		}
	})
}

// waitChanged waits for a catalog notification.
func waitChanged(t *testing.T, changed <-chan struct{}, what string) {
	t.Helper()
	select {
	case <-changed:
	case <-time.After(10 * time.Second):
		t.Fatalf("no catalog notification within 10 s after %s", what)
	}
}

func TestSeedCatalogNotifies(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		changed := make(chan struct{}, 10)
		s.ListenCatalog(ctx, func() { changed <- struct{}{} }, slog.Default())

		if err := s.SeedCatalog(ctx, testTrades, testModules); err != nil {
			t.Fatal(err)
		}
		waitChanged(t, changed, "the first seed")
		// A seed that inserts nothing, and one that fails, say nothing …
		if err := s.SeedCatalog(ctx, testTrades, testModules); err != nil {
			t.Fatal(err)
		}
		orphan := testModules[0]
		orphan.ID, orphan.TradeID = "orphan", "no-such-trade"
		if err := s.SeedCatalog(ctx, testTrades, append(testModules, orphan)); err == nil {
			t.Fatal("a module of an unknown trade was seeded")
		}
		// … so the next notification is this seed's, and the last one.
		extra := testModules[0]
		extra.ID = "electrical-extra"
		if err := s.SeedCatalog(ctx, testTrades, append(testModules, extra)); err != nil {
			t.Fatal(err)
		}
		waitChanged(t, changed, "a seed with a new module")
		if len(changed) != 0 {
			t.Errorf("%d notifications more than the two seeds that inserted rows", len(changed))
		}
	})
}

// Two stores on one PostgreSQL database stand for two server processes: a
// process starting with a larger catalog tells the running one.
func TestSeedCatalogNotifiesOtherProcesses(t *testing.T) {
	dsn := storetest.PostgresURL(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	running, err := store.Open(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer running.Close()
	changed := make(chan struct{}, 10)
	running.ListenCatalog(ctx, func() { changed <- struct{}{} }, slog.Default())

	starting, err := store.Open(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer starting.Close()
	if err := starting.SeedCatalog(ctx, testTrades, testModules); err != nil {
		t.Fatal(err)
	}
	waitChanged(t, changed, "another process seeded the catalog")

	// Changes made while the listening connection is down go unheard, so
	// its return counts as a change.
	if _, err := starting.DB().ExecContext(ctx, `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
		WHERE datname = current_database() AND query LIKE 'LISTEN %'`); err != nil {
		t.Fatal(err)
	}
	waitChanged(t, changed, "the listening connection was cut")
}
