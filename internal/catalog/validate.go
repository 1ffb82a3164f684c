package catalog

import (
	"regexp"
	"slices"
	"strings"

	"journeyman/internal/apperr"
)

// Limits a catalog module must stay within. They keep every module a
// single sitting with a focused list of outcomes.
const (
	MinDuration   = 15  // minutes
	MaxDuration   = 120 // minutes
	MinObjectives = 3
	MaxObjectives = 5
	MinSafety     = 2
	MaxSafety     = 4
)

// Difficulties lists the module difficulty levels, easiest first.
var Difficulties = []string{Beginner, Intermediate, Advanced}

var slugPattern = regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)

// DifficultyRank orders difficulty levels (beginner 0, intermediate 1,
// advanced 2); -1 for an unknown level.
func DifficultyRank(difficulty string) int {
	return slices.Index(Difficulties, difficulty)
}

// Validate reports the first field of the trade that breaks the catalog's
// rules, as an apperr.Invalid naming the field.
func (t Trade) Validate() error {
	switch {
	case !slugPattern.MatchString(t.ID):
		return apperr.Invalid("trade id %q must be a lower-case slug (letters, digits and single hyphens)", t.ID)
	case strings.TrimSpace(t.Name) == "":
		return apperr.Invalid("trade %s: name is required", t.ID)
	case strings.TrimSpace(t.Description) == "":
		return apperr.Invalid("trade %s: description is required", t.ID)
	case len(t.Certifications) == 0:
		return apperr.Invalid("trade %s: certifications must list at least one certification", t.ID)
	}
	for i, c := range t.Certifications {
		if strings.TrimSpace(c) == "" {
			return apperr.Invalid("trade %s: certifications[%d] is empty", t.ID, i)
		}
	}
	return nil
}

// Validate reports the first field of the module that breaks the catalog's
// rules, as an apperr.Invalid naming the field and its valid range. Rules
// that need the rest of the catalog (prerequisites that exist, no cycles)
// are checked by ValidateCatalog.
func (m Module) Validate() error {
	switch {
	case !slugPattern.MatchString(m.TradeID):
		return apperr.Invalid("module %s: tradeId %q must be a lower-case slug", m.ID, m.TradeID)
	case !slugPattern.MatchString(m.ID) || !strings.HasPrefix(m.ID, m.TradeID+"-"):
		return apperr.Invalid("module id %q must be a lower-case slug starting with its trade id %q and a hyphen", m.ID, m.TradeID)
	case strings.TrimSpace(m.Title) == "":
		return apperr.Invalid("module %s: title is required", m.ID)
	case strings.TrimSpace(m.Description) == "":
		return apperr.Invalid("module %s: description is required", m.ID)
	case DifficultyRank(m.Difficulty) < 0:
		return apperr.Invalid("module %s: difficulty must be one of %s", m.ID, strings.Join(Difficulties, ", "))
	case m.EstimatedDuration < MinDuration || m.EstimatedDuration > MaxDuration:
		return apperr.Invalid("module %s: estimatedDuration must be between %d and %d minutes", m.ID, MinDuration, MaxDuration)
	case len(m.LearningObjectives) < MinObjectives || len(m.LearningObjectives) > MaxObjectives:
		return apperr.Invalid("module %s: learningObjectives must hold %d to %d items", m.ID, MinObjectives, MaxObjectives)
	case len(m.SafetyPoints) < MinSafety || len(m.SafetyPoints) > MaxSafety:
		return apperr.Invalid("module %s: safetyPoints must hold %d to %d items", m.ID, MinSafety, MaxSafety)
	case len(m.Categories) == 0:
		return apperr.Invalid("module %s: categories must hold at least one of %s", m.ID, strings.Join(Categories, ", "))
	}
	for field, items := range map[string][]string{"learningObjectives": m.LearningObjectives, "safetyPoints": m.SafetyPoints} {
		for i, s := range items {
			if strings.TrimSpace(s) == "" {
				return apperr.Invalid("module %s: %s[%d] is empty", m.ID, field, i)
			}
		}
	}
	for i, c := range m.Categories {
		if !slices.Contains(Categories, c) {
			return apperr.Invalid("module %s: categories[%d] %q must be one of %s", m.ID, i, c, strings.Join(Categories, ", "))
		}
		if slices.Index(m.Categories, c) != i {
			return apperr.Invalid("module %s: categories lists %q twice", m.ID, c)
		}
	}
	for i, p := range m.Prerequisites {
		if p == m.ID {
			return apperr.Invalid("module %s: prerequisites[%d] names the module itself", m.ID, i)
		}
		if slices.Index(m.Prerequisites, p) != i {
			return apperr.Invalid("module %s: prerequisites lists %q twice", m.ID, p)
		}
	}
	return nil
}

// ValidateCatalog checks every trade and module and the rules between them:
// unique ids, each module's trade exists, and each prerequisite is a module
// of the same trade, no harder than the module, listed before it. Listing
// prerequisites first makes the prerequisite graph acyclic by construction,
// and it is the order a learner takes them in.
func ValidateCatalog(trades []Trade, modules []Module) error {
	tradeIDs := make(map[string]bool, len(trades))
	for _, t := range trades {
		if err := t.Validate(); err != nil {
			return err
		}
		if tradeIDs[t.ID] {
			return apperr.Invalid("trade id %q is used twice", t.ID)
		}
		tradeIDs[t.ID] = true
	}
	seen := make(map[string]Module, len(modules))
	for _, m := range modules {
		if err := m.Validate(); err != nil {
			return err
		}
		if _, dup := seen[m.ID]; dup {
			return apperr.Invalid("module id %q is used twice", m.ID)
		}
		if !tradeIDs[m.TradeID] {
			return apperr.Invalid("module %s: tradeId %q is not a trade of the catalog", m.ID, m.TradeID)
		}
		for _, p := range m.Prerequisites {
			pre, ok := seen[p]
			switch {
			case !ok:
				return apperr.Invalid("module %s: prerequisite %q must be a module listed before it", m.ID, p)
			case pre.TradeID != m.TradeID:
				return apperr.Invalid("module %s: prerequisite %q belongs to trade %s, not %s", m.ID, p, pre.TradeID, m.TradeID)
			case DifficultyRank(pre.Difficulty) > DifficultyRank(m.Difficulty):
				return apperr.Invalid("module %s: prerequisite %q is harder (%s) than the module (%s)", m.ID, p, pre.Difficulty, m.Difficulty)
			}
		}
		seen[m.ID] = m
	}
	return nil
}
