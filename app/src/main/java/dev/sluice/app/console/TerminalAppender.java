package dev.sluice.app.console;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.AppenderBase;
import ch.qos.logback.core.encoder.Encoder;
import java.nio.charset.StandardCharsets;
import org.jspecify.annotations.Nullable;

/**
 * The log's console appender (logback-spring.xml): each event as its encoder writes it, one line,
 * through {@link TerminalLines} so that it prints above a progress bar; events at WARN or above are
 * counted for the run's summary. Thread-safe (logback serialises {@code append}).
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
        lines.println(text);
        if (event.getLevel().isGreaterOrEqual(Level.WARN)) {
            lines.warned();
        }
    }
}
