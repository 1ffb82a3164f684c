package store_test

import (
	"bytes"
	"context"
	"crypto/sha1"
	"encoding/hex"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"journeyman/internal/apperr"
	"journeyman/internal/store"
	"journeyman/internal/store/storetest"
)

const (
	docOrg      = "org-docs"
	docActivity = "http://example.com/activities/pump"
	docAgent    = "mbox:mailto:ada@example.com"
	docReg      = "6f1b8a4e-7f55-4e3b-9f3e-1c2d3e4f5a6b"
)

func stateKey(id string) store.XAPIDocKey {
	return store.XAPIDocKey{Kind: store.XAPIState, ActivityID: docActivity, AgentKey: docAgent, ID: id}
}

func sha1ETag(b []byte) string {
	sum := sha1.Sum(b)
	return `"` + hex.EncodeToString(sum[:]) + `"`
}

func mustPutDoc(t *testing.T, s *store.Store, key store.XAPIDocKey, contentType, content string) store.XAPIDocument {
	t.Helper()
	d, err := s.PutXAPIDocument(context.Background(), docOrg, key, contentType, []byte(content), store.XAPIPrecondition{})
	if err != nil {
		t.Fatalf("put %+v: %v", key, err)
	}
	return d
}

// wantDoc fails unless the stored document of key has this type and content.
func wantDoc(t *testing.T, s *store.Store, key store.XAPIDocKey, contentType, content string) store.XAPIDocument {
	t.Helper()
	d, err := s.GetXAPIDocument(context.Background(), docOrg, key)
	if err != nil {
		t.Fatalf("get %+v: %v", key, err)
	}
	if d.ContentType != contentType || string(d.Content) != content || d.ETag != sha1ETag(d.Content) {
		t.Fatalf("document = %q %q %s; want %q %q with the SHA-1 ETag", d.ContentType, d.Content, d.ETag, contentType, content)
	}
	return d
}

func TestXAPIDocumentPutGet(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		t.Run("OK", func(t *testing.T) {
			put := mustPutDoc(t, s, stateKey("s1"), "application/json", `{"a":1}`)
			got := wantDoc(t, s, stateKey("s1"), "application/json", `{"a":1}`)
			if put.ETag != got.ETag || !got.Updated.Equal(storetest.FixedNow) || !put.Updated.Equal(got.Updated) {
				t.Fatalf("put %+v, got %+v", put, got)
			}
			if !strings.HasPrefix(got.ETag, `"`) || len(got.ETag) != 42 {
				t.Fatalf("ETag %s is not a quoted 40-digit hex SHA-1", got.ETag)
			}
		})
		t.Run("Replace", func(t *testing.T) {
			mustPutDoc(t, s, stateKey("s2"), "application/json", `{"a":1}`)
			at(t, s, time.Minute)
			mustPutDoc(t, s, stateKey("s2"), "text/plain", "hello")
			d := wantDoc(t, s, stateKey("s2"), "text/plain", "hello")
			if !d.Updated.Equal(storetest.FixedNow.Add(time.Minute)) {
				t.Fatalf("updated %v, want the replacing write's time", d.Updated)
			}
		})
		t.Run("BinaryAndEmpty", func(t *testing.T) {
			bin := string([]byte{0, 0xff, 0xfe, 'x', 0})
			mustPutDoc(t, s, stateKey("bin"), "application/octet-stream", bin)
			wantDoc(t, s, stateKey("bin"), "application/octet-stream", bin)
			mustPutDoc(t, s, stateKey("empty"), "text/plain", "")
			wantDoc(t, s, stateKey("empty"), "text/plain", "")
		})
		t.Run("ErrNotFound", func(t *testing.T) {
			_, err := s.GetXAPIDocument(ctx, docOrg, stateKey("nothing"))
			wantCode(t, "get missing", err, apperr.ENOTFOUND)
		})
		t.Run("ErrTooLarge", func(t *testing.T) {
			big := bytes.Repeat([]byte("x"), store.MaxXAPIDocument+1)
			_, err := s.PutXAPIDocument(ctx, docOrg, stateKey("big"), "text/plain", big, store.XAPIPrecondition{})
			wantCode(t, "put 1 MiB + 1", err, apperr.ETOOLARGE)
			_, err = s.PostXAPIDocument(ctx, docOrg, stateKey("big"), "text/plain", big, store.XAPIPrecondition{})
			wantCode(t, "post 1 MiB + 1", err, apperr.ETOOLARGE)
			if _, err := s.PutXAPIDocument(ctx, docOrg, stateKey("big"), "text/plain", big[1:], store.XAPIPrecondition{}); err != nil {
				t.Fatalf("put of exactly 1 MiB: %v", err)
			}
		})
		// Every part of the key names a different document.
		t.Run("KeysApart", func(t *testing.T) {
			keys := []store.XAPIDocKey{
				{Kind: store.XAPIState, ActivityID: docActivity, AgentKey: docAgent, ID: "k"},
				{Kind: store.XAPIState, ActivityID: docActivity, AgentKey: docAgent, Registration: docReg, ID: "k"},
				{Kind: store.XAPIState, ActivityID: docActivity + "/2", AgentKey: docAgent, ID: "k"},
				{Kind: store.XAPIState, ActivityID: docActivity, AgentKey: "mbox:mailto:bob@example.com", ID: "k"},
				{Kind: store.XAPIActivityProfile, ActivityID: docActivity, ID: "k"},
				{Kind: store.XAPIAgentProfile, AgentKey: docAgent, ID: "k"},
			}
			for i, k := range keys {
				mustPutDoc(t, s, k, "text/plain", string(rune('A'+i)))
			}
			for i, k := range keys {
				wantDoc(t, s, k, "text/plain", string(rune('A'+i)))
			}
			if _, err := s.GetXAPIDocument(ctx, "other-org", keys[0]); apperr.Code(err) != apperr.ENOTFOUND {
				t.Fatalf("another organisation reads the document: %v", err)
			}
		})
	})
}

