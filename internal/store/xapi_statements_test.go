package store_test

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"journeyman/internal/apperr"
	"journeyman/internal/store"
	"journeyman/internal/store/storetest"
	"journeyman/internal/xapi"
)

var testAuthority = json.RawMessage(`{"objectType":"Agent","account":{"homePage":"http://lrs.example","name":"tool"}}`)

// statementJSON is a valid statement by actor (an e-mail) doing verb to
// activity, with an optional registration and extra top-level properties.
func statementJSON(id, actor, verb, activity, registration string) string {
	ctx := ""
	if registration != "" {
		ctx = fmt.Sprintf(`,"context":{"registration":%q,"contextActivities":{"parent":[{"id":"http://example.com/course"}]},"instructor":{"mbox":"mailto:teacher@example.com"}}`, registration)
	}
	idPart := ""
	if id != "" {
		idPart = fmt.Sprintf(`"id":%q,`, id)
	}
	return fmt.Sprintf(`{%s"actor":{"mbox":"mailto:%s"},"verb":{"id":%q,"display":{"en-US":"did"}},"object":{"id":%q,"definition":{"name":{"en-US":"Thing"}}}%s}`,
		idPart, actor, verb, activity, ctx)
}

func mustDecode(t *testing.T, body string) []xapi.Incoming {
	t.Helper()
	ins, err := xapi.Decode([]byte(body), xapi.V200)
	if err != nil {
		t.Fatalf("decode %s: %v", body, err)
	}
	return ins
}

func mustStore(t *testing.T, s *store.Store, org string, body string) []string {
	t.Helper()
	ids, err := s.StoreXAPIStatements(context.Background(), store.XAPIWrite{OrgID: org, Authority: testAuthority, Version: xapi.V200, Statements: mustDecode(t, body)})
	if err != nil {
		t.Fatalf("store %s: %v", body, err)
	}
	return ids
}

func statementIDs(t *testing.T, bodies []json.RawMessage) []string {
	t.Helper()
	ids := make([]string, len(bodies))
	for i, b := range bodies {
		var st struct{ ID string }
		if err := json.Unmarshal(b, &st); err != nil {
			t.Fatal(err)
		}
		ids[i] = st.ID
	}
	return ids
}

const (
	stA  = "00000000-0000-4000-8000-00000000000a"
	stB  = "00000000-0000-4000-8000-00000000000b"
	stC  = "00000000-0000-4000-8000-00000000000c"
	stD  = "00000000-0000-4000-8000-00000000000d"
	reg1 = "11111111-1111-4111-8111-111111111111"

	verbDid   = "http://adlnet.gov/expapi/verbs/experienced"
	verbPass  = "http://adlnet.gov/expapi/verbs/passed"
	actWiring = "http://example.com/activities/wiring"
	actLOTO   = "http://example.com/activities/loto"
)

