// Package learning holds the AI learning paths domain: a learner's
// preferences and skill assessments, the explainable path recommender and the
// spaced-repetition refresher schedule for completed modules.
package learning

import (
	"slices"
	"strings"
	"unicode/utf8"

	"journeyman/internal/apperr"
)

// Bounds on free text and lists, so one learner cannot store megabytes.
const (
	MaxTextLength = 2000 // learningGoals
	MaxListItems  = 20   // any list field
	MaxItemLength = 100  // one list item
)

// SplitList splits comma-separated input the way the assessment form does:
// split on commas, trim each item, drop empty items.
func SplitList(s string) []string {
	items := []string{}
	for _, part := range strings.Split(s, ",") {
		if part = strings.TrimSpace(part); part != "" {
			items = append(items, part)
		}
	}
	return items
}

// checkEnum returns an Invalid error naming field and the allowed values when
// value is not one of them.
func checkEnum(field, value string, allowed []string) error {
	if slices.Contains(allowed, value) {
		return nil
	}
	return apperr.Invalid("%s must be one of %s", field, strings.Join(allowed, ", "))
}

// checkList bounds a free-text list: item count, item length, no blank items.
func checkList(field string, items []string) error {
	if len(items) > MaxListItems {
		return apperr.Invalid("%s must have at most %d items", field, MaxListItems)
	}
	for _, it := range items {
		if strings.TrimSpace(it) == "" {
			return apperr.Invalid("%s must not contain empty items", field)
		}
		if utf8.RuneCountInString(it) > MaxItemLength {
			return apperr.Invalid("%s items must be at most %d characters", field, MaxItemLength)
		}
	}
	return nil
}

// nonNil returns an empty list for nil so JSON shows [] rather than null.
func nonNil(items []string) []string {
	if items == nil {
		return []string{}
	}
	return items
}
