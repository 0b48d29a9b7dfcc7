-- Versions written before base_version was recorded (V29) get -1: their base is not known. A
-- merge-on-key version with it that is still waiting for publication never passes the
-- compare-and-set (it is built again on the published version), but it stays a rollback target.
UPDATE sluice.partition_version SET base_version = -1 WHERE base_version IS NULL;
