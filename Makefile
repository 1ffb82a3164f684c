# Journeyman XR. `make run` and `make test` set everything up on a fresh machine.
SHELL := /bin/bash
.DEFAULT_GOAL := build

GO        ?= go
# golangci-lint, pinned; `go run` builds it once into Go's cache (minutes the
# first time), then a run takes seconds to a minute or two.
GOLANGCI  := $(GO) run github.com/golangci/golangci-lint/v2/cmd/golangci-lint@v2.15.0
BIN       := bin/journeyman
WEB_DEPS  := web/node_modules/.package-lock.json
E2E_DEPS  := e2e/node_modules/.package-lock.json
GO_SRC    := $(shell find cmd internal web -name '*.go' -not -path '*/node_modules/*') go.mod go.sum
WEB_SRC   := $(shell find web/src web/public -type f 2>/dev/null) web/index.html web/vite.config.ts web/package.json web/tsconfig.json

.PHONY: build run web test lint-go lint-web test-go test-web test-e2e bench clean

# npm ci only when the lock file changed since the last install.
$(WEB_DEPS): web/package-lock.json
	cd web && npm ci --no-audit --no-fund
$(E2E_DEPS): e2e/package-lock.json
	cd e2e && npm ci --no-audit --no-fund

web/dist/index.html: $(WEB_DEPS) $(WEB_SRC)
	cd web && npm run build
	touch web/dist/.gitkeep # keeps `go build` working on a tree where the app was never built

web: web/dist/index.html

$(BIN): web/dist/index.html $(GO_SRC)
	$(GO) build -trimpath -ldflags='-s -w' -o $(BIN) ./cmd/journeyman

build: $(BIN)

run: build
	@echo "Journeyman XR: open http://$${JOURNEYMAN_ADDR:-127.0.0.1:8080} (database: $${JOURNEYMAN_DB:-./data/journeyman.db})"
	./$(BIN)

test: lint-go lint-web test-go test-web test-e2e

# The Go linters and their reasons are in .golangci.yml.
lint-go:
	$(GOLANGCI) run ./...

# The web app's rules and their reasons are in web/eslint.config.js.
lint-web: $(WEB_DEPS)
	cd web && npx eslint --max-warnings 0 .

# Store tests also run on PostgreSQL when JOURNEYMAN_TEST_POSTGRES_URL is set.
test-go:
	$(GO) vet ./...
	$(GO) test -race -count=1 ./...

test-web: $(WEB_DEPS)
	cd web && npm run typecheck && npx vitest run

test-e2e: $(BIN) $(E2E_DEPS)
	bash e2e/ensure-tools.sh
	cd e2e && npx playwright test

bench: $(BIN) $(E2E_DEPS)
	@for script in bench/*/run.sh; do echo "== $$script"; bash "$$script" || exit 1; done

clean:
	rm -rf bin web/dist/assets web/dist/index.html
