package dev.sluice.app.cli;

import dev.sluice.batch.bronze.LandingFiles;
import dev.sluice.batch.contract.FileSchemas;
import dev.sluice.control.drift.SchemaDriftRepository;
import dev.sluice.config.ContractSpec;
import dev.sluice.config.CsvOptions;
import dev.sluice.config.PipelineSpec;
import dev.sluice.config.SchemaChange;
import dev.sluice.config.SchemaDiff;
import dev.sluice.config.SourceFormat;
import dev.sluice.config.SourceSpec;
import dev.sluice.core.BadInputException;
import dev.sluice.warehouse.Warehouse;
import java.io.PrintWriter;
import java.nio.charset.Charset;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import org.jooq.Result;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine;

/** {@code sluice contract diff|check}: schema drift recorded by loads, and one file judged against a contract. */
@Command(name = "contract", mixinStandardHelpOptions = true, description = "Schema contracts: recorded drift, or judge one file.",
        subcommands = {ContractCommand.Diff.class, ContractCommand.Check.class})
final class ContractCommand implements Runnable {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec command;

    @Override
    public void run() {
        command.commandLine().usage(command.commandLine().getOut());
    }

    /** {@code sluice contract diff <pipeline>}: every drift the pipeline's loads recorded. */
    @Command(name = "diff", mixinStandardHelpOptions = true, description = "The schema drift recorded by a pipeline's loads.")
    static final class Diff implements Callable<Integer> {
        private final SluiceContext ctx;

        @Parameters(index = "0", paramLabel = "PIPELINE", description = "pipeline name (pipelines/<name>.yaml) or spec file")
        String pipeline;

        @CommandLine.Spec
        CommandLine.Model.CommandSpec command;

        Diff(SluiceContext ctx) {
            this.ctx = ctx;
        }

        @Override
        public Integer call() {
            PipelineSpec spec = ctx.loadForInspection(pipeline);
            PrintWriter out = command.commandLine().getOut();
            try (Warehouse w = Warehouse.open(spec.warehouse())) {
                Result<?> r = new SchemaDriftRepository(w.dsl()).summary(spec.name());
                if (r.isEmpty()) {
                    out.println(spec.name() + ": no schema drift recorded");
                } else {
                    out.println(r.format(1000));
                }
            }
            return ExitCodes.OK;
        }
    }

    /** {@code sluice contract check <file> --contract <contract>}: judges one file without loading it. */
    @Command(name = "check", mixinStandardHelpOptions = true, description = "Judge one file against a contract without loading it;"
            + " exit 0 when it would load, 2 when it would be refused.")
    static final class Check implements Callable<Integer> {
        private final SluiceContext ctx;

        @Parameters(index = "0", paramLabel = "FILE", description = "the file to judge (csv, parquet, json or ndjson)")
        Path file;

        @Option(names = "--contract", required = true, paramLabel = "CONTRACT", description = "the contract file")
        Path contract;

        @Option(names = "--format", description = "parquet, csv, json or ndjson (default: from the file name)")
        String format;

        @Option(names = "--array-path", defaultValue = "", description = "for JSON, the JSON pointer of the record array (e.g. /features)")
        String arrayPath;

        @Option(names = "--delimiter", description = "for CSV, the field separator (default ,; e.g. ';', '|', or a tab)")
        Character delimiter;

        @Option(names = "--quote", description = "for CSV, the quote character (default \")")
        Character quote;

        @Option(names = "--escape", description = "for CSV, the escape character (default none)")
        Character escape;

        @Option(names = "--encoding", description = "for CSV, the character set (default UTF-8; e.g. ISO-8859-1, UTF-16)")
        String encoding;

        /** Changes printed one by one; the rest are counted. */
        static final int MAX_PRINTED_CHANGES = 20;

        @CommandLine.Spec
        CommandLine.Model.CommandSpec command;

        Check(SluiceContext ctx) {
            this.ctx = ctx;
        }

        @Override
        public Integer call() {
            ContractSpec c = ctx.loader().loadContract(contract);
            String name = file.getFileName().toString().toLowerCase(Locale.ROOT);
            String f = format != null ? format : name.endsWith(".parquet") ? "parquet" : name.endsWith(".csv") ? "csv"
                    : name.endsWith(".ndjson") || name.endsWith(".jsonl") ? "ndjson" : name.endsWith(".json") ? "json" : "";
            SourceFormat fmt = SourceFormat.parse(f).orElseThrow(() -> new BadInputException(file.toString(), -1, null,
                    "cannot tell the format from the name; give --format parquet|csv|json|ndjson"));
            String display = LandingFiles.display(ctx.home(), file);
            var source = new SourceSpec("file", fmt, file.toString(), false, c, arrayPath, null, Map.of(),
                    csvOptions());
            List<SchemaChange> changes = SchemaDiff.of(c, FileSchemas.read(source, file, display));
            PrintWriter out = command.commandLine().getOut();
            if (changes.isEmpty()) {
                out.println(display + ": matches contract " + c.label());
                return ExitCodes.OK;
            }
            out.println(display + " against contract " + c.label() + " (drift: " + c.drift().id() + "):");
            changes.stream().limit(MAX_PRINTED_CHANGES).forEach(ch -> out.println("  " + ch.describe()));
            if (changes.size() > MAX_PRINTED_CHANGES) {
                out.println("  … and " + (changes.size() - MAX_PRINTED_CHANGES) + " more changes");
            }
            boolean refused = SchemaDiff.refusal(changes).isPresent();
            out.println(refused ? "verdict: REFUSED (a load would write nothing)" : "verdict: would load");
            return refused ? ExitCodes.INVALID : ExitCodes.OK;
        }

        /** The CSV dialect the options give (each defaulting as a source's {@code csv:} map does). */
        private CsvOptions csvOptions() {
            var d = CsvOptions.DEFAULT;
            Charset cs;
            try {
                cs = encoding == null ? d.encoding() : Charset.forName(encoding);
            } catch (IllegalArgumentException e) {
                throw new BadInputException("--encoding", -1, null, "'" + encoding + "' is not a character set this JVM knows;"
                        + " e.g. UTF-8, ISO-8859-1, windows-1252, UTF-16");
            }
            try {
                return new CsvOptions(delimiter == null ? d.delimiter() : delimiter, quote == null ? d.quote() : quote,
                        escape, cs, List.of());
            } catch (IllegalArgumentException e) {
                throw new BadInputException("--delimiter/--quote/--escape", -1, null, e.getMessage());
            }
        }
    }
}
