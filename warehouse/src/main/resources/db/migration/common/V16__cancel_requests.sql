-- sluice cancel <run-id>: a request recorded here (from any process) that the process running the
-- job picks up within the pipeline's execution.control_poll, stopping it so that a restart resumes.
ALTER TABLE sluice.run ADD COLUMN cancel_requested_at TIMESTAMP WITH TIME ZONE;
ALTER TABLE sluice.run ADD COLUMN cancel_requested_by VARCHAR(200);
ALTER TABLE sluice.backfill ADD COLUMN cancel_requested_at TIMESTAMP WITH TIME ZONE;
ALTER TABLE sluice.backfill ADD COLUMN cancel_requested_by VARCHAR(200);
