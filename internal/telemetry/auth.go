package telemetry

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"log/slog"
	"net/url"
	"strings"
	"sync"
	"time"

	mqtt "github.com/mochi-mqtt/server/v2"
	"github.com/mochi-mqtt/server/v2/packets"

	"journeyman/internal/twin"
)

// Credential is an MQTT username and password.
type Credential struct {
	Username, Password string
}

// IsZero reports whether no credential is set.
func (c Credential) IsZero() bool { return c.Username == "" && c.Password == "" }

// newServerCredential is a process's own login to its embedded broker. The
// name is random too, so that no equipment id or deployment user can be it.
func newServerCredential() Credential {
	return Credential{Username: "journeyman-server-" + randomHex(8), Password: randomHex(32)}
}

func randomHex(n int) string {
	b := make([]byte, n)
	rand.Read(b)
	return hex.EncodeToString(b)
}

// TestFilter matches the test topic (twin.TestTopic) of every twin: what
// the server sends a device, and what a device subscribes to.
const TestFilter = "journeyman/equipment/+/test"

// DevicePassword is the MQTT password of the device of twin equipmentID:
// an HMAC under the deployment's device secret, so that the broker checks
// it without storing a password per device, and every process sharing the
// database derives the same one.
func DevicePassword(secret []byte, equipmentID string) string {
	m := hmac.New(sha256.New, secret)
	m.Write([]byte(equipmentID))
	return hex.EncodeToString(m.Sum(nil))[:32]
}

// DeviceCredentials is what a device of one twin needs to log in to the
// embedded broker, as staff are shown it.
type DeviceCredentials struct {
	Broker         string `json:"broker"`
	Username       string `json:"username"`
	Password       string `json:"password"`
	PublishTopic   string `json:"publishTopic"`
	SubscribeTopic string `json:"subscribeTopic"`
}

// NewDeviceCredentials returns the credentials of twin equipmentID's device
// on the broker at brokerURL.
func NewDeviceCredentials(brokerURL string, secret []byte, equipmentID string) DeviceCredentials {
	return DeviceCredentials{
		Broker:         WithoutUserinfo(brokerURL),
		Username:       equipmentID,
		Password:       DevicePassword(secret, equipmentID),
		PublishTopic:   twin.TelemetryTopic(equipmentID),
		SubscribeTopic: twin.TestTopic(equipmentID),
	}
}

// URLCredential returns the login an MQTT URL carries in its userinfo.
func URLCredential(rawURL string) Credential {
	u, err := url.Parse(rawURL)
	if err != nil || u.User == nil {
		return Credential{}
	}
	pw, _ := u.User.Password()
	return Credential{Username: u.User.Username(), Password: pw}
}

// WithoutUserinfo returns rawURL without its username and password: the
// broker's address as it may be shown.
func WithoutUserinfo(rawURL string) string {
	u, err := url.Parse(rawURL)
	if err != nil {
		return ""
	}
	u.User = nil
	return u.String()
}

// Redacted returns rawURL with its password replaced, for logs.
func Redacted(rawURL string) string {
	u, err := url.Parse(rawURL)
	if err != nil {
		return "(unparsable MQTT URL)"
	}
	return u.Redacted()
}

// BrokerAuth says who besides the process itself may log in to the
// embedded broker. The zero value admits only the process's own clients.
type BrokerAuth struct {
	// Gateway is the deployment's device login, for a plant gateway
	// publishing for many twins; zero means none.
	Gateway Credential
	// DeviceSecret signs per-device passwords (DevicePassword); nil means
	// no device logs in on its own.
	DeviceSecret []byte
	// EquipmentIDs lists the twins a device may log in as.
	EquipmentIDs func(context.Context) ([]string, error)
}

// role is what a login may do. It follows from the username alone: the
// server's name is random, and a deployment user's name is never taken as
// an equipment id (authenticate checks it first), so ACL checks need no
// state kept per connection.
type role int

const (
	roleNone role = iota
	roleServer
	roleGateway
	roleDevice
)

// authHook is the embedded broker's authentication and topic permissions.
type authHook struct {
	mqtt.HookBase
	server  Credential
	gateway Credential
	secret  []byte
	devices *knownIDs
	log     *slog.Logger
}

