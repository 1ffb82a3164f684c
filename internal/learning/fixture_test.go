package learning

import "journeyman/internal/catalog"

// fixtureTrades and fixtureModules are a small catalog of real electrical and
// plumbing modules, with prerequisite chains that cross difficulty levels.
var fixtureTrades = []catalog.Trade{
	{ID: "electrical", Name: "Electrical", Description: "Residential and commercial wiring.", Certifications: []string{"NFPA 70E Arc Flash", "Journeyman Electrician License"}},
	{ID: "plumbing", Name: "Plumbing", Description: "Supply, drain and vent systems.", Certifications: []string{"Backflow Prevention Tester"}},
}

var fixtureModules = []catalog.Module{
	{ID: "elec-loto", TradeID: "electrical", Title: "Lockout/Tagout Procedure", Description: "Isolate and verify a de-energised circuit before work.", Difficulty: catalog.Beginner, EstimatedDuration: 20,
		LearningObjectives: []string{"Apply a personal lock and tag to a disconnect", "Verify absence of voltage with a tested meter"}, Categories: []string{"safety"}},
	{ID: "elec-meter", TradeID: "electrical", Title: "Using a Multimeter", Description: "Measure voltage, continuity and resistance safely.", Difficulty: catalog.Beginner, EstimatedDuration: 25,
		LearningObjectives: []string{"Select the correct meter category for the circuit"}, Categories: []string{"technical"}},
	{ID: "elec-outlet", TradeID: "electrical", Title: "Wiring a Duplex Receptacle", Description: "Terminate a 15 A receptacle on a branch circuit.", Difficulty: catalog.Beginner, EstimatedDuration: 30,
		LearningObjectives: []string{"Land hot, neutral and ground conductors on the right terminals"}, Prerequisites: []string{"elec-loto"}, Categories: []string{"technical"}},
	{ID: "elec-gfci", TradeID: "electrical", Title: "GFCI Troubleshooting", Description: "Find why a GFCI trips or will not reset.", Difficulty: catalog.Intermediate, EstimatedDuration: 35,
		LearningObjectives: []string{"Distinguish line and load terminals"}, Prerequisites: []string{"elec-outlet", "elec-meter"}, Categories: []string{"troubleshooting"}},
	{ID: "elec-panel", TradeID: "electrical", Title: "Subpanel Installation", Description: "Feed and bond a 100 A subpanel.", Difficulty: catalog.Intermediate, EstimatedDuration: 50,
		LearningObjectives: []string{"Separate neutrals and grounds in a subpanel"}, Prerequisites: []string{"elec-loto"}, Categories: []string{"technical"}},
	{ID: "elec-motor", TradeID: "electrical", Title: "Three-Phase Motor Control", Description: "Wire a start/stop station with overload protection.", Difficulty: catalog.Advanced, EstimatedDuration: 60,
		LearningObjectives: []string{"Wire a holding contact across the start button"}, Prerequisites: []string{"elec-panel"}, Categories: []string{"technical"}},
	{ID: "elec-arcflash", TradeID: "electrical", Title: "Arc Flash Boundaries", Description: "Read an arc flash label and choose PPE.", Difficulty: catalog.Advanced, EstimatedDuration: 40,
		LearningObjectives: []string{"Set the arc flash boundary from the equipment label"}, Prerequisites: []string{"elec-loto"}, Categories: []string{"safety", "hazard-recognition"}},
	{ID: "plumb-solder", TradeID: "plumbing", Title: "Sweating Copper Joints", Description: "Clean, flux and solder a copper fitting.", Difficulty: catalog.Beginner, EstimatedDuration: 30,
		LearningObjectives: []string{"Heat the fitting, not the solder"}, Categories: []string{"technical"}},
}
