package training

import "slices"

// The training scenes. Each is one real task of its trade, drawn with
// primitive shapes; the order of the steps is the order the trade's safe
// procedure demands, and the safety checks are the ones whose omission hurts
// people on real jobs.

type v3 = [3]float64

func box(id, label string, pos, size v3, color string) SceneObject {
	return SceneObject{ID: id, Label: label, Shape: ShapeBox, Position: pos, Size: size, Color: color}
}

func cyl(id, label string, pos v3, radius, height float64, color string) SceneObject {
	return SceneObject{ID: id, Label: label, Shape: ShapeCylinder, Position: pos, Size: v3{radius, height, 0}, Color: color}
}

func sph(id, label string, pos v3, radius float64, color string) SceneObject {
	return SceneObject{ID: id, Label: label, Shape: ShapeSphere, Position: pos, Size: v3{radius, 0, 0}, Color: color}
}

func cone(id, label string, pos v3, radius, height float64, color string) SceneObject {
	return SceneObject{ID: id, Label: label, Shape: ShapeCone, Position: pos, Size: v3{radius, height, 0}, Color: color}
}

func torus(id, label string, pos v3, radius, tube float64, color string) SceneObject {
	return SceneObject{ID: id, Label: label, Shape: ShapeTorus, Position: pos, Size: v3{radius, tube, 0}, Color: color}
}

// rotated returns o turned by the Euler angles r (radians).
func rotated(o SceneObject, r v3) SceneObject { o.Rotation = r; return o }

func step(id, instruction, target, action, check string) Step {
	return Step{ID: id, Instruction: instruction, Target: target, Action: action, SafetyCheck: check}
}

func stepIDs(steps []Step) []string {
	ids := make([]string, len(steps))
	for i, s := range steps {
		ids[i] = s.ID
	}
	return ids
}

// complete fills the pass criteria of a scene whose every step is required,
// and the default minimum duration of every step that sets none.
func complete(s Scene, minScore float64) Scene {
	s.PassCriteria = PassCriteria{RequiredSteps: stepIDs(s.Steps), MinSafetyScore: minScore}
	for i, st := range s.Steps {
		if st.MinDurationMs == 0 {
			s.Steps[i].MinDurationMs = MinStepDuration(st)
		}
	}
	return s
}

const (
	quarter = 1.5707963267948966 // π/2
	steel   = "#8a9399"
	safety  = "#f5c400"
	orange  = "#f26b1d"
	red     = "#c8281e"
	green   = "#2e8b3d"
	blue    = "#2563c9"
	black   = "#22262a"
	white   = "#eef0f2"
	wood    = "#b9894f"
	copper  = "#b8733a"
)

// scenes are every training scene: the trades' own first, each of which
// trains its trade's modules that have no scene (SceneForModule), then one
// for each of the catalog's other modules (scenes_*.go, by trade).
var scenes = slices.Concat(tradeScenes, electricalLineworkerScenes, plumbingHVACScenes, weldingSolarScenes,
	automotiveElevatorScenes, heavyConstructionScenes, manufacturingCarpentryScenes)

