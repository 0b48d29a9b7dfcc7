-- Whether a version was ever published. A rollback with no version named goes to the newest kept
-- version before the published one that was published: not to one whose gate failed (it waited,
-- unpublished, and publishing it would skip its gate). Versions written before this column: NULL,
-- not known, and still rollback targets as before; versions written from now on start FALSE.
ALTER TABLE sluice.partition_version ADD COLUMN published_once BOOLEAN;
ALTER TABLE sluice.partition_version ALTER COLUMN published_once SET DEFAULT FALSE;
