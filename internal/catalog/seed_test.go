package catalog

import (
	"slices"
	"testing"
)

func TestSeedCatalogIsValid(t *testing.T) {
	if err := ValidateCatalog(Trades(), Modules()); err != nil {
		t.Fatalf("ValidateCatalog(Trades(), Modules()) = %v, want nil", err)
	}
}

func TestSeedTrades(t *testing.T) {
	want := []struct{ id, name string }{
		{"electrical", "Electrical"},
		{"plumbing", "Plumbing"},
		{"hvac", "HVAC"},
		{"welding", "Welding"},
		{"solar-wind", "Solar & Wind"},
		{"automotive", "Automotive & EV"},
		{"elevator", "Elevator"},
		{"lineworker", "Lineworker"},
		{"heavy-equipment", "Heavy Equipment & Diesel"},
		{"construction", "Construction"},
		{"manufacturing", "Manufacturing"},
		{"carpentry", "Carpentry"},
	}
	trades := Trades()
	if len(trades) != len(want) {
		t.Fatalf("len(Trades()) = %d, want %d", len(trades), len(want))
	}
	for i, w := range want {
		tr := trades[i]
		if tr.ID != w.id || tr.Name != w.name {
			t.Errorf("Trades()[%d] = %q %q, want %q %q", i, tr.ID, tr.Name, w.id, w.name)
		}
		if n := len(tr.Certifications); n < 2 || n > 4 {
			t.Errorf("trade %s has %d certifications, want 2 to 4", tr.ID, n)
		}
	}
}

func TestSeedModuleIDsUnique(t *testing.T) {
	seen := map[string]bool{}
	for _, m := range Modules() {
		if seen[m.ID] {
			t.Errorf("module id %q is used twice", m.ID)
		}
		seen[m.ID] = true
	}
}

func TestSeedModulesPerTrade(t *testing.T) {
	byTrade := map[string][]Module{}
	for _, m := range Modules() {
		byTrade[m.TradeID] = append(byTrade[m.TradeID], m)
	}
	for _, tr := range Trades() {
		t.Run(tr.ID, func(t *testing.T) {
			mods := byTrade[tr.ID]
			if len(mods) < 4 {
				t.Errorf("%d modules, want at least 4", len(mods))
			}
			hasDifficulty := func(d string) bool {
				return slices.ContainsFunc(mods, func(m Module) bool { return m.Difficulty == d })
			}
			for _, d := range []string{Beginner, Advanced} {
				if !hasDifficulty(d) {
					t.Errorf("no %s module", d)
				}
			}
			for i := 1; i < len(mods); i++ {
				if DifficultyRank(mods[i].Difficulty) < DifficultyRank(mods[i-1].Difficulty) {
					t.Errorf("module %s (%s) is listed after harder module %s (%s)",
						mods[i].ID, mods[i].Difficulty, mods[i-1].ID, mods[i-1].Difficulty)
				}
			}
			// Longest prerequisite chain, counted in edges: at least one
			// module must depend on a module that itself has a prerequisite.
			depth := map[string]int{}
			longest := 0
			for _, m := range mods {
				for _, p := range m.Prerequisites {
					depth[m.ID] = max(depth[m.ID], depth[p]+1)
				}
				longest = max(longest, depth[m.ID])
			}
			if longest < 2 {
				t.Errorf("longest prerequisite chain has %d links, want at least 2", longest)
			}
		})
	}
}

func TestSeedModulesGroupedInTradeOrder(t *testing.T) {
	rank := map[string]int{}
	for i, tr := range Trades() {
		rank[tr.ID] = i
	}
	mods := Modules()
	for i := 1; i < len(mods); i++ {
		if rank[mods[i].TradeID] < rank[mods[i-1].TradeID] {
			t.Errorf("module %s (trade %s) is listed after %s (trade %s)",
				mods[i].ID, mods[i].TradeID, mods[i-1].ID, mods[i-1].TradeID)
		}
	}
}

func TestSeedCategoriesCovered(t *testing.T) {
	count := map[string]int{}
	trades := map[string]map[string]bool{}
	for _, m := range Modules() {
		for _, c := range m.Categories {
			count[c]++
			if trades[c] == nil {
				trades[c] = map[string]bool{}
			}
			trades[c][m.TradeID] = true
		}
	}
	for _, c := range Categories {
		t.Run(c, func(t *testing.T) {
			if count[c] < 3 {
				t.Errorf("%d modules, want at least 3", count[c])
			}
			if len(trades[c]) < 2 {
				t.Errorf("modules in %d trades, want at least 2", len(trades[c]))
			}
		})
	}
}

func TestSeedSceneModules(t *testing.T) {
	// Training scenes refer to these modules by id; each must be the first
	// or second module of its trade and not advanced.
	tests := []struct{ trade, id string }{
		{"electrical", "electrical-lockout-tagout"},
		{"lineworker", "lineworker-temporary-grounds"},
		{"plumbing", "plumbing-leak-isolation"},
		{"hvac", "hvac-refrigerant-gauges"},
		{"welding", "welding-joint-preparation"},
		{"construction", "construction-fall-protection"},
		{"carpentry", "carpentry-table-saw-rip"},
		{"automotive", "automotive-ev-high-voltage-disconnect"},
		{"solar-wind", "solar-wind-string-isolation"},
		{"elevator", "elevator-pit-entry"},
		{"heavy-equipment", "heavy-equipment-walkaround"},
		{"manufacturing", "manufacturing-cnc-setup"},
	}
	mods := Modules()
	for _, tt := range tests {
		t.Run(tt.id, func(t *testing.T) {
			var ofTrade []Module
			for _, m := range mods {
				if m.TradeID == tt.trade {
					ofTrade = append(ofTrade, m)
				}
			}
			i := slices.IndexFunc(ofTrade, func(m Module) bool { return m.ID == tt.id })
			switch {
			case i < 0:
				t.Fatalf("module %s of trade %s not found", tt.id, tt.trade)
			case i > 1:
				t.Errorf("module %s is module #%d of its trade, want #1 or #2", tt.id, i+1)
			}
			if d := ofTrade[i].Difficulty; d == Advanced {
				t.Errorf("module %s is %s, want beginner or intermediate", tt.id, d)
			}
		})
	}
}

func TestSeedSlicesNotNil(t *testing.T) {
	for _, m := range Modules() {
		if m.Prerequisites == nil || m.Categories == nil || m.LearningObjectives == nil || m.SafetyPoints == nil {
			t.Errorf("module %s has a nil slice field", m.ID)
		}
	}
}

func TestSeedReturnsFreshSlices(t *testing.T) {
	trades, mods := Trades(), Modules()
	trades[0].Name = "changed"
	trades[0].Certifications[0] = "changed"
	mods[0].Title = "changed"
	mods[0].Categories[0] = "changed"
	if tr := Trades()[0]; tr.Name == "changed" || tr.Certifications[0] == "changed" {
		t.Error("Trades() shares state between calls")
	}
	if m := Modules()[0]; m.Title == "changed" || m.Categories[0] == "changed" {
		t.Error("Modules() shares state between calls")
	}
}
