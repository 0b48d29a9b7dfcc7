package dev.sluice.core;

/** A failure that may pass when tried again unchanged (a lost connection, a lock timeout). */
public class RetriableSluiceException extends SluiceException {

    public RetriableSluiceException(String message, Throwable cause) {
        super(message, cause);
    }
}
