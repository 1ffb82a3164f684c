package gateway

import (
	"context"
	"errors"

	"journeyman/internal/fieldbus"
	"journeyman/internal/twin"
)

type enipSource struct {
	c      *fieldbus.ENIPClient
	points []twin.Point
}

func openENIP(ctx context.Context, c twin.Connection) (source, error) {
	client, err := fieldbus.DialENIP(ctx, c.Address, c.CIPPath, timeout(c))
	if err != nil {
		return nil, linkError(err)
	}
	return &enipSource{c: client, points: c.Points}, nil
}

func (s *enipSource) Close() { _ = s.c.Close() } // the session ends with the connection either way

// Read reads every point's tag. A CIP refusal (no such tag, a route the
// chassis lacks) fails only its point; a broken session fails the read.
func (s *enipSource) Read(ctx context.Context) ([]Value, error) {
	out := make([]Value, 0, len(s.points))
	for _, p := range s.points {
		v, err := s.c.ReadTag(ctx, p.Tag)
		var refused *fieldbus.CIPError
		switch {
		case errors.As(err, &refused):
			out = append(out, failed(p, err))
		case err != nil:
			return out, linkError(err)
		default:
			out = append(out, point(p, v))
		}
	}
	return out, nil
}
