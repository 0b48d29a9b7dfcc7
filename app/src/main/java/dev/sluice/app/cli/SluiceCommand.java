package dev.sluice.app.cli;

import dev.sluice.batch.backfill.BackfillRefusedException;
import dev.sluice.batch.job.LandingMissingException;
import dev.sluice.batch.job.RunRefusedException;
import dev.sluice.config.SluiceEnvironment;
import dev.sluice.config.SpecValidationException;
import dev.sluice.core.BadInputException;
import dev.sluice.core.Partition;
import dev.sluice.core.SluiceException;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine;

/**
 * {@code sluice}: the top command. User errors print one paragraph (no stack trace) and map to an
 * exit code ({@link ExitCodes}); unexpected errors are logged in full to the log file.
 */
@Command(name = "sluice", mixinStandardHelpOptions = true, version = "sluice 0.1.0",
        description = "Batch-and-hybrid data pipelines: medallion loads, quality gates, lineage, hot path.",
        subcommands = {ValidateCommand.class, SampleDataCommand.class, RunCommand.class, QuickstartCommand.class,
                SqlCommand.class, ContractCommand.class, RollbackCommand.class, EraseCommand.class, QualityCommand.class, LineageCommand.class, ServeCommand.class,
                BackfillCommand.class, SchedulerCommand.class, StatusCommand.class, CancelCommand.class, PurgeCommand.class,
                HotPathCommand.class, ProduceCommand.class, ReplayCommand.class, QuarantineCommand.class, KafkaDevCommand.class,
                AdviseCommand.class, DocsCommand.class},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:success", "1:a run failed (a plain run restarts it from the failed step)",
                "2:invalid input (spec, arguments, landing files)", "3:refused (partition COMPLETED: use --rerun; or it is running)",
                "4:stopped on request (a step timeout, sluice cancel, SIGTERM/SIGINT): a plain run resumes it",
                "70:internal error (see $${SLUICE_HOME}/logs/sluice.log)"})
public final class SluiceCommand implements Runnable {

    private static final Logger LOG = LoggerFactory.getLogger(SluiceCommand.class);

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    /** Runs the command line with the process environment and returns the exit code. */
    public static int execute(String... args) {
        // UTF-8 whatever the platform's default: tables and messages print "…" and "×"
        PrintWriter out = new PrintWriter(new OutputStreamWriter(System.out, StandardCharsets.UTF_8), true);
        PrintWriter err = new PrintWriter(new OutputStreamWriter(System.err, StandardCharsets.UTF_8), true);
        try {
            return execute(SluiceEnvironment.system(), out, err, args);
        } finally {
            // autoflush flushes println and printf only: a command's last print() must not be lost at System.exit
            out.flush();
            err.flush();
        }
    }

    /** Runs the command line in {@code env}, writing to {@code out} and {@code err}. */
    public static int execute(SluiceEnvironment env, PrintWriter out, PrintWriter err, String... args) {
        return commandLine(env, out, err).execute(args);
    }

    /**
     * The command line in {@code env}, writing to {@code out} and {@code err}, with its converters
     * and its mapping of exceptions to exit codes; not yet executed. Not thread-safe: one per call.
     */
    static CommandLine commandLine(SluiceEnvironment env, PrintWriter out, PrintWriter err) {
        SluiceContext ctx = new SluiceContext(env);
        CommandLine cli = new CommandLine(new SluiceCommand(), new ContextFactory(ctx));
        cli.registerConverter(LocalDate.class, s -> {
            try {
                return Partition.parseDaily(s).date();
            } catch (SluiceException e) {
                throw new CommandLine.TypeConversionException(e.getMessage()); // the wrong form, or a day that does not exist
            }
        });
        cli.setOut(out);
        cli.setErr(err);
        cli.setExecutionExceptionHandler((e, commandLine, parseResult) -> {
            int code;
            if (e instanceof SpecValidationException) {
                code = ExitCodes.INVALID;
            } else if (e instanceof RunRefusedException || e instanceof BackfillRefusedException) {
                code = ExitCodes.REFUSED;
            } else if (e instanceof LandingMissingException || e instanceof BadInputException) {
                code = ExitCodes.INVALID;
            } else if (e instanceof SluiceException) {
                code = ExitCodes.RUN_FAILED;
            } else {
                LOG.error("internal error", e);
                err.println("sluice: internal error: " + e + " (the stack trace is in " + ctx.home().resolve("logs/sluice.log") + ")");
                return ExitCodes.INTERNAL;
            }
            LOG.info("command failed: {}", e.getMessage());
            err.println("sluice: " + e.getMessage());
            return code;
        });
        cli.setParameterExceptionHandler((e, a) -> {
            err.println("sluice: " + e.getMessage());
            e.getCommandLine().usage(err);
            return ExitCodes.INVALID;
        });
        return cli;
    }

    /** Gives commands the shared context through their constructor. */
    private record ContextFactory(SluiceContext ctx) implements CommandLine.IFactory {
        @Override
        public <K> K create(Class<K> cls) throws Exception {
            try {
                return cls.getDeclaredConstructor(SluiceContext.class).newInstance(ctx);
            } catch (NoSuchMethodException e) {
                return CommandLine.defaultFactory().create(cls);
            }
        }
    }
}