func TestXAPIStatementQueries(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		a := mustOrg(t, s, "Org A", "a")
		b := mustOrg(t, s, "Org B", "b")
		start := s.Now()
		mustStore(t, s, a.ID, "["+statementJSON(stA, "ann@example.com", verbDid, actWiring, reg1)+","+
			statementJSON(stB, "bob@example.com", verbPass, actLOTO, "")+"]")
		at(t, s, time.Second)
		mustStore(t, s, a.ID, statementJSON(stC, "ann@example.com", verbPass, actLOTO, ""))
		// Org B's statement shares an id: ids are unique per organisation.
		mustStore(t, s, b.ID, statementJSON(stA, "ann@example.com", verbDid, actWiring, ""))

		ann, _ := xapi.AgentKey(json.RawMessage(`{"mbox":"mailto:ann@example.com"}`))
		teacher, _ := xapi.AgentKey(json.RawMessage(`{"mbox":"mailto:teacher@example.com"}`))
		tests := []struct {
			name string
			q    store.XAPIQuery
			want []string
		}{
			{"All", store.XAPIQuery{OrgID: a.ID}, []string{stC, stB, stA}},
			{"Ascending", store.XAPIQuery{OrgID: a.ID, Ascending: true}, []string{stA, stB, stC}},
			{"OtherOrganisation", store.XAPIQuery{OrgID: b.ID}, []string{stA}},
			{"NoOrganisation", store.XAPIQuery{OrgID: ""}, nil},
			{"Verb", store.XAPIQuery{OrgID: a.ID, Verb: verbPass}, []string{stC, stB}},
			{"Agent", store.XAPIQuery{OrgID: a.ID, Agent: ann}, []string{stC, stA}},
			{"AgentOnlyRelated", store.XAPIQuery{OrgID: a.ID, Agent: teacher}, nil},
			{"RelatedAgents", store.XAPIQuery{OrgID: a.ID, Agent: teacher, RelatedAgents: true}, []string{stA}},
			{"Activity", store.XAPIQuery{OrgID: a.ID, Activity: actLOTO}, []string{stC, stB}},
			{"ActivityOnlyInContext", store.XAPIQuery{OrgID: a.ID, Activity: "http://example.com/course"}, nil},
			{"RelatedActivities", store.XAPIQuery{OrgID: a.ID, Activity: "http://example.com/course", RelatedActivities: true}, []string{stA}},
			{"AgentAndActivity", store.XAPIQuery{OrgID: a.ID, Agent: ann, Activity: actLOTO}, []string{stC}},
			{"AgentAndVerb", store.XAPIQuery{OrgID: a.ID, Agent: ann, Verb: verbDid}, []string{stA}},
			{"AgentAndOtherVerb", store.XAPIQuery{OrgID: a.ID, Agent: ann, Verb: verbPass}, []string{stC}},
			{"RelatedAgentsAndVerb", store.XAPIQuery{OrgID: a.ID, Agent: teacher, RelatedAgents: true, Verb: verbPass}, nil},
			{"ActivityAndVerb", store.XAPIQuery{OrgID: a.ID, Activity: actLOTO, Verb: verbPass}, []string{stC, stB}},
			{"ActivityAndOtherVerb", store.XAPIQuery{OrgID: a.ID, Activity: actWiring, Verb: verbPass}, nil},
			{"Registration", store.XAPIQuery{OrgID: a.ID, Registration: reg1}, []string{stA}},
			{"Since", store.XAPIQuery{OrgID: a.ID, Since: start.Add(500 * time.Millisecond)}, []string{stC}},
			{"Until", store.XAPIQuery{OrgID: a.ID, Until: start.Add(500 * time.Millisecond)}, []string{stB, stA}},
			{"LearnerSeesOnlyTheirs", store.XAPIQuery{OrgID: a.ID, LearnerID: a.Learner.ID}, nil},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				page, err := s.QueryXAPIStatements(ctx, tt.q)
				if err != nil {
					t.Fatal(err)
				}
				if got := statementIDs(t, page.Statements); !slices.Equal(got, tt.want) {
					t.Errorf("got %v, want %v", got, tt.want)
				}
				if page.Next != 0 {
					t.Errorf("Next = %d on the only page", page.Next)
				}
			})
		}

		t.Run("Pages", func(t *testing.T) {
			var got []string
			q := store.XAPIQuery{OrgID: a.ID, Limit: 2}
			for pages := 0; ; pages++ {
				page, err := s.QueryXAPIStatements(ctx, q)
				if err != nil {
					t.Fatal(err)
				}
				got = append(got, statementIDs(t, page.Statements)...)
				if page.Next == 0 {
					if pages != 1 {
						t.Errorf("%d pages, want 2", pages+1)
					}
					break
				}
				q.After = page.Next
			}
			if want := []string{stC, stB, stA}; !slices.Equal(got, want) {
				t.Errorf("got %v, want %v", got, want)
			}
		})

		t.Run("StoredAndAuthoritySetByTheLRS", func(t *testing.T) {
			body, err := s.GetXAPIStatement(ctx, a.ID, "", stC, false)
			if err != nil {
				t.Fatal(err)
			}
			var st struct {
				Stored    time.Time
				Authority json.RawMessage
			}
			if err := json.Unmarshal(body, &st); err != nil {
				t.Fatal(err)
			}
			if want := start.Add(time.Second).Truncate(time.Millisecond); !st.Stored.Equal(want) {
				t.Errorf("stored %v, want %v", st.Stored, want)
			}
			if !xapi.Equivalent(st.Authority, testAuthority) && string(st.Authority) != string(testAuthority) {
				t.Errorf("authority %s", st.Authority)
			}
			through, err := s.XAPIConsistentThrough(ctx, a.ID)
			if err != nil || !through.Equal(st.Stored) {
				t.Errorf("consistent through %v, %v; want %v", through, err, st.Stored)
			}
		})
		t.Run("ErrOtherOrganisationsStatement", func(t *testing.T) {
			_, err := s.GetXAPIStatement(ctx, b.ID, "", stC, false)
			wantCode(t, "get", err, apperr.ENOTFOUND)
		})
	})
}

