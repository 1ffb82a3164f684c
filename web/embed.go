// Package web embeds the built React app (web/dist, made by `make build`).
package web

import (
	"embed"
	"io/fs"
)

//go:embed all:dist
var dist embed.FS

// App returns the built app; it holds only .gitkeep until the frontend is built.
func App() fs.FS {
	app, err := fs.Sub(dist, "dist")
	if err != nil {
		panic(err) // "dist" is a literal embedded folder
	}
	return app
}
