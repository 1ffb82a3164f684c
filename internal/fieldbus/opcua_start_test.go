package fieldbus

import (
	"context"
	"net"
	"sync"
	"testing"

	"github.com/gopcua/opcua"

	"journeyman/internal/twin"
)

// startedDevice starts an OPC UA device for a seeded twin on a free port.
func startedDevice(t *testing.T) *opcuaDevice {
	t.Helper()
	var eq twin.Equipment
	for _, e := range twin.SeedEquipment() {
		if e.CommunicationProtocol == twin.ProtocolOPCUA {
			eq = e
			break
		}
	}
	if eq.ID == "" {
		t.Fatal("no seeded OPC UA twin")
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	dev, err := NewFleet("").startOPCUADevice(eq, ln)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { dev.close() })
	return dev.(*opcuaDevice)
}

func libraryStarted(d *opcuaDevice) bool {
	d.libMu.Lock()
	defer d.libMu.Unlock()
	return d.backend != "" && d.srv != nil
}

// TestOPCUALibraryStartsWithTheFirstClient: a device holds no library
// server (and none of its standard address space) until a client comes;
// clients arriving together share the one it then starts.
func TestOPCUALibraryStartsWithTheFirstClient(t *testing.T) {
	d := startedDevice(t)
	if libraryStarted(d) {
		t.Fatal("the library's server started before any client came")
	}
	var wg sync.WaitGroup
	errs := make([]error, 4)
	for i := range errs {
		wg.Go(func() {
			eps, err := opcua.GetEndpoints(context.Background(), d.url)
			if err == nil && (len(eps) == 0 || eps[0].EndpointURL != d.url) {
				t.Errorf("client %d: endpoints %v; want %s", i, eps, d.url)
			}
			errs[i] = err
		})
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("client %d: %v", i, err)
		}
	}
	if !libraryStarted(d) {
		t.Fatal("clients were served, yet the library's server is not recorded as started")
	}
	srv := d.srv
	if _, err := opcua.GetEndpoints(context.Background(), d.url); err != nil {
		t.Fatal(err)
	}
	if d.srv != srv {
		t.Error("a later client started another library server")
	}
}

// TestOPCUADeviceNeverUsedCloses: closing a device no client reached
// starts nothing and ends its listener.
func TestOPCUADeviceNeverUsedCloses(t *testing.T) {
	d := startedDevice(t)
	if err := d.close(); err != nil {
		t.Fatal(err)
	}
	if libraryStarted(d) {
		t.Error("closing started the library's server")
	}
	if c, err := net.Dial("tcp", d.addr()); err == nil {
		c.Close()
		t.Error("the closed device still accepts connections")
	}
}