func TestXAPIDocumentPost(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		post := func(key store.XAPIDocKey, contentType, content string) error {
			_, err := s.PostXAPIDocument(ctx, docOrg, key, contentType, []byte(content), store.XAPIPrecondition{})
			return err
		}
		t.Run("New", func(t *testing.T) {
			// A POST of a new document stores it as it came, JSON or not.
			for _, tc := range []struct{ id, contentType, content string }{
				{"new-json", "application/json", `{"x":"foo"}`},
				{"new-text", "application/x-www-form-urlencoded", "1"},
				{"new-array", "application/json", `[1,2]`},
			} {
				if err := post(stateKey(tc.id), tc.contentType, tc.content); err != nil {
					t.Fatalf("post %s: %v", tc.id, err)
				}
				wantDoc(t, s, stateKey(tc.id), tc.contentType, tc.content)
			}
		})
		t.Run("Merge", func(t *testing.T) {
			mustPutDoc(t, s, stateKey("m"), "application/json; charset=utf-8", `{"x":"foo","y":"bar","car":{"make":"Ford","model":"Escape"}}`)
			if err := post(stateKey("m"), "application/json", `{"x":"bash","z":"faz","car":{"make":"Dodge"}}`); err != nil {
				t.Fatal(err)
			}
			// Top-level properties only: car is replaced whole.
			wantDoc(t, s, stateKey("m"), "application/json", `{"car":{"make":"Dodge"},"x":"bash","y":"bar","z":"faz"}`)
		})
		t.Run("ErrNotMergeable", func(t *testing.T) {
			for _, tc := range []struct {
				name                     string
				storedType, stored       string
				postedType, posted, want string
			}{
				{"PostedNotJSONType", "application/json", `{"a":1}`, "application/octet-stream", "abcdefg", "Content-Type"},
				{"PostedFormType", "application/json", `{"a":1}`, "application/x-www-form-urlencoded", "abc", "Content-Type"},
				{"StoredNotJSONType", "application/octet-stream", "/ asdf / undefined", "application/json", `{"a":1}`, "stored document"},
				{"PostedBadJSON", "application/json", `{"a":1}`, "application/json", `{"a":1}{`, "not a JSON object"},
				{"PostedArray", "application/json", `{"a":1}`, "application/json", `[1]`, "not a JSON object"},
				{"PostedNull", "application/json", `{"a":1}`, "application/json", `null`, "not a JSON object"},
				{"StoredArray", "application/json", `[1]`, "application/json", `{"a":1}`, "stored document"},
			} {
				t.Run(tc.name, func(t *testing.T) {
					key := stateKey("nm-" + tc.name)
					mustPutDoc(t, s, key, tc.storedType, tc.stored)
					err := post(key, tc.postedType, tc.posted)
					wantCode(t, tc.name, err, apperr.EINVALID)
					if !strings.Contains(apperr.Message(err), tc.want) {
						t.Fatalf("message %q does not say %q", apperr.Message(err), tc.want)
					}
					wantDoc(t, s, key, tc.storedType, tc.stored)
				})
			}
		})
		t.Run("ErrMergedTooLarge", func(t *testing.T) {
			half := `{"a":"` + strings.Repeat("x", store.MaxXAPIDocument/2) + `"}`
			mustPutDoc(t, s, stateKey("grow"), "application/json", half)
			err := post(stateKey("grow"), "application/json", `{"b":"`+strings.Repeat("y", store.MaxXAPIDocument/2)+`"}`)
			wantCode(t, "merge beyond 1 MiB", err, apperr.ETOOLARGE)
			wantDoc(t, s, stateKey("grow"), "application/json", half)
		})
	})
}