// ID names the hook in mochi's logs.
func (h *authHook) ID() string { return "journeyman-auth" }

// Provides tells mochi which hook methods this hook implements.
func (h *authHook) Provides(b byte) bool {
	return b == mqtt.OnConnectAuthenticate || b == mqtt.OnACLCheck
}

func sameSecret(a, b string) bool { return subtle.ConstantTimeCompare([]byte(a), []byte(b)) == 1 }

// OnConnectAuthenticate admits the process's own clients, the deployment's
// gateway user and the device of a known twin; nobody else, so anonymous
// and unknown clients get "bad username or password".
func (h *authHook) OnConnectAuthenticate(cl *mqtt.Client, pk packets.Packet) bool {
	user, pass := string(pk.Connect.Username), string(pk.Connect.Password)
	ok := h.authenticate(user, pass)
	if !ok {
		h.log.Warn("MQTT login refused", "username", user, "remote", cl.Net.Remote)
	}
	return ok
}

func (h *authHook) authenticate(user, pass string) bool {
	if user == "" {
		return false
	}
	switch h.roleOf(user) {
	case roleServer:
		return sameSecret(pass, h.server.Password)
	case roleGateway:
		return sameSecret(pass, h.gateway.Password)
	case roleDevice:
		// The password first: only a holder of the secret's answer makes
		// the broker look the twin up, so no stranger can make it read the
		// database.
		return h.secret != nil && sameSecret(pass, DevicePassword(h.secret, user)) && h.devices.has(user)
	}
	return false
}

func (h *authHook) roleOf(user string) role {
	switch {
	case user == h.server.Username:
		return roleServer
	case h.gateway.Username != "" && user == h.gateway.Username:
		return roleGateway
	case user != "" && !strings.ContainsAny(user, "/+#"):
		return roleDevice
	}
	return roleNone
}

// OnACLCheck decides a publish (write) to a topic or a subscription (read)
// to a filter, and again each delivery to the delivered topic.
func (h *authHook) OnACLCheck(cl *mqtt.Client, topic string, write bool) bool {
	user := string(cl.Properties.Username)
	switch h.roleOf(user) {
	case roleServer:
		return true
	case roleGateway:
		if write {
			return matchesTwinTopic(topic, "telemetry", false)
		}
		return matchesTwinTopic(topic, "test", true)
	case roleDevice:
		if write {
			return topic == twin.TelemetryTopic(user)
		}
		return topic == twin.TestTopic(user)
	}
	return false
}

// matchesTwinTopic reports whether topic is journeyman/equipment/{id}/leaf
// for one twin, or, when plus is set, for every twin ("+"). Nothing else:
// no "#", no $share or $SYS, no other leaf.
func matchesTwinTopic(topic, leaf string, plus bool) bool {
	parts := strings.Split(topic, "/")
	if len(parts) != 4 || parts[0] != "journeyman" || parts[1] != "equipment" || parts[3] != leaf {
		return false
	}
	id := parts[2]
	if id == "+" {
		return plus
	}
	return id != "" && !strings.ContainsAny(id, "+#")
}

// deviceRecheck bounds how often a login for a twin the cache does not hold
// re-reads the twins: a twin added since is accepted within it.
const deviceRecheck = time.Second

// deviceForget bounds how long a retired twin's device may still log in.
const deviceForget = time.Minute

// knownIDs caches the equipment ids devices may log in as.
type knownIDs struct {
	load func(context.Context) ([]string, error)
	log  *slog.Logger

	mu     sync.Mutex
	ids    map[string]bool
	loaded time.Time
}

func (k *knownIDs) has(id string) bool {
	if k == nil || k.load == nil {
		return false
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.ids[id] && time.Since(k.loaded) < deviceForget {
		return true
	}
	if !k.loaded.IsZero() && time.Since(k.loaded) < deviceRecheck {
		return false
	}
	k.loaded = time.Now()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	ids, err := k.load(ctx)
	if err != nil {
		k.log.Error("MQTT device login: list equipment", "err", err)
		return false
	}
	k.ids = make(map[string]bool, len(ids))
	for _, x := range ids {
		k.ids[x] = true
	}
	return k.ids[id]
}