// tradeScenes are the first scene of each trade, and the site-safety
// orientation of modules of no known trade.
var tradeScenes = []Scene{
	complete(Scene{
		ID:          "electrical-lockout-tagout",
		Title:       "Lockout/tagout of a 480 V motor-control panel",
		TradeIDs:    []string{"electrical"},
		Environment: "A plant electrical room: a grey 480 V motor-control panel with its fused disconnect, the conveyor motor it feeds, and a workbench with your lockout kit, arc-rated PPE and a voltage tester with its proving unit.",
		Objects: []SceneObject{
			box("panel", "480 V motor-control panel", v3{0, 1, -2}, v3{1.2, 2, 0.4}, steel),
			box("disconnect", "Fused disconnect handle", v3{0.7, 1.2, -1.75}, v3{0.08, 0.35, 0.08}, red),
			cyl("motor", "Conveyor motor", v3{-1.6, 0.35, -1.6}, 0.3, 0.6, blue),
			box("motor-terminals", "Motor terminal box", v3{-1.6, 0.75, -1.6}, v3{0.2, 0.15, 0.2}, steel),
			box("start-button", "Local start/stop station", v3{-1.1, 1.2, -2}, v3{0.15, 0.25, 0.1}, green),
			box("bench", "Workbench", v3{1.6, 0.45, -0.8}, v3{0.8, 0.9, 0.6}, wood),
			sph("face-shield", "Arc-rated face shield and gloves", v3{1.4, 1.0, -0.8}, 0.12, "#3c6e8f"),
			box("padlock", "Personal padlock and danger tag", v3{1.75, 0.95, -0.7}, v3{0.06, 0.08, 0.03}, red),
			box("proving-unit", "Voltage tester proving unit", v3{1.75, 0.95, -0.95}, v3{0.1, 0.05, 0.08}, safety),
		},
		Steps: []Step{
			step("don-ppe", "Put on the arc-rated face shield and voltage-rated gloves before you approach the panel.", "face-shield", ActionGrab, "arc-flash-ppe"),
			step("stop-conveyor", "Tell the line operator you are locking out the conveyor, then stop it at its local station and wait until it stands still.", "start-button", ActionClick, "normal-shutdown"),
			step("open-disconnect", "Switch the fused disconnect to OFF, and check through its window that the blades are open.", "disconnect", ActionClick, ""),
			step("apply-lock", "Apply your personal padlock and danger tag to the disconnect hasp.", "padlock", ActionGrab, "lock-applied"),
			step("prove-tester", "Prove your voltage tester on the proving unit.", "proving-unit", ActionClick, "tester-proven"),
			step("test-dead", "Test phase to phase and phase to ground at the motor terminals: zero volts on every reading.", "motor-terminals", ActionClick, "absence-of-voltage"),
			step("reprove-tester", "Prove the tester on the proving unit again: a tester that failed during the test would have read zero too.", "proving-unit", ActionClick, "tester-reproven"),
			step("try-start", "Press the local start button to confirm the motor cannot run, then return the station to STOP.", "start-button", ActionClick, "try-start"),
		},
		SafetyChecks: []SafetyCheck{
			{ID: "arc-flash-ppe", Description: "Arc-rated PPE worn before operating the disconnect", Weight: 2},
			// NFPA 70E 120.5(2): the load is interrupted at its controls; a
			// disconnect opened under load can draw an arc.
			{ID: "normal-shutdown", Description: "Conveyor stopped at its controls before the disconnect is opened", Weight: 2},
			{ID: "lock-applied", Description: "Personal lock and tag applied to the energy-isolating device", Weight: 3},
			// NFPA 70E 120.5(7): the tester is verified before and after each test.
			{ID: "tester-proven", Description: "Tester proven on a known source before testing", Weight: 1},
			{ID: "absence-of-voltage", Description: "Absence of voltage verified on every conductor", Weight: 3},
			{ID: "tester-reproven", Description: "Tester proven on the known source again after testing", Weight: 1},
			{ID: "try-start", Description: "Start attempted to confirm the isolation holds", Weight: 1},
		},
	}, 80),

	complete(Scene{
		ID:          "lineworker-temporary-grounds",
		Title:       "Installing temporary protective grounds on a de-energized line",
		TradeIDs:    []string{"lineworker"},
		Environment: "A 12.47 kV overhead distribution pole, cleared by the dispatcher for work. Three phase conductors on the crossarm, a driven ground rod at the base, and your hot stick, voltage detector and grounding set on the truck's tailboard.",
		Objects: []SceneObject{
			cyl("pole", "Wood distribution pole", v3{0, 3, -3}, 0.15, 6, "#6b4a2b"),
			box("crossarm", "Crossarm", v3{0, 5.6, -3}, v3{2.4, 0.1, 0.1}, "#7a5634"),
			rotated(cyl("phase-a", "Phase A conductor", v3{-1, 5.75, -3}, 0.02, 4, copper), v3{quarter, 0, 0}),
			rotated(cyl("phase-b", "Phase B conductor", v3{0, 5.75, -3}, 0.02, 4, copper), v3{quarter, 0, 0}),
			rotated(cyl("phase-c", "Phase C conductor", v3{1, 5.75, -3}, 0.02, 4, copper), v3{quarter, 0, 0}),
			cyl("ground-rod", "Driven ground rod", v3{0.5, 0.15, -2.6}, 0.02, 0.3, copper),
			box("tailboard", "Truck tailboard", v3{1.8, 0.7, -0.8}, v3{1.2, 0.1, 0.6}, white),
			sph("rubber-gloves", "Class 2 rubber gloves", v3{1.5, 0.85, -0.8}, 0.1, orange),
			box("voltage-detector", "Voltage detector on hot stick", v3{1.9, 0.8, -0.9}, v3{0.1, 0.1, 1.2}, safety),
			box("ground-set", "Grounding cluster and jumpers", v3{2.2, 0.85, -0.7}, v3{0.3, 0.15, 0.3}, black),
		},
		Steps: []Step{
			step("glove-test", "Air-test and inspect your rubber gloves, then put them on.", "rubber-gloves", ActionGrab, "glove-inspection"),
			step("test-phase-a", "Prove the voltage detector on its tester, then, with it on the hot stick, test phase A, the nearest conductor: no voltage.", "phase-a", ActionClick, ""),
			step("test-phase-b", "Test phase B: no voltage.", "phase-b", ActionClick, ""),
			step("test-phase-c", "Test phase C: no voltage. Prove the detector on its tester again: every phase is dead.", "phase-c", ActionClick, "test-before-ground"),
			step("ground-end", "Connect the grounding set to the ground rod first.", "ground-rod", ActionGrab, "ground-end-first"),
			step("clamp-phase-a", "With the hot stick, clamp the first jumper to phase A, the nearest conductor.", "phase-a", ActionGrab, ""),
			step("clamp-phase-b", "Clamp the next jumper to phase B.", "phase-b", ActionGrab, ""),
			step("clamp-phase-c", "Clamp the last jumper to phase C, completing the equipotential zone.", "phase-c", ActionGrab, ""),
		},
		SafetyChecks: []SafetyCheck{
			{ID: "glove-inspection", Description: "Rubber gloves air-tested and worn", Weight: 2},
			// OSHA 1910.269(n)(5): tested de-energized, every conductor to be grounded.
			{ID: "test-before-ground", Description: "All three phases tested de-energized before grounds are applied", Weight: 3},
			{ID: "ground-end-first", Description: "Ground end connected before any conductor clamp", Weight: 3},
		},
	}, 80),

	complete(Scene{
		ID:          "plumbing-leak-isolation",
		Title:       "Isolating a leaking supply line under a kitchen sink",
		TradeIDs:    []string{"plumbing"},
		Environment: "A kitchen sink base cabinet with water spraying from a cold-water compression fitting. The angle stop valve is under the sink, the garbage disposal is plugged into the outlet beside it, fed by a breaker in the panel on the wall, and your bucket, glasses and towel are on the floor.",
		Objects: []SceneObject{
			box("cabinet", "Sink base cabinet", v3{0, 0.45, -1.6}, v3{1.2, 0.9, 0.6}, white),
			box("sink", "Sink basin", v3{0, 0.95, -1.6}, v3{0.8, 0.1, 0.5}, steel),
			cyl("faucet", "Faucet", v3{0, 1.15, -1.8}, 0.03, 0.3, steel),
			cyl("supply-line", "Leaking cold supply line", v3{-0.25, 0.45, -1.55}, 0.015, 0.4, copper),
			sph("angle-stop", "Cold angle stop valve", v3{-0.25, 0.22, -1.55}, 0.05, steel),
			cyl("disposal", "Garbage disposal", v3{0.25, 0.6, -1.6}, 0.12, 0.3, black),
			box("outlet-plug", "Disposal circuit breaker, in the panel beside the cabinet", v3{1.3, 1.3, -1.95}, v3{0.1, 0.16, 0.04}, white),
			cyl("bucket", "Bucket", v3{-0.9, 0.15, -1}, 0.15, 0.3, orange),
			sph("glasses", "Safety glasses", v3{0.9, 0.05, -0.8}, 0.08, "#7cc7e8"),
		},
		Steps: []Step{
			step("wear-glasses", "Put on safety glasses: the spray is pressurized.", "glasses", ActionGrab, "eye-protection"),
			step("unplug-disposal", "Switch off the disposal's circuit breaker before you reach into the wet cabinet: its plug and outlet are in the spray.", "outlet-plug", ActionClick, "electrical-isolation"),
			step("place-bucket", "Set the bucket under the leaking fitting.", "bucket", ActionGrab, ""),
			step("close-stop", "Turn the cold angle stop clockwise until it is fully closed.", "angle-stop", ActionClick, ""),
			step("relieve-pressure", "Open the faucet's cold side to relieve the pressure left in the line.", "faucet", ActionClick, "pressure-relieved"),
			step("inspect-fitting", "Inspect the compression nut and ferrule for the cause of the leak.", "supply-line", ActionClick, ""),
		},
		SafetyChecks: []SafetyCheck{
			{ID: "eye-protection", Description: "Eye protection worn near a pressurized leak", Weight: 1},
			{ID: "electrical-isolation", Description: "Appliance circuit switched off before working in standing water", Weight: 3},
			{ID: "pressure-relieved", Description: "Line depressurized before the fitting is touched", Weight: 2},
		},
	}, 70),

	complete(Scene{
		ID:          "hvac-refrigerant-gauges",
		Title:       "Reading refrigerant pressures on a split-system condenser",
		TradeIDs:    []string{"hvac"},
		Environment: "The outdoor condensing unit of an R-410A split system on a summer afternoon, running in cooling mode. Suction and liquid service ports are on the line set, and your manifold gauge set, pipe-clamp thermometer, gloves and glasses are on the pad.",
		Objects: []SceneObject{
			box("condenser", "Condensing unit", v3{0, 0.45, -2}, v3{0.9, 0.9, 0.9}, "#c9ccc4"),
			box("service-disconnect", "Service disconnect", v3{-0.9, 1.1, -2.3}, v3{0.25, 0.35, 0.12}, steel),
			cyl("suction-port", "Suction service port (large line)", v3{0.55, 0.3, -1.6}, 0.02, 0.06, blue),
			cyl("liquid-port", "Liquid service port (small line)", v3{0.55, 0.18, -1.6}, 0.015, 0.06, red),
			box("manifold", "Manifold gauge set", v3{0.9, 0.5, -1.1}, v3{0.3, 0.18, 0.08}, black),
			sph("low-gauge", "Low-side gauge (blue)", v3{0.8, 0.62, -1.05}, 0.06, blue),
			sph("high-gauge", "High-side gauge (red)", v3{1.0, 0.62, -1.05}, 0.06, red),
			box("thermometer", "Pipe-clamp thermometer", v3{-0.6, 0.05, -1}, v3{0.12, 0.04, 0.06}, safety),
			sph("hvac-ppe", "Insulated gloves and safety glasses", v3{-0.9, 0.05, -0.8}, 0.1, "#3c6e8f"),
		},
		Steps: []Step{
			step("wear-ppe", "Put on gloves and safety glasses: liquid R-410A causes frostbite.", "hvac-ppe", ActionGrab, "refrigerant-ppe"),
			step("close-manifold", "Confirm both manifold valves are closed before connecting hoses.", "manifold", ActionClick, "manifold-closed"),
			step("connect-low", "Connect the blue hose to the suction service port.", "suction-port", ActionGrab, ""),
			step("connect-high", "Connect the red hose to the liquid service port.", "liquid-port", ActionGrab, ""),
			step("clamp-thermometer", "Clamp the thermometer on the suction line near the service valve.", "thermometer", ActionGrab, ""),
			step("read-low", "Read the suction pressure and its saturation temperature on the blue gauge.", "low-gauge", ActionClick, ""),
			step("read-high", "Read the liquid-line pressure on the red gauge and compare with the outdoor temperature.", "high-gauge", ActionClick, ""),
		},
		SafetyChecks: []SafetyCheck{
			{ID: "refrigerant-ppe", Description: "Gloves and eye protection worn before opening service ports", Weight: 2},
			{ID: "manifold-closed", Description: "Manifold valves closed before hoses are connected", Weight: 2},
		},
	}, 75),

	complete(Scene{
		ID:          "welding-joint-preparation",
		Title:       "Weld joint preparation with a PPE and fire check",
		TradeIDs:    []string{"welding"},
		Environment: "A fabrication bay: a steel welding table with two 10 mm plates for a single-V butt joint, an angle grinder, a wire brush and a GMAW machine. An oily rag has been left on the table and a fire extinguisher hangs on the column.",
		Objects: []SceneObject{
			box("table", "Steel welding table", v3{0, 0.45, -1.5}, v3{1.6, 0.9, 0.9}, steel),
			box("plate-left", "Plate A, 10 mm", v3{-0.2, 0.92, -1.5}, v3{0.35, 0.02, 0.25}, "#5d6469"),
			box("plate-right", "Plate B, 10 mm", v3{0.2, 0.92, -1.5}, v3{0.35, 0.02, 0.25}, "#5d6469"),
			box("oily-rag", "Oily rag", v3{0.6, 0.92, -1.3}, v3{0.2, 0.01, 0.15}, "#7d6b4f"),
			cyl("grinder", "Angle grinder", v3{-0.6, 0.95, -1.2}, 0.04, 0.3, orange),
			box("wire-brush", "Wire brush", v3{-0.5, 0.93, -1.8}, v3{0.2, 0.03, 0.05}, wood),
			box("work-clamp", "Work clamp", v3{0.75, 0.92, -1.8}, v3{0.08, 0.05, 0.1}, copper),
			sph("helmet", "Auto-darkening helmet and safety glasses", v3{1.3, 1.1, -0.9}, 0.15, black),
			sph("gloves", "Leather welding gloves", v3{1.3, 0.9, -0.7}, 0.1, "#a0683a"),
			cyl("extinguisher", "ABC fire extinguisher", v3{-1.5, 0.3, -2.2}, 0.08, 0.5, red),
		},
		Steps: []Step{
			step("wear-eyes", "Put on safety glasses and the welding helmet.", "helmet", ActionGrab, "eye-face-ppe"),
			step("wear-gloves", "Put on leather welding gloves.", "gloves", ActionGrab, "hand-ppe"),
			step("remove-rag", "Remove the oily rag from the work area: sparks travel up to 11 m (35 ft).", "oily-rag", ActionGrab, "combustibles-cleared"),
			step("check-extinguisher", "Check the extinguisher gauge is in the green.", "extinguisher", ActionClick, "extinguisher-ready"),
			step("bevel-plate", "Grind a 30° bevel on the joint edge of each plate, A and B, for the 60° single-V, leaving a 2 mm root face.", "plate-left", ActionClick, ""),
			step("clean-plate", "Wire-brush mill scale from 25 mm either side of the joint.", "plate-right", ActionClick, ""),
			step("attach-clamp", "Attach the work clamp to clean metal on the table.", "work-clamp", ActionGrab, ""),
		},
		SafetyChecks: []SafetyCheck{
			{ID: "eye-face-ppe", Description: "Eye and face protection worn before grinding", Weight: 2},
			{ID: "hand-ppe", Description: "Welding gloves worn", Weight: 1},
			{ID: "combustibles-cleared", Description: "Combustibles removed from the spark zone", Weight: 2},
			{ID: "extinguisher-ready", Description: "Fire extinguisher within reach and charged", Weight: 1},
		},
	}, 75),

	complete(Scene{
		ID:          "construction-fall-protection",
		Title:       "Fall-protection harness inspection and tie-off",
		TradeIDs:    []string{"construction"},
		Environment: "The edge of a second-floor steel deck with a beam anchor rated for 5,000 lb. Your full-body harness and shock-absorbing lanyard hang on the gang box; a hard hat sits beside it.",
		Objects: []SceneObject{
			box("deck", "Steel deck", v3{0, 0.05, -2}, v3{4, 0.1, 2}, steel),
			box("beam", "Overhead beam", v3{0, 2.6, -2}, v3{4, 0.3, 0.2}, "#a04a2a"),
			torus("anchor", "Beam anchor (5,000 lb)", v3{0.5, 2.35, -2}, 0.08, 0.02, safety),
			box("gang-box", "Gang box", v3{-1.4, 0.4, -0.8}, v3{1, 0.8, 0.5}, orange),
			box("harness", "Full-body harness", v3{-1.6, 1.1, -0.8}, v3{0.35, 0.5, 0.1}, "#1f4fa8"),
			torus("d-ring", "Dorsal D-ring and buckles", v3{-1.6, 1.35, -0.74}, 0.04, 0.01, steel),
			cyl("lanyard", "Shock-absorbing lanyard", v3{-1.2, 1.0, -0.8}, 0.04, 0.4, safety),
			sph("hard-hat", "Hard hat", v3{-1.0, 0.9, -0.7}, 0.13, white),
		},
		Steps: []Step{
			step("inspect-webbing", "Inspect the harness webbing and stitching for cuts, burns and pulled threads.", "harness", ActionClick, "webbing-inspected"),
			step("inspect-hardware", "Inspect the D-ring and buckles for cracks, corrosion and distortion.", "d-ring", ActionClick, "hardware-inspected"),
			step("inspect-lanyard", "Check the lanyard's shock pack is intact and never deployed.", "lanyard", ActionClick, "lanyard-inspected"),
			step("wear-hard-hat", "Put on your hard hat.", "hard-hat", ActionGrab, ""),
			step("don-harness", "Put on the harness: D-ring between the shoulder blades, leg straps snug.", "harness", ActionGrab, ""),
			step("tie-off", "Clip the lanyard to the rated beam anchor before you go near the edge.", "anchor", ActionGrab, "tied-off"),
		},
		SafetyChecks: []SafetyCheck{
			{ID: "webbing-inspected", Description: "Harness webbing inspected before use", Weight: 2},
			{ID: "hardware-inspected", Description: "Harness hardware inspected before use", Weight: 1},
			{ID: "lanyard-inspected", Description: "Lanyard and shock pack inspected", Weight: 2},
			{ID: "tied-off", Description: "Tied off to a rated anchor before exposure to the edge", Weight: 3},
		},
	}, 80),

	complete(Scene{
		ID:          "carpentry-table-saw-rip",
		Title:       "Setting up a table saw for a rip cut",
		TradeIDs:    []string{"carpentry"},
		Environment: "A job-site cabinet shop: a 10-inch table saw with its blade guard, riving knife and rip fence, a 19 mm plywood panel to rip to 300 mm, and a push stick on the outfeed table.",
		Objects: []SceneObject{
			box("saw-table", "Table saw", v3{0, 0.45, -1.5}, v3{1.0, 0.9, 0.7}, "#3f6f9c"),
			cyl("blade", "10-inch blade", v3{0, 0.95, -1.5}, 0.13, 0.01, steel),
			box("riving-knife", "Riving knife and blade guard", v3{0, 1.05, -1.7}, v3{0.02, 0.2, 0.2}, red),
			box("fence", "Rip fence", v3{0.35, 0.95, -1.5}, v3{0.05, 0.08, 0.7}, black),
			box("power-cord", "Saw plug at the outlet", v3{-0.8, 0.3, -1.9}, v3{0.08, 0.12, 0.05}, black),
			box("height-wheel", "Blade height handwheel", v3{0, 0.6, -1.13}, v3{0.12, 0.12, 0.04}, steel),
			box("plywood", "Plywood panel", v3{-1.2, 0.5, -0.8}, v3{0.6, 1.0, 0.02}, wood),
			box("push-stick", "Push stick", v3{0.8, 0.95, -1.2}, v3{0.05, 0.03, 0.3}, orange),
			sph("eye-ear-ppe", "Safety glasses and earmuffs", v3{1.1, 0.95, -0.9}, 0.1, safety),
		},
		Steps: []Step{
			step("unplug", "Unplug the saw before making any adjustment.", "power-cord", ActionClick, "power-isolated"),
			step("check-guard", "Confirm the riving knife and blade guard are fitted and aligned with the blade.", "riving-knife", ActionClick, "guard-fitted"),
			step("set-height", "Set the blade to clear the stock by about 3 mm (1/8 in).", "height-wheel", ActionClick, ""),
			step("set-fence", "Set the rip fence to 300 mm and lock it.", "fence", ActionClick, ""),
			step("wear-ppe", "Put on safety glasses and hearing protection.", "eye-ear-ppe", ActionGrab, "eye-ear-ppe"),
			step("feed-stock", "Plug in, then feed the panel against the fence and finish the cut with the push stick.", "push-stick", ActionGrab, "push-stick"),
		},
		SafetyChecks: []SafetyCheck{
			{ID: "power-isolated", Description: "Saw unplugged while adjusting", Weight: 2},
			{ID: "guard-fitted", Description: "Riving knife and guard in place", Weight: 3},
			{ID: "eye-ear-ppe", Description: "Eye and hearing protection worn", Weight: 1},
			{ID: "push-stick", Description: "Hands kept clear of the blade with a push stick", Weight: 3},
		},
	}, 80),

	complete(Scene{
		ID:          "automotive-ev-high-voltage-disconnect",
		Title:       "EV high-voltage system disconnect",
		TradeIDs:    []string{"automotive"},
		Environment: "A service bay with a battery-electric vehicle on a lift at working height. The orange high-voltage cabling, the 12 V battery under the hood, the service disconnect behind the rear-seat access panel, and your Class 0 gloves and CAT III meter on the cart.",
		Objects: []SceneObject{
			box("vehicle", "Battery-electric vehicle", v3{0, 0.8, -2.2}, v3{1.8, 0.9, 3.6}, "#d8dde2"),
			box("hv-battery", "High-voltage battery pack", v3{0, 0.3, -2.2}, v3{1.5, 0.12, 2.4}, "#2f3640"),
			box("warning-sign", "HIGH VOLTAGE – DO NOT TOUCH sign", v3{-1.4, 1.0, -0.6}, v3{0.4, 0.3, 0.02}, safety),
			box("key-fob", "Key fob", v3{-0.5, 1.3, -1.2}, v3{0.04, 0.02, 0.07}, black),
			box("battery-12v", "12 V battery negative terminal", v3{0, 1.1, -0.55}, v3{0.25, 0.18, 0.18}, black),
			sph("hv-gloves", "Class 0 insulating gloves and leather protectors", v3{1.4, 0.95, -0.6}, 0.1, orange),
			box("service-disconnect", "Service disconnect plug (orange)", v3{0.4, 1.0, -2.6}, v3{0.1, 0.08, 0.14}, orange),
			box("meter", "CAT III 1000 V meter", v3{1.2, 0.95, -0.9}, v3{0.08, 0.16, 0.04}, safety),
			box("hv-terminals", "Inverter HV input terminals", v3{0, 0.9, -0.9}, v3{0.3, 0.08, 0.15}, orange),
		},
		Steps: []Step{
			step("secure-area", "Place the high-voltage warning sign at the vehicle.", "warning-sign", ActionGrab, "area-secured"),
			step("remove-fob", "Switch the vehicle off and move the key fob at least 5 m away.", "key-fob", ActionGrab, ""),
			step("disconnect-12v", "Disconnect the 12 V battery negative terminal.", "battery-12v", ActionClick, ""),
			step("wear-gloves", "Air-test your Class 0 gloves, then put them on with leather protectors.", "hv-gloves", ActionGrab, "insulating-gloves"),
			step("pull-disconnect", "Remove the service disconnect plug and keep it in your pocket.", "service-disconnect", ActionGrab, ""),
			step("verify-zero", "After the manufacturer's wait time, prove the CAT III meter on the 12 V battery, verify 0 V at the inverter HV terminals (across them and each to chassis), then prove the meter again.", "hv-terminals", ActionClick, "zero-voltage-verified"),
		},
		SafetyChecks: []SafetyCheck{
			{ID: "area-secured", Description: "High-voltage work area marked", Weight: 1},
			{ID: "insulating-gloves", Description: "Insulating gloves tested and worn before touching HV parts", Weight: 3},
			{ID: "zero-voltage-verified", Description: "Absence of voltage verified before work", Weight: 3},
		},
	}, 80),

	complete(Scene{
		ID:          "solar-wind-string-isolation",
		Title:       "Isolating a rooftop PV string at the combiner box",
		TradeIDs:    []string{"solar-wind"},
		Environment: "A commercial flat roof with a ground-mounted row of PV modules in full sun, the rapid-shutdown initiator by the roof hatch, a string inverter with its AC and DC disconnects, and a combiner box with fused string inputs.",
		Objects: []SceneObject{
			rotated(box("pv-array", "PV array", v3{0, 0.8, -3}, v3{3, 0.05, 1.6}, "#1b2f5a"), v3{-0.5, 0, 0}),
			box("rsd-initiator", "Rapid-shutdown initiator", v3{-1.8, 1.2, -1}, v3{0.2, 0.3, 0.1}, red),
			box("inverter", "String inverter", v3{1.6, 1.0, -1.6}, v3{0.5, 0.7, 0.2}, white),
			box("ac-disconnect", "AC disconnect", v3{1.6, 1.0, -1.2}, v3{0.2, 0.3, 0.1}, steel),
			box("dc-disconnect", "DC disconnect", v3{1.2, 1.0, -1.2}, v3{0.2, 0.3, 0.1}, steel),
			box("combiner", "Combiner box", v3{-0.6, 0.8, -1.4}, v3{0.5, 0.5, 0.2}, steel),
			cyl("clamp-meter", "DC clamp meter", v3{0.2, 0.6, -0.8}, 0.04, 0.2, safety),
			sph("pv-ppe", "Class 0 gloves and safety glasses", v3{0.5, 0.6, -0.8}, 0.1, orange),
		},
		Steps: []Step{
			step("wear-ppe", "Put on insulating gloves and safety glasses: PV conductors stay live in daylight.", "pv-ppe", ActionGrab, "pv-ppe"),
			step("rapid-shutdown", "Press the rapid-shutdown initiator.", "rsd-initiator", ActionClick, ""),
			step("open-ac", "Open the inverter's AC disconnect.", "ac-disconnect", ActionClick, ""),
			step("open-dc", "Open the DC disconnect.", "dc-disconnect", ActionClick, ""),
			step("measure-current", "Clamp each string conductor: zero amps before any fuse holder is opened.", "clamp-meter", ActionClick, "zero-current"),
			step("open-fuses", "Open the string fuse holders in the combiner box and lock the box.", "combiner", ActionClick, "combiner-locked"),
		},
		SafetyChecks: []SafetyCheck{
			{ID: "pv-ppe", Description: "Insulating PPE worn on energized DC equipment", Weight: 2},
			{ID: "zero-current", Description: "No current flowing before fuse holders are opened (no DC arc)", Weight: 3},
			{ID: "combiner-locked", Description: "Combiner box locked out", Weight: 2},
		},
	}, 80),

	complete(Scene{
		ID:          "elevator-pit-entry",
		Title:       "Safe entry into an elevator pit",
		TradeIDs:    []string{"elevator"},
		Environment: "The lowest landing of a traction elevator. The car is parked two floors up; the hoistway door opens with a lunar key onto the pit ladder, with the pit stop switch and light switch just inside the door jamb.",
		Objects: []SceneObject{
			box("hoistway-door", "Lowest-landing hoistway door", v3{0, 1.05, -2}, v3{1.0, 2.1, 0.05}, steel),
			box("barricade", "Hoistway barricade", v3{-1.3, 0.5, -1.3}, v3{1.2, 1.0, 0.05}, safety),
			box("lunar-key", "Hoistway door key", v3{1.2, 1.0, -1.0}, v3{0.02, 0.1, 0.02}, copper),
			box("pit-stop", "Pit stop switch", v3{0.6, 1.2, -2.1}, v3{0.08, 0.15, 0.06}, red),
			box("pit-light", "Pit light switch", v3{0.6, 0.95, -2.1}, v3{0.06, 0.1, 0.04}, white),
			box("ladder", "Pit ladder", v3{0.4, 0.6, -2.3}, v3{0.4, 1.6, 0.05}, safety),
			box("hall-button", "Hall call button", v3{0.8, 1.1, -1.98}, v3{0.06, 0.1, 0.02}, white),
		},
		Steps: []Step{
			step("place-barricade", "Set the barricade across the landing before opening the door.", "barricade", ActionGrab, "landing-barricaded"),
			step("open-door", "Open the hoistway door with the door key, just far enough to reach in.", "lunar-key", ActionGrab, ""),
			step("set-pit-stop", "From the landing, reach in and set the pit stop switch to STOP.", "pit-stop", ActionClick, "pit-stop-set"),
			step("test-stop", "Let the hoistway door close and lock, then press the hall call button: the car must not move. With the door closed, only the stop switch can be holding it.", "hall-button", ActionClick, "stop-verified"),
			step("block-door", "Open the hoistway door again with the key and block it open.", "lunar-key", ActionGrab, ""),
			step("light-on", "Switch on the pit light.", "pit-light", ActionClick, ""),
			step("climb-down", "Climb down the pit ladder with three points of contact.", "ladder", ActionGrab, ""),
		},
		SafetyChecks: []SafetyCheck{
			{ID: "landing-barricaded", Description: "Open hoistway guarded from the public", Weight: 2},
			{ID: "pit-stop-set", Description: "Pit stop switch set before entering the pit", Weight: 3},
			{ID: "stop-verified", Description: "Stop switch proven to hold the car", Weight: 2},
		},
	}, 80),

	complete(Scene{
		ID:          "heavy-equipment-walkaround",
		Title:       "Excavator pre-operation walk-around",
		TradeIDs:    []string{"heavy-equipment"},
		Environment: "A 20-tonne hydraulic excavator parked on level ground at the start of the shift, bucket on the ground. Walk around it, check its fluids and safety equipment, then mount it and get ready to travel.",
		Objects: []SceneObject{
			box("tracks", "Tracks and undercarriage", v3{0, 0.45, -3}, v3{2.8, 0.9, 3.2}, black),
			box("house", "Upper structure", v3{0, 1.5, -3}, v3{2.5, 1.2, 2.8}, safety),
			rotated(box("boom", "Boom and stick", v3{0, 2.2, -5}, v3{0.4, 0.4, 3}, safety), v3{-0.4, 0, 0}),
			cyl("oil-dipstick", "Engine oil dipstick", v3{1.3, 1.6, -3.6}, 0.01, 0.3, orange),
			cyl("hydraulic-glass", "Hydraulic tank sight glass", v3{1.3, 1.3, -2.6}, 0.05, 0.02, "#7cc7e8"),
			box("ground-leaks", "Ground under the machine", v3{0, 0.01, -1.3}, v3{2.8, 0.02, 0.6}, "#5a4a3a"),
			cyl("extinguisher", "Cab fire extinguisher", v3{-0.9, 1.9, -1.8}, 0.06, 0.35, red),
			cyl("grab-handle", "Cab grab handle", v3{-1.2, 1.4, -1.6}, 0.02, 0.6, steel),
			box("seat-belt", "Seat belt", v3{-0.8, 1.8, -2.0}, v3{0.3, 0.05, 0.05}, black),
			sph("horn", "Horn button", v3{-0.6, 2.0, -2.0}, 0.03, red),
		},
		Steps: []Step{
			step("check-tracks", "Check the tracks, rollers and pins for damage and loose hardware.", "tracks", ActionClick, ""),
			step("check-leaks", "Look under the machine for fresh oil, fuel or coolant leaks.", "ground-leaks", ActionClick, "leaks-checked"),
			step("check-oil", "Pull the dipstick: engine oil between the marks.", "oil-dipstick", ActionClick, ""),
			step("check-hydraulic", "Read the hydraulic level in the sight glass with the bucket down.", "hydraulic-glass", ActionClick, ""),
			step("check-extinguisher", "Check the cab extinguisher is charged and pinned.", "extinguisher", ActionClick, "extinguisher-checked"),
			step("mount", "Mount facing the machine with three points of contact on the grab handle.", "grab-handle", ActionGrab, "three-points"),
			step("buckle-up", "Fasten the seat belt.", "seat-belt", ActionGrab, "seat-belt"),
			step("sound-horn", "Sound the horn before moving.", "horn", ActionClick, "horn-sounded"),
		},
		SafetyChecks: []SafetyCheck{
			{ID: "leaks-checked", Description: "Leaks looked for before start-up", Weight: 1},
			{ID: "extinguisher-checked", Description: "Fire extinguisher checked", Weight: 1},
			{ID: "three-points", Description: "Three points of contact while mounting", Weight: 2},
			{ID: "seat-belt", Description: "Seat belt fastened before operating", Weight: 3},
			{ID: "horn-sounded", Description: "Horn sounded to warn ground workers", Weight: 2},
		},
	}, 75),

	complete(Scene{
		ID:          "manufacturing-cnc-setup",
		Title:       "CNC mill setup with a guard-interlock check",
		TradeIDs:    []string{"manufacturing"},
		Environment: "A vertical machining centre in a production cell. A 6061 aluminium block waits to be clamped in the vise; the enclosure door has an interlock switch, and the chip brush and vise handle are on the machine's tray.",
		Objects: []SceneObject{
			box("enclosure", "Machining centre enclosure", v3{0, 1.1, -2.2}, v3{1.8, 2.2, 1.4}, "#dfe3e6"),
			box("door", "Enclosure door", v3{0, 1.2, -1.48}, v3{0.9, 1.0, 0.04}, "#9fc4dd"),
			box("interlock", "Door interlock switch", v3{0.5, 1.65, -1.46}, v3{0.05, 0.08, 0.04}, safety),
			box("vise", "Machine vise", v3{0, 0.95, -2.0}, v3{0.3, 0.12, 0.2}, steel),
			box("workpiece", "Aluminium block", v3{-0.7, 0.95, -1.2}, v3{0.12, 0.05, 0.08}, "#c3c7cb"),
			cyl("vise-handle", "Vise handle", v3{0.2, 0.95, -1.95}, 0.015, 0.25, black),
			box("cycle-start", "Cycle start button", v3{1.1, 1.3, -1.5}, v3{0.05, 0.05, 0.03}, green),
			box("chip-brush", "Chip brush", v3{-0.9, 0.95, -1.3}, v3{0.03, 0.03, 0.25}, wood),
			sph("cnc-glasses", "Safety glasses", v3{-1.0, 1.0, -1.0}, 0.07, "#7cc7e8"),
		},
		Steps: []Step{
			step("wear-glasses", "Put on safety glasses.", "cnc-glasses", ActionGrab, "cnc-eye-protection"),
			step("test-interlock", "Open the door with the spindle commanded on: it must not start.", "interlock", ActionClick, "interlock-tested"),
			step("clamp-part", "Clamp the block in the vise on parallels.", "workpiece", ActionGrab, ""),
			step("remove-handle", "Take the handle off the vise before closing the door.", "vise-handle", ActionGrab, "handle-removed"),
			step("close-door", "Close the enclosure door.", "door", ActionClick, ""),
			step("start-cycle", "Press cycle start with your hand on feed hold for the first cut.", "cycle-start", ActionClick, ""),
			step("clear-chips", "When the spindle has stopped, clear chips with the brush, never by hand.", "chip-brush", ActionGrab, "chips-by-brush"),
		},
		SafetyChecks: []SafetyCheck{
			{ID: "cnc-eye-protection", Description: "Eye protection worn in the cell", Weight: 1},
			{ID: "interlock-tested", Description: "Guard interlock proven before running", Weight: 3},
			{ID: "handle-removed", Description: "No loose tooling left in the work envelope", Weight: 2},
			{ID: "chips-by-brush", Description: "Chips cleared with a brush after the spindle stopped", Weight: 2},
		},
	}, 75),

	complete(Scene{
		ID:          DefaultSceneID,
		Title:       "Job-site safety orientation",
		TradeIDs:    []string{"general"},
		Environment: "The entrance of an active job site: a PPE station, a wet spill on the walkway, the first-aid station, a fire extinguisher and the marked emergency exit.",
		Objects: []SceneObject{
			box("ppe-station", "PPE station", v3{-1.2, 0.9, -1.5}, v3{0.9, 1.8, 0.4}, orange),
			sph("site-hard-hat", "Hard hat", v3{-1.4, 1.3, -1.25}, 0.13, white),
			box("hi-vis", "High-visibility vest", v3{-1.0, 1.1, -1.25}, v3{0.3, 0.4, 0.03}, "#c6f000"),
			sph("site-glasses", "Safety glasses", v3{-1.2, 0.8, -1.25}, 0.07, "#7cc7e8"),
			cyl("spill", "Wet spill on the walkway", v3{0.6, 0.005, -1.2}, 0.4, 0.01, "#5b8fb9"),
			cone("wet-cone", "Wet-floor cone", v3{1.5, 0.3, -0.6}, 0.15, 0.6, safety),
			box("first-aid", "First-aid station", v3{1.6, 1.3, -2.2}, v3{0.4, 0.4, 0.15}, green),
			cyl("site-extinguisher", "Fire extinguisher", v3{2.0, 0.3, -2.2}, 0.08, 0.5, red),
			box("exit-sign", "Emergency exit", v3{0, 2.2, -3}, v3{0.6, 0.25, 0.05}, green),
		},
		Steps: []Step{
			step("wear-hard-hat", "Put on a hard hat.", "site-hard-hat", ActionGrab, "head-protection"),
			step("wear-glasses", "Put on safety glasses.", "site-glasses", ActionGrab, "eye-protection"),
			step("wear-vest", "Put on a high-visibility vest.", "hi-vis", ActionGrab, "visibility"),
			step("mark-spill", "Place the wet-floor cone at the spill.", "wet-cone", ActionGrab, "hazard-marked"),
			step("find-first-aid", "Locate the first-aid station.", "first-aid", ActionClick, ""),
			step("find-extinguisher", "Locate the nearest fire extinguisher.", "site-extinguisher", ActionClick, ""),
			step("find-exit", "Locate the emergency exit.", "exit-sign", ActionClick, ""),
		},
		SafetyChecks: []SafetyCheck{
			{ID: "head-protection", Description: "Hard hat worn on site", Weight: 2},
			{ID: "eye-protection", Description: "Eye protection worn on site", Weight: 1},
			{ID: "visibility", Description: "High-visibility clothing worn near traffic", Weight: 1},
			{ID: "hazard-marked", Description: "Slip hazard marked", Weight: 2},
		},
	}, 70),
}
