package store_test

import (
	"context"
	"database/sql"
	"fmt"
	"regexp"
	"slices"
	"testing"
	"time"

	"journeyman/internal/store"
	"journeyman/internal/store/storetest"
	"journeyman/internal/training"
)

// Migration 00021 finds running sessions by updated_minute rather than
// updated_at: sessions stored before it, and rows stored by other means
// than the store, are found as before, and an update keeps the column
// current.
func TestMigrationLiveByMinute(t *testing.T) {
	eachOldDB(t, 20, func(t *testing.T, o oldDB, db *sql.DB) {
		ctx := context.Background()
		now := storetest.FixedNow
		seedOldDB(t, db, now)
		if _, err := db.ExecContext(ctx, `INSERT INTO xr_sessions (id, user_id, module_id, session_type, started_at, ended_at, interaction_data, updated_at)
				VALUES ('running', 'alice', 'electrical-loto', 'vr', $1, NULL, '{}', $2),
				('stale', 'alice', 'electrical-loto', 'vr', $1, NULL, '{}', $1),
				('ended', 'alice', 'electrical-loto', 'vr', $1, $2, '{}', $2)`, now.Add(-2*time.Hour), now.Add(-90*time.Second)); err != nil {
			t.Fatal(err)
		}
		db.Close()
		s := storetest.Open(t, o.dsn)

		since := now.Add(-10 * time.Minute)
		live := func() []string {
			t.Helper()
			list, err := s.ListLiveSessions(ctx, "", since)
			if err != nil {
				t.Fatal(err)
			}
			var ids []string
			for _, x := range list {
				ids = append(ids, x.ID)
			}
			return ids
		}
		if got := live(); !slices.Equal(got, []string{"running"}) {
			t.Fatalf("live after the migration: %v, want [running]", got)
		}
		if _, err := s.AppendSession(ctx, "stale", nil, func(x *training.Session) error {
			return x.Apply("alice", interactions(training.Interaction{Action: "look"}), training.Scene{}, now)
		}); err != nil {
			t.Fatal(err)
		}
		if got := live(); !slices.Equal(got, []string{"stale", "running"}) {
			t.Fatalf("live after an update of the stale session: %v, want [stale running]", got)
		}
		// A row written by other means than the store (a bench's clone, an
		// import) has no updated_minute of its own.
		if _, err := s.DB().ExecContext(ctx, `INSERT INTO xr_sessions (id, user_id, module_id, session_type, started_at, interaction_data, updated_at)
				VALUES ('imported', 'alice', 'electrical-loto', 'vr', $1, '{}', $2)`, now.Add(-time.Hour), now.Add(-time.Minute)); err != nil {
			t.Fatal(err)
		}
		if got := live(); !slices.Equal(got, []string{"stale", "imported", "running"}) {
			t.Fatalf("live with a row stored by other means: %v, want [stale imported running]", got)
		}

	})
}

// No index of xr_sessions holds a column every periodic update changes: on
// PostgreSQL the update then stays in place (HOT, migration 00021); on
// SQLite it writes no index entry (00023, and putSessionInPlace:
// TestSQLiteUpdateInPlaceWritesNoIndex).
func TestNoSessionIndexHoldsWhatAnUpdateChanges(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		q := `SELECT indexdef FROM pg_indexes WHERE tablename = 'xr_sessions'`
		if s.Dialect() == store.SQLite {
			q = `SELECT sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'xr_sessions' AND sql IS NOT NULL`
		}
		rows, err := s.DB().QueryContext(context.Background(), q)
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		changed := regexp.MustCompile(`\b(updated_at|duration|position|rotation|interaction_data|interaction_count|interaction_bytes|revision)\b`)
		n := 0
		for rows.Next() {
			var def string
			if err := rows.Scan(&def); err != nil {
				t.Fatal(err)
			}
			n++
			if changed.MatchString(def) {
				t.Errorf("%s: holds a column every periodic update changes", def)
			}
		}
		if err := rows.Err(); err != nil {
			t.Fatal(err)
		}
		if n < 4 {
			t.Fatalf("%d indexes of xr_sessions read, want its 4 at least", n)
		}
	})
}