func TestXAPIDocumentPreconditions(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		const stored = `{"v":1}`
		etag := sha1ETag([]byte(stored))
		for _, tc := range []struct {
			name   string
			exists bool
			pre    store.XAPIPrecondition
			want   string // "" for success
		}{
			{"IfMatchCurrent", true, store.XAPIPrecondition{IfMatch: etag}, ""},
			{"IfMatchInList", true, store.XAPIPrecondition{IfMatch: `"0000", ` + etag}, ""},
			{"IfMatchStar", true, store.XAPIPrecondition{IfMatch: "*"}, ""},
			{"IfMatchOther", true, store.XAPIPrecondition{IfMatch: `"1111111111111111111111111111111111111111"`}, apperr.EPRECONDITION},
			{"IfMatchUnquoted", true, store.XAPIPrecondition{IfMatch: "1234"}, apperr.EPRECONDITION},
			{"IfMatchWeak", true, store.XAPIPrecondition{IfMatch: "W/" + etag}, apperr.EPRECONDITION},
			{"IfMatchMissing", false, store.XAPIPrecondition{IfMatch: etag}, apperr.EPRECONDITION},
			{"IfMatchStarMissing", false, store.XAPIPrecondition{IfMatch: "*"}, apperr.EPRECONDITION},
			{"IfNoneMatchStarMissing", false, store.XAPIPrecondition{IfNoneMatch: "*"}, ""},
			{"IfNoneMatchStarExists", true, store.XAPIPrecondition{IfNoneMatch: "*"}, apperr.EPRECONDITION},
			{"IfNoneMatchCurrent", true, store.XAPIPrecondition{IfNoneMatch: "W/" + etag}, apperr.EPRECONDITION},
			{"IfNoneMatchOther", true, store.XAPIPrecondition{IfNoneMatch: `"0000"`}, ""},
			{"NoHeader", true, store.XAPIPrecondition{}, ""},
			{"RequiredExists", true, store.XAPIPrecondition{Required: true}, apperr.ECONFLICT},
			{"RequiredMissing", false, store.XAPIPrecondition{Required: true}, ""},
			{"RequiredIfMatch", true, store.XAPIPrecondition{Required: true, IfMatch: etag}, ""},
			{"RequiredIfNoneMatch", false, store.XAPIPrecondition{Required: true, IfNoneMatch: "*"}, ""},
		} {
			t.Run(tc.name, func(t *testing.T) {
				for _, method := range []string{"PUT", "POST"} {
					key := store.XAPIDocKey{Kind: store.XAPIActivityProfile, ActivityID: docActivity, ID: tc.name + "-" + method}
					if tc.exists {
						mustPutDoc(t, s, key, "application/json", stored)
					}
					write := s.PutXAPIDocument
					if method == "POST" {
						write = s.PostXAPIDocument
					}
					_, err := write(ctx, docOrg, key, "application/json", []byte(`{"v":2}`), tc.pre)
					wantCode(t, method, err, tc.want)
					d, getErr := s.GetXAPIDocument(ctx, docOrg, key)
					switch {
					case tc.want == "" && (getErr != nil || string(d.Content) != `{"v":2}`):
						t.Fatalf("%s passed but stored %q, %v", method, d.Content, getErr)
					case tc.want != "" && tc.exists && string(d.Content) != stored:
						t.Fatalf("%s failed but changed the document to %q", method, d.Content)
					case tc.want != "" && !tc.exists && apperr.Code(getErr) != apperr.ENOTFOUND:
						t.Fatalf("%s failed but created the document: %v", method, getErr)
					}
				}
			})
		}
		t.Run("MessageSaysWhy", func(t *testing.T) {
			key := store.XAPIDocKey{Kind: store.XAPIAgentProfile, AgentKey: docAgent, ID: "why"}
			mustPutDoc(t, s, key, "application/json", stored)
			_, err := s.PutXAPIDocument(ctx, docOrg, key, "application/json", []byte(`{}`), store.XAPIPrecondition{Required: true})
			if !strings.Contains(apperr.Message(err), "If-Match") {
				t.Fatalf("409 message %q does not tell the client to send If-Match", apperr.Message(err))
			}
		})
	})
}

