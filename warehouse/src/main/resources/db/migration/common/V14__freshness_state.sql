-- The last freshness state seen per dataset, so that an alert goes out once per transition
-- (ok → warn → breach, and back), whichever process checks.
CREATE TABLE sluice.freshness_state (
    pipeline    VARCHAR(200) NOT NULL,
    dataset     VARCHAR(200) NOT NULL,
    state       VARCHAR(10)  NOT NULL,
    changed_at  TIMESTAMP WITH TIME ZONE NOT NULL,
    PRIMARY KEY (pipeline, dataset)
);