// SQLite rewrites an index's entry whenever an UPDATE sets one of its
// columns, whatever the value; so the periodic update's statement sets
// none, and the full one follows only when an indexed column changes.
func TestSQLiteUpdateInPlaceWritesNoIndex(t *testing.T) {
	s := storetest.OpenSQLite(t)
	indexWrites := func(query string) int {
		t.Helper()
		rows, err := s.DB().QueryContext(context.Background(), "EXPLAIN "+query, make([]any, 16)...)
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		cols, _ := rows.Columns()
		n := 0
		for rows.Next() {
			vals := make([]any, len(cols))
			ptrs := make([]any, len(cols))
			for i := range vals {
				ptrs[i] = &vals[i]
			}
			if err := rows.Scan(ptrs...); err != nil {
				t.Fatal(err)
			}
			if op := fmt.Sprint(vals[1]); op == "IdxInsert" || op == "IdxDelete" {
				n++
			}
		}
		if err := rows.Err(); err != nil {
			t.Fatal(err)
		}
		return n
	}
	if n := indexWrites(store.PutSessionInPlace); n != 0 {
		t.Errorf("the in-place update writes %d index entries, want none", n)
	}
	if n := indexWrites(store.PutSession); n == 0 {
		t.Error("the full update writes no index entry: the check above no longer sees them")
	}
}

// An update changing an indexed column of xr_sessions writes it to the row
// (on SQLite the in-place statement finds no row for it, and the full one
// follows), and a later update, which changes none, keeps it. The row is
// read itself: the store's own reads may answer from its last write.
func TestSessionRowTakesIndexedColumns(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		seedLearners(t, s)
		t0 := storetest.FixedNow.Add(-time.Hour)
		ended, score := t0.Add(30*time.Minute), 87.5
		tests := []struct {
			name   string
			change func(x *training.Session)
			want   string // ended_at set, safety_score, outcome, verified as read back
		}{
			{"ended", func(x *training.Session) { x.EndedAt = &ended }, "true <nil>  false"},
			{"score", func(x *training.Session) { x.SafetyScore = &score }, "false 87.5  false"},
			{"outcome", func(x *training.Session) { x.InteractionData.CompletionStatus = "passed" }, "false <nil> passed false"},
			{"verified", func(x *training.Session) { x.Verified = true }, "false <nil>  true"},
		}
		for i, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				id := fmt.Sprintf("indexed-%d", i)
				startSession(t, s, id, "alice", "electrical-loto", t0)
				at := t0
				update := func(change func(x *training.Session)) {
					t.Helper()
					at = at.Add(time.Second)
					if _, err := s.AppendSession(ctx, id, nil, func(x *training.Session) error {
						if err := x.Apply("alice", interactions(training.Interaction{Action: "look"}), training.Scene{}, at); err != nil {
							return err
						}
						if change != nil {
							change(x)
						}
						return nil
					}); err != nil {
						t.Fatal(err)
					}
				}
				update(nil)
				update(tt.change)
				if tt.name != "ended" { // an ended session takes no more updates
					update(nil)
				}
				var endedAt sql.NullString
				var safety sql.NullFloat64
				var outcome string
				var verified bool
				if err := s.DB().QueryRowContext(ctx, `SELECT ended_at, safety_score, outcome, verified FROM xr_sessions WHERE id = $1`, id).
					Scan(&endedAt, &safety, &outcome, &verified); err != nil {
					t.Fatal(err)
				}
				var sc any
				if safety.Valid {
					sc = safety.Float64
				}
				if got := fmt.Sprint(endedAt.Valid, " ", sc, " ", outcome, " ", verified); got != tt.want {
					t.Errorf("row: %q, want %q", got, tt.want)
				}
			})
		}
	})
}
