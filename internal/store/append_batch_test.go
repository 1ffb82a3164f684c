package store_test

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"journeyman/internal/apperr"
	"journeyman/internal/store"
	"journeyman/internal/store/storetest"
	"journeyman/internal/training"
)

// Appends queued together run as one group (PostgreSQL's batch, SQLite's
// group commit), and each is answered for itself: a missing session, an
// update refused or panicking, and a caller who left fail alone, and a
// second append of one session in the group is stored too (in either
// order: PostgreSQL runs it in a batch of its own, which may run beside
// the first).
func TestAppendsGroupedAnswerEach(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		seedLearners(t, s)
		ctx := context.Background()
		for _, id := range []string{"g1", "g2", "g3", "g4", "g5"} {
			startSession(t, s, id, "alice", "hvac-gauges", storetest.FixedNow.Add(-time.Minute))
		}
		look := func(obj string) func(*training.Session) error {
			return func(x *training.Session) error {
				return x.Apply("alice", interactions(training.Interaction{Action: "look", ObjectID: obj}), training.Scene{}, s.Now())
			}
		}
		leaving, leave := context.WithCancel(ctx)
		cases := []struct {
			id   string
			ctx  context.Context
			fn   func(*training.Session) error
			want func(error) bool
		}{
			{"g1", ctx, look("first"), isNil},
			{"g2", ctx, look("only"), isNil},
			{"missing", ctx, look("none"), isCode(apperr.ENOTFOUND)},
			{"g3", ctx, func(*training.Session) error { return apperr.Invalid("refused") }, isCode(apperr.EINVALID)},
			{"g4", ctx, func(*training.Session) error { panic("broken update") }, func(err error) bool {
				return err != nil && strings.Contains(err.Error(), "broken update")
			}},
			{"g1", ctx, look("second"), isNil},
			{"g5", leaving, look("left"), func(err error) bool { return errors.Is(err, context.Canceled) }},
		}
		errs := make([]error, len(cases))
		var wg sync.WaitGroup
		err := store.HoldGroups(ctx, s, func() {
			for i, c := range cases {
				wg.Go(func() { _, errs[i] = s.AppendSession(c.ctx, c.id, nil, c.fn) })
				waitQueued(t, s, i+1) // in this order
			}
			leave()
			waitQueued(t, s, len(cases)-1)
		})
		if err != nil {
			t.Fatal(err)
		}
		wg.Wait()
		for i, c := range cases {
			if !c.want(errs[i]) {
				t.Errorf("append %d to %s: %v", i, c.id, errs[i])
			}
		}
		for id, want := range map[string][]string{"g1": {"first", "second"}, "g2": {"only"}, "g3": nil, "g4": nil, "g5": nil} {
			checkStored(t, s, id, len(want))
			x, err := s.GetSession(ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, in := range x.InteractionData.Interactions {
				got = append(got, in.ObjectID)
			}
			slices.Sort(got)
			if !slices.Equal(got, want) {
				t.Errorf("%s holds %q, want %q", id, got, want)
			}
		}
	})
}

func isNil(err error) bool { return err == nil }

func isCode(code string) func(error) bool {
	return func(err error) bool { return apperr.Code(err) == code }
}

func waitQueued(t *testing.T, s *store.Store, n int) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); store.QueuedGroupItems(s) != n; {
		if time.Now().After(deadline) {
			t.Fatalf("%d writes queued, want %d", store.QueuedGroupItems(s), n)
		}
		time.Sleep(time.Millisecond)
	}
}

