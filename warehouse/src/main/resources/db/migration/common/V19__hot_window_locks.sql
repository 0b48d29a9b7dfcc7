-- One row per live window table: the consumers of a group take it (SELECT … FOR UPDATE) before they
-- recompute that table's windows, so that two batches never rewrite one window at once; the second
-- then sees the first's committed events.
CREATE TABLE sluice.hot_window_lock (
    window_table VARCHAR(200) NOT NULL PRIMARY KEY
);
