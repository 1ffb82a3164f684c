package store_test

import (
	"bytes"
	"context"
	"reflect"
	"testing"
	"time"

	"journeyman/internal/apperr"
	"journeyman/internal/identity"
	"journeyman/internal/learning"
	"journeyman/internal/personalization"
	"journeyman/internal/realtime"
	"journeyman/internal/store"
	"journeyman/internal/store/storetest"
	"journeyman/internal/voice"
)

// testOrg is an organisation with one member of each role.
type testOrg struct {
	ID                         string
	Admin, Instructor, Learner store.User
}

// mustOrg creates an organisation the way the command line does, with its
// first admin, and adds an instructor and a learner; emails start with tag.
func mustOrg(t *testing.T, s *store.Store, name, tag string) testOrg {
	t.Helper()
	admin, _, _, err := s.CreateAdmin(context.Background(), name, tag+"-admin@example.com", tag+" Admin")
	if err != nil {
		t.Fatalf("create admin of %s: %v", name, err)
	}
	return testOrg{
		ID:         admin.OrgID,
		Admin:      admin,
		Instructor: mustAccount(t, s, tag+"-instructor@example.com", tag+" Instructor", admin.OrgID, identity.Instructor),
		Learner:    mustAccount(t, s, tag+"-learner@example.com", tag+" Learner", admin.OrgID, identity.Learner),
	}
}

// mustAccount creates an account; orgID "" makes an individual learner.
func mustAccount(t *testing.T, s *store.Store, email, name, orgID string, role identity.Role) store.User {
	t.Helper()
	u, err := s.CreateAccount(context.Background(), store.NewAccount{Email: email, DisplayName: name, PasswordHash: "hash of " + email, OrgID: orgID, Role: role}, "", "")
	if err != nil {
		t.Fatalf("create account %s: %v", email, err)
	}
	return u
}

// at sets the store's clock to FixedNow+d until the test ends.
func at(t *testing.T, s *store.Store, d time.Duration) {
	t.Helper()
	s.Now = func() time.Time { return storetest.FixedNow.Add(d) }
	t.Cleanup(func() { s.Now = func() time.Time { return storetest.FixedNow } })
}

func wantCode(t *testing.T, what string, err error, code string) {
	t.Helper()
	if apperr.Code(err) != code {
		t.Fatalf("%s: err = %v, want %s", what, err, code)
	}
}

func count(t *testing.T, s *store.Store, query string, args ...any) int {
	t.Helper()
	var n int
	if err := s.DB().QueryRowContext(context.Background(), query, args...).Scan(&n); err != nil {
		t.Fatalf("%s: %v", query, err)
	}
	return n
}

