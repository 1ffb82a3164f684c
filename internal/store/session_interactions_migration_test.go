package store_test

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"reflect"
	"testing"
	"time"

	"journeyman/internal/store"
	"journeyman/internal/store/storetest"
	"journeyman/internal/training"
)

// oldRecord is a session as stored before migration 00008: its
// interactions inside interaction_data, as the store encoded it.
type oldRecord struct {
	id, status, data string
}

// oldInteractionData encodes data as the store did before 00008.
func oldInteractionData(t *testing.T, data training.InteractionData) string {
	t.Helper()
	b, err := json.Marshal(data)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// oldRecords are sessions of every shape the store wrote before 00008, and
// interaction_data the column's default or another writer left.
func oldRecords(t *testing.T) []oldRecord {
	at := storetest.FixedNow.Add(-time.Hour)
	seq := func(i int) *int { return &i }
	// Free fields of every JSON kind, text Go escapes, exact times.
	tricky := []training.Interaction{
		{Action: "grab", ObjectID: "lock", StepID: "apply-lock", Timestamp: at.Add(123456789), SessionTime: 1500, Seq: seq(0),
			ReceivedAt: at.Add(1*time.Second + 987654321), Extra: map[string]json.RawMessage{
				"note":  json.RawMessage(`"<b>&\u2028 é 😀 \"quoted\" \\ \n"`),
				"hand":  json.RawMessage(`{"x":0.1,"y":-2e-7,"big":1e+21,"deep":{"a":[]}}`),
				"list":  json.RawMessage(`[1,"a",null,true,{}]`),
				"input": json.RawMessage(`"ray"`),
			}},
		{Action: "look", Timestamp: at, SessionTime: 1600, ReceivedAt: at.Add(2 * time.Second)},
		{Action: "click", ObjectID: "panel", Timestamp: at, SessionTime: 1700, Seq: seq(2)},
	}
	var many []training.Interaction
	for i := range 300 {
		many = append(many, training.Interaction{Action: "look", ObjectID: fmt.Sprint("o", i), Timestamp: at, SessionTime: int64(10 * i),
			Seq: seq(i), ReceivedAt: at.Add(time.Duration(i) * time.Millisecond)})
	}
	checks := []training.SafetyCheckResult{{ID: "ppe-on", Status: training.CheckPassed}, {ID: "lock-applied", Status: training.CheckSkipped}}
	return []oldRecord{
		{"running", "in_progress", oldInteractionData(t, training.InteractionData{Interactions: tricky, SafetyChecks: checks[:1]})},
		{"ended", "completed", oldInteractionData(t, training.InteractionData{Interactions: many, SafetyChecks: checks, CompletionStatus: training.OutcomeFailed})},
		{"empty", "in_progress", oldInteractionData(t, training.InteractionData{Interactions: []training.Interaction{}, SafetyChecks: []training.SafetyCheckResult{}})},
		{"default", "in_progress", `{}`},
		{"no-interactions", "completed", `{"safetyChecks":[{"id":"x","status":"skipped"}],"completionStatus":"passed"}`},
		{"not-an-object", "completed", `[]`},
		{"not-json", "completed", `{"interactions":[{"action":`},
	}
}

// Migration 00008 moves every stored interaction into its own row, in
// order and byte for byte, counts them, and leaves the rest of the
// interaction data in place; the store reads the records back as before and
// appends after them. Down puts them back.
func TestMigrationMovesInteractionsIntoRows(t *testing.T) {
	eachOldDB(t, 7, func(t *testing.T, o oldDB, db *sql.DB) {
		ctx := context.Background()
		at := storetest.FixedNow.Add(-time.Hour)
		seedOldDB(t, db, at)
		records := oldRecords(t)
		for _, r := range records {
			if _, err := db.ExecContext(ctx, `INSERT INTO xr_sessions (id, user_id, module_id, session_type, started_at, completion_status, interaction_data, updated_at, server_started_at)
					VALUES ($1, 'alice', 'electrical-loto', 'vr', $2, $3, $4, $2, $2)`, r.id, at, r.status, r.data); err != nil {
				t.Fatal(err)
			}
		}
		db.Close()

		s, err := store.Open(ctx, o.dsn)
		if err != nil {
			t.Fatal(err)
		}
		s.Now = func() time.Time { return storetest.FixedNow }
		for _, r := range records {
			var old struct {
				Interactions []json.RawMessage            `json:"interactions"`
				SafetyChecks []training.SafetyCheckResult `json:"safetyChecks"`
				Status       string                       `json:"completionStatus"`
			}
			_ = json.Unmarshal([]byte(r.data), &old) // "not-an-object" and "not-json" have none of them
			rows := checkStored(t, s, r.id, len(old.Interactions))
			for i, raw := range old.Interactions {
				if rows[i].data != string(raw) {
					t.Fatalf("%s interaction %d moved as\n%s\nnot\n%s", r.id, i, rows[i].data, raw)
				}
			}
			var rest string
			if err := s.DB().QueryRowContext(ctx, `SELECT interaction_data FROM xr_sessions WHERE id = $1`, r.id).Scan(&rest); err != nil {
				t.Fatal(err)
			}
			if r.id == "not-an-object" || r.id == "not-json" {
				if rest != r.data {
					t.Fatalf("interaction_data %s became %s", r.data, rest)
				}
				continue
			}
			var keys map[string]json.RawMessage
			if err := json.Unmarshal([]byte(rest), &keys); err != nil || keys["interactions"] != nil {
				t.Fatalf("%s: interaction_data after 00008 = %s (%v)", r.id, rest, err)
			}
			x, err := s.GetSession(ctx, r.id)
			if err != nil {
				t.Fatal(err)
			}
			var want training.InteractionData
			if err := json.Unmarshal([]byte(r.data), &want); err != nil {
				t.Fatal(err)
			}
			if want.Interactions == nil {
				want.Interactions = []training.Interaction{}
			}
			if want.SafetyChecks == nil {
				want.SafetyChecks = []training.SafetyCheckResult{}
			}
			if !reflect.DeepEqual(x.InteractionData, want) {
				t.Fatalf("%s read back as %+v\nwant %+v", r.id, x.InteractionData, want)
			}
			if got, _ := json.Marshal(x.InteractionData); r.id != "default" && r.id != "no-interactions" && string(got) != r.data {
				t.Fatalf("%s encodes as\n%s\nnot\n%s", r.id, got, r.data)
			}
		}

		// The running session goes on from where it was, and its end
		// judges all its interactions.
		scene, _ := training.SceneByID("electrical-lockout-tagout")
		next := 3
		p := interactions(training.Interaction{Action: "look", SessionTime: 1800, Seq: &next})
		got, err := s.AppendSession(ctx, "running", nil, func(x *training.Session) error {
			return x.Apply("alice", p, scene, storetest.FixedNow)
		})
		if err != nil || got.Earlier.Count != 3 || len(got.InteractionData.Interactions) != 1 {
			t.Fatalf("append after 00008: %+v, %v", got, err)
		}
		ended, err := s.UpdateSession(ctx, "running", nil, func(x *training.Session) error {
			return x.Apply("alice", endPatch(storetest.FixedNow), scene, storetest.FixedNow)
		})
		if err != nil || len(ended.InteractionData.Interactions) != 4 || ended.InteractionData.Interactions[0].Extra["input"] == nil {
			t.Fatalf("end after 00008: %+v, %v", ended, err)
		}
		checkStored(t, s, "running", 4)
		s.Close()

		// Down puts every interaction back into interaction_data, in order.
		db, err = o.open(o.dsn)
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		if _, err := o.provider(t, db).DownTo(ctx, 7); err != nil {
			t.Fatal(err)
		}
		for _, r := range records {
			var data string
			if err := db.QueryRowContext(ctx, `SELECT interaction_data FROM xr_sessions WHERE id = $1`, r.id).Scan(&data); err != nil {
				t.Fatal(err)
			}
			var got, want training.InteractionData
			if err := json.Unmarshal([]byte(data), &got); err != nil && r.id != "not-an-object" && r.id != "not-json" {
				t.Fatalf("%s after down: %s: %v", r.id, data, err)
			}
			_ = json.Unmarshal([]byte(r.data), &want)
			if r.id == "running" {
				want.Interactions = ended.InteractionData.Interactions
				want.SafetyChecks, want.CompletionStatus = ended.InteractionData.SafetyChecks, ended.InteractionData.CompletionStatus
			}
			if len(want.Interactions) == 0 && len(got.Interactions) == 0 {
				continue
			}
			// Down need not keep the text (PostgreSQL's jsonb rewrites
			// numbers and spacing), only the values.
			if !reflect.DeepEqual(generic(t, got.Interactions), generic(t, want.Interactions)) {
				t.Fatalf("%s after down: %d interactions\n%+v\nwant %d\n%+v", r.id, len(got.Interactions), got.Interactions, len(want.Interactions), want.Interactions)
			}
		}
	})
}

// generic is v as plain JSON values, for comparing values whatever their text.
func generic(t *testing.T, v any) any {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var out any
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	return out
}
