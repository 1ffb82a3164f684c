package server

// The gateway to real devices, and the connection test of the manage page
// (staff):
//
// POST /api/digital-twin/connection-test
//
//	body: {"communicationProtocol": "Modbus TCP", "connection": Connection, "equipmentId": "bp-2" (optional: a
//	       connection left without a password uses that twin's stored one)}
//	→ 200 {"ok": true, "durationMs": 12.5, "error": "…" (the connection failed),
//	       "points": [{"sensor": "pressure", "raw": 4200, "value": 420, "unit": "kPa", "error": "…"}]}
//	  Nothing is saved. → 400 naming the field of a connection that is not valid.

import (
	"context"
	"net/http"
	"slices"
	"time"

	"journeyman/internal/apperr"
	"journeyman/internal/gateway"
	"journeyman/internal/twin"
)

// newGateway polls the devices of the connected twins whose lease this
// process holds, storing what it reads through the one ingest path.
func (s *Server) newGateway() *gateway.Gateway {
	return gateway.New(gateway.Config{
		Holder: s.process,
		List:   s.store.ListEquipment,
		Claim: func(ctx context.Context, holder string, ttl time.Duration) ([]string, error) {
			return s.store.ClaimDevices(ctx, holder, s.store.Now(), ttl)
		},
		Release: s.store.ReleaseDevices,
		Ingest: func(ctx context.Context, u twin.SensorUpdate) error {
			_, err := s.ingest.Submit(ctx, u)
			return err
		},
		SetSync: func(ctx context.Context, id, status string, errorCount int) error {
			if _, err := s.store.SetSync(ctx, id, status, errorCount); err != nil {
				return err
			}
			s.noteTwin(id)
			return nil
		},
		Now: s.store.Now,
		Log: s.log,
	})
}

type connectionTestRequest struct {
	CommunicationProtocol string           `json:"communicationProtocol"`
	Connection            *twin.Connection `json:"connection"`
	EquipmentID           string           `json:"equipmentId"`
}

func (s *Server) handleConnectionTest(w http.ResponseWriter, r *http.Request) {
	var req connectionTestRequest
	if err := readJSON(w, r, &req); err != nil {
		s.writeError(w, r, err)
		return
	}
	if req.Connection == nil {
		s.writeError(w, r, apperr.Invalid("connection is required"))
		return
	}
	c := *req.Connection
	c.Normalize(req.CommunicationProtocol)
	if req.EquipmentID != "" && c.Password == "" {
		eq, err := s.store.GetEquipment(r.Context(), req.EquipmentID)
		if err != nil {
			s.writeError(w, r, err)
			return
		}
		if eq.Connection != nil && eq.CommunicationProtocol == req.CommunicationProtocol {
			c.Password = eq.Connection.Password
		}
	}
	if !slices.Contains(twin.Protocols, req.CommunicationProtocol) {
		s.writeError(w, r, apperr.Invalid("communicationProtocol %q must be one of Modbus TCP, OPC-UA, EtherNet/IP, MQTT", req.CommunicationProtocol))
		return
	}
	if err := c.Validate(req.CommunicationProtocol); err != nil {
		s.writeError(w, r, err)
		return
	}
	if err := s.allowExchange(); err != nil {
		s.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, gateway.Test(r.Context(), req.CommunicationProtocol, c))
}
