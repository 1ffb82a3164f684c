package fieldbus

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"net"
	"strconv"
	"sync"

	"journeyman/internal/twin"
)

// Where the devices listen unless configured otherwise. Modbus's own port,
// 502, needs root, so its devices start at 5020, the usual unprivileged
// stand-in; OPC UA's 4840 and EtherNet/IP's 44818 are unprivileged already
// and are used as they are.
const (
	DefaultHost       = "127.0.0.1"
	DefaultModbusPort = 5020
	DefaultOPCUAPort  = 4840
	DefaultENIPPort   = 44818
)

// BasePort is where a protocol's devices listen: the first twin speaking
// it on Port, the next on Port+1, and so on in fleet order. Port 0 puts
// every device on a free port.
type BasePort struct {
	Port int
	// Explicit says the port was configured: one that is taken fails the
	// start. A default port that is taken (a second instance, a test run)
	// gives way to a free port with a warning instead.
	Explicit bool
}

// Listen says where Start puts the devices.
type Listen struct {
	Host  string              // default DefaultHost
	Ports map[string]BasePort // by kind: KindModbus, KindOPCUA, KindEtherNetIP
}

// DefaultListen is the ports the README documents.
func DefaultListen() Listen {
	return Listen{Host: DefaultHost, Ports: map[string]BasePort{
		KindModbus: {Port: DefaultModbusPort}, KindOPCUA: {Port: DefaultOPCUAPort}, KindEtherNetIP: {Port: DefaultENIPPort},
	}}
}

// Start starts a device for every twin of list that speaks Modbus, OPC UA
// or EtherNet/IP, with the twin's state as given, and logs one line per
// device. list is in fleet order, which fixes each device's port. A device
// that fails to start fails the whole start; the caller's Close stops the
// ones that did.
func (f *Fleet) Start(ctx context.Context, list []twin.Equipment, cfg Listen, log *slog.Logger) error {
	if cfg.Host == "" {
		cfg.Host = DefaultHost
	}
	f.mu.Lock()
	f.host, f.ports, f.log = cfg.Host, cfg.Ports, log
	f.mu.Unlock()
	// Ports are bound in fleet order, so each twin's port is fixed; the
	// devices then start side by side, as an OPC UA server takes a moment
	// to build its address space.
	type pending struct {
		eq   twin.Equipment
		kind string
		ln   net.Listener
		d    device
		err  error
	}
	var todo []*pending
	for _, eq := range list {
		kind := demoKind(eq)
		if kind == "" {
			continue
		}
		base := cfg.Ports[kind]
		port := f.nextPort(kind)
		ln, err := f.listen(ctx, cfg.Host, port, base.Explicit, kind, eq.ID, log)
		if err != nil {
			for _, p := range todo {
				p.ln.Close()
			}
			return err
		}
		todo = append(todo, &pending{eq: eq, kind: kind, ln: ln})
	}
	var wg sync.WaitGroup
	for _, p := range todo {
		wg.Go(func() { p.d, p.err = f.startDevice(p.eq, p.kind, p.ln) })
	}
	wg.Wait()
	var errs []error
	for _, p := range todo {
		if p.err != nil {
			errs = append(errs, fmt.Errorf("start %s device for %s: %w", p.kind, p.eq.ID, p.err))
			continue
		}
		f.mu.Lock()
		if old := f.devices[p.eq.ID]; old != nil {
			old.close()
		}
		f.devices[p.eq.ID] = p.d
		f.shapes[p.eq.ID] = shape(p.eq)
		f.mu.Unlock()
		log.Info("field device", "twin", p.eq.ID, "protocol", p.kind, "address", p.d.addr())
	}
	return errors.Join(errs...)
}

// demoKind is the kind of the demo device eq needs; "" when it needs none:
// MQTT twins publish through the broker, and a twin connected to a real
// device is that device's.
func demoKind(eq twin.Equipment) string {
	kind := Kind(eq.CommunicationProtocol)
	if kind == KindMQTT || eq.Connection != nil {
		return ""
	}
	return kind
}

// nextPort is the port of kind's next device in fleet order, 0 for a free
// port when kind's devices have no base port.
func (f *Fleet) nextPort(kind string) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	base := f.ports[kind].Port
	if base == 0 {
		return 0
	}
	port := base + f.next[kind]
	f.next[kind]++
	return port
}

// shape is what a demo device shows of its twin beyond the readings: a
// change of it needs a new device.
func shape(eq twin.Equipment) string {
	return fmt.Sprint(eq.CommunicationProtocol, "|", eq.Name, "|", eq.Manufacturer, "|", eq.Model, "|", eq.SerialNumber, "|", eq.WritableSensors)
}

