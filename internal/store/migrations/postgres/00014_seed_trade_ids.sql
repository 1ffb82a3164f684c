-- +goose Up
-- The seed fleet named trades the catalog does not have (lineworkers,
-- solar, wind) and a frequency outside the list a twin's definition takes
-- ("every 3 years"): a twin stored that way could not be saved unchanged on
-- Manage equipment. They become the catalog's ids and "triennial".
UPDATE equipment SET
    supported_trade_types = REPLACE(REPLACE(REPLACE(supported_trade_types,
        '"lineworkers"', '"lineworker"'), '"solar"', '"solar-wind"'), '"wind"', '"solar-wind"'),
    maintenance_schedule = REPLACE(REPLACE(REPLACE(REPLACE(maintenance_schedule,
        '"lineworkers"', '"lineworker"'), '"solar"', '"solar-wind"'), '"wind"', '"solar-wind"'), '"every 3 years"', '"triennial"');

-- +goose Down
SELECT 1;
