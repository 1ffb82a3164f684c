package server

// Digital twin API (seed 001 §7). JSON shapes, exactly as sent:
//
// Equipment (GET /api/digital-twin/equipment and GET /api/digital-twin-equipment
// answer Equipment[] in fleet order):
//
//	{"id": "chlr-1", "name": "Centrifugal Chiller CH-1", "manufacturer": "Trane",
//	 "model": "CenTraVac CVHE 500-ton", "serialNumber": "TRN-CVHE-500-11876",
//	 "type": "chiller",                  // panelboard, transformer, rooftop-hvac-unit, chiller, booster-pump,
//	                                     // welding-power-source, solar-inverter, wind-turbine-nacelle, elevator-drive
//	 "status": "operational",            // operational | maintenance | offline | error
//	 "alertLevel": "normal",             // normal | warning | critical | emergency
//	 "communicationProtocol": "Modbus TCP", // Modbus TCP | OPC-UA | MQTT | EtherNet/IP
//	 "protocolVersion": "Modbus Application Protocol 1.1b3",
//	 "connectionParameters": {...},      // per protocol: Modbus {host, port, unitId, functionCode, startAddress,
//	                                     // registerCount, …}; OPC-UA {endpointUrl, nodeIds[], …};
//	                                     // MQTT {brokerUrl, topic, testTopic, qos, …}; EtherNet/IP {host, port, assemblies[], assembly, …}
//	                                     // host/port, endpointUrl and brokerUrl are where this process's simulated
//	                                     // device (or MQTT broker) really listens, not the seed's plant addresses
//	 "syncStatus": "synced",             // synced | syncing | error | disconnected
//	 "syncErrorCount": 0,
//	 "operatingHours": 7342,
//	 "sensorData": {"temperature": {"value": 6.7, "unit": "°C"}, "pressure": {"value": 640, "unit": "kPa"}, …},
//	                                     // keys in canonical order: temperature °C, pressure kPa, vibration mm/s,
//	                                     // current A, voltage V, rpm rpm, efficiency %
//	 "lastUpdated": "2026-11-20T08:00:00Z", "lastMaintenance": "2026-05-15T00:00:00Z",
//	 "nextMaintenanceDate": "2027-05-15T00:00:00Z",
//	 "maintenanceSchedule": {"intervalDays": 365, "tasks": [{"task": "…", "frequency": "annual", "trade": "hvac"}]},
//	 "supportedTradeTypes": ["hvac", "plumbing", "electrical"],
//	 "organisationId": "…",              // whose staff added it and alone manage it; absent for the seeded
//	                                     // fleet, which every organisation's staff drive and none manage
//	 "realDevice": false}                // a real device serves it; then its "connection" (twin_define.go)
//	                                     // and the device's address in connectionParameters go only to the
//	                                     // staff who manage it: anyone else, and every equipment_update,
//	                                     // get "connection": null and {device, intervalMs, timeoutMs, points}
//
// GET /api/digital-twin/equipment-alerts → Alert[], most severe first, then newest:
//
//	{"id": "bp-2:vibration:above", "equipmentId": "bp-2", "equipmentName": "…", "equipmentType": "booster-pump",
//	 "level": "warning",                 // warning | critical | emergency
//	 "source": "sensor",                 // sensor | status | sync | maintenance
//	 "sensor": "vibration",              // sensor alerts only (omitted otherwise)
//	 "reading": 5.2, "threshold": 4.5,   // numbers, or null for status alerts
//	 "comparison": "above",              // above | below (omitted for status alerts)
//	 "unit": "mm/s",                     // "" for status alerts; "errors" for sync; "days overdue" for maintenance
//	 "message": "…", "timestamp": "2026-11-20T08:00:00Z"}
//
// GET /api/digital-twin/equipment/{id}/data-streams → DataStream[] in sensor order:
//
//	{"id": "chlr-1:temperature", "equipmentId": "chlr-1", "streamName": "Centrifugal Chiller CH-1 Temperature",
//	 "sensor": "temperature", "value": 6.9, "previousValue": 6.7 /* or null */, "unit": "°C",
//	 "qualityIndicator": "good",         // good | uncertain (stale on arrival) | bad (sensor saturated)
//	 "timestamp": "…", "history": [{"value": 6.7, "qualityIndicator": "good", "timestamp": "…"}, …]}
//	                                     // history oldest first, at most 120 points (twin.StreamRetention)
//
// POST /api/digital-twin/equipment/{id}/sensor-data
//
//	body: {"sensorData": {"temperature": 21.5, "pressure": 101.3, "vibration": 2.1, "current": 12, "voltage": 480,
//	       "rpm": 1750, "efficiency": 91, "timestamp": "2026-11-23T04:00:00Z"}}
//	       each reading a number or {"value": number, "unit": "°C"}; any subset of the seven; timestamp optional
//	       (RFC 3339; default the server's now; refused when more than 5 min ahead of or 24 h behind the server's clock)
//	→ 200 {"equipment": Equipment, "alerts": Alert[]}   (the twin after the update)
//	→ 400 {"message": "sensorData.rpm = -5 rpm is outside the physical range 0 to 100000 rpm"} and the like
//
// POST /api/digital-twin/equipment/{id}/simulate-communication
//
//	body: {"protocol": "Modbus TCP" | "OPC-UA" | "MQTT" | "EtherNet/IP" (spelling is loose: "modbus", "opcua",
//	       "ethernetip", "enip" …; it must be the twin's own protocol), "data": {…} (optional; defaults shown)}
//	  Modbus:      {"functionCode": 3, "startAddress": 0, "registerCount": 14, "unitId": 1}
//	               (another unitId is answered by the device with exception 0x0B, shown as
//	               result {"exception": 11, "name": "Gateway Target Device Failed to Respond"})
//	               fc 1 coils 0-1, fc 2 discrete inputs 0-3, fc 3 holding registers 0-13 (7 float32),
//	               fc 4 input registers 0-4 (status, alert, hours hi/lo, sync errors)
//	  OPC-UA:      {"nodeId": "ns=1;s=Temperature"} (also Pressure, Vibration, Current, Voltage, Rpm, Efficiency,
//	               Status, AlertLevel, OperatingHours, SyncErrorCount)
//	  MQTT:        {"topic": "journeyman/equipment/{id}/test", "qos": 1, "payload": "<the latest readings as JSON>"}
//	               the twin's test topic is the only one allowed (400 naming data.topic otherwise): a test
//	               never publishes to a telemetry topic, so it never becomes a reading
//	  EtherNet/IP: {"assembly": 100} (100 readings as REAL, 101 state as DINT) or {"tag": "Temperature"}
//	→ 200 {"protocol": "modbus" | "opcua" | "mqtt" | "ethernetip", "equipmentId": "chlr-1",
//	       "device": "127.0.0.1:40123", "client": "github.com/simonvetter/modbus",
//	       "request":  Frame, "response": Frame | null (MQTT QoS 0), "frames": Frame[] (the whole conversation),
//	       "result": …, "durationMs": 1.8, "timestamp": "…"}
//	  Frame: {"direction": "request" | "response", "length": 12, "hex": "000100000006010300000004",
//	          "summary": "Read Holding Registers: 4 from address 0", "fields": [{"name": "Transaction ID", "value": "1"}, …]}
//	  result: Modbus [{"address": 0, "name": "temperature (float32, registers 0–1)", "raw": "0x40d6", "value": 6.7, "unit": "°C"}, …];
//	          OPC-UA {"nodeId", "value", "dataType", "statusCode", "sourceTimestamp", "serverTimestamp"};
//	          MQTT {"topic", "qos", "payload", "broker", "acknowledged"};
//	          EtherNet/IP {"service", "path", "generalStatus", "values": [{"name", "type", "value", "unit"}]}
//	→ 400 naming the field and the valid range, e.g. "data.registerCount 200 must be 1 to 125 for function code 3"
//
// Unknown equipment → 404 {"message": "equipment \"x\" does not exist"} on every {id} route.
// Another organisation's twin → 403 {"message": "… belongs to another organisation: …"} on every
// {id} route but data-streams; a seeded twin → 403 on PUT, DELETE and mqtt-credentials.

