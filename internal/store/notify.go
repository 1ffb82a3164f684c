package store

import (
	"context"
	"database/sql"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
)

// Notifications reach every process that shares the database: PostgreSQL
// delivers them with LISTEN/NOTIFY; SQLite is one process, so they are
// delivered in process. Payloads stay small (ids, not records): PostgreSQL
// refuses more than 8000 bytes.

// MaxNotifyPayload is the largest payload Notify accepts.
const MaxNotifyPayload = 7900

type listeners struct {
	mu  sync.RWMutex
	fns map[string][]func(payload string)
}

func (l *listeners) add(channel string, fn func(string)) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.fns == nil {
		l.fns = map[string][]func(string){}
	}
	l.fns[channel] = append(l.fns[channel], fn)
}

func (l *listeners) deliver(channel, payload string) {
	l.mu.RLock()
	fns := l.fns[channel]
	l.mu.RUnlock()
	for _, fn := range fns {
		fn(payload)
	}
}

// txNotify runs fn in one transaction, like tx; when fn reports a change,
// payload-less notice on channel reaches every process's listeners: on
// PostgreSQL NOTIFY inside the transaction, delivered only if it commits;
// on SQLite in process, by calling after once tx has returned nil.
func (s *Store) txNotify(ctx context.Context, op, channel string, fn func(*sql.Tx) (changed bool, err error)) (after func(), err error) {
	after = func() {}
	err = s.tx(ctx, op, func(ctx context.Context, tx *sql.Tx) error {
		changed, err := fn(tx)
		if err != nil || !changed {
			return err
		}
		if s.dialect != Postgres {
			after = func() { s.listeners.deliver(channel, "") }
			return nil
		}
		if _, err := tx.ExecContext(ctx, `SELECT pg_notify($1, '')`, channel); err != nil {
			return fmt.Errorf("notify %s: %w", channel, err)
		}
		return nil
	})
	return after, err
}

// Notify sends payload on channel to the listeners of every process.
func (s *Store) Notify(ctx context.Context, channel, payload string) error {
	if len(payload) > MaxNotifyPayload {
		return fmt.Errorf("notify %s: payload of %d bytes is over %d", channel, len(payload), MaxNotifyPayload)
	}
	if s.dialect != Postgres {
		s.listeners.deliver(channel, payload)
		return nil
	}
	if _, err := s.db.ExecContext(ctx, `SELECT pg_notify($1, $2)`, channel, payload); err != nil {
		return fmt.Errorf("notify %s: %w", channel, err)
	}
	return nil
}

// Listen calls fn with each payload sent on channel until ctx ends. On
// PostgreSQL it holds one connection and reconnects after a failure;
// notifications sent while it was disconnected are lost, so listeners must
// treat them as hints (the data itself is in the database).
func (s *Store) Listen(ctx context.Context, channel string, fn func(payload string), log *slog.Logger) {
	s.listen(ctx, channel, fn, nil, log)
}

// listen is Listen, calling reconnected (when not nil) each time LISTEN is
// in place again after a lost connection.
func (s *Store) listen(ctx context.Context, channel string, fn func(payload string), reconnected func(), log *slog.Logger) {
	s.listeners.add(channel, fn)
	if s.dialect != Postgres {
		return
	}
	ready := make(chan struct{})
	go func() {
		first := true
		listening := func() {
			if first {
				first = false
				close(ready)
			} else if reconnected != nil {
				reconnected()
			}
		}
		for ctx.Err() == nil {
			err := s.listenOnce(ctx, channel, listening)
			if ctx.Err() != nil {
				return
			}
			log.Warn("listen: connection lost, reconnecting", "channel", channel, "err", err)
			select {
			case <-ctx.Done():
			case <-time.After(time.Second):
			}
		}
	}()
	// Return once LISTEN is in place, so a Notify right after is not missed.
	select {
	case <-ready:
	case <-ctx.Done():
	case <-time.After(10 * time.Second):
		log.Warn("listen: not yet listening after 10 s", "channel", channel)
	}
}

func (s *Store) listenOnce(ctx context.Context, channel string, listening func()) error {
	conn, err := pgx.Connect(ctx, s.dsn)
	if err != nil {
		return err
	}
	defer conn.Close(context.Background())
	if _, err := conn.Exec(ctx, "LISTEN "+pgx.Identifier{channel}.Sanitize()); err != nil {
		return err
	}
	listening()
	for {
		n, err := conn.WaitForNotification(ctx)
		if err != nil {
			return err
		}
		s.listeners.deliver(n.Channel, n.Payload)
	}
}