// Two writers holding the same ETag race: the precondition is decided in
// the write's transaction, so exactly one of them wins.
func TestXAPIDocumentConcurrentIfMatch(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		for _, method := range []string{"PUT", "POST", "CREATE"} {
			t.Run(method, func(t *testing.T) {
				key := store.XAPIDocKey{Kind: store.XAPIAgentProfile, AgentKey: docAgent, ID: "race-" + method}
				pre := store.XAPIPrecondition{IfNoneMatch: "*"}
				if method != "CREATE" {
					pre = store.XAPIPrecondition{IfMatch: mustPutDoc(t, s, key, "application/json", `{"n":0}`).ETag}
				}
				const writers = 8
				errs := make([]error, writers)
				var wg sync.WaitGroup
				start := make(chan struct{})
				for i := range writers {
					wg.Add(1)
					go func() {
						defer wg.Done()
						<-start
						content := []byte(`{"n":` + string(rune('1'+i)) + `}`)
						if method == "POST" {
							_, errs[i] = s.PostXAPIDocument(ctx, docOrg, key, "application/json", content, pre)
						} else {
							_, errs[i] = s.PutXAPIDocument(ctx, docOrg, key, "application/json", content, pre)
						}
					}()
				}
				close(start)
				wg.Wait()
				won := 0
				for _, err := range errs {
					switch apperr.Code(err) {
					case "":
						won++
					case apperr.EPRECONDITION:
					default:
						t.Fatalf("writer failed with %v, want success or 412", err)
					}
				}
				if won != 1 {
					t.Fatalf("%d writers passed the same precondition, want exactly 1", won)
				}
			})
		}
	})
}

func TestXAPIDocumentDelete(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		key := stateKey("del")
		t.Run("ErrIfMatchOther", func(t *testing.T) {
			mustPutDoc(t, s, key, "text/plain", "keep")
			err := s.DeleteXAPIDocument(ctx, docOrg, key, store.XAPIPrecondition{IfMatch: `"0000"`})
			wantCode(t, "delete with a stale ETag", err, apperr.EPRECONDITION)
			wantDoc(t, s, key, "text/plain", "keep")
		})
		t.Run("IfMatchCurrent", func(t *testing.T) {
			d := mustPutDoc(t, s, key, "text/plain", "go")
			// Required never applies to DELETE.
			if err := s.DeleteXAPIDocument(ctx, docOrg, key, store.XAPIPrecondition{IfMatch: d.ETag, Required: true}); err != nil {
				t.Fatal(err)
			}
			_, err := s.GetXAPIDocument(ctx, docOrg, key)
			wantCode(t, "get deleted", err, apperr.ENOTFOUND)
		})
		t.Run("Missing", func(t *testing.T) {
			if err := s.DeleteXAPIDocument(ctx, docOrg, stateKey("never"), store.XAPIPrecondition{Required: true}); err != nil {
				t.Fatalf("deleting a missing document: %v", err)
			}
			err := s.DeleteXAPIDocument(ctx, docOrg, stateKey("never"), store.XAPIPrecondition{IfMatch: "*"})
			wantCode(t, "If-Match on a missing document", err, apperr.EPRECONDITION)
		})
		t.Run("States", func(t *testing.T) {
			reg := func(id, r string) store.XAPIDocKey { k := stateKey(id); k.Registration = r; return k }
			other := "0e8d6e1c-3a44-4b8e-8f6f-aaaaaaaaaaaa"
			for _, k := range []store.XAPIDocKey{reg("a", ""), reg("b", docReg), reg("c", other)} {
				mustPutDoc(t, s, k, "text/plain", "x")
			}
			profile := store.XAPIDocKey{Kind: store.XAPIActivityProfile, ActivityID: docActivity, ID: "stays"}
			mustPutDoc(t, s, profile, "text/plain", "x")

			if err := s.DeleteXAPIStates(ctx, docOrg, docActivity, docAgent, docReg); err != nil {
				t.Fatal(err)
			}
			wantIDs(t, s, reg("", ""), []string{"a", "c"})
			if err := s.DeleteXAPIStates(ctx, docOrg, docActivity, docAgent, ""); err != nil {
				t.Fatal(err)
			}
			wantIDs(t, s, reg("", ""), []string{})
			wantDoc(t, s, profile, "text/plain", "x")
		})
	})
}