func TestCreateAccount(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		var ada store.User
		t.Run("OK", func(t *testing.T) {
			var err error
			ada, err = s.CreateAccount(ctx, store.NewAccount{Email: "ada@example.com", DisplayName: "Ada", PasswordHash: "h1"}, "", "")
			if err != nil {
				t.Fatal(err)
			}
			if len(ada.ID) != 32 || ada.Email != "ada@example.com" || ada.DisplayName != "Ada" || ada.Role != identity.Learner ||
				ada.OrgID != "" || ada.OrgName != "" || ada.PasswordHash != "h1" || ada.AuthEpoch != 0 || ada.JoinedAt != nil {
				t.Fatalf("account = %+v", ada)
			}
			got, err := s.GetUserByEmail(ctx, "ada@example.com")
			if err != nil || !reflect.DeepEqual(got, ada) {
				t.Fatalf("by email = %+v, %v; want %+v", got, err, ada)
			}
			if c := ada.Caller(); !c.Signed() || c.Meets(identity.OrgMember) || c.Channel() != identity.DemoChannel {
				t.Fatalf("caller = %+v", c)
			}
		})
		for _, email := range []string{"ada@example.com", "ADA@Example.com", " ada@example.com "} {
			t.Run("ErrEmailTaken "+email, func(t *testing.T) {
				_, err := s.CreateAccount(ctx, store.NewAccount{Email: email, DisplayName: "Ada 2", PasswordHash: "h2"}, "", "")
				wantCode(t, "create", err, apperr.ECONFLICT)
				if n := count(t, s, `SELECT COUNT(*) FROM learners WHERE LOWER(email) = 'ada@example.com'`); n != 1 {
					t.Fatalf("%d accounts for ada", n)
				}
			})
		}
		t.Run("EmailStoredFolded", func(t *testing.T) {
			u, err := s.CreateAccount(ctx, store.NewAccount{Email: "Bob@Example.COM", DisplayName: "Bob", PasswordHash: "h"}, "", "")
			if err != nil || u.Email != "bob@example.com" {
				t.Fatalf("account = %+v, %v", u, err)
			}
			got, err := s.GetUserByEmail(ctx, "BOB@example.com")
			if err != nil || got.ID != u.ID {
				t.Fatalf("by email in another case = %+v, %v", got, err)
			}
		})
		t.Run("InOrganisation", func(t *testing.T) {
			org := mustOrg(t, s, "Acme Training", "acme")
			u := org.Instructor
			if u.OrgID != org.ID || u.OrgName != "Acme Training" || u.Role != identity.Instructor || u.JoinedAt == nil || !u.JoinedAt.Equal(storetest.FixedNow) {
				t.Fatalf("instructor = %+v", u)
			}
			if c := u.Caller(); !c.Meets(identity.Staff) || c.Meets(identity.OrgAdmin) || c.Channel() != "org:"+org.ID {
				t.Fatalf("caller = %+v", c)
			}
		})
		t.Run("ErrUnknownUser", func(t *testing.T) {
			_, err := s.GetUser(ctx, "nobody")
			wantCode(t, "get", err, apperr.ENOTFOUND)
			_, err = s.GetUserByEmail(ctx, "nobody@example.com")
			wantCode(t, "by email", err, apperr.ENOTFOUND)
		})
	})
}

func TestEnsureGuest(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		const id = "0a1b2c3d4e5f60718293a4b5c6d7e8f9"
		for range 2 {
			if err := s.EnsureGuest(ctx, id); err != nil {
				t.Fatal(err)
			}
		}
		u, err := s.GetUser(ctx, id)
		if err != nil || u.Role != identity.Guest || u.Email != "" || u.DisplayName != "Guest 0A1B" || u.OrgID != "" {
			t.Fatalf("guest = %+v, %v", u, err)
		}
		if u.Caller().Signed() {
			t.Fatal("a guest counts as signed in")
		}
	})
}

