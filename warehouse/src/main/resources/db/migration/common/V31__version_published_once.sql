-- Whether a version was ever published. A rollback with no version named goes to the newest kept
-- version before the published one that was published: not to one whose gate failed (it waited,
-- unpublished, and publishing it would skip its gate). NULL: not known (versions written before
-- this column, or by a process of an older build still running), and still a rollback target as
-- before. No column default: Sluice writes FALSE with each new version and TRUE when it publishes
-- one, and an older build, which does neither, leaves NULL rather than a FALSE it never corrects.
ALTER TABLE sluice.partition_version ADD COLUMN published_once BOOLEAN;