func wantIDs(t *testing.T, s *store.Store, key store.XAPIDocKey, want []string) {
	t.Helper()
	ids, _, err := s.ListXAPIDocumentIDs(context.Background(), docOrg, key, time.Time{})
	if err != nil || !reflect.DeepEqual(ids, want) {
		t.Fatalf("ids = %q, %v; want %q", ids, err, want)
	}
}

func TestXAPIDocumentList(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		key := func(id, reg string) store.XAPIDocKey {
			k := stateKey(id)
			k.Registration = reg
			return k
		}
		mustPutDoc(t, s, key("b", ""), "text/plain", "x")
		at(t, s, time.Second)
		mustPutDoc(t, s, key("a", docReg), "text/plain", "x")
		at(t, s, 2*time.Second)
		mustPutDoc(t, s, key("c", ""), "text/plain", "x")
		mustPutDoc(t, s, key("c", docReg), "text/plain", "x")
		mustPutDoc(t, s, store.XAPIDocKey{Kind: store.XAPIActivityProfile, ActivityID: docActivity, ID: "profile"}, "text/plain", "x")

		for _, tc := range []struct {
			name   string
			reg    string
			since  time.Time
			want   []string
			latest time.Duration
		}{
			{"All", "", time.Time{}, []string{"a", "b", "c"}, 2 * time.Second},
			{"Registration", docReg, time.Time{}, []string{"a", "c"}, 2 * time.Second},
			{"Since", "", storetest.FixedNow, []string{"a", "c"}, 2 * time.Second},
			{"SinceExclusive", "", storetest.FixedNow.Add(time.Second), []string{"c"}, 2 * time.Second},
			{"SinceSubSecond", "", storetest.FixedNow.Add(time.Second - time.Microsecond), []string{"a", "c"}, 2 * time.Second},
			{"SinceNone", "", storetest.FixedNow.Add(time.Hour), []string{}, -1},
		} {
			t.Run(tc.name, func(t *testing.T) {
				ids, latest, err := s.ListXAPIDocumentIDs(ctx, docOrg, key("", tc.reg), tc.since)
				if err != nil || !reflect.DeepEqual(ids, tc.want) {
					t.Fatalf("ids = %q, %v; want %q", ids, err, tc.want)
				}
				if tc.latest < 0 && !latest.IsZero() || tc.latest >= 0 && !latest.Equal(storetest.FixedNow.Add(tc.latest)) {
					t.Fatalf("latest update %v, want FixedNow+%v", latest, tc.latest)
				}
			})
		}
		t.Run("Profiles", func(t *testing.T) {
			ids, _, err := s.ListXAPIDocumentIDs(ctx, docOrg, store.XAPIDocKey{Kind: store.XAPIActivityProfile, ActivityID: docActivity}, time.Time{})
			if err != nil || !reflect.DeepEqual(ids, []string{"profile"}) {
				t.Fatalf("profile ids = %q, %v", ids, err)
			}
		})
	})
}

func TestXAPIActivity(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		def := `{"name":{"en-US":"Pump"}}`
		if _, err := s.DB().ExecContext(ctx, `INSERT INTO xapi_activities (org_id, id, definition) VALUES ($1, $2, $3)`, docOrg, docActivity, def); err != nil {
			t.Fatal(err)
		}
		got, ok, err := s.XAPIActivity(ctx, docOrg, docActivity)
		if err != nil || !ok || string(got) != def {
			t.Fatalf("activity = %s, %v, %v", got, ok, err)
		}
		for _, tc := range []struct{ name, org, id string }{
			{"Unknown", docOrg, docActivity + "/other"},
			{"OtherOrg", "other-org", docActivity},
		} {
			t.Run(tc.name, func(t *testing.T) {
				got, ok, err := s.XAPIActivity(ctx, tc.org, tc.id)
				if err != nil || ok || got != nil {
					t.Fatalf("activity = %s, %v, %v; want none", got, ok, err)
				}
			})
		}
	})
}