// guestRecords gives a guest one of each record that moves at sign-up.
func guestRecords(t *testing.T, s *store.Store, guest, sessionPrefix string) {
	t.Helper()
	ctx := context.Background()
	if err := s.EnsureGuest(ctx, guest); err != nil {
		t.Fatal(err)
	}
	ended := storetest.FixedNow.Add(-48 * time.Hour)
	insertSession(t, s, sessionPrefix+"-loto", guest, "electrical-loto", "completed", &ended, fptr(90), `{"completionStatus":"passed"}`)
	insertSession(t, s, sessionPrefix+"-hvac", guest, "hvac-gauges", "completed", &ended, fptr(95), `{"completionStatus":"passed"}`)
	insertSession(t, s, sessionPrefix+"-live", guest, "electrical-basics", "in_progress", nil, nil, `{}`)
	if _, err := s.AddSkillAssessment(ctx, guest, learning.DefaultAssessment(), nil); err != nil {
		t.Fatal(err)
	}
	voiceModule, _ := voice.ByID("electrical-lockout-tagout")
	run := voice.NewRun{ModuleID: voiceModule.ID, StartedAt: ended, EndedAt: ended.Add(time.Minute),
		Commands: []voice.HeardCommand{{Command: "start lockout", At: ended}}}
	if _, err := s.AddVoiceRun(ctx, guest, sessionPrefix+"-voice", run, voiceModule, nil); err != nil {
		t.Fatal(err)
	}
	prefs := learning.DefaultPreferences()
	prefs.SessionDuration, prefs.LearningGoals = 90, "guest goals "+sessionPrefix
	if _, err := s.SaveLearningPreferences(ctx, guest, prefs); err != nil {
		t.Fatal(err)
	}
	profile := personalization.DefaultProfile()
	profile.PrimaryTrade, profile.SafetyEmphasis = "welding", 9
	if _, err := s.SavePersonalization(ctx, guest, profile); err != nil {
		t.Fatal(err)
	}
	if cards, err := s.SyncRefreshers(ctx, guest); err != nil || len(cards) != 2 {
		t.Fatalf("guest refreshers = %+v, %v; want 2", cards, err)
	}
	req := learning.RecommendationRequest{TradeCategory: "electrical", CurrentSkillLevel: "beginner",
		TimeConstraints: learning.TimeConstraints{HoursPerWeek: 1, PreferredSessionLength: 30}, FocusAreas: []string{}}
	if _, err := s.AddRecommendationSet(ctx, guest, req, learning.Recommendations{ReasoningExplanation: "guest's",
		RecommendedPaths: []learning.RecommendedPath{}, PersonalizedModifications: []string{}, EstimatedOutcomes: []string{}}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.CreateDemoRequest(ctx, guest, testDemoRequest); err != nil {
		t.Fatal(err)
	}
	if _, err := s.CreateSafetyAlert(ctx, guest, sessionPrefix+"-live", realtime.SafetyAlertPayload{AlertType: "general", Description: "guest alert"}); err != nil {
		t.Fatal(err)
	}
}

// ownedRows counts each table's rows of one learner.
func ownedRows(t *testing.T, s *store.Store, id string) map[string]int {
	t.Helper()
	out := map[string]int{}
	for table, column := range map[string]string{
		"xr_sessions": "user_id", "safety_alerts": "user_id", "demo_requests": "learner_id", "skill_assessments": "learner_id", "voice_training_runs": "learner_id",
		"recommendation_sets": "learner_id", "learning_preferences": "learner_id", "personalization_profiles": "learner_id",
		"refresher_cards": "learner_id", "learners": "id",
	} {
		out[table] = count(t, s, `SELECT COUNT(*) FROM `+table+` WHERE `+column+` = $1`, id)
	}
	return out
}

func TestGuestCarryOver(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		if err := s.SeedCatalog(ctx, testTrades, testModules); err != nil {
			t.Fatal(err)
		}
		none := map[string]int{"xr_sessions": 0, "safety_alerts": 0, "demo_requests": 0, "skill_assessments": 0, "voice_training_runs": 0, "recommendation_sets": 0,
			"learning_preferences": 0, "personalization_profiles": 0, "refresher_cards": 0, "learners": 0}

		t.Run("AtSignUp", func(t *testing.T) {
			const guest = "11111111111111111111111111111111"
			guestRecords(t, s, guest, "g1")
			prefs, _ := s.GetLearningPreferences(ctx, guest)
			profile, _ := s.GetPersonalization(ctx, guest)
			cards, _ := s.SyncRefreshers(ctx, guest)

			u, err := s.CreateAccount(ctx, store.NewAccount{Email: "carry@example.com", DisplayName: "Carry", PasswordHash: "h"}, guest, "")
			if err != nil {
				t.Fatal(err)
			}
			if got := ownedRows(t, s, guest); !reflect.DeepEqual(got, none) {
				t.Fatalf("the guest still owns %v", got)
			}
			want := map[string]int{"xr_sessions": 3, "safety_alerts": 1, "demo_requests": 1, "skill_assessments": 1, "voice_training_runs": 1, "recommendation_sets": 1,
				"learning_preferences": 1, "personalization_profiles": 1, "refresher_cards": 2, "learners": 1}
			if got := ownedRows(t, s, u.ID); !reflect.DeepEqual(got, want) {
				t.Fatalf("the account owns %v, want %v", got, want)
			}
			_, err = s.GetUser(ctx, guest)
			wantCode(t, "the guest", err, apperr.ENOTFOUND)
			if got, _ := s.GetLearningPreferences(ctx, u.ID); !reflect.DeepEqual(got, prefs) {
				t.Errorf("preferences = %+v, want the guest's %+v", got, prefs)
			}
			if got, _ := s.GetPersonalization(ctx, u.ID); !reflect.DeepEqual(got, profile) {
				t.Errorf("profile = %+v, want the guest's %+v", got, profile)
			}
			if got, _ := s.SyncRefreshers(ctx, u.ID); !reflect.DeepEqual(got, cards) {
				t.Errorf("refreshers = %+v, want the guest's %+v", got, cards)
			}
			if got, _ := s.ListSkillAssessments(ctx, u.ID); len(got) != 1 {
				t.Errorf("assessments = %+v", got)
			}
			if got, _ := s.LatestRecommendationSet(ctx, u.ID); got == nil || got.Recommendations.ReasoningExplanation != "guest's" {
				t.Errorf("recommendations = %+v", got)
			}
			if got, _ := s.ListDemoRequests(ctx, u.ID); len(got) != 1 || got[0].LearnerID != u.ID {
				t.Errorf("demo requests = %+v", got)
			}
			if got, _ := s.ListAllSessions(ctx, u.ID); len(got) != 3 {
				t.Errorf("sessions = %+v", got)
			}
			alerts, _ := s.ListSafetyAlerts(ctx, "", 10)
			if len(alerts) != 1 || alerts[0].UserID != u.ID || alerts[0].DisplayName != "Carry" {
				t.Errorf("alerts = %+v", alerts)
			}
		})

		t.Run("AtSignInAccountKeepsItsOwn", func(t *testing.T) {
			const guest = "22222222222222222222222222222222"
			u := mustAccount(t, s, "keep@example.com", "Keep", "", "")
			ended := storetest.FixedNow.Add(-24 * time.Hour)
			insertSession(t, s, "k-loto", u.ID, "electrical-loto", "completed", &ended, fptr(70), `{"completionStatus":"passed"}`)
			if _, err := s.SyncRefreshers(ctx, u.ID); err != nil {
				t.Fatal(err)
			}
			prefs := learning.DefaultPreferences()
			prefs.LearningGoals = "the account's own goals"
			ownPrefs, err := s.SaveLearningPreferences(ctx, u.ID, prefs)
			if err != nil {
				t.Fatal(err)
			}
			profile := personalization.DefaultProfile()
			profile.PrimaryTrade = "hvac"
			ownProfile, err := s.SavePersonalization(ctx, u.ID, profile)
			if err != nil {
				t.Fatal(err)
			}
			guestRecords(t, s, guest, "g2")

			if err := s.MoveGuestData(ctx, guest, u.ID); err != nil {
				t.Fatal(err)
			}
			if got := ownedRows(t, s, guest); !reflect.DeepEqual(got, none) {
				t.Fatalf("the guest still owns %v", got)
			}
			want := map[string]int{"xr_sessions": 4, "safety_alerts": 1, "demo_requests": 1, "skill_assessments": 1, "voice_training_runs": 1, "recommendation_sets": 1,
				"learning_preferences": 1, "personalization_profiles": 1, "refresher_cards": 2, "learners": 1}
			if got := ownedRows(t, s, u.ID); !reflect.DeepEqual(got, want) {
				t.Fatalf("the account owns %v, want %v", got, want)
			}
			if got, _ := s.GetLearningPreferences(ctx, u.ID); !reflect.DeepEqual(got, ownPrefs) {
				t.Errorf("preferences = %+v, want the account's own %+v", got, ownPrefs)
			}
			if got, _ := s.GetPersonalization(ctx, u.ID); !reflect.DeepEqual(got, ownProfile) {
				t.Errorf("profile = %+v, want the account's own %+v", got, ownProfile)
			}
			// The account's card of a module stays; the guest's card of
			// another module moves.
			var loto string
			if err := s.DB().QueryRowContext(ctx, `SELECT last_session_id FROM refresher_cards WHERE learner_id = $1 AND module_id = 'electrical-loto'`, u.ID).Scan(&loto); err != nil || loto != "k-loto" {
				t.Errorf("electrical-loto card from session %q, %v; want the account's k-loto", loto, err)
			}
			if n := count(t, s, `SELECT COUNT(*) FROM refresher_cards WHERE learner_id = $1 AND module_id = 'hvac-gauges'`, u.ID); n != 1 {
				t.Errorf("the guest's hvac-gauges card did not move")
			}
		})

		t.Run("MoveGuestDataOfAnAccountDoesNothing", func(t *testing.T) {
			a := mustAccount(t, s, "a@example.com", "A", "", "")
			b := mustAccount(t, s, "b@example.com", "B", "", "")
			ended := storetest.FixedNow.Add(-time.Hour)
			insertSession(t, s, "b-1", b.ID, "electrical-loto", "completed", &ended, fptr(80), `{}`)
			if _, err := s.SaveLearningPreferences(ctx, b.ID, learning.DefaultPreferences()); err != nil {
				t.Fatal(err)
			}
			before := ownedRows(t, s, b.ID)
			if err := s.MoveGuestData(ctx, b.ID, a.ID); err != nil {
				t.Fatal(err)
			}
			if got := ownedRows(t, s, b.ID); !reflect.DeepEqual(got, before) {
				t.Fatalf("the other account now owns %v, had %v", got, before)
			}
			if got := ownedRows(t, s, a.ID); got["xr_sessions"] != 0 || got["learning_preferences"] != 0 || got["learners"] != 1 {
				t.Fatalf("the account took %v", got)
			}
			// A guest who never wrote anything has no row: nothing to move.
			if err := s.MoveGuestData(ctx, "33333333333333333333333333333333", a.ID); err != nil {
				t.Fatal(err)
			}
		})

		t.Run("FailedSignUpLeavesTheGuest", func(t *testing.T) {
			const guest = "44444444444444444444444444444444"
			if err := s.EnsureGuest(ctx, guest); err != nil {
				t.Fatal(err)
			}
			ended := storetest.FixedNow.Add(-time.Hour)
			insertSession(t, s, "g4-1", guest, "electrical-loto", "completed", &ended, fptr(80), `{}`)
			_, err := s.CreateAccount(ctx, store.NewAccount{Email: "carry@example.com", DisplayName: "Taken", PasswordHash: "h"}, guest, "")
			wantCode(t, "sign-up with a taken email", err, apperr.ECONFLICT)
			if got := ownedRows(t, s, guest); got["learners"] != 1 || got["xr_sessions"] != 1 {
				t.Fatalf("the guest lost its records: %v", got)
			}
		})
	})
}

