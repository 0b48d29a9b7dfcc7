package dev.sluice.config;

import dev.sluice.core.DatasetRef;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * Reads {@code datasets:}, what a pipeline promises per dataset ({@link DatasetPolicy}):
 * <pre>
 * datasets:                        # optional; a map from dataset (schema.table) to its promise
 *   silver.flights:
 *     owner: flights-data-team     # optional: who answers for it; default none (null)
 *     update_interval: PT24H       # required: how often a new partition is expected (a positive ISO-8601 duration)
 *     freshness_sla: PT40H         # required: more than 1.5 × update_interval (a positive ISO-8601 duration)
 * </pre>
 * Problems are added to the cursor's list with their key paths; nothing is thrown for bad content.
 * A dataset with a bad name or duration is left out. Stateless.
 */
final class DatasetPolicyReader {

    private DatasetPolicyReader() {
    }

    /** The promises by dataset, in file order; empty without {@code datasets}. */
    static Map<DatasetRef, DatasetPolicy> read(YamlCursor c) {
        Map<DatasetRef, DatasetPolicy> out = new LinkedHashMap<>();
        c.map("datasets", false).ifPresent(m -> m.keys().forEach(name -> m.map(name, true).ifPresent(d -> {
            d.allowOnly(Set.of("owner", "update_interval", "freshness_sla"));
            String owner = d.text("owner", false).orElse(null);
            Duration interval = d.duration("update_interval");
            Duration sla = d.duration("freshness_sla");
            DatasetRef ref;
            try {
                ref = DatasetRef.parse(name);
            } catch (RuntimeException e) {
                m.problem(name, name, "a dataset is named schema.table");
                return;
            }
            if (interval == null || sla == null) {
                return;
            }
            if (sla.toMillis() <= interval.toMillis() * DatasetPolicy.WARN_FACTOR) {
                d.problem("freshness_sla", sla.toString(), "the freshness SLA must exceed 1.5 × the update interval ("
                        + Duration.ofMillis(Math.round(interval.toMillis() * DatasetPolicy.WARN_FACTOR)) + "): a dataset"
                        + " must be able to be late (warn) before it breaks its promise");
            }
            out.put(ref, new DatasetPolicy(owner, interval, sla));
        })));
        return out;
    }
}
