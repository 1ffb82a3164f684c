package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

// OPCUACertificate is the certificate and key (PEM) the OPC UA devices on
// host present, made by generate the first time. It lives in the database
// so that it survives restarts, and every process sharing the database
// presents the same one: a client told to trust it keeps trusting it.
// Each host has its own, as the certificate names the host.
func (s *Store) OPCUACertificate(ctx context.Context, host string, generate func() ([]byte, error)) ([]byte, error) {
	name := "opcua_certificate " + host
	var pem []byte
	err := s.db.QueryRowContext(ctx, `SELECT value FROM server_secrets WHERE name = $1`, name).Scan(&pem)
	if err == nil {
		return pem, nil
	}
	if !errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("OPC UA certificate: %w", err)
	}
	// Made outside any transaction (an RSA key takes a moment); a process
	// that stored one meanwhile wins, and this one reads it back.
	if pem, err = generate(); err != nil {
		return nil, fmt.Errorf("OPC UA certificate: %w", err)
	}
	if _, err := s.db.ExecContext(ctx, `INSERT INTO server_secrets (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING`, name, pem); err != nil {
		return nil, fmt.Errorf("OPC UA certificate: %w", err)
	}
	if err := s.db.QueryRowContext(ctx, `SELECT value FROM server_secrets WHERE name = $1`, name).Scan(&pem); err != nil {
		return nil, fmt.Errorf("OPC UA certificate: %w", err)
	}
	return pem, nil
}
