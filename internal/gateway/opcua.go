package gateway

import (
	"context"
	"crypto/rsa"
	"fmt"
	"sync"
	"time"

	"github.com/gopcua/opcua"
	"github.com/gopcua/opcua/ua"

	"journeyman/internal/fieldbus"
	"journeyman/internal/twin"
)

// applicationURI names the gateway to OPC UA servers, in its certificate
// and its session.
const applicationURI = "urn:journeyman:gateway"

type opcuaSource struct {
	c      *opcua.Client
	points []twin.Point
	nodes  []*ua.NodeID
	sub    *opcua.Subscription
	notes  chan *opcua.PublishNotificationData
	read   bool // the first Read reads every node; the next ones wait for changes
	last   []Value
	// interval is the subscription's publishing interval.
	interval time.Duration
}

func openOPCUA(ctx context.Context, c twin.Connection) (source, error) {
	nodes := make([]*ua.NodeID, len(c.Points))
	for i, p := range c.Points {
		n, err := ua.ParseNodeID(p.NodeID)
		if err != nil {
			return nil, fmt.Errorf("points[%d].nodeId %q: %w", i, p.NodeID, err)
		}
		nodes[i] = n
	}
	opts := []opcua.Option{opcua.RequestTimeout(timeout(c)), opcua.DialTimeout(timeout(c)), opcua.AutoReconnect(false),
		opcua.ApplicationURI(applicationURI), opcua.ApplicationName("Journeyman XR gateway")}
	if c.SecurityPolicy == "None" {
		opts = append(opts, opcua.SecurityPolicy(ua.SecurityPolicyURINone), opcua.SecurityMode(ua.MessageSecurityModeNone))
	} else {
		cert, err := clientCertificate()
		if err != nil {
			return nil, err
		}
		dctx, cancel := context.WithTimeout(ctx, timeout(c))
		endpoints, err := opcua.GetEndpoints(dctx, c.Address, opcua.DialTimeout(timeout(c)))
		cancel()
		if err != nil {
			return nil, linkError(err)
		}
		ep, err := opcua.SelectEndpoint(endpoints, c.SecurityPolicy, ua.MessageSecurityModeFromString(c.SecurityMode))
		if err != nil {
			return nil, fmt.Errorf("the server offers no %s %s endpoint: %w", c.SecurityPolicy, c.SecurityMode, err)
		}
		tokenType := ua.UserTokenTypeAnonymous
		if c.Username != "" {
			tokenType = ua.UserTokenTypeUserName
		}
		opts = append(opts, opcua.Certificate(cert.der), opcua.PrivateKey(cert.key), opcua.SecurityFromEndpoint(ep, tokenType))
	}
	if c.Username != "" {
		opts = append(opts, opcua.AuthUsername(c.Username, c.Password))
	} else {
		opts = append(opts, opcua.AuthAnonymous())
	}
	client, err := opcua.NewClient(c.Address, opts...)
	if err != nil {
		return nil, err
	}
	cctx, cancel := context.WithTimeout(ctx, timeout(c)*2)
	defer cancel()
	if err := client.Connect(cctx); err != nil {
		return nil, linkError(err)
	}
	return &opcuaSource{c: client, points: c.Points, nodes: nodes, interval: time.Duration(c.IntervalMs) * time.Millisecond}, nil
}

func (s *opcuaSource) Close() {
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	if s.sub != nil {
		_ = s.sub.Cancel(ctx) // closing the session ends the subscription anyway
	}
	_ = s.c.Close(ctx)
}

// Read reads every node the first time; then it subscribes (publishing
// at interval) and each Read returns the points as they stand after the
// next data change.
func (s *opcuaSource) Read(ctx context.Context) ([]Value, error) {
	if !s.read {
		s.read = true
		return s.readAll(ctx)
	}
	if s.sub == nil {
		if err := s.subscribe(ctx); err != nil {
			return nil, err
		}
	}
	for {
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case n := <-s.notes:
			if n.Error != nil {
				return nil, linkError(n.Error)
			}
			dc, ok := n.Value.(*ua.DataChangeNotification)
			if !ok {
				continue // keep-alives and status changes
			}
			for _, item := range dc.MonitoredItems {
				if i := int(item.ClientHandle); i < len(s.last) {
					s.last[i] = s.value(i, item.Value)
				}
			}
			return append([]Value(nil), s.last...), nil
		}
	}
}

func (s *opcuaSource) readAll(ctx context.Context) ([]Value, error) {
	req := &ua.ReadRequest{TimestampsToReturn: ua.TimestampsToReturnBoth}
	for _, n := range s.nodes {
		req.NodesToRead = append(req.NodesToRead, &ua.ReadValueID{NodeID: n, AttributeID: ua.AttributeIDValue})
	}
	resp, err := s.c.Read(ctx, req)
	if err != nil {
		return nil, linkError(err)
	}
	s.last = make([]Value, len(s.points))
	for i := range s.points {
		var dv *ua.DataValue
		if i < len(resp.Results) {
			dv = resp.Results[i]
		}
		s.last[i] = s.value(i, dv)
	}
	return append([]Value(nil), s.last...), nil
}

// Subscribe starts data-change notifications for every node.
func (s *opcuaSource) subscribe(ctx context.Context) error {
	s.notes = make(chan *opcua.PublishNotificationData, 16)
	sub, err := s.c.Subscribe(ctx, &opcua.SubscriptionParameters{Interval: s.interval}, s.notes)
	if err != nil {
		return linkError(err)
	}
	s.sub = sub
	reqs := make([]*ua.MonitoredItemCreateRequest, len(s.nodes))
	for i, n := range s.nodes {
		reqs[i] = opcua.NewMonitoredItemCreateRequestWithDefaults(n, ua.AttributeIDValue, uint32(i))
	}
	res, err := sub.Monitor(ctx, ua.TimestampsToReturnBoth, reqs...)
	if err != nil {
		return linkError(err)
	}
	for i, r := range res.Results {
		if r.StatusCode != ua.StatusOK && i < len(s.last) {
			s.last[i] = failed(s.points[i], r.StatusCode)
		}
	}
	return nil
}

func (s *opcuaSource) value(i int, dv *ua.DataValue) Value {
	p := s.points[i]
	switch {
	case dv == nil:
		return failed(p, fmt.Errorf("no value"))
	case dv.Status != ua.StatusOK:
		return failed(p, dv.Status)
	case dv.Value == nil:
		return failed(p, fmt.Errorf("empty value"))
	}
	raw, ok := number(dv.Value.Value())
	if !ok {
		return failed(p, fmt.Errorf("%s is not a number", dv.Value.Type()))
	}
	return point(p, raw)
}

func number(v any) (float64, bool) {
	switch n := v.(type) {
	case float64:
		return n, true
	case float32:
		return float64(n), true
	case int8:
		return float64(n), true
	case int16:
		return float64(n), true
	case int32:
		return float64(n), true
	case int64:
		return float64(n), true
	case uint8:
		return float64(n), true
	case uint16:
		return float64(n), true
	case uint32:
		return float64(n), true
	case uint64:
		return float64(n), true
	case bool:
		if n {
			return 1, true
		}
		return 0, true
	}
	return 0, false
}

// The gateway's one client certificate, made on first use: secured OPC UA
// sessions need one, and a server that does not trust it says so.
var clientCertificate = sync.OnceValues(func() (certificate, error) {
	der, key, err := fieldbus.NewApplicationCertificate(applicationURI, "Journeyman XR gateway", "")
	return certificate{der, key}, err
})

type certificate struct {
	der []byte
	key *rsa.PrivateKey
}
