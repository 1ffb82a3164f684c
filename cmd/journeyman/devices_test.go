package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"net"
	"net/http"
	"net/http/cookiejar"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/simonvetter/modbus"

	"journeyman/internal/fieldbus"
	"journeyman/internal/fieldbus/fieldbustest"
)

// TestDevicesAtStartUp starts the process on chosen device ports: every
// Modbus, OPC UA and EtherNet/IP twin's device is up and logged before the
// process listens, and a reading sent to the sensor-data API is read back
// by a plain Modbus client, with no Test Protocol in between.
func TestDevicesAtStartUp(t *testing.T) {
	modbusPort, opcuaPort, enipPort := fieldbustest.ConsecutivePorts(t, 3), fieldbustest.ConsecutivePorts(t, 2), fieldbustest.ConsecutivePorts(t, 2)
	db := filepath.Join(t.TempDir(), "j.db")
	var out bytes.Buffer
	if err := runAdmin(context.Background(), []string{"create", "--email", "ada@plant.example", "--org", "Plant School"},
		func(k string) string { return map[string]string{"JOURNEYMAN_DB": db}[k] }, &out); err != nil {
		t.Fatal(err)
	}
	token := regexp.MustCompile(`/reset-password/(\S+)`).FindStringSubmatch(out.String())
	if token == nil {
		t.Fatalf("no setup link in %q", out.String())
	}
	url, logs := startRunLogs(t, "-db", db, "-modbus-port", strconv.Itoa(modbusPort), "-opcua-port", strconv.Itoa(opcuaPort), "-enip-port", strconv.Itoa(enipPort))

	tests := []struct {
		twin, protocol string
		port           int
	}{
		{"pnl-lp2a", fieldbus.KindModbus, modbusPort}, {"chlr-1", fieldbus.KindModbus, modbusPort + 1}, {"bp-2", fieldbus.KindModbus, modbusPort + 2},
		{"xfmr-t1", fieldbus.KindOPCUA, opcuaPort}, {"wtg-12", fieldbus.KindOPCUA, opcuaPort + 1},
		{"weld-cell-4", fieldbus.KindEtherNetIP, enipPort}, {"elev-2", fieldbus.KindEtherNetIP, enipPort + 1},
	}
	for _, tt := range tests {
		t.Run("Logged/"+tt.twin, func(t *testing.T) {
			want := fmt.Sprintf(`"msg":"field device","twin":%q,"protocol":%q,"address":"127.0.0.1:%d"`, tt.twin, tt.protocol, tt.port)
			if !strings.Contains(strings.Join(logs, "\n"), want) {
				t.Fatalf("no log line with %s in:\n%s", want, strings.Join(logs, "\n"))
			}
		})
	}

	jar, _ := cookiejar.New(nil)
	client := &http.Client{Jar: jar, Timeout: 15 * time.Second}
	post := func(path, body string) {
		t.Helper()
		res, err := client.Post(url+path, "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != 200 {
			t.Fatalf("POST %s = %d", path, res.StatusCode)
		}
	}
	secret, _ := json.Marshal(map[string]string{"token": token[1], "password": "valve seat lapping compound 7"})
	post("/api/account/password-reset", string(secret)) // signs the admin in
	post("/api/digital-twin/equipment/chlr-1/sensor-data", `{"sensorData":{"temperature":13.25}}`)

	// chlr-1 is the second Modbus twin, unit id 2.
	c, err := modbus.NewClient(&modbus.ClientConfiguration{URL: fmt.Sprintf("tcp://127.0.0.1:%d", modbusPort+1), Timeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Open(); err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := c.SetUnitId(2); err != nil {
		t.Fatal(err)
	}
	regs, err := c.ReadRegisters(0, 2, modbus.HOLDING_REGISTER)
	if err != nil {
		t.Fatal(err)
	}
	if got := math.Float32frombits(uint32(regs[0])<<16 | uint32(regs[1])); got != 13.25 {
		t.Fatalf("device serves temperature %v, want 13.25 from the sensor-data call", got)
	}
}

func TestDeviceConfig(t *testing.T) {
	tests := []struct {
		name     string
		args     []string
		env      map[string]string
		host     string
		ports    map[string]fieldbus.BasePort
		errorHas string
	}{
		{"Defaults", nil, nil, "127.0.0.1", map[string]fieldbus.BasePort{
			fieldbus.KindModbus: {Port: 5020}, fieldbus.KindOPCUA: {Port: 4840}, fieldbus.KindEtherNetIP: {Port: 44818}}, ""},
		{"Environment", nil, map[string]string{"JOURNEYMAN_DEVICES_HOST": "0.0.0.0", "JOURNEYMAN_MODBUS_PORT": "15020", "JOURNEYMAN_ENIP_PORT": "0"}, "0.0.0.0",
			map[string]fieldbus.BasePort{fieldbus.KindModbus: {Port: 15020, Explicit: true}, fieldbus.KindOPCUA: {Port: 4840}, fieldbus.KindEtherNetIP: {Port: 0, Explicit: true}}, ""},
		{"FlagsWin", []string{"-opcua-port", "14840", "-devices-host", "127.0.0.2"}, map[string]string{"JOURNEYMAN_OPCUA_PORT": "24840"}, "127.0.0.2",
			map[string]fieldbus.BasePort{fieldbus.KindModbus: {Port: 5020}, fieldbus.KindOPCUA: {Port: 14840, Explicit: true}, fieldbus.KindEtherNetIP: {Port: 44818}}, ""},
		{"ErrPort", []string{"-modbus-port", "70000"}, nil, "", nil, `-modbus-port must be a port number from 0 to 65535, not "70000"`},
		{"ErrNotANumber", nil, map[string]string{"JOURNEYMAN_ENIP_PORT": "cip"}, "", nil, `-enip-port must be a port number`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := parseConfig(tt.args, func(k string) string { return tt.env[k] })
			if tt.errorHas != "" {
				if err == nil || !strings.Contains(err.Error(), tt.errorHas) {
					t.Fatalf("parseConfig = %v, want an error saying %s", err, tt.errorHas)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if c.devices.Host != tt.host || fmt.Sprint(c.devices.Ports) != fmt.Sprint(tt.ports) {
				t.Fatalf("devices = %+v, want host %s ports %v", c.devices, tt.host, tt.ports)
			}
		})
	}
}

// TestDevicePortTaken: a taken port that was asked for fails the start.
func TestDevicePortTaken(t *testing.T) {
	taken, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer taken.Close()
	port := taken.Addr().(*net.TCPAddr).Port
	args := []string{"-addr", "127.0.0.1:0", "-db", filepath.Join(t.TempDir(), "j.db"), "-mqtt-listen", "127.0.0.1:0", "-enip-port", strconv.Itoa(port)}
	var logs bytes.Buffer
	err = run(context.Background(), args, func(string) string { return "" }, &logs)
	if err == nil || !strings.Contains(err.Error(), fmt.Sprintf("127.0.0.1:%d", port)) {
		t.Fatalf("run = %v, want an error naming the taken port %d", err, port)
	}
}
