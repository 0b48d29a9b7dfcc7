package dev.sluice.operations.docs;

import dev.sluice.config.PipelineSpec;
import dev.sluice.config.TableSpec;
import dev.sluice.core.Layer;
import dev.sluice.core.Partition;
import dev.sluice.core.PartitionKind;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.List;

/**
 * The "Procedures" section: the exact commands of run, rerun, range run, backfill (range,
 * {@code --changed}, {@code --stale}), hot-path replay, quarantine reprocess, rollback and purge,
 * with the pipeline's name and a sample partition key of its kind (syntax of the app's CLI
 * commands, {@code dev.sluice.app.cli}). Stateless.
 */
final class ProcedureSection {

    /** The sample day every procedure uses (a key of the pipeline's kind is derived from it). */
    private static final String SAMPLE_DAY = "2001-07-01";

    private ProcedureSection() {
    }

    static void write(Markdown md, PipelineSpec spec) {
        String n = spec.name();
        PartitionKind kind = spec.partitionKind();
        String p = sample(kind, 0);
        String last = kind == PartitionKind.PER_FIRE ? p : sample(kind, 30);
        md.heading(2, "Procedures");
        md.paragraph("Partition keys below are samples of this pipeline's kind (" + kind.id() + ": " + kind.form() + ").");
        md.heading(3, "Run and rerun");
        block(md, "# run one partition (a failed attempt restarts from its failed step)",
                "sluice run " + n + " --partition " + p,
                "# run it again although it COMPLETED: the next attempt, a new version of each Silver/Gold partition",
                "sluice run " + n + " --partition " + p + " --rerun",
                "# an inclusive range, one partition after the other",
                "sluice run " + n + " --from " + p + " --to " + last);
        md.heading(3, "Backfill");
        String changed = spec.tables(Layer.SILVER).stream().filter(TableSpec::partitioned).findFirst()
                .or(() -> spec.tables(Layer.BRONZE).stream().findFirst()).map(TableSpec::stepName).orElse("bronze.TABLE");
        block(md, "# plan only, then run (parallel, resumable: invoking it again continues an unfinished backfill)",
                "sluice backfill " + n + " --from " + p + " --to " + last + " --dry-run",
                "sluice backfill " + n + " --from " + p + " --to " + last,
                "# re-run COMPLETED partitions too (their next attempt)",
                "sluice backfill " + n + " --from " + p + " --to " + last + " --rerun",
                "# after a change to a table: re-run every partition built from it, and only the steps downstream",
                "sluice backfill " + n + " --changed " + changed + " --from " + p + " --to " + last,
                "# re-run the partitions last built with another spec, contract or SQL",
                "sluice backfill " + n + " --stale");
        md.paragraph(spec.backfillWindow() == null ? "No `backfill_window` is declared: a backfill may reach any date."
                : "A backfill may reach back " + spec.backfillWindow() + " from today (`backfill_window`).");
        md.heading(3, "Replay");
        if (spec.hotPath() == null) {
            md.paragraph("No hot path: a batch partition is replayed by a rerun (above) or by `quarantine reprocess` (below).");
        } else {
            block(md, "# stop `sluice hot-path " + n + "` first; then move the stored positions back and start it again",
                    "sluice replay " + n + " --from-time " + SAMPLE_DAY + "T00:00:00Z",
                    "sluice replay " + n + " --from-offsets 0:1200,1:980",
                    "sluice hot-path " + n);
        }
        md.heading(3, "Quarantine");
        block(md, "sluice quarantine list " + n,
                "sluice quarantine show " + n + " ID",
                "# judge OPEN entries again under the current contract and rules; passing rows reach a new Silver version",
                "sluice quarantine reprocess " + n);
        md.heading(3, "Rollback");
        List<TableSpec> published = spec.tables().stream().filter(t -> t.layer() != Layer.BRONZE).toList();
        rollback(md, published, n, p);
        md.heading(3, "Purge");
        block(md, "sluice purge " + n + " --older-than P90D --dry-run", "sluice purge " + n + " --older-than P90D");
        md.paragraph(spec.backfillWindow() == null ? "No `backfill_window` is declared, so purge removes nothing."
                : "Partitions inside the backfill window (" + spec.backfillWindow() + ") are never purged.");
        md.heading(3, "Inspect");
        block(md, "sluice status " + n,
                "sluice quality show " + n + " --partition " + p,
                "sluice lineage upstream " + published.stream().reduce((a, b) -> b).map(TableSpec::stepName).orElse("DATASET")
                        + " --pipeline " + n,
                "sluice docs " + n + " --out docs/pipelines/" + n + ".md");
    }

    private static void block(Markdown md, String... lines) {
        md.blank();
        md.raw("```sh\n" + String.join("\n", lines) + "\n```\n");
        md.blank();
    }

    /** The key {@code t} is rolled back by: none for a snapshot, the rollup's period, else the run's. */
    private static String key(TableSpec t, String runKey) {
        return t.outputPartition(new Partition(runKey)).key();
    }

    private static String sample(PartitionKind kind, int daysLater) {
        ZonedDateTime t = LocalDate.parse(SAMPLE_DAY).plusDays(daysLater).atStartOfDay(ZoneOffset.UTC);
        return kind.containing(t).key();
    }

    private static void rollback(Markdown md, List<TableSpec> published, String n, String p) {
        String[] rollback = new String[published.size() + 1];
        rollback[0] = "# publish the version before the current one again (--to-version V picks another kept version)";
        for (int i = 0; i < published.size(); i++) {
            TableSpec t = published.get(i);
            rollback[i + 1] = "sluice rollback " + n + " " + t.stepName() + " --partition " + key(t, p) + " --reason \"why\"";
        }
        block(md, rollback);
        md.paragraph("Tables built from a rolled-back partition are not rebuilt: re-run them with `--rerun` if they must follow.");
    }
}
