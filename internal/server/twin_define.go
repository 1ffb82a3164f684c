package server

// Twins as data instructors and admins manage (staff on every route; a
// twin belongs to the organisation whose staff created it, see twinScope):
//
// POST /api/digital-twin/equipment      body: Definition → 201 Equipment (a new id)
// PUT  /api/digital-twin/equipment/{id} body: Definition → 200 Equipment
//
//	Definition: {"name", "manufacturer", "model", "serialNumber", "type" (lower-case-hyphenated),
//	 "supportedTradeTypes": ["plumbing"], "communicationProtocol": "Modbus TCP" | "OPC-UA" | "EtherNet/IP" | "MQTT",
//	 "maintenanceSchedule": {"intervalDays": 90, "tasks": [{"task", "frequency", "trade"}]},
//	 "connection": null (the demo device serves the twin) | Connection (twin.Connection: address, unitId,
//	   securityPolicy, securityMode, username, password (write-only: empty keeps the stored one), cipPath,
//	   topic, intervalMs, timeoutMs, points [{sensor, register, registerType, dataType, wordOrder, nodeId,
//	   tag, field, scale, offset}]),
//	 "writableSensors": ["temperature"] (OPC-UA demo devices only)}
//	Equipment answers carry "connection" without its password, with "hasPassword".
//	→ 400 naming the field: "connection.points[1].register must be from 0 to 65534"
//
// DELETE /api/digital-twin/equipment/{id} → 204: the twin is retired; it
// leaves every list and path, its history stays.

import (
	"net/http"

	"journeyman/internal/catalog"
	"journeyman/internal/identity"
	"journeyman/internal/twin"
)

// tradeIDs are the trades a twin may support.
var tradeIDs = func() []string {
	var ids []string
	for _, t := range catalog.Trades() {
		ids = append(ids, t.ID)
	}
	return ids
}()

func readDefinition(w http.ResponseWriter, r *http.Request) (twin.Definition, error) {
	var d twin.Definition
	if err := readJSON(w, r, &d); err != nil {
		return d, err
	}
	d.Normalize()
	return d, d.Validate(tradeIDs)
}

func (s *Server) handleCreateEquipment(w http.ResponseWriter, r *http.Request) {
	d, err := readDefinition(w, r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	eq := twin.Define(twin.Equipment{}, d, s.store.Now())
	eq.ID = twin.NewID(d.Name)
	eq.OrganisationID = caller(r).OrgID
	if err := s.store.CreateEquipment(r.Context(), eq); err != nil {
		s.writeError(w, r, err)
		return
	}
	s.defined(r, eq)
	writeJSON(w, http.StatusCreated, s.present(eq))
}

func (s *Server) handleDefineEquipment(w http.ResponseWriter, r *http.Request) {
	id, err := equipmentID(r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	d, err := readDefinition(w, r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	eq, err := s.store.DefineEquipment(r.Context(), id, d, s.store.Now())
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	s.defined(r, eq)
	writeJSON(w, http.StatusOK, s.present(eq))
}

func (s *Server) handleRetireEquipment(w http.ResponseWriter, r *http.Request) {
	id, err := equipmentID(r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	if err := s.store.RetireEquipment(r.Context(), id, s.store.Now()); err != nil {
		s.writeError(w, r, err)
		return
	}
	s.fleet.Remove(id)
	s.gateway.Refresh()
	s.noteTwin(id)
	w.WriteHeader(http.StatusNoContent)
}

// defined brings this process's demo device in line with a twin just
// created or edited, and announces it to the other processes and to
// watchers. A device that cannot start is logged: the twin is stored, and
// Test Protocol starts a device on its first exchange.
func (s *Server) defined(r *http.Request, eq twin.Equipment) {
	if err := s.fleet.Put(r.Context(), eq); err != nil {
		s.log.Warn("field device for a defined twin", "equipment", eq.ID, "err", err)
	}
	s.gateway.Refresh()
	s.noteTwin(eq.ID)
}

// present is a twin as the staff who manage it see it: its device's real
// address, and no connection password.
func (s *Server) present(eq twin.Equipment) twin.Equipment { return s.fleet.Present(eq).Public() }

// presentTo is a twin as caller c may see it: in full to the staff of the
// organisation that manages it, without its device's whereabouts to
// anyone else (twin.Equipment.Watched).
func (s *Server) presentTo(c identity.Caller, eq twin.Equipment) twin.Equipment {
	p := s.present(eq)
	if eq.OrganisationID != "" && eq.OrganisationID == c.OrgID && c.Meets(identity.Staff) {
		return p
	}
	return p.Watched()
}
