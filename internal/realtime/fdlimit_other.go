//go:build !unix

package realtime

func openFileLimit() int { return 0 }