func TestXAPIStatementImmutability(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		a := mustOrg(t, s, "Org A", "a")
		mustStore(t, s, a.ID, statementJSON(stA, "ann@example.com", verbDid, actWiring, ""))

		t.Run("SameStatementAgain", func(t *testing.T) {
			at(t, s, time.Minute) // a later stored time does not make it different
			ids := mustStore(t, s, a.ID, statementJSON(stA, "ann@example.com", verbDid, actWiring, ""))
			if !slices.Equal(ids, []string{stA}) {
				t.Errorf("ids %v", ids)
			}
			if n := count(t, s, `SELECT COUNT(*) FROM xapi_statements`); n != 1 {
				t.Errorf("%d rows, want 1", n)
			}
		})
		t.Run("ErrDifferentContent", func(t *testing.T) {
			_, err := s.StoreXAPIStatements(ctx, store.XAPIWrite{OrgID: a.ID, Authority: testAuthority, Version: xapi.V200,
				Statements: mustDecode(t, "["+statementJSON(stB, "bob@example.com", verbDid, actWiring, "")+","+
					statementJSON(stA, "ann@example.com", verbPass, actWiring, "")+"]")})
			wantCode(t, "store", err, apperr.ECONFLICT)
			// All or nothing: the batch's new statement was not kept.
			if n := count(t, s, `SELECT COUNT(*) FROM xapi_statements`); n != 1 {
				t.Errorf("%d rows, want 1", n)
			}
		})
		t.Run("ErrSameIDTwiceInABatch", func(t *testing.T) {
			_, err := s.StoreXAPIStatements(ctx, store.XAPIWrite{OrgID: a.ID, Authority: testAuthority, Version: xapi.V200,
				Statements: append(mustDecode(t, statementJSON(stC, "bob@example.com", verbDid, actWiring, "")),
					mustDecode(t, statementJSON(stC, "bob@example.com", verbPass, actWiring, ""))...)})
			wantCode(t, "store", err, apperr.EINVALID)
		})
		t.Run("IDsAssigned", func(t *testing.T) {
			ids := mustStore(t, s, a.ID, "["+statementJSON("", "bob@example.com", verbDid, actWiring, "")+","+
				statementJSON("", "bob@example.com", verbDid, actWiring, "")+"]")
			if len(ids) != 2 || ids[0] == ids[1] || !xapi.IsUUID(ids[0]) {
				t.Errorf("ids %v", ids)
			}
		})
	})
}