func TestPasswordAndSignOut(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		u := mustAccount(t, s, "pw@example.com", "Pw", "", "")
		got, err := s.SetPassword(ctx, u.ID, "new hash")
		if err != nil || got.PasswordHash != "new hash" || got.AuthEpoch != u.AuthEpoch+1 {
			t.Fatalf("after SetPassword: %+v, %v; want epoch %d", got, err, u.AuthEpoch+1)
		}
		if err := s.SignOutEverywhere(ctx, u.ID); err != nil {
			t.Fatal(err)
		}
		got, _ = s.GetUser(ctx, u.ID)
		if got.AuthEpoch != u.AuthEpoch+2 || got.PasswordHash != "new hash" {
			t.Fatalf("after SignOutEverywhere: %+v", got)
		}
		renamed, err := s.SetDisplayName(ctx, u.ID, "Renamed")
		if err != nil || renamed.DisplayName != "Renamed" || renamed.AuthEpoch != got.AuthEpoch {
			t.Fatalf("renamed = %+v, %v", renamed, err)
		}
		_, err = s.SetPassword(ctx, "nobody", "h")
		wantCode(t, "SetPassword of nobody", err, apperr.ENOTFOUND)
	})
}

func TestPasswordLinks(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		u := mustAccount(t, s, "link@example.com", "Link", "", "")
		other := mustAccount(t, s, "other@example.com", "Other", "", "")
		token, expires, err := s.CreatePasswordLink(ctx, u.ID, store.ResetLinkTTL)
		if err != nil || token == "" || !expires.Equal(storetest.FixedNow.Add(store.ResetLinkTTL)) {
			t.Fatalf("link = %q expiring %v, %v", token, expires, err)
		}
		if n := count(t, s, `SELECT COUNT(*) FROM password_links WHERE token_hash = $1`, token); n != 0 {
			t.Fatal("the link's token is stored as it is")
		}

		t.Run("Valid", func(t *testing.T) {
			got, err := s.PasswordLinkUser(ctx, token)
			if err != nil || got.ID != u.ID {
				t.Fatalf("link user = %+v, %v", got, err)
			}
			at(t, s, store.ResetLinkTTL-time.Second)
			if _, err := s.PasswordLinkUser(ctx, token); err != nil {
				t.Fatalf("a second before expiry: %v", err)
			}
		})
		for _, tc := range []struct {
			name  string
			token string
		}{{"Unknown", "no-such-token"}, {"Empty", ""}, {"Truncated", token[:len(token)-1]}} {
			t.Run("Err"+tc.name, func(t *testing.T) {
				_, err := s.PasswordLinkUser(ctx, tc.token)
				wantCode(t, "PasswordLinkUser", err, apperr.ENOTFOUND)
				_, err = s.UsePasswordLink(ctx, tc.token, "h")
				wantCode(t, "UsePasswordLink", err, apperr.ENOTFOUND)
			})
		}
		t.Run("ErrExpired", func(t *testing.T) {
			at(t, s, store.ResetLinkTTL)
			_, err := s.PasswordLinkUser(ctx, token)
			wantCode(t, "PasswordLinkUser at expiry", err, apperr.ENOTFOUND)
			_, err = s.UsePasswordLink(ctx, token, "h")
			wantCode(t, "UsePasswordLink at expiry", err, apperr.ENOTFOUND)
		})
		t.Run("UsedOnce", func(t *testing.T) {
			got, err := s.UsePasswordLink(ctx, token, "link hash")
			if err != nil || got.ID != u.ID || got.PasswordHash != "link hash" || got.AuthEpoch != u.AuthEpoch+1 {
				t.Fatalf("used link: %+v, %v", got, err)
			}
			_, err = s.UsePasswordLink(ctx, token, "again")
			wantCode(t, "second use", err, apperr.ENOTFOUND)
			_, err = s.PasswordLinkUser(ctx, token)
			wantCode(t, "PasswordLinkUser after use", err, apperr.ENOTFOUND)
			if got, _ := s.GetUser(ctx, u.ID); got.PasswordHash != "link hash" {
				t.Fatalf("a second use changed the password to %q", got.PasswordHash)
			}
			if got, _ := s.GetUser(ctx, other.ID); got.PasswordHash != other.PasswordHash || got.AuthEpoch != 0 {
				t.Fatalf("another account changed: %+v", got)
			}
		})
	})
}