import (
	"encoding/json"
	"net/http"
	"strings"

	"journeyman/internal/apperr"
	"journeyman/internal/identity"
	"journeyman/internal/telemetry"
	"journeyman/internal/twin"
)

// maxEquipmentID bounds the {id} path value before any lookup.
const maxEquipmentID = 64

func equipmentID(r *http.Request) (string, error) {
	id := r.PathValue("id")
	if id == "" || len(id) > maxEquipmentID || strings.ContainsAny(id, " /") {
		return "", apperr.NotFound("equipment %q does not exist", truncateID(id))
	}
	return id, nil
}

func truncateID(id string) string {
	if len(id) > maxEquipmentID {
		return id[:maxEquipmentID] + "…"
	}
	return id
}

// twinUse is what a route does with a twin: drive it (readings, protocol
// tests) or manage it (redefine, retire, hand out its device's login).
type twinUse int

const (
	driveTwin twinUse = iota
	manageTwin
)

// twinScope lets a caller drive or manage the twin in the path. A twin an
// organisation's staff added is theirs alone. The seeded fleet belongs to
// no organisation: every organisation trains on it, so any staff drive it
// and none redefine or retire it, which would change it for all.
func (s *Server) twinScope(use twinUse) func(*http.Request, identity.Caller) error {
	return func(r *http.Request, c identity.Caller) error {
		id, err := equipmentID(r)
		if err != nil {
			return err
		}
		eq, err := s.store.GetEquipment(r.Context(), id)
		switch {
		case err != nil:
			return err
		case eq.OrganisationID == "" && use == manageTwin:
			return apperr.Forbidden("%s is shared demo equipment every organisation trains on: no one may change or retire it, or log a device in as it; add your own equipment instead", eq.Name)
		case eq.OrganisationID != "" && eq.OrganisationID != c.OrgID:
			return apperr.Forbidden("%s belongs to another organisation: only its instructors and admins may use it", eq.Name)
		}
		return nil
	}
}

