package store_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"journeyman/internal/apperr"
	"journeyman/internal/cmi5"
	"journeyman/internal/store"
	"journeyman/internal/store/storetest"
	"journeyman/internal/xapi"
)

const cmi5Base = "https://journeyman.example"

// cmi5TestCourse has two AUs in a block and one outside: moveOn Passed
// (mastery 0.8), Completed, and NotApplicable.
func cmi5TestCourse() cmi5.Course {
	score := 0.8
	return cmi5.Course{ID: "https://example.com/course", Title: cmi5.LangString{"en-US": "Course"},
		Blocks: []cmi5.Block{{ID: "https://example.com/block", Title: cmi5.LangString{"en-US": "Block"}}},
		AUs: []cmi5.AU{
			{ID: "https://example.com/au/1", Title: cmi5.LangString{"en-US": "One"}, URL: "index.html", LaunchMethod: cmi5.LaunchAnyWindow,
				MoveOn: cmi5.MoveOnPassed, MasteryScore: &score, LaunchParameters: "p=1", EntitlementKey: "ek", Blocks: []string{"https://example.com/block"}},
			{ID: "https://example.com/au/2", Title: cmi5.LangString{"en-US": "Two"}, URL: "two.html", LaunchMethod: cmi5.LaunchOwnWindow,
				MoveOn: cmi5.MoveOnCompleted, Blocks: []string{"https://example.com/block"}},
			{ID: "https://example.com/au/3", Title: cmi5.LangString{"en-US": "Three"}, URL: "https://cdn.example.com/3.html", LaunchMethod: cmi5.LaunchAnyWindow,
				MoveOn: cmi5.MoveOnNotApplicable},
		}}
}

func learnerActor(id string) json.RawMessage {
	b, _ := json.Marshal(map[string]any{"objectType": "Agent", "name": "L", "account": map[string]string{"homePage": cmi5Base, "name": id}})
	return b
}

func TestCmi5Courses(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		a := mustOrg(t, s, "Org A", "a")
		b := mustOrg(t, s, "Org B", "b")
		c, err := s.CreateCmi5Course(ctx, a.ID, a.Instructor.ID, cmi5TestCourse(), map[string][]byte{"index.html": []byte("<p>1</p>"), "two.html": []byte("2")})
		if err != nil {
			t.Fatal(err)
		}
		if c.Title != "Course" || !c.HasContent || len(c.AUs) != 3 || c.AUs[1].LaunchMethod != cmi5.LaunchOwnWindow {
			t.Fatalf("course = %+v", c)
		}
		t.Run("List", func(t *testing.T) {
			list, err := s.ListCmi5Courses(ctx, a.ID)
			if err != nil || len(list) != 1 || list[0].ID != c.ID || len(list[0].AUs) != 3 || list[0].AUs[0].ID != c.AUs[0].ID ||
				list[0].AUs[0].MasteryScore == nil || *list[0].AUs[0].MasteryScore != 0.8 || list[0].AUs[2].Title != "Three" {
				t.Fatalf("list = %+v, %v", list, err)
			}
			other, err := s.ListCmi5Courses(ctx, b.ID)
			if err != nil || len(other) != 0 {
				t.Fatalf("another organisation lists %+v, %v", other, err)
			}
		})
		t.Run("File", func(t *testing.T) {
			body, err := s.Cmi5File(ctx, c.ID, "index.html")
			if err != nil || string(body) != "<p>1</p>" {
				t.Fatalf("file = %q, %v", body, err)
			}
			if _, err := s.Cmi5File(ctx, c.ID, "missing.html"); apperr.Code(err) != apperr.ENOTFOUND {
				t.Fatalf("missing file: %v", err)
			}
		})
		t.Run("ManyAUs", func(t *testing.T) {
			big := cmi5TestCourse()
			big.AUs = nil
			for i := range 1001 {
				big.AUs = append(big.AUs, cmi5.AU{ID: fmt.Sprintf("https://example.com/au/%d", i), Title: cmi5.LangString{"en-US": "AU"},
					URL: "https://cdn.example.com/au.html", LaunchMethod: cmi5.LaunchAnyWindow, MoveOn: cmi5.MoveOnCompleted})
			}
			d, err := s.CreateCmi5Course(ctx, b.ID, b.Instructor.ID, big, nil)
			if err != nil {
				t.Fatal(err)
			}
			list, err := s.ListCmi5Courses(ctx, b.ID)
			if err != nil || len(list) != 1 || len(list[0].AUs) != 1001 || list[0].AUs[1000].PublisherID != "https://example.com/au/1000" {
				t.Fatalf("list: %v", err)
			}
			if err := s.DeleteCmi5Course(ctx, b.ID, d.ID); err != nil {
				t.Fatal(err)
			}
		})
		t.Run("DeleteOtherOrg", func(t *testing.T) {
			if err := s.DeleteCmi5Course(ctx, b.ID, c.ID); apperr.Code(err) != apperr.ENOTFOUND {
				t.Fatalf("delete by another organisation: %v", err)
			}
		})
		t.Run("Delete", func(t *testing.T) {
			d, err := s.CreateCmi5Course(ctx, a.ID, a.Instructor.ID, cmi5TestCourse(), map[string][]byte{"index.html": []byte("x"), "two.html": []byte("2")})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := s.LaunchCmi5(ctx, store.Cmi5Launch{OrgID: a.ID, LearnerID: a.Learner.ID, Actor: learnerActor(a.Learner.ID), AUID: d.AUs[0].ID, Base: cmi5Base}); err != nil {
				t.Fatal(err)
			}
			if err := s.DeleteCmi5Course(ctx, a.ID, d.ID); err != nil {
				t.Fatal(err)
			}
			if _, err := s.Cmi5File(ctx, d.ID, "index.html"); apperr.Code(err) != apperr.ENOTFOUND {
				t.Fatalf("a deleted course's file: %v", err)
			}
			if n := count(t, s, `SELECT COUNT(*) FROM cmi5_sessions s JOIN cmi5_aus a ON a.id = s.au_id WHERE a.course_id = $1`, d.ID); n != 0 {
				t.Fatalf("%d sessions outlive their course", n)
			}
		})
	})
}