func TestCreateAdmin(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		var first store.User
		t.Run("NewOrganisation", func(t *testing.T) {
			u, token, expires, err := s.CreateAdmin(ctx, "Acme Training", "boss@example.com", "Boss")
			if err != nil {
				t.Fatal(err)
			}
			if u.Role != identity.Admin || u.OrgID == "" || u.OrgName != "Acme Training" || u.Email != "boss@example.com" ||
				u.DisplayName != "Boss" || u.PasswordHash != "" || u.JoinedAt == nil || !expires.Equal(storetest.FixedNow.Add(store.ResetLinkTTL)) {
				t.Fatalf("admin = %+v expiring %v", u, expires)
			}
			if got, err := s.PasswordLinkUser(ctx, token); err != nil || got.ID != u.ID {
				t.Fatalf("the printed link gives %+v, %v", got, err)
			}
			org, err := s.GetOrganisation(ctx, u.OrgID)
			if err != nil || org.Name != "Acme Training" || !org.CreatedAt.Equal(storetest.FixedNow) {
				t.Fatalf("organisation = %+v, %v", org, err)
			}
			first = u
		})
		t.Run("ExistingOrganisationByName", func(t *testing.T) {
			u, _, _, err := s.CreateAdmin(ctx, "Acme Training", "second@example.com", "Second")
			if err != nil || u.OrgID != first.OrgID || u.Role != identity.Admin {
				t.Fatalf("second admin = %+v, %v; want org %s", u, err, first.OrgID)
			}
			if n := count(t, s, `SELECT COUNT(*) FROM organisations`); n != 1 {
				t.Fatalf("%d organisations", n)
			}
		})
		t.Run("AgainForTheSameAdmin", func(t *testing.T) {
			u, token, _, err := s.CreateAdmin(ctx, "Acme Training", "BOSS@example.com", "Boss")
			if err != nil || u.ID != first.ID || u.Role != identity.Admin {
				t.Fatalf("again = %+v, %v", u, err)
			}
			if got, err := s.PasswordLinkUser(ctx, token); err != nil || got.ID != first.ID {
				t.Fatalf("new link gives %+v, %v", got, err)
			}
		})
		t.Run("ExistingAccountWithoutOrganisation", func(t *testing.T) {
			solo := mustAccount(t, s, "solo@example.com", "Solo", "", "")
			u, _, _, err := s.CreateAdmin(ctx, "Acme Training", "solo@example.com", "ignored")
			if err != nil || u.ID != solo.ID || u.OrgID != first.OrgID || u.Role != identity.Admin || u.JoinedAt == nil ||
				u.DisplayName != "Solo" || u.PasswordHash != solo.PasswordHash {
				t.Fatalf("promoted = %+v, %v", u, err)
			}
		})
		t.Run("ExistingLearnerOfTheOrganisation", func(t *testing.T) {
			l := mustAccount(t, s, "member@example.com", "Member", first.OrgID, identity.Learner)
			u, _, _, err := s.CreateAdmin(ctx, "Acme Training", "member@example.com", "Member")
			if err != nil || u.ID != l.ID || u.Role != identity.Admin || u.JoinedAt == nil || !u.JoinedAt.Equal(*l.JoinedAt) {
				t.Fatalf("promoted = %+v, %v", u, err)
			}
		})
		t.Run("ErrAccountOfAnotherOrganisation", func(t *testing.T) {
			other := mustOrg(t, s, "Other Co", "other")
			_, _, _, err := s.CreateAdmin(ctx, "Acme Training", other.Learner.Email, "x")
			wantCode(t, "admin of another organisation's member", err, apperr.ECONFLICT)
			// Refused whole: the organisation it would have created is not kept.
			_, _, _, err = s.CreateAdmin(ctx, "Brand New Org", other.Learner.Email, "x")
			wantCode(t, "admin of a new organisation", err, apperr.ECONFLICT)
			if n := count(t, s, `SELECT COUNT(*) FROM organisations WHERE name = 'Brand New Org'`); n != 0 {
				t.Fatal("the refused admin's organisation was created")
			}
			if got, _ := s.GetUser(ctx, other.Learner.ID); got.OrgID != other.ID || got.Role != identity.Learner {
				t.Fatalf("the other organisation's learner changed: %+v", got)
			}
		})
		t.Run("ErrUnknownOrganisation", func(t *testing.T) {
			_, err := s.GetOrganisation(ctx, "nope")
			wantCode(t, "get organisation", err, apperr.ENOTFOUND)
		})
	})
}

