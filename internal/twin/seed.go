package twin

import "time"

// TelemetryTopic is the MQTT topic a twin's readings are published on.
func TelemetryTopic(equipmentID string) string {
	return "journeyman/equipment/" + equipmentID + "/telemetry"
}

// TestTopic is the one MQTT topic a twin's Test Protocol publishes to:
// beside its telemetry topic, never on it, so a test never becomes a
// reading.
func TestTopic(equipmentID string) string {
	return "journeyman/equipment/" + equipmentID + "/test"
}

func day(s string) time.Time {
	t, err := time.Parse("2006-01-02", s)
	if err != nil {
		panic(err)
	}
	return t
}

func readings(t, p, vib, cur, volt, rpm, eff float64) SensorData {
	d := SensorData{}
	for i, v := range []float64{t, p, vib, cur, volt, rpm, eff} {
		d[Sensors[i].Key] = Reading{Value: v, Unit: Sensors[i].Unit}
	}
	return d
}

func modbusParams(host string, unit int, registers int) map[string]any {
	return map[string]any{
		"host": host, "port": 502, "unitId": unit, "timeoutMs": 1000,
		"functionCode": 3, "startAddress": 0, "registerCount": registers,
		"byteOrder": "big-endian", "wordOrder": "high word first",
		"registerMap": "holding registers 0-13: the seven readings as float32 (temperature, pressure, vibration, current, voltage, rpm, efficiency); input registers 0-5: status, alert level, operating hours (uint32), sync errors",
	}
}

func opcuaParams(host string, id string) map[string]any {
	return map[string]any{
		"endpointUrl": "opc.tcp://" + host + ":4840", "securityPolicy": "None", "securityMode": "None",
		"namespaceUri": "urn:journeyman:" + id,
		"nodeIds": []any{"ns=1;s=Temperature", "ns=1;s=Pressure", "ns=1;s=Vibration", "ns=1;s=Current",
			"ns=1;s=Voltage", "ns=1;s=Rpm", "ns=1;s=Efficiency", "ns=1;s=Status", "ns=1;s=OperatingHours"},
		"publishingIntervalMs": 1000,
	}
}

func mqttParams(id string) map[string]any {
	return map[string]any{
		"brokerUrl": "tcp://127.0.0.1:1884", "topic": TelemetryTopic(id), "qos": 1,
		"clientId": "twin-" + id, "keepAliveSeconds": 30, "payloadFormat": "application/json",
	}
}

func enipParams(host string) map[string]any {
	return map[string]any{
		"host": host, "port": 44818, "slot": 0, "rpiMs": 100,
		"assemblies": []any{100, 101}, "assembly": 100,
		"assemblyMap": "instance 100: the seven readings as REAL; instance 101: status, alert level, operating hours, sync errors as DINT",
	}
}

