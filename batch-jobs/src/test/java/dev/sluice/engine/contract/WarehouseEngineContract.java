package dev.sluice.engine.contract;

import dev.sluice.batch.testkit.TestHome;
import dev.sluice.config.EngineKind;
import dev.sluice.config.PipelineSpec;
import dev.sluice.config.TableSpec;
import dev.sluice.core.Partition;
import dev.sluice.engine.warehouse.TableChecksum;
import java.time.LocalDate;
import java.util.Arrays;
import java.util.List;

/**
 * The engine contract on the warehouse engine: the project's {@code pipelines/flights.yaml}
 * (tables in the warehouse database, read through jOOQ), three dates. Subclasses name the
 * warehouse database.
 */
public abstract class WarehouseEngineContract extends EngineContract {

    protected WarehouseEngineContract(KitDatabase database) {
        super(database);
    }

    @Override
    protected PipelineSpec engineSpec(String url, String user, String password) {
        return TestHome.flightsSpec(url, user, password);
    }

    @Override
    protected EngineKind engineKind() {
        return EngineKind.WAREHOUSE;
    }

    @Override
    protected List<LocalDate> dates() {
        return List.of(DUPLICATES, QUARANTINE, LAST);
    }

    @Override
    protected String table(String flightsTable) {
        return flightsTable;
    }

    @Override
    protected List<List<Object>> rows(String sql) {
        return warehouse.dsl().resultQuery(sql).fetch().stream().map(r -> Arrays.asList(r.intoArray())).toList();
    }

    @Override
    protected String checksum(TableSpec table, Partition p) {
        return TableChecksum.of(warehouse.dsl(), table, p);
    }
}