func TestServerSecret(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		a, err := s.ServerSecret(ctx, "guest-token", 32)
		if err != nil || len(a) != 32 || bytes.Equal(a, make([]byte, 32)) {
			t.Fatalf("secret = %x, %v", a, err)
		}
		again, err := s.ServerSecret(ctx, "guest-token", 32)
		if err != nil || !bytes.Equal(a, again) {
			t.Fatalf("second read = %x, %v; want %x", again, err, a)
		}
		other, err := s.ServerSecret(ctx, "other", 32)
		if err != nil || bytes.Equal(a, other) {
			t.Fatalf("another secret = %x, %v", other, err)
		}
	})
}

func TestDeleteExpiredSessions(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		// The shapes of scs's sqlite3store and postgresstore rows.
		insert := `INSERT INTO sessions (token, data, expiry) VALUES ('old', x'00', julianday('now') - 1), ('new', x'00', julianday('now') + 1)`
		if s.Dialect() == store.Postgres {
			insert = `INSERT INTO sessions (token, data, expiry) VALUES ('old', '\x00', now() - interval '1 day'), ('new', '\x00', now() + interval '1 day')`
		}
		if _, err := s.DB().ExecContext(ctx, insert); err != nil {
			t.Fatal(err)
		}
		if err := s.DeleteExpiredSessions(ctx); err != nil {
			t.Fatal(err)
		}
		if n := count(t, s, `SELECT COUNT(*) FROM sessions WHERE token = 'new'`); n != 1 {
			t.Fatal("a live session was deleted")
		}
		if n := count(t, s, `SELECT COUNT(*) FROM sessions WHERE token = 'old'`); n != 0 {
			t.Fatal("an expired session was kept")
		}
	})
}