func TestCmi5Launch(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		a := mustOrg(t, s, "Org A", "a")
		b := mustOrg(t, s, "Org B", "b")
		c, err := s.CreateCmi5Course(ctx, a.ID, a.Instructor.ID, cmi5TestCourse(), map[string][]byte{"index.html": []byte("x"), "two.html": []byte("2")})
		if err != nil {
			t.Fatal(err)
		}
		actor := learnerActor(a.Learner.ID)
		launch := func(t *testing.T, auID string) store.Cmi5Launched {
			t.Helper()
			l, err := s.LaunchCmi5(ctx, store.Cmi5Launch{OrgID: a.ID, LearnerID: a.Learner.ID, Actor: actor, AUID: auID, Base: cmi5Base, ReturnURL: cmi5Base + "/cmi5"})
			if err != nil {
				t.Fatal(err)
			}
			return l
		}
		first := launch(t, c.AUs[0].ID)
		t.Run("Launched", func(t *testing.T) {
			if !xapi.IsUUID(first.Registration) || !xapi.IsUUID(first.SessionID) || first.FetchToken == "" ||
				first.ActivityID != store.Cmi5ActivityID(cmi5Base, c.AUs[0].ID) || first.LaunchURL != cmi5Base+"/cmi5/content/"+c.ID+"/index.html" {
				t.Fatalf("launched = %+v", first)
			}
			// A new registration satisfies nothing yet: AU 3 needs nothing,
			// but the course also needs AUs 1 and 2.
			rs := readRecords(t, s, store.XAPIQuery{OrgID: a.ID, Registration: first.Registration})
			if got := verbsOf(rs); !slices.Equal(got, []string{cmi5.VerbLaunched}) {
				t.Fatalf("verbs = %v", got)
			}
			var st struct {
				Object  struct{ ID string }
				Context struct {
					ContextActivities struct{ Category, Grouping []struct{ ID string } }
					Extensions        map[string]any
				}
			}
			page, _ := s.QueryXAPIStatements(ctx, store.XAPIQuery{OrgID: a.ID, Registration: first.Registration})
			mustUnmarshal(t, page.Statements[0], &st)
			ext := st.Context.Extensions
			if st.Object.ID != first.ActivityID || st.Context.ContextActivities.Category[0].ID != cmi5.CategoryCmi5 ||
				st.Context.ContextActivities.Grouping[0].ID != "https://example.com/au/1" || ext[cmi5.ExtSessionID] != first.SessionID ||
				ext[cmi5.ExtLaunchMode] != "Normal" || ext[cmi5.ExtLaunchURL] != first.LaunchURL || ext[cmi5.ExtMoveOn] != "Passed" ||
				ext[cmi5.ExtLaunchParameters] != "p=1" || ext[cmi5.ExtMasteryScore] != 0.8 {
				t.Fatalf("launched statement = %s", page.Statements[0])
			}
			// The learner reads it as their own.
			if own := readRecords(t, s, store.XAPIQuery{OrgID: a.ID, LearnerID: a.Learner.ID, Registration: first.Registration}); len(own) != 1 {
				t.Fatalf("the learner reads %d of their statements", len(own))
			}
		})
		t.Run("LaunchData", func(t *testing.T) {
			key, _ := xapi.AgentKey(actor)
			d, err := s.GetXAPIDocument(ctx, a.ID, store.XAPIDocKey{Kind: store.XAPIState, ActivityID: first.ActivityID, AgentKey: key,
				Registration: first.Registration, ID: "LMS.LaunchData"})
			if err != nil {
				t.Fatal(err)
			}
			var ld struct {
				ContextTemplate struct {
					ContextActivities struct{ Grouping []struct{ ID string } }
					Extensions        map[string]string
				}
				LaunchMode, MoveOn, LaunchParameters, ReturnURL string
				MasteryScore                                    float64
				EntitlementKey                                  struct{ CourseStructure string }
			}
			if err := json.Unmarshal(d.Content, &ld); err != nil || d.ContentType != "application/json" {
				t.Fatal(err, d.ContentType)
			}
			if ld.LaunchMode != "Normal" || ld.MoveOn != "Passed" || ld.LaunchParameters != "p=1" || ld.MasteryScore != 0.8 ||
				ld.ReturnURL != cmi5Base+"/cmi5" || ld.EntitlementKey.CourseStructure != "ek" ||
				ld.ContextTemplate.Extensions[cmi5.ExtSessionID] != first.SessionID || ld.ContextTemplate.ContextActivities.Grouping[0].ID != "https://example.com/au/1" {
				t.Fatalf("launch data = %s", d.Content)
			}
		})
		t.Run("ErrNotFound", func(t *testing.T) {
			_, err := s.LaunchCmi5(ctx, store.Cmi5Launch{OrgID: b.ID, LearnerID: b.Learner.ID, Actor: learnerActor(b.Learner.ID), AUID: c.AUs[0].ID, Base: cmi5Base})
			if apperr.Code(err) != apperr.ENOTFOUND {
				t.Fatalf("another organisation's AU: %v", err)
			}
		})

		var key, secret string
		t.Run("Fetch", func(t *testing.T) {
			key, secret, err = s.FetchCmi5(ctx, first.FetchToken)
			if err != nil || len(key) < 10 || secret == "" {
				t.Fatalf("fetch = %q %q %v", key, secret, err)
			}
			var fe *store.Cmi5FetchError
			if _, _, err := s.FetchCmi5(ctx, first.FetchToken); !errors.As(err, &fe) || fe.Code != "1" {
				t.Fatalf("second fetch: %v", err)
			}
			if _, _, err := s.FetchCmi5(ctx, "nonsense"); !errors.As(err, &fe) || fe.Code != "2" {
				t.Fatalf("unknown token: %v", err)
			}
			cred, err := s.CheckCmi5Credential(ctx, cmi5Base, key, secret)
			if err != nil || cred.SessionID != first.SessionID || cred.Registration != first.Registration || cred.LearnerID != a.Learner.ID ||
				cred.OrgID != a.ID || cred.ActivityID != first.ActivityID {
				t.Fatalf("check = %+v, %v", cred, err)
			}
			if _, err := s.CheckCmi5Credential(ctx, cmi5Base, key, secret+"x"); apperr.Code(err) != apperr.EUNAUTHORIZED {
				t.Fatalf("wrong secret: %v", err)
			}
		})
		t.Run("FetchExpired", func(t *testing.T) {
			l := launch(t, c.AUs[2].ID) // abandons the first session
			defer func() { s.Now = func() time.Time { return storetest.FixedNow } }()
			s.Now = func() time.Time { return storetest.FixedNow.Add(store.Cmi5FetchTTL) }
			var fe *store.Cmi5FetchError
			if _, _, err := s.FetchCmi5(ctx, l.FetchToken); !errors.As(err, &fe) || fe.Code != "1" {
				t.Fatalf("expired token: %v", err)
			}
		})
		t.Run("Abandoned", func(t *testing.T) {
			if _, err := s.CheckCmi5Credential(ctx, cmi5Base, key, secret); apperr.Code(err) != apperr.EUNAUTHORIZED {
				t.Fatalf("an abandoned session's credential still works: %v", err)
			}
			rs := readRecords(t, s, store.XAPIQuery{OrgID: a.ID, Registration: first.Registration, Verb: cmi5.VerbAbandoned})
			if len(rs) != 1 || rs[0].Object.ID != first.ActivityID || rs[0].Result.Duration == "" {
				t.Fatalf("abandoned = %+v", rs)
			}
		})
		t.Run("MoveOnSatisfies", func(t *testing.T) {
			l1 := launch(t, c.AUs[0].ID)
			k, sec, err := s.FetchCmi5(ctx, l1.FetchToken)
			if err != nil {
				t.Fatal(err)
			}
			cred, err := s.CheckCmi5Credential(ctx, cmi5Base, k, sec)
			if err != nil {
				t.Fatal(err)
			}
			// Completed does not meet Passed.
			if err := s.RecordCmi5(ctx, cmi5Base, cred, []string{cmi5.VerbCompleted}); err != nil {
				t.Fatal(err)
			}
			if n := len(readRecords(t, s, store.XAPIQuery{OrgID: a.ID, Registration: l1.Registration, Verb: cmi5.VerbSatisfied})); n != 0 {
				t.Fatalf("%d satisfied statements before any moveOn is met", n)
			}
			if err := s.RecordCmi5(ctx, cmi5Base, cred, []string{cmi5.VerbPassed, cmi5.VerbTerminated}); err != nil {
				t.Fatal(err)
			}
			// AU 2 (Completed) is still missing: nothing satisfied yet.
			if n := len(readRecords(t, s, store.XAPIQuery{OrgID: a.ID, Registration: l1.Registration, Verb: cmi5.VerbSatisfied})); n != 0 {
				t.Fatalf("%d satisfied statements with AU 2 pending", n)
			}
			// Terminated ends the session: after the grace period its
			// credential stops, and no abandoned statement follows.
			s.Now = func() time.Time { return storetest.FixedNow.Add(time.Minute) }
			defer func() { s.Now = func() time.Time { return storetest.FixedNow } }()
			if _, err := s.CheckCmi5Credential(ctx, cmi5Base, k, sec); apperr.Code(err) != apperr.EUNAUTHORIZED {
				t.Fatalf("a terminated session's credential still works: %v", err)
			}
			l2 := launch(t, c.AUs[1].ID)
			if n := len(readRecords(t, s, store.XAPIQuery{OrgID: a.ID, Registration: l1.Registration, Verb: cmi5.VerbAbandoned})); n != 2 {
				// The first session and FetchExpired's, never the terminated one.
				t.Fatalf("%d abandoned statements; want 2", n)
			}
			k2, sec2, _ := s.FetchCmi5(ctx, l2.FetchToken)
			cred2, err := s.CheckCmi5Credential(ctx, cmi5Base, k2, sec2)
			if err != nil {
				t.Fatal(err)
			}
			if err := s.RecordCmi5(ctx, cmi5Base, cred2, []string{cmi5.VerbCompleted}); err != nil {
				t.Fatal(err)
			}
			rs := readRecords(t, s, store.XAPIQuery{OrgID: a.ID, Registration: l1.Registration, Verb: cmi5.VerbSatisfied})
			var objects []string
			for _, r := range rs {
				objects = append(objects, r.Object.ID)
			}
			if !slices.Equal(objects, []string{"https://example.com/block", "https://example.com/course"}) {
				t.Fatalf("satisfied = %v", objects)
			}
			// Once per registration.
			if err := s.RecordCmi5(ctx, cmi5Base, cred2, []string{cmi5.VerbCompleted}); err != nil {
				t.Fatal(err)
			}
			if n := len(readRecords(t, s, store.XAPIQuery{OrgID: a.ID, Registration: l1.Registration, Verb: cmi5.VerbSatisfied})); n != 2 {
				t.Fatalf("%d satisfied statements after a repeat", n)
			}
		})
		t.Run("FetchOnceUnderRace", func(t *testing.T) {
			l := launch(t, c.AUs[0].ID)
			var wg sync.WaitGroup
			results := make(chan error, 8)
			for range 8 {
				wg.Go(func() {
					_, _, err := s.FetchCmi5(ctx, l.FetchToken)
					results <- err
				})
			}
			wg.Wait()
			close(results)
			ok := 0
			for err := range results {
				var fe *store.Cmi5FetchError
				switch {
				case err == nil:
					ok++
				case !errors.As(err, &fe) || fe.Code != "1":
					t.Errorf("a concurrent fetch: %v", err)
				}
			}
			if ok != 1 {
				t.Fatalf("%d of 8 concurrent fetches got a credential; want 1", ok)
			}
		})
	})
}

func mustUnmarshal(t *testing.T, b []byte, v any) {
	t.Helper()
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("decode %s: %v", b, err)
	}
}
