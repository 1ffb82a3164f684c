package training

import (
	"encoding/json"
	"math"
	"slices"
)

// ActionWeld is the interaction the AR welding simulator stores a finished
// weld as: its settings, the final metrics and the quality the page showed.
const ActionWeld = "weld"

// Weld settings the simulator offers (spec 001 §3 "Welding session").
var (
	WeldTechniques = []string{"GMAW", "GTAW", "SMAW", "FCAW"}
	WeldMaterials  = []string{"carbon steel", "stainless steel", "aluminum", "cast iron"}
	WeldPositions  = []string{"1G", "2G", "3G", "4G"}
)

// weldRanges are where the simulator's metrics can drift (spec 001 §9, the
// temperature read as interpass °C as the page does): a value outside
// them was not produced by the simulator.
var weldRanges = map[string][2]float64{
	"temperature": {100, 250}, "travelSpeed": {0, 20}, "penetration": {0, 10}, "beadWidth": {0, 15},
	"voltage": {15, 35}, "amperage": {50, 300}, "gasPressure": {15, 30}, "accuracy": {0, 100},
}

// Weld is a weld interaction as the server reads it.
type Weld struct {
	Technique, Material, Position string
	Metrics                       map[string]float64
}

// WeldOf reads a weld interaction. It reports false when in is not a weld,
// or its settings or metrics are not ones the simulator produces: such a
// weld is stored as sent, but the server does not score it.
func WeldOf(in Interaction) (Weld, bool) {
	if in.Kind() != ActionWeld {
		return Weld{}, false
	}
	w := Weld{Technique: in.extraString("technique"), Material: in.extraString("material"), Position: in.extraString("position")}
	if !slices.Contains(WeldTechniques, w.Technique) || !slices.Contains(WeldMaterials, w.Material) || !slices.Contains(WeldPositions, w.Position) {
		return Weld{}, false
	}
	if err := json.Unmarshal(in.Extra["metrics"], &w.Metrics); err != nil {
		return Weld{}, false
	}
	for k, r := range weldRanges {
		v, ok := w.Metrics[k]
		if !ok || math.IsNaN(v) || v < r[0] || v > r[1] {
			return Weld{}, false
		}
	}
	return w, true
}

// QualityScore is the weld's quality in percent, recomputed from its
// metrics by spec 001 §9: the average of accuracy, penetration × 10
// (capped at 100) and 100 − 10 × |travel speed − 8| (capped at 100),
// rounded to one decimal as the page shows it. Never the client's number.
func (w Weld) QualityScore() float64 {
	m := w.Metrics
	raw := (m["accuracy"] + math.Min(m["penetration"]*10, 100) + math.Min(100-10*math.Abs(m["travelSpeed"]-8), 100)) / 3
	return math.Round(raw*10) / 10
}

// QualityLabel names a weld quality score by spec 001 §5: 90 or more
// Excellent, 80 or more Good, 70 or more Fair, below 70 Needs Improvement.
func QualityLabel(score float64) string {
	switch {
	case score >= 90:
		return "Excellent"
	case score >= 80:
		return "Good"
	case score >= 70:
		return "Fair"
	default:
		return "Needs Improvement"
	}
}

// WeldReview is a recorded weld as an instructor reviews it: its settings,
// final metrics, and the quality the server works out from them.
type WeldReview struct {
	Seq          int                `json:"seq"`
	SessionTime  int64              `json:"sessionTime"`
	Technique    string             `json:"technique"`
	Material     string             `json:"material"`
	Position     string             `json:"position"`
	Metrics      map[string]float64 `json:"metrics"`
	QualityScore float64            `json:"qualityScore"`
	QualityLabel string             `json:"qualityLabel"`
}

// ReviewWelds lists a session's welds in the order recorded; a weld whose
// settings or metrics the simulator cannot produce is left out, as WeldOf
// leaves it unscored.
func ReviewWelds(interactions []Interaction) []WeldReview {
	welds := []WeldReview{}
	for i, in := range interactions {
		w, ok := WeldOf(in)
		if !ok {
			continue
		}
		q := w.QualityScore()
		welds = append(welds, WeldReview{
			Seq: i, SessionTime: in.SessionTime, Technique: w.Technique, Material: w.Material, Position: w.Position,
			Metrics: w.Metrics, QualityScore: q, QualityLabel: QualityLabel(q),
		})
	}
	return welds
}