// Put brings the twin's demo device in line with its definition, for a
// twin created, edited or connected while the server runs: a twin
// connected to a real device has none; another gets one, on the next port
// of its protocol (logged), and a new one on the same address when what
// the device shows of the twin changed.
func (f *Fleet) Put(ctx context.Context, eq twin.Equipment) error {
	kind := demoKind(eq)
	if kind == "" {
		f.Remove(eq.ID)
		return nil
	}
	f.mu.Lock()
	old, log, host := f.devices[eq.ID], f.log, f.host
	same := old != nil && f.shapes[eq.ID] == shape(eq)
	f.mu.Unlock()
	if same {
		f.Follow(eq)
		return nil
	}
	if old != nil {
		f.Remove(eq.ID)
	}
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	var ln net.Listener
	var err error
	if old != nil {
		// The same address, so a plant client configured for it finds the
		// device again.
		var lc net.ListenConfig
		ln, err = lc.Listen(ctx, "tcp", old.addr())
	}
	if old == nil || err != nil {
		ln, err = f.listen(ctx, host, f.nextPort(kind), false, kind, eq.ID, log)
	}
	if err != nil {
		return err
	}
	d, err := f.startDevice(eq, kind, ln)
	if err != nil {
		return fmt.Errorf("start %s device for %s: %w", kind, eq.ID, err)
	}
	f.mu.Lock()
	if other := f.devices[eq.ID]; other != nil {
		other.close()
	}
	f.devices[eq.ID], f.shapes[eq.ID], f.followed[eq.ID] = d, shape(eq), eq.LastUpdated
	f.mu.Unlock()
	log.Info("field device", "twin", eq.ID, "protocol", kind, "address", d.addr())
	return nil
}

// Remove stops the twin's demo device, for a twin retired or connected to
// a real device.
func (f *Fleet) Remove(id string) {
	f.mu.Lock()
	d := f.devices[id]
	delete(f.devices, id)
	delete(f.shapes, id)
	delete(f.followed, id)
	f.mu.Unlock()
	if d != nil {
		d.close()
	}
}

// listen binds a device's port, falling back to a free one when a default
// port is taken, as the embedded MQTT broker does.
func (f *Fleet) listen(ctx context.Context, host string, port int, explicit bool, kind, id string, log *slog.Logger) (net.Listener, error) {
	if port > 65535 {
		return nil, fmt.Errorf("%s device for %s: port %d is past 65535; lower the base port", kind, id, port)
	}
	var lc net.ListenConfig
	addr := net.JoinHostPort(host, strconv.Itoa(port))
	ln, err := lc.Listen(ctx, "tcp", addr)
	if err == nil {
		return ln, nil
	}
	if explicit || port == 0 {
		return nil, fmt.Errorf("%s device for %s on %s: %w", kind, id, addr, err)
	}
	log.Warn("field device: default port busy, using a free port", "twin", id, "protocol", kind, "address", addr, "err", err)
	ln, err = lc.Listen(ctx, "tcp", net.JoinHostPort(host, "0"))
	if err != nil {
		return nil, fmt.Errorf("%s device for %s: %w", kind, id, err)
	}
	return ln, nil
}

// connectedParams are the connection parameters of a twin connected to its
// real device: where the gateway reaches it.
func connectedParams(protocol string, c twin.Connection) map[string]any {
	p := twin.WatchedParams(c)
	switch Kind(protocol) {
	case KindModbus, KindEtherNetIP:
		host, port, _ := net.SplitHostPort(c.Address)
		p["host"] = host
		p["port"], _ = strconv.Atoi(port)
		if Kind(protocol) == KindModbus {
			p["unitId"] = c.UnitID
		} else {
			p["cipPath"] = c.CIPPath
		}
	case KindOPCUA:
		p["endpointUrl"], p["securityPolicy"], p["securityMode"] = c.Address, c.SecurityPolicy, c.SecurityMode
	case KindMQTT:
		p["brokerUrl"], p["topic"] = c.Address, c.Topic
	}
	return p
}

// Present returns eq with the connection parameters of the device that
// actually serves it: the seed's plant addresses (10.20.x.x, port 502) are
// what a real site would use, but a client on this machine must reach the
// simulator. Twins without a running device are returned as they are.
func (f *Fleet) Present(eq twin.Equipment) twin.Equipment {
	if c := eq.Connection; c != nil {
		eq.ConnectionParameters = connectedParams(eq.CommunicationProtocol, *c)
		return eq
	}
	kind := Kind(eq.CommunicationProtocol)
	var addr string
	if kind == KindMQTT {
		addr = f.BrokerAddr
	} else {
		f.mu.Lock()
		if d := f.devices[eq.ID]; d != nil {
			addr = d.addr()
		}
		f.mu.Unlock()
	}
	if addr == "" {
		return eq
	}
	host, portText, err := net.SplitHostPort(addr)
	if err != nil {
		return eq
	}
	port, _ := strconv.Atoi(portText)
	params := maps.Clone(eq.ConnectionParameters)
	if params == nil {
		params = map[string]any{}
	}
	switch kind {
	case KindModbus, KindEtherNetIP:
		params["host"], params["port"] = host, port
	case KindOPCUA:
		params["endpointUrl"] = "opc.tcp://" + addr
	case KindMQTT:
		params["brokerUrl"] = "tcp://" + addr
		params["testTopic"] = twin.TestTopic(eq.ID)
	}
	eq.ConnectionParameters = params
	return eq
}
