package fieldbus_test

import (
	"bytes"
	"context"
	"crypto/rsa"
	"crypto/sha1"
	"crypto/x509"
	"encoding/binary"
	"errors"
	"io"
	"log/slog"
	"net"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gopcua/opcua"
	"github.com/gopcua/opcua/id"
	"github.com/gopcua/opcua/ua"

	"journeyman/internal/fieldbus"
	"journeyman/internal/twin"
)

// writableTwin is the seed transformer with its temperature writable, as
// the fleet under test serves it.
func writableTwin(t *testing.T) twin.Equipment {
	t.Helper()
	eq := equipment(t, "xfmr-t1")
	eq.WritableSensors = []string{"temperature"}
	eq.LastUpdated = time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC)
	return eq
}

// opcuaFleet serves eq on an OPC UA device whose writes land in writes and
// whose login is eq.ID with password "s3cret".
type opcuaFleet struct {
	*fieldbus.Fleet
	addr   string
	mu     sync.Mutex
	writes []twin.SensorUpdate
}

func startOPCUAFleet(t *testing.T, eq twin.Equipment) *opcuaFleet {
	t.Helper()
	f := &opcuaFleet{Fleet: mustFleet(t)}
	f.Write = func(_ context.Context, u twin.SensorUpdate) error {
		f.mu.Lock()
		defer f.mu.Unlock()
		f.writes = append(f.writes, u)
		return nil
	}
	f.DeviceLogin = func(equipmentID, username, password string) bool {
		return username == equipmentID && password == "s3cret"
	}
	cfg := fieldbus.Listen{Ports: map[string]fieldbus.BasePort{fieldbus.KindOPCUA: {Port: 0}}}
	if err := f.Start(context.Background(), []twin.Equipment{eq}, cfg, slog.New(slog.DiscardHandler)); err != nil {
		t.Fatal(err)
	}
	f.addr = deviceAddr(t, f.Fleet, eq)
	return f
}

func (f *opcuaFleet) written() []twin.SensorUpdate {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.writes)
}

// signedInClient connects over Basic256Sha256 in mode, signed in as user,
// with a certificate of its own.
func signedInClient(ctx context.Context, t *testing.T, addr string, mode ua.MessageSecurityMode, user, password string) (*opcua.Client, error) {
	t.Helper()
	eps, err := opcua.GetEndpoints(ctx, "opc.tcp://"+addr)
	if err != nil {
		t.Fatal(err)
	}
	ep, err := opcua.SelectEndpoint(eps, ua.SecurityPolicyURIBasic256Sha256, mode)
	if err != nil {
		t.Fatal(err)
	}
	cert, key := clientCertificate(t)
	c, err := opcua.NewClient(ep.EndpointURL,
		opcua.SecurityFromEndpoint(ep, ua.UserTokenTypeUserName), opcua.AuthUsername(user, password),
		opcua.Certificate(cert), opcua.PrivateKey(key), opcua.ApplicationURI(fieldbus.OPCUAApplicationURI),
		opcua.AutoReconnect(false), opcua.DialTimeout(15*time.Second), opcua.RequestTimeout(15*time.Second)) // the device starts its server for its first client: seconds under -race
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Connect(ctx); err != nil {
		return nil, err
	}
	t.Cleanup(func() { c.Close(context.Background()) })
	return c, nil
}

// clientCert is the test clients' certificate, made once.
var clientCert = sync.OnceValues(func() (clientIdentity, error) {
	cert, key, err := fieldbus.NewOPCUACertificate("127.0.0.1")
	return clientIdentity{cert, key}, err
})

type clientIdentity struct {
	cert []byte
	key  *rsa.PrivateKey
}

func clientCertificate(t *testing.T) ([]byte, *rsa.PrivateKey) {
	t.Helper()
	id, err := clientCert()
	if err != nil {
		t.Fatal(err)
	}
	return id.cert, id.key
}

func browse(t *testing.T, c *opcua.Client, node *ua.NodeID, refType uint32) []*ua.ReferenceDescription {
	t.Helper()
	resp, err := c.Browse(context.Background(), &ua.BrowseRequest{
		View: &ua.ViewDescription{ViewID: ua.NewTwoByteNodeID(0)},
		NodesToBrowse: []*ua.BrowseDescription{{NodeID: node, BrowseDirection: ua.BrowseDirectionForward,
			ReferenceTypeID: ua.NewNumericNodeID(0, refType), IncludeSubtypes: true, ResultMask: uint32(ua.BrowseResultMaskAll)}},
	})
	if err != nil {
		t.Fatal(err)
	}
	if resp.Results[0].StatusCode != ua.StatusOK {
		t.Fatalf("browse %s: %v", node, resp.Results[0].StatusCode)
	}
	return resp.Results[0].References
}

