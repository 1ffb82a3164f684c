// Command portalbench measures PORTAL's cohort page and cohort CSV export
// on an organisation of 5,000 learners in 100 cohorts with 500,000 XR
// sessions. bench/portal/run.sh drives it; it prints figures and asserts
// nothing.
//
//	portalbench generate -db DSN [-learners 5000] [-cohorts 100] [-sessions 500000]
//	portalbench measure -url URL [-n 200] [-exports 40]
package main

import (
	"context"
	"database/sql"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/cookiejar"
	"os"
	"slices"
	"strings"
	"time"

	"journeyman/internal/catalog"
	"journeyman/internal/identity"
	"journeyman/internal/store"
)

// The account measure signs in as; generate makes it the organisation's admin.
const (
	adminEmail    = "bench-admin@example.com"
	adminPassword = "bench admin climbs the long scaffold" //nolint:gosec // G101: a scratch database's account
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: portalbench generate|measure …")
		os.Exit(2)
	}
	var err error
	switch os.Args[1] {
	case "generate":
		err = generate(os.Args[2:])
	case "measure":
		err = measure(os.Args[2:])
	default:
		err = fmt.Errorf("unknown mode %q", os.Args[1])
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "portalbench:", err)
		os.Exit(1)
	}
}

// generate fills a fresh database: one organisation, its admin, learners
// spread over cohorts, and sessions, safety alerts and refresher cards
// spread over the learners and the last year, in the proportions a busy
// training centre would have. Rows go in with multi-row INSERTs: the point
// is the data, not how fast the API writes it.
func generate(args []string) error {
	fs := flag.NewFlagSet("generate", flag.ExitOnError)
	dsn := fs.String("db", "", "SQLite path or postgres:// URL of an empty database")
	learners := fs.Int("learners", 5000, "learners")
	cohorts := fs.Int("cohorts", 100, "cohorts")
	sessions := fs.Int("sessions", 500_000, "XR sessions")
	_ = fs.Parse(args)
	ctx := context.Background()
	start := time.Now()
	st, err := store.Open(ctx, *dsn)
	if err != nil {
		return err
	}
	defer st.Close()
	if err := st.SeedCatalog(ctx, catalog.Trades(), catalog.Modules()); err != nil {
		return err
	}
	admin, _, _, err := st.CreateAdmin(ctx, "Bench Training Centre", adminEmail, "Bench Admin")
	if err != nil {
		return err
	}
	db := st.DB()
	if _, err := db.ExecContext(ctx, `UPDATE learners SET password_hash = $1 WHERE id = $2`, identity.HashPassword(adminPassword), admin.ID); err != nil {
		return err
	}
	now := time.Now().UTC()
	rng := rand.New(rand.NewPCG(1, 2)) //nolint:gosec // G404: generated data, the same on every run
	modules := catalog.Modules()

	ids := make([]string, *learners)
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer func() { _ = tx.Rollback() }()
	w := &bulk{ctx: ctx, tx: tx}
	for i := range ids {
		ids[i] = fmt.Sprintf("%032x", i+1)
		w.add(`INSERT INTO learners (id, display_name, created_at, email, password_hash, role, org_id, joined_at) VALUES `,
			ids[i], fmt.Sprintf("Learner %05d", i+1), now, fmt.Sprintf("learner%05d@example.com", i+1), "", "learner", admin.OrgID, now)
	}
	for c := range *cohorts {
		w.add(`INSERT INTO cohorts (id, org_id, name, instructor_id, created_at) VALUES `,
			fmt.Sprintf("c%031x", c+1), admin.OrgID, fmt.Sprintf("Cohort %03d", c+1), admin.ID, now)
	}
	for i, id := range ids {
		w.add(`INSERT INTO cohort_members (cohort_id, learner_id, added_at) VALUES `, fmt.Sprintf("c%031x", i%*cohorts+1), id, now)
	}
	for n := range *sessions {
		learner := ids[n%len(ids)]
		m := modules[rng.IntN(len(modules))]
		started := now.Add(-time.Duration(rng.Int64N(int64(365 * 24 * time.Hour))))
		duration := 300 + rng.Int64N(1500)
		updated := started.Add(time.Duration(duration) * time.Second)
		var ended, score any
		status, outcome, verified := "in_progress", "", false
		if rng.IntN(10) > 0 {
			ended, status = updated, "completed"
			verified = rng.IntN(10) < 7
			outcome = "failed"
			if rng.IntN(10) < 6 {
				outcome = "passed"
			}
			score = float64(50 + rng.IntN(51))
		}
		w.add(`INSERT INTO xr_sessions (id, user_id, module_id, session_type, device_type, started_at, ended_at, duration,
			completion_status, safety_score, updated_at, verified, outcome, interaction_data, server_started_at) VALUES `,
			fmt.Sprintf("s%031x", n+1), learner, m.ID, []string{"desktop", "vr", "ar"}[n%3], "bench", started, ended, duration,
			status, score, updated, verified, outcome, `{"safetyChecks":[],"completionStatus":"`+outcome+`"}`, started)
	}
	for i, id := range ids {
		for a := range i % 3 { // a third raise none, a third one, a third two
			w.add(`INSERT INTO safety_alerts (user_id, org_id, session_id, alert_type, description, created_at) VALUES `,
				id, admin.OrgID, "", "help", fmt.Sprintf("Bench alert %d", a), now.Add(-time.Duration(a)*time.Hour))
		}
	}
	for i, id := range ids {
		for k := range 5 {
			due := now.Add(time.Duration(rng.Int64N(int64(60*24*time.Hour))) - 30*24*time.Hour)
			w.add(`INSERT INTO refresher_cards (learner_id, module_id, due, stability, difficulty, elapsed_days, scheduled_days, reps,
				lapses, state, last_review, last_session_at, last_session_id, updated_at) VALUES `,
				id, modules[(i+k*7)%len(modules)].ID, due, 3.0, 5.0, 1, 3, 1, 0, "Review", now, now, "bench", now)
		}
	}
	if err := w.flush(); err != nil {
		return err
	}
	if err := tx.Commit(); err != nil {
		return err
	}
	if st.Dialect() == store.Postgres {
		if _, err := db.ExecContext(ctx, `ANALYZE`); err != nil {
			return err
		}
	} else if _, err := db.ExecContext(ctx, `PRAGMA optimize=0x10002`); err != nil {
		return err
	}
	fmt.Printf("generated %d learners in %d cohorts, %d sessions, in %s\n", *learners, *cohorts, *sessions, time.Since(start).Round(time.Second))
	return nil
}