// TestPostgresXAPIWriteGroups queues an organisation's LRS writes behind a
// held turn and checks that they commit as one transaction, that one
// refused in the middle leaves nothing behind and costs the others
// nothing, and that another organisation's writes do not wait.
func TestPostgresXAPIWriteGroups(t *testing.T) {
	s := storetest.OpenPostgres(t)
	ctx := context.Background()
	a := mustOrg(t, s, "Org A", "a")
	b := mustOrg(t, s, "Org B", "b")
	mustStore(t, s, a.ID, statementJSON(stA, "ann@example.com", verbDid, actWiring, ""))

	write := func(org string, statements []xapi.Incoming) error {
		_, err := s.StoreXAPIStatements(ctx, store.XAPIWrite{OrgID: org, Authority: testAuthority, Version: xapi.V200, Statements: statements})
		return err
	}
	// Decoded here: a test may only fail from its own goroutine.
	batches := [][]xapi.Incoming{
		mustDecode(t, statementJSON(stB, "bob@example.com", verbDid, actWiring, "")),
		// stA is stored with another verb: refused, and stC with it.
		mustDecode(t, "["+statementJSON(stC, "cat@example.com", verbDid, actLOTO, "")+","+statementJSON(stA, "ann@example.com", verbPass, actWiring, "")+"]"),
		mustDecode(t, statementJSON(stD, "dan@example.com", verbPass, actLOTO, "")),
	}
	errs := make([]error, len(batches))
	var wg sync.WaitGroup
	err := store.HoldXAPIWrites(ctx, s, a.ID, func() {
		for i, batch := range batches {
			wg.Add(1)
			go func() { defer wg.Done(); errs[i] = write(a.ID, batch) }()
			// Queued one by one, in a known order.
			for deadline := time.Now().Add(5 * time.Second); store.QueuedXAPIWrites(s, a.ID) < i+1; time.Sleep(time.Millisecond) {
				if time.Now().After(deadline) {
					t.Fatalf("write %d did not wait for the held turn", i)
				}
			}
		}
		if err := write(b.ID, mustDecode(t, statementJSON(stA, "ann@example.com", verbPass, actWiring, ""))); err != nil {
			t.Errorf("another organisation's write while org A's wait: %v", err)
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	wg.Wait()
	if errs[0] != nil || errs[2] != nil {
		t.Fatalf("the accepted writes failed: %v, %v", errs[0], errs[2])
	}
	wantCode(t, "the conflicting write", errs[1], apperr.ECONFLICT)

	page, err := s.QueryXAPIStatements(ctx, store.XAPIQuery{OrgID: a.ID, Ascending: true})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := statementIDs(t, page.Statements), []string{stA, stB, stD}; !slices.Equal(got, want) {
		t.Errorf("stored %v, want %v", got, want)
	}
	if n := count(t, s, `SELECT COUNT(DISTINCT xmin::text) FROM xapi_statements WHERE id IN ('`+stB+`', '`+stD+`')`); n != 1 {
		t.Errorf("the group's writes were committed in %d transactions, want 1", n)
	}
}

func voiding(id, target string) string {
	return fmt.Sprintf(`{"id":%q,"actor":{"mbox":"mailto:admin@example.com"},"verb":{"id":%q,"display":{"en-US":"voided"}},"object":{"objectType":"StatementRef","id":%q}}`,
		id, xapi.VoidedVerb, target)
}

func TestXAPIVoidingAndStatementRefs(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		a := mustOrg(t, s, "Org A", "a")
		mustStore(t, s, a.ID, statementJSON(stA, "ann@example.com", verbDid, actWiring, ""))
		mustStore(t, s, a.ID, voiding(stB, stA))

		t.Run("VoidedLeftOutOfQueries", func(t *testing.T) {
			page, err := s.QueryXAPIStatements(ctx, store.XAPIQuery{OrgID: a.ID})
			if err != nil {
				t.Fatal(err)
			}
			if got := statementIDs(t, page.Statements); !slices.Equal(got, []string{stB}) {
				t.Errorf("got %v, want the voiding statement only", got)
			}
		})
		t.Run("VoidedReadByVoidedStatementID", func(t *testing.T) {
			if _, err := s.GetXAPIStatement(ctx, a.ID, "", stA, true); err != nil {
				t.Error(err)
			}
			_, err := s.GetXAPIStatement(ctx, a.ID, "", stA, false)
			wantCode(t, "get voided by statementId", err, apperr.ENOTFOUND)
			_, err = s.GetXAPIStatement(ctx, a.ID, "", stB, true)
			wantCode(t, "get a live statement by voidedStatementId", err, apperr.ENOTFOUND)
		})
		t.Run("ErrVoidingAVoidingStatement", func(t *testing.T) {
			_, err := s.StoreXAPIStatements(ctx, store.XAPIWrite{OrgID: a.ID, Authority: testAuthority, Version: xapi.V200, Statements: mustDecode(t, voiding(stC, stB))})
			wantCode(t, "void", err, apperr.EINVALID)
		})
		t.Run("TargetArrivingAfterItsVoiding", func(t *testing.T) {
			mustStore(t, s, a.ID, voiding(stC, stD))
			mustStore(t, s, a.ID, statementJSON(stD, "ann@example.com", verbDid, actLOTO, ""))
			if _, err := s.GetXAPIStatement(ctx, a.ID, "", stD, true); err != nil {
				t.Errorf("the late target is not voided: %v", err)
			}
		})
		t.Run("StatementRefMatchesItsTargetsFilters", func(t *testing.T) {
			const live, ref = "00000000-0000-4000-8000-0000000000e1", "00000000-0000-4000-8000-0000000000e2"
			mustStore(t, s, a.ID, statementJSON(live, "cat@example.com", verbDid, actWiring, ""))
			mustStore(t, s, a.ID, fmt.Sprintf(`{"id":%q,"actor":{"mbox":"mailto:dan@example.com"},"verb":{"id":%q},"object":{"objectType":"StatementRef","id":%q}}`, ref, verbPass, live))
			cat, _ := xapi.AgentKey(json.RawMessage(`{"mbox":"mailto:cat@example.com"}`))
			page, err := s.QueryXAPIStatements(ctx, store.XAPIQuery{OrgID: a.ID, Agent: cat})
			if err != nil {
				t.Fatal(err)
			}
			if got := statementIDs(t, page.Statements); !slices.Equal(got, []string{ref, live}) {
				t.Errorf("got %v, want the StatementRef and its target", got)
			}
		})
	})
}

func TestXAPIAttachmentsKept(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		a := mustOrg(t, s, "Org A", "a")
		const sha = "495395e777cd98da653df9615d09c0fd6bb2f8d4788394cd53c56a3bfdcd848a"
		body := fmt.Sprintf(`{"id":%q,"actor":{"mbox":"mailto:ann@example.com"},"verb":{"id":%q},"object":{"id":%q},
			"attachments":[{"usageType":"http://example.com/usage","display":{"en-US":"notes"},"contentType":"text/plain","length":27,"sha2":%q}]}`,
			stA, verbDid, actWiring, sha)
		parts := map[string]xapi.Part{sha: {ContentType: "text/plain", Content: []byte("here is a simple attachment")}}
		if _, err := s.StoreXAPIStatements(ctx, store.XAPIWrite{OrgID: a.ID, Authority: testAuthority, Version: xapi.V200, Statements: mustDecode(t, body), Parts: parts}); err != nil {
			t.Fatal(err)
		}
		got, err := s.XAPIAttachments(ctx, a.ID, []string{sha})
		if err != nil {
			t.Fatal(err)
		}
		if string(got[sha].Content) != "here is a simple attachment" || got[sha].ContentType != "text/plain" {
			t.Errorf("got %+v", got)
		}
		if other, _ := s.XAPIAttachments(ctx, "someone-else", []string{sha}); len(other) != 0 {
			t.Errorf("another organisation reads the attachment")
		}
	})
}
