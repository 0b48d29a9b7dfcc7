-- The other names of a dataset Sluice records lineage for: a lakehouse table is named in OpenLineage
-- events by its storage location (namespace file, hdfs://host:port or s3://bucket; name its path),
-- as OpenLineage's Spark integration names it too, while Sluice's store, commands and page know it
-- by its catalog table (silver.lake_flights). Events from other tools that name the table by its
-- location are stored under the table's name through this map.
CREATE TABLE sluice.lineage_alias (
    namespace  VARCHAR(1000) NOT NULL,
    name       VARCHAR(1000) NOT NULL,
    dataset    VARCHAR(1000) NOT NULL,
    PRIMARY KEY (namespace, name)
);
