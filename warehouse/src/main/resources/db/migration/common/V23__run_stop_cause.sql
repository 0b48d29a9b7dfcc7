-- Why a STOPPED attempt was stopped, typed: TIMEOUT, CANCEL or SHUTDOWN (a scheduler resumes only
-- a run stopped by a shutdown). It was read from exit_message's words; rows stopped before this
-- migration get their cause from those same words.
ALTER TABLE sluice.run ADD COLUMN stop_cause VARCHAR(16);
UPDATE sluice.run SET stop_cause = 'SHUTDOWN' WHERE status = 'STOPPED' AND exit_message LIKE '%shutting down%';
UPDATE sluice.run SET stop_cause = 'TIMEOUT' WHERE status = 'STOPPED' AND stop_cause IS NULL AND exit_message LIKE '%past its timeout%';
UPDATE sluice.run SET stop_cause = 'CANCEL' WHERE status = 'STOPPED' AND stop_cause IS NULL;
