package server

import (
	"bytes"
	"testing"
	"time"

	"github.com/alexedwards/scs/sqlite3store"

	"journeyman/internal/store/storetest"
)

// sqliteSessions' prepared Find answers as the library's Find does.
func TestSQLiteSessionsFind(t *testing.T) {
	st := storetest.OpenSQLite(t)
	lib := sqlite3store.NewWithCleanupInterval(st.DB(), 0)
	ours := &sqliteSessions{SQLite3Store: lib, db: st.DB()}
	now := time.Now()
	for token, expiry := range map[string]time.Time{"live": now.Add(time.Hour), "expired": now.Add(-time.Second)} {
		if err := ours.Commit(token, []byte("data of "+token), expiry); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		token string
		found bool
	}{{"live", true}, {"expired", false}, {"unknown", false}} {
		t.Run(tc.token, func(t *testing.T) {
			b, ok, err := ours.Find(tc.token)
			lb, lok, lerr := lib.Find(tc.token)
			if err != nil || lerr != nil || ok != tc.found || ok != lok || !bytes.Equal(b, lb) {
				t.Fatalf("Find(%q) = %q, %v, %v; the library's %q, %v, %v; want found %v", tc.token, b, ok, err, lb, lok, lerr, tc.found)
			}
		})
	}
	if ours.find == nil {
		t.Fatal("the lookup was not prepared")
	}
}

func BenchmarkSQLiteSessionsFind(b *testing.B) {
	st := storetest.OpenSQLite(b)
	lib := sqlite3store.NewWithCleanupInterval(st.DB(), 0)
	if err := lib.Commit("live", bytes.Repeat([]byte("x"), 200), time.Now().Add(time.Hour)); err != nil {
		b.Fatal(err)
	}
	for _, s := range []struct {
		name string
		find func(string) ([]byte, bool, error)
	}{{"library", lib.Find}, {"prepared", (&sqliteSessions{SQLite3Store: lib, db: st.DB()}).Find}} {
		b.Run(s.name, func(b *testing.B) {
			for b.Loop() {
				if _, ok, err := s.find("live"); !ok || err != nil {
					b.Fatal(ok, err)
				}
			}
		})
	}
}