func readValue(t *testing.T, c *opcua.Client, node *ua.NodeID, attr ua.AttributeID, ttr ua.TimestampsToReturn) *ua.DataValue {
	t.Helper()
	resp, err := c.Read(context.Background(), &ua.ReadRequest{
		NodesToRead:        []*ua.ReadValueID{{NodeID: node, AttributeID: attr}},
		TimestampsToReturn: ttr,
	})
	if err != nil {
		t.Fatal(err)
	}
	if resp.Results[0].Status != ua.StatusOK {
		t.Fatalf("read %s attribute %d: %v", node, attr, resp.Results[0].Status)
	}
	return resp.Results[0]
}

// TestOPCUAAddressSpace browses as a generic client does: from Objects to
// the twin's folder, its variables, and each sensor's engineering units.
func TestOPCUAAddressSpace(t *testing.T) {
	eq := writableTwin(t)
	f := startOPCUAFleet(t, eq)
	c := opcuaClient(t, f.addr)

	if ns := c.Namespaces(); len(ns) < 2 || ns[1] != "urn:journeyman:xfmr-t1" {
		t.Fatalf("namespaces = %v, want urn:journeyman:xfmr-t1 at index 1", ns)
	}
	folderID := ua.NewStringNodeID(1, "xfmr-t1")
	t.Run("ObjectsOrganizesTheFolder", func(t *testing.T) {
		var found *ua.ReferenceDescription
		for _, r := range browse(t, c, ua.NewNumericNodeID(0, id.ObjectsFolder), id.HierarchicalReferences) {
			if r.NodeID.NodeID.String() == folderID.String() {
				found = r
			}
		}
		if found == nil {
			t.Fatal("Objects does not lead to the twin's folder")
		}
		if found.ReferenceTypeID.IntID() != id.Organizes || found.BrowseName.Name != eq.Name || found.BrowseName.NamespaceIndex != 1 ||
			found.DisplayName.Text != eq.Name || found.NodeClass != ua.NodeClassObject || found.TypeDefinition.NodeID.IntID() != id.FolderType {
			t.Errorf("reference to the folder = %+v", found)
		}
	})
	t.Run("FolderHasTheVariables", func(t *testing.T) {
		refs := browse(t, c, folderID, id.HierarchicalReferences)
		var names []string
		for _, r := range refs {
			names = append(names, r.BrowseName.Name)
			wantType := uint32(id.BaseDataVariableType)
			if _, sensor := twin.SensorByKey(strings.ToLower(r.BrowseName.Name[:1]) + r.BrowseName.Name[1:]); sensor {
				wantType = id.AnalogItemType
			}
			if r.ReferenceTypeID.IntID() != id.HasComponent || r.NodeClass != ua.NodeClassVariable || r.TypeDefinition.NodeID.IntID() != wantType ||
				r.NodeID.NodeID.String() != "ns=1;s="+r.BrowseName.Name {
				t.Errorf("reference %s = %+v", r.BrowseName.Name, r)
			}
		}
		want := []string{"Temperature", "Pressure", "Vibration", "Current", "Voltage", "Rpm", "Efficiency", "Status", "AlertLevel", "OperatingHours", "SyncErrorCount"}
		if !slices.Equal(names, want) {
			t.Fatalf("variables = %v, want %v", names, want)
		}
		// Browsing for any reference, both ways, finds the way back too.
		resp, err := c.Browse(context.Background(), &ua.BrowseRequest{NodesToBrowse: []*ua.BrowseDescription{{
			NodeID: ua.NewStringNodeID(1, "Temperature"), BrowseDirection: ua.BrowseDirectionInverse, ReferenceTypeID: ua.NewTwoByteNodeID(0), ResultMask: uint32(ua.BrowseResultMaskAll)}}})
		if err != nil || len(resp.Results[0].References) != 1 || resp.Results[0].References[0].NodeID.NodeID.String() != folderID.String() {
			t.Fatalf("Temperature's inverse references = %+v, %v", resp, err)
		}
	})
	t.Run("EngineeringUnits", func(t *testing.T) {
		tests := []struct {
			node, unit string
			unitID     int32
		}{
			{"Temperature", "°C", 4408652}, // CEL
			{"Pressure", "kPa", 4935745},   // KPA
			{"Vibration", "mm/s", 4403510}, // C16
			{"Current", "A", 4279632},      // AMP
			{"Voltage", "V", 5655636},      // VLT
			{"Rpm", "rpm", 5394509},        // RPM
			{"Efficiency", "%", 20529},     // P1
		}
		for _, tt := range tests {
			t.Run(tt.node, func(t *testing.T) {
				props := map[string]*ua.NodeID{}
				for _, r := range browse(t, c, ua.NewStringNodeID(1, tt.node), id.HasProperty) {
					props[r.BrowseName.Name] = r.NodeID.NodeID
				}
				if props["EngineeringUnits"] == nil || props["EURange"] == nil {
					t.Fatalf("properties = %v", props)
				}
				eu, ok := readValue(t, c, props["EngineeringUnits"], ua.AttributeIDValue, ua.TimestampsToReturnBoth).Value.Value().(*ua.ExtensionObject).Value.(*ua.EUInformation)
				if !ok || eu.DisplayName.Text != tt.unit || eu.UnitID != tt.unitID || eu.NamespaceURI != "http://www.opcfoundation.org/UA/units/un/cefact" {
					t.Errorf("EngineeringUnits = %+v", eu)
				}
				s, _ := twin.SensorByKey(strings.ToLower(tt.node))
				rng, ok := readValue(t, c, props["EURange"], ua.AttributeIDValue, ua.TimestampsToReturnBoth).Value.Value().(*ua.ExtensionObject).Value.(*ua.Range)
				if !ok || rng.Low != s.Min || rng.High != s.Max {
					t.Errorf("EURange = %+v, want %g to %g", rng, s.Min, s.Max)
				}
			})
		}
	})
	t.Run("Attributes", func(t *testing.T) {
		tests := []struct {
			node string
			attr ua.AttributeID
			want any
		}{
			{"Temperature", ua.AttributeIDDataType, ua.NewNumericNodeID(0, id.Double).String()},
			{"Status", ua.AttributeIDDataType, ua.NewNumericNodeID(0, id.String).String()},
			{"SyncErrorCount", ua.AttributeIDDataType, ua.NewNumericNodeID(0, id.Int32).String()},
			{"Temperature", ua.AttributeIDValueRank, int32(-1)},
			{"Temperature", ua.AttributeIDNodeClass, int32(ua.NodeClassVariable)},
			{"Temperature", ua.AttributeIDAccessLevel, byte(ua.AccessLevelTypeCurrentRead | ua.AccessLevelTypeCurrentWrite)},
			{"Temperature", ua.AttributeIDUserAccessLevel, byte(ua.AccessLevelTypeCurrentRead)}, // anonymous
			{"Pressure", ua.AttributeIDAccessLevel, byte(ua.AccessLevelTypeCurrentRead)},
			{"Status", ua.AttributeIDValue, eq.Status},
			{"xfmr-t1", ua.AttributeIDNodeClass, int32(ua.NodeClassObject)},
		}
		for _, tt := range tests {
			got := readValue(t, c, ua.NewStringNodeID(1, tt.node), tt.attr, ua.TimestampsToReturnNeither).Value.Value()
			if n, ok := got.(*ua.NodeID); ok {
				got = n.String()
			}
			if got != tt.want {
				t.Errorf("%s attribute %d = %#v, want %#v", tt.node, tt.attr, got, tt.want)
			}
		}
	})
}