// bulk batches rows of one INSERT into multi-row statements.
type bulk struct {
	ctx    context.Context
	tx     *sql.Tx
	prefix string
	rows   [][]any
	err    error
}

// add queues one row; a change of statement flushes the rows queued.
func (b *bulk) add(prefix string, row ...any) {
	if b.err != nil {
		return
	}
	if prefix != b.prefix || len(b.rows)*len(row) >= 600 { // PostgreSQL takes at most 65,535 parameters; SQLite parses big statements slowly
		b.err = b.flush()
		b.prefix = prefix
	}
	b.rows = append(b.rows, row)
}

func (b *bulk) flush() error {
	if b.err != nil || len(b.rows) == 0 {
		return b.err
	}
	var sb strings.Builder
	sb.WriteString(b.prefix)
	var args []any
	for i, row := range b.rows {
		if i > 0 {
			sb.WriteByte(',')
		}
		sb.WriteByte('(')
		for j, v := range row {
			if j > 0 {
				sb.WriteByte(',')
			}
			args = append(args, v)
			fmt.Fprintf(&sb, "$%d", len(args))
		}
		sb.WriteByte(')')
	}
	b.rows = b.rows[:0]
	_, err := b.tx.ExecContext(b.ctx, sb.String(), args...)
	return err
}

// measure signs in as the admin and times the cohort page (every sort, and
// a search) and the cohort CSV export, one request at a time.
func measure(args []string) error {
	fs := flag.NewFlagSet("measure", flag.ExitOnError)
	base := fs.String("url", "", "server URL")
	n := fs.Int("n", 200, "cohort page requests")
	exports := fs.Int("exports", 40, "cohort exports")
	label := fs.String("label", "", "label of the printed lines")
	_ = fs.Parse(args)
	jar, _ := cookiejar.New(nil)
	client := &http.Client{Jar: jar, Timeout: time.Minute}
	ctx := context.Background()
	req, _ := http.NewRequestWithContext(ctx, "POST", *base+"/api/account/sign-in",
		strings.NewReader(`{"email":"`+adminEmail+`","password":"`+adminPassword+`"}`))
	req.Header.Set("Content-Type", "application/json")
	res, err := client.Do(req)
	if err != nil {
		return err
	}
	_ = res.Body.Close()
	if res.StatusCode != 200 {
		return fmt.Errorf("sign in: %s", res.Status)
	}
	req, _ = http.NewRequestWithContext(ctx, "GET", *base+"/api/cohorts", nil)
	res, err = client.Do(req)
	if err != nil {
		return err
	}
	var cohorts []struct{ ID string }
	err = json.NewDecoder(res.Body).Decode(&cohorts)
	_ = res.Body.Close()
	if err != nil {
		return fmt.Errorf("cohorts: %w", err)
	}
	if len(cohorts) == 0 {
		return fmt.Errorf("the organisation has no cohorts")
	}
	get := func(path string) (time.Duration, int64, error) {
		t := time.Now()
		req, _ := http.NewRequestWithContext(ctx, "GET", *base+path, nil)
		res, err := client.Do(req)
		if err != nil {
			return 0, 0, err
		}
		size, err := io.Copy(io.Discard, res.Body)
		_ = res.Body.Close()
		if res.StatusCode != 200 {
			return 0, 0, fmt.Errorf("%s: %s", path, res.Status)
		}
		return time.Since(t), size, err
	}
	sorts := []string{"displayName", "sessions", "timeSeconds", "lastActive", "modulesCompleted", "averageSafetyScore", "alerts", "refreshersDue", "unverifiedSessions"}
	var page []time.Duration
	for i := range *n {
		q := fmt.Sprintf("/api/portal/cohorts/%s/learners?sort=%s&dir=desc", cohorts[i%len(cohorts)].ID, sorts[i%len(sorts)])
		if i%10 == 9 {
			q += "&q=learner%200&flag=refreshersDue"
		}
		d, _, err := get(q)
		if err != nil {
			return err
		}
		page = append(page, d)
	}
	var export []time.Duration
	var bytes int64
	for i := range *exports {
		d, size, err := get("/api/portal/cohorts/" + cohorts[i%len(cohorts)].ID + "/export.csv")
		if err != nil {
			return err
		}
		export, bytes = append(export, d), size
	}
	fmt.Printf("%-10s cohort page   n=%d p50 %s p99 %s max %s (target p99 <= 300ms)\n", *label, len(page), pct(page, 50), pct(page, 99), pct(page, 100))
	fmt.Printf("%-10s cohort export n=%d p50 %s p99 %s max %s, %d KB each (target p99 <= 300ms)\n", *label, len(export), pct(export, 50), pct(export, 99), pct(export, 100), bytes/1024)
	return nil
}

func pct(ds []time.Duration, p int) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	i := (len(s)*p + 99) / 100
	return s[max(min(i, len(s))-1, 0)].Round(100 * time.Microsecond)
}