// Two stores on one PostgreSQL database stand for two server processes
// appending to the same sessions: a batch whose row another process wrote
// first tries again, and every interaction is stored once.
func TestAppendSessionTwoProcesses(t *testing.T) {
	dsn := storetest.PostgresURL(t)
	var stores [2]*store.Store
	for i := range stores {
		s, err := store.Open(context.Background(), dsn)
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		s.Now = func() time.Time { return storetest.FixedNow }
		stores[i] = s
	}
	seedLearners(t, stores[0])
	ids := []string{"p1", "p2", "p3"}
	for _, id := range ids {
		startSession(t, stores[0], id, "alice", "hvac-gauges", storetest.FixedNow.Add(-time.Minute))
	}
	const writers, each = 6, 10
	var wg sync.WaitGroup
	errs := make(chan error, writers*each)
	for w := range writers {
		s := stores[w%2]
		wg.Go(func() {
			for k := range each {
				_, err := appendPatch(s, ids[(w+k)%len(ids)], interactions(training.Interaction{Action: "look", ObjectID: fmt.Sprintf("w%d-%d", w, k)}))
				errs <- err
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	seen := map[string]bool{}
	for _, id := range ids {
		x, err := stores[1].GetSession(context.Background(), id)
		if err != nil {
			t.Fatal(err)
		}
		for _, in := range x.InteractionData.Interactions {
			if seen[in.ObjectID] {
				t.Fatalf("%s stored twice", in.ObjectID)
			}
			seen[in.ObjectID] = true
		}
		checkStored(t, stores[1], id, len(x.InteractionData.Interactions))
	}
	if len(seen) != writers*each {
		t.Fatalf("%d interactions stored, want %d", len(seen), writers*each)
	}
}

// A store starts a periodic update from the session as it last wrote it.
// When another process (a second store on the database) writes in
// between, the first one's next update must see the row moved on and
// start from it: its interaction goes after the other's, and an end the
// other recorded refuses it.
func TestAppendAfterAnotherProcess(t *testing.T) {
	for _, db := range []struct {
		name string
		dsn  func(testing.TB) string
	}{
		{"sqlite", func(tb testing.TB) string { return filepath.Join(tb.TempDir(), "journeyman.db") }},
		{"postgres", storetest.PostgresURL},
	} {
		t.Run(db.name, func(t *testing.T) {
			dsn := db.dsn(t)
			a, b := storetest.Open(t, dsn), storetest.Open(t, dsn)
			seedLearners(t, a)
			startSession(t, a, "moved", "alice", "hvac-gauges", storetest.FixedNow.Add(-time.Minute))
			look := func(s *store.Store, obj string, duration int64) (training.Session, error) {
				p := interactions(training.Interaction{Action: "look", ObjectID: obj})
				p.Duration = &duration
				return appendPatch(s, "moved", p)
			}
			for _, w := range []struct {
				s   *store.Store
				obj string
			}{{a, "a1"}, {b, "b1"}, {a, "a2"}} {
				if _, err := look(w.s, w.obj, int64(len(w.obj))); err != nil {
					t.Fatalf("append %s: %v", w.obj, err)
				}
			}
			x, err := b.GetSession(context.Background(), "moved")
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, in := range x.InteractionData.Interactions {
				got = append(got, in.ObjectID)
			}
			if !slices.Equal(got, []string{"a1", "b1", "a2"}) {
				t.Fatalf("interactions stored: %v", got)
			}
			checkStored(t, b, "moved", 3)

			at := storetest.FixedNow
			if _, err := b.UpdateSession(context.Background(), "moved", nil, func(x *training.Session) error {
				return x.Apply("alice", endPatch(at), training.Scene{}, at)
			}); err != nil {
				t.Fatal(err)
			}
			if _, err := look(a, "after the end", 99); apperr.Code(err) != apperr.ECONFLICT {
				t.Fatalf("append after another process ended the session: %v, want ECONFLICT", err)
			}
			checkStored(t, b, "moved", 3)
		})
	}
}

// A guest's running session that moves to the account the guest signs up
// for takes the account's updates, and no longer the guest's, though the
// store last wrote it as the guest's.
func TestAppendAfterGuestCarryOver(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		seedLearners(t, s)
		const guest = "33333333333333333333333333333333"
		if err := s.EnsureGuest(ctx, guest); err != nil {
			t.Fatal(err)
		}
		startSession(t, s, "carried", guest, "hvac-gauges", storetest.FixedNow.Add(-time.Minute))
		as := func(learner, obj string) error {
			_, err := s.AppendSession(ctx, "carried", nil, func(x *training.Session) error {
				return x.Apply(learner, interactions(training.Interaction{Action: "look", ObjectID: obj}), training.Scene{}, s.Now())
			})
			return err
		}
		if err := as(guest, "by the guest"); err != nil {
			t.Fatal(err)
		}
		u, err := s.CreateAccount(ctx, store.NewAccount{Email: "carried@example.com", DisplayName: "Carried", PasswordHash: "h"}, guest, "")
		if err != nil {
			t.Fatal(err)
		}
		if err := as(u.ID, "by the account"); err != nil {
			t.Fatalf("the account's append: %v", err)
		}
		if err := as(guest, "by the guest, after"); apperr.Code(err) != apperr.EFORBIDDEN {
			t.Fatalf("the guest's append after sign-up: %v, want EFORBIDDEN", err)
		}
		checkStored(t, s, "carried", 2)
	})
}

// A batch of appends on PostgreSQL locks its rows in the order of their
// ids, whatever order the appends came in: it waits on the first row
// another transaction holds without holding a later one. When a
// transaction locking in another order still meets it in a deadlock and
// PostgreSQL aborts the batch, its appends try again and are stored.
func TestAppendBatchLocksInOrder(t *testing.T) {
	dsn := storetest.PostgresURL(t)
	s := storetest.Open(t, dsn)
	seedLearners(t, s)
	// Created, and so laid out in the table, in the order opposite to ids.
	for _, id := range []string{"lock-b", "lock-a"} {
		startSession(t, s, id, "alice", "hvac-gauges", storetest.FixedNow.Add(-time.Minute))
	}
	other, err := sql.Open("pgx", dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	ctx := context.Background()

	for _, c := range []struct {
		name string
		// first is the row the other transaction holds before the batch
		// runs, then the one it asks for while the batch waits on the first.
		first, then string
		nowait      bool
	}{
		{"waits holding nothing", "lock-a", "lock-b", true},
		{"aborted by a deadlock", "lock-b", "lock-a", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			tx, err := other.BeginTx(ctx, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer func() { _ = tx.Rollback() }()
			// The batch, waiting first, must be the one PostgreSQL aborts.
			if _, err := tx.ExecContext(ctx, `SET LOCAL deadlock_timeout = '20s'`); err != nil {
				t.Fatal(err)
			}
			lock := `SELECT id FROM xr_sessions WHERE id = $1 FOR UPDATE`
			if _, err := tx.ExecContext(ctx, lock, c.first); err != nil {
				t.Fatal(err)
			}
			errs := make([]error, 2)
			var wg sync.WaitGroup
			if err := store.HoldGroups(ctx, s, func() {
				for i, id := range []string{"lock-b", "lock-a"} {
					wg.Go(func() {
						_, errs[i] = appendPatch(s, id, interactions(training.Interaction{Action: "look", ObjectID: c.name}))
					})
					waitQueued(t, s, i+1)
				}
			}); err != nil {
				t.Fatal(err)
			}
			waitForLockWait(t, other)
			if c.nowait {
				lock += " NOWAIT"
			}
			if _, err := tx.ExecContext(ctx, lock, c.then); err != nil {
				t.Fatalf("lock %s while the batch waits on %s: %v", c.then, c.first, err)
			}
			if err := tx.Commit(); err != nil {
				t.Fatal(err)
			}
			wg.Wait()
			for i, err := range errs {
				if err != nil {
					t.Errorf("append %d: %v", i, err)
				}
			}
		})
	}
	for _, id := range []string{"lock-a", "lock-b"} {
		checkStored(t, s, id, 2)
	}
}

// A batch of appends on PostgreSQL finds its rows through the primary key,
// however few sessions the table holds: a plan scanning the whole table
// costs every batch in proportion to all the sessions, and is what the
// planner chose for a join on id while the table was small.
func TestPutSessionsScansNoTable(t *testing.T) {
	s := storetest.Open(t, storetest.PostgresURL(t))
	seedLearners(t, s)
	startSession(t, s, "scan-0", "alice", "hvac-gauges", storetest.FixedNow.Add(-time.Minute))
	ctx := context.Background()
	if _, err := s.DB().ExecContext(ctx, `INSERT INTO xr_sessions (id, user_id, module_id, session_type, started_at, updated_at)
		SELECT 'scan-' || g, user_id, module_id, session_type, started_at, updated_at FROM xr_sessions, generate_series(1, 999) g`); err != nil {
		t.Fatal(err)
	}
	if _, err := s.DB().ExecContext(ctx, `ANALYZE xr_sessions`); err != nil {
		t.Fatal(err)
	}
	conn, err := s.DB().Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	// Plans made for the batch's own arrays, and the one plan PostgreSQL
	// keeps for a prepared statement after its first few runs.
	for _, c := range []struct {
		mode string
		n    int
	}{{"force_custom_plan", 1}, {"force_custom_plan", 16}, {"force_generic_plan", 16}} {
		t.Run(fmt.Sprint(c.mode, "/", c.n), func(t *testing.T) {
			if _, err := conn.ExecContext(ctx, "SET plan_cache_mode = "+c.mode); err != nil {
				t.Fatal(err)
			}
			plan := explainPutSessions(t, conn, c.n)
			if strings.Contains(plan, "Seq Scan on xr_sessions") || !strings.Contains(plan, "Index Scan using xr_sessions_pkey") {
				t.Errorf("a batch of %d scans the table:\n%s", c.n, plan)
			}
		})
	}
}

// explainPutSessions is PostgreSQL's plan for a batch of n appends.
func explainPutSessions(t *testing.T, conn *sql.Conn, n int) string {
	t.Helper()
	now := storetest.FixedNow
	ids := make([]string, n)
	var (
		revs, durations []int64
		ended, updated  []*time.Time
		texts           []string
		scores          []*float64
		verified        []bool
		counts          []int32
		minutes         []time.Time
	)
	for i := range ids {
		ids[i] = fmt.Sprint("scan-", i*7)
		revs, durations, ended, updated = append(revs, 0), append(durations, 0), append(ended, nil), append(updated, &now)
		texts, scores, verified = append(texts, "{}"), append(scores, nil), append(verified, false)
		counts, minutes = append(counts, 0), append(minutes, now)
	}
	rows, err := conn.QueryContext(context.Background(), "EXPLAIN (COSTS OFF) "+store.PutSessions, ids, revs, ended, durations,
		texts, scores, texts, texts, texts, texts, updated, verified, texts, counts, counts, minutes, ids, counts, texts)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var plan []string
	for rows.Next() {
		var line string
		if err := rows.Scan(&line); err != nil {
			t.Fatal(err)
		}
		plan = append(plan, line)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return strings.Join(plan, "\n")
}

// waitForLockWait waits until a statement of db's database waits on a row
// lock.
func waitForLockWait(t *testing.T, db *sql.DB) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(5 * time.Millisecond) {
		var n int
		if err := db.QueryRowContext(context.Background(), `SELECT count(*) FROM pg_stat_activity
			WHERE datname = current_database() AND wait_event_type = 'Lock'`).Scan(&n); err != nil {
			t.Fatal(err)
		}
		if n > 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatal("no statement waits on a lock")
		}
	}
}