// TestOPCUATimestamps: a value carries the time its reading was taken as
// its source timestamp, and the time it was read as the server's.
func TestOPCUATimestamps(t *testing.T) {
	eq := writableTwin(t)
	f := startOPCUAFleet(t, eq)
	c := opcuaClient(t, f.addr)
	tests := []struct {
		name           string
		ttr            ua.TimestampsToReturn
		source, server bool
	}{
		{"Both", ua.TimestampsToReturnBoth, true, true},
		{"Source", ua.TimestampsToReturnSource, true, false},
		{"Server", ua.TimestampsToReturnServer, false, true},
		{"Neither", ua.TimestampsToReturnNeither, false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := time.Now().Add(-time.Second)
			dv := readValue(t, c, ua.NewStringNodeID(1, "Temperature"), ua.AttributeIDValue, tt.ttr)
			after := time.Now().Add(time.Second)
			if dv.Value.Value() != 64.2 {
				t.Errorf("value = %v", dv.Value.Value())
			}
			if got := !dv.SourceTimestamp.IsZero(); got != tt.source || (got && !dv.SourceTimestamp.Equal(eq.LastUpdated)) {
				t.Errorf("source timestamp = %v, want %v (%v)", dv.SourceTimestamp, eq.LastUpdated, tt.source)
			}
			if got := !dv.ServerTimestamp.IsZero(); got != tt.server || (got && (dv.ServerTimestamp.Before(before) || dv.ServerTimestamp.After(after))) {
				t.Errorf("server timestamp = %v, want now (%v)", dv.ServerTimestamp, tt.server)
			}
		})
	}
}

// watcher is a client's subscription to Temperature.
type watcher struct {
	sub  *opcua.Subscription
	item uint32
	got  chan notification
}

type notification struct {
	value  any
	source time.Time
}

