package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"path/filepath"
	"testing"
	"time"

	"github.com/gopcua/opcua"
	"github.com/gopcua/opcua/ua"

	"journeyman/internal/fieldbus"
	"journeyman/internal/store"
	"journeyman/internal/telemetry"
)

// TestOPCUADeviceIdentity starts the process twice on one database: the
// OPC UA devices present the same certificate both times, and take the
// twin's device login (its MQTT one) over Basic256Sha256.
func TestOPCUADeviceIdentity(t *testing.T) {
	ctx := context.Background()
	db := filepath.Join(t.TempDir(), "j.db")
	clientCert, clientKey, err := fieldbus.NewOPCUACertificate("127.0.0.1")
	if err != nil {
		t.Fatal(err)
	}
	var certs [][]byte
	for _, name := range []string{"First", "Restarted"} {
		t.Run(name, func(t *testing.T) {
			_, logs := startRunLogs(t, "-db", db, "-modbus-port", "0", "-opcua-port", "0", "-enip-port", "0")
			var addr string
			for _, l := range logs {
				var line struct{ Msg, Twin, Address string }
				if json.Unmarshal([]byte(l), &line) == nil && line.Msg == "field device" && line.Twin == "xfmr-t1" {
					addr = line.Address
				}
			}
			if addr == "" {
				t.Fatalf("no field device line for xfmr-t1 in %v", logs)
			}
			eps, err := opcua.GetEndpoints(ctx, "opc.tcp://"+addr)
			if err != nil {
				t.Fatal(err)
			}
			certs = append(certs, eps[0].ServerCertificate)
			ep, err := opcua.SelectEndpoint(eps, ua.SecurityPolicyURIBasic256Sha256, ua.MessageSecurityModeSignAndEncrypt)
			if err != nil {
				t.Fatal(err)
			}
			st, err := store.Open(ctx, db)
			if err != nil {
				t.Fatal(err)
			}
			secret, err := st.MQTTDeviceSecret(ctx)
			st.Close()
			if err != nil {
				t.Fatal(err)
			}
			tests := []struct {
				name, user, password string
				want                 error
			}{
				{"OK", "xfmr-t1", telemetry.DevicePassword(secret, "xfmr-t1"), nil},
				{"ErrOtherTwinsLogin", "wtg-12", telemetry.DevicePassword(secret, "wtg-12"), ua.StatusBadUserAccessDenied},
				{"ErrWrongPassword", "xfmr-t1", "not the password", ua.StatusBadUserAccessDenied},
			}
			for _, tt := range tests {
				t.Run(tt.name, func(t *testing.T) {
					c, err := opcua.NewClient(ep.EndpointURL, opcua.SecurityFromEndpoint(ep, ua.UserTokenTypeUserName),
						opcua.AuthUsername(tt.user, tt.password), opcua.Certificate(clientCert), opcua.PrivateKey(clientKey),
						opcua.AutoReconnect(false), opcua.DialTimeout(5*time.Second), opcua.RequestTimeout(5*time.Second))
					if err != nil {
						t.Fatal(err)
					}
					err = c.Connect(ctx)
					if err == nil {
						c.Close(ctx)
					}
					if !errors.Is(err, tt.want) {
						t.Fatalf("connect = %v, want %v", err, tt.want)
					}
				})
			}
		})
	}
	if len(certs) != 2 || len(certs[0]) == 0 || !bytes.Equal(certs[0], certs[1]) {
		t.Fatal("the restarted process presents another certificate")
	}
}