// SeedEquipment is the fleet a new database starts with: one machine for
// each trade that keeps it running, speaking the four protocols between them.
func SeedEquipment() []Equipment {
	updated := time.Date(2026, 11, 20, 8, 0, 0, 0, time.UTC)
	list := []Equipment{
		{
			ID: "pnl-lp2a", Name: "Main Distribution Panelboard LP-2A", Manufacturer: "Square D", Model: "NF 480Y/277 V 225 A with PowerLogic PM5560",
			SerialNumber: "SQD-NF-2231-0457", Type: "panelboard", Status: StatusOperational, SyncStatus: SyncSynced,
			CommunicationProtocol: ProtocolModbusTCP, ProtocolVersion: "Modbus Application Protocol 1.1b3",
			ConnectionParameters: modbusParams("10.20.1.15", 1, 14), OperatingHours: 8760,
			SensorData:      readings(34.5, 0, 0.1, 142, 479.6, 0, 99.1),
			LastMaintenance: day("2026-06-10"), NextMaintenanceDate: day("2027-06-10"),
			MaintenanceSchedule: MaintenanceSchedule{IntervalDays: 365, Tasks: []MaintenanceTask{
				{"Infrared scan of breakers, lugs and bus under load", "annual", "electrical"},
				{"Torque check of terminations to the manufacturer's values", "annual", "electrical"},
				{"Exercise breakers and verify the panel schedule", "annual", "electrical"},
			}},
			SupportedTradeTypes: []string{"electrical"},
		},
		{
			ID: "xfmr-t1", Name: "Pad-Mount Transformer T-1", Manufacturer: "Eaton", Model: "500 kVA 12.47 kV–480Y/277 V liquid-filled",
			SerialNumber: "ETN-PMT-500-88213", Type: "transformer", Status: StatusOperational, SyncStatus: SyncSynced,
			CommunicationProtocol: ProtocolOPCUA, ProtocolVersion: "OPC UA 1.04 (UA Binary, opc.tcp)",
			ConnectionParameters: opcuaParams("10.20.1.40", "xfmr-t1"), OperatingHours: 9410,
			SensorData:      readings(64.2, 101.3, 0.4, 318, 480.2, 0, 98.4),
			LastMaintenance: day("2026-04-22"), NextMaintenanceDate: day("2027-04-22"),
			MaintenanceSchedule: MaintenanceSchedule{IntervalDays: 365, Tasks: []MaintenanceTask{
				{"Dissolved gas analysis of the insulating oil", "annual", "electrical"},
				{"Check oil level, pressure-vacuum gauge and top-oil thermometer", "quarterly", "electrical"},
				{"Insulation resistance and turns-ratio tests", "triennial", "electrical"},
			}},
			SupportedTradeTypes: []string{"electrical", "lineworker"},
		},
		{
			ID: "rtu-3", Name: "Rooftop Unit RTU-3", Manufacturer: "Carrier", Model: "WeatherMaker 48FC 12.5-ton",
			SerialNumber: "CAR-48FC-1522-0093", Type: "rooftop-hvac-unit", Status: StatusMaintenance, SyncStatus: SyncSynced,
			CommunicationProtocol: ProtocolMQTT, ProtocolVersion: "MQTT 3.1.1",
			ConnectionParameters: mqttParams("rtu-3"), OperatingHours: 6215,
			SensorData:      readings(13.8, 1080, 2.1, 36.4, 460.5, 1150, 86.5),
			LastMaintenance: day("2026-08-01"), NextMaintenanceDate: day("2027-02-01"),
			MaintenanceSchedule: MaintenanceSchedule{IntervalDays: 182, Tasks: []MaintenanceTask{
				{"Replace filters and check the economizer damper", "quarterly", "hvac"},
				{"Clean condenser coil and check refrigerant charge (superheat/subcooling)", "semi-annual", "hvac"},
				{"Inspect belts, bearings and the condensate drain", "semi-annual", "hvac"},
			}},
			SupportedTradeTypes: []string{"hvac", "electrical"},
		},
		{
			ID: "chlr-1", Name: "Centrifugal Chiller CH-1", Manufacturer: "Trane", Model: "CenTraVac CVHE 500-ton",
			SerialNumber: "TRN-CVHE-500-11876", Type: "chiller", Status: StatusOperational, SyncStatus: SyncSynced,
			CommunicationProtocol: ProtocolModbusTCP, ProtocolVersion: "Modbus Application Protocol 1.1b3",
			ConnectionParameters: modbusParams("10.20.2.11", 2, 14), OperatingHours: 7342,
			SensorData:      readings(6.7, 640, 2.4, 212, 460.1, 3550, 89.6),
			LastMaintenance: day("2026-05-15"), NextMaintenanceDate: day("2027-05-15"),
			MaintenanceSchedule: MaintenanceSchedule{IntervalDays: 365, Tasks: []MaintenanceTask{
				{"Oil and filter analysis, purge unit check", "annual", "hvac"},
				{"Brush condenser tubes and eddy-current test", "annual", "hvac"},
				{"Log approach temperatures and refrigerant pressures", "monthly", "hvac"},
			}},
			SupportedTradeTypes: []string{"hvac", "plumbing", "electrical"},
		},
		{
			ID: "bp-2", Name: "Domestic Water Booster Pump BP-2", Manufacturer: "Grundfos", Model: "Hydro MPC-E CRE 15-3",
			SerialNumber: "GRF-MPCE-15-40291", Type: "booster-pump", Status: StatusOperational, SyncStatus: SyncSynced,
			CommunicationProtocol: ProtocolModbusTCP, ProtocolVersion: "Modbus Application Protocol 1.1b3",
			ConnectionParameters: modbusParams("10.20.2.30", 3, 14), OperatingHours: 4870,
			SensorData:      readings(46.3, 552, 5.2, 41.8, 459.7, 1765, 78.1),
			LastMaintenance: day("2026-07-07"), NextMaintenanceDate: day("2027-01-07"),
			MaintenanceSchedule: MaintenanceSchedule{IntervalDays: 182, Tasks: []MaintenanceTask{
				{"Check mechanical seals for weeping and the pre-charge of the diaphragm tank", "semi-annual", "plumbing"},
				{"Measure vibration at motor and pump bearings", "quarterly", "plumbing"},
				{"Verify VFD parameters and motor insulation resistance", "annual", "electrical"},
			}},
			SupportedTradeTypes: []string{"plumbing", "electrical"},
		},
		{
			ID: "weld-cell-4", Name: "Robotic Weld Cell 4 Power Source", Manufacturer: "Lincoln Electric", Model: "Power Wave S500",
			SerialNumber: "LIN-PWS500-U1180342", Type: "welding-power-source", Status: StatusOperational, SyncStatus: SyncSynced,
			CommunicationProtocol: ProtocolEtherNetIP, ProtocolVersion: "EtherNet/IP (CIP Edition 3.x), explicit messaging",
			ConnectionParameters: enipParams("10.20.4.14"), OperatingHours: 3120,
			SensorData:      readings(48.9, 124, 0.6, 185, 24.6, 0, 86.2),
			LastMaintenance: day("2026-09-02"), NextMaintenanceDate: day("2026-12-02"),
			MaintenanceSchedule: MaintenanceSchedule{IntervalDays: 90, Tasks: []MaintenanceTask{
				{"Blow out the case and check fan operation", "quarterly", "welding"},
				{"Inspect work and electrode leads, ground clamp and gas hoses", "monthly", "welding"},
				{"Calibrate voltage and current meters", "annual", "welding"},
			}},
			SupportedTradeTypes: []string{"welding", "manufacturing"},
		},
		{
			ID: "inv-pv-7", Name: "String Inverter INV-7 (Rooftop PV)", Manufacturer: "SMA", Model: "Sunny Tripower CORE1 62-US",
			SerialNumber: "SMA-STP62-3009871", Type: "solar-inverter", Status: StatusOperational, SyncStatus: SyncSynced,
			CommunicationProtocol: ProtocolMQTT, ProtocolVersion: "MQTT 3.1.1",
			ConnectionParameters: mqttParams("inv-pv-7"), OperatingHours: 5630,
			SensorData:      readings(47.1, 0, 0.2, 74.5, 481.3, 0, 97.8),
			LastMaintenance: day("2026-03-30"), NextMaintenanceDate: day("2027-03-30"),
			MaintenanceSchedule: MaintenanceSchedule{IntervalDays: 365, Tasks: []MaintenanceTask{
				{"Clean heatsink fans and check the DC disconnect", "annual", "solar-wind"},
				{"Measure string open-circuit voltage and insulation resistance", "annual", "solar-wind"},
				{"Verify arc-fault and rapid-shutdown function", "annual", "electrical"},
			}},
			SupportedTradeTypes: []string{"solar-wind", "electrical"},
		},
		{
			ID: "wtg-12", Name: "Wind Turbine WTG-12 Nacelle", Manufacturer: "Vestas", Model: "V110-2.0 MW",
			SerialNumber: "VES-V110-212045", Type: "wind-turbine-nacelle", Status: StatusOperational, SyncStatus: SyncSyncing,
			CommunicationProtocol: ProtocolOPCUA, ProtocolVersion: "OPC UA 1.04 (UA Binary, opc.tcp)",
			ConnectionParameters: opcuaParams("10.30.12.5", "wtg-12"), OperatingHours: 9850,
			SensorData:      readings(62.4, 210, 3.1, 860, 690, 1512, 91.2),
			LastMaintenance: day("2026-05-02"), NextMaintenanceDate: day("2026-11-02"),
			MaintenanceSchedule: MaintenanceSchedule{IntervalDays: 182, Tasks: []MaintenanceTask{
				{"Gearbox oil sample and filter change", "semi-annual", "solar-wind"},
				{"Torque check of blade and tower flange bolts", "annual", "solar-wind"},
				{"Inspect yaw and pitch systems, brake pads and accumulator pre-charge", "semi-annual", "solar-wind"},
			}},
			SupportedTradeTypes: []string{"solar-wind", "electrical"},
		},
		{
			ID: "elev-2", Name: "Traction Elevator 2 Drive", Manufacturer: "KONE", Model: "V3F25 regenerative drive",
			SerialNumber: "KON-V3F25-77120", Type: "elevator-drive", Status: StatusOffline, SyncStatus: SyncDisconnected, SyncErrorCount: 5,
			CommunicationProtocol: ProtocolEtherNetIP, ProtocolVersion: "EtherNet/IP (CIP Edition 3.x), explicit messaging",
			ConnectionParameters: enipParams("10.20.5.22"), OperatingHours: 7011,
			SensorData:      readings(41.5, 0, 1.6, 38.2, 460.9, 1420, 91.4),
			LastMaintenance: day("2026-08-18"), NextMaintenanceDate: day("2026-11-18"),
			MaintenanceSchedule: MaintenanceSchedule{IntervalDays: 90, Tasks: []MaintenanceTask{
				{"Test the overspeed governor and safeties", "annual", "elevator"},
				{"Inspect hoist ropes and sheave grooves", "quarterly", "elevator"},
				{"Check brake lining and drive fault log", "quarterly", "elevator"},
			}},
			SupportedTradeTypes: []string{"elevator", "electrical"},
		},
	}
	for i := range list {
		list[i].LastUpdated = updated
		list[i].AlertLevel = SensorAlertLevel(list[i])
	}
	return list
}