func watchTemperature(ctx context.Context, t *testing.T, c *opcua.Client) *watcher {
	t.Helper()
	ch := make(chan *opcua.PublishNotificationData, 16)
	sub, err := c.Subscribe(ctx, &opcua.SubscriptionParameters{Interval: 50 * time.Millisecond}, ch)
	if err != nil {
		t.Fatal(err)
	}
	res, err := sub.Monitor(ctx, ua.TimestampsToReturnBoth, opcua.NewMonitoredItemCreateRequestWithDefaults(ua.NewStringNodeID(1, "Temperature"), ua.AttributeIDValue, 42))
	if err != nil || res.Results[0].StatusCode != ua.StatusOK {
		t.Fatalf("monitor = %+v, %v", res, err)
	}
	w := &watcher{sub: sub, item: res.Results[0].MonitoredItemID, got: make(chan notification, 16)}
	go func() {
		for msg := range ch {
			if dc, ok := msg.Value.(*ua.DataChangeNotification); ok {
				for _, item := range dc.MonitoredItems {
					if item.ClientHandle == 42 {
						w.got <- notification{item.Value.Value.Value(), item.Value.SourceTimestamp}
					}
				}
			}
		}
	}()
	return w
}

// next is the next data change, which must come within 5 s.
func (w *watcher) next(t *testing.T) notification {
	t.Helper()
	select {
	case n := <-w.got:
		return n
	case <-time.After(5 * time.Second):
		t.Fatal("no data change within 5 s")
		return notification{}
	}
}

// withTemperature is eq with a new temperature reading taken a minute later.
func withTemperature(eq twin.Equipment, v float64) twin.Equipment {
	eq.SensorData = maps(eq.SensorData)
	eq.SensorData["temperature"] = twin.Reading{Value: v, Unit: "°C"}
	eq.LastUpdated = eq.LastUpdated.Add(time.Minute)
	return eq
}

// TestOPCUASubscription: a monitored variable reports the value a stored
// reading brings, with the reading's time, to every client monitoring it.
func TestOPCUASubscription(t *testing.T) {
	eq := writableTwin(t)
	f := startOPCUAFleet(t, eq)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	clients := []*opcua.Client{opcuaClient(t, f.addr), opcuaClient(t, f.addr)}
	watchers := []*watcher{watchTemperature(ctx, t, clients[0]), watchTemperature(ctx, t, clients[1])}
	for i, w := range watchers {
		if n := w.next(t); n.value != 64.2 || !n.source.Equal(eq.LastUpdated) {
			t.Fatalf("client %d: first notification = %+v, want the current 64.2 at %v", i, n, eq.LastUpdated)
		}
	}
	later := withTemperature(eq, 71.25)
	f.Follow(later)
	for i, w := range watchers {
		if n := w.next(t); n.value != 71.25 || !n.source.Equal(later.LastUpdated) {
			t.Fatalf("client %d: notification = %+v, want 71.25 at %v", i, n, later.LastUpdated)
		}
	}
	// A reading that changes another sensor only tells nothing to a
	// client watching the temperature.
	other := later
	other.SensorData = maps(later.SensorData)
	other.SensorData["pressure"] = twin.Reading{Value: 101, Unit: "kPa"}
	other.LastUpdated = later.LastUpdated.Add(time.Minute)
	f.Follow(other)
	select {
	case n := <-watchers[0].got:
		t.Fatalf("notification for an unchanged temperature: %+v", n)
	case <-time.After(500 * time.Millisecond):
	}
}

