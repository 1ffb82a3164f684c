package voice

// The voice modules. Each is a procedure a worker really follows with their
// hands busy, in the order the governing standard demands, so that saying
// "next step" keeps their eyes on the job. Commands come in the same order
// in every module (start, next, repeat, emergency, complete, help, …) since
// the page shows the first six.

// common returns the commands every module shares, around its own start and
// complete phrases.
func common(start, startDesc, complete, completeDesc string, extra ...Command) []Command {
	cmds := []Command{
		{Command: start, Action: ActionStart, Description: startDesc},
		{Command: "next step", Action: ActionNext, Description: "Move on to the next step"},
		{Command: "repeat step", Action: ActionRepeat, Description: "Hear the current step again"},
		{Command: "emergency stop", Action: ActionEmergency, Description: "Stop the procedure and pause the module for safety"},
		{Command: complete, Action: ActionComplete, Description: completeDesc},
		{Command: "help", Action: ActionHelp, Description: "List the commands you can say"},
	}
	return append(cmds, extra...)
}

func module(m Module) Module {
	m.TotalSteps = len(m.Steps)
	return m
}

var modules = []Module{
	module(Module{
		ID:          "electrical-lockout-tagout",
		Name:        "Lockout/Tagout of Machinery",
		Type:        "safety procedure",
		Trade:       "electrical",
		Difficulty:  Intermediate,
		Description: "The energy-control procedure of OSHA 1910.147: isolate, lock, tag and verify before anyone puts their hands in a machine.",
		Steps: []string{
			"Notify everyone who works on or near the machine that it will be shut down and locked out.",
			"Identify every energy source: electrical, pneumatic, hydraulic, stored mechanical and gravity.",
			"Shut the machine down with its normal stop control.",
			"Open the disconnect. Stand to the side of the handle, not in front of the panel.",
			"Apply your personal lock and danger tag to the disconnect. One lock per worker.",
			"Release or block stored energy: bleed air and hydraulic pressure, discharge capacitors, block raised parts.",
			"Verify zero voltage: prove your tester on a known live source, test every phase to ground and phase to phase, then prove the tester again.",
			"Press the start button to confirm the machine does not start, then return the control to off.",
		},
		VoiceCommands: common("start lockout", "Begin the lockout procedure at step one",
			"lockout complete", "Confirm the machine is locked out and verified",
			Command{Command: "lock applied", Action: ActionConfirm, Description: "Confirm your lock and tag are on the disconnect"},
			Command{Command: "status report", Action: ActionStatus, Description: "Hear which step you are on"},
		),
	}),
	module(Module{
		ID:          "confined-space-entry",
		Name:        "Permit-Required Confined Space Entry",
		Type:        "safety procedure",
		Trade:       "plumbing",
		Difficulty:  Advanced,
		Description: "Entering a vault, tank or manhole under OSHA 1910.146: permit, isolation, ventilation, atmospheric testing in order, attendant and retrieval.",
		Steps: []string{
			"Review the entry permit: the hazards, the isolation points, the rescue plan, and the names of the entrant, attendant and entry supervisor.",
			"Isolate the space: lock out pumps and agitators, and blank or double-block-and-bleed every line into it.",
			"Ventilate the space with forced air for the time the permit requires.",
			"Test the atmosphere from outside, in this order: oxygen, then flammable gas, then toxic gas, at the top, middle and bottom of the space.",
			"Confirm oxygen is 19.5 to 23.5 percent, flammable gas below 10 percent of the lower explosive limit, hydrogen sulfide below 10 ppm and carbon monoxide below 35 ppm.",
			"Set up the tripod and winch and clip the entrant's full-body harness to the retrieval line.",
			"Confirm the attendant is posted at the opening with a radio and knows they must never enter.",
			"Enter, keeping the gas monitor on and reading continuously.",
			"On any alarm, exit at once. The attendant calls rescue; nobody goes in after you.",
			"Exit, account for everyone, and close out the permit with the entry supervisor.",
		},
		VoiceCommands: common("begin entry", "Begin the confined space entry at step one",
			"entry complete", "Confirm everyone is out and the permit is closed",
			Command{Command: "atmosphere clear", Action: ActionConfirm, Description: "Confirm the gas readings are within the permit's limits"},
			Command{Command: "status report", Action: ActionStatus, Description: "Hear which step you are on"},
		),
	}),
	module(Module{
		ID:          "hvac-refrigerant-recovery",
		Name:        "Refrigerant Recovery",
		Type:        "equipment procedure",
		Trade:       "hvac",
		Difficulty:  Intermediate,
		Description: "Recovering refrigerant from a system before opening it, as EPA Section 608 requires: certified technician, rated cylinder, 80 percent fill limit, required vacuum.",
		Steps: []string{
			"Confirm you hold EPA Section 608 certification for this type of system, and read the refrigerant type on the nameplate.",
			"Put on safety glasses and insulated gloves. Liquid refrigerant causes frostbite.",
			"Inspect the recovery cylinder: DOT rated, hydrostatic test date within five years, evacuated and marked for this refrigerant.",
			"Set the cylinder on the scale and work out its 80 percent fill weight. Never fill past it.",
			"Connect the manifold gauges to the low and high side service ports, and the centre hose to the recovery machine inlet.",
			"Connect the recovery machine outlet to the cylinder's vapour port and purge air from the hoses.",
			"Open the valves and start the recovery machine. Recover liquid first, then vapour.",
			"Recover to the vacuum level required for this appliance, then close the valves and stop the machine.",
			"Wait five minutes. If the pressure rises, recover again. Label the cylinder and record the weight recovered.",
		},
		VoiceCommands: common("start recovery", "Begin refrigerant recovery at step one",
			"recovery complete", "Confirm recovery is finished and recorded",
			Command{Command: "gauges connected", Action: ActionConfirm, Description: "Confirm the manifold gauges are connected"},
			Command{Command: "status report", Action: ActionStatus, Description: "Hear which step you are on"},
		),
	}),
	module(Module{
		ID:          "welding-mig-setup",
		Name:        "MIG (GMAW) Machine Setup",
		Type:        "equipment procedure",
		Trade:       "welding",
		Difficulty:  Beginner,
		Description: "Setting up a gas metal arc welder for solid wire on carbon steel, with the fire and PPE checks of ANSI Z49.1 first.",
		Steps: []string{
			"Clear combustibles from 35 feet around the work and locate the fire extinguisher.",
			"Put on safety glasses, the welding helmet, leather gloves and a flame-resistant jacket.",
			"Check the gas cylinder is chained upright. Open the valve slowly and set the flow to 25 to 35 cubic feet per hour.",
			"Fit drive rolls and a contact tip that match the wire diameter.",
			"Set the polarity to DC electrode positive for solid wire.",
			"Set the voltage and wire feed speed from the chart inside the machine door for your plate thickness.",
			"Clean the joint to bright metal and attach the work clamp close to the weld.",
			"Trim the wire to about 10 millimetres of stick-out and run a test bead on scrap.",
		},
		VoiceCommands: common("start setup", "Begin the machine setup at step one",
			"setup complete", "Confirm the machine is set up and tested",
			Command{Command: "gas flow set", Action: ActionConfirm, Description: "Confirm the shielding gas flow is set"},
			Command{Command: "status report", Action: ActionStatus, Description: "Hear which step you are on"},
		),
	}),
	module(Module{
		ID:          "construction-ladder-safety",
		Name:        "Portable Ladder Setup and Climbing",
		Type:        "safety procedure",
		Trade:       "construction",
		Difficulty:  Beginner,
		Description: "Choosing, inspecting, setting and climbing an extension ladder as OSHA 1926.1053 requires.",
		Steps: []string{
			"Choose a ladder rated for your weight plus tools, and a fibreglass ladder anywhere near electrical work.",
			"Inspect the rails, rungs, feet and locks. Tag a damaged ladder Do Not Use and take it out of service.",
			"Set the feet on firm, level ground, one foot out from the wall for every four feet of height.",
			"Extend the ladder three feet above the landing and tie off the top.",
			"Face the ladder and keep three points of contact as you climb.",
			"Carry tools on a belt or haul them up on a line, never in your hands.",
			"Keep your belt buckle between the rails, and never stand on the top three rungs of an extension ladder.",
		},
		VoiceCommands: common("start inspection", "Begin the ladder procedure at step one",
			"ladder complete", "Confirm the ladder is set and the climb is done",
			Command{Command: "ladder secured", Action: ActionConfirm, Description: "Confirm the top of the ladder is tied off"},
			Command{Command: "status report", Action: ActionStatus, Description: "Hear which step you are on"},
		),
	}),
}
