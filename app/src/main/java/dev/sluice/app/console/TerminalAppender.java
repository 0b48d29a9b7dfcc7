package dev.sluice.app.console;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.AppenderBase;
import ch.qos.logback.core.encoder.Encoder;
import dev.sluice.batch.job.PipelineRunner;
import java.nio.charset.StandardCharsets;
import org.jspecify.annotations.Nullable;
import org.slf4j.event.KeyValuePair;

/**
 * The log's console appender (logback-spring.xml): each event as its encoder writes it, one line,
 * through {@link TerminalLines} so that it prints above a progress bar; events at WARN or above are
 * counted for the run's summary. A warning of a quality check ({@link PipelineRunner#WARNING_KIND})
 * prints the first time its check warns; the later ones are summed up by kind at the end
 * ({@link TerminalLines#repeatedWarnings()}), and the log file keeps each in full. Thread-safe (logback serialises {@code append}).
 */
public final class TerminalAppender extends AppenderBase<ILoggingEvent> {

    private @Nullable Encoder<ILoggingEvent> encoder;
    private TerminalLines lines = TerminalLines.stderr();

    /** The line format (logback's {@code <encoder>}). */
    public void setEncoder(Encoder<ILoggingEvent> encoder) {
        this.encoder = encoder;
    }

    /** Where the lines go (default: the process's stderr). */
    public void setLines(TerminalLines lines) {
        this.lines = lines;
    }

    @Override
    public void start() {
        if (encoder == null) {
            addError("no encoder set for the appender named \"" + name + "\"");
            return;
        }
        super.start();
    }

    @Override
    protected void append(ILoggingEvent event) {
        String text = new String(encoder.encode(event), StandardCharsets.UTF_8).stripTrailing();
        String kind = kind(event);
        if (kind != null) {
            String partition = event.getMDCPropertyMap().getOrDefault("partition", "");
            if (lines.warnedOf(kind, partition, text)) {
                lines.println(text + " (more of this check are summed up at the end)");
            }
            return;
        }
        lines.println(text);
        if (event.getLevel().isGreaterOrEqual(Level.WARN)) {
            lines.warned();
        }
    }

    /** The kind of a warning that is summed up when repeated ({@link PipelineRunner#WARNING_KIND}), or null. */
    private static @Nullable String kind(ILoggingEvent event) {
        if (!event.getLevel().isGreaterOrEqual(Level.WARN) || event.getKeyValuePairs() == null) {
            return null;
        }
        for (KeyValuePair kv : event.getKeyValuePairs()) {
            if (PipelineRunner.WARNING_KIND.equals(kv.key) && kv.value != null) {
                return kv.value.toString();
            }
        }
        return null;
    }
}
