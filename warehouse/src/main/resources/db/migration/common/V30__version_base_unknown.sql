-- Versions written before base_version was recorded (V29) get -1: their base is not known, so they
-- are neither taken for refused merge-on-key versions (rollback, restart) nor published by a
-- compare-and-set, but as before.
UPDATE sluice.partition_version SET base_version = -1 WHERE base_version IS NULL;
