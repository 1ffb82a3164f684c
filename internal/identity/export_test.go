package identity

const MaxValid = maxValid

// Remembered is how many valid tokens g remembers.
func Remembered(g *GuestTokens) int {
	g.mu.RLock()
	defer g.mu.RUnlock()
	return len(g.valid)
}
