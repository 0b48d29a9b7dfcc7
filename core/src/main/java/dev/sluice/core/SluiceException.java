package dev.sluice.core;

/**
 * Root of Sluice's unchecked exceptions. Its message is written for the person running the
 * pipeline: the command line prints it as one paragraph, without a stack trace. Callers branch on
 * the type ({@link RetriableSluiceException}, {@link BadInputException}), never on the message.
 */
public class SluiceException extends RuntimeException {

    public SluiceException(String message) {
        super(message);
    }

    public SluiceException(String message, Throwable cause) {
        super(message, cause);
    }
}
