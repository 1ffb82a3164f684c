package gateway

import (
	"context"
	"errors"

	"journeyman/internal/twin"
)

func openENIP(_ context.Context, _ twin.Connection) (source, error) {
	return nil, errors.New("TODO: EtherNet/IP client")
}