// TestOPCUASubscriptionsApart: one client's subscriptions and monitored
// items are its own. gopcua numbers a new subscription after the count of
// live ones, and deletes any session's monitored items on request.
func TestOPCUASubscriptionsApart(t *testing.T) {
	eq := writableTwin(t)
	f := startOPCUAFleet(t, eq)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	a, b, c := opcuaClient(t, f.addr), opcuaClient(t, f.addr), opcuaClient(t, f.addr)
	wa := watchTemperature(ctx, t, a)
	wb := watchTemperature(ctx, t, b)
	wa.next(t)
	wb.next(t)
	t.Run("ErrOtherSessionsItem", func(t *testing.T) {
		err := c.Send(ctx, &ua.DeleteMonitoredItemsRequest{SubscriptionID: wb.sub.SubscriptionID, MonitoredItemIDs: []uint32{wb.item}}, func(r ua.Response) error {
			if res := r.(*ua.DeleteMonitoredItemsResponse); res.Results[0] != ua.StatusBadMonitoredItemIDInvalid {
				t.Errorf("deleting another session's monitored item = %v", res.Results[0])
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	})
	if err := wa.sub.Cancel(ctx); err != nil {
		t.Fatal(err)
	}
	time.Sleep(200 * time.Millisecond) // the library deletes a subscription in the background
	wc := watchTemperature(ctx, t, c)
	if wc.sub.SubscriptionID == wb.sub.SubscriptionID {
		t.Fatalf("the new subscription took number %d, a live one's", wc.sub.SubscriptionID)
	}
	wc.next(t)
	next := withTemperature(eq, 66)
	f.Follow(next)
	for name, w := range map[string]*watcher{"b": wb, "c": wc} {
		// A new monitored item has the library repeat the current value
		// to every item on the node; the change must follow.
		n := w.next(t)
		for n.value == 64.2 {
			n = w.next(t)
		}
		if n.value != 66.0 {
			t.Fatalf("client %s: notification = %+v, want 66", name, n)
		}
	}
}

// TestOPCUAWrite writes as the kinds of client there are: only a signed-in
// one reaches the store, and only for a writable sensor, in range.
func TestOPCUAWrite(t *testing.T) {
	eq := writableTwin(t)
	f := startOPCUAFleet(t, eq)
	ctx := context.Background()
	anonymous := opcuaClient(t, f.addr)
	user, err := signedInClient(ctx, t, f.addr, ua.MessageSecurityModeSignAndEncrypt, "xfmr-t1", "s3cret")
	if err != nil {
		t.Fatal(err)
	}
	write := func(c *opcua.Client, node string, v any) ua.StatusCode {
		t.Helper()
		resp, err := c.Write(ctx, &ua.WriteRequest{NodesToWrite: []*ua.WriteValue{{
			NodeID: ua.NewStringNodeID(1, node), AttributeID: ua.AttributeIDValue,
			Value: &ua.DataValue{EncodingMask: ua.DataValueValue, Value: ua.MustVariant(v)}}}})
		if err != nil {
			t.Fatal(err)
		}
		return resp.Results[0]
	}
	tests := []struct {
		name   string
		client *opcua.Client
		node   string
		value  any
		want   ua.StatusCode
	}{
		{"ErrAnonymous", anonymous, "Temperature", 70.5, ua.StatusBadUserAccessDenied},
		{"ErrNotWritable", user, "Pressure", 120.0, ua.StatusBadNotWritable},
		{"ErrState", user, "Status", "offline", ua.StatusBadNotWritable},
		{"ErrOutOfRange", user, "Temperature", 600.5, ua.StatusBadOutOfRange},
		{"ErrTypeMismatch", user, "Temperature", int32(70), ua.StatusBadTypeMismatch},
		{"ErrUnknownNode", user, "Nope", 1.0, ua.StatusBadNodeIDUnknown},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := write(tt.client, tt.node, tt.value); got != tt.want {
				t.Fatalf("write %v to %s = %v, want %v", tt.value, tt.node, got, tt.want)
			}
		})
	}
	if w := f.written(); len(w) != 0 {
		t.Fatalf("refused writes reached the store: %+v", w)
	}
	t.Run("ErrServerNode", func(t *testing.T) {
		resp, err := user.Write(ctx, &ua.WriteRequest{NodesToWrite: []*ua.WriteValue{{
			NodeID: ua.NewNumericNodeID(0, id.Server_NamespaceArray), AttributeID: ua.AttributeIDValue,
			Value: &ua.DataValue{EncodingMask: ua.DataValueValue, Value: ua.MustVariant([]string{"x"})}}}})
		if err != nil || resp.Results[0] != ua.StatusBadNotWritable {
			t.Fatalf("write to the namespace array = %v, %v", resp, err)
		}
		if ns := anonymous.Namespaces(); len(ns) < 2 {
			t.Fatalf("namespaces = %v", ns)
		}
	})
	t.Run("UserAccessLevel", func(t *testing.T) {
		got := readValue(t, user, ua.NewStringNodeID(1, "Temperature"), ua.AttributeIDUserAccessLevel, ua.TimestampsToReturnNeither).Value.Value()
		if got != byte(ua.AccessLevelTypeCurrentRead|ua.AccessLevelTypeCurrentWrite) {
			t.Fatalf("UserAccessLevel signed in = %v", got)
		}
	})
	t.Run("OK", func(t *testing.T) {
		before := time.Now()
		if got := write(user, "Temperature", 70.5); got != ua.StatusOK {
			t.Fatalf("write = %v", got)
		}
		w := f.written()
		if len(w) != 1 {
			t.Fatalf("writes stored = %+v, want one", w)
		}
		u := w[0]
		if u.EquipmentID != "xfmr-t1" || !slices.Equal(u.Values, []twin.Value{{Key: "temperature", Value: 70.5}}) ||
			u.Timestamp.Before(before) || u.Timestamp.After(time.Now()) || !u.ReceivedAt.Equal(u.Timestamp) {
			t.Fatalf("update = %+v", u)
		}
		// The node shows what the store kept, once the twin as stored
		// comes back.
		if got := readValue(t, user, ua.NewStringNodeID(1, "Temperature"), ua.AttributeIDValue, ua.TimestampsToReturnBoth).Value.Value(); got != 64.2 {
			t.Fatalf("before the twin is followed, Temperature = %v, want the stored 64.2", got)
		}
		stored := eq
		stored.SensorData = maps(eq.SensorData)
		stored.SensorData["temperature"] = twin.Reading{Value: 70.5, Unit: "°C"}
		stored.LastUpdated = u.Timestamp
		f.Follow(stored)
		dv := readValue(t, anonymous, ua.NewStringNodeID(1, "Temperature"), ua.AttributeIDValue, ua.TimestampsToReturnBoth)
		// OPC UA counts time in 100 ns.
		if dv.Value.Value() != 70.5 || !dv.SourceTimestamp.Equal(u.Timestamp.Truncate(100*time.Nanosecond)) {
			t.Fatalf("Temperature = %v at %v, want 70.5 at %v", dv.Value.Value(), dv.SourceTimestamp, u.Timestamp)
		}
	})
}

// TestOPCUAWriteRefusedWithoutStore: a fleet that stores no writes shows
// every variable read-only and refuses writes.
func TestOPCUAWriteRefusedWithoutStore(t *testing.T) {
	eq := writableTwin(t)
	f := mustFleet(t)
	f.DeviceLogin = func(equipmentID, username, password string) bool { return password == "s3cret" }
	if err := f.Start(context.Background(), []twin.Equipment{eq}, fieldbus.Listen{Ports: map[string]fieldbus.BasePort{fieldbus.KindOPCUA: {}}}, slog.New(slog.DiscardHandler)); err != nil {
		t.Fatal(err)
	}
	c, err := signedInClient(context.Background(), t, deviceAddr(t, f, eq), ua.MessageSecurityModeSign, "xfmr-t1", "s3cret")
	if err != nil {
		t.Fatal(err)
	}
	if got := readValue(t, c, ua.NewStringNodeID(1, "Temperature"), ua.AttributeIDUserAccessLevel, ua.TimestampsToReturnNeither).Value.Value(); got != byte(ua.AccessLevelTypeCurrentRead) {
		t.Errorf("UserAccessLevel = %v, want read only", got)
	}
	resp, err := c.Write(context.Background(), &ua.WriteRequest{NodesToWrite: []*ua.WriteValue{{
		NodeID: ua.NewStringNodeID(1, "Temperature"), AttributeID: ua.AttributeIDValue,
		Value: &ua.DataValue{EncodingMask: ua.DataValueValue, Value: ua.MustVariant(70.0)}}}})
	if err != nil || resp.Results[0] != ua.StatusBadNotWritable {
		t.Fatalf("write = %v, %v; want BadNotWritable", resp, err)
	}
}

// TestOPCUASignIn: a user name and password are the device's login, over
// either secure mode; anything else fails the session's activation.
func TestOPCUASignIn(t *testing.T) {
	eq := writableTwin(t)
	f := startOPCUAFleet(t, eq)
	tests := []struct {
		name           string
		mode           ua.MessageSecurityMode
		user, password string
		want           error
	}{
		{"OKSignAndEncrypt", ua.MessageSecurityModeSignAndEncrypt, "xfmr-t1", "s3cret", nil},
		{"OKSign", ua.MessageSecurityModeSign, "xfmr-t1", "s3cret", nil},
		{"ErrWrongPassword", ua.MessageSecurityModeSignAndEncrypt, "xfmr-t1", "guess", ua.StatusBadUserAccessDenied},
		{"ErrWrongUser", ua.MessageSecurityModeSign, "wtg-12", "s3cret", ua.StatusBadUserAccessDenied},
		{"ErrEmptyPassword", ua.MessageSecurityModeSignAndEncrypt, "xfmr-t1", "", ua.StatusBadUserAccessDenied},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
			defer cancel()
			c, err := signedInClient(ctx, t, f.addr, tt.mode, tt.user, tt.password)
			if !errors.Is(err, tt.want) {
				t.Fatalf("connect = %v, want %v", err, tt.want)
			}
			if err == nil {
				if got := readValue(t, c, ua.NewStringNodeID(1, "Temperature"), ua.AttributeIDValue, ua.TimestampsToReturnBoth).Value.Value(); got != 64.2 {
					t.Fatalf("Temperature = %v", got)
				}
			}
		})
	}
}

