package dev.sluice.lineage;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** Locations named per the OpenLineage naming spec's file-system and blob-store rows. */
class LocationNameTest {

    @Test
    void localPathsAreNamespaceFileAndTheAbsolutePath() {
        assertThat(LocationName.of("/data/lake/silver/flights")).isEqualTo(new LocationName("file", "/data/lake/silver/flights"));
        assertThat(LocationName.of("file:/data/lake/silver/flights/")).isEqualTo(new LocationName("file", "/data/lake/silver/flights"));
        assertThat(LocationName.of("file:///data/lake/x")).isEqualTo(new LocationName("file", "/data/lake/x"));
        assertThat(LocationName.of("lake/x")).isEqualTo(new LocationName("file", Path.of("lake/x").toAbsolutePath().toString()));
    }

    @Test
    void hdfsKeepsTheNamenodeAndThePath() {
        assertThat(LocationName.of("hdfs://nn.example:8020/warehouse/silver/flights"))
                .isEqualTo(new LocationName("hdfs://nn.example:8020", "/warehouse/silver/flights"));
    }

    @Test
    void blobStoresNameTheBucketAndTheObjectKey() {
        assertThat(LocationName.of("s3a://lake-bucket/warehouse/silver/flights"))
                .isEqualTo(new LocationName("s3://lake-bucket", "warehouse/silver/flights"));
        assertThat(LocationName.of("s3://lake-bucket/w/t")).isEqualTo(new LocationName("s3://lake-bucket", "w/t"));
        assertThat(LocationName.of("gs://b/w/t")).isEqualTo(new LocationName("gs://b", "w/t"));
    }

    @Test
    void characterAHadoopPathAllowsAndAUriDoesNotParse() {
        assertThat(LocationName.of("hdfs://nn:8020/lake/my dir/100%/t"))
                .isEqualTo(new LocationName("hdfs://nn:8020", "/lake/my dir/100%/t"));
        assertThat(LocationName.of("file:///data/home sp/lake/t")).isEqualTo(new LocationName("file", "/data/home sp/lake/t"));
        assertThat(LocationName.of("/data/home sp/./lake/t/")).isEqualTo(new LocationName("file", "/data/home sp/lake/t"));
    }
}