func (s *Server) handleListEquipment(w http.ResponseWriter, r *http.Request) {
	list, err := s.store.ListEquipment(r.Context())
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	c := caller(r)
	for i := range list {
		list[i] = s.presentTo(c, list[i])
	}
	writeJSON(w, http.StatusOK, list)
}

func (s *Server) handleEquipmentAlerts(w http.ResponseWriter, r *http.Request) {
	list, err := s.store.ListEquipment(r.Context())
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	now := s.store.Now()
	alerts := []twin.Alert{}
	for _, eq := range list {
		alerts = append(alerts, twin.Alerts(eq, now)...)
	}
	twin.SortAlerts(alerts)
	writeJSON(w, http.StatusOK, alerts)
}

func (s *Server) handleDataStreams(w http.ResponseWriter, r *http.Request) {
	id, err := equipmentID(r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	streams, err := s.store.ListDataStreams(r.Context(), id)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, streams)
}

type sensorDataRequest struct {
	SensorData json.RawMessage `json:"sensorData"`
}

func (s *Server) handleSensorData(w http.ResponseWriter, r *http.Request) {
	id, err := equipmentID(r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	var req sensorDataRequest
	if err := readJSON(w, r, &req); err != nil {
		s.writeError(w, r, err)
		return
	}
	if len(req.SensorData) == 0 || string(req.SensorData) == "null" {
		s.writeError(w, r, apperr.Invalid("sensorData is required: an object of readings such as {\"temperature\": 21.5}"))
		return
	}
	now := s.store.Now()
	u, err := twin.ParseSensorData(req.SensorData, now)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	u.EquipmentID = id
	eq, err := s.ingest.Submit(r.Context(), u)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, equipmentUpdate(s.presentTo(caller(r), eq), now))
}

// allowExchange takes one of the protocol exchanges the server makes a
// second for Test Protocol and connection tests together.
func (s *Server) allowExchange() error {
	if !s.exchangeLimit.Allow() {
		return apperr.Errorf(apperr.ERATELIMIT, "too many protocol exchanges; at most %g a second", float64(s.exchangeLimit.Limit()))
	}
	return nil
}

type simulateRequest struct {
	Protocol string          `json:"protocol"`
	Data     json.RawMessage `json:"data"`
}

func (s *Server) handleSimulateCommunication(w http.ResponseWriter, r *http.Request) {
	id, err := equipmentID(r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	var req simulateRequest
	if err := readJSON(w, r, &req); err != nil {
		s.writeError(w, r, err)
		return
	}
	if strings.TrimSpace(req.Protocol) == "" {
		s.writeError(w, r, apperr.Invalid("protocol is required: one of Modbus TCP, OPC-UA, MQTT, EtherNet/IP"))
		return
	}
	if err := s.allowExchange(); err != nil {
		s.writeError(w, r, err)
		return
	}
	eq, err := s.store.GetEquipment(r.Context(), id)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	x, err := s.fleet.Exchange(r.Context(), eq, req.Protocol, req.Data)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, x)
}

// handleMQTTCredentials answers a twin's device login to the embedded
// broker, for staff to set up the device.
func (s *Server) handleMQTTCredentials(w http.ResponseWriter, r *http.Request) {
	id, err := equipmentID(r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	switch {
	case s.mqtt.External:
		s.writeError(w, r, apperr.Conflict("MQTT credentials are managed by the external broker at %s, not by this server", s.mqtt.URL))
		return
	case s.mqtt.URL == "" || s.deviceSecret == nil:
		s.writeError(w, r, apperr.Conflict("this server runs no MQTT broker"))
		return
	}
	writeJSON(w, http.StatusOK, telemetry.NewDeviceCredentials(s.mqtt.URL, s.deviceSecret, id))
}