// TestOPCUAEndpoints: clients are told of the guarded address only, with
// None and Basic256Sha256, anonymous and user name logins, and the fleet's
// certificate.
func TestOPCUAEndpoints(t *testing.T) {
	eq := writableTwin(t)
	f := startOPCUAFleet(t, eq)
	eps, err := opcua.GetEndpoints(context.Background(), "opc.tcp://"+f.addr)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, ep := range eps {
		got = append(got, strings.TrimPrefix(ep.SecurityPolicyURI, "http://opcfoundation.org/UA/SecurityPolicy#")+"/"+ep.SecurityMode.String())
		if ep.EndpointURL != "opc.tcp://"+f.addr || !slices.Equal(ep.Server.DiscoveryURLs, []string{"opc.tcp://" + f.addr}) {
			t.Errorf("endpoint %s, discovery %v: want only the guarded address %s", ep.EndpointURL, ep.Server.DiscoveryURLs, f.addr)
		}
		if ep.Server.ApplicationURI != fieldbus.OPCUAApplicationURI {
			t.Errorf("application URI = %s", ep.Server.ApplicationURI)
		}
		cert, err := x509.ParseCertificate(ep.ServerCertificate)
		if err != nil || len(cert.URIs) != 1 || cert.URIs[0].String() != fieldbus.OPCUAApplicationURI || cert.VerifyHostname("127.0.0.1") != nil || cert.VerifyHostname("localhost") != nil {
			t.Errorf("server certificate = %v, %v", cert, err)
		}
		var tokens []string
		for _, tok := range ep.UserIdentityTokens {
			tokens = append(tokens, tok.TokenType.String()+"/"+strings.TrimPrefix(tok.SecurityPolicyURI, "http://opcfoundation.org/UA/SecurityPolicy#"))
		}
		if want := []string{"UserTokenTypeAnonymous/None", "UserTokenTypeUserName/Basic256Sha256"}; !slices.Equal(tokens, want) {
			t.Errorf("user tokens = %v, want %v", tokens, want)
		}
	}
	want := []string{"None/MessageSecurityModeNone", "Basic256Sha256/MessageSecurityModeSign", "Basic256Sha256/MessageSecurityModeSignAndEncrypt"}
	if !slices.Equal(got, want) {
		t.Fatalf("endpoints = %v, want %v", got, want)
	}
}

