package store

// Exported for tests.
var (
	EncodeHistory = encodeHistory
	DecodeHistory = decodeHistory
)
