package training_test

import (
	"encoding/json"
	"testing"

	"journeyman/internal/training"
)

func weldInteraction(t *testing.T, fields string) training.Interaction {
	t.Helper()
	var in training.Interaction
	if err := json.Unmarshal([]byte(fields), &in); err != nil {
		t.Fatal(err)
	}
	return in
}

const goodMetrics = `{"temperature":175,"travelSpeed":9,"penetration":3,"beadWidth":7,"voltage":22,"amperage":150,"gasPressure":22,"accuracy":92}`

func TestWeldOf(t *testing.T) {
	tests := []struct {
		name   string
		fields string
		ok     bool
		score  float64
	}{
		// (92 + 30 + 90) / 3 = 70.666… → 70.7; the client's 99 is ignored.
		{"OK", `{"action":"weld","technique":"GMAW","material":"carbon steel","position":"1G","qualityScore":99,"metrics":` + goodMetrics + `}`, true, 70.7},
		{"CappedTerms", `{"action":"weld","technique":"SMAW","material":"aluminum","position":"4G","metrics":` +
			`{"temperature":175,"travelSpeed":8,"penetration":10,"beadWidth":7,"voltage":22,"amperage":150,"gasPressure":22,"accuracy":100}}`, true, 100},
		{"NotAWeld", `{"action":"grab","technique":"GMAW","material":"carbon steel","position":"1G","metrics":` + goodMetrics + `}`, false, 0},
		{"UnknownTechnique", `{"action":"weld","technique":"laser","material":"carbon steel","position":"1G","metrics":` + goodMetrics + `}`, false, 0},
		{"UnknownPosition", `{"action":"weld","technique":"GMAW","material":"carbon steel","position":"6G","metrics":` + goodMetrics + `}`, false, 0},
		{"MetricOutOfRange", `{"action":"weld","technique":"GMAW","material":"carbon steel","position":"1G","metrics":` +
			`{"temperature":175,"travelSpeed":9,"penetration":3,"beadWidth":7,"voltage":22,"amperage":150,"gasPressure":22,"accuracy":150}}`, false, 0},
		{"MetricMissing", `{"action":"weld","technique":"GMAW","material":"carbon steel","position":"1G","metrics":{"accuracy":90}}`, false, 0},
		{"NoMetrics", `{"action":"weld","technique":"GMAW","material":"carbon steel","position":"1G"}`, false, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w, ok := training.WeldOf(weldInteraction(t, tt.fields))
			if ok != tt.ok || ok && w.QualityScore() != tt.score {
				t.Errorf("ok %v score %v, want %v %v", ok, w.QualityScore(), tt.ok, tt.score)
			}
		})
	}
}

func TestQualityLabel(t *testing.T) {
	tests := []struct {
		score float64
		want  string
	}{{100, "Excellent"}, {90, "Excellent"}, {89.9, "Good"}, {80, "Good"}, {79.9, "Fair"}, {70, "Fair"}, {69.9, "Needs Improvement"}, {0, "Needs Improvement"}}
	for _, tt := range tests {
		if got := training.QualityLabel(tt.score); got != tt.want {
			t.Errorf("QualityLabel(%v) = %q, want %q", tt.score, got, tt.want)
		}
	}
}

func TestReviewWelds(t *testing.T) {
	ins := []training.Interaction{
		weldInteraction(t, `{"action":"grab","objectId":"helmet","stepId":"wear-eyes","sessionTime":3000}`),
		weldInteraction(t, `{"action":"weld","sessionTime":9000,"technique":"GMAW","material":"carbon steel","position":"1G","qualityScore":99,"qualityLabel":"Excellent","metrics":`+goodMetrics+`}`),
		// Not one the simulator produces: stored, but neither scored nor reviewed.
		weldInteraction(t, `{"action":"weld","sessionTime":9500,"technique":"laser","material":"carbon steel","position":"1G","metrics":`+goodMetrics+`}`),
	}
	got := training.ReviewWelds(ins)
	if len(got) != 1 {
		t.Fatalf("welds = %+v, want one", got)
	}
	w := got[0]
	// The server's quality, not the client's 99 and Excellent.
	if w.Seq != 1 || w.SessionTime != 9000 || w.Technique != "GMAW" || w.Material != "carbon steel" || w.Position != "1G" ||
		w.QualityScore != 70.7 || w.QualityLabel != "Fair" || w.Metrics["accuracy"] != 92 {
		t.Errorf("weld = %+v", w)
	}
	if got := training.ReviewWelds(ins[:1]); got == nil || len(got) != 0 {
		t.Errorf("no welds = %#v, want an empty list", got)
	}
}