// TestOPCUACertificateConfigured: a fleet given a certificate presents it.
func TestOPCUACertificateConfigured(t *testing.T) {
	cert, key, err := fieldbus.NewOPCUACertificate("192.0.2.7")
	if err != nil {
		t.Fatal(err)
	}
	pem := fieldbus.EncodeOPCUACertificate(cert, key)
	decoded, decodedKey, err := fieldbus.DecodeOPCUACertificate(pem)
	if err != nil || !slices.Equal(decoded, cert) || !decodedKey.Equal(key) {
		t.Fatalf("decoded = %v", err)
	}
	if parsed, _ := x509.ParseCertificate(cert); parsed.VerifyHostname("192.0.2.7") != nil {
		t.Error("the certificate does not name the devices' host")
	}
	eq := writableTwin(t)
	f := mustFleet(t)
	f.Certificate, f.PrivateKey = decoded, decodedKey
	if err := f.Start(context.Background(), []twin.Equipment{eq}, fieldbus.Listen{Ports: map[string]fieldbus.BasePort{fieldbus.KindOPCUA: {}}}, slog.New(slog.DiscardHandler)); err != nil {
		t.Fatal(err)
	}
	eps, err := opcua.GetEndpoints(context.Background(), "opc.tcp://"+deviceAddr(t, f, eq))
	if err != nil || !slices.Equal(eps[0].ServerCertificate, cert) {
		t.Fatalf("endpoints = %v, %v; want the configured certificate", eps, err)
	}
	t.Run("ErrMismatchedKey", func(t *testing.T) {
		_, other, err := fieldbus.NewOPCUACertificate("")
		if err != nil {
			t.Fatal(err)
		}
		f := mustFleet(t)
		f.Certificate, f.PrivateKey = cert, other
		err = f.Start(context.Background(), []twin.Equipment{eq}, fieldbus.Listen{Ports: map[string]fieldbus.BasePort{fieldbus.KindOPCUA: {}}}, slog.New(slog.DiscardHandler))
		if err == nil || !strings.Contains(err.Error(), "not the certificate's") {
			t.Fatalf("start = %v", err)
		}
	})
}

