package server

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/alexedwards/scs/v2"
)

func TestSessionCodec(t *testing.T) {
	deadline := time.Date(2026, 12, 6, 14, 30, 0, 123456789, time.UTC)
	tests := []struct {
		name   string
		values map[string]any
	}{
		{"SignedIn", map[string]any{sessUser: "5b01829be84239e3c1fca668952bc868", sessEpoch: int64(3), sessTouched: int64(1796560542)}},
		{"ZeroValues", map[string]any{sessUser: "", sessEpoch: int64(0), sessTouched: int64(0)}},
		{"SomeKeys", map[string]any{sessTouched: int64(-1)}},
		{"Empty", map[string]any{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, err := sessionCodec{}.Encode(deadline, tt.values)
			if err != nil {
				t.Fatal(err)
			}
			gotDeadline, got, err := sessionCodec{}.Decode(b)
			if err != nil {
				t.Fatal(err)
			}
			if !gotDeadline.Equal(deadline) || !reflect.DeepEqual(got, tt.values) {
				t.Fatalf("decoded %v %#v, want %v %#v", gotDeadline, got, deadline, tt.values)
			}
		})
		// Sessions stored before this codec, by scs's default, still read.
		t.Run(tt.name+"/Gob", func(t *testing.T) {
			b, err := scs.GobCodec{}.Encode(deadline, tt.values)
			if err != nil {
				t.Fatal(err)
			}
			if b[0] == sessionCodecMark {
				t.Fatalf("a gob record starts with the codec's mark: % x", b[:8])
			}
			gotDeadline, got, err := sessionCodec{}.Decode(b)
			if err != nil {
				t.Fatal(err)
			}
			if !gotDeadline.Equal(deadline) || !reflect.DeepEqual(got, tt.values) {
				t.Fatalf("decoded %v %#v, want %v %#v", gotDeadline, got, deadline, tt.values)
			}
		})
	}
}

func TestSessionCodecRefuses(t *testing.T) {
	t.Run("ErrUnknownKey", func(t *testing.T) {
		_, err := sessionCodec{}.Encode(time.Now(), map[string]any{"cart": "x"})
		if err == nil || !strings.Contains(err.Error(), `"cart"`) {
			t.Fatalf("err = %v, want one naming the key", err)
		}
	})
	t.Run("ErrWrongType", func(t *testing.T) {
		_, err := sessionCodec{}.Encode(time.Now(), map[string]any{sessEpoch: 3})
		if err == nil || !strings.Contains(err.Error(), "int") {
			t.Fatalf("err = %v, want one naming the type", err)
		}
	})
	t.Run("ErrCorrupt", func(t *testing.T) {
		if _, _, err := (sessionCodec{}).Decode([]byte{sessionCodecMark, '{'}); err == nil {
			t.Fatal("a cut record decoded")
		}
	})
}
