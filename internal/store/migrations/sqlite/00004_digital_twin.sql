-- +goose Up
-- Digital twins of equipment. JSON columns hold what is only ever read and
-- written whole with its twin.
CREATE TABLE equipment (
    id                     TEXT PRIMARY KEY,
    name                   TEXT NOT NULL,
    manufacturer           TEXT NOT NULL,
    model                  TEXT NOT NULL,
    serial_number          TEXT NOT NULL,
    type                   TEXT NOT NULL,
    status                 TEXT NOT NULL,
    alert_level            TEXT NOT NULL,
    communication_protocol TEXT NOT NULL,
    protocol_version       TEXT NOT NULL,
    connection_parameters  TEXT NOT NULL DEFAULT '{}',
    sync_status            TEXT NOT NULL,
    sync_error_count       INTEGER NOT NULL DEFAULT 0,
    operating_hours        REAL NOT NULL DEFAULT 0,
    sensor_data            TEXT NOT NULL DEFAULT '{}',
    last_updated           TIMESTAMP NOT NULL,
    last_maintenance       TIMESTAMP NOT NULL,
    next_maintenance_date  TIMESTAMP NOT NULL,
    maintenance_schedule   TEXT NOT NULL DEFAULT '{}',
    supported_trade_types  TEXT NOT NULL DEFAULT '[]',
    position               INTEGER NOT NULL
);

-- One row per sensor of a twin: the latest value, the one before it, and a
-- bounded history (a JSON array of at most twin.StreamRetention points), so
-- a poll reads a handful of rows however long the twin has been reporting.
CREATE TABLE equipment_streams (
    equipment_id   TEXT NOT NULL REFERENCES equipment (id) ON DELETE CASCADE,
    sensor         TEXT NOT NULL,
    stream_name    TEXT NOT NULL,
    unit           TEXT NOT NULL,
    value          REAL NOT NULL,
    previous_value REAL,
    quality        TEXT NOT NULL,
    recorded_at    TIMESTAMP NOT NULL,
    history        TEXT NOT NULL DEFAULT '[]',
    PRIMARY KEY (equipment_id, sensor)
);

-- +goose Down
DROP TABLE equipment_streams;
DROP TABLE equipment;