// TestOPCUARequestsTheLibraryWouldPanicOn: requests that would panic
// gopcua's server (and with it the process) fail alone.
func TestOPCUARequestsTheLibraryWouldPanicOn(t *testing.T) {
	eq := writableTwin(t)
	f := startOPCUAFleet(t, eq)
	c := opcuaClient(t, f.addr)
	ctx := context.Background()
	t.Run("PublishingIntervalZero", func(t *testing.T) {
		var res *ua.CreateSubscriptionResponse
		err := c.Send(ctx, &ua.CreateSubscriptionRequest{RequestedPublishingInterval: 0, RequestedLifetimeCount: 0, RequestedMaxKeepAliveCount: 0, PublishingEnabled: true},
			func(r ua.Response) error {
				res, _ = r.(*ua.CreateSubscriptionResponse)
				return nil
			})
		if err != nil || res == nil || res.RevisedPublishingInterval != 50 || res.RevisedMaxKeepAliveCount != 1 || res.RevisedLifetimeCount != 3 {
			t.Fatalf("create subscription = %+v, %v; want it revised to 50 ms, keep-alive 1, lifetime 3", res, err)
		}
	})
	t.Run("OtherSessionsSubscription", func(t *testing.T) {
		other := opcuaClient(t, f.addr)
		err := other.Send(ctx, &ua.DeleteSubscriptionsRequest{SubscriptionIDs: []uint32{1}}, func(r ua.Response) error {
			if res := r.(*ua.DeleteSubscriptionsResponse); res.Results[0] != ua.StatusBadSubscriptionIDInvalid {
				t.Errorf("deleting another session's subscription = %v", res.Results[0])
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	})
	if got := readValue(t, c, ua.NewStringNodeID(1, "Temperature"), ua.AttributeIDValue, ua.TimestampsToReturnBoth).Value.Value(); got != 64.2 {
		t.Fatalf("after all that, Temperature = %v", got)
	}
}

// TestOPCUAMalformedOpen sends OpenSecureChannel requests no client would:
// the device closes that connection and serves the next client as ever.
func TestOPCUAMalformedOpen(t *testing.T) {
	eq := writableTwin(t)
	f := startOPCUAFleet(t, eq)
	eps, err := opcua.GetEndpoints(context.Background(), "opc.tcp://"+f.addr)
	if err != nil {
		t.Fatal(err)
	}
	serverThumbprint := sha1.Sum(eps[0].ServerCertificate)
	clientCert, _ := clientCertificate(t)
	str := func(b []byte, s []byte) []byte {
		b = binary.LittleEndian.AppendUint32(b, uint32(len(s)))
		return append(b, s...)
	}
	open := func(policy string, cert, thumbprint, body []byte) []byte {
		b := []byte("OPNF\x00\x00\x00\x00\x00\x00\x00\x00")
		b = str(b, []byte(policy))
		b = str(b, cert)
		b = str(b, thumbprint)
		b = append(b, body...)
		binary.LittleEndian.PutUint32(b[4:8], uint32(len(b)))
		return b
	}
	garbage := bytes.Repeat([]byte{0x5a}, 512)
	tests := []struct {
		name string
		msg  []byte
	}{
		{"ErrNotDecryptable", open(ua.SecurityPolicyURIBasic256Sha256, clientCert, serverThumbprint[:], garbage)},
		{"ErrOtherThumbprint", open(ua.SecurityPolicyURIBasic256Sha256, clientCert, make([]byte, 20), garbage)},
		{"ErrPolicyNotOffered", open(ua.SecurityPolicyURIBasic128Rsa15, clientCert, serverThumbprint[:], garbage)},
		{"ErrNoCertificate", open(ua.SecurityPolicyURIBasic256Sha256, nil, serverThumbprint[:], garbage)},
		{"ErrSizeTooSmall", []byte("OPNF\x04\x00\x00\x00\x00\x00\x00\x00")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := net.DialTimeout("tcp", f.addr, 3*time.Second)
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			hello := []byte("HELF\x00\x00\x00\x00")
			for _, v := range []uint32{0, 65535, 65535, 0, 0} {
				hello = binary.LittleEndian.AppendUint32(hello, v)
			}
			hello = str(hello, []byte("opc.tcp://"+f.addr))
			binary.LittleEndian.PutUint32(hello[4:8], uint32(len(hello)))
			_ = c.SetDeadline(time.Now().Add(5 * time.Second))
			if _, err := c.Write(hello); err != nil {
				t.Fatal(err)
			}
			ack := make([]byte, 28)
			if _, err := io.ReadFull(c, ack); err != nil || string(ack[:3]) != "ACK" {
				t.Fatalf("acknowledge = %q, %v", ack, err)
			}
			if _, err := c.Write(tt.msg); err != nil {
				t.Fatal(err)
			}
			if _, err := io.ReadAll(c); errors.Is(err, os.ErrDeadlineExceeded) {
				t.Fatal("the connection stayed open")
			}
			if got := opcuaRead(t, f.addr, "ns=1;s=Temperature"); got != 64.2 {
				t.Fatalf("Temperature = %v", got)
			}
		})
	}
}
