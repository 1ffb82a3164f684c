package portal

import (
	"strings"
	"testing"
)

func TestLearnerQueryValidate(t *testing.T) {
	for _, tc := range []struct {
		name    string
		q       LearnerQuery
		problem string // substring of the error; "" means valid
		want    LearnerQuery
	}{
		{"Defaults", LearnerQuery{}, "", LearnerQuery{Sort: "displayName", Limit: DefaultLearnerPage}},
		{"Everything", LearnerQuery{Q: "ann", Flag: FlagInactive, Sort: "lastActive", Desc: true, Limit: 100, Offset: 300}, "",
			LearnerQuery{Q: "ann", Flag: FlagInactive, Sort: "lastActive", Desc: true, Limit: 100, Offset: 300}},
		{"ErrFlag", LearnerQuery{Flag: "lazy"}, `flag must be one of`, LearnerQuery{}},
		{"ErrSort", LearnerQuery{Sort: "email; DROP TABLE learners"}, `sort must be one of`, LearnerQuery{}},
		{"ErrLimitHigh", LearnerQuery{Limit: 101}, "limit must be from 1 to 100", LearnerQuery{}},
		{"ErrLimitLow", LearnerQuery{Limit: -1}, "limit must be from 1 to 100", LearnerQuery{}},
		{"ErrOffset", LearnerQuery{Offset: -5}, "offset must not be negative", LearnerQuery{}},
		{"ErrLongQ", LearnerQuery{Q: strings.Repeat("é", MaxQuery+1)}, "q must be at most 254", LearnerQuery{}},
		{"LongestQ", LearnerQuery{Q: strings.Repeat("é", MaxQuery)}, "", LearnerQuery{Q: strings.Repeat("é", MaxQuery), Sort: "displayName", Limit: DefaultLearnerPage}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			q := tc.q
			err := q.Validate()
			if tc.problem == "" {
				if err != nil || q != tc.want {
					t.Errorf("Validate() = %v, %+v; want nil, %+v", err, q, tc.want)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.problem) {
				t.Errorf("Validate() = %v, want an error containing %q", err, tc.problem)
			}
		})
	}
}
