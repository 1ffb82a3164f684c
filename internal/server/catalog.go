package server

import "net/http"

func (s *Server) handleListTrades(w http.ResponseWriter, r *http.Request) {
	trades, err := s.store.ListTrades(r.Context())
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, trades)
}

func (s *Server) handleListModules(w http.ResponseWriter, r *http.Request) {
	modules, err := s.store.ListModules(r.Context())
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, modules)
}
