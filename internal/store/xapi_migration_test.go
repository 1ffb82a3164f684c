package store_test

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"slices"
	"testing"

	"journeyman/internal/store"
	"journeyman/internal/xapi"
)

// Migrations 00019 (the LRS's index tables and partial indexes rebuilt)
// and 00020 (the index rows' verbs): statements stored before each is
// undone and done again are found by every filter after it.
func TestMigrationXAPIIndexes(t *testing.T) {
	for _, version := range []int64{19, 20} {
		t.Run(fmt.Sprint(version), func(t *testing.T) { testXAPIMigration(t, version) })
	}
}

func testXAPIMigration(t *testing.T, version int64) {
	eachOldDB(t, version, func(t *testing.T, o oldDB, db *sql.DB) {
		ctx := context.Background()
		db.Close()
		s, err := store.Open(ctx, o.dsn)
		if err != nil {
			t.Fatal(err)
		}
		org := mustOrg(t, s, "Org A", "a")
		mustStore(t, s, org.ID, "["+statementJSON(stA, "ann@example.com", verbDid, actWiring, reg1)+","+
			statementJSON(stB, "bob@example.com", verbPass, actLOTO, "")+","+voiding(stC, stB)+"]")
		if _, err := s.StoreXAPIStatements(ctx, store.XAPIWrite{OrgID: org.ID, LearnerID: org.Learner.ID, Authority: testAuthority, Version: xapi.V200,
			Statements: mustDecode(t, statementJSON(stD, "ann@example.com", verbPass, actWiring, reg1))}); err != nil {
			t.Fatal(err)
		}
		ann, _ := xapi.AgentKey(json.RawMessage(`{"mbox":"mailto:ann@example.com"}`))
		teacher, _ := xapi.AgentKey(json.RawMessage(`{"mbox":"mailto:teacher@example.com"}`))
		queries := []store.XAPIQuery{
			{OrgID: org.ID},
			{OrgID: org.ID, Agent: ann},
			{OrgID: org.ID, Agent: teacher, RelatedAgents: true},
			{OrgID: org.ID, Activity: actWiring},
			{OrgID: org.ID, Activity: "http://example.com/course", RelatedActivities: true},
			{OrgID: org.ID, Registration: reg1},
			{OrgID: org.ID, Verb: verbPass},
			{OrgID: org.ID, Agent: ann, Verb: verbPass},
			{OrgID: org.ID, Activity: actWiring, Verb: verbDid},
			{OrgID: org.ID, LearnerID: org.Learner.ID},
		}
		answers := func(s *store.Store) [][]string {
			t.Helper()
			var out [][]string
			for _, q := range queries {
				page, err := s.QueryXAPIStatements(ctx, q)
				if err != nil {
					t.Fatal(err)
				}
				out = append(out, statementIDs(t, page.Statements))
			}
			def, ok, err := s.XAPIActivity(ctx, org.ID, actWiring)
			if err != nil || !ok {
				t.Fatalf("activity definition: %v, %v", ok, err)
			}
			return append(out, []string{string(def)})
		}
		before := answers(s)
		// Every filter found something: an empty answer would hide a lost index.
		for i, ids := range before {
			if len(ids) == 0 {
				t.Fatalf("query %d found nothing before the round trip", i)
			}
		}
		s.Close()

		for _, step := range []func(*sql.DB) error{
			func(db *sql.DB) error { _, err := o.provider(t, db).DownTo(ctx, version-1); return err },
			func(db *sql.DB) error { _, err := o.provider(t, db).UpTo(ctx, version); return err },
		} {
			db, err := o.open(o.dsn)
			if err != nil {
				t.Fatal(err)
			}
			if err := step(db); err != nil {
				t.Fatal(err)
			}
			db.Close()
		}
		s, err = store.Open(ctx, o.dsn)
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		after := answers(s)
		for i := range before {
			if !slices.Equal(before[i], after[i]) {
				t.Errorf("answer %d: %v before %d → %d, %v after", i, before[i], version-1, version, after[i])
			}
		}
	})
}
