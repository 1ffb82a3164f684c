// Package catalog holds the trades and the training-module catalog: their
// types, validation and the seed content loaded into a new database.
package catalog

// Difficulty levels of a training module, easiest first.
const (
	Beginner     = "beginner"
	Intermediate = "intermediate"
	Advanced     = "advanced"
)

// Trade is one of the skilled trades the platform trains for.
type Trade struct {
	ID             string   `json:"id"`   // lower-case slug: "electrical", "hvac", …
	Name           string   `json:"name"` // display name: "Electrical", "HVAC", …
	Description    string   `json:"description"`
	Certifications []string `json:"certifications"` // industry certifications the trade's training prepares for
}

// Module is one training module of the catalog.
type Module struct {
	ID                 string   `json:"id"` // stable slug, e.g. "electrical-lockout-tagout"
	TradeID            string   `json:"tradeId"`
	Title              string   `json:"title"`
	Description        string   `json:"description"`
	Difficulty         string   `json:"difficulty"`        // Beginner, Intermediate or Advanced
	EstimatedDuration  int      `json:"estimatedDuration"` // minutes
	LearningObjectives []string `json:"learningObjectives"`
	SafetyPoints       []string `json:"safetyPoints"`
	Prerequisites      []string `json:"prerequisites"` // ids of modules to take first, same trade
	Categories         []string `json:"categories"`    // training categories (see Categories) the module belongs to
}

// Categories are the six training categories of the public site's
// /training/{category} pages, in display order.
var Categories = []string{"technical", "onboarding", "safety", "teamwork", "troubleshooting", "hazard-recognition"}
